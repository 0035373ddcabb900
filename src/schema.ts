import 'reflect-metadata'
import { buildSchema, type NonEmptyArray, type PubSub } from 'type-graphql'
import { assertValidSchema, lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql'
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
import { KeysDoorsResolver } from './modules/keys/doors-graphql.js'
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
 * TypeGraphQL's own check runs the whole introspection query over the schema (a fifth of start-up CPU);
 * graphql-js's validation finds the same errors at a fraction of the cost, and caches its result on the schema.
 */
export async function buildGraphqlSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({ resolvers, validate: false, skipCheck: true, pubSub: noTopicPubSub })
  assertValidSchema(schema)
  return schema
}

/** The SDL as checked in at schema/schema.graphql: sorted, so that only real changes show as drift. */
export async function printSchemaSdl(): Promise<string> {
  return printSchema(lexicographicSortSchema(await buildGraphqlSchema())) + '\n'
}
