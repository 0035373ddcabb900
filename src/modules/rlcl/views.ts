import type { Prisma } from '../../generated/prisma/client.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { compileCustomRule } from '../limits/assignments/compile.js'
import { validateRuleSpec } from '../limits/shared/rule-spec.js'
import { currentConditionRules } from './inputs.js'

// An RLCL as it reads (the vendor's field names) and as it is deployed (the engine's compiled rules).

export const ALL = 'ALL'

export const rlclInclude = {
  credentials: { include: { credential: { select: { username: true } } } },
  endpoints: { include: { apiProxy: { select: { name: true } }, endpoint: { select: { method: true, path: true } } }, orderBy: { position: 'asc' } },
} satisfies Prisma.RlclInclude
export type RlclRow = Prisma.RlclGetPayload<{ include: typeof rlclInclude }>

export interface EntrySettings {
  cacheConnectionTimeoutInSeconds: number
  cacheErrorHandlingType: string
  timeIntervalWindowType: string
  targetVariable: unknown
  targetIdentityValue: string | null
  showRateLimitStatisticsInResponseHeader: boolean
  enabled: boolean
}
type Window = { permittedMessageCount: number; interval: string; periodLength?: number; windowType?: string }
const windowOf = (ruleSpec: unknown) => (ruleSpec as { requestRate: { windows: Window[] } }).requestRate.windows[0]!

function entryView(e: RlclRow['endpoints'][number]) {
  const w = windowOf(e.ruleSpec)
  const s = e.settings as unknown as EntrySettings
  return {
    apiProxyName: e.apiProxy.name,
    /** the newest read page's endpointId: the endpoint's id, null for an ALL entry */
    endpointId: e.endpointId,
    endpointName: e.endpoint?.path ?? ALL,
    endpointHTTPMethod: e.endpoint?.method ?? ALL,
    permittedMessageCount: w.permittedMessageCount,
    timeIntervalPeriodLength: w.periodLength ?? 1,
    timeInterval: w.interval,
    ...s,
  }
}

/** The stored RLCL in the vendor's field names, with its credentials, endpoint entries and condition. */
export function rlclView(r: RlclRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    enabled: r.enabled,
    executionOrder: r.executionOrder,
    cacheConnectionTimeoutInSeconds: r.cacheConnectionTimeoutInSeconds,
    cacheErrorHandlingType: r.cacheErrorHandlingType,
    timeIntervalWindowType: r.timeIntervalWindowType,
    showRateLimitStatisticsInResponseHeader: r.showRateLimitStatisticsInResponseHeader,
    targetVariable: r.targetVariable ?? null,
    identitySource: r.identitySource,
    targetAudienceRuleList: (r.targetAudienceRuleList ?? []) as { operator: string; value: string }[],
    outOfTargetAction: r.outOfTargetAction,
    generalQuotaMode: r.generalQuotaMode,
    generalQuotaPermittedMessageCount: r.generalQuotaPermittedMessageCount,
    generalQuotaTimeIntervalPeriodLength: r.generalQuotaTimeIntervalPeriodLength,
    generalQuotaTimeInterval: r.generalQuotaTimeInterval,
    // in the current vocabulary, conditions stored in the earlier pages' words too
    condition: r.condition ? { conditionRuleList: currentConditionRules(r.condition) } : null,
    credentialNameList: r.credentials.map((c) => c.credential.username).sort(),
    endpointRateLimitList: r.endpoints.map(entryView),
  }
}
export type RlclView = ReturnType<typeof rlclView>

/** The deploy message's config: the list with its credentials and, per entry, the engine's compiled rules. */
export function compileRlcl(r: RlclRow) {
  const view: Partial<RlclView> = rlclView(r)
  delete view.id
  delete view.endpointRateLimitList
  const quota = r.outOfTargetAction === 'GENERAL_QUOTA' && r.generalQuotaPermittedMessageCount && r.generalQuotaTimeInterval && r.generalQuotaTimeIntervalPeriodLength
  return {
    ...view,
    // the general quota compiled as an endpoint entry's rate is (out-of-target requests; TOTAL or PER_IDENTITY)
    generalQuotaRules: quota
      ? compileCustomRule(generalQuotaSpec(r.generalQuotaPermittedMessageCount!, r.generalQuotaTimeInterval!, r.generalQuotaTimeIntervalPeriodLength!, r.timeIntervalWindowType))
      : null,
    endpoints: r.endpoints.map((e) => {
      const v = entryView(e)
      return { apiProxyName: v.apiProxyName, endpointName: v.endpointName, endpointHTTPMethod: v.endpointHTTPMethod, ...(e.settings as unknown as EntrySettings), rules: compileCustomRule(e.ruleSpec) }
    }),
  }
}

/** The general quota as the limits engine's request-rate rule spec, validated by the engine (fields named as the page's). */
export function generalQuotaSpec(permittedMessageCount: number, interval: string, periodLength: number, windowType: string) {
  const spec = { requestRate: { windows: [{ permittedMessageCount, interval, periodLength, windowType }] } }
  try {
    return validateRuleSpec('REQUEST_RATE', spec, 'generalQuota')
  } catch (err) {
    if (!(err instanceof DomainError)) throw err
    const member = { permittedMessageCount: 'generalQuotaPermittedMessageCount', interval: 'generalQuotaTimeInterval', periodLength: 'generalQuotaTimeIntervalPeriodLength' }[String(err.params.field ?? '').split('.').pop() ?? ''] ?? 'generalQuotaPermittedMessageCount'
    const problem = err.message.includes(': ') ? err.message.slice(err.message.lastIndexOf(': ') + 2) : err.message
    throw malformed(`${member}: ${problem}`, { field: member })
  }
}
