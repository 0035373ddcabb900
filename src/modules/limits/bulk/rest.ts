import { z } from 'zod'
import { defineRoutes, requireActor, type RouteInput } from '../../../platform/http/routes.js'
import { previewInput, runInput } from './inputs.js'
import { previewBulkAssignment } from './preview.js'
import { getBulkRun, listBulkRunIssues, listBulkRuns } from './reads.js'
import { cancelBulkRun, createBulkRun, retryFailedBulkRun, rollbackBulkRun } from './runs.js'
import { receiptView, runView } from './views.js'
import { pageBody, plainBody } from '../../../platform/http/response-schemas.js'
import { bulkPreviewSchema, bulkRunIssueSchema, bulkRunReceiptSchema, bulkRunSchema } from './view-schemas.js'

/** The answers the manager surface shares (limits/manager/rest.ts). */
export const bulkResponses = {
  preview: plainBody(bulkPreviewSchema),
  receipt: plainBody(bulkRunReceiptSchema),
  runs: pageBody(bulkRunSchema),
  run: plainBody(bulkRunSchema),
  issues: pageBody(bulkRunIssueSchema),
}

// Bulk assignment, Common Contract style (spec §4.9), base /apiops/projects/{projectName}.

const base = '/apiops/projects/:projectName'
const runsPath = (projectName: string) => `/apiops/projects/${encodeURIComponent(projectName)}/limit-assignment-runs`

export const pagingQuery = z.object({
  page: z.string().optional().describe('from 0'),
  size: z.string().optional().describe('default 20, at most 200'),
  sort: z.string().optional().describe('field,direction'),
})

export const IDEMPOTENCY_HEADER = [{ name: 'Idempotency-Key', description: 'required; claimed per project and operation with a canonical hash of the body', required: true }]

export const BULK_REFUSALS = {
  400: 'malformedRequest (params.field; params.reason platformScopeNotSupported, bodyRequired, limit.bulk.includeListTooLarge, …), unsupportedSortField (params.supported), idempotencyKeyRequired',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: IDENTITY (or AI_BUDGETS) VIEW for reads, MANAGE for writes',
  404: 'resourceNotFound: project, run, plan (params.plan), subject key (params.subjectType, subject, missingCount), organization',
  409: 'lifecycleConflict (params.reason limit.bulk.runAlreadyActive, fingerprintMismatch, runNotCancellable, runNotRollbackable, runNotRetryable; limit.binding.planRetired, planNotPublished) or idempotencyKeyReused / idempotencyInProgress / idempotencyReplayExpired (params.resource: the run id)',
}

const idempotencyKey = (input: RouteInput) => {
  const raw = input.headers['idempotency-key']
  return Array.isArray(raw) ? raw[0] : raw
}

/** 202 with the receipt and the run's Location. */
export const accepted = (projectName: string, run: Parameters<typeof receiptView>[0], location = `${runsPath(projectName)}/${encodeURIComponent(run.runId)}`) => ({
  status: 202,
  headers: { Location: location },
  body: receiptView(run),
})

export const limitBulkRoutes = defineRoutes([
  {
    method: 'post', path: `${base}/limit-assignment-previews`, style: 'common', auth: 'token', tag: 'limit-bulk', audit: false,
    summary: 'Preview a bulk assignment: counts, a sample and the selectorFingerprint a run must present. Writes nothing',
    body: { kind: 'json', required: true, schema: previewInput },
    response: bulkResponses.preview,
    responses: { 200: 'status, selectorFingerprint, expectedCount, willCreate, willSkip, willReplace, licenseBlocked, estimated, sample[]', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await previewBulkAssignment(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.body) }
    },
  },
  {
    method: 'post', path: `${base}/limit-assignment-runs`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Queue a bulk ASSIGN run (one queued or running run per project); it runs in the background in chunks of 200',
    body: { kind: 'json', required: true, schema: runInput },
    headers: IDEMPOTENCY_HEADER,
    response: bulkResponses.receipt,
    responses: { 202: 'receipt: status, runId, kind, runStatus, queuedAt, expectedCount; Location of the run', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const run = await createBulkRun(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.body, { idempotencyKey: idempotencyKey(input), trigger: 'APIOPS' })
      return accepted(input.params.projectName, run)
    },
  },
  {
    method: 'get', path: `${base}/limit-assignment-runs`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Bulk runs of the project, paged (sort startedAt, status or kind; default startedAt,desc)',
    query: pagingQuery,
    response: bulkResponses.runs,
    responses: { 200: 'paged envelope of runs', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await listBulkRuns(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.query) }
    },
  },
  {
    method: 'get', path: `${base}/limit-assignment-runs/:runId`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'One run with its progress (phase, counts, deploymentState, heartbeatAt)',
    response: bulkResponses.run,
    responses: { 200: 'the run', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: runView(await getBulkRun(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.runId)) }
    },
  },
  {
    method: 'get', path: `${base}/limit-assignment-runs/:runId/issues`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Kept issues of a run (FAILED and SKIPPED_* only, at most 1000), paged (sort seq, outcome or occurredAt; default seq,asc)',
    query: pagingQuery,
    response: bulkResponses.issues,
    responses: { 200: 'paged envelope of issues', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await listBulkRunIssues(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.runId, input.query) }
    },
  },
  {
    method: 'post', path: `${base}/limit-assignment-runs/:runId/actions/cancel`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Cancel: a queued run at once, a running one at its next chunk boundary (written rows stay)',
    response: bulkResponses.run,
    responses: { 200: 'the run', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: runView(await cancelBulkRun(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.runId)) }
    },
  },
  {
    method: 'post', path: `${base}/limit-assignment-runs/:runId/actions/rollback`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Queue a ROLLBACK run: ends what the run created and reopens what it replaced as new rows',
    headers: IDEMPOTENCY_HEADER,
    response: bulkResponses.receipt,
    responses: { 202: 'receipt of the new run; Location', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const run = await rollbackBulkRun(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.runId, { idempotencyKey: idempotencyKey(input), trigger: 'APIOPS' })
      return accepted(input.params.projectName, run)
    },
  },
  {
    method: 'post', path: `${base}/limit-assignment-runs/:runId/actions/retry-failed`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Queue a RETRY run over the subjects the run recorded FAILED, with KEEP_EXISTING',
    headers: IDEMPOTENCY_HEADER,
    response: bulkResponses.receipt,
    responses: { 202: 'receipt of the new run; Location', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const run = await retryFailedBulkRun(ctx.deps.prisma, requireActor(ctx), input.params.projectName, input.params.runId, { idempotencyKey: idempotencyKey(input), trigger: 'APIOPS' })
      return accepted(input.params.projectName, run)
    },
  },
])
