import { z } from 'zod'
import { defineRoutes, requireActor, type RouteInput } from '../../../platform/http/routes.js'
import { projectNameOfRun } from '../bulk/access.js'
import { previewInput, runInput } from '../bulk/inputs.js'
import { previewBulkAssignment } from '../bulk/preview.js'
import { getBulkRun, listBulkRunIssues, listBulkRuns } from '../bulk/reads.js'
import { accepted, BULK_REFUSALS, bulkResponses, IDEMPOTENCY_HEADER, pagingQuery } from '../bulk/rest.js'
import { pageBody, plainBody } from '../../../platform/http/response-schemas.js'
import { limitImpactSchema, limitSubjectSchema, portalBackfillSchema, selectorOrganizationSchema } from './view-schemas.js'
import { cancelBulkRun, createBulkRun, retryFailedBulkRun, rollbackBulkRun } from '../bulk/runs.js'
import { runView } from '../bulk/views.js'
import { backfillPortalSubscriptions, backfillQuery, limitImpact, limitImpactQuery } from './portal/service.js'
import { requireProjectName, searchSubjects, selectorOrganizations, subjectSearchQuery } from './subjects.js'

// The manager surface of bulk assignment (spec §4.11): the same services as /apiops, the project named by the
// projectId query (a project name) or, for a run, by the run itself. Runs queued here are triggered MANUAL.

const RUNS = '/api/limit-assignment-runs'
const projectQuery = z.object({ projectId: z.string().optional().describe('project name (required)') })
const runLocation = (runId: string) => `${RUNS}/${encodeURIComponent(runId)}`

const idempotencyKey = (input: RouteInput) => {
  const raw = input.headers['idempotency-key']
  return Array.isArray(raw) ? raw[0] : raw
}

export const limitBulkManagerRoutes = defineRoutes([
  {
    method: 'post', path: '/api/limit-assignment-previews', style: 'common', auth: 'token', tag: 'limit-bulk', audit: false,
    summary: 'Preview a bulk assignment in the project named by projectId (writes nothing)',
    query: projectQuery, body: { kind: 'json', required: true, schema: previewInput },
    response: bulkResponses.preview,
    responses: { 200: 'the preview', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await previewBulkAssignment(ctx.deps.prisma, requireActor(ctx), requireProjectName(input.query), input.body) }
    },
  },
  {
    method: 'post', path: RUNS, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Queue a bulk ASSIGN run in the project named by projectId',
    query: projectQuery, body: { kind: 'json', required: true, schema: runInput }, headers: IDEMPOTENCY_HEADER,
    response: bulkResponses.receipt,
    responses: { 202: 'receipt; Location /api/limit-assignment-runs/{runId}', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const projectName = requireProjectName(input.query)
      const run = await createBulkRun(ctx.deps.prisma, requireActor(ctx), projectName, input.body, { idempotencyKey: idempotencyKey(input), trigger: 'MANUAL' })
      return accepted(projectName, run, runLocation(run.runId))
    },
  },
  {
    method: 'get', path: RUNS, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Bulk runs of the project named by projectId, paged (sort startedAt, status or kind)',
    query: projectQuery.extend(pagingQuery.shape),
    response: bulkResponses.runs,
    responses: { 200: 'paged envelope of runs', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await listBulkRuns(ctx.deps.prisma, requireActor(ctx), requireProjectName(input.query), input.query) }
    },
  },
  {
    method: 'get', path: `${RUNS}/:runId`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'One run',
    response: bulkResponses.run,
    responses: { 200: 'the run', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const actor = requireActor(ctx)
      const projectName = await projectNameOfRun(ctx.deps.prisma, actor, input.params.runId, 'VIEW')
      return { body: runView(await getBulkRun(ctx.deps.prisma, actor, projectName, input.params.runId)) }
    },
  },
  {
    method: 'get', path: `${RUNS}/:runId/issues`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Kept issues of a run, paged',
    query: pagingQuery,
    response: bulkResponses.issues,
    responses: { 200: 'paged envelope of issues', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const actor = requireActor(ctx)
      const projectName = await projectNameOfRun(ctx.deps.prisma, actor, input.params.runId, 'VIEW')
      return { body: await listBulkRunIssues(ctx.deps.prisma, actor, projectName, input.params.runId, input.query) }
    },
  },
  {
    method: 'post', path: `${RUNS}/:runId/actions/cancel`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Cancel a queued or running run',
    response: bulkResponses.run,
    responses: { 200: 'the run', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const actor = requireActor(ctx)
      const projectName = await projectNameOfRun(ctx.deps.prisma, actor, input.params.runId, 'MANAGE')
      return { body: runView(await cancelBulkRun(ctx.deps.prisma, actor, projectName, input.params.runId)) }
    },
  },
  {
    method: 'post', path: `${RUNS}/:runId/actions/rollback`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Queue a ROLLBACK run of a finished ASSIGN or RETRY run', headers: IDEMPOTENCY_HEADER,
    response: bulkResponses.receipt,
    responses: { 202: 'receipt of the new run; Location', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const actor = requireActor(ctx)
      const projectName = await projectNameOfRun(ctx.deps.prisma, actor, input.params.runId, 'MANAGE')
      const run = await rollbackBulkRun(ctx.deps.prisma, actor, projectName, input.params.runId, { idempotencyKey: idempotencyKey(input), trigger: 'MANUAL' })
      return accepted(projectName, run, runLocation(run.runId))
    },
  },
  {
    method: 'post', path: `${RUNS}/:runId/actions/retry-failed`, style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Queue a RETRY run over the failed subjects of a finished run', headers: IDEMPOTENCY_HEADER,
    response: bulkResponses.receipt,
    responses: { 202: 'receipt of the new run; Location', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const actor = requireActor(ctx)
      const projectName = await projectNameOfRun(ctx.deps.prisma, actor, input.params.runId, 'MANAGE')
      const run = await retryFailedBulkRun(ctx.deps.prisma, actor, projectName, input.params.runId, { idempotencyKey: idempotencyKey(input), trigger: 'MANUAL' })
      return accepted(projectName, run, runLocation(run.runId))
    },
  },
  {
    method: 'get', path: '/api/limit-assignment-subjects/search', style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'Subjects of one type for the bulk selector, paged (sort subjectKey)',
    query: subjectSearchQuery,
    response: pageBody(limitSubjectSchema),
    responses: { 200: 'paged envelope of { subjectType, subjectKey, displayName, organizationCode, enabled }', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await searchSubjects(ctx.deps.prisma, requireActor(ctx), input.query) }
    },
  },
  {
    method: 'get', path: '/api/limit-assignment-subjects/organizations', style: 'common', auth: 'token', tag: 'limit-bulk',
    summary: 'The organization tree of the project (depth-first, parents first) for the selector',
    query: projectQuery,
    response: plainBody(z.array(selectorOrganizationSchema)),
    responses: { 200: 'array of { code, name, parentCode, depth, state, suspended, subOrganizationCount }', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await selectorOrganizations(ctx.deps.prisma, requireActor(ctx), input.query) }
    },
  },
  {
    method: 'get', path: '/api/api-products/:productId/plans/:planId/limit-impact', style: 'common', auth: 'token', tag: 'limit-portal',
    summary: 'What linking a portal subscription plan\'s limit profile to the product\'s approved subscriptions affects',
    query: limitImpactQuery,
    response: plainBody(limitImpactSchema),
    responses: { 200: 'productId, planId, approvedSubscriptionCount, familiesWithProfile[], affectedApplicationCount', ...BULK_REFUSALS },
    async handle(ctx, input) {
      return { body: await limitImpact(ctx.deps.prisma, requireActor(ctx), input.params.productId, input.params.planId, input.query) }
    },
  },
  {
    method: 'post', path: '/api/limit-bindings/portal-subscriptions/backfill', style: 'common', auth: 'token', tag: 'limit-portal',
    summary: 'Create the PORTAL_SUBSCRIPTION assignments a subscription plan\'s profile implies for the product\'s approved subscriptions (dry run unless apply=true)',
    query: backfillQuery,
    response: plainBody(portalBackfillSchema),
    responses: { 200: 'apply, productId, planId, scanned, createdCount, wouldCreateCount, skippedCount, rowsTruncated, rows[]', ...BULK_REFUSALS },
    async handle(ctx, input) {
      const body = await backfillPortalSubscriptions(ctx.deps, requireActor(ctx), input.query)
      return { body, ...(body.apply ? {} : { audit: false as const }) }
    },
  },
])
