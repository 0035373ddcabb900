import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  ActivateLimitAssignmentDocument, ApplicationLimitAssignmentsDocument, ConsumerLimitAssignmentsDocument, CreateLimitAssignmentDocument,
  CreateLimitPlanDocument, DeleteLimitPlanDocument, EndLimitAssignmentDocument, LimitAssignmentDocument, LimitAssignmentsDocument,
  LimitPlanDocument, LimitPlanRevisionDocument, LimitPlansDocument, OpenLimitPlanDraftDocument, PublishLimitPlanRevisionDocument,
  ReplaceLimitPlanDraftDocument, RetireLimitPlanDocument, UpdateLimitAssignmentDocument, UpdateLimitPlanDocument, ValidateLimitAssignmentDocument,
} from '../generated/graphql.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { caller, expectRefused, key, limitsBootstrap, limitsSnapshot, rateSpec, USERS } from './limit-plans-helpers.js'

// The other doors over the same services: GraphQL for plans, revisions and assignments (with relations), and
// the manager surface /api/limit-bindings (spec §4.11).

let svc: TestService
let worker: FakeWorker
let call: ReturnType<typeof caller>
const tokens: Record<string, string> = {}
const A = '/apiops/projects/payments/limit-assignments'
const B = '/api/limit-bindings'
let plan: string
let seq = 0

const restCreate = (body: object, user = 'alice', base = A) => call('POST', base, user, body, { 'idempotency-key': key() })
const body = (extra: object = {}) => ({ subject: { type: 'CONSUMER', key: 'mobile-app' }, content: { family: 'REQUEST_RATE', planKeys: [plan], target: { type: 'API_ENDPOINT', targetKey: `/s/${++seq}` } }, ...extra })

/** A GraphQL call that must fail: the error carries errorKey and params, and nothing was written. */
async function gqlRefused(run: () => Promise<{ errors?: any[] }>, errorKey: string, params: object = {}) {
  const before = await limitsSnapshot(svc)
  const { errors } = await run()
  expect(errors?.[0]?.extensions).toMatchObject({ errorKey, params, correlationId: expect.any(String) })
  expect(await limitsSnapshot(svc)).toEqual(before)
}

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: limitsBootstrap(sampleBootstrap({ dev: [worker.url] })) })
  for (const [u, p] of USERS) tokens[u] = await svc.tokenFor(u, p)
  call = caller(svc, tokens)
  const made = await call('POST', '/apiops/projects/payments/limit-plans', 'alice', { family: 'REQUEST_RATE', name: 'Surface plan', initialRuleSpec: rateSpec() }, { 'idempotency-key': key() })
  plan = made.body.planKey
  await call('POST', `/apiops/projects/payments/limit-plans/${plan}/revisions/1/actions/publish`, 'alice')
})
afterEach(() => {
  worker.status = 200
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('GraphQL: plans and revisions', () => {
  it('creates, updates, opens, replaces, publishes, retires and deletes with the REST rules', async () => {
    const t = tokens.alice
    const created = await svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: key(), input: { family: 'REQUEST_RATE', name: 'GraphQL plan', labels: ['g'], initialRuleSpec: rateSpec(4) } }, t)
    expect(created.errors).toBeUndefined()
    expect(created.data?.createLimitPlan).toMatchObject({ planKey: 'graphql-plan', lifecycle: 'DRAFT', version: 1, platformScoped: false, labels: ['g'] })
    const k = 'graphql-plan'
    expect((await svc.op(UpdateLimitPlanDocument, { projectName: 'payments', planKey: k, input: { name: 'GraphQL plan', description: 'via graphql', version: 1 } }, t)).data?.updateLimitPlan).toMatchObject({ description: 'via graphql', version: 2 })
    await gqlRefused(() => svc.op(UpdateLimitPlanDocument, { projectName: 'payments', planKey: k, input: { name: 'x' } }, t), 'lifecycleConflict', { reason: 'limit.plan.staleVersion' })
    await gqlRefused(() => svc.op(OpenLimitPlanDraftDocument, { projectName: 'payments', planKey: k, input: { ruleSpec: rateSpec(5) } }, t), 'lifecycleConflict', { reason: 'limit.plan.draftAlreadyExists' })
    expect((await svc.op(ReplaceLimitPlanDraftDocument, { projectName: 'payments', planKey: k, revision: 1, input: { ruleSpec: rateSpec(6) } }, t)).data?.replaceLimitPlanDraft).toMatchObject({ ruleSpec: rateSpec(6) })
    expect((await svc.op(PublishLimitPlanRevisionDocument, { projectName: 'payments', planKey: k, revision: 1, changeReason: 'go' }, t)).data?.publishLimitPlanRevision).toMatchObject({ status: 'PUBLISHED', changeReason: 'go', publishedBy: 'alice' })
    expect((await svc.op(OpenLimitPlanDraftDocument, { projectName: 'payments', planKey: k, input: { ruleSpec: rateSpec(7) } }, t)).data?.openLimitPlanDraft).toMatchObject({ revision: 2, status: 'DRAFT' })
    const read = await svc.op(LimitPlanDocument, { projectName: 'payments', planKey: k }, tokens.carol)
    expect(read.data?.limitPlan).toMatchObject({ currentPublishedRevision: 1, draftRevision: { revision: 2 }, publishedRevision: { revision: 1, ruleSpec: rateSpec(6) } })
    expect(read.data?.limitPlan.revisions.map((r) => r.status)).toEqual(['PUBLISHED', 'DRAFT'])
    expect((await svc.op(LimitPlanRevisionDocument, { projectName: 'payments', planKey: k, which: 'draft' }, t)).data?.limitPlanRevision).toMatchObject({ revision: 2, plan: { planKey: k, lifecycle: 'PUBLISHED' } })
    await gqlRefused(() => svc.op(LimitPlanRevisionDocument, { projectName: 'payments', planKey: k, which: '9' }, t), 'resourceNotFound', { reason: 'limit.plan.revisionNotFound' })
    await gqlRefused(() => svc.op(DeleteLimitPlanDocument, { projectName: 'payments', planKey: k }, t), 'lifecycleConflict', { reason: 'limit.plan.notDeletable' })
    expect((await svc.op(RetireLimitPlanDocument, { projectName: 'payments', planKey: k }, t)).data?.retireLimitPlan).toMatchObject({ lifecycle: 'RETIRED', retiredBy: 'alice' })

    const doomed = await svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: key(), input: { family: 'AI_TOKEN_BUDGET', name: 'Doomed', initialRuleSpec: { aiBudget: { tokensPerDay: 5 } } } }, t)
    expect((await svc.op(DeleteLimitPlanDocument, { projectName: 'payments', planKey: doomed.data!.createLimitPlan.planKey }, t)).data?.deleteLimitPlan).toBe(true)
  })

  it('gives the same errors as REST: required fields, idempotency, permissions, sort', async () => {
    const t = tokens.alice
    await gqlRefused(() => svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: key(), input: { name: 'No family', initialRuleSpec: rateSpec() } }, t), 'malformedRequest', { field: 'family', reason: 'limit.plan.familyRequired' })
    await gqlRefused(() => svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: key(), input: { family: 'REQUEST_RATE', name: 'No spec' } }, t), 'malformedRequest', { reason: 'limit.plan.ruleSpecRequired' })
    await gqlRefused(() => svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: ' ', input: { family: 'REQUEST_RATE', name: 'Blank key', initialRuleSpec: rateSpec() } }, t), 'idempotencyKeyRequired')
    const k = key()
    const input = { family: 'REQUEST_RATE', name: 'Replayed', initialRuleSpec: rateSpec() }
    expect((await svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: k, input }, t)).errors).toBeUndefined()
    await gqlRefused(() => svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: k, input }, t), 'idempotencyReplayExpired', { resource: 'replayed' })
    await gqlRefused(() => svc.op(CreateLimitPlanDocument, { projectName: 'payments', idempotencyKey: key(), input }, tokens.carol), 'permissionDenied')
    await gqlRefused(() => svc.op(LimitPlansDocument, { projectName: 'payments', sort: ['version,asc'] }, t), 'unsupportedSortField', { supported: ['name', 'family', 'lifecycle'] })
    await gqlRefused(() => svc.op(LimitPlansDocument, { projectName: 'admin' }, t), 'resourceNotFound')
    const page = await svc.op(LimitPlansDocument, { projectName: 'payments', family: 'REQUEST_RATE', size: 200 }, tokens.carol)
    expect(page.data?.limitPlans).toMatchObject({ page: 0, size: 200, sort: ['name,asc'] })
    expect(page.data?.limitPlans.items.every((p) => p.family === 'REQUEST_RATE')).toBe(true)
  })
})

describe('GraphQL: assignments', () => {
  it('creates, reads with its plans, updates, activates and ends', async () => {
    const t = tokens.alice
    const input = { subject: { type: 'CONSUMER', key: 'mobile-app' }, content: { family: 'REQUEST_RATE', planKeys: [plan], target: { type: 'API_PROXY', apiProxyName: 'orders-api', httpMethods: ['GET'] } } }
    expect((await svc.op(ValidateLimitAssignmentDocument, { projectName: 'payments', input }, t)).data?.validateLimitAssignment).toBe(true)
    const created = await svc.op(CreateLimitAssignmentDocument, { projectName: 'payments', idempotencyKey: key(), input }, t)
    expect(created.errors).toBeUndefined()
    const a = created.data!.createLimitAssignment
    expect(a).toMatchObject({ subject: { type: 'CONSUMER', key: 'mobile-app' }, target: { type: 'API_PROXY', apiProxyName: 'orders-api', httpMethods: ['GET'] }, status: 'DRAFT', mode: 'PLAN', version: 1 })
    const read = await svc.op(LimitAssignmentDocument, { projectName: 'payments', bindingKey: a.bindingKey }, tokens.carol)
    expect(read.data?.limitAssignment.plans).toEqual([expect.objectContaining({ planKey: plan, publishedRevision: { revision: 1, ruleSpec: rateSpec() } })])
    expect(read.data?.limitAssignment.plans[0].assignments.map((x) => x.bindingKey)).toContain(a.bindingKey)
    const planRead = await svc.op(LimitPlanDocument, { projectName: 'payments', planKey: plan }, tokens.carol)
    expect(planRead.data?.limitPlan.assignments).toContainEqual({ bindingKey: a.bindingKey, status: 'DRAFT', subject: { type: 'CONSUMER', key: 'mobile-app' } })
    const updated = await svc.op(UpdateLimitAssignmentDocument, { projectName: 'payments', bindingKey: a.bindingKey, input: { ...input, content: { ...input.content, mode: 'CUSTOM', planKeys: null, customRuleSpec: rateSpec(2) }, version: 1 } }, t)
    expect(updated.data?.updateLimitAssignment).toMatchObject({ mode: 'CUSTOM', customRuleSpec: rateSpec(2), version: 2 })
    await gqlRefused(() => svc.op(ActivateLimitAssignmentDocument, { projectName: 'payments', bindingKey: a.bindingKey, version: 1 }, t), 'lifecycleConflict', { reason: 'limit.binding.versionConflict' })
    expect((await svc.op(ActivateLimitAssignmentDocument, { projectName: 'payments', bindingKey: a.bindingKey, version: 2 }, t)).data?.activateLimitAssignment.status).toBe('ACTIVE')
    expect(worker.received).toEqual([expect.objectContaining({ action: 'DEPLOY', name: a.bindingKey })])
    const ended = await svc.op(EndLimitAssignmentDocument, { projectName: 'payments', bindingKey: a.bindingKey, reason: 'graphql end' }, t)
    expect(ended.data?.endLimitAssignment).toMatchObject({ status: 'ENDED', endedReason: 'graphql end' })
    await gqlRefused(() => svc.op(EndLimitAssignmentDocument, { projectName: 'payments', bindingKey: a.bindingKey }, t), 'lifecycleConflict', { reason: 'limit.binding.alreadyEnded' })
    await gqlRefused(() => svc.op(UpdateLimitAssignmentDocument, { projectName: 'payments', bindingKey: a.bindingKey, input }, t), 'lifecycleConflict', { reason: 'limit.binding.endedIsFinal' })

    const consumerKey = (await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'mobile-app' } })).consumerKey
    const viaConsumer = await svc.op(ConsumerLimitAssignmentsDocument, { projectName: 'payments', consumerKey }, tokens.carol)
    expect(viaConsumer.data?.consumer.limitAssignments.find((x) => x.bindingKey === a.bindingKey)).toMatchObject({ status: 'ENDED', plans: [] })
    const app = await svc.deps.prisma.application.findFirstOrThrow({ where: { name: 'checkout' } })
    const appAssignment = await restCreate(body({ subject: { type: 'APPLICATION', key: 'checkout' } }))
    const viaApp = await svc.op(ApplicationLimitAssignmentsDocument, { projectName: 'payments', applicationKey: app.applicationKey }, tokens.carol)
    expect(viaApp.data?.applicationByKey.limitAssignments.map((x) => x.bindingKey)).toContain(appAssignment.body.bindingKey)
  })

  it('gives the same errors as REST', async () => {
    const t = tokens.alice
    await gqlRefused(() => svc.op(CreateLimitAssignmentDocument, { projectName: 'payments', idempotencyKey: key(), input: { subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', planKeys: [plan], target: { type: 'ALL', httpMethods: ['GET'] } } } }, t), 'malformedRequest', { reason: 'limit.binding.methodAxisNotAllowed' })
    await gqlRefused(() => svc.op(CreateLimitAssignmentDocument, { projectName: 'payments', idempotencyKey: key(), input: { subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', mode: 'OFF' }, status: 'ENDED' } }, t), 'lifecycleConflict', { reason: 'limit.binding.statusNotCreatable' })
    await gqlRefused(() => svc.op(CreateLimitAssignmentDocument, { projectName: 'admin', idempotencyKey: key(), input: { subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', mode: 'OFF' } } }, tokens.root), 'malformedRequest', { reason: 'platformScopeNotSupported' })
    await gqlRefused(() => svc.op(ValidateLimitAssignmentDocument, { projectName: 'payments', input: { subject: { type: 'CONSUMER', key: 'ghost' }, content: { family: 'REQUEST_RATE', mode: 'OFF' } } }, t), 'resourceNotFound', { subjectType: 'CONSUMER', subject: 'ghost' })
    await gqlRefused(() => svc.op(LimitAssignmentsDocument, { projectName: 'payments', subjectKey: 'mobile-app' }, t), 'malformedRequest', { field: 'subjectType', reason: 'subjectKeyRequiresSubjectType' })
    const page = await svc.op(LimitAssignmentsDocument, { projectName: 'payments', subjectType: 'CONSUMER', subjectKey: 'mobile-app', size: 5 }, tokens.carol)
    expect(page.data?.limitAssignments).toMatchObject({ size: 5, sort: ['assignedAt,desc'] })
    expect(page.data?.limitAssignments.items.every((i) => i.subject.key === 'mobile-app')).toBe(true)
  })
})

describe('manager surface /api/limit-bindings', () => {
  it('creates with projectId, reads, updates, activates, ends and validates by bindingKey', async () => {
    const b = body()
    const before = await limitsSnapshot(svc)
    const ok = await call('POST', `${B}/validate?projectId=payments`, 'alice', b)
    expect(ok.status).toBe(200)
    expect(await limitsSnapshot(svc)).toEqual(before)
    const made = await restCreate(b, 'alice', `${B}?projectId=payments`)
    expect(made.status).toBe(201)
    expect(made.headers.get('location')).toBe(`${B}/${made.body.bindingKey}`)
    const url = `${B}/${made.body.bindingKey}`
    expect((await call('GET', url, 'carol')).body).toEqual(made.body)
    expect((await call('PUT', url, 'alice', { ...b, content: { ...b.content, showRateLimitStatisticsInResponseHeader: true }, version: 1 })).body).toMatchObject({ showRateLimitStatisticsInResponseHeader: true, version: 2 })
    expect((await call('POST', `${url}/activate`, 'alice', { version: 2 })).body).toMatchObject({ status: 'ACTIVE' })
    expect((await call('POST', `${url}/end`, 'alice', { reason: 'manager' })).body).toMatchObject({ status: 'ENDED', endedReason: 'manager' })
    const list = await call('GET', `${B}?projectId=payments&status=ENDED&size=200`, 'carol')
    expect(list.body.items.map((i: any) => i.bindingKey)).toContain(made.body.bindingKey)
  })

  it('lists by subject, by covered API proxy and by referenced plan', async () => {
    const byProxy = await restCreate({ subject: { type: 'API_PROXY', key: 'billing-api' }, content: { family: 'REQUEST_RATE', planKeys: [plan] } })
    const byGroup = await restCreate({ subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', planKeys: [plan], target: { type: 'API_PROXY_GROUP', apiProxyGroupName: 'finance' } } })
    const byTarget = await restCreate({ subject: { type: 'CONSUMER', key: 'shop-frontend' }, content: { family: 'REQUEST_RATE', planKeys: [plan], target: { type: 'API_PROXY_ENV', apiProxyName: 'billing-api', environmentName: 'dev' } } })
    const elsewhere = await restCreate({ subject: { type: 'CONSUMER', key: 'shop-frontend' }, content: { family: 'REQUEST_RATE', planKeys: [plan], target: { type: 'API_PROXY', apiProxyName: 'orders-api' }, actorScope: 'AUTHENTICATED' } })
    const covering = await call('GET', `${B}/covering-api-proxy?projectId=payments&apiProxyName=billing-api`, 'carol')
    const keys = covering.body.map((a: any) => a.bindingKey)
    expect(keys).toEqual(expect.arrayContaining([byProxy.body.bindingKey, byGroup.body.bindingKey, byTarget.body.bindingKey]))
    expect(keys).not.toContain(elsewhere.body.bindingKey)
    await expectRefused(svc, () => call('GET', `${B}/covering-api-proxy?projectId=payments&apiProxyName=ghost`, 'carol'), 404, 'resourceNotFound', { apiProxy: 'ghost' })
    await expectRefused(svc, () => call('GET', `${B}/covering-api-proxy?projectId=payments`, 'carol'), 400, 'malformedRequest', { field: 'apiProxyName' })

    const subject = await call('GET', `${B}/subject?projectId=payments&subjectType=CONSUMER&subjectKey=shop-frontend`, 'carol')
    expect(subject.body.map((a: any) => a.bindingKey)).toEqual(expect.arrayContaining([byTarget.body.bindingKey, elsewhere.body.bindingKey]))
    expect(subject.body.every((a: any) => a.subject.key === 'shop-frontend')).toBe(true)
    await expectRefused(svc, () => call('GET', `${B}/subject?projectId=payments&subjectType=CONSUMER&subjectKey=ghost`, 'carol'), 404, 'resourceNotFound', { subjectType: 'CONSUMER', subject: 'ghost' })

    const referencing = await call('GET', `${B}/referencing-plan/${plan}?projectId=payments`, 'carol')
    expect(referencing.body.map((a: any) => a.bindingKey)).toEqual(expect.arrayContaining([byProxy.body.bindingKey, byGroup.body.bindingKey]))
    await expectRefused(svc, () => call('GET', `${B}/referencing-plan/ghost?projectId=payments`, 'carol'), 404, 'resourceNotFound', { plan: 'ghost' })
  })

  it('hides assignments of projects the caller cannot see and requires projectId on collection calls', async () => {
    const made = await restCreate(body())
    await expectRefused(svc, () => call('GET', `${B}/${made.body.bindingKey}`, 'erin'), 404, 'resourceNotFound', { bindingKey: made.body.bindingKey })
    await expectRefused(svc, () => call('POST', `${B}/${made.body.bindingKey}/activate`, 'erin', {}), 404, 'resourceNotFound', { bindingKey: made.body.bindingKey })
    await expectRefused(svc, () => call('POST', `${B}/${made.body.bindingKey}/activate`, 'carol', {}), 403, 'permissionDenied')
    await expectRefused(svc, () => call('GET', B, 'carol'), 400, 'malformedRequest', { field: 'projectId' })
    await expectRefused(svc, () => restCreate(body(), 'alice', B), 400, 'malformedRequest', { field: 'projectId' })
    await expectRefused(svc, () => restCreate(body(), 'alice', `${B}?projectId=other`), 404, 'resourceNotFound', { project: 'other' })
    await expectRefused(svc, () => call('POST', `${B}?projectId=payments`, 'alice', body()), 400, 'idempotencyKeyRequired')
  })
})
