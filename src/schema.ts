import 'reflect-metadata'
import { buildSchema, getMetadataStorage, type NonEmptyArray, type PubSub } from 'type-graphql'
import { assertValidSchema, GraphQLObjectType, lexicographicSortSchema, printSchema, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql'
import { AuthResolver, UserResolver } from './modules/auth/graphql.js'
import { CredentialResolver } from './modules/credentials/graphql.js'
import { ApiProxyResolver, ProjectApiProxiesResolver } from './modules/apiproxies/proxies/graphql.js'
import { AiProxyResolver } from './modules/apiproxies/ai/graphql.js'
import { ApiProxyEndpointVersionsResolver, GatewayEndpointResolver } from './modules/apiproxies/endpoints/graphql.js'
import { ApiClientManagerResolver } from './modules/apiclients/graphql.js'
import { ApiClientResolver, ApplicationLimitAssignmentsResolver, ApplicationResolver, ProjectIdentityResolver } from './modules/identity/graphql.js'
import { ApplicationReadResolver, ConsumerLimitAssignmentsResolver, ConsumerResolver } from './modules/identity/consumers/graphql.js'
import { EntitlementResolver } from './modules/identity/entitlements/graphql.js'
import { IdentityLifecycleResolver } from './modules/identity/lifecycle/graphql.js'
import { GeolocationResolver } from './modules/geolocation/graphql.js'
import { WebhookConnectionResolver } from './modules/webhooks/graphql.js'
import { WebhookEventResolver } from './modules/events/webhooks/graphql.js'
import { LimitBulkRunResolver } from './modules/limits/bulk/graphql.js'
import { InstallationLicenseResolver } from './modules/licence/graphql.js'
import { LimitDefaultResolver } from './modules/limits/defaults/graphql.js'
import { LimitSelectorResolver } from './modules/limits/manager/graphql.js'
import { TransferResolver } from './modules/transfer/graphql.js'
import { AuditEventResolver } from './modules/audit/graphql.js'
import { StoredObjectResolver } from './modules/objects/graphql.js'
import { EnvironmentResolver, OrganizationResolver, ProjectResolver } from './modules/projects/graphql.js'
import { budgetResolvers } from './modules/budgets/graphql.js'
import { PRESET_RESOLVERS } from './modules/presets/graphql.js'

import { LimitPlanResolver, LimitPlanRevisionResolver } from './modules/limits/plans/graphql.js'
import { LimitAssignmentResolver, LimitPlanAssignmentsResolver } from './modules/limits/assignments/graphql.js'
import { KnowledgeBaseResolver, LlmCatalogResolver, LlmProviderResolver, VectorDbResolver } from './modules/llm/graphql.js'
import { automationResolvers } from './modules/environments/graphql.js'
import { ApiProxyAutomationResolver } from './modules/apiproxies/proxies/automation/graphql.js'
import { ApiProxyPolicyResolver } from './modules/apiproxies/policies/graphql.js'
import { ApiProxyGroupResolver } from './modules/apiproxies/groups/graphql.js'
import { ApiProxyEndpointRelationsResolver, ApiProxyRelationsResolver } from './modules/apiproxies/proxies/relations/graphql.js'
import { ApiProxySettingsResolver, ApiProxyTypedSettingsResolver } from './modules/apiproxies/settings/graphql.js'
import { DeploymentResolver } from './modules/apiproxies/deployments/graphql.js'
import { ApiProxyMethodsResolver } from './modules/apiproxies/methods/graphql.js'
import { GatewayEndpointSettingsResolver } from './modules/apiproxies/endpoints/settings/graphql.js'
import { CredentialRoleResolver } from './modules/credentials/roles/graphql.js'
import { CredentialMaterialResolver } from './modules/credentials/material/graphql.js'
import { TrustMaterialResolver } from './modules/keys/graphql.js'
import { ConnectionResolver } from './modules/connections/graphql.js'
import { EventSubscriptionResolver } from './modules/events/graphql.js'
import { RlclResolver } from './modules/rlcl/graphql.js'
import { ApiClientMigrationResolver } from './modules/migration/graphql.js'
import { PortalLimitResolver } from './modules/limits/manager/portal/graphql.js'
import { KeysDoorsResolver } from './modules/keys/graphql.js'
import { KeyFilesResolver } from './modules/key-files/graphql.js'
import { ReportResolver } from './modules/reports/graphql.js'
import { DeclarativeResolver } from './modules/declarative/graphql.js'
import { UtilityLookupResolver } from './modules/utility/graphql.js'
import { ExportImportResolver } from './modules/transfer/catalog/graphql.js'
import { ApiCreatorResolver } from './modules/creators/graphql.js'
import { GlobalPolicyResolver } from './modules/apiproxies/global-policies/graphql.js'
import { PolicyGroupResolver } from './modules/apiproxies/policy-groups/graphql.js'
import { PromotionResolver } from './modules/promotion/graphql.js'
import { PortalResolver } from './modules/portal/graphql.js'

import { TrafficLogSettingsResolver } from './modules/apiproxies/traffic-log/graphql.js'
import { ApiProxyReadsResolver } from './modules/apiproxies/reads/graphql.js'
/** Every module's resolvers: the GraphQL door. */
export const resolvers: NonEmptyArray<Function> = [
  AuthResolver,
  UserResolver,
  CredentialResolver,
  EnvironmentResolver,
  ProjectResolver,
  OrganizationResolver,
  ApplicationResolver,
  ProjectIdentityResolver,
  ApiClientResolver,
  ApplicationReadResolver,
  ConsumerResolver,
  EntitlementResolver,
  IdentityLifecycleResolver,
  ApiProxyResolver,
  ProjectApiProxiesResolver,
  AiProxyResolver,
  GatewayEndpointResolver,
  ApiProxyEndpointVersionsResolver,
  StoredObjectResolver,
  ApiClientManagerResolver,
  GeolocationResolver,
  WebhookConnectionResolver,
  WebhookEventResolver,
  LimitBulkRunResolver,
  InstallationLicenseResolver,
  LimitDefaultResolver,
  LimitSelectorResolver,
  TransferResolver,
  AuditEventResolver,
  ...budgetResolvers,
  ...PRESET_RESOLVERS,
  LimitPlanResolver,
  LimitPlanRevisionResolver,
  LimitAssignmentResolver,
  ConsumerLimitAssignmentsResolver,
  ApplicationLimitAssignmentsResolver,
  LimitPlanAssignmentsResolver,
  LlmProviderResolver,
  LlmCatalogResolver,
  VectorDbResolver,
  KnowledgeBaseResolver,
  ...automationResolvers,
  ApiProxyAutomationResolver,
  ApiProxyPolicyResolver,
  ApiProxyGroupResolver,
  ApiProxyRelationsResolver,
  ApiProxyEndpointRelationsResolver,
  DeploymentResolver,
  ApiProxyMethodsResolver,
  ApiProxySettingsResolver,
  ApiProxyTypedSettingsResolver,
  GatewayEndpointSettingsResolver,
  CredentialRoleResolver,
  CredentialMaterialResolver,
  TrustMaterialResolver,
  ConnectionResolver,
  EventSubscriptionResolver,
  RlclResolver,
  ApiClientMigrationResolver,
  PortalLimitResolver,
  KeysDoorsResolver,
  KeyFilesResolver,
  ReportResolver,
  DeclarativeResolver,
  UtilityLookupResolver,
  ExportImportResolver,
  ApiCreatorResolver,
  GlobalPolicyResolver,
  PolicyGroupResolver,
  PromotionResolver,
  PortalResolver,
  TrafficLogSettingsResolver,
  ApiProxyReadsResolver,
]

/**
 * Every subscription brings its own `subscribe` (events come from the database's LISTEN/NOTIFY bus, not from topics),
 * but TypeGraphQL refuses to build a Subscription type without a PubSub: this one says so if anything ever uses it.
 */
const noTopicPubSub: PubSub = {
  publish: () => {
    throw new Error('subscriptions here use their own subscribe function, not PubSub topics')
  },
  subscribe: () => {
    throw new Error('subscriptions here use their own subscribe function, not PubSub topics')
  },
}

/**
 * A plain `@Field` (a property of the row, no middleware, no `@Authorized`, the GraphQL name the property's) is
 * left to graphql-js's default resolver: TypeGraphQL otherwise gives each one a resolver of its own that builds
 * a middleware chain per value (a page of 20 rows of 10 fields: 200 of them per request) to read a property.
 * Fields with middleware or roles keep TypeGraphQL's resolver, so anything added later still runs.
 */
function plainFieldsResolveByDefault() {
  const storage = getMetadataStorage()
  const guarded = (f: { target: Function; name: string }) =>
    storage.middlewares.some((m) => m.target === f.target && m.fieldName === f.name) ||
    storage.authorizedFields.some((a) => a.target === f.target && a.fieldName === f.name)
  for (const field of storage.fields) {
    if (field.simple === undefined && field.schemaName === field.name && !guarded(field)) field.simple = true
  }
}

/**
 * TypeGraphQL's own check runs the whole introspection query over the schema (a fifth of start-up CPU);
 * graphql-js's validation finds the same errors at a fraction of the cost, and caches its result on the schema.
 */
export async function buildGraphqlSchema(): Promise<GraphQLSchema> {
  plainFieldsResolveByDefault()
  const schema = await buildSchema({ resolvers, validate: false, skipCheck: true, pubSub: noTopicPubSub })
  assertValidSchema(schema)
  leanFieldResolvers(schema)
  return schema
}

let built: Promise<GraphQLSchema> | undefined

/**
 * The schema the app serves, built once per process: it holds no state of a service (resolvers take the service's
 * dependencies from the request's context, TypeGraphQL's container keeps one instance per resolver class whatever
 * the build, and the audit wrapper, auditMutationFields, marks a schema it wrapped), so a process that starts the
 * service again (the test suite: every file starts its own service in the worker's one module graph) reuses it
 * instead of spending 0.1–0.6 s on another build. A failed build is not kept.
 */
export function graphqlSchema(): Promise<GraphQLSchema> {
  built ??= buildGraphqlSchema().catch((err: unknown) => {
    built = undefined
    throw err
  })
  return built
}

type AnyClass = abstract new (...args: never[]) => unknown

/**
 * A `@FieldResolver` that takes only the row as it is (`@Root()` of no class), the context and the info, with no
 * middleware or roles, is called straight: TypeGraphQL's handler builds, for every value of every row, a
 * resolver-data object, sorts and maps the parameter list and asks its container for the resolver instance (a page
 * of 20 rows with `id` and `organizationCode`: 40 such calls). The call and its arguments are the same.
 */
function leanFieldResolvers(schema: GraphQLSchema) {
  const storage = getMetadataStorage()
  const instances = new Map<Function, Record<string, (...args: unknown[]) => unknown>>()
  const registered = storage.fieldResolvers.filter((fr) => fr.kind === 'external' && (resolvers as Function[]).includes(fr.target))
  for (const fr of registered) {
    if (fr.roles?.length || fr.middlewares?.length || !fr.getObjectType) continue
    // two resolvers of one field: TypeGraphQL's choice stands
    if (registered.some((o) => o !== fr && o.schemaName === fr.schemaName && o.getObjectType?.() === fr.getObjectType!())) continue
    const params = [...(fr.params ?? [])].sort((a, b) => a.index - b.index)
    const lean = params.every((p) =>
      (p.kind === 'context' && !p.propertyName) || p.kind === 'info' ||
      (p.kind === 'root' && !p.propertyName && (!p.getType || p.getType() === Object)))
    if (!lean) continue
    const owner = fr.getObjectType() as AnyClass
    // the type that declares the resolver and the types that extend it without resolving the field themselves
    const types = storage.objectTypes.filter((t) => t.target === owner ||
      (t.target.prototype instanceof owner && !registered.some((o) => o.schemaName === fr.schemaName && o.getObjectType?.() === t.target)))
    let instance = instances.get(fr.target)
    if (!instance) instances.set(fr.target, (instance = new (fr.target as new () => Record<string, (...args: unknown[]) => unknown>)()))
    const method = instance[fr.methodName]!
    const kinds = params.map((p) => p.kind)
    const self = instance
    const resolve: GraphQLFieldResolver<unknown, unknown> =
      kinds.length === 1 && kinds[0] === 'root' ? (root) => method.call(self, root)
        : kinds.length === 2 && kinds[0] === 'root' && kinds[1] === 'context' ? (root, _args, ctx) => method.call(self, root, ctx)
          : (root, _args, ctx, info) => method.apply(self, kinds.map((k) => (k === 'root' ? root : k === 'context' ? ctx : info)))
    for (const t of types) {
      const type = schema.getType(t.name)
      const field = type instanceof GraphQLObjectType ? type.getFields()[fr.schemaName] : undefined
      if (field) field.resolve = resolve
    }
  }
}

/** The SDL as checked in at schema/schema.graphql: sorted, so that only real changes show as drift. */
export async function printSchemaSdl(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildGraphqlSchema())) + '\n'
}
