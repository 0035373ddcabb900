import { z } from 'zod'
import { actionObject, checkAction } from './actions.js'
import { body, definePolicy, enumOf, flag, headerName, httpUrl, int, list, nonEmptyList, optText, positive, ref, refName, requireWhen, text, variable } from './common.js'

// Scripting, integration and advanced families: scripts, outbound API calls, time windows, business rules, groups.

export const script = definePolicy({
  type: 'policy-script',
  family: 'scripting',
  title: 'Script',
  description: 'Runs a Groovy or JavaScript script on the message, synchronously or asynchronously',
  // required, as the page's table says (proxy packages written before may omit it: policies/inputs.ts portablePolicyDocument)
  fields: { executionType: enumOf(['SYNC', 'ASYNC'] as const), scriptLanguage: enumOf(['GROOVY', 'JAVASCRIPT'] as const), scriptBody: body() },
})

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'] as const
const valueOrVariable = { valueSource: enumOf(['VALUE', 'VARIABLE'] as const), value: z.string({ error: 'must be a string' }).max(64 * 1024).nullish(), variable: variable.nullish() }
const header = z.looseObject({ name: headerName, description: optText(), ...valueOrVariable, prefix: enumOf(['NONE', 'BASIC', 'BEARER', 'DIGEST'] as const).nullish() })
const parameter = z.looseObject({ name: text(200), description: optText(), ...valueOrVariable })
const manipulation = z.looseObject({
  operation: enumOf(['ADD', 'ADD_OR_EDIT', 'DELETE'] as const),
  sourceValueSource: enumOf(['VALUE', 'VARIABLE'] as const).nullish(),
  sourceVar: variable.nullish(),
  sourceValue: optText(64 * 1024),
  targetName: text(1000),
  targetValueSource: enumOf(['VALUE', 'VARIABLE'] as const).nullish(),
  targetVar: variable.nullish(),
  targetValue: optText(64 * 1024),
})
const TEMPLATE_TYPES = ['XML', 'JSON', 'RAW', 'URL_ENCODED'] as const
const checkValues = (items: { valueSource: string; value?: string | null; variable?: unknown }[] | null | undefined, field: string, ctx: z.RefinementCtx) =>
  (items ?? []).forEach((h, i) => {
    requireWhen(ctx, h.valueSource === 'VALUE', h.value, [field, i, 'value'], 'is required when valueSource is VALUE')
    requireWhen(ctx, h.valueSource === 'VARIABLE', h.variable, [field, i, 'variable'], 'is required when valueSource is VARIABLE')
  })
const VALUE_LISTS = ['headersToBeAddedBeforeCallList', 'parametersToBeAddedBeforeCallList', 'headersToBeAddedAfterCallList', 'parametersToBeAddedAfterCallList'] as const

export const apiCall = definePolicy({
  type: 'policy-api-call',
  family: 'integration',
  title: 'API Call',
  description: 'Calls an external HTTP API (two-way or one-way) and uses its answer, with caching and mTLS',
  fields: {
    callType: enumOf(['SYNCHRONOUS', 'ONE_WAY'] as const),
    httpMethod: enumOf(HTTP_METHODS),
    url: httpUrl,
    timeout: int(1, 3_600_000).nullish(),
    certificateEnabled: flag(),
    certificateId: refName.nullish(),
    clearBodyBeforeCall: flag(),
    useMessageTemplateBeforeCall: flag(),
    enumTestConsoleRequestBodyType: enumOf(TEMPLATE_TYPES).nullish(),
    bodyContentBeforeCall: optText(256 * 1024),
    urlEncodedList: list(z.looseObject({ key: text(500), value: z.string({ error: 'must be a string' }).max(64 * 1024), description: optText() })).nullish(),
    dataManipulationListBeforeCall: list(manipulation).nullish(),
    removeAllHeadersBeforeCall: flag(),
    headersToBeDeletedBeforeCallList: list(text(200)).nullish(),
    headersToBeAddedBeforeCallList: list(header).nullish(),
    removeAllParametersBeforeCall: flag(),
    parametersToBeDeletedBeforeCallList: list(text(200)).nullish(),
    parametersToBeAddedBeforeCallList: list(parameter).nullish(),
    enableCache: flag(),
    cacheBy: variable.nullish(),
    capacity: positive(10_000_000).nullish(),
    ttl: positive(31_536_000).nullish(),
    cacheNullResponses: flag(),
    cacheStorageType: enumOf(['LOCAL', 'DISTRIBUTED'] as const).nullish(),
    afterCallBodyOperationType: enumOf(['NOT_CHANGE_BODY', 'REPLACE_BODY', 'CLEAR_BODY'] as const).nullish(),
    useMessageTemplateAfterCall: flag(),
    messageTemplateContentTypeAfterCall: enumOf(TEMPLATE_TYPES).nullish(),
    bodyContentAfterCall: optText(256 * 1024),
    dataManipulationListAfterCall: list(manipulation).nullish(),
    removeAllHeadersAfterCall: flag(),
    headersToBeDeletedAfterCallList: list(text(200)).nullish(),
    headersToBeAddedAfterCallList: list(header).nullish(),
    removeAllParametersAfterCall: flag(),
    parametersToBeDeletedAfterCallList: list(text(200)).nullish(),
    parametersToBeAddedAfterCallList: list(parameter).nullish(),
    prepareMessage: flag(),
    modifyMessage: flag(),
    newBodyContentSourceType: enumOf(['VALUE', 'VARIABLE'] as const).nullish(),
  },
  refine: (p, ctx) => {
    requireWhen(ctx, p.certificateEnabled === true, p.certificateId, ['certificateId'], 'is required when certificateEnabled is true')
    requireWhen(ctx, p.enableCache === true, p.capacity, ['capacity'], 'is required when enableCache is true')
    requireWhen(ctx, p.enableCache === true, p.ttl, ['ttl'], 'is required when enableCache is true')
    if (p.enableCache === true && p.callType !== 'SYNCHRONOUS') ctx.addIssue({ code: 'custom', path: ['callType'], message: 'must be SYNCHRONOUS when enableCache is true' })
    for (const field of VALUE_LISTS) checkValues(p[field], field, ctx)
  },
  references: (p) => (p.certificateEnabled === true ? ref('certificate', 'certificateId', p.certificateId) : []),
})

const WEEK_DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY', 'ALL'] as const
const isZoneId = (v: string) => {
  if (/^[+-](0\d|1[0-8]):[0-5]\d$/.test(v) || v === 'Z' || v === 'UTC') return true
  try {
    new Intl.DateTimeFormat('en', { timeZone: v })
    return true
  } catch {
    return false
  }
}
const TIME_FIELDS = ['startHour', 'startMinute', 'startSecond', 'endHour', 'endMinute', 'endSecond'] as const

export const timeRestriction = definePolicy({
  type: 'policy-time-restriction',
  family: 'advanced',
  title: 'Time Restriction',
  description: 'Allows or restricts access during week days or calendar dates, whole days or time ranges, in a time zone',
  fields: {
    actionType: enumOf(['ALLOW', 'RESTRICT'] as const),
    zoneId: text(100).refine(isZoneId, "must be a time zone offset such as '+03:00' or a zone name such as 'Europe/Istanbul'").nullish(),
    restrictionList: nonEmptyList(
      z.looseObject({
        hourName: optText(200),
        description: optText(),
        dayType: enumOf(['WEEK', 'CUSTOM'] as const),
        enumWeekDayList: list(enumOf(WEEK_DAYS), 8).nullish(),
        day: int(0, 31).nullish(),
        month: int(0, 12).nullish(),
        wholeDay: flag(),
        startHour: int(0, 24).nullish(),
        startMinute: int(0, 60).nullish(),
        startSecond: int(0, 60).nullish(),
        endHour: int(0, 24).nullish(),
        endMinute: int(0, 60).nullish(),
        endSecond: int(0, 60).nullish(),
      }),
    ),
  },
  refine: (p, ctx) =>
    p.restrictionList.forEach((r: any, i: number) => {
      const at = ['restrictionList', i]
      requireWhen(ctx, r.dayType === 'WEEK', r.enumWeekDayList, [...at, 'enumWeekDayList'], 'must name at least one week day when dayType is WEEK')
      requireWhen(ctx, r.dayType === 'CUSTOM', r.day, [...at, 'day'], 'is required when dayType is CUSTOM')
      requireWhen(ctx, r.dayType === 'CUSTOM', r.month, [...at, 'month'], 'is required when dayType is CUSTOM')
      if (r.wholeDay === true) return
      for (const f of TIME_FIELDS) requireWhen(ctx, true, r[f], [...at, f], 'is required when wholeDay is false')
      if (TIME_FIELDS.every((f) => typeof r[f] === 'number')) {
        const seconds = (h: number, m: number, s: number) => h * 3600 + m * 60 + s
        if (seconds(r.startHour, r.startMinute, r.startSecond) >= seconds(r.endHour, r.endMinute, r.endSecond)) ctx.addIssue({ code: 'custom', path: [...at, 'endHour'], message: 'the end time must be after the start time' })
      }
    }),
})

export const businessRule = definePolicy({
  type: 'policy-business-rule',
  family: 'advanced',
  title: 'Business Rule',
  description: 'Runs ADD, MODIFY, DELETE and STOP actions on message values, in order',
  fields: { actionList: nonEmptyList(actionObject(['ADD', 'MODIFY', 'DELETE', 'STOP'] as const)) },
  refine: (p, ctx) => p.actionList.forEach((a: any, i: number) => checkAction(a, ctx, ['actionList', i])),
})

export const policyGroup = definePolicy({
  type: 'policy-group',
  family: 'advanced',
  title: 'Policy Group',
  description: 'A container that groups related policies (the page defines only the common fields)',
  fields: {},
})

export const ADVANCED = [script, apiCall, timeRestriction, businessRule, policyGroup]
