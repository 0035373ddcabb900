import { z } from 'zod'
import { lifecycleConflict, malformed } from '../../../platform/errors/domain-error.js'
import { fieldPath } from '../../../platform/errors/validation.js'
import { ACTOR_SCOPES, CONTENT_MODES, FAMILIES, SUBJECT_TYPES, TARGET_TYPES } from '../shared/enums.js'
import type { LimitActorScope, LimitContentMode, LimitFamily, LimitSubjectType, LimitTargetType } from '../shared/enums.js'
import { rateWindows, validateRuleSpec, type RuleSpec } from '../shared/rule-spec.js'

// The assignment body of spec §2.13 and its save-time rules, as pure functions (no database): shape first
// (field named in params.field), then the cross-field rules with the spec's reasons. The same rules serve
// create, update, validate and every bulk subject.

export const MAX_PLAN_KEYS = 200
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE'] as const
export const AUDIENCE_OPERATORS = ['EQ', 'NE', 'CONTAINS', 'STARTS_WITH', 'ENDS_WITH', 'IN', 'NOT_IN', 'MATCHES'] as const
export const DEFAULT_CUSTOM_MESSAGE_CONTENT_TYPE = 'application/json;charset=utf-8'
export const DEFAULT_CUSTOM_MESSAGE_STATUS = 429

/** Subject types that name a subject by key (consumer username, clientId, application name, organization code, API proxy name). */
export const KEYED_SUBJECT_TYPES: readonly LimitSubjectType[] = ['ORGANIZATION', 'CONSUMER', 'APPLICATION', 'API_CLIENT', 'API_PROXY']

/**
 * actorScope allowed per subject type (the spec leaves the table open; docs/limits.md shows it): a subject
 * that is an identified caller (organization, consumer, application, API client) cannot be anonymous.
 */
export const ACTOR_SCOPES_BY_SUBJECT: Record<LimitSubjectType, readonly LimitActorScope[]> = {
  PLATFORM: ['ANY', 'AUTHENTICATED', 'ANONYMOUS'],
  PROJECT: ['ANY', 'AUTHENTICATED', 'ANONYMOUS'],
  API_PROXY: ['ANY', 'AUTHENTICATED', 'ANONYMOUS'],
  ORGANIZATION: ['ANY', 'AUTHENTICATED'],
  CONSUMER: ['ANY', 'AUTHENTICATED'],
  APPLICATION: ['ANY', 'AUTHENTICATED'],
  API_CLIENT: ['ANY', 'AUTHENTICATED'],
  AUDIENCE_RULE: ['ANY', 'AUTHENTICATED'],
}

const text = (max = 200) => z.string().trim().min(1, 'must not be blank').max(max, `must be at most ${max} characters`)
const timestamp = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' })

const subjectShape = z.strictObject({ type: z.enum(SUBJECT_TYPES), key: text().nullish() })

const targetShape = z.strictObject({
  type: z.enum(TARGET_TYPES).nullish(),
  apiProxyName: text().nullish(),
  apiProxyGroupName: text().nullish(),
  environmentName: text().nullish(),
  targetKey: z.string().min(1, 'must not be empty').max(500).nullish(),
  httpMethods: z.array(z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(', ')}` })).max(HTTP_METHODS.length).nullish(),
})

export const contentShape = z.strictObject({
  family: z.enum(FAMILIES).nullish(),
  actorScope: z.enum(ACTOR_SCOPES).nullish(),
  target: targetShape.nullish(),
  mode: z.enum(CONTENT_MODES).nullish(),
  planKeys: z.array(text()).nullish(),
  customRuleSpec: z.unknown().optional(),
  cacheErrorHandlingType: z.enum(['FAIL', 'CONTINUE']).nullish(),
  cacheConnectionTimeoutInSeconds: z.number().int().min(1).max(3600).nullish(),
  showRateLimitStatisticsInResponseHeader: z.boolean().nullish(),
  customMessageTemplate: z.string().max(10_000).nullish(),
  customMessageContentType: text().nullish(),
  customMessageHttpStatusCode: z.number().int().min(400).max(599).nullish(),
  validFrom: timestamp.nullish(),
  validUntil: timestamp.nullish(),
})

export const audienceRuleShape = z.strictObject({
  identitySource: z.enum(['AUTH_RESOLVED', 'VARIABLE']).nullish(),
  variableId: text().nullish(),
  operator: z.enum(AUDIENCE_OPERATORS),
  value: z.union([z.string().min(1, 'must not be empty').max(1000), z.array(z.string().min(1).max(1000)).min(1).max(1000)]),
  outOfTargetAction: z.enum(['BLOCK', 'GENERAL_QUOTA', 'NONE']).nullish(),
  generalQuotaMode: z.enum(['TOTAL', 'PER_IDENTITY']).nullish(),
  generalQuotaWindows: rateWindows.nullish(),
})

export const bodyShape = z.strictObject({
  subject: subjectShape.optional(),
  content: z.unknown().optional(),
  audienceRule: z.unknown().optional(),
  status: z.enum(['DRAFT', 'ACTIVE', 'ENDED']).nullish(),
  version: z.number().int().min(1).nullish(),
  /** minted by the service; an update may repeat it but never change it (limit.binding.keyImmutable) */
  bindingKey: z.string().nullish(),
})

export interface AssignmentTarget {
  type: LimitTargetType
  apiProxyName: string | null
  apiProxyGroupName: string | null
  environmentName: string | null
  targetKey: string | null
  httpMethods: string[]
}

export interface AudienceRule {
  identitySource: 'AUTH_RESOLVED' | 'VARIABLE'
  variableId: string | null
  operator: (typeof AUDIENCE_OPERATORS)[number]
  value: string | string[]
  outOfTargetAction: 'BLOCK' | 'GENERAL_QUOTA' | 'NONE'
  generalQuotaMode: 'TOTAL' | 'PER_IDENTITY' | null
  generalQuotaWindows: z.output<typeof rateWindows> | null
}

/** REQUEST_RATE enforcement and custom message fields with their defaults; all null for AI_TOKEN_BUDGET. */
export interface Enforcement {
  cacheErrorHandlingType: 'FAIL' | 'CONTINUE' | null
  cacheConnectionTimeoutInSeconds: number | null
  showRateLimitStatisticsInResponseHeader: boolean | null
  customMessageTemplate: string | null
  customMessageContentType: string | null
  customMessageHttpStatusCode: number | null
}

/** Validated, defaulted content of an assignment (everything but the subject). */
export interface AssignmentContent {
  family: LimitFamily
  actorScope: LimitActorScope
  target: AssignmentTarget
  mode: LimitContentMode
  planKeys: string[]
  customRuleSpec: RuleSpec | null
  enforcement: Enforcement
  validFrom: Date | null
  validUntil: Date | null
}

export interface AssignmentBody {
  subject: { type: LimitSubjectType; key: string | null }
  content: AssignmentContent
  audienceRule: AudienceRule | null
  /** create only: DRAFT (default) or ACTIVE */
  status: 'DRAFT' | 'ACTIVE'
  /** update only */
  version: number | null
  /** update only: the key the body names, if any (must equal the path's) */
  bindingKey: string | null
}

const prefixed = (prefix: string, field: string) => (prefix ? `${prefix}.${field}` : field)

/** zod first: the first problem names its field (e.g. content.target.httpMethods[1]) with an optional reason. */
function parseShape<S extends z.ZodType>(schema: S, value: unknown, prefix: string, reason?: string): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path
  const field = [prefix, fieldPath(path)].filter(Boolean).join('.').replace(/\.\[/g, '[')
  const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message
  throw malformed(`${field || 'body'}: ${message}`, { ...(field ? { field } : {}), ...(reason ? { reason } : {}) })
}

const required = (field: string, why: string) => malformed(`${field} is required ${why}`, { field })
const forbidden = (field: string, why: string) => malformed(`${field} is not allowed ${why}`, { field })

function normalizeTarget(raw: z.output<typeof targetShape> | null | undefined, family: LimitFamily, prefix: string): AssignmentTarget {
  const type = raw?.type ?? 'ALL'
  const f = (name: string) => prefixed(prefix, `target.${name}`)
  const needsProxy = type === 'API_PROXY' || type === 'API_PROXY_ENV'
  const needsGroup = type === 'API_PROXY_GROUP' || type === 'API_PROXY_GROUP_ENV'
  const needsEnv = type === 'API_PROXY_ENV' || type === 'API_PROXY_GROUP_ENV'
  const needsKey = type === 'API_ENDPOINT' || type === 'AI_MODEL' || type === 'AI_PROVIDER'
  const rule = (name: 'apiProxyName' | 'apiProxyGroupName' | 'environmentName' | 'targetKey', needed: boolean) => {
    const present = raw?.[name] !== undefined && raw?.[name] !== null
    if (needed && !present) throw required(f(name), `for target type ${type}`)
    if (!needed && present) throw forbidden(f(name), `for target type ${type}`)
  }
  rule('apiProxyName', needsProxy)
  rule('apiProxyGroupName', needsGroup)
  rule('environmentName', needsEnv)
  rule('targetKey', needsKey)
  const methods = raw?.httpMethods ?? []
  if (methods.length > 0 && !needsProxy) {
    throw malformed(`${f('httpMethods')} applies to API_PROXY and API_PROXY_ENV targets only`, {
      field: f('httpMethods'),
      reason: 'limit.binding.methodAxisNotAllowed',
    })
  }
  if (new Set(methods).size !== methods.length) throw malformed(`${f('httpMethods')} lists a method twice`, { field: f('httpMethods') })
  if ((type === 'AI_MODEL' || type === 'AI_PROVIDER') && family !== 'AI_TOKEN_BUDGET') {
    throw malformed(`target type ${type} needs family AI_TOKEN_BUDGET`, { field: f('type') })
  }
  return {
    type,
    apiProxyName: raw?.apiProxyName ?? null,
    apiProxyGroupName: raw?.apiProxyGroupName ?? null,
    environmentName: raw?.environmentName ?? null,
    targetKey: raw?.targetKey ?? null,
    httpMethods: methods,
  }
}

export interface ContentOptions {
  /** the subject the content is for (actorScope and AUDIENCE_RULE rules) */
  subjectType: LimitSubjectType
  /** bulk content: PLAN and CUSTOM only, at most 200 plan keys */
  bulk?: boolean
  /** where the content sits in the body; default `content` */
  prefix?: string
}

/**
 * Validates an assignment's content against spec §2.13 for a subject type and fills the defaults
 * (actorScope ANY, target ALL, mode PLAN when planKeys is set, REQUEST_RATE enforcement defaults).
 * Pure: plan keys, proxies and environments are resolved against the database by the service.
 */
export function validateAssignmentContent(raw: unknown, options: ContentOptions): AssignmentContent {
  const prefix = options.prefix ?? 'content'
  if (raw === undefined || raw === null) throw required(prefix, 'in an assignment body')
  const c = parseShape(contentShape, raw, prefix)
  const f = (name: string) => prefixed(prefix, name)
  if (!c.family) throw required(f('family'), '(REQUEST_RATE or AI_TOKEN_BUDGET)')
  const family = c.family
  if (options.subjectType === 'AUDIENCE_RULE' && family !== 'REQUEST_RATE') {
    throw malformed('an AUDIENCE_RULE assignment must have family REQUEST_RATE', { field: f('family'), reason: 'limit.binding.audienceRuleFamily' })
  }

  const actorScope = c.actorScope ?? 'ANY'
  const allowedScopes = ACTOR_SCOPES_BY_SUBJECT[options.subjectType]
  if (!allowedScopes.includes(actorScope)) {
    throw malformed(`actorScope ${actorScope} is not allowed for subject type ${options.subjectType} (allowed: ${allowedScopes.join(', ')})`, {
      field: f('actorScope'),
      allowed: [...allowedScopes],
    })
  }

  const target = normalizeTarget(c.target, family, prefix)

  const planKeys = c.planKeys ?? []
  const mode: LimitContentMode | undefined = c.mode ?? (c.planKeys ? 'PLAN' : undefined)
  if (!mode) throw required(f('mode'), '(PLAN, CUSTOM, INHERIT or OFF) when planKeys is absent')
  if (options.bulk && mode !== 'PLAN' && mode !== 'CUSTOM') {
    throw malformed(`mode ${mode} exists only on the single-assignment surface; bulk content accepts PLAN and CUSTOM`, { field: f('mode') })
  }
  const hasCustom = c.customRuleSpec !== undefined && c.customRuleSpec !== null
  if (mode === 'PLAN') {
    if (planKeys.length === 0) throw required(f('planKeys'), 'for mode PLAN')
    if (planKeys.length > MAX_PLAN_KEYS) throw malformed(`${f('planKeys')} holds at most ${MAX_PLAN_KEYS} plan keys`, { field: f('planKeys') })
    if (new Set(planKeys).size !== planKeys.length) throw malformed(`${f('planKeys')} names a plan twice`, { field: f('planKeys') })
  } else if (c.planKeys && c.planKeys.length > 0) {
    throw forbidden(f('planKeys'), `for mode ${mode}`)
  }
  if (mode !== 'CUSTOM' && hasCustom) throw forbidden(f('customRuleSpec'), `for mode ${mode}`)
  const customRuleSpec = mode === 'CUSTOM' ? validateRuleSpec(family, c.customRuleSpec, f('customRuleSpec')) : null

  const rateOnly = ['cacheErrorHandlingType', 'cacheConnectionTimeoutInSeconds', 'showRateLimitStatisticsInResponseHeader', 'customMessageTemplate', 'customMessageContentType', 'customMessageHttpStatusCode'] as const
  if (family !== 'REQUEST_RATE') {
    const set = rateOnly.find((k) => c[k] !== undefined && c[k] !== null)
    if (set) throw forbidden(f(set), `for family ${family} (REQUEST_RATE only)`)
  }
  if (c.customMessageContentType && !c.customMessageTemplate) throw required(f('customMessageTemplate'), 'when customMessageContentType is set')
  const enforcement: Enforcement =
    family === 'REQUEST_RATE'
      ? {
          cacheErrorHandlingType: c.cacheErrorHandlingType ?? 'FAIL',
          cacheConnectionTimeoutInSeconds: c.cacheConnectionTimeoutInSeconds ?? null,
          showRateLimitStatisticsInResponseHeader: c.showRateLimitStatisticsInResponseHeader ?? false,
          customMessageTemplate: c.customMessageTemplate ?? null,
          customMessageContentType: c.customMessageTemplate ? (c.customMessageContentType ?? DEFAULT_CUSTOM_MESSAGE_CONTENT_TYPE) : null,
          customMessageHttpStatusCode: c.customMessageHttpStatusCode ?? DEFAULT_CUSTOM_MESSAGE_STATUS,
        }
      : {
          cacheErrorHandlingType: null,
          cacheConnectionTimeoutInSeconds: null,
          showRateLimitStatisticsInResponseHeader: null,
          customMessageTemplate: null,
          customMessageContentType: null,
          customMessageHttpStatusCode: null,
        }

  const validFrom = c.validFrom ? new Date(c.validFrom) : null
  const validUntil = c.validUntil ? new Date(c.validUntil) : null
  if (validFrom && validUntil && validUntil.getTime() <= validFrom.getTime()) {
    throw malformed(`${f('validUntil')} must be after validFrom`, { field: f('validUntil') })
  }
  return { family, actorScope, target, mode, planKeys, customRuleSpec, enforcement, validFrom, validUntil }
}

/** The audience rule of an AUDIENCE_RULE subject; every problem is limit.binding.audienceRuleShape. */
export function validateAudienceRule(raw: unknown): AudienceRule {
  const shape = 'limit.binding.audienceRuleShape'
  const a = parseShape(audienceRuleShape, raw, 'audienceRule', shape)
  const identitySource = a.identitySource ?? 'AUTH_RESOLVED'
  const bad = (field: string, message: string) => malformed(`audienceRule.${field} ${message}`, { field: `audienceRule.${field}`, reason: shape })
  if (identitySource === 'VARIABLE' && !a.variableId) throw bad('variableId', 'is required with identitySource VARIABLE')
  if (identitySource !== 'VARIABLE' && a.variableId) throw bad('variableId', 'is allowed with identitySource VARIABLE only')
  const listOperator = a.operator === 'IN' || a.operator === 'NOT_IN'
  if (listOperator !== Array.isArray(a.value)) throw bad('value', listOperator ? `must be an array for operator ${a.operator}` : `must be a string for operator ${a.operator}`)
  if (a.operator === 'MATCHES' && typeof a.value === 'string') {
    try {
      new RegExp(a.value)
    } catch {
      throw bad('value', 'is not a valid regular expression')
    }
  }
  const outOfTargetAction = a.outOfTargetAction ?? 'BLOCK'
  const general = outOfTargetAction === 'GENERAL_QUOTA'
  if (general && !a.generalQuotaWindows) throw bad('generalQuotaWindows', 'is required with outOfTargetAction GENERAL_QUOTA')
  if (!general && a.generalQuotaWindows) throw bad('generalQuotaWindows', 'is allowed with outOfTargetAction GENERAL_QUOTA only')
  if (!general && a.generalQuotaMode) throw bad('generalQuotaMode', 'is read only with outOfTargetAction GENERAL_QUOTA')
  return {
    identitySource,
    variableId: a.variableId ?? null,
    operator: a.operator,
    value: a.value,
    outOfTargetAction,
    generalQuotaMode: general ? (a.generalQuotaMode ?? 'TOTAL') : null,
    generalQuotaWindows: a.generalQuotaWindows ?? null,
  }
}

/**
 * Validates a whole single-assignment body (create, update, validate) against spec §2.13 — pure, no
 * database. `create`: status DRAFT (default) or ACTIVE, ENDED → 409 limit.binding.statusNotCreatable, no
 * version. `update`: no status, optional version. Bad shapes are 400 malformedRequest naming params.field,
 * with the spec's reason where it has one (methodAxisNotAllowed, audienceRuleShape, audienceRuleFamily,
 * limit.plan.ruleSpecRequired / ruleSpecFamilyMismatch for a CUSTOM spec).
 */
export function validateAssignmentBody(raw: unknown, purpose: 'create' | 'update'): AssignmentBody {
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const b = parseShape(bodyShape, raw, '')
  if (purpose === 'create' && b.status === 'ENDED') {
    throw lifecycleConflict('limit.binding.statusNotCreatable', 'An assignment cannot be created ENDED', { field: 'status' })
  }
  if (purpose === 'update' && b.status != null) throw forbidden('status', 'on update (use the activate and end actions)')
  if (purpose === 'create' && b.version != null) throw forbidden('version', 'on create')
  if (purpose === 'create' && b.bindingKey != null) throw forbidden('bindingKey', 'on create (the service mints it)')
  if (!b.subject) throw required('subject', 'in an assignment body')
  const subjectType = b.subject.type
  const keyed = KEYED_SUBJECT_TYPES.includes(subjectType)
  if (keyed && !b.subject.key) throw required('subject.key', `for subject type ${subjectType}`)
  if (!keyed && b.subject.key) throw forbidden('subject.key', `for subject type ${subjectType}`)

  const hasAudienceRule = b.audienceRule !== undefined && b.audienceRule !== null
  if (subjectType === 'AUDIENCE_RULE' && !hasAudienceRule) {
    throw malformed('audienceRule is required for subject type AUDIENCE_RULE', { field: 'audienceRule', reason: 'limit.binding.audienceRuleShape' })
  }
  if (subjectType !== 'AUDIENCE_RULE' && hasAudienceRule) {
    throw malformed('audienceRule is allowed for subject type AUDIENCE_RULE only', { field: 'audienceRule', reason: 'limit.binding.audienceRuleShape' })
  }
  const content = validateAssignmentContent(b.content, { subjectType })
  const audienceRule = hasAudienceRule ? validateAudienceRule(b.audienceRule) : null
  return {
    subject: { type: subjectType, key: b.subject.key ?? null },
    content,
    audienceRule,
    status: b.status === 'ACTIVE' ? 'ACTIVE' : 'DRAFT',
    version: b.version ?? null,
    bindingKey: b.bindingKey ?? null,
  }
}
