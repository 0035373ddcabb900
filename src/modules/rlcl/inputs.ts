import { z } from 'zod'
import { objectName } from '../../platform/validation/common.js'
import { WINDOW_INTERVALS, WINDOW_TYPES } from '../limits/shared/rule-spec.js'

// Bodies of the vendor pages 02-api-reference/12-rlcl (create/update, credentials, endpoints, condition) and the
// variable object of 03-appendix/variable-definition. The rate values of an endpoint entry are checked again by
// the limits engine (validateRuleSpec) once mapped to its request-rate rule spec, see service.ts.

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
const required = (max: number) => text(max).refine((s) => s.trim().length > 0, 'must not be blank')

/**
 * Where the RLCL runs in the request flow (proxy group → API proxy → API method policies). The newest pages
 * (api-reference/rlcl/crud) name the positions; FIRST and LAST are the older pages' names, still accepted and stored
 * as sent (the pages: FIRST is BEFORE_API_METHOD, LAST is AFTER_API_METHOD).
 */
export const EXECUTION_ORDERS = ['BEFORE_PROXY_GROUP', 'AFTER_PROXY_GROUP', 'BEFORE_API_PROXY', 'AFTER_API_PROXY', 'BEFORE_API_METHOD', 'AFTER_API_METHOD', 'FIRST', 'LAST'] as const
export const CACHE_ERROR_HANDLING = ['FAIL', 'CONTINUE'] as const
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'ALL'] as const
/** the appendix's types; CONTEXT is the spelling of the vendor's RLCL examples and is kept as sent */
export const VARIABLE_TYPES = ['HEADER', 'PARAMETER', 'BODY', 'CONTEXT_VALUES', 'CONTEXT', 'CUSTOM'] as const

/** The variable object: name and type, and the fields its type needs (appendix "Variable Types and Required Fields"). */
export const variableInput = z
  .strictObject({
    id: text(200).nullish(),
    projectId: text(200).nullish(),
    name: required(500),
    description: text(2000).nullish(),
    type: z.enum(VARIABLE_TYPES),
    dataType: z.enum(['STRING', 'NUMBER', 'BOOLEAN', 'DATE']).nullish(),
    headerName: text(500).nullish(),
    paramType: z.enum(['QUERY', 'PATH', 'FORM']).nullish(),
    paramName: text(500).nullish(),
    paramPath: text(2000).nullish(),
    formName: text(500).nullish(),
    messageContentType: z.enum(['XML', 'JSON', 'ALL_BODY']).nullish(),
    xpathValue: text(2000).nullish(),
    jsonPathValue: text(2000).nullish(),
    contextValue: text(100).nullish(),
    zoneId: text(100).nullish(),
    initWithScript: z.boolean().nullish(),
    scriptLanguage: text(50).nullish(),
    scriptBody: text(100_000).nullish(),
  })
  .superRefine((v, ctx) => {
    const need = (field: keyof typeof v, when: string) => {
      if (v[field] === undefined || v[field] === null || v[field] === '') ctx.addIssue({ code: 'custom', path: [field], message: `is required when ${when}` })
    }
    if (v.type === 'PARAMETER') {
      need('paramType', 'type is PARAMETER')
      need('paramName', 'type is PARAMETER')
      if (v.paramType === 'PATH') need('paramPath', 'paramType is PATH')
    }
    if (v.type === 'BODY') {
      need('messageContentType', 'type is BODY')
      if (v.messageContentType === 'XML') need('xpathValue', 'messageContentType is XML')
      if (v.messageContentType === 'JSON') need('jsonPathValue', 'messageContentType is JSON')
    }
    if (v.type === 'CONTEXT_VALUES') {
      need('contextValue', 'type is CONTEXT_VALUES')
      if (/^(DATETIME|DATE|TIME)_/.test(v.contextValue ?? '')) need('zoneId', 'contextValue is a date/time value')
    }
    if (v.type === 'CUSTOM' && v.initWithScript) {
      need('scriptLanguage', 'initWithScript is true')
      need('scriptBody', 'initWithScript is true')
    }
  })

/** The newest page's EnumRateLimitIdentitySource: VARIABLE (targetVariable) or AUTH_RESOLVED (the authenticated identity). */
export const IDENTITY_SOURCES = ['VARIABLE', 'AUTH_RESOLVED'] as const
export const OUT_OF_TARGET_ACTIONS = ['BLOCK', 'GENERAL_QUOTA'] as const
export const GENERAL_QUOTA_MODES = ['TOTAL', 'PER_IDENTITY'] as const
const AUDIENCE_BASE = ['EQ', 'NE', 'CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH', 'IN', 'NOT_IN'] as const
/** The target audience operators the page names, and their _IGNORE_CASE variants. */
export const AUDIENCE_OPERATORS = [...AUDIENCE_BASE, ...AUDIENCE_BASE.map((o) => `${o}_IGNORE_CASE` as const)] as const

/** A target audience rule: the resolved identity compared with a literal (IN/NOT_IN: a delimiter-separated list). */
export const audienceRuleInput = z.strictObject({
  operator: z.enum(AUDIENCE_OPERATORS, { error: `is required, one of ${AUDIENCE_OPERATORS.join(', ')}` }),
  value: required(2000),
})

export const rlclInput = z.strictObject({
  name: objectName,
  description: text(2000).nullish(),
  enabled: z.boolean().nullish(),
  executionOrder: z.enum(EXECUTION_ORDERS).nullish(),
  cacheConnectionTimeoutInSeconds: z.number().int().min(1).max(3600).nullish(),
  cacheErrorHandlingType: z.enum(CACHE_ERROR_HANDLING).nullish(),
  timeIntervalWindowType: z.enum(WINDOW_TYPES).nullish(),
  showRateLimitStatisticsInResponseHeader: z.boolean().nullish(),
  targetVariable: variableInput.nullish(),
  // the newest page (create-rlcl.mdx): identity source, target audience and general quota; the rules that tie
  // them (AUTH_RESOLVED forces executionOrder, GENERAL_QUOTA needs its quota) are the service's (rlclFields)
  identitySource: z.enum(IDENTITY_SOURCES, { error: `must be one of ${IDENTITY_SOURCES.join(', ')}` }).nullish(),
  targetAudienceRuleList: z.array(audienceRuleInput).max(1000, 'at most 1000 rules').nullish(),
  outOfTargetAction: z.enum(OUT_OF_TARGET_ACTIONS, { error: `must be one of ${OUT_OF_TARGET_ACTIONS.join(', ')}` }).nullish(),
  generalQuotaMode: z.enum(GENERAL_QUOTA_MODES, { error: `must be one of ${GENERAL_QUOTA_MODES.join(', ')}` }).nullish(),
  generalQuotaPermittedMessageCount: z.number().int('must be an integer').nullish(),
  generalQuotaTimeIntervalPeriodLength: z.number().int('must be an integer').nullish(),
  generalQuotaTimeInterval: z.enum(WINDOW_INTERVALS, { error: `must be one of ${WINDOW_INTERVALS.join(', ')}` }).nullish(),
})
export type RlclInput = z.output<typeof rlclInput>

export const credentialListInput = z.strictObject({
  credentialNameList: z.array(required(200)).min(1, 'must not be empty').max(5000, 'at most 5000 names'),
})

/** An endpointRateLimitList entry; the rate members are required on add and update, not on delete (matching only). */
const endpointMatch = {
  apiProxyName: objectName,
  endpointName: required(2000).nullish(),
  endpointHTTPMethod: z.enum(HTTP_METHODS).nullish(),
}
const endpointRule = {
  // integers, the range is the limits engine's (validateRuleSpec)
  permittedMessageCount: z.number().int(),
  timeIntervalPeriodLength: z.number().int(),
  timeInterval: z.enum(WINDOW_INTERVALS),
  targetVariable: variableInput.nullish(),
  cacheConnectionTimeoutInSeconds: z.number().int().min(1).max(3600),
  cacheErrorHandlingType: z.enum(CACHE_ERROR_HANDLING),
  timeIntervalWindowType: z.enum(WINDOW_TYPES),
  targetIdentityValue: text(2000).nullish(),
  showRateLimitStatisticsInResponseHeader: z.boolean().nullish(),
  enabled: z.boolean().nullish(),
}
export const endpointEntryInput = z.strictObject({ ...endpointMatch, ...endpointRule })
export type EndpointEntryInput = z.output<typeof endpointEntryInput>
export const endpointListInput = z.strictObject({
  endpointRateLimitList: z.array(endpointEntryInput).min(1, 'must not be empty').max(1000, 'at most 1000 entries'),
})
/** delete matches by apiProxyName, endpointName and endpointHTTPMethod; other members may be sent and are ignored */
export const endpointDeleteInput = z.strictObject({
  endpointRateLimitList: z
    .array(z.strictObject({ ...endpointMatch, ...Object.fromEntries(Object.entries(endpointRule).map(([k, v]) => [k, (v as z.ZodType).nullish()])) }))
    .min(1, 'must not be empty')
    .max(1000, 'at most 1000 entries'),
})

/**
 * The condition vocabulary of the pages since 2025-11-17 (6924e25, b9d5441): EnumConditionCriteria VALUE (a
 * comparison), NOT, AND, OR; EnumConditionValueComparisonOperator; EnumConditionValueSource VALUE, VARIABLE;
 * EnumConditionVariableDataType STRING, NUMERIC, DATE. The words of the earlier pages stay accepted and are stored,
 * pushed and read in the current vocabulary (`currentConditionRules`).
 */
export const CONDITION_CRITERIA = ['VALUE', 'NOT', 'AND', 'OR'] as const
export const COMPARISON_OPERATORS = [
  'LT', 'LE', 'GT', 'GE', 'EQ', 'NE', 'STARTS_WITH', 'ENDS_WITH', 'CONTAINS', 'NOT_CONTAINS', 'IS_EMPTY', 'IS_NOT_EMPTY', 'IS_EXISTS', 'IS_NOT_EXISTS', 'IN', 'NOT_IN',
  // the earlier pages' regular expression operators: no current equivalent, kept as they are
  'REGEX_MATCH', 'REGEX_NOT_MATCH',
] as const
export const VALUE_SOURCES = ['VALUE', 'VARIABLE'] as const
export const VARIABLE_DATA_TYPES = ['STRING', 'NUMERIC', 'DATE'] as const

/** The earlier pages' words and the current word each stands for. */
const OPERATOR_ALIASES: Record<string, (typeof COMPARISON_OPERATORS)[number]> = {
  EQUALS: 'EQ', NOT_EQUALS: 'NE', GREATER_THAN: 'GT', GREATER_THAN_OR_EQUAL: 'GE', LESS_THAN: 'LT', LESS_THAN_OR_EQUAL: 'LE',
}
const SOURCE_ALIASES: Record<string, (typeof VALUE_SOURCES)[number]> = { STATIC: 'VALUE' }
/** NUMBER is NUMERIC; BOOLEAN is no longer a data type (the page: compare booleans as STRING with EQ/NE) */
const DATA_TYPE_ALIASES: Record<string, (typeof VARIABLE_DATA_TYPES)[number]> = { NUMBER: 'NUMERIC', BOOLEAN: 'STRING' }

/** One of `values` or an earlier word for one (documented as accepted), yielding the current word. */
const alias = <T extends string>(values: readonly T[], aliases: Record<string, T>) =>
  z.enum([...values, ...Object.keys(aliases)] as [string, ...string[]], { error: `must be one of ${values.join(', ')}` }).transform((v) => (aliases[v] ?? v) as T)

type Rule = Record<string, unknown> & { conditionRuleList?: unknown }

/**
 * A stored or sent rule list in the current vocabulary: the aliases replaced, and a comparison the earlier pages
 * wrote with a group criterion (AND or OR on a rule without nested rules) written as VALUE. Unknown words are left
 * for validation to name. Reads and pushes use it too, so conditions stored before read in the current words.
 */
export function currentConditionRules(rules: unknown): unknown {
  if (!Array.isArray(rules)) return rules
  return rules.map((raw) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw
    const r = { ...(raw as Rule) }
    const nested = Array.isArray(r.conditionRuleList) && r.conditionRuleList.length > 0
    if (nested) r.conditionRuleList = currentConditionRules(r.conditionRuleList)
    if ((r.conditionCriteria === 'AND' || r.conditionCriteria === 'OR') && !nested) r.conditionCriteria = 'VALUE'
    if (typeof r.valueComparisonOperator === 'string' && r.valueComparisonOperator in OPERATOR_ALIASES) r.valueComparisonOperator = OPERATOR_ALIASES[r.valueComparisonOperator]
    if (typeof r.secondValueSource === 'string' && r.secondValueSource in SOURCE_ALIASES) r.secondValueSource = SOURCE_ALIASES[r.secondValueSource]
    if (typeof r.variableDataType === 'string' && r.variableDataType in DATA_TYPE_ALIASES) r.variableDataType = DATA_TYPE_ALIASES[r.variableDataType]
    return r
  })
}

type ConditionRule = {
  conditionRuleList?: ConditionRule[] | null
  conditionCriteria: (typeof CONDITION_CRITERIA)[number]
  firstVariable?: z.output<typeof variableInput> | null
  variableDataType?: string | null
  dateFormat?: string | null
  valueComparisonOperator?: string | null
  secondValueSource?: (typeof VALUE_SOURCES)[number] | null
  secondValue?: string | null
  secondVariable?: z.output<typeof variableInput> | null
}

/** operators that compare with nothing: no second value or variable */
const UNARY_OPERATORS = new Set(['IS_EMPTY', 'IS_NOT_EMPTY', 'IS_EXISTS', 'IS_NOT_EXISTS'])

/**
 * A ConditionRuleDTO. AND and OR combine nested rules (conditionRuleList); NOT negates its nested rules or, without
 * any, its own comparison; VALUE is a comparison and has no nested rules. A comparison needs firstVariable,
 * variableDataType, valueComparisonOperator and (but for the IS_… operators) secondValueSource, with secondValue
 * (VALUE) or secondVariable (VARIABLE). Nesting stops at 10 levels.
 */
const conditionRule = (depth: number): z.ZodType<ConditionRule> =>
  z
    .strictObject({
      conditionRuleList: depth >= 10 ? z.array(z.never()).max(0, 'nesting is limited to 10 levels').nullish() : z.lazy(() => z.array(conditionRule(depth + 1)).max(100).nullish()),
      conditionCriteria: z.enum(CONDITION_CRITERIA, { error: `must be one of ${CONDITION_CRITERIA.join(', ')}` }),
      firstVariable: variableInput.nullish(),
      variableDataType: alias(VARIABLE_DATA_TYPES, DATA_TYPE_ALIASES).nullish(),
      dateFormat: text(100).nullish(),
      valueComparisonOperator: alias(COMPARISON_OPERATORS, OPERATOR_ALIASES).nullish(),
      secondValueSource: alias(VALUE_SOURCES, SOURCE_ALIASES).nullish(),
      secondValue: text(10_000).nullish(),
      secondVariable: variableInput.nullish(),
    })
    .superRefine((r, ctx) => {
      if (r.conditionRuleList?.length) {
        if (r.conditionCriteria === 'VALUE') ctx.addIssue({ code: 'custom', path: ['conditionRuleList'], message: 'must be empty when conditionCriteria is VALUE (a comparison; AND, OR and NOT combine nested rules)' })
        return
      }
      const unary = UNARY_OPERATORS.has(r.valueComparisonOperator ?? '')
      for (const field of ['firstVariable', 'variableDataType', 'valueComparisonOperator', ...(unary ? [] : ['secondValueSource'] as const)] as const) {
        if (r[field] === undefined || r[field] === null) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' })
      }
      if (r.secondValueSource === 'VALUE' && !unary && (r.secondValue === undefined || r.secondValue === null)) ctx.addIssue({ code: 'custom', path: ['secondValue'], message: 'is required when secondValueSource is VALUE' })
      if (r.secondValueSource === 'VARIABLE' && !unary && !r.secondVariable) ctx.addIssue({ code: 'custom', path: ['secondVariable'], message: 'is required when secondValueSource is VARIABLE' })
      if (r.valueComparisonOperator?.startsWith('REGEX') && r.secondValueSource === 'VALUE' && typeof r.secondValue === 'string') {
        try {
          new RegExp(r.secondValue)
        } catch {
          ctx.addIssue({ code: 'custom', path: ['secondValue'], message: 'is not a valid regular expression' })
        }
      }
    })
    // the earlier pages wrote a comparison with a group criterion: it is a VALUE rule
    .transform((r) => (!r.conditionRuleList?.length && (r.conditionCriteria === 'AND' || r.conditionCriteria === 'OR') ? { ...r, conditionCriteria: 'VALUE' as const } : r))

/** The condition body; what it yields is in the current vocabulary (the earlier words accepted and replaced). */
export const conditionInput = z.strictObject({
  conditionRuleList: z.array(conditionRule(1)).min(1, 'must not be empty').max(100),
})
