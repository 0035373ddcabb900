import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import type { previewBulkAssignment } from './preview.js'
import type { issueView, receiptView, RunView } from './views.js'

// The answer schemas of the bulk assignment routes (spec §2.14, §4.9), tied at compile time to the views.

// JSON columns (the run's selector and content as sent, message parameters): objects, any JSON value to Prisma
const jsonObject = z.record(z.string(), z.unknown()).nullable()

const runFields = {
  runId: z.string(),
  runStatus: z.string(),
  kind: z.string(),
  phase: z.string(),
  startedAt: z.string(),
  runningAt: z.string().nullable(),
  heartbeatAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  trigger: z.string(),
  triggeredBy: z.string(),
  includedSubjectCount: z.number().int(),
  excludedSubjectCount: z.number().int(),
  selectorFingerprint: z.string().nullable(),
  conflictPolicy: z.string(),
  expectedCount: z.number().int().nullable(),
  actualCount: z.number().int(),
  processedCount: z.number().int(),
  createdCount: z.number().int(),
  replacedCount: z.number().int(),
  skippedCount: z.number().int(),
  failedCount: z.number().int(),
  licenseSkippedCount: z.number().int(),
  endedCount: z.number().int(),
  restoredCount: z.number().int(),
  issueCount: z.number().int(),
  issuesTruncated: z.boolean(),
  cancelRequested: z.boolean(),
  rollbackOfRunId: z.string().nullable(),
  retryOfRunId: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  deploymentState: z.string().nullable(),
  messageKey: z.string().nullable(),
}
describes<Omit<RunView, 'selector' | 'content' | 'messageParams'>>()(z.object(runFields))

export const bulkRunSchema = z
  .object({ ...runFields, selector: jsonObject, content: jsonObject, messageParams: jsonObject })
  .meta({ id: 'LimitBulkRun', description: 'A bulk assignment run with its progress (spec §2.14)' })

export const bulkRunReceiptSchema = describes<ReturnType<typeof receiptView>>()(
  z
    .object({ status: z.literal('SUCCESS'), runId: z.string(), kind: z.string(), runStatus: z.string(), queuedAt: z.string(), expectedCount: z.number().int().nullable() })
    .meta({ id: 'LimitBulkRunReceipt', description: 'The 202 receipt of a queued bulk run (spec §2.14)' }),
)

const issueFields = {
  seq: z.number().int(),
  subjectType: z.string(),
  subjectName: z.string(),
  outcome: z.string(),
  bindingKey: z.string().nullable(),
  messageKey: z.string().nullable(),
  occurredAt: z.string(),
}
describes<Omit<ReturnType<typeof issueView>, 'messageParams'>>()(z.object(issueFields))
export const bulkRunIssueSchema = z.object({ ...issueFields, messageParams: jsonObject }).meta({ id: 'LimitBulkRunIssue', description: 'A kept issue of a bulk run' })

export const bulkPreviewSchema = describes<Awaited<ReturnType<typeof previewBulkAssignment>>>()(
  z.object({
    status: z.literal('SUCCESS'),
    selectorFingerprint: z.string(),
    expectedCount: z.number().int(),
    willCreate: z.number().int(),
    willSkip: z.number().int(),
    willReplace: z.number().int(),
    licenseBlocked: z.number().int(),
    includedSubjectCount: z.number().int(),
    excludedSubjectCount: z.number().int(),
    estimated: z.boolean(),
    sample: z.array(z.object({ subjectName: z.string(), outcome: z.enum(['CREATED', 'REPLACED', 'SKIPPED_EXISTING', 'SKIPPED_LICENSE']), existingBindingKey: z.string().optional() })),
  }),
)
