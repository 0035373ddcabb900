import type { LimitBulkRun, LimitBulkRunIssue } from '../../../generated/prisma/client.js'

/** The run of spec §2.14 (plus endedCount and restoredCount of ROLLBACK runs); timestamps ISO 8601. */
export function runView(run: LimitBulkRun) {
  const end = run.finishedAt ?? (run.runningAt ? new Date() : null)
  return {
    runId: run.runId,
    runStatus: run.runStatus,
    kind: run.kind,
    phase: run.phase,
    startedAt: run.startedAt.toISOString(),
    runningAt: run.runningAt?.toISOString() ?? null,
    heartbeatAt: run.heartbeatAt?.toISOString() ?? null,
    finishedAt: run.finishedAt?.toISOString() ?? null,
    durationMs: run.runningAt && end ? Math.max(0, end.getTime() - run.runningAt.getTime()) : null,
    trigger: run.trigger,
    triggeredBy: run.triggeredBy,
    selector: run.selector ?? null,
    content: run.content ?? null,
    includedSubjectCount: run.includedSubjectCount,
    excludedSubjectCount: run.excludedSubjectCount,
    selectorFingerprint: run.selectorFingerprint,
    conflictPolicy: run.conflictPolicy,
    expectedCount: run.expectedCount,
    actualCount: run.actualCount,
    processedCount: run.processedCount,
    createdCount: run.createdCount,
    replacedCount: run.replacedCount,
    skippedCount: run.skippedCount,
    failedCount: run.failedCount,
    licenseSkippedCount: run.licenseSkippedCount,
    endedCount: run.endedCount,
    restoredCount: run.restoredCount,
    issueCount: run.issueCount,
    issuesTruncated: run.issuesTruncated,
    cancelRequested: run.cancelRequested,
    rollbackOfRunId: run.rollbackOfRunId,
    retryOfRunId: run.retryOfRunId,
    idempotencyKey: run.idempotencyKey,
    deploymentState: run.deploymentState,
    messageKey: run.messageKey,
    messageParams: run.messageParams ?? null,
  }
}
export type RunView = ReturnType<typeof runView>

/** The 202 receipt of spec §2.14. */
export const receiptView = (run: LimitBulkRun) => ({
  status: 'SUCCESS' as const,
  runId: run.runId,
  kind: run.kind,
  runStatus: run.runStatus,
  queuedAt: run.startedAt.toISOString(),
  expectedCount: run.expectedCount,
})

export const issueView = (issue: LimitBulkRunIssue) => ({
  seq: issue.seq,
  subjectType: issue.subjectType,
  subjectName: issue.subjectName,
  outcome: issue.outcome,
  bindingKey: issue.bindingKey,
  messageKey: issue.messageKey,
  messageParams: issue.messageParams ?? null,
  occurredAt: issue.occurredAt.toISOString(),
})
