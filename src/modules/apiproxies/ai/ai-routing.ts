import { z } from 'zod'
import { malformed } from '../../../platform/errors/domain-error.js'
import { enumOf, httpUrl, objectName } from '../../../platform/validation/common.js'
import { CREDENTIALS_IN_URL, hasNoCredentials, isCredentialHeader } from '../shared/clear-secrets.js'
import { relativePath as relativePathSchema } from '../proxies/automation/inputs.js'
import { backendAuth, canonicalServer, checkServerSpelling, pageServerFields } from './backend-auth-schema.js'

// Routing configs of AI, MCP and A2A proxies (spec §4.5; bodies "not shown": identifiers documented in docs/apiproxies.md).
// One schema per config, shared by REST and GraphQL. Objects are strict: a misspelt field is refused, not ignored.

export const ROUTED_KINDS = ['AI', 'MCP', 'A2A'] as const
export type RoutedKind = (typeof ROUTED_KINDS)[number]

export const AI_STRATEGIES = ['PRIORITY', 'ROUND_ROBIN', 'WEIGHTED', 'LEAST_LATENCY', 'LEAST_COST'] as const
/** TOOL_EXPOSE: the newest pages' mode exposing the project's API proxies as MCP tools (exposedTools) */
export const MCP_ROUTING_MODES = ['PASSTHROUGH', 'AGGREGATE', 'TOOL_EXPOSE'] as const
export const A2A_ROUTING_MODES = ['AGENT_EXPOSE', 'PASSTHROUGH', 'SKILL_ROUTE'] as const
export const A2A_DEFAULT_ROUTING_MODE = 'AGENT_EXPOSE'
export const BACKEND_LOAD_BALANCING = ['FAILOVER', 'ROUND_ROBIN', 'WEIGHTED'] as const
/** HTTP_SSE: the newest pages' name, stored as sent */
export const MCP_TRANSPORTS = ['STREAMABLE_HTTP', 'SSE', 'HTTP_SSE'] as const
export const A2A_PROTOCOLS = ['JSONRPC', 'HTTP_JSON'] as const

export const MAX_TARGETS = 50
export const MAX_BACKEND_SERVERS = 50
export const DEFAULT_FALLBACK_STATUSES = [429, 500, 502, 503, 504]

const int = () => z.number().int('must be an integer')
const weight = () => int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(1)
const timeoutMs = (dflt: number) => int().min(1, 'must be at least 1').max(600_000, 'must be at most 600000').default(dflt)

const header = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name')
    .refine((n) => !isCredentialHeader(n), 'carries a credential: set it through auth, where it is stored encrypted and never returned'),
  value: z.string(),
})

const backendServerFields = {
  name: objectName,
  url: httpUrl.refine(hasNoCredentials, CREDENTIALS_IN_URL).optional(),
  weight: weight(),
  enabled: z.boolean().default(true),
  timeoutMs: timeoutMs(30_000),
  headers: z.array(header).max(50, 'at most 50 headers').default([]),
  auth: backendAuth.optional(),
}

export const MCP_PROTOCOL_VERSIONS = ['2024-11-05', '2025-06-18', '2026-07-28'] as const

const mcpServer = z
  .strictObject({
    ...backendServerFields,
    ...pageServerFields,
    transport: enumOf(MCP_TRANSPORTS).default('STREAMABLE_HTTP'),
    /** AGGREGATE: prefix of this server's tool names, so that tools of several servers cannot collide */
    toolPrefix: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1 to 32 letters, digits, _ or -').nullish().default(null),
  })
  .superRefine(checkServerSpelling)
  .transform(canonicalServer)

const a2aServer = z
  .strictObject({
    ...backendServerFields,
    ...pageServerFields,
    protocol: enumOf(A2A_PROTOCOLS).default('JSONRPC'),
    /** SKILL_ROUTE: ids of the skills this agent serves */
    skills: z.array(z.string().trim().min(1, 'must not be blank')).max(200).default([]),
  })
  .superRefine(checkServerSpelling)
  .transform(canonicalServer)

/** Objects the newest pages name without listing their fields: stored and pushed as sent. */
const pageObject = z.record(z.string(), z.unknown())
const identityAcl = z
  .array(z.looseObject({ principalType: enumOf(['CREDENTIAL', 'ROLE', 'ORGANIZATION']) }))
  .max(500, 'at most 500 entries')
/** Governance fields both MCP and A2A routings carry on the newest pages. */
const pageGovernanceFields = {
  identityAcl: identityAcl.nullish(),
  callQuota: pageObject.nullish(),
  tokenForwardSettings: pageObject.nullish(),
}

const toolName = z.string().trim().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be 1 to 128 letters, digits, _, . or -')
const exposedTool = z.strictObject({
  /** the page's target proxy id, stored as sent (a proxy's id is not shown by our reads; proxyName is) */
  proxyId: z.string().trim().min(1, 'must not be blank').nullish(),
  proxyName: objectName.nullish(),
  toolName,
  toolDescription: z.string().max(2000, 'must be at most 2000 characters').nullish(),
  overrideSchema: pageObject.nullish(),
  apiMethodHttpMethod: enumOf(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']).nullish(),
  apiMethodPath: z.string().trim().startsWith('/', "must start with '/'").max(500).nullish(),
  requiredScopes: z.array(z.string().trim().min(1, 'must not be blank')).max(50).default([]),
  argumentConstraints: z.array(pageObject).max(100).default([]),
})

const agentSkill = z.strictObject({
  id: z.string().trim().min(1, 'must not be blank'),
  name: z.string().trim().min(1, 'must not be blank'),
  description: z.string().nullish().default(null),
  tags: z.array(z.string()).default([]),
})

const agentCard = z.strictObject({
  /** the newest pages take the agent's name from the proxy: optional */
  name: z.string().trim().min(1, 'must not be blank').nullish().default(null),
  description: z.string().max(2000, 'must be at most 2000 characters').nullish().default(null),
  /** the newest pages' name of description */
  descriptionOverride: z.string().max(2000, 'must be at most 2000 characters').nullish().default(null),
  version: z.string().trim().min(1).nullish().default(null),
  inputModes: z.array(z.string().trim().min(1, 'must not be blank')).max(50).default([]),
  outputModes: z.array(z.string().trim().min(1, 'must not be blank')).max(50).default([]),
  skills: z.array(agentSkill).max(200).default([]),
})

const aiTarget = z.strictObject({
  providerName: z.string().trim().min(1, 'must not be blank'),
  /** a model id of the provider; null lets the caller's request pick the model */
  model: z.string().trim().min(1, 'must not be blank').nullish().default(null),
  weight: weight(),
  /** lower runs first under PRIORITY */
  priority: int().min(0, 'must be at least 0').max(1000, 'must be at most 1000').default(0),
  enabled: z.boolean().default(true),
  timeoutMs: timeoutMs(60_000),
})

const statusList = z.array(int().min(400, 'must be an HTTP status 400..599').max(599, 'must be an HTTP status 400..599')).max(20)

const seconds = (max: number) => int().min(1, 'must be at least 1').max(max, `must be at most ${max}`)
const ms = () => int().min(0, 'must be at least 0').max(600_000, 'must be at most 600000')
const providerName = z.string().trim().min(1, 'must not be blank')
/** one provider of the newest page's failover chain or primary pool, by name (ids are not accepted) */
const pageProviderEntry = {
  llmProviderRefName: providerName,
  modelId: z.string().trim().min(1, 'must not be blank').nullish(),
  displayName: z.string().max(200).nullish(),
}

/**
 * The newest AI routing page's fields (update-ai-routing.mdx), by name: the primary provider (llmProviderRefName,
 * modelId), its failover chain and primary pool become the routing's targets; every field is stored and pushed.
 * Ids (llmProviderRef, credentialRef, semanticEmbeddingProviderRef) are not accepted. The outbound proxy's password
 * is sealed like a backend secret.
 */
export const AI_PAGE_FIELDS = {
  llmProviderRefName: providerName.nullish(),
  modelId: z.string().trim().min(1, 'must not be blank').nullish(),
  streaming: z.boolean().nullish(),
  timeoutSeconds: seconds(3600).nullish(),
  connectTimeoutSeconds: seconds(600).nullish(),
  streamTimeoutSeconds: seconds(3600).nullish(),
  maxResponseBytes: int().nullish(),
  maxChunks: int().nullish(),
  retryCount: int().min(0, 'must be at least 0').max(10, 'must be at most 10').nullish(),
  retryDelayType: enumOf(['NO_DELAY', 'FIXED', 'EXPONENTIAL_BACKOFF']).nullish(),
  retryFixedDelayMs: ms().nullish(),
  retryInitialDelayMs: ms().nullish(),
  retryMaxDelayMs: ms().nullish(),
  retryBackoffMultiplier: z.number().min(1, 'must be at least 1').max(10, 'must be at most 10').nullish(),
  failoverStrategy: enumOf(['SEQUENTIAL', 'ROUND_ROBIN', 'CONDITIONAL']).nullish(),
  providerFailoverChain: z
    .array(z.strictObject({ ...pageProviderEntry, timeoutMs: ms().nullish(), orderIndex: int().min(0).max(1000).nullish() }))
    .max(MAX_TARGETS, `at most ${MAX_TARGETS} entries`)
    .nullish(),
  failoverStatusCodeList: statusList.nullish(),
  failoverRetryCount: int().min(0, 'must be at least 0').max(10, 'must be at most 10').nullish(),
  conditionalLatencyThresholdMs: ms().nullish(),
  primaryPool: z
    .array(z.strictObject({ ...pageProviderEntry, weight: int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').nullish() }))
    .max(MAX_TARGETS, `at most ${MAX_TARGETS} entries`)
    .nullish(),
  enumAiRoutingAlgorithm: enumOf(['ROUND_ROBIN', 'WEIGHTED', 'RANDOM', 'LEAST_COST', 'PREFIX_AFFINITY', 'LRU']).nullish(),
  leastCostOutputRatio: z.number().min(0, 'must be at least 0').nullish(),
  affinityKeyHeader: z.string().trim().min(1, 'must not be blank').max(200).nullish(),
  affinityLoadFactor: z.number().min(1, 'must be at least 1').nullish(),
  conditionalRoutes: z
    .array(z.strictObject({
      name: z.string().trim().min(1, 'must not be blank'),
      condition: z.string().nullish(),
      llmProviderRefName: providerName.nullish(),
      modelId: z.string().trim().min(1, 'must not be blank').nullish(),
      semanticUtterances: z.array(z.string()).max(200).nullish(),
      semanticThreshold: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').nullish(),
    }))
    .max(MAX_TARGETS, `at most ${MAX_TARGETS} entries`)
    .nullish(),
  semanticEmbeddingModelId: z.string().trim().min(1).nullish(),
  circuitBreakerEnabled: z.boolean().nullish(),
  errorWindow: int().min(1).max(3600).nullish(),
  errorThresholdValue: int().min(1).max(1_000_000).nullish(),
  enumErrorThresholdType: enumOf(['COUNT', 'PERCENTAGE']).nullish(),
  sleepWindow: int().min(1).max(3600).nullish(),
  halfOpenEnabled: z.boolean().nullish(),
  proxyEnabled: z.boolean().nullish(),
  proxyHost: z.string().trim().min(1, 'must not be blank').max(253).nullish(),
  proxyPort: int().min(1, 'must be a port 1..65535').max(65535, 'must be a port 1..65535').nullish(),
  proxyAuthorizationNeeded: z.boolean().nullish(),
  proxyUsername: z.string().trim().min(1, 'must not be blank').max(200).nullish(),
  /** secret: sealed, never returned (proxyPasswordSet); blank keeps the stored one */
  proxyPassword: z.string().max(1000).nullish(),
  mTLSSettings: pageObject.nullish(),
  disableSslValidation: z.boolean().nullish(),
  blockAnonymousRequests: z.boolean().nullish(),
  anonymousBudget: pageObject.nullish(),
}

export const aiRoutingInput = z.strictObject({
  strategy: enumOf(AI_STRATEGIES).default('PRIORITY'),
  targets: z.array(aiTarget).max(MAX_TARGETS, `at most ${MAX_TARGETS} targets`).default([]),
  fallbackOnStatus: statusList.default(DEFAULT_FALLBACK_STATUSES),
  maxAttempts: int().min(1, 'must be at least 1').max(10, 'must be at most 10').default(3),
  ...AI_PAGE_FIELDS,
})

export const mcpRoutingInput = z.strictObject({
  /** omitted on replace: the proxy keeps its mode */
  routingMode: enumOf(MCP_ROUTING_MODES).nullish(),
  loadBalancing: enumOf(BACKEND_LOAD_BALANCING).default('FAILOVER'),
  backendServers: z.array(mcpServer).max(MAX_BACKEND_SERVERS, `at most ${MAX_BACKEND_SERVERS} backend servers`).default([]),
  protocolVersion: enumOf(MCP_PROTOCOL_VERSIONS).nullish(),
  /** TOOL_EXPOSE: the tools served */
  exposedTools: z.array(exposedTool).max(200, 'at most 200 tools').nullish(),
  /** PASSTHROUGH: the backend tools exposed (all when omitted) */
  allowedToolNames: z.array(toolName).max(500).nullish(),
  toolOutputFilter: pageObject.nullish(),
  argumentConstraints: z.array(pageObject).max(100).nullish(),
  ...pageGovernanceFields,
})

export const a2aRoutingInput = z.strictObject({
  routingMode: enumOf(A2A_ROUTING_MODES).nullish(),
  loadBalancing: enumOf(BACKEND_LOAD_BALANCING).default('FAILOVER'),
  backendServers: z.array(a2aServer).max(MAX_BACKEND_SERVERS, `at most ${MAX_BACKEND_SERVERS} backend servers`).default([]),
  agentCard: agentCard.nullish().default(null),
  protocolVersion: z.string().trim().min(1, 'must not be blank').max(20).nullish(),
  pushSettings: pageObject.nullish(),
  /** PASSTHROUGH: the backend skills exposed (all when omitted) */
  allowedSkillNames: z.array(z.string().trim().min(1, 'must not be blank')).max(500).nullish(),
  ...pageGovernanceFields,
})

export type AiRoutingValues = z.output<typeof aiRoutingInput>
export type McpRoutingValues = z.output<typeof mcpRoutingInput>
export type A2aRoutingValues = z.output<typeof a2aRoutingInput>
export type BackendServerValues = McpRoutingValues['backendServers'][number] | A2aRoutingValues['backendServers'][number]
export type RoutingValues = AiRoutingValues | McpRoutingValues | A2aRoutingValues

export const routingSchemaOf = { AI: aiRoutingInput, MCP: mcpRoutingInput, A2A: a2aRoutingInput } as const

/**
 * The proxy creation bodies: name (must equal the path name), description, groups, and an optional first routing;
 * or the newest pages' flat form (create-ai/mcp/a2a-api-proxy.mdx): `relativePath` (the client route), AI
 * `llmProviderName`, `modelId`, `streaming`, MCP/A2A `protocolVersion` and `backendServers` (the first routing's,
 * folded into `routing`). The flat routing fields cannot be sent with `routing`.
 */
const createFields = {
  name: z.string().nullish(),
  description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
  groups: z.array(objectName).default([]),
  relativePath: relativePathSchema.nullish(),
}
export const createInputOf = {
  AI: z.strictObject({
    ...createFields,
    routing: aiRoutingInput.nullish(),
    llmProviderName: providerName.nullish(),
    modelId: z.string().trim().min(1, 'must not be blank').nullish(),
    streaming: z.boolean().nullish(),
  }),
  MCP: z.strictObject({
    ...createFields,
    routingMode: enumOf(MCP_ROUTING_MODES),
    routing: mcpRoutingInput.omit({ routingMode: true }).nullish(),
    protocolVersion: enumOf(MCP_PROTOCOL_VERSIONS).nullish(),
    backendServers: z.array(mcpServer).max(MAX_BACKEND_SERVERS, `at most ${MAX_BACKEND_SERVERS} backend servers`).nullish(),
  }),
  A2A: z.strictObject({
    ...createFields,
    routingMode: enumOf(A2A_ROUTING_MODES).default(A2A_DEFAULT_ROUTING_MODE),
    routing: a2aRoutingInput.omit({ routingMode: true }).nullish(),
    protocolVersion: z.string().trim().min(1, 'must not be blank').max(20).nullish(),
    backendServers: z.array(a2aServer).max(MAX_BACKEND_SERVERS, `at most ${MAX_BACKEND_SERVERS} backend servers`).nullish(),
  }),
} as const

/** The flat fields of a creation body that belong to the first routing. */
export const FLAT_ROUTING_FIELDS = { AI: ['llmProviderName', 'modelId', 'streaming'], MCP: ['protocolVersion', 'backendServers'], A2A: ['protocolVersion', 'backendServers'] } as const

// ---------------------------------------------------------------------------------------------------------------
// Standalone outbound MCP / A2A connections no longer exist (spec §4.5): a body that names one is refused with
// a message saying what to do instead, rather than the generic "unknown field".

/** Object types of the retired standalone connection resources, as an export package would name them. */
export const STANDALONE_CONNECTION_TYPES = [
  'MCP_CONNECTION', 'A2A_CONNECTION', 'MCP_SERVER', 'A2A_AGENT', 'MCP_SERVER_CONNECTION', 'A2A_AGENT_CONNECTION', 'OUTBOUND_MCP_CONNECTION', 'OUTBOUND_A2A_CONNECTION',
] as const

const STANDALONE_REFERENCE_KEYS = /^(mcp|a2a|outbound)?_?(server|agent)?_?connection(s|Name|Names|Id|Ids|Ref|Refs|Reference)?$/i

export const standaloneConnectionRefused = (where: string) =>
  malformed(
    `${where}: standalone outbound MCP/A2A connections no longer exist; declare the backend servers inline in the routing (backendServers)`,
    { field: where, reason: 'standaloneConnectionNotSupported' },
  )

/** Refuses a request body that references a standalone connection, at any depth (top level, routing, server entries). */
export function refuseStandaloneConnectionReferences(body: unknown, path = ''): void {
  if (Array.isArray(body)) return body.forEach((v, i) => refuseStandaloneConnectionReferences(v, `${path}[${i}]`))
  if (!body || typeof body !== 'object') return
  for (const [key, value] of Object.entries(body)) {
    const here = path ? `${path}.${key}` : key
    if (STANDALONE_REFERENCE_KEYS.test(key) && value !== null && value !== undefined) throw standaloneConnectionRefused(here)
    if (key === '_class' || key === 'type') {
      if (typeof value === 'string' && isStandaloneConnectionType(value)) throw standaloneConnectionRefused(here)
    }
    refuseStandaloneConnectionReferences(value, here)
  }
}

/** Whether an object type (of an export package, a bootstrap file, a request) names a retired standalone connection. */
export function isStandaloneConnectionType(type: string): boolean {
  const norm = type.trim().toUpperCase().replace(/[\s-]+/g, '_')
  return (STANDALONE_CONNECTION_TYPES as readonly string[]).includes(norm) || /^(OUTBOUND_)?(MCP|A2A)(_SERVER|_AGENT)?_?CONNECTION$/.test(norm)
}
