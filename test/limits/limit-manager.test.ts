import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import {
  CancelLimitBulkRunDocument, LimitAssignmentSubjectsDocument, LimitBulkRunDocument, LimitSelectorOrganizationsDocument, LimitBulkRunsDocument, PreviewLimitBulkAssignmentDocument, RetryFailedLimitBulkRunDocument,
  RollbackLimitBulkRunDocument, StartLimitBulkRunDocument,
} from '../generated/graphql.js'
import { bulkClient, customRate, newKey, seedConsumers } from './limit-bulk-helpers.js'

let svc: TestService
let alice: string
let carol: string
let root: string
let worker: FakeWorker

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  ;[alice, carol, root] = await Promise.all([svc.tokenFor('alice', 'alice-pass-1'), svc.tokenFor('carol', 'carol-pass-1'), svc.tokenFor('root', 's3cret-root')])
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const prisma = () => svc.deps.prisma
async function api(token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await svc.http(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}

describe('manager surface of bulk assignment (/api)', () => {
  it('previews, runs, reads and acts on runs with projectId naming the project', async () => {
    await seedConsumers(prisma(), 'payments', 'mgr', 30, 'acme-eu')
    const body = { selector: { subjectType: 'CONSUMER', organizationCodes: ['acme'], includeSubOrganizations: true, search: 'mgr-' }, content: customRate() }
    const missing = await api(alice, 'POST', '/api/limit-assignment-previews', body)
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'projectId' } })
    const preview = await api(alice, 'POST', '/api/limit-assignment-previews?projectId=payments', body)
    expect(preview.body).toMatchObject({ expectedCount: 30, willCreate: 30 })
    // without sub-organizations the consumers of acme-eu are not selected
    const direct = await api(alice, 'POST', '/api/limit-assignment-previews?projectId=payments', { ...body, selector: { ...body.selector, includeSubOrganizations: false } })
    expect(direct.body.expectedCount).toBe(0)

    const run = await api(alice, 'POST', '/api/limit-assignment-runs?projectId=payments', { ...body, previewFingerprint: preview.body.selectorFingerprint, expectedCount: 30 }, { 'idempotency-key': newKey() })
    expect(run.status).toBe(202)
    expect(run.headers.get('location')).toBe(`/api/limit-assignment-runs/${run.body.runId}`)
    const done = await bulkClient(svc.http, alice).finished(run.body.runId)
    expect(done).toMatchObject({ runStatus: 'SUCCESS', trigger: 'MANUAL', createdCount: 30, deploymentState: 'IN_SYNC' })
    // every created assignment was pushed to the environment's worker as it committed
    const deployed = worker.received.filter((m) => m.kind === 'LIMIT_ASSIGNMENT' && m.action === 'DEPLOY' && String((m.config as any).subject?.key).startsWith('mgr-'))
    expect(deployed).toHaveLength(30)
    expect(deployed[0]).toMatchObject({ project: 'payments', revision: 1, config: { family: 'REQUEST_RATE', mode: 'CUSTOM', subject: { type: 'CONSUMER' } } })
    const stored = await prisma().limitAssignment.findUniqueOrThrow({ where: { bindingKey: deployed[0].name } })
    expect(stored.bulkRunId).toBe(run.body.runId)
    // the chunk's pushes were staged in the retry outbox with it (one row per environment holding the batch) and
    // marked delivered once acknowledged
    const staged = await prisma().deliveryOutbox.findMany({ where: { subject: { startsWith: `limitBulkChunk:${run.body.runId}:` } } })
    expect(staged).toHaveLength(1)
    expect(staged[0]).toMatchObject({ environmentName: 'dev', subject: `limitBulkChunk:${run.body.runId}:0` })
    expect(staged[0].deliveredAt).not.toBeNull()
    expect((staged[0].message as { messages: { name: string }[] }).messages.map((m) => m.name).sort()).toEqual(deployed.map((d) => d.name).sort())
    const one = await api(carol, 'GET', `/api/limit-assignment-runs/${run.body.runId}`)
    expect(one.body).toMatchObject({ runId: run.body.runId, runStatus: 'SUCCESS' })
    expect((await api(carol, 'GET', '/api/limit-assignment-runs?projectId=payments')).body.totalElements).toBeGreaterThanOrEqual(1)
    expect((await api(carol, 'GET', `/api/limit-assignment-runs/${run.body.runId}/issues`)).body.totalElements).toBe(0)
    expect((await api(alice, 'POST', `/api/limit-assignment-runs/${run.body.runId}/actions/cancel`)).body.params.reason).toBe('limit.bulk.runNotCancellable')
    expect((await api(alice, 'POST', `/api/limit-assignment-runs/${run.body.runId}/actions/retry-failed`, undefined, { 'idempotency-key': newKey() })).body.params.reason).toBe('limit.bulk.runNotRetryable')
    expect((await api(carol, 'POST', `/api/limit-assignment-runs/${run.body.runId}/actions/rollback`, undefined, { 'idempotency-key': newKey() })).body.errorKey).toBe('permissionDenied')
    const rollback = await api(alice, 'POST', `/api/limit-assignment-runs/${run.body.runId}/actions/rollback`, undefined, { 'idempotency-key': newKey() })
    expect(rollback.status).toBe(202)
    expect(rollback.headers.get('location')).toBe(`/api/limit-assignment-runs/${rollback.body.runId}`)
    expect((await bulkClient(svc.http, alice).finished(rollback.body.runId)).endedCount).toBe(30)
    expect(worker.received.filter((m) => m.action === 'UNDEPLOY' && deployed.some((d) => d.name === m.name))).toHaveLength(30)

    // an environment that does not acknowledge: the run says DEGRADED and the outbox holds the pushes
    await seedConsumers(prisma(), 'payments', 'down', 3)
    worker.status = 500
    try {
      const degraded = await bulkClient(svc.http, alice).previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'down-' }, content: customRate() })
      const finished = await bulkClient(svc.http, alice).finished(degraded.run.body.runId)
      expect(finished).toMatchObject({ runStatus: 'SUCCESS', createdCount: 3, deploymentState: 'DEGRADED' })
      const held = await prisma().deliveryOutbox.findMany({ where: { subject: { startsWith: `limitBulkChunk:${degraded.run.body.runId}:` }, deliveredAt: null } })
      expect(held.map((o) => (o.message as { messages: unknown[] }).messages.length)).toEqual([3])
    } finally {
      worker.status = 200
    }

    // a run of a project the caller cannot see is not found, and the project is not named
    await prisma().credential.create({ data: { projectId: (await prisma().project.findUniqueOrThrow({ where: { name: 'other' } })).id, username: 'mgr-other', consumerKey: `csm_${newKey()}` } })
    const hidden = await bulkClient(svc.http, root, 'other').previewAndRun({ selector: { subjectType: 'CONSUMER' }, content: customRate() })
    await bulkClient(svc.http, root, 'other').finished(hidden.run.body.runId)
    const notFound = await api(alice, 'GET', `/api/limit-assignment-runs/${hidden.run.body.runId}`)
    expect(notFound.status).toBe(404)
    expect(notFound.body).toMatchObject({ errorKey: 'resourceNotFound', params: { runId: hidden.run.body.runId } })
    expect(JSON.stringify(notFound.body)).not.toContain('other')
  })

  it('subject search and the organization tree of the selector', async () => {
    const page = await api(carol, 'GET', '/api/limit-assignment-subjects/search?projectId=payments&subjectType=CONSUMER&search=shop')
    expect(page.status).toBe(200)
    expect(page.body).toMatchObject({ status: 'SUCCESS', totalElements: 1, sort: ['subjectKey,asc'] })
    expect(page.body.items[0]).toEqual({ subjectType: 'CONSUMER', subjectKey: 'shop-frontend', displayName: 'Shop Frontend', organizationCode: 'acme', enabled: true })
    const clients = await api(carol, 'GET', '/api/limit-assignment-subjects/search?projectId=payments&subjectType=API_CLIENT&enabledOnly=true')
    expect(clients.body.items).toEqual([{ subjectType: 'API_CLIENT', subjectKey: 'checkout-web-id', displayName: 'checkout-web', organizationCode: 'acme', enabled: true }])
    const apps = await api(carol, 'GET', '/api/limit-assignment-subjects/search?projectId=payments&subjectType=APPLICATION&organizationCode=acme')
    expect(apps.body.items.map((a: any) => a.subjectKey)).toEqual(['checkout'])
    const orgs = await api(carol, 'GET', '/api/limit-assignment-subjects/search?projectId=payments&subjectType=ORGANIZATION&enabledOnly=true')
    expect(orgs.body.items.map((o: any) => o.subjectKey)).toEqual(['acme', 'acme-eu'])
    const paged = await api(carol, 'GET', '/api/limit-assignment-subjects/search?projectId=payments&subjectType=CONSUMER&search=mgr-&size=10&page=2')
    expect(paged.body).toMatchObject({ page: 2, size: 10, totalElements: 30 })
    expect(paged.body.items[0].subjectKey).toBe('mgr-0021')
    // a search of every type: keys and total read together, in either direction, past the end
    const searchKeys = async (query: string) => {
      const res = await api(carol, 'GET', `/api/limit-assignment-subjects/search?projectId=payments&${query}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return { total: res.body.totalElements, keys: res.body.items.map((i: any) => i.subjectKey) }
    }
    expect(await searchKeys('subjectType=CONSUMER&search=MGR-&size=3&sort=subjectKey,desc')).toEqual({ total: 30, keys: ['mgr-0030', 'mgr-0029', 'mgr-0028'] })
    expect(await searchKeys('subjectType=CONSUMER&search=mgr-&size=10&page=3')).toEqual({ total: 30, keys: [] })
    expect(await searchKeys('subjectType=API_CLIENT&search=CHECKOUT-W')).toEqual({ total: 1, keys: ['checkout-web-id'] })
    expect(await searchKeys('subjectType=APPLICATION&search=heck')).toEqual({ total: 1, keys: ['checkout'] })
    expect(await searchKeys('subjectType=ORGANIZATION&search=acme&sort=subjectKey,desc')).toEqual({ total: 2, keys: ['acme-eu', 'acme'] })
    expect(await searchKeys('subjectType=ORGANIZATION&search=acme&organizationCode=acme')).toEqual({ total: 1, keys: ['acme-eu'] })
    expect((await api(carol, 'GET', '/api/limit-assignment-subjects/search?projectId=payments&subjectType=GHOST')).body.params.field).toBe('subjectType')
    expect((await api(carol, 'GET', '/api/limit-assignment-subjects/search?subjectType=CONSUMER')).body.params.field).toBe('projectId')
    expect((await api(alice, 'GET', '/api/limit-assignment-subjects/search?projectId=other&subjectType=CONSUMER')).status).toBe(404)

    const gql = await svc.op(LimitAssignmentSubjectsDocument, { projectName: 'payments', subjectType: 'CONSUMER', search: 'shop', enabledOnly: true }, carol)
    expect(gql.data?.limitAssignmentSubjects).toEqual({ totalElements: 1, items: [page.body.items[0]] })
    const gqlTree = await svc.op(LimitSelectorOrganizationsDocument, { projectName: 'payments' }, carol)
    expect(gqlTree.data?.limitSelectorOrganizations.map((o) => o.code)).toEqual(['acme', 'acme-eu', 'frozen', 'gone'])
    expect((await svc.op(LimitSelectorOrganizationsDocument, { projectName: 'other' }, alice)).errors?.[0].extensions?.errorKey).toBe('resourceNotFound')

    const tree = await api(carol, 'GET', '/api/limit-assignment-subjects/organizations?projectId=payments')
    expect(tree.body.map((o: any) => [o.code, o.parentCode, o.depth])).toEqual([['acme', null, 0], ['acme-eu', 'acme', 1], ['frozen', null, 0], ['gone', null, 0]])
    expect(tree.body[0]).toMatchObject({ name: 'Acme', state: 'ACTIVE', suspended: false, subOrganizationCount: 1 })
  })
})

describe('portal subscription linking', () => {
  it('limit-impact counts and the backfill, dry run first', async () => {
    const project = await prisma().project.findUniqueOrThrow({ where: { name: 'payments' } })
    const app = await prisma().application.findFirstOrThrow({ where: { projectId: project.id, name: 'checkout' } })
    await prisma().productSubscription.create({ data: { projectId: project.id, applicationId: app.id, productName: 'gold-product', status: 'APPROVED' } })
    const none = await api(carol, 'GET', '/api/api-products/gold-product/plans/gold-plan/limit-impact?projectId=payments')
    expect(none.body).toEqual({ productId: 'gold-product', planId: 'gold-plan', approvedSubscriptionCount: 1, familiesWithProfile: [], affectedApplicationCount: 0 })

    // the subscription plan's profile: a published request-rate plan it manages
    const plan = await prisma().limitPlan.create({
      data: {
        scope: project.id, projectId: project.id, planKey: 'gold-rate', family: 'REQUEST_RATE', name: 'Gold rate', labels: [], lifecycle: 'PUBLISHED', currentPublishedRevision: 1,
        managedBySubscriptionPlanId: 'gold-plan', managedBySubscriptionPlanName: 'Gold', createdBy: 'portal',
        revisions: { create: { revision: 1, status: 'PUBLISHED', ruleSpec: customRate().customRuleSpec, semanticChecksum: 'x', createdBy: 'portal', publishedAt: new Date(), publishedBy: 'portal' } },
      },
    })
    const impact = await api(carol, 'GET', '/api/api-products/gold-product/plans/gold-plan/limit-impact?projectId=payments')
    expect(impact.body).toMatchObject({ approvedSubscriptionCount: 1, familiesWithProfile: ['REQUEST_RATE'], affectedApplicationCount: 1 })
    expect((await api(alice, 'GET', '/api/api-products/gold-product/plans/gold-plan/limit-impact')).body.errorKey).toBe('permissionDenied')
    expect((await api(root, 'GET', '/api/api-products/gold-product/plans/gold-plan/limit-impact')).body.approvedSubscriptionCount).toBe(1)

    const path = '/api/limit-bindings/portal-subscriptions/backfill?projectId=payments&productId=gold-product&planId=gold-plan'
    const dry = await api(alice, 'POST', path)
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({ apply: false, scanned: 1, wouldCreateCount: 1, createdCount: 0, rows: [{ applicationName: 'checkout', family: 'REQUEST_RATE', planKey: 'gold-rate', outcome: 'WOULD_CREATE' }] })
    expect(await prisma().limitAssignment.count({ where: { source: 'PORTAL_SUBSCRIPTION' } })).toBe(0)
    expect((await api(carol, 'POST', `${path}&apply=true`)).body.errorKey).toBe('permissionDenied')
    const applied = await api(alice, 'POST', `${path}&apply=true`)
    expect(applied.body).toMatchObject({ apply: true, createdCount: 1, rows: [{ outcome: 'CREATED', bindingKey: expect.stringMatching(/^lb_/) }] })
    const row = await prisma().limitAssignment.findFirstOrThrow({ where: { source: 'PORTAL_SUBSCRIPTION' } })
    expect(row).toMatchObject({ subjectType: 'APPLICATION', applicationId: app.id, status: 'ACTIVE', mode: 'PLAN', planKeys: [plan.planKey] })
    const again = await api(alice, 'POST', `${path}&apply=true`)
    expect(again.body).toMatchObject({ createdCount: 0, skippedCount: 1, rows: [{ outcome: 'SKIPPED_EXISTING', bindingKey: row.bindingKey }] })
    expect((await api(alice, 'POST', '/api/limit-bindings/portal-subscriptions/backfill?projectId=payments&planId=gold-plan')).body.params.field).toBe('productId')
    // a platform plan of the profile cannot be named by a project's assignment: reported, nothing written, no 404
    await prisma().limitPlan.create({
      data: {
        scope: 'platform', projectId: null, planKey: 'gold-ai', family: 'AI_TOKEN_BUDGET', name: 'Gold AI', labels: [], lifecycle: 'PUBLISHED', currentPublishedRevision: 1,
        managedBySubscriptionPlanId: 'gold-plan', managedBySubscriptionPlanName: 'Gold', createdBy: 'portal',
        revisions: { create: { revision: 1, status: 'PUBLISHED', ruleSpec: { aiBudget: { enabled: true, tokensPerDay: 1000 } }, semanticChecksum: 'y', createdBy: 'portal', publishedAt: new Date(), publishedBy: 'portal' } },
      },
    })
    const assignmentsBefore = await prisma().limitAssignment.count()
    const withPlatform = await api(alice, 'POST', `${path}&apply=true`)
    expect(withPlatform.status).toBe(200)
    expect(withPlatform.body).toMatchObject({
      createdCount: 0, skippedCount: 2,
      // families in name order (issue 11 §3: an enum sorts by the constant's name)
      rows: [{ family: 'AI_TOKEN_BUDGET', planKey: 'gold-ai', outcome: 'SKIPPED_PLATFORM_PLAN' }, { family: 'REQUEST_RATE', planKey: 'gold-rate', outcome: 'SKIPPED_EXISTING' }],
    })
    expect(await prisma().limitAssignment.count()).toBe(assignmentsBefore)

  })
})

describe('GraphQL: runs, issues and progress', () => {
  it('same operations and errors as REST, with relations to issues, assignments and the source run', async () => {
    await seedConsumers(prisma(), 'payments', 'gql', 4)
    const input = { selector: { subjectType: 'CONSUMER', search: 'gql-' }, content: { family: 'REQUEST_RATE', mode: 'CUSTOM', customRuleSpec: customRate().customRuleSpec } }
    const preview = await svc.op(PreviewLimitBulkAssignmentDocument, { projectName: 'payments', input }, alice)
    expect(preview.data?.previewLimitBulkAssignment).toMatchObject({ expectedCount: 4, willCreate: 4, estimated: false })
    const fingerprint = preview.data!.previewLimitBulkAssignment.selectorFingerprint

    const stale = await svc.op(StartLimitBulkRunDocument, { projectName: 'payments', input: { ...input, previewFingerprint: 'sha256:old' }, idempotencyKey: newKey() }, alice)
    expect(stale.errors?.[0].extensions).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.bulk.fingerprintMismatch' } })
    const denied = await svc.op(StartLimitBulkRunDocument, { projectName: 'payments', input: { ...input, previewFingerprint: fingerprint }, idempotencyKey: newKey() }, carol)
    expect(denied.errors?.[0].extensions?.errorKey).toBe('permissionDenied')

    const key = newKey()
    const started = await svc.op(StartLimitBulkRunDocument, { projectName: 'payments', input: { ...input, previewFingerprint: fingerprint, expectedCount: 4 }, idempotencyKey: key }, alice)
    expect(started.errors).toBeUndefined()
    const runId = started.data!.startLimitBulkRun.runId
    expect(started.data!.startLimitBulkRun).toMatchObject({ kind: 'ASSIGN', trigger: 'MANUAL', expectedCount: 4, idempotencyKey: key })
    await bulkClient(svc.http, alice).finished(runId)
    const replay = await svc.op(StartLimitBulkRunDocument, { projectName: 'payments', input: { ...input, previewFingerprint: fingerprint, expectedCount: 4 }, idempotencyKey: key }, alice)
    expect(replay.errors?.[0].extensions).toMatchObject({ errorKey: 'idempotencyReplayExpired', params: { resource: runId } })

    const read = await svc.op(LimitBulkRunDocument, { projectName: 'payments', runId }, carol)
    expect(read.data?.limitBulkRun).toMatchObject({ runId, runStatus: 'SUCCESS', createdCount: 4, projectName: 'payments', rollbackOf: null, issues: { totalElements: 0 } })
    expect(read.data?.limitBulkRun.assignments.totalElements).toBe(4)
    expect(read.data?.limitBulkRun.assignments.items[0]).toMatchObject({ source: 'BULK', status: 'ACTIVE', bulkRunId: runId, subject: { type: 'CONSUMER' } })

    const list = await svc.op(LimitBulkRunsDocument, { projectName: 'payments', size: 1 }, carol)
    expect(list.data?.limitBulkRuns).toMatchObject({ sort: ['startedAt,desc'], items: [{ runId }] })
    const badSort = await svc.op(LimitBulkRunsDocument, { projectName: 'payments', sort: ['kindness,asc'] }, carol)
    expect(badSort.errors?.[0].extensions).toMatchObject({ errorKey: 'unsupportedSortField' })
    const cancel = await svc.op(CancelLimitBulkRunDocument, { projectName: 'payments', runId }, alice)
    expect(cancel.errors?.[0].extensions?.params).toMatchObject({ reason: 'limit.bulk.runNotCancellable' })
    const retry = await svc.op(RetryFailedLimitBulkRunDocument, { projectName: 'payments', runId, idempotencyKey: newKey() }, alice)
    expect(retry.errors?.[0].extensions?.params).toMatchObject({ reason: 'limit.bulk.runNotRetryable' })

    const rollback = await svc.op(RollbackLimitBulkRunDocument, { projectName: 'payments', runId, idempotencyKey: newKey() }, alice)
    expect(rollback.data?.rollbackLimitBulkRun).toMatchObject({ kind: 'ROLLBACK', rollbackOfRunId: runId })
    const rollbackId = rollback.data!.rollbackLimitBulkRun.runId
    await bulkClient(svc.http, alice).finished(rollbackId)
    const rolled = await svc.op(LimitBulkRunDocument, { projectName: 'payments', runId: rollbackId }, carol)
    expect(rolled.data?.limitBulkRun).toMatchObject({ runStatus: 'SUCCESS', endedCount: 4, rollbackOf: { runId, kind: 'ASSIGN' } })
    const admin = await svc.op(LimitBulkRunsDocument, { projectName: 'admin' }, root)
    expect(admin.errors?.[0].extensions?.params).toMatchObject({ reason: 'platformScopeNotSupported' })
  })
})
