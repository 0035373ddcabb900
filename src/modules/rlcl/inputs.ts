import { z } from 'zod'
import { objectName } from '../../platform/validation/common.js'
import { WINDOW_INTERVALS, WINDOW_TYPES } from '../limits/shared/rule-spec.js'

// Bodies of the vendor pages 02-api-reference/12-rlcl (create/update, credentials, endpoints, condition) and the
// variable object of 03-appendix/variable-definition. The rate values of an endpoint entry are checked again by
// the limits engine (validateRuleSpec) once mapped to its request-rate rule spec, see service.ts.

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
const required = (max: number) => text(max).refine((s) => s.trim().length > 0, 'must not be blank')

export const EXECUTION_ORDERS = ['FIRST', 'LAST'] as const
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

type ConditionRule = {
  conditionRuleList?: ConditionRule[] | null
  conditionCriteria: 'AND' | 'OR' | 'NOT'
  firstVariable?: z.output<typeof variableInput> | null
  variableDataType?: string | null
  dateFormat?: string | null
  valueComparisonOperator?: string | null
  secondValueSource?: 'STATIC' | 'VARIABLE' | null
  secondValue?: string | null
  secondVariable?: z.output<typeof variableInput> | null
}

export const COMPARISON_OPERATORS = [
  'EQUALS', 'NOT_EQUALS', 'CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH', 'GREATER_THAN', 'GREATER_THAN_OR_EQUAL',
  'LESS_THAN', 'LESS_THAN_OR_EQUAL', 'REGEX_MATCH', 'REGEX_NOT_MATCH',
] as const

/**
 * A ConditionRuleDTO. A rule with a nested conditionRuleList is a group (criteria over its children); any other
 * rule is a comparison and needs firstVariable, variableDataType, valueComparisonOperator and secondValueSource,
 * with secondValue (STATIC) or secondVariable (VARIABLE). Nesting stops at 10 levels.
 */
const conditionRule = (depth: number): z.ZodType<ConditionRule> =>
  z
    .strictObject({
      conditionRuleList: depth >= 10 ? z.array(z.never()).max(0, 'nesting is limited to 10 levels').nullish() : z.lazy(() => z.array(conditionRule(depth + 1)).max(100).nullish()),
      conditionCriteria: z.enum(['AND', 'OR', 'NOT']),
      firstVariable: variableInput.nullish(),
      variableDataType: z.enum(['STRING', 'NUMBER', 'BOOLEAN', 'DATE']).nullish(),
      dateFormat: text(100).nullish(),
      valueComparisonOperator: z.enum(COMPARISON_OPERATORS).nullish(),
      secondValueSource: z.enum(['STATIC', 'VARIABLE']).nullish(),
      secondValue: text(10_000).nullish(),
      secondVariable: variableInput.nullish(),
    })
    .superRefine((r, ctx) => {
      if (r.conditionRuleList?.length) return
      for (const field of ['firstVariable', 'variableDataType', 'valueComparisonOperator', 'secondValueSource'] as const) {
        if (r[field] === undefined || r[field] === null) ctx.addIssue({ code: 'custom', path: [field], message: 'is required' })
      }
      if (r.secondValueSource === 'STATIC' && (r.secondValue === undefined || r.secondValue === null)) ctx.addIssue({ code: 'custom', path: ['secondValue'], message: 'is required when secondValueSource is STATIC' })
      if (r.secondValueSource === 'VARIABLE' && !r.secondVariable) ctx.addIssue({ code: 'custom', path: ['secondVariable'], message: 'is required when secondValueSource is VARIABLE' })
      if (r.valueComparisonOperator?.startsWith('REGEX') && r.secondValueSource === 'STATIC' && typeof r.secondValue === 'string') {
        try {
          new RegExp(r.secondValue)
        } catch {
          ctx.addIssue({ code: 'custom', path: ['secondValue'], message: 'is not a valid regular expression' })
        }
      }
    })

export const conditionInput = z.strictObject({
  conditionRuleList: z.array(conditionRule(1)).min(1, 'must not be empty').max(100),
})
