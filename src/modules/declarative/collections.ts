import { z } from 'zod'
import { declaredApiClientInput } from '../apiclients/inputs.js'
import { credentialUpdate } from '../credentials/service.js'
import { applicationUpdate } from '../identity/applications.js'
import { normalizeApplication, placeClientSecret, splitClientSecrets } from '../apiclients/application-transfer-adapter.js'
import { environmentValueInput } from '../envvars/service.js'
import { normalizeGroup } from '../apiproxies/groups/transfer-adapter.js'
import { groupInput } from '../apiproxies/groups/service.js'
import { normalizeVariable, placeVariableSecret, splitVariableSecrets } from '../envvars/transfer-adapter.js'
import { endpointRows, type ProxyPackage } from '../apiproxies/proxies/portable.js'
import { findAdapter, type TransferAdapter } from '../../platform/transfer/registry.js'
import { createShape } from '../limits/plans/inputs.js'
import { FAMILIES } from '../limits/shared/enums.js'
import { validateAudienceRule } from '../limits/assignments/body.js'
import { budgetInput } from '../budgets/budget-object.js'
import { budgetUpdate } from '../budgets/service.js'
import { normalizeRoutedProxy, placeBackendSecret, splitBackendSecrets } from '../apiproxies/ai/transfer-adapter.js'

/**
 * The collections a state document can list (docs/declarative.md): each is one transfer type (and kind) of the
 * transfer engine's registry, under the camelCase name the REST surface uses. Objects travel as the transfer
 * engine's portable objects; a document object is `{ <natural key>, ...data, <secret fields> }`.
 *
 * The order of COLLECTIONS is the dependency order: a plan creates and updates in this order and deletes in the
 * reverse order (an RLCL names credentials and API proxies; a knowledge base its LLM provider; a proxy's
 * policies name keys, certificates, connections and IP groups).
 */
export interface Collection {
  /** the key in the document, e.g. `credentials` */
  key: string
  /** the transfer type, e.g. CREDENTIAL */
  type: string
  /** the kind of a multi-kind type (certificates, keys, keystores, jwks), else null */
  kind: string | null
  /** the field holding the natural key */
  nameField: 'name' | 'username' | 'planKey'
  /** the object's fields besides its natural key, renamedFrom and managedBy (the JSON Schema of the collection) */
  fields: z.ZodObject
  /** fields a file may leave out when it creates an object (the adapter fills the others); never listed as changes */
  createDefaults: Record<string, unknown>
  /** the secret fields a file may carry at the top level of an object */
  secretFields: readonly string[]
  /** which stored objects the collection holds (API proxies: the REST ones; the others are not declarative yet) */
  accepts?(data: Record<string, unknown>): boolean
  /** secrets nested in an object (not top-level fields): takes them out of the file's object (else secretFields are used) */
  splitSecrets?(obj: Record<string, unknown>): { data: Record<string, unknown>; secrets: Record<string, string> }
  /** where a dump with `--secrets refs` writes the reference of a secret (default: the top-level field of its name) */
  placeSecret?(obj: Record<string, unknown>, key: string, ref: string): void
  /** brings a field value of the file to the form the server stores (e.g. a date to its ISO form) */
  normalize?(data: Record<string, unknown>): Record<string, unknown>
}

const open = (description: string) => z.object({}).catchall(z.unknown()).describe(description)

// the update schema (no defaults): a field the file leaves out stays as stored, and a create's defaults are filled by
// the credentials module when it writes (a parsed file never holds a default the file did not say: no false drift)
const credentialFields = credentialUpdate
  .omit({ username: true, password: true, organizationCode: true, expireDate: true })
  .extend({
    password: z.string().optional().describe('secret: a ${env:NAME} or ${file:path} reference the CLI resolves; left out = keep the stored one'),
    organizationCode: z.string().nullish(),
    applicationName: z.string().nullish().describe('the application (by name) the credential belongs to'),
    expireDate: z.string().nullish().describe('ISO-8601 date-time'),
    trafficLogDisabled: z.boolean().nullish(),
    passwordReference: z.string().nullish().describe('a ${variable} the gateway resolves (not a secret)'),
  })
  .strict()

// the application's update body (absent = keep), its consumers by username and its API clients by clientId
const applicationFields = applicationUpdate
  .omit({ name: true })
  .extend({
    consumers: z.array(z.string()).optional().describe('usernames of the credentials the application owns (its consumers)'),
    apiClients: z
      .array(declaredApiClientInput.extend({
        validFrom: z.string().nullish().describe('ISO-8601 date-time'),
        expiresAt: z.string().nullish().describe('ISO-8601 date-time'),
        clientSecret: z.string().optional().describe('secret: a ${env:NAME} or ${file:path} reference the CLI resolves (16 to 512 characters); left out = keep the stored one (a new client without one is PENDING_SECRET)'),
      }).strict())
      .optional()
      .describe('the API clients the application owns, by clientId; the list is whole: a client it leaves out is deleted (and undeployed). A client secret is absent (kept) or a reference'),
  })
  .strict()

// the create and update body without its name; a value that is not visible is a secret (a ${env:NAME} reference)
const variableFields = z
  .object({
    description: z.string().max(1000).nullish(),
    global: z.boolean().optional(),
    globalVisible: z.boolean().optional(),
    globalValue: z.string().nullish().describe('the global value; a secret (a ${env:NAME} or ${file:path} reference) when globalVisible is false; left out = keep the stored one'),
    environmentValueList: z
      .array(environmentValueInput.extend({
        visible: z.boolean().optional(),
        value: z.string().nullish().describe('a secret (a ${env:NAME} or ${file:path} reference) unless visible; left out = keep the stored one'),
      }).strict())
      .optional()
      .describe('one value per environment of the project, when global is false'),
  })
  .strict()

// the group's create/update body without its name, and its members by proxy name
const groupFields = groupInput
  .omit({ name: true })
  .extend({
    clientRoute: groupInput.shape.clientRoute.nullish().describe('the client route as the group pages take it (required to create; a group the bootstrap made may have none)'),
    apiProxies: z.array(z.string().min(1)).optional().describe('the names of the API proxies the group holds; the list is whole'),
  })
  .strict()

const proxyFields = z
  .object({
    kind: z.literal('REST').optional(),
    description: z.string().nullish(),
    creationType: z.enum(['OPEN_API', 'SWAGGER', 'REVERSE_PROXY']).nullish(),
    relativePath: z.string().nullish(),
    settings: z.record(z.string(), z.unknown()).nullish().describe('the proxy settings (client route, routing, …) as GET answers them'),
    endpoints: z.array(z.record(z.string(), z.unknown())).optional().describe('endpoints by version, method and path'),
    policies: z.array(z.record(z.string(), z.unknown())).optional().describe('policies: name, pipeline, order, endpoint, policy'),
  })
  .strict()

// the plan's create/update body (absent = keep), its lifecycle and the rule spec it enforces
const limitPlanFields = z
  .object({
    family: z.enum(FAMILIES).optional().describe('REQUEST_RATE or AI_TOKEN_BUDGET (required to create; never changes)'),
    name: createShape.shape.name.describe('the display name, unique in the family (required to create)'),
    nameTr: createShape.shape.nameTr,
    description: createShape.shape.description,
    labels: createShape.shape.labels,
    lifecycle: z.enum(['DRAFT', 'PUBLISHED', 'RETIRED']).optional().describe('moves forward only, as publish and retire do (default DRAFT)'),
    ruleSpec: z.record(z.string(), z.unknown()).optional().describe('the rule spec the plan enforces: exactly the arm of its family (requestRate or aiBudget); a change is published when the plan is'),
  })
  .strict()

// the PUT body's budget object (absent fields keep their stored values) and a binding's budgetSource
const budgetFields = z
  .object({
    budgetSource: budgetUpdate.shape.budgetSource.describe('a binding only: CREDENTIAL, ORGANIZATION or INHERIT (default)'),
    budget: budgetInput.optional().describe('the budget object of the AI budget PUT (spec §2.9)'),
  })
  .strict()

// the AI/MCP/A2A creation and routing bodies: the routing is checked by the AI proxy service when the plan is applied
const aiProxyFields = z
  .object({
    kind: z.enum(['AI', 'MCP', 'A2A']).optional().describe('AI, MCP or A2A (required to create; never changes)'),
    description: z.string().max(1000).nullish(),
    relativePath: z.string().max(1000).nullish().describe('the path the gateway serves the proxy under, unique in the project'),
    routingMode: z.string().nullish().describe('MCP: PASSTHROUGH or AGGREGATE; A2A: AGENT_EXPOSE (default), PASSTHROUGH or SKILL_ROUTE; AI: none'),
    routing: z.record(z.string(), z.unknown()).nullish().describe('the routing body of the kind (targets, or backendServers…); a backend server\'s auth token and password and an AI routing\'s proxyPassword are secrets (${env:NAME} or ${file:path} references; left out = keep the stored one)'),
  })
  .strict()

// the assignment body of spec §2.13 without its bindingKey and version: plans by planKey, subject and target by natural key
const limitAssignmentFields = z
  .object({
    subject: z.object({ type: z.enum(['PLATFORM', 'PROJECT', 'API_PROXY', 'ORGANIZATION', 'CONSUMER', 'APPLICATION', 'API_CLIENT', 'AUDIENCE_RULE']), key: z.string().nullish() }).strict().describe('the subject: its type and natural key (consumer username, application name, clientId, organization code, API proxy name; for AUDIENCE_RULE the label the file names the rule by, its bindingKey for a rule created by REST)'),
    family: z.enum(FAMILIES).describe('REQUEST_RATE or AI_TOKEN_BUDGET'),
    actorScope: z.string().optional().describe('ANY (default), AUTHENTICATED or ANONYMOUS'),
    target: z.record(z.string(), z.unknown()).optional().describe('the target: type, apiProxyName, apiProxyGroupName, environmentName, targetKey, httpMethods'),
    status: z.enum(['DRAFT', 'ACTIVE']).optional().describe('DRAFT (default) or ACTIVE; an ACTIVE one never goes back to DRAFT'),
    audienceRule: z.record(z.string(), z.unknown()).nullish().describe('AUDIENCE_RULE subjects only: the audience rule (identitySource, variableId, operator, value, outOfTargetAction, generalQuotaMode, generalQuotaWindows)'),
  })
  .catchall(z.unknown())

/** An audience rule in its stored form (validateAudienceRule's defaults), so a short rule is no drift; a bad one is left for the apply to refuse. */
function normalizeAssignment(d: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(d.audienceRule)) return d
  try {
    return { ...d, audienceRule: validateAudienceRule(d.audienceRule) }
  } catch {
    return d
  }
}

const rlclFields = z
  .object({
    description: z.string().nullish(),
    credentialNameList: z.array(z.string()).optional(),
    endpointRateLimitList: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .catchall(z.unknown())

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * A file's endpoint in the form the live side reads it (the endpoint rules' defaults filled: kind, operationId,
 * backend method and path, path parameters, …), so that `{ method, path }` planned against the endpoint it created is
 * no change. An endpoint the rules refuse is left as written: the apply refuses it with its field path.
 */
function storedEndpoint(raw: unknown): unknown {
  if (!isRecord(raw)) return raw
  try {
    const [row] = endpointRows({ label: 'endpoints', data: { endpoints: [raw] } } as unknown as ProxyPackage, { kind: 'REST', name: '' })
    const { version, pathKey: _, cache, wsa, ...fields } = row!
    return { version, ...fields, description: fields.description ?? null, requestBody: fields.requestBody ?? null, routing: fields.routing ?? null, cache: cache ?? null, wsa: wsa ?? null }
  } catch {
    return raw
  }
}

const endpointOrder = (e: unknown) => (isRecord(e) ? [e.version, e.path, e.method].map((v) => String(v ?? '')) : ['', '', ''])

/** Endpoints in the stored form and order (version, path, method: the order the live side reads them in). */
function normalizeProxy(d: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(d.endpoints)) return d
  const endpoints = d.endpoints.map(storedEndpoint).sort((a, b) => {
    const [x, y] = [endpointOrder(a), endpointOrder(b)]
    for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1
    return 0
  })
  return { ...d, endpoints }
}

const isoDate = (v: unknown) => {
  if (typeof v !== 'string' || !v) return v
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? v : d.toISOString()
}

const opaque = (key: string, type: string, kind: string | null, description: string): Omit<Collection, 'secretFields'> => ({
  key, type, kind, nameField: 'name', fields: open(description), createDefaults: {},
})

const DEFINITIONS: Omit<Collection, 'secretFields'>[] = [
  {
    key: 'limitPlans', type: 'LIMIT_PLAN', kind: null, nameField: 'planKey', fields: limitPlanFields,
    createDefaults: { nameTr: null, description: null, labels: [], lifecycle: 'DRAFT', ruleSpec: null },
  },
  opaque('ipGroups', 'IP_GROUP', null, 'an IP group: its content as stored (e.g. ipList)'),
  opaque('certificates', 'CERTIFICATE', 'CERTIFICATE', 'a certificate; per-environment data under environments'),
  opaque('keys', 'CERTIFICATE', 'CRYPTO_KEY_INFO', 'a crypto key; per-environment data under environments'),
  opaque('keystores', 'CERTIFICATE', 'KEY_STORE', 'a keystore; per-environment data under environments'),
  opaque('jwks', 'CERTIFICATE', 'JWK', 'a JWK; per-environment data under environments'),
  opaque('connections', 'CONNECTION', null, 'a connection: type, description, enabled, deployToWorker and the fields of its type'),
  opaque('llmProviders', 'LLM_PROVIDER', null, 'an LLM provider as its page answers it'),
  opaque('knowledgeBases', 'KNOWLEDGE_BASE', null, 'a knowledge base as its page answers it'),
  {
    key: 'credentials', type: 'CREDENTIAL', kind: null, nameField: 'username', fields: credentialFields,
    createDefaults: {},
    normalize: (d) => ('expireDate' in d ? { ...d, expireDate: isoDate(d.expireDate) } : d),
  },
  {
    key: 'applications', type: 'APPLICATION', kind: null, nameField: 'name', fields: applicationFields,
    createDefaults: { applicationKind: 'INTERNAL', referenceId: null, description: null, organizationCode: null, consumers: [], apiClients: [] },
    normalize: normalizeApplication, splitSecrets: splitClientSecrets, placeSecret: placeClientSecret,
  },
  {
    key: 'environmentVariables', type: 'ENVIRONMENT_VARIABLE', kind: null, nameField: 'name', fields: variableFields,
    createDefaults: { description: null, global: false, globalVisible: true, globalValue: null, environmentValueList: [] },
    normalize: normalizeVariable, splitSecrets: splitVariableSecrets, placeSecret: placeVariableSecret,
  },
  { key: 'apiProxies', type: 'API_PROXY', kind: null, nameField: 'name', fields: proxyFields, createDefaults: { kind: 'REST', endpoints: [], policies: [] }, accepts: (d) => d.kind === 'REST', normalize: normalizeProxy },
  {
    key: 'aiProxies', type: 'AI_PROXY', kind: null, nameField: 'name', fields: aiProxyFields,
    createDefaults: { description: null, relativePath: null, routingMode: null, routing: null }, splitSecrets: splitBackendSecrets, placeSecret: placeBackendSecret, normalize: normalizeRoutedProxy,
  },
  {
    key: 'apiProxyGroups', type: 'API_PROXY_GROUP', kind: null, nameField: 'name', fields: groupFields,
    createDefaults: { description: null, apiProxies: [] }, normalize: normalizeGroup,
  },
  {
    key: 'limitAssignments', type: 'LIMIT_ASSIGNMENT', kind: null, nameField: 'name', fields: limitAssignmentFields,
    createDefaults: { actorScope: 'ANY', status: 'DRAFT', customRuleSpec: null, validFrom: null, validUntil: null }, normalize: normalizeAssignment,
  },
  {
    key: 'budgets', type: 'AI_BUDGET', kind: null, nameField: 'name', fields: budgetFields, createDefaults: { budget: {} },
  },
  { key: 'rlcls', type: 'RLCL', kind: null, nameField: 'name', fields: rlclFields, createDefaults: {} },
]

/** Secret fields a file object may hold at its top level: the adapter's, without the nested ones (a/b). */
const topLevelSecrets = (adapter: TransferAdapter | undefined) => (adapter?.secretFields ?? []).filter((f) => !f.includes('/') && !f.includes('<'))

let built: Collection[] | null = null

/** The collections, in dependency order (the transfer adapters must be registered first). */
export function collections(): Collection[] {
  built ??= DEFINITIONS.map((d) => ({ ...d, secretFields: topLevelSecrets(findAdapter(d.type)) }))
  return built
}

export const COLLECTION_KEYS = DEFINITIONS.map((d) => d.key)

export const collectionByKey = (key: string) => collections().find((c) => c.key === key)

export const adapterOf = (c: Collection): TransferAdapter => {
  const adapter = findAdapter(c.type)
  if (!adapter) throw new Error(`no transfer adapter for ${c.type}`)
  return adapter
}

/** The zod schema of one object of a collection, as the document holds it. */
export function objectSchema(c: Omit<Collection, 'secretFields'>) {
  const key = { [c.nameField]: z.string().min(1, 'is required').max(200).describe(c.nameField === 'planKey' ? 'the natural key: the plan key assignments name the plan by' : 'the natural key') }
  return c.fields.extend({
    ...key,
    renamedFrom: z.string().min(1).optional().describe('the name the object had: the plan renames it instead of deleting and creating'),
    managedBy: z.string().optional().describe('read only: the namespace that owns the object (written by dump, ignored by plans)'),
  })
}

export const DEFINITION_LIST = DEFINITIONS
