import type { Prisma } from '../../../generated/prisma/client.js'
import { subjectInclude } from './subjects.js'

/** Every assignment read loads this: the subject's current key comes from its relation. */
export const assignmentInclude = { ...subjectInclude } satisfies Prisma.LimitAssignmentInclude
export type AssignmentRow = Prisma.LimitAssignmentGetPayload<{ include: typeof assignmentInclude }>

/** The subject's key as clients name it now; null for PLATFORM, PROJECT and AUDIENCE_RULE. */
export function subjectKeyOf(row: AssignmentRow): string | null {
  switch (row.subjectType) {
    case 'CONSUMER':
      return row.credential?.username ?? null
    case 'APPLICATION':
      return row.application?.name ?? null
    case 'API_CLIENT':
      return row.apiClient?.clientId ?? null
    case 'ORGANIZATION':
      return row.organization?.code ?? null
    case 'API_PROXY':
      return row.apiProxy?.name ?? null
    default:
      return null
  }
}

const present = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined))

export function targetView(row: Pick<AssignmentRow, 'targetType' | 'targetApiProxyName' | 'targetApiProxyGroupName' | 'targetEnvironmentName' | 'targetKey' | 'targetHttpMethods'>) {
  const proxyTarget = row.targetType === 'API_PROXY' || row.targetType === 'API_PROXY_ENV'
  return {
    type: row.targetType,
    ...present({
      apiProxyName: row.targetApiProxyName,
      apiProxyGroupName: row.targetApiProxyGroupName,
      environmentName: row.targetEnvironmentName,
      targetKey: row.targetKey,
    }),
    ...(proxyTarget ? { httpMethods: row.targetHttpMethods } : {}),
  }
}

/** The assignment response of spec §2.13. */
export function assignmentView(row: AssignmentRow) {
  const key = subjectKeyOf(row)
  return {
    bindingKey: row.bindingKey,
    subject: { type: row.subjectType, ...(key !== null ? { key } : {}) },
    family: row.family,
    actorScope: row.actorScope,
    target: targetView(row),
    mode: row.mode,
    planKeys: row.planKeys,
    customRuleSpec: row.customRuleSpec ?? null,
    audienceRule: row.audienceRule ?? null,
    cacheErrorHandlingType: row.cacheErrorHandlingType,
    cacheConnectionTimeoutInSeconds: row.cacheConnectionTimeoutInSeconds,
    showRateLimitStatisticsInResponseHeader: row.showRateLimitStatisticsInResponseHeader,
    customMessageTemplate: row.customMessageTemplate,
    customMessageContentType: row.customMessageContentType,
    customMessageHttpStatusCode: row.customMessageHttpStatusCode,
    source: row.source,
    status: row.status,
    validFrom: row.validFrom?.toISOString() ?? null,
    validUntil: row.validUntil?.toISOString() ?? null,
    assignedAt: row.assignedAt.toISOString(),
    assignedBy: row.assignedBy,
    endedAt: row.endedAt?.toISOString() ?? null,
    endedBy: row.endedBy,
    ...(row.status === 'ENDED' ? { endedReason: row.endedReason } : {}),
    operatorOverride: row.operatorOverride,
    version: row.version,
    ...(row.bulkRunId ? { bulkRunId: row.bulkRunId } : {}),
    ...(row.replacedBindingKey ? { replacedBindingKey: row.replacedBindingKey } : {}),
  }
}
export type AssignmentView = ReturnType<typeof assignmentView>
