import { z } from 'zod'
import { malformed } from '../../../platform/errors/domain-error.js'
import { httpUrl, objectName } from '../../../platform/validation/common.js'
import { CREDENTIALS_IN_URL, hasNoCredentials, isCredentialHeader } from '../shared/clear-secrets.js'

// Routing configs of AI, MCP and A2A proxies (spec §4.5; bodies "not shown": identifiers documented in docs/apiproxies.md).
// One schema per config, shared by REST and GraphQL. Objects are strict: a misspelt field is refused, not ignored.

export const ROUTED_KINDS = ['AI', 'MCP', 'A2A'] as const
export type RoutedKind = (typeof ROUTED_KINDS)[number]

export const AI_STRATEGIES = ['PRIORITY', 'ROUND_ROBIN', 'WEIGHTED', 'LEAST_LATENCY', 'LEAST_COST'] as const
export const MCP_ROUTING_MODES = ['PASSTHROUGH', 'AGGREGATE'] as const
export const A2A_ROUTING_MODES = ['AGENT_EXPOSE', 'PASSTHROUGH', 'SKILL_ROUTE'] as const
export const A2A_DEFAULT_ROUTING_MODE = 'AGENT_EXPOSE'
export const BACKEND_LOAD_BALANCING = ['FAILOVER', 'ROUND_ROBIN', 'WEIGHTED'] as const
export const MCP_TRANSPORTS = ['STREAMABLE_HTTP', 'SSE'] as const
export const A2A_PROTOCOLS = ['JSONRPC', 'HTTP_JSON'] as const
export const BACKEND_AUTH_SCHEMES = ['NONE', 'BEARER', 'API_KEY_HEADER', 'BASIC'] as const

export const MAX_TARGETS = 50
export const MAX_BACKEND_SERVERS = 50
export const DEFAULT_FALLBACK_STATUSES = [429, 500, 502, 503, 504]

const int = () => z.number().int('must be an integer')
const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` })
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

/** Credentials a backend server is called with; `token` and `password` are secrets (sealed, never returned). */
const backendAuth = z
  .strictObject({
    scheme: enumOf(BACKEND_AUTH_SCHEMES).default('NONE'),
    headerName: z.string().trim().min(1, 'must not be blank').nullish(),
    token: z.string().nullish(),
    username: z.string().trim().min(1, 'must not be blank').nullish(),
    password: z.string().nullish(),
  })
  .superRefine((a, ctx) => {
    if (a.scheme === 'API_KEY_HEADER' && !a.headerName) ctx.addIssue({ code: 'custom', path: ['headerName'], message: 'is required for scheme API_KEY_HEADER' })
    if (a.scheme === 'BASIC' && !a.username) ctx.addIssue({ code: 'custom', path: ['username'], message: 'is required for scheme BASIC' })
  })

const backendServerFields = {
  name: objectName,
  url: httpUrl.refine(hasNoCredentials, CREDENTIALS_IN_URL),
  weight: weight(),
  enabled: z.boolean().default(true),
  timeoutMs: timeoutMs(30_000),
  headers: z.array(header).max(50, 'at most 50 headers').default([]),
  auth: backendAuth.default({ scheme: 'NONE' }),
}

const mcpServer = z.strictObject({
  ...backendServerFields,
  transport: enumOf(MCP_TRANSPORTS).default('STREAMABLE_HTTP'),
  /** AGGREGATE: prefix of this server's tool names, so that tools of several servers cannot collide */
  toolPrefix: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1 to 32 letters, digits, _ or -').nullish().default(null),
})

const a2aServer = z.strictObject({
  ...backendServerFields,
  protocol: enumOf(A2A_PROTOCOLS).default('JSONRPC'),
  /** SKILL_ROUTE: ids of the skills this agent serves */
  skills: z.array(z.string().trim().min(1, 'must not be blank')).max(200).default([]),
})

const agentSkill = z.strictObject({
  id: z.string().trim().min(1, 'must not be blank'),
  name: z.string().trim().min(1, 'must not be blank'),
  description: z.string().nullish().default(null),
  tags: z.array(z.string()).default([]),
})

const agentCard = z.strictObject({
  name: z.string().trim().min(1, 'must not be blank'),
  description: z.string().max(2000, 'must be at most 2000 characters').nullish().default(null),
  version: z.string().trim().min(1).nullish().default(null),
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

export const aiRoutingInput = z.strictObject({
  strategy: enumOf(AI_STRATEGIES).default('PRIORITY'),
  targets: z.array(aiTarget).max(MAX_TARGETS, `at most ${MAX_TARGETS} targets`).default([]),
  fallbackOnStatus: statusList.default(DEFAULT_FALLBACK_STATUSES),
  maxAttempts: int().min(1, 'must be at least 1').max(10, 'must be at most 10').default(3),
})

export const mcpRoutingInput = z.strictObject({
  /** omitted on replace: the proxy keeps its mode */
  routingMode: enumOf(MCP_ROUTING_MODES).nullish(),
  loadBalancing: enumOf(BACKEND_LOAD_BALANCING).default('FAILOVER'),
  backendServers: z.array(mcpServer).max(MAX_BACKEND_SERVERS, `at most ${MAX_BACKEND_SERVERS} backend servers`).default([]),
})

export const a2aRoutingInput = z.strictObject({
  routingMode: enumOf(A2A_ROUTING_MODES).nullish(),
  loadBalancing: enumOf(BACKEND_LOAD_BALANCING).default('FAILOVER'),
  backendServers: z.array(a2aServer).max(MAX_BACKEND_SERVERS, `at most ${MAX_BACKEND_SERVERS} backend servers`).default([]),
  agentCard: agentCard.nullish().default(null),
})

export type AiRoutingValues = z.output<typeof aiRoutingInput>
export type McpRoutingValues = z.output<typeof mcpRoutingInput>
export type A2aRoutingValues = z.output<typeof a2aRoutingInput>
export type BackendServerValues = McpRoutingValues['backendServers'][number] | A2aRoutingValues['backendServers'][number]
export type RoutingValues = AiRoutingValues | McpRoutingValues | A2aRoutingValues

export const routingSchemaOf = { AI: aiRoutingInput, MCP: mcpRoutingInput, A2A: a2aRoutingInput } as const

/** The proxy creation bodies: name (must equal the path name), description, groups, and an optional first routing. */
const createFields = {
  name: z.string().nullish(),
  description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
  groups: z.array(objectName).default([]),
}
export const createInputOf = {
  AI: z.strictObject({ ...createFields, routing: aiRoutingInput.nullish() }),
  MCP: z.strictObject({ ...createFields, routingMode: enumOf(MCP_ROUTING_MODES), routing: mcpRoutingInput.omit({ routingMode: true }).nullish() }),
  A2A: z.strictObject({
    ...createFields,
    routingMode: enumOf(A2A_ROUTING_MODES).default(A2A_DEFAULT_ROUTING_MODE),
    routing: a2aRoutingInput.omit({ routingMode: true }).nullish(),
  }),
} as const

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

// ---------------------------------------------------------------------------------------------------------------
// Rules across fields, per mode. Each problem names its field.

const problem = (field: string, message: string) => malformed(`${field}: ${message}`, { field })

function uniqueNames(servers: { name: string }[], field: string) {
  const seen = new Set<string>()
  servers.forEach((s, i) => {
    const key = s.name.toLowerCase()
    if (seen.has(key)) throw problem(`${field}[${i}].name`, `backend server '${s.name}' is listed twice`)
    seen.add(key)
  })
}

export function checkAiRouting(r: AiRoutingValues): void {
  const seen = new Set<string>()
  r.targets.forEach((t, i) => {
    const key = `${t.providerName.toLowerCase()}|${t.model ?? ''}`
    if (seen.has(key)) throw problem(`targets[${i}]`, `provider '${t.providerName}'${t.model ? ` with model '${t.model}'` : ''} is listed twice`)
    seen.add(key)
  })
  if (r.targets.length && !r.targets.some((t) => t.enabled)) throw problem('targets', 'at least one target must be enabled')
}

export function checkMcpRouting(mode: string, r: McpRoutingValues): void {
  uniqueNames(r.backendServers, 'backendServers')
  const enabled = r.backendServers.filter((s) => s.enabled)
  if (r.backendServers.length && !enabled.length) throw problem('backendServers', 'at least one backend server must be enabled')
  if (mode === 'AGGREGATE') {
    const prefixes = new Set<string>()
    r.backendServers.forEach((s, i) => {
      if (r.backendServers.length > 1 && !s.toolPrefix) throw problem(`backendServers[${i}].toolPrefix`, 'is required in AGGREGATE mode when several servers are listed')
      if (s.toolPrefix) {
        if (prefixes.has(s.toolPrefix.toLowerCase())) throw problem(`backendServers[${i}].toolPrefix`, `'${s.toolPrefix}' is used by another server`)
        prefixes.add(s.toolPrefix.toLowerCase())
      }
    })
  }
}

export function checkA2aRouting(mode: string, r: A2aRoutingValues): void {
  uniqueNames(r.backendServers, 'backendServers')
  if (r.backendServers.length && !r.backendServers.some((s) => s.enabled)) throw problem('backendServers', 'at least one backend server must be enabled')
  if (mode === 'SKILL_ROUTE') {
    const owner = new Map<string, string>()
    r.backendServers.forEach((s, i) => {
      if (!s.skills.length) throw problem(`backendServers[${i}].skills`, 'SKILL_ROUTE needs the skills each server serves')
      for (const skill of s.skills) {
        const other = owner.get(skill)
        if (other) throw problem(`backendServers[${i}].skills`, `skill '${skill}' is already served by '${other}'`)
        owner.set(skill, s.name)
      }
    })
  }
  if (r.agentCard) {
    const ids = new Set<string>()
    r.agentCard.skills.forEach((s, i) => {
      if (ids.has(s.id)) throw problem(`agentCard.skills[${i}].id`, `skill id '${s.id}' is listed twice`)
      ids.add(s.id)
    })
  }
}
