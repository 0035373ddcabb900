import { z } from 'zod'
import type { Actor } from '../../../platform/auth/actor.js'
import { defineRoutes, requireActor, type RouteContext, type RouteDef, type RouteInput } from '../../../platform/http/routes.js'
import {
  createPlan, deletePlan, getPlan, getRevision, listPlans, listRevisions, openDraftRevision, planFilters, publishRevision, replaceDraftRevision,
  retirePlan, updatePlan,
} from './service.js'
import { planView, revisionView } from './views.js'
import { pageBody, plainBody } from '../../../platform/http/response-schemas.js'
import { draftRevisionBody, limitPlanRevisionSchema, limitPlanSchema, planCreateBody, planUpdateBody, publishRevisionBody } from './view-schemas.js'

const planBody = plainBody(limitPlanSchema)
const revisionBody = plainBody(limitPlanRevisionSchema)

// Limit plans on both surfaces (spec §4.7 under /apiops/projects/{projectName}; §4.11 /api/limit-plans with
// an optional projectId, publish and retire without the `actions` segment). One table builder, two tables.

const pagingDocs = {
  page: z.string().optional().describe('page number from 0'),
  size: z.string().optional().describe('page size, default 20, at most 200'),
  sort: z.string().optional().describe('field,direction: name (default, planKey tie-break), family or lifecycle'),
}

const REFUSALS = {
  400: 'malformedRequest (params.field; params.reason limit.plan.familyRequired, nameRequired, ruleSpecRequired, ruleSpecFamilyMismatch) or unsupportedSortField (params.supported)',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: IDENTITY or AI_BUDGETS (VIEW for reads, MANAGE for writes); the platform catalog needs a system administrator',
  404: 'resourceNotFound: unknown or out-of-scope project, unknown plan key (params.plan, reason limit.plan.notFound) or revision (reason limit.plan.revisionNotFound)',
  409: 'lifecycleConflict (params.reason limit.plan.*, managedBySubscriptionPlan) or versionConflict',
}

interface Surface {
  /** the collection path */
  base: string
  tag: string
  /** the project named by the call (undefined: the platform catalog) */
  project(input: RouteInput): string | undefined
  /** the path segment before publish and retire: `actions/` on /apiops, nothing on /api */
  actionPrefix: string
  /** the Location of a created plan */
  location(projectName: string, planKey: string): string
  /** extra documented query parameters */
  projectQuery?: Record<string, z.ZodType>
}

const idempotencyHeader = { name: 'Idempotency-Key', description: 'required; claimed per scope and operation with the body hash', required: true }

function planRoutes(s: Surface): RouteDef[] {
  const actor = (ctx: RouteContext): Actor => requireActor(ctx)
  const db = (ctx: RouteContext) => ctx.deps.prisma
  const one = `${s.base}/:planKey`
  const route = (r: Omit<RouteDef, 'style' | 'auth' | 'tag'>): RouteDef => ({ style: 'common', auth: 'token', tag: s.tag, ...r })
  const projectQuery = s.projectQuery ? z.object(s.projectQuery) : undefined
  return [
    route({
      method: 'get',
      path: s.base,
      summary: 'Limit plans of the catalog, paged (query family, includePlatform, includeManaged; sort name, family, lifecycle)',
      query: planFilters.extend({ family: z.string().optional(), includePlatform: z.string().optional(), includeManaged: z.string().optional(), ...pagingDocs, ...(s.projectQuery ?? {}) }),
      response: pageBody(limitPlanSchema),
      responses: { 200: 'paged envelope of plans', ...REFUSALS },
      async handle(ctx, input) {
        const page = await listPlans(db(ctx), actor(ctx), s.project(input), input.query)
        return { body: { ...page, items: page.items.map(planView) } }
      },
    }),
    route({
      method: 'post',
      path: s.base,
      summary: 'Create a plan (DRAFT, revision 1 DRAFT with initialRuleSpec); planKey minted from the name',
      query: projectQuery,
      headers: [idempotencyHeader],
      body: { kind: 'json', schema: planCreateBody },
      response: planBody,
      responses: { 201: 'the plan; Location of the plan', ...REFUSALS, 400: `${REFUSALS[400]}; idempotencyKeyRequired`, 409: 'lifecycleConflict limit.plan.nameAlreadyExists or keyAlreadyExists; idempotencyKeyReused, idempotencyInProgress, idempotencyReplayExpired (params.resource: the plan key)' },
      async handle(ctx, input) {
        const { plan, scope } = await createPlan(ctx.deps, actor(ctx), s.project(input), { idempotencyKey: headerValue(input, 'idempotency-key'), body: input.body })
        return { status: 201, headers: { Location: s.location(scope.projectName, plan.planKey) }, body: planView(plan) }
      },
    }),
    route({
      method: 'get',
      path: one,
      summary: 'One plan of the catalog (a platform plan only through the platform catalog)',
      query: projectQuery,
      response: planBody,
      responses: { 200: 'the plan', ...REFUSALS },
      async handle(ctx, input) {
        return { body: planView(await getPlan(db(ctx), actor(ctx), s.project(input), input.params.planKey)) }
      },
    }),
    route({
      method: 'put',
      path: one,
      summary: 'Update name (required), nameTr, description, labels (replaced); version required (omitted: limit.plan.staleVersion)',
      query: projectQuery,
      body: { kind: 'json', schema: planUpdateBody },
      response: planBody,
      responses: { 200: 'the plan', ...REFUSALS },
      async handle(ctx, input) {
        return { body: planView(await updatePlan(db(ctx), actor(ctx), s.project(input), input.params.planKey, input.body)) }
      },
    }),
    route({
      method: 'delete',
      path: one,
      summary: 'Delete a never-published plan that no assignment references',
      query: projectQuery,
      responses: { 204: 'deleted', ...REFUSALS, 409: 'lifecycleConflict limit.plan.notDeletable (params.cause published or referenced), managedBySubscriptionPlan' },
      async handle(ctx, input) {
        await deletePlan(db(ctx), actor(ctx), s.project(input), input.params.planKey)
        return { status: 204 }
      },
    }),
    route({
      method: 'get',
      path: `${one}/revisions`,
      summary: 'Every revision of the plan, oldest first (plain array)',
      query: projectQuery,
      response: plainBody(z.array(limitPlanRevisionSchema)),
      responses: { 200: 'array of revisions', ...REFUSALS },
      async handle(ctx, input) {
        const { plan, revisions } = await listRevisions(db(ctx), actor(ctx), s.project(input), input.params.planKey)
        return { body: revisions.map((r) => revisionView(plan.planKey, r)) }
      },
    }),
    ...(['draft', 'published'] as const).map((which) =>
      route({
        method: 'get',
        path: `${one}/${which}`,
        summary: which === 'draft' ? 'The open draft revision; 404 when none' : 'The published revision; 404 when never published',
        query: projectQuery,
        response: revisionBody,
        responses: { 200: 'the revision', ...REFUSALS },
        async handle(ctx, input) {
          const { plan, revision } = await getRevision(db(ctx), actor(ctx), s.project(input), input.params.planKey, which)
          return { body: revisionView(plan.planKey, revision) }
        },
      }),
    ),
    route({
      method: 'get',
      path: `${one}/revisions/:revision`,
      summary: 'One revision with its rule spec',
      query: projectQuery,
      response: revisionBody,
      responses: { 200: 'the revision', ...REFUSALS },
      async handle(ctx, input) {
        const { plan, revision } = await getRevision(db(ctx), actor(ctx), s.project(input), input.params.planKey, input.params.revision)
        return { body: revisionView(plan.planKey, revision) }
      },
    }),
    route({
      method: 'post',
      path: `${one}/draft-revisions`,
      summary: 'Open a draft revision (ruleSpec required, changeReason optional); limit.plan.draftAlreadyExists when one is open',
      query: projectQuery,
      body: { kind: 'json', schema: draftRevisionBody },
      response: revisionBody,
      responses: { 201: 'the revision; Location of the revision', ...REFUSALS },
      async handle(ctx, input) {
        const { plan, revision } = await openDraftRevision(db(ctx), actor(ctx), s.project(input), input.params.planKey, input.body)
        const scopeName = s.project(input)
        return {
          status: 201,
          headers: { Location: `${s.location(scopeName ?? 'admin', plan.planKey)}/revisions/${revision.revision}` },
          body: revisionView(plan.planKey, revision),
        }
      },
    }),
    route({
      method: 'put',
      path: `${one}/draft-revisions/:revision`,
      summary: 'Replace the rule spec of an open draft; limit.plan.revisionNotDraft once it left DRAFT',
      query: projectQuery,
      body: { kind: 'json', schema: draftRevisionBody },
      response: revisionBody,
      responses: { 200: 'the revision', ...REFUSALS },
      async handle(ctx, input) {
        const { plan, revision } = await replaceDraftRevision(db(ctx), actor(ctx), s.project(input), input.params.planKey, input.params.revision, input.body)
        return { body: revisionView(plan.planKey, revision) }
      },
    }),
    route({
      method: 'post',
      path: `${one}/revisions/:revision/${s.actionPrefix}publish`,
      summary: 'Publish a draft revision (optional changeReason): previous published revision SUPERSEDED, referencing assignments recompiled and pushed',
      query: projectQuery,
      body: { kind: 'json', required: false, schema: publishRevisionBody },
      response: revisionBody,
      responses: { 200: 'the revision', ...REFUSALS },
      async handle(ctx, input) {
        const { plan, revision } = await publishRevision(ctx.deps, actor(ctx), s.project(input), input.params.planKey, input.params.revision, input.body)
        return { body: revisionView(plan.planKey, revision) }
      },
    }),
    route({
      method: 'post',
      path: `${one}/${s.actionPrefix}retire`,
      summary: 'Retire a published plan (limit.plan.notPublished for a never-published plan)',
      query: projectQuery,
      response: planBody,
      responses: { 200: 'the plan', ...REFUSALS },
      async handle(ctx, input) {
        return { body: planView(await retirePlan(db(ctx), actor(ctx), s.project(input), input.params.planKey)) }
      },
    }),
  ]
}

export function headerValue(input: RouteInput, name: string): string | undefined {
  const v = input.headers[name]
  return Array.isArray(v) ? v[0] : v
}

const queryText = (input: RouteInput, name: string) => {
  const v = input.query[name]
  return typeof v === 'string' && v.trim() ? v.trim() : undefined
}

/** /apiops/projects/{projectName}/limit-plans (projectName admin: the platform catalog) and /api/limit-plans?projectId=. */
export const limitPlanRoutes = defineRoutes([
  ...planRoutes({
    base: '/apiops/projects/:projectName/limit-plans',
    tag: 'limit-plans',
    project: (input) => input.params.projectName,
    actionPrefix: 'actions/',
    location: (projectName, planKey) => `/apiops/projects/${encodeURIComponent(projectName)}/limit-plans/${encodeURIComponent(planKey)}`,
  }),
  ...planRoutes({
    base: '/api/limit-plans',
    tag: 'manager-limit-plans',
    project: (input) => queryText(input, 'projectId'),
    actionPrefix: '',
    location: (projectName, planKey) =>
      `/api/limit-plans/${encodeURIComponent(planKey)}${projectName === 'admin' ? '' : `?projectId=${encodeURIComponent(projectName)}`}`,
    projectQuery: { projectId: z.string().optional().describe('project name; absent addresses the platform catalog (system administrator for writes)') },
  }),
])
