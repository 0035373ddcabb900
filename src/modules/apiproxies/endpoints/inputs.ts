import { z } from 'zod'
import { enumOf, objectName } from '../../../platform/validation/common.js'
import { CREDENTIALS_IN_URL, hasNoCredentials, literalSecrets, SECRET_IN_CONFIG } from '../shared/clear-secrets.js'

// Gateway endpoints (spec §2.18, §9.6): one input schema, shared by every door. Identifiers the spec leaves open
// are documented in docs/apiproxies.md.

export const ENDPOINT_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'ALL'] as const
export const ENDPOINT_KINDS = ['REST', 'SOAP', 'GRPC', 'WEBSOCKET'] as const
export const PARAMETER_LOCATIONS = ['QUERY', 'PATH', 'HEADER'] as const
export const POLICY_TYPES = ['SECURITY', 'RATE_LIMIT', 'TRANSFORMATION', 'VALIDATION'] as const
export const POLICY_PHASES = ['REQUEST', 'RESPONSE'] as const
export const LOAD_BALANCING = ['ROUND_ROBIN', 'WEIGHTED', 'LEAST_CONNECTIONS', 'RANDOM', 'IP_HASH'] as const
export const TARGET_ROLES = ['PRIMARY', 'FAILOVER'] as const

/** The endpoint kinds each API proxy kind may carry (a REST API may upgrade some paths to WebSocket). */
export const KINDS_BY_PROXY: Record<string, readonly string[]> = { REST: ['REST', 'WEBSOCKET'], SOAP: ['SOAP'], GRPC: ['GRPC'], WEBSOCKET: ['WEBSOCKET'] }
/** Backend URL schemes per endpoint kind. */
export const TARGET_PROTOCOLS: Record<string, readonly string[]> = {
  REST: ['http:', 'https:'], SOAP: ['http:', 'https:'], GRPC: ['http:', 'https:', 'grpc:', 'grpcs:'], WEBSOCKET: ['ws:', 'wss:', 'http:', 'https:'],
}

/** A path version segment: `v1`, `v2.1`, `2024-06`; "" (or absent) means unversioned. */
export const VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/
export const OPERATION_ID_PATTERN = /^[A-Za-z_][A-Za-z0-9_.-]{0,127}$/
const TEMPLATE_VAR = /\{([^{}]*)\}/g
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/
const PATH_CHARS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/{}]*$/
const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+*-]+(\s*;.*)?$/

export const templateVariables = (path: string) => [...path.matchAll(TEMPLATE_VAR)].map((m) => m[1]!)
/** Two templates that match the same requests share a key: variable names do not matter (`/users/{}`). */
export const pathKeyOf = (path: string) => path.replace(TEMPLATE_VAR, '{}')
export const fullPathOf = (version: string, path: string) => (version ? `/${version}${path === '/' ? '' : path}` : path)

/** A client or backend path template: starts with '/', no empty segment, balanced `{var}` with unique names. */
export const pathTemplate = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(1000, 'must be at most 1000 characters')
  .transform((p) => (p.length > 1 ? p.replace(/\/+$/, '') : p))
  .superRefine((p, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message })
    if (!p.startsWith('/')) return fail("must start with '/'")
    if (p.includes('//')) return fail('must not contain an empty segment (//)')
    if (!PATH_CHARS.test(p)) return fail('contains a character not allowed in a path (no spaces, ?, # or non-ASCII)')
    if (p.replace(TEMPLATE_VAR, '').match(/[{}]/)) return fail('has an unbalanced { or }')
    const vars = templateVariables(p)
    const bad = vars.find((v) => !VAR_NAME.test(v))
    if (bad !== undefined) return fail(`template variable '{${bad}}' must start with a letter or _ and use letters, digits, _, . or -`)
    const dup = vars.find((v, i) => vars.indexOf(v) !== i)
    if (dup) return fail(`template variable '{${dup}}' appears twice`)
  })

const mediaType = z.string().trim().regex(MEDIA_TYPE, 'must be a media type such as application/json')
const jsonObject = z.record(z.string(), z.unknown())
const int = () => z.number().int('must be an integer')

const parameter = z.strictObject({
  name: z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters'),
  in: enumOf(PARAMETER_LOCATIONS),
  /** path parameters are always required (forced true) */
  required: z.boolean().default(false),
  description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
  schema: jsonObject.default({ type: 'string' }),
})

const requestBody = z.strictObject({
  required: z.boolean().default(false),
  contentType: mediaType.default('application/json'),
  description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
  schema: jsonObject.nullish(),
})

const response = z.strictObject({
  statusCode: z
    .string()
    .trim()
    .regex(/^(default|[1-5][0-9][0-9]|[1-5]XX)$/, "must be an HTTP status (100..599), a range such as 4XX, or 'default'")
    .refine((s) => !/^[0-9]{3}$/.test(s) || Number(s) >= 100, "must be an HTTP status (100..599), a range such as 4XX, or 'default'"),
  description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
  contentType: mediaType.nullish(),
  schema: jsonObject.nullish(),
})

const rewriteRule = z.strictObject({
  /** a regular expression matched against the incoming path (after the version segment) */
  pattern: z
    .string()
    .min(1, 'must not be blank')
    .max(500, 'must be at most 500 characters')
    .superRefine((p, ctx) => {
      try {
        new RegExp(p)
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `is not a valid regular expression: ${(err as Error).message}` })
      }
    }),
  /** the replacement; $1, $2 … refer to the pattern's groups */
  replacement: z.string().max(1000, 'must be at most 1000 characters'),
})

const policy = z
  .strictObject({
    name: objectName,
    type: enumOf(POLICY_TYPES),
    phase: enumOf(POLICY_PHASES).default('REQUEST'),
    enabled: z.boolean().default(true),
    config: jsonObject.default({}),
  })
  .superRefine((p, ctx) => {
    for (const path of literalSecrets(p.config)) {
      ctx.addIssue({ code: 'custom', path: ['config', ...path], message: SECRET_IN_CONFIG })
    }
    if (p.type !== 'RATE_LIMIT') return
    for (const key of ['limit', 'windowSeconds']) {
      const v = p.config[key]
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) ctx.addIssue({ code: 'custom', path: ['config', key], message: 'is required for RATE_LIMIT and must be an integer of at least 1' })
    }
  })

const target = z.strictObject({
  url: z.string().trim().min(1, 'must not be blank').refine((u) => URL.canParse(u), 'must be an absolute URL').refine(hasNoCredentials, CREDENTIALS_IN_URL),
  weight: int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').default(1),
  role: enumOf(TARGET_ROLES).default('PRIMARY'),
  enabled: z.boolean().default(true),
})

const failover = z.strictObject({
  maxAttempts: int().min(1, 'must be at least 1').max(10, 'must be at most 10').default(2),
  retryOnStatus: z.array(int().min(500, 'must be an HTTP status 500..599').max(599, 'must be an HTTP status 500..599')).max(20).default([502, 503, 504]),
  retryOnConnectFailure: z.boolean().default(true),
})

const routing = z.strictObject({
  loadBalancing: enumOf(LOAD_BALANCING).default('ROUND_ROBIN'),
  targets: z.array(target).min(1, 'must list at least one target').max(50, 'at most 50 targets'),
  failover: failover.default(() => failover.parse({})),
  timeoutMs: int().min(1, 'must be at least 1').max(600_000, 'must be at most 600000').default(30_000),
})

const endpointFields = {
  method: enumOf(ENDPOINT_METHODS),
  path: pathTemplate,
  operationId: z.string().trim().regex(OPERATION_ID_PATTERN, 'must start with a letter or _ and use at most 128 letters, digits, _, . or -').nullish(),
  description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
  /** defaults to the proxy's kind */
  kind: enumOf(ENDPOINT_KINDS).nullish(),
  parameters: z.array(parameter).max(100, 'at most 100 parameters').default([]),
  requestBody: requestBody.nullish(),
  responses: z.array(response).max(100, 'at most 100 responses').default([]),
  consumes: z.array(mediaType).max(20, 'at most 20 media types').default([]),
  produces: z.array(mediaType).max(20, 'at most 20 media types').default([]),
  /** defaults to the client path */
  backendPath: pathTemplate.nullish(),
  /** defaults to the client method */
  backendMethod: enumOf(ENDPOINT_METHODS).nullish(),
  rewriteRules: z.array(rewriteRule).max(20, 'at most 20 rewrite rules').default([]),
  policies: z.array(policy).max(50, 'at most 50 policies').default([]),
  /** null: the proxy's own routing addresses */
  routing: routing.nullish(),
  enabled: z.boolean().default(true),
}

export const versionField = z.string().trim().refine((v) => v === '' || VERSION_PATTERN.test(v), 'must be 1 to 32 letters, digits, ., _ or - starting with a letter or digit (e.g. v1), or empty for unversioned')

export const endpointCreateInput = z.strictObject({ ...endpointFields, version: versionField.default('') })
/** Update: every field optional (absent keeps the stored value); the version is part of the address and does not move. */
export const endpointUpdateInput = z.strictObject(endpointFields).partial()

export type EndpointValues = z.output<typeof endpointCreateInput>
export type EndpointCreateInput = z.input<typeof endpointCreateInput>
export type EndpointUpdateInput = z.input<typeof endpointUpdateInput>
