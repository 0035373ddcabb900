import { ANY_CATEGORY, defineRoutes, requireActor, type RouteInput } from '../../platform/http/routes.js'
import { plainBody } from '../../platform/http/response-schemas.js'
import { applyPlan } from './apply.js'
import { stateJsonSchema } from './document.js'
import { declarativeDrift, driftQuery } from './drift.js'
import { dumpQuery, dumpState } from './dump.js'
import { createPlan, planInput } from './plan.js'
import { validateDocument, validationSchema } from './validate.js'
import { declarativeApplySchema, declarativeDriftSchema, declarativePlanSchema, stateDocumentBody } from './view-schemas.js'

const BASE = '/apiops/projects/:projectName'
const header = (input: RouteInput, name: string) => {
  const v = input.headers[name]
  return Array.isArray(v) ? v[0] : v
}

const COMMON_ERRORS = {
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: VIEW (plan, dump, drift) or MANAGE (apply) on each listed collection\'s category, or PROJECT_MANAGEMENT',
  404: 'resourceNotFound: project out of scope, or an unknown plan',
}

export const declarativeRoutes = defineRoutes([
  {
    method: 'get',
    path: '/apiops/declarative/schema.json',
    style: 'common',
    auth: 'public',
    tag: 'declarative',
    summary: 'The JSON Schema of the declarative state document (generated from the zod schemas the server validates with)',
    response: plainBody(stateDocumentBody),
    responses: { 200: 'JSON Schema (draft 2020-12)', 400: 'malformedRequest: a query parameter the platform refuses (e.g. a NUL character)' },
    async handle() {
      return { body: stateJsonSchema(), headers: { 'Cache-Control': 'public, max-age=300' } }
    },
  },
  {
    method: 'get',
    path: `${BASE}/declarative-state`,
    style: 'common',
    auth: 'token',
    tag: 'declarative',
    summary: 'The project as a state document (gwctl dump). Secrets never written: left out, or ${env:NAME} references with secrets=refs',
    query: dumpQuery,
    response: plainBody(stateDocumentBody),
    responses: { 200: 'the state document', 400: 'malformedRequest (query)', ...COMMON_ERRORS },
    async handle(ctx, input) {
      return { body: await dumpState(ctx.deps, requireActor(ctx), input.params.projectName, input.query) }
    },
  },
  {
    method: 'post',
    path: `${BASE}/declarative-plans`,
    style: 'common',
    auth: 'token',
    tag: 'declarative',
    summary: 'Plan a state document against the project: changes in dependency order, pinned to baseRevision. Writes no audit event',
    body: { kind: 'json', schema: planInput, required: true },
    // decided before the document is read; the service then checks each listed collection's category
    access: { category: ['PROJECT_MANAGEMENT', ANY_CATEGORY], level: 'VIEW' },
    audit: false,
    response: plainBody(declarativePlanSchema),
    responses: {
      200: 'the plan',
      400: 'malformedRequest, params.reason declarativeDocumentInvalid (params.errors with paths), declarativeReferenceUnresolved, declarativeDuplicateName, declarativeOwnershipConflict, declarativeDeleteUnsupported, declarativeRenameUnsupported',
      ...COMMON_ERRORS,
    },
    async handle(ctx, input) {
      return { body: await createPlan(ctx.deps, requireActor(ctx), input.params.projectName, input.body) }
    },
  },
  {
    method: 'post',
    path: `${BASE}/declarative-plans/:planId/apply`,
    style: 'common',
    auth: 'token',
    tag: 'declarative',
    summary: 'Apply exactly that plan in one transaction, or nothing; then push. One audit event per change (plan id, X-Change-Reference)',
    access: { category: ['PROJECT_MANAGEMENT', ANY_CATEGORY], level: 'MANAGE' },
    headers: [
      { name: 'Idempotency-Key', description: 'optional: a retry with the same key answers the first apply\'s outcome' },
      { name: 'X-Change-Reference', description: 'optional: recorded with every audit event of the apply (e.g. a commit SHA)' },
    ],
    // one event per change is written by the apply itself (none when nothing changes)
    audit: false,
    response: plainBody(declarativeApplySchema),
    responses: {
      200: 'applied (pushFailed: a push was not acknowledged, the outbox retries it)',
      400: 'malformedRequest, params.reason declarativeApplyRefused (params.errors: type, name, path, reason, message); nothing written',
      409: 'dependencyConflict, params.reason declarativePlanStale (the project changed since the plan) or declarativePlanAlreadyApplied; nothing written',
      ...COMMON_ERRORS,
    },
    async handle(ctx, input) {
      return {
        body: await applyPlan(ctx.deps, requireActor(ctx), input.params.projectName, input.params.planId, {
          changeReference: header(input, 'x-change-reference'), idempotencyKey: header(input, 'idempotency-key'), surface: ctx.surface === 'apiops' ? 'REST_APIOPS' : 'REST_API',
          operation: `POST ${BASE}/declarative-plans/:planId/apply`, correlationId: ctx.correlationId,
        }),
      }
    },
  },
  {
    method: 'post',
    path: `${BASE}/declarative-validations`,
    style: 'common',
    auth: 'token',
    tag: 'declarative',
    summary: 'Validate a state document as an apply would (every object through its write rules, in a transaction rolled back). Writes nothing',
    body: { kind: 'json', schema: planInput, required: true },
    access: { category: ['PROJECT_MANAGEMENT', ANY_CATEGORY], level: 'VIEW' },
    audit: false,
    response: plainBody(validationSchema),
    responses: { 200: 'valid: the plan summary; invalid: errors with paths', 400: 'malformedRequest (the document)', ...COMMON_ERRORS },
    async handle(ctx, input) {
      return { body: await validateDocument(ctx.deps, requireActor(ctx), input.params.projectName, input.body) }
    },
  },
  {
    method: 'get',
    path: `${BASE}/declarative-drift`,
    style: 'common',
    auth: 'token',
    tag: 'declarative',
    summary: 'Objects changed or deleted outside the file since the last apply (per namespace), with who and when from the audit trail',
    query: driftQuery,
    response: plainBody(declarativeDriftSchema),
    responses: { 200: 'the drift', ...COMMON_ERRORS },
    async handle(ctx, input) {
      return { body: await declarativeDrift(ctx.deps, requireActor(ctx), input.params.projectName, input.query) }
    },
  },
])
