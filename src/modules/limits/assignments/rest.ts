import { z } from 'zod'
import { defineRoutes, requireActor, type RouteContext, type RouteDef, type RouteInput } from '../../../platform/http/routes.js'
import { headerValue } from '../plans/rest.js'
import {
  assignmentsCoveringApiProxy, assignmentsForSubject, assignmentsReferencingPlan, projectOfAssignment, requiredProject,
} from './manager.js'
import {
  activateAssignment, createAssignment, endAssignment, getAssignment, listAssignments, updateAssignment, validateAssignment,
} from './operations.js'
import { assignmentView } from './views.js'
import { emptyBody, pageBody, plainBody } from '../../../platform/http/response-schemas.js'
import { assignmentActionBody, assignmentBody, assignmentEndBody, limitAssignmentSchema } from './view-schemas.js'

const assignmentAnswer = plainBody(limitAssignmentSchema)
const assignmentArray = plainBody(z.array(limitAssignmentSchema))

// Limit assignments on both surfaces: spec §4.8 under /apiops/projects/{projectName}/limit-assignments and
// §4.11 /api/limit-bindings (project named by the projectId query parameter, or found from the bindingKey).

const REFUSALS = {
  400: 'malformedRequest (params.field; params.reason platformScopeNotSupported, subjectKeyRequiresSubjectType, limit.binding.methodAxisNotAllowed, audienceRuleShape, audienceRuleFamily, limit.plan.ruleSpecRequired, ruleSpecFamilyMismatch) or unsupportedSortField',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: IDENTITY or AI_BUDGETS (VIEW for reads, MANAGE for writes)',
  404: 'resourceNotFound: unknown or out-of-scope project, bindingKey, subject (params.subjectType, params.subject), plan (params.plan), apiProxy, apiProxyGroup, environment',
  409: 'lifecycleConflict (params.reason limit.binding.*) or versionConflict (params.entity, expected, current)',
}
const CREATE_RESPONSES = {
  201: 'the assignment; Location of the assignment',
  ...REFUSALS,
  400: `${REFUSALS[400]}; idempotencyKeyRequired`,
  409: `${REFUSALS[409]}; idempotencyKeyReused, idempotencyInProgress, idempotencyReplayExpired (params.resource: the bindingKey)`,
}
const filterDocs = {
  family: z.string().optional(),
  status: z.string().optional(),
  subjectType: z.string().optional(),
  subjectKey: z.string().optional().describe('requires subjectType; the bindingKey for AUDIENCE_RULE, ignored for PLATFORM and PROJECT'),
  page: z.string().optional(),
  size: z.string().optional(),
  sort: z.string().optional().describe('assignedAt (default, desc), status or family'),
}
const idempotencyHeader = { name: 'Idempotency-Key', description: 'required; claimed per project and operation with the body hash', required: true }

const route = (tag: string, r: Omit<RouteDef, 'style' | 'auth' | 'tag'>): RouteDef => ({ style: 'common', auth: 'token', tag, ...r })
const actor = (ctx: RouteContext) => requireActor(ctx)

/** The writes and reads shared by both surfaces, given how each finds the project. */
function assignmentRoutes(s: {
  base: string
  tag: string
  /** for collection calls (list, create, validate) */
  project(input: RouteInput): string
  /** for calls on one bindingKey */
  projectOf(ctx: RouteContext, input: RouteInput, level: 'VIEW' | 'MANAGE'): Promise<string>
  location(projectName: string, bindingKey: string): string
  actionPrefix: string
  query?: Record<string, z.ZodType>
}): RouteDef[] {
  const one = `${s.base}/:bindingKey`
  const q = s.query ? z.object(s.query) : undefined
  return [
    route(s.tag, {
      method: 'get',
      path: s.base,
      summary: 'Limit assignments, paged (filters family, status, subjectType, subjectKey)',
      query: z.object({ ...filterDocs, ...(s.query ?? {}) }),
      response: pageBody(limitAssignmentSchema),
      responses: { 200: 'paged envelope of assignments', ...REFUSALS },
      async handle(ctx, input) {
        const page = await listAssignments(ctx.deps.prisma, actor(ctx), s.project(input), input.query)
        return { body: { ...page, items: page.items.map(assignmentView) } }
      },
    }),
    route(s.tag, {
      method: 'post',
      path: `${s.base}/${s.actionPrefix}validate`,
      summary: 'Validate a create body: 200 with an empty body when acceptable; writes nothing',
      query: q,
      body: { kind: 'json', schema: assignmentBody },
      audit: false,
      response: emptyBody,
      responses: { 200: 'empty body: acceptable', ...REFUSALS },
      async handle(ctx, input) {
        await validateAssignment(ctx.deps.prisma, actor(ctx), s.project(input), input.body)
        return { status: 200, audit: false }
      },
    }),
    route(s.tag, {
      method: 'post',
      path: s.base,
      summary: 'Create an assignment (DRAFT by default, ACTIVE pushed at once)',
      query: q,
      headers: [idempotencyHeader],
      body: { kind: 'json', schema: assignmentBody },
      response: assignmentAnswer,
      responses: CREATE_RESPONSES,
      async handle(ctx, input) {
        const projectName = s.project(input)
        const row = await createAssignment(ctx.deps, actor(ctx), projectName, { idempotencyKey: headerValue(input, 'idempotency-key'), body: input.body })
        return { status: 201, headers: { Location: s.location(projectName, row.bindingKey) }, body: assignmentView(row) }
      },
    }),
    route(s.tag, {
      method: 'get',
      path: one,
      summary: 'One assignment',
      query: q,
      response: assignmentAnswer,
      responses: { 200: 'the assignment', ...REFUSALS },
      async handle(ctx, input) {
        const projectName = await s.projectOf(ctx, input, 'VIEW')
        return { body: assignmentView(await getAssignment(ctx.deps.prisma, actor(ctx), projectName, input.params.bindingKey)) }
      },
    }),
    route(s.tag, {
      method: 'put',
      path: one,
      summary: 'Replace the editable content (subject, family, target, actorScope immutable); optional version must match',
      query: q,
      body: { kind: 'json', schema: assignmentBody },
      response: assignmentAnswer,
      responses: { 200: 'the assignment', ...REFUSALS },
      async handle(ctx, input) {
        const projectName = await s.projectOf(ctx, input, 'MANAGE')
        return { body: assignmentView(await updateAssignment(ctx.deps, actor(ctx), projectName, input.params.bindingKey, input.body)) }
      },
    }),
    route(s.tag, {
      method: 'post',
      path: `${one}/${s.actionPrefix}activate`,
      summary: 'DRAFT → ACTIVE (optional version), pushed to the environments',
      query: q,
      body: { kind: 'json', required: false, schema: assignmentActionBody },
      response: assignmentAnswer,
      responses: { 200: 'the assignment', ...REFUSALS },
      async handle(ctx, input) {
        const projectName = await s.projectOf(ctx, input, 'MANAGE')
        return { body: assignmentView(await activateAssignment(ctx.deps, actor(ctx), projectName, input.params.bindingKey, input.body)) }
      },
    }),
    route(s.tag, {
      method: 'post',
      path: `${one}/${s.actionPrefix}end`,
      summary: 'ACTIVE → ENDED (optional version and reason), undeployed',
      query: q,
      body: { kind: 'json', required: false, schema: assignmentEndBody },
      response: assignmentAnswer,
      responses: { 200: 'the assignment', ...REFUSALS },
      async handle(ctx, input) {
        const projectName = await s.projectOf(ctx, input, 'MANAGE')
        return { body: assignmentView(await endAssignment(ctx.deps, actor(ctx), projectName, input.params.bindingKey, input.body)) }
      },
    }),
  ]
}

const projectIdDoc = { projectId: z.string().optional().describe('project name') }
const managerBase = '/api/limit-bindings'

export const limitAssignmentRoutes = defineRoutes([
  ...assignmentRoutes({
    base: '/apiops/projects/:projectName/limit-assignments',
    tag: 'limit-assignments',
    project: (input) => input.params.projectName,
    projectOf: async (_ctx, input) => input.params.projectName,
    location: (projectName, bindingKey) => `/apiops/projects/${encodeURIComponent(projectName)}/limit-assignments/${encodeURIComponent(bindingKey)}`,
    actionPrefix: 'actions/',
  }),
  // manager-only reads first: their paths would otherwise match /:bindingKey
  route('manager-limit-bindings', {
    method: 'get',
    path: `${managerBase}/subject`,
    summary: 'Every assignment of one subject (query projectId, subjectType, subjectKey), newest first',
    query: z.object({ ...projectIdDoc, subjectType: z.string(), subjectKey: z.string().optional() }),
    response: assignmentArray,
    responses: { 200: 'array of assignments', ...REFUSALS },
    async handle(ctx, input) {
      return { body: (await assignmentsForSubject(ctx.deps.prisma, actor(ctx), requiredProject(input.query.projectId), input.query)).map(assignmentView) }
    },
  }),
  route('manager-limit-bindings', {
    method: 'get',
    path: `${managerBase}/covering-api-proxy`,
    summary: 'Live assignments that reach an API proxy (query projectId, apiProxyName): as subject, target ALL, the proxy or one of its groups',
    query: z.object({ ...projectIdDoc, apiProxyName: z.string() }),
    response: assignmentArray,
    responses: { 200: 'array of assignments', ...REFUSALS },
    async handle(ctx, input) {
      return { body: (await assignmentsCoveringApiProxy(ctx.deps.prisma, actor(ctx), requiredProject(input.query.projectId), input.query.apiProxyName)).map(assignmentView) }
    },
  }),
  route('manager-limit-bindings', {
    method: 'get',
    path: `${managerBase}/referencing-plan/:planId`,
    summary: 'Assignments referencing a plan (planId: the plan key; projectId: its catalog, absent for the platform catalog)',
    query: z.object(projectIdDoc),
    response: assignmentArray,
    responses: { 200: 'array of assignments', ...REFUSALS },
    async handle(ctx, input) {
      const projectId = typeof input.query.projectId === 'string' && input.query.projectId.trim() ? input.query.projectId.trim() : undefined
      return { body: (await assignmentsReferencingPlan(ctx.deps.prisma, actor(ctx), projectId, input.params.planId)).map(assignmentView) }
    },
  }),
  ...assignmentRoutes({
    base: managerBase,
    tag: 'manager-limit-bindings',
    project: (input) => requiredProject(input.query.projectId),
    projectOf: (ctx, input, level) => projectOfAssignment(ctx.deps.prisma, actor(ctx), input.params.bindingKey, level),
    location: (_projectName, bindingKey) => `${managerBase}/${encodeURIComponent(bindingKey)}`,
    actionPrefix: '',
    query: projectIdDoc,
  }),
])
