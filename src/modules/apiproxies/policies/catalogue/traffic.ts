import { z } from 'zod'
import { criteriaCondition, definePolicy, enumOf, flag, int, list, nonEmptyList, optText, positive, text, variable } from './common.js'

// Traffic family (vendor "Rate Limiting & Quota Policies"): throttling, quota, client bans, endpoint rate limits.

const THROTTLING_INTERVALS = ['ONE_SECOND', 'ONE_MINUTE', 'ONE_HOUR', 'ONE_DAY'] as const
const QUOTA_INTERVALS = ['ONE_HOUR', 'ONE_DAY', 'ONE_MONTH'] as const
const WINDOWS = ['FIXED', 'SLIDING'] as const

const detail = <T extends readonly [string, ...string[]]>(intervals: T) =>
  z.looseObject({ targetValue: text(1000), regexExpression: flag(), messageCountForInterval: positive(), intervalPeriodLength: positive(1_000_000).nullish(), quotaInterval: enumOf(intervals) })

const limitFields = <T extends readonly [string, ...string[]]>(intervals: T, cacheErrors: readonly [string, ...string[]]) => ({
  targetVariableForIdentity: variable,
  messageCountForInterval: positive(),
  intervalPeriodLength: positive(1_000_000).nullish(),
  intervalWindowType: enumOf(WINDOWS).nullish(),
  cacheConnectionTimeoutInSeconds: int(1, 3600).nullish(),
  cacheErrorHandlingType: enumOf(cacheErrors).nullish(),
  showRateLimitStatisticsInResponseHeader: flag(),
  detailList: list(detail(intervals), 1000).nullish(),
})

export const apiBasedThrottling = definePolicy({
  type: 'policy-api-based-throttling',
  family: 'traffic',
  title: 'API Based Throttling',
  description: 'Limits the requests per client (targetVariableForIdentity) in a time interval, with per-value overrides',
  fields: { ...limitFields(THROTTLING_INTERVALS, ['FAIL', 'ALLOW'] as const), throttlingInterval: enumOf(THROTTLING_INTERVALS) },
})

export const apiBasedQuota = definePolicy({
  type: 'policy-api-based-quota',
  family: 'traffic',
  title: 'API Based Quota',
  description: 'Limits the total requests per client over an hour, day or month, with per-value overrides',
  fields: { ...limitFields(QUOTA_INTERVALS, ['FAIL', 'CONTINUE'] as const), quotaInterval: enumOf(QUOTA_INTERVALS) },
})

const banFields = {
  clientIdentityVariableList: nonEmptyList(variable, 20),
  thresholdWindowInSeconds: positive(31_536_000),
  thresholdCountPerWindow: positive(),
  thresholdCalculationType: enumOf(['COUNT', 'PERCENT'] as const),
  banTimeInSeconds: positive(31_536_000),
  enableRetryAfterHeader: flag(),
  ignoreWhenKeyIsEmpty: flag(),
  assertionCondition: criteriaCondition,
}
const percentAtMost100 = (p: { thresholdCalculationType: string; thresholdCountPerWindow: number }, ctx: z.RefinementCtx) => {
  if (p.thresholdCalculationType === 'PERCENT' && p.thresholdCountPerWindow > 100) ctx.addIssue({ code: 'custom', path: ['thresholdCountPerWindow'], message: 'must be at most 100 when thresholdCalculationType is PERCENT' })
}

export const clientBan = definePolicy({
  type: 'policy-client-ban',
  family: 'traffic',
  title: 'Client Ban',
  description: 'Bans a client for banTimeInSeconds once its errors (assertionCondition) pass a threshold in a window',
  fields: banFields,
  refine: percentAtMost100,
})

export const clientBanner = definePolicy({
  type: 'policy-client-banner',
  family: 'traffic',
  title: 'Client Banner',
  description: 'The client ban page under its other type name (policy-client-banner): same fields and rules',
  fields: banFields,
  refine: percentAtMost100,
})

export const endpointRateLimit = definePolicy({
  type: 'policy-endpoint-rate-limit',
  family: 'traffic',
  title: 'Endpoint Rate Limit',
  description: 'Limits the requests per client to one endpoint in a time interval',
  fields: {
    apiProxyGroupId: optText(200),
    apiProxyId: optText(200),
    endpointId: optText(200),
    endpointName: optText(1000),
    permittedMessageCount: positive(),
    timeIntervalPeriodLength: positive(1_000_000),
    timeInterval: enumOf(['ONE_SECOND', 'ONE_MINUTE', 'ONE_HOUR', 'ONE_DAY', 'ONE_MONTH'] as const),
    targetVariable: variable.nullish(),
    cacheConnectionTimeoutInSeconds: int(1, 3600).nullish(),
    cacheErrorHandlingType: enumOf(['FAIL', 'PASS'] as const).nullish(),
    timeIntervalWindowType: enumOf(WINDOWS).nullish(),
    targetIdentityValue: optText(1000),
    showRateLimitStatisticsInResponseHeader: flag(),
    enabled: flag(),
  },
})

export const TRAFFIC = [apiBasedThrottling, apiBasedQuota, clientBan, clientBanner, endpointRateLimit]
