import { z } from 'zod'
import { ACTION_TIME_UNITS, enumOf, flag, int, list, optText, requireWhen, text, variable } from './common.js'

// The action object business rules and redactions share (EnumActionType, …ModificationOperator).

export const MODIFY_OPERATORS = [
  'ADD', 'SUBTRACT', 'MULTIPLY', 'DIVIDE', 'MODULUS', 'POWER',
  'CONCAT', 'REPLACE_IN', 'REPLACE_WITH', 'REPLACE_FIRST', 'SUBSTRING', 'MASK', 'FORMAT', 'TRANSFORM', 'INSERT', 'TRIM', 'ENCODE', 'DECODE', 'URL_ENCODE', 'URL_DECODE', 'EXTRACT_JWT_HEADER_CLAIM', 'EXTRACT_JWT_BODY_CLAIM',
  'ADD_TEMPORAL', 'SUBTRACT_TEMPORAL',
] as const

export const actionFields = {
  sourceVar: variable.nullish(),
  sourceVarBodyInjectionFieldName: optText(200),
  sourceDataType: enumOf(['STRING', 'NUMERIC', 'TEMPORAL'] as const).nullish(),
  sourceTemporalFormat: optText(200),
  operator: enumOf(MODIFY_OPERATORS).nullish(),
  substringFrom: int(0, 1_000_000).nullish(),
  substringTo: int(0, 1_000_000).nullish(),
  maskFrom: int(0, 1_000_000).nullish(),
  maskTo: int(0, 1_000_000).nullish(),
  replaceSource: optText(2000),
  insertOffset: int(0, 1_000_000).nullish(),
  temporalOperatorTimeUnit: enumOf(ACTION_TIME_UNITS).nullish(),
  replaceFirst: optText(2000),
  targetValSource: enumOf(['VALUE', 'VARIABLE'] as const).nullish(),
  targetVal: z.string({ error: 'must be a string' }).max(64 * 1024, 'must be at most 65536 characters').nullish(),
  targetVar: variable.nullish(),
  transformationContentType: enumOf(['XSLT', 'JOLT', 'XML2JSON', 'JSON2XML'] as const).nullish(),
  formatAllowsInvalid: flag(),
  formatValueContainsLiteralCharacters: flag(),
  formatInvalidCharacters: optText(200),
  formatPlaceholder: optText(200),
  xmlToJsonArrayPathList: list(text(1000)).nullish(),
  claimJsonPath: optText(1000),
}

/**
 * An action of the given types. The business rule page's add and update examples (2025-11-18, 11953a2) spell the
 * target value `targetValue`, its field table `targetVal`: both are accepted, `targetVal` wins when both are sent,
 * and the action is stored (and pushed, and read) with `targetVal` only.
 */
export const actionObject = <T extends readonly [string, ...string[]]>(types: T) =>
  z
    .looseObject({ actionType: enumOf(types), ...actionFields, targetValue: z.string({ error: 'must be a string' }).max(64 * 1024, 'must be at most 65536 characters').nullish() })
    .transform(({ targetValue, ...action }) => (action.targetVal == null && targetValue != null ? { ...action, targetVal: targetValue } : action))

type Action = { actionType: string } & { [K in keyof typeof actionFields]?: unknown }

/** The page's "Action Requirements" and "Operator-Specific Fields". `at` is the action's path. */
export function checkAction(a: Action, ctx: z.RefinementCtx, at: (string | number)[]) {
  const need = (when: boolean, field: keyof typeof actionFields, why: string) => requireWhen(ctx, when, a[field], [...at, field], `is required ${why}`)
  const t = a.actionType
  need(t === 'ADD' || t === 'MODIFY' || t === 'DELETE', 'sourceVar', `for a ${t} action`)
  need(t === 'MODIFY', 'sourceDataType', 'for a MODIFY action')
  need(t === 'MODIFY', 'operator', 'for a MODIFY action')
  need(t === 'ADD' || t === 'MODIFY', 'targetValSource', `for a ${t} action`)
  need(t === 'ADD', 'targetVar', 'for an ADD action')
  need((t === 'ADD' || t === 'MODIFY') && a.targetValSource === 'VALUE', 'targetVal', 'when targetValSource is VALUE')
  need(t === 'MODIFY' && a.targetValSource === 'VARIABLE', 'targetVar', 'when targetValSource is VARIABLE')
  if (t !== 'MODIFY') return
  need(a.operator === 'SUBSTRING', 'substringFrom', 'for the SUBSTRING operator')
  need(a.operator === 'MASK', 'maskFrom', 'for the MASK operator')
  need(a.operator === 'INSERT', 'insertOffset', 'for the INSERT operator')
  need(a.operator === 'TRANSFORM', 'transformationContentType', 'for the TRANSFORM operator')
  const temporal = a.operator === 'ADD_TEMPORAL' || a.operator === 'SUBTRACT_TEMPORAL'
  need(temporal, 'temporalOperatorTimeUnit', `for the ${String(a.operator)} operator`)
  need(temporal, 'sourceTemporalFormat', `for the ${String(a.operator)} operator`)
}
