import { z } from 'zod'
import { enumOf } from '../../../../platform/validation/common.js'

// Building blocks shared by the policy families (vendor 02-api-reference/05-policies/policies/*): the enum helper,
// bounded strings and lists, the variable and condition objects most pages repeat, and `definePolicy`, which turns
// one page into a catalogue entry (type, family, short description, zod schema, by-name references).

export { enumOf } from '../../../../platform/validation/common.js'

/** A required, non-blank string (trimmed) of at most `max` characters. */
export const text = (max = 2000) => z.string({ error: 'must be a string' }).trim().min(1, 'must not be blank').max(max, `must be at most ${max} characters`)
/** An optional string; null and absent are the same. */
export const optText = (max = 2000) => z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`).nullish()
/** A long text body (scripts, schemas, stylesheets, templates). */
export const body = (max = 128 * 1024) => text(max)
export const flag = () => z.boolean({ error: 'must be true or false' }).nullish()
export const int = (min: number, max: number) =>
  z.number({ error: 'must be a number' }).int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`)
export const positive = (max = 2_147_483_647) => int(1, max)
export const list = <T extends z.ZodType>(item: T, max = 100) => z.array(item, { error: 'must be a list' }).max(max, `at most ${max} entries`)
export const nonEmptyList = <T extends z.ZodType>(item: T, max = 100) => list(item, max).min(1, 'must contain at least one entry')
export const httpUrl = z
  .string({ error: 'must be a string' })
  .trim()
  .max(2000, 'must be at most 2000 characters')
  .refine((v) => {
    try {
      return ['http:', 'https:'].includes(new URL(v).protocol)
    } catch {
      return false
    }
  }, 'must be an http(s) URL')
/** A header name (RFC 9110 token). */
export const headerName = z.string({ error: 'must be a string' }).trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters').regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be a valid HTTP header name')
/** The name of another object of the project (certificate, keystore, key, JWK, connection, IP group). */
export const refName = z.string({ error: 'must be a string' }).trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters')

/** The variable types the pages use (VariableDTO; some pages spell the older CONTEXT / SCRIPT or shortcuts). */
export const VARIABLE_TYPES = ['HEADER', 'PARAMETER', 'BODY', 'CONTEXT_VALUES', 'CUSTOM', 'CONTEXT', 'SCRIPT', 'CLIENT_IP', 'HTTP_STATUS_CODE', 'REQUEST_PATH', 'VARIABLE'] as const

/** VariableDTO: where a value comes from. HEADER needs headerName, PARAMETER paramName, CUSTOM/SCRIPT scriptBody when given a language. */
export const variable = z
  .looseObject({
    name: optText(200),
    type: enumOf(VARIABLE_TYPES),
    headerName: headerName.nullish(),
    paramType: enumOf(['QUERY', 'PATH', 'FORM'] as const).nullish(),
    paramName: optText(200),
    paramPath: optText(1000),
    messageContentType: enumOf(['XML', 'JSON', 'ALL_BODY', 'RAW'] as const).nullish(),
    xpathValue: optText(2000),
    jsonPathValue: optText(2000),
    contextValue: optText(200),
    zoneId: optText(100),
    scriptLanguage: enumOf(['GROOVY', 'JAVASCRIPT'] as const).nullish(),
    scriptBody: optText(64 * 1024),
  })
  .superRefine((v, ctx) => {
    if (v.type === 'HEADER' && !v.headerName) ctx.addIssue({ code: 'custom', path: ['headerName'], message: 'is required when type is HEADER' })
    if (v.type === 'PARAMETER' && !v.paramName) ctx.addIssue({ code: 'custom', path: ['paramName'], message: 'is required when type is PARAMETER' })
  })

export const CONDITION_CRITERIA = ['ALWAYS', 'IF_ALL_MATCH', 'IF_ANY_MATCH', 'IF_NONE_MATCH'] as const
/** PolicyConditionDTO of the newer pages (`condition`, `assertionCondition`): criteria and rules. */
export const criteriaCondition = z.looseObject({
  criteria: enumOf(CONDITION_CRITERIA),
  rules: list(
    z.looseObject({ variable, comparisonOperator: text(50), value: z.string({ error: 'must be a string' }).max(2000, 'must be at most 2000 characters').nullish(), valueSource: optText(50) }),
  ),
})

export const TIME_UNITS = ['MILLI_SECONDS', 'SECONDS', 'MINUTES', 'HOURS', 'DAYS', 'WEEKS', 'MONTHS', 'YEARS'] as const
export const ACTION_TIME_UNITS = ['MILLISECOND', 'SECOND', 'MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const
export const ENCODINGS = ['BASE64', 'HEXADECIMAL'] as const
export const KEY_OR_CERTIFICATE = ['KEY', 'CERTIFICATE'] as const

/** Fields every policy shares (05-policies/crud); the page's own fields are added per type. */
export const commonFields = {
  name: optText(200),
  description: optText(2000),
  active: z.boolean({ error: 'must be true or false' }).default(true),
  policyCondition: z.looseObject({ conditionRuleList: z.array(z.record(z.string(), z.unknown()), { error: 'must be a list' }).max(100, 'at most 100 rules').nullish() }).nullish(),
  condition: criteriaCondition.nullish(),
  errorMessageList: z.array(z.unknown(), { error: 'must be a list' }).max(100, 'at most 100 entries').nullish(),
}

/** A by-name reference a policy makes to another object of its project. */
export type ReferenceKind = 'connection' | 'certificate' | 'keystore' | 'cryptoKey' | 'jwk' | 'ipGroup' | 'environmentVariable'
export interface PolicyReference {
  kind: ReferenceKind
  /** the field path inside `policy`, e.g. `policyDigitalSignDefList[0].certificateId` */
  field: string
  name: string
  /** for connections: the connection types that fit (absent: any) */
  types?: readonly string[]
  /** resolved in the policy's project first, then globally (the admin project) */
  global?: boolean
}

export const FAMILIES = ['authentication', 'ws-security', 'message-security', 'traffic', 'ip-filtering', 'transformation', 'validation', 'content', 'scripting', 'integration', 'advanced'] as const
export type PolicyFamily = (typeof FAMILIES)[number]

export interface PolicyTypeDef<T extends string = string> {
  type: T
  family: PolicyFamily
  title: string
  description: string
  schema: z.ZodType
  /** the by-name references of a validated policy of this type */
  references: (policy: any) => PolicyReference[]
  /** why a policy of this type can not be added by a policy write (it comes with other settings); absent: it can */
  notAddable?: string
}

type Shape = Record<string, z.ZodType>
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Refine = (policy: any, ctx: z.RefinementCtx) => void

/** One catalogue entry: `type` plus the common fields plus the page's fields; unknown fields are kept (stored as given). */
export function definePolicy<T extends string, S extends Shape>(def: {
  type: T
  family: PolicyFamily
  title: string
  description: string
  fields: S
  refine?: Refine
  references?: (policy: any) => PolicyReference[]
  notAddable?: string
}): PolicyTypeDef<T> {
  const object = z.looseObject({ type: z.literal(def.type), ...commonFields, ...def.fields })
  const schema = def.refine ? object.superRefine(def.refine as never) : object
  return { type: def.type, family: def.family, title: def.title, description: def.description, schema: schema.meta({ title: def.title, description: def.description }), references: def.references ?? (() => []), ...(def.notAddable ? { notAddable: def.notAddable } : {}) }
}

/** Adds `issue` at `path` when `when` holds and the value is missing (null, absent, blank or an empty list). */
export function requireWhen(ctx: z.RefinementCtx, when: boolean, value: unknown, path: (string | number)[], message: string) {
  const missing = value === undefined || value === null || (typeof value === 'string' && !value.trim()) || (Array.isArray(value) && value.length === 0)
  if (when && missing) ctx.addIssue({ code: 'custom', path, message })
}

/** The reference at `field` when `name` is a non-empty string. */
export const ref = (kind: ReferenceKind, field: string, name: unknown): PolicyReference[] => (typeof name === 'string' && name.trim() ? [{ kind, field, name: name.trim() }] : [])

/** A secret field holding `${name}` refers to the environment variable `name` (the bootstrap's convention). */
export const ENV_REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_.-]{0,199})\}$/
export const envRef = (field: string, value: unknown): PolicyReference[] => {
  const m = typeof value === 'string' ? ENV_REFERENCE.exec(value.trim()) : null
  return m ? [{ kind: 'environmentVariable', field, name: m[1]! }] : []
}
