import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { bulkClient, customRate, newKey, seedConsumers } from './limit-bulk-helpers.js'

let svc: TestService
let alice: string
let carol: string
let bob: string
let root: string

let erin: string

beforeAll(async () => {
  // erin holds AI_BUDGETS MANAGE only: accepted in place of IDENTITY on bulk assignment (spec §5)
  const bootstrap = sampleBootstrap({ dev: [] })
  bootstrap.users.push({ username: 'erin', password: 'erin-pass-1' })
  ;(bootstrap.projects[0].members as { username: string; permissions: { category: string; level: string }[] }[]).push({ username: 'erin', permissions: [{ category: 'AI_BUDGETS', level: 'MANAGE' }] })
  svc = await startTestService({ bootstrap })
  ;[alice, carol, bob, root, erin] = await Promise.all([
    svc.tokenFor('alice', 'alice-pass-1'), svc.tokenFor('carol', 'carol-pass-1'), svc.tokenFor('bob', 'bob-pass-1'), svc.tokenFor('root', 's3cret-root'),
    svc.tokenFor('erin', 'erin-pass-1'),
  ])
})
afterAll(async () => svc?.close())

const prisma = () => svc.deps.prisma
const runCount = () => prisma().limitBulkRun.count()
const assignmentsOf = (runId: string) => prisma().limitAssignment.count({ where: { bulkRunId: runId } })

describe('bulk assignment: preview and ASSIGN runs (spec §4.9)', () => {
  it('assigns over 450 consumers in chunks of 200: receipt, progress, counts, deployment state', async () => {
    await seedConsumers(prisma(), 'payments', 'smoke', 450)
    const bulk = bulkClient(svc.http, alice)
    const body = { selector: { subjectType: 'CONSUMER', search: 'SMOKE-' }, content: customRate() }
    const { preview, run } = await bulk.previewAndRun(body)
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ status: 'SUCCESS', expectedCount: 450, willCreate: 450, willSkip: 0, willReplace: 0, licenseBlocked: 0, estimated: false })
    expect(preview.body.selectorFingerprint).toMatch(/^sha256:/)
    expect(preview.body.sample).toHaveLength(20)
    expect(preview.body.sample[0]).toEqual({ subjectName: 'smoke-0001', outcome: 'CREATED' })

    expect(run.status).toBe(202)
    expect(run.body).toMatchObject({ status: 'SUCCESS', kind: 'ASSIGN', expectedCount: 450 })
    expect(['QUEUED', 'RUNNING', 'SUCCESS']).toContain(run.body.runStatus)
    expect(run.headers.get('location')).toBe(`/apiops/projects/payments/limit-assignment-runs/${run.body.runId}`)
    expect(Date.parse(run.body.queuedAt)).not.toBeNaN()

    const done = await bulk.finished(run.body.runId)
    expect(done).toMatchObject({
      runId: run.body.runId, runStatus: 'SUCCESS', kind: 'ASSIGN', phase: 'FINALIZE', trigger: 'APIOPS', triggeredBy: 'alice',
      actualCount: 450, processedCount: 450, createdCount: 450, replacedCount: 0, skippedCount: 0, failedCount: 0, licenseSkippedCount: 0,
      includedSubjectCount: 450, excludedSubjectCount: 0, issueCount: 0, issuesTruncated: false, cancelRequested: false,
      deploymentState: 'IN_SYNC', conflictPolicy: 'KEEP_EXISTING', selectorFingerprint: preview.body.selectorFingerprint, expectedCount: 450,
      messageKey: 'limit.bulk.completed', selector: body.selector, content: body.content,
    })
    expect(done.durationMs).toBeGreaterThanOrEqual(0)
    expect(done.heartbeatAt).not.toBeNull()
    expect(await assignmentsOf(run.body.runId)).toBe(450)
    const one = await prisma().limitAssignment.findFirstOrThrow({ where: { bulkRunId: run.body.runId, credential: { username: 'smoke-0007' } } })
    expect(one).toMatchObject({ source: 'BULK', status: 'ACTIVE', mode: 'CUSTOM', family: 'REQUEST_RATE', subjectType: 'CONSUMER', assignedBy: 'alice' })

    // the consumer's sub-resource reflects the run
    const key = (await prisma().credential.findUniqueOrThrow({ where: { username: 'smoke-0007' } })).consumerKey
    const sub = await svc.http(`/apiops/projects/payments/consumers/${key}/limit-assignments`, { headers: { authorization: `Bearer ${alice}` } })
    const list = (await sub.json()) as any[]
    expect(list).toEqual([expect.objectContaining({ bulkRunId: run.body.runId, source: 'BULK', status: 'ACTIVE', subject: { type: 'CONSUMER', key: 'smoke-0007' } })])

    // a second preview of the same selector now skips everyone (KEEP_EXISTING) or replaces them (REPLACE)
    const again = await bulk.preview(body)
    expect(again.body).toMatchObject({ expectedCount: 450, willCreate: 0, willSkip: 450 })
    expect(again.body.sample[0]).toEqual({ subjectName: 'smoke-0001', outcome: 'SKIPPED_EXISTING', existingBindingKey: expect.stringMatching(/^lb_/) })
    const replace = await bulk.preview({ ...body, conflictPolicy: 'REPLACE' })
    expect(replace.body).toMatchObject({ willCreate: 0, willReplace: 450, willSkip: 0 })
    expect(replace.body.selectorFingerprint).not.toBe(again.body.selectorFingerprint)
    const none = await bulk.preview({ ...body, selector: { ...body.selector, existingAssignment: 'NONE' } })
    expect(none.body.expectedCount).toBe(0)
    const exists = await bulk.preview({ ...body, selector: { ...body.selector, existingAssignment: 'EXISTS', excludeSubjectKeys: ['smoke-0001'] } })
    expect(exists.body).toMatchObject({ expectedCount: 449, includedSubjectCount: 450, excludedSubjectCount: 1 })
  })

  it('KEEP_EXISTING skips with kept issues, REPLACE ends the old rows and links them; rollback ends and reopens', async () => {
    await seedConsumers(prisma(), 'payments', 'keep', 5)
    const bulk = bulkClient(svc.http, alice)
    const selector = { subjectType: 'CONSUMER', subjectKeys: ['keep-0001', 'keep-0002', 'keep-0003'] }
    const first = await bulk.previewAndRun({ selector, content: customRate(10) })
    const firstRun = await bulk.finished(first.run.body.runId)
    expect(firstRun.createdCount).toBe(3)

    const widened = { subjectType: 'CONSUMER', search: 'keep-' }
    const keep = await bulk.previewAndRun({ selector: widened, content: customRate(20) })
    const kept = await bulk.finished(keep.run.body.runId)
    expect(kept).toMatchObject({ runStatus: 'SUCCESS', createdCount: 2, skippedCount: 3, issueCount: 3, issuesTruncated: false })
    const issues = await bulk.issues(keep.run.body.runId)
    expect(issues.status).toBe(200)
    expect(issues.body).toMatchObject({ status: 'SUCCESS', page: 0, size: 20, totalElements: 3, totalPages: 1, sort: ['seq,asc'] })
    expect(issues.body.items[0]).toMatchObject({ seq: 1, subjectType: 'CONSUMER', subjectName: 'keep-0001', outcome: 'SKIPPED_EXISTING', messageKey: 'limit.binding.scopeAlreadyBound', bindingKey: expect.stringMatching(/^lb_/) })

    const replace = await bulk.previewAndRun({ selector: widened, content: customRate(30), conflictPolicy: 'REPLACE' })
    const replaced = await bulk.finished(replace.run.body.runId)
    expect(replaced).toMatchObject({ runStatus: 'SUCCESS', replacedCount: 5, createdCount: 0, issueCount: 0 })
    const newRow = await prisma().limitAssignment.findFirstOrThrow({ where: { bulkRunId: replace.run.body.runId, credential: { username: 'keep-0001' } } })
    expect(newRow.replacedBindingKey).toBeTruthy()
    const oldRow = await prisma().limitAssignment.findUniqueOrThrow({ where: { bindingKey: newRow.replacedBindingKey! } })
    expect(oldRow).toMatchObject({ status: 'ENDED', bulkRunId: first.run.body.runId, endedBy: 'alice' })
    expect(oldRow.endedReason).toContain(replace.run.body.runId)

    // rollback of the REPLACE run: its rows end, the rows it replaced come back as new rows with their content
    const rollbackKey = newKey()
    const rb = await bulk.rollback(replace.run.body.runId, rollbackKey)
    expect(rb.status).toBe(202)
    expect(rb.body).toMatchObject({ kind: 'ROLLBACK', expectedCount: 5 })
    expect(rb.headers.get('location')).toBe(`/apiops/projects/payments/limit-assignment-runs/${rb.body.runId}`)
    const rolled = await bulk.finished(rb.body.runId)
    const replayed = await bulk.rollback(replace.run.body.runId, rollbackKey)
    expect(replayed.body).toMatchObject({ errorKey: 'idempotencyReplayExpired', params: { resource: rb.body.runId } })
    expect((await bulk.rollback(replace.run.body.runId, null)).body.errorKey).toBe('idempotencyKeyRequired')
    expect(rolled).toMatchObject({ runStatus: 'SUCCESS', kind: 'ROLLBACK', rollbackOfRunId: replace.run.body.runId, processedCount: 5, endedCount: 5, restoredCount: 5, createdCount: 0 })
    expect(await prisma().limitAssignment.count({ where: { bulkRunId: replace.run.body.runId, status: { not: 'ENDED' } } })).toBe(0)
    const live = await prisma().limitAssignment.findMany({ where: { credential: { username: { startsWith: 'keep-' } }, status: 'ACTIVE' } })
    expect(live).toHaveLength(5)
    const restored = live.find((a) => a.replacedBindingKey === oldRow.bindingKey)!
    expect(restored.customRuleSpec).toEqual(oldRow.customRuleSpec)

    // nothing left to roll back, a ROLLBACK run cannot be rolled back, and nothing changes on refusal
    const before = await runCount()
    const again = await bulk.rollback(replace.run.body.runId)
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.bulk.runNotRollbackable' }, correlationId: expect.any(String) })
    const ofRollback = await bulk.rollback(rb.body.runId)
    expect(ofRollback.body.params.reason).toBe('limit.bulk.runNotRollbackable')
    expect(await runCount()).toBe(before)
    // a run without failed subjects cannot be retried
    const retry = await bulk.retry(replace.run.body.runId)
    expect(retry.status).toBe(409)
    expect(retry.body.params.reason).toBe('limit.bulk.runNotRetryable')
    expect(await runCount()).toBe(before)
  })

  it('rollback of a REPLACE brings a replaced DRAFT back as a DRAFT (never activated) and an ACTIVE one back ACTIVE', async () => {
    await seedConsumers(prisma(), 'payments', 'draftrep', 2)
    const made = async (username: string, status: string) => {
      const res = await svc.http('/apiops/projects/payments/limit-assignments', {
        method: 'POST',
        headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json', 'idempotency-key': newKey() },
        body: JSON.stringify({ subject: { type: 'CONSUMER', key: username }, content: customRate(7), status }),
      })
      expect(res.status).toBe(201)
      return ((await res.json()) as { bindingKey: string }).bindingKey
    }
    const draftKey = await made('draftrep-0001', 'DRAFT')
    const activeKey = await made('draftrep-0002', 'ACTIVE')
    const bulk = bulkClient(svc.http, alice)
    const replace = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'draftrep-' }, content: customRate(8), conflictPolicy: 'REPLACE' })
    expect(await bulk.finished(replace.run.body.runId)).toMatchObject({ runStatus: 'SUCCESS', replacedCount: 2 })
    const endedDraft = await prisma().limitAssignment.findUniqueOrThrow({ where: { bindingKey: draftKey } })
    expect(endedDraft).toMatchObject({ status: 'ENDED', endedReason: `replaced by bulk run ${replace.run.body.runId} (was DRAFT)` })
    expect((await prisma().limitAssignment.findUniqueOrThrow({ where: { bindingKey: activeKey } })).endedReason).toBe(`replaced by bulk run ${replace.run.body.runId}`)

    const rb = await bulk.rollback(replace.run.body.runId)
    expect(rb.status).toBe(202)
    expect(await bulk.finished(rb.body.runId)).toMatchObject({ runStatus: 'SUCCESS', restoredCount: 2, endedCount: 2 })
    const restoredDraft = await prisma().limitAssignment.findFirstOrThrow({ where: { replacedBindingKey: draftKey, status: { not: 'ENDED' } } })
    const restoredActive = await prisma().limitAssignment.findFirstOrThrow({ where: { replacedBindingKey: activeKey, status: { not: 'ENDED' } } })
    expect(restoredDraft).toMatchObject({ status: 'DRAFT', source: 'MANUAL' })
    expect(restoredActive).toMatchObject({ status: 'ACTIVE', source: 'MANUAL' })
  })

  it('a failing subject is FAILED with its reason and the others commit; retry-failed assigns it once the cause is gone', async () => {
    const [, bad] = await seedConsumers(prisma(), 'payments', 'flaky', 3)
    const badId = (await prisma().credential.findUniqueOrThrow({ where: { username: bad } })).id
    // the database refuses this one subject's row, as a constraint added by an operator would
    await prisma().$executeRawUnsafe(`CREATE FUNCTION refuse_flaky() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW."credentialId" = '${badId}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`)
    await prisma().$executeRawUnsafe(`CREATE TRIGGER refuse_flaky BEFORE INSERT ON "LimitAssignment" FOR EACH ROW EXECUTE FUNCTION refuse_flaky()`)
    const bulk = bulkClient(svc.http, alice)
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'flaky-' }, content: customRate() })
    const done = await bulk.finished(run.body.runId)
    await prisma().$executeRawUnsafe('DROP TRIGGER refuse_flaky ON "LimitAssignment"')
    await prisma().$executeRawUnsafe('DROP FUNCTION refuse_flaky()')
    expect(done).toMatchObject({ runStatus: 'PARTIAL', createdCount: 2, failedCount: 1, issueCount: 1, messageKey: 'limit.bulk.partial' })
    const issues = await bulk.issues(run.body.runId)
    expect(issues.body.items).toEqual([expect.objectContaining({ seq: 1, subjectName: bad, outcome: 'FAILED', messageKey: 'limit.bulk.subjectFailed' })])

    const retry = await bulk.retry(run.body.runId)
    expect(retry.status).toBe(202)
    expect(retry.body).toMatchObject({ kind: 'RETRY', expectedCount: 1 })
    const retried = await bulk.finished(retry.body.runId)
    expect(retried).toMatchObject({ runStatus: 'SUCCESS', kind: 'RETRY', retryOfRunId: run.body.runId, conflictPolicy: 'KEEP_EXISTING', actualCount: 1, createdCount: 1 })
    expect(await prisma().limitAssignment.count({ where: { credentialId: badId, status: 'ACTIVE' } })).toBe(1)
  })

  it('keeps at most 1000 issues, then issuesTruncated', async () => {
    await seedConsumers(prisma(), 'payments', 'many', 1050)
    const bulk = bulkClient(svc.http, alice)
    const body = { selector: { subjectType: 'CONSUMER', search: 'many-' }, content: customRate() }
    await bulk.finished((await bulk.previewAndRun(body)).run.body.runId)
    const second = await bulk.previewAndRun(body)
    const done = await bulk.finished(second.run.body.runId)
    expect(done).toMatchObject({ runStatus: 'SUCCESS', skippedCount: 1050, issueCount: 1000, issuesTruncated: true })
    const last = await bulk.issues(second.run.body.runId, '?page=4&size=200')
    expect(last.body).toMatchObject({ totalElements: 1000, totalPages: 5 })
    expect(last.body.items.at(-1).seq).toBe(1000)
  })

  it('every bulk subject type; PLAN content links the plans; unpublished and retired plans are refused', async () => {
    const project = await prisma().project.findUniqueOrThrow({ where: { name: 'payments' } })
    const plan = (planKey: string, lifecycle: 'DRAFT' | 'PUBLISHED' | 'RETIRED') =>
      prisma().limitPlan.create({
        data: {
          scope: project.id, projectId: project.id, planKey, family: 'REQUEST_RATE', name: planKey, labels: [], lifecycle, currentPublishedRevision: lifecycle === 'DRAFT' ? 0 : 1, createdBy: 'test',
          revisions: { create: { revision: 1, status: lifecycle === 'DRAFT' ? 'DRAFT' : 'PUBLISHED', ruleSpec: customRate().customRuleSpec, semanticChecksum: 'x', createdBy: 'test' } },
        },
      })
    const gold = await plan('bulk-gold', 'PUBLISHED')
    await plan('bulk-draft', 'DRAFT')
    await plan('bulk-old', 'RETIRED')
    const bulk = bulkClient(svc.http, alice)
    const before = await runCount()
    const draft = await bulk.preview({ selector: { subjectType: 'APPLICATION' }, content: { family: 'REQUEST_RATE', planKeys: ['bulk-draft'] } })
    expect(draft.status).toBe(409)
    expect(draft.body).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.binding.planNotPublished', plan: 'bulk-draft' } })
    const retired = await bulk.preview({ selector: { subjectType: 'APPLICATION' }, content: { family: 'REQUEST_RATE', planKeys: ['bulk-old'] } })
    expect(retired.body.params.reason).toBe('limit.binding.planRetired')
    expect(await runCount()).toBe(before)

    for (const [subjectType, key, column] of [['APPLICATION', 'checkout', 'applicationId'], ['API_CLIENT', 'checkout-web-id', 'apiClientId'], ['ORGANIZATION', 'acme', 'organizationId']] as const) {
      const { preview, run } = await bulk.previewAndRun({ selector: { subjectType, subjectKeys: [key] }, content: { family: 'REQUEST_RATE', planKeys: ['bulk-gold'], actorScope: 'AUTHENTICATED' } })
      expect(preview.body).toMatchObject({ expectedCount: 1, willCreate: 1, sample: [{ subjectName: key, outcome: 'CREATED' }] })
      const done = await bulk.finished(run.body.runId)
      expect(done).toMatchObject({ runStatus: 'SUCCESS', createdCount: 1 })
      const row = await prisma().limitAssignment.findFirstOrThrow({ where: { bulkRunId: run.body.runId }, include: { plans: true } })
      expect(row).toMatchObject({ subjectType, mode: 'PLAN', planKeys: ['bulk-gold'], actorScope: 'AUTHENTICATED', status: 'ACTIVE' })
      expect(row[column]).toBeTruthy()
      expect(row.plans).toEqual([expect.objectContaining({ planId: gold.id, position: 0 })])
    }
    const anonymous = await bulk.preview({ selector: { subjectType: 'CONSUMER', subjectKeys: ['shop-frontend'] }, content: { ...customRate(), actorScope: 'ANONYMOUS' } })
    expect(anonymous.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'content.actorScope' } })
  })

  it('flags counts as estimated above 5000 subjects', async () => {
    await seedConsumers(prisma(), 'payments', 'est', 5001)
    const bulk = bulkClient(svc.http, alice)
    const preview = await bulk.preview({ selector: { subjectType: 'CONSUMER', search: 'est-' }, content: customRate() })
    expect(preview.body).toMatchObject({ expectedCount: 5001, willCreate: 5001, estimated: true })
    const fewer = await bulk.preview({ selector: { subjectType: 'CONSUMER', search: 'est-', excludeSubjectKeys: ['est-0001'] }, content: customRate() })
    expect(fewer.body).toMatchObject({ expectedCount: 5000, estimated: false })
  })

  it('lists runs newest first with sort by status or kind; other sort fields are refused', async () => {
    const bulk = bulkClient(svc.http, carol)
    const list = await bulk.list('?size=2')
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ status: 'SUCCESS', page: 0, size: 2, sort: ['startedAt,desc'] })
    expect(list.body.totalElements).toBeGreaterThan(2)
    expect(Date.parse(list.body.items[0].startedAt)).toBeGreaterThanOrEqual(Date.parse(list.body.items[1].startedAt))
    expect((await bulk.list('?sort=kind,asc')).status).toBe(200)
    expect((await bulk.list('?sort=status,desc')).status).toBe(200)
    const bad = await bulk.list('?sort=processedCount,asc')
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ errorKey: 'unsupportedSortField', params: { supported: ['startedAt', 'status', 'kind'] } })
    const issues = await bulk.issues(list.body.items[0].runId, '?sort=bindingKey,asc')
    expect(issues.body).toMatchObject({ errorKey: 'unsupportedSortField', params: { supported: ['seq', 'outcome', 'occurredAt'] } })
  })
})

describe('bulk assignment refusals: nothing is written', () => {
  const valid = { selector: { subjectType: 'CONSUMER', subjectKeys: ['shop-frontend'] }, content: customRate() }

  it('checks the body: missing, unknown fields, list sizes, bulk-only modes', async () => {
    const bulk = bulkClient(svc.http, alice)
    const before = await runCount()
    const empty = await svc.http('/apiops/projects/payments/limit-assignment-previews', { method: 'POST', headers: { authorization: `Bearer ${alice}` } })
    expect(empty.status).toBe(400)
    expect(await empty.json()).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'bodyRequired' } })
    const unknown = await bulk.preview({ ...valid, selector: { ...valid.selector, colour: 'red' } })
    expect(unknown.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'selector.colour' } })
    const type = await bulk.preview({ ...valid, selector: { subjectType: 'API_PROXY' } })
    expect(type.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'selector.subjectType' } })
    const tooMany = Array.from({ length: 5001 }, (_, i) => `k${i}`)
    for (const field of ['subjectKeys', 'excludeSubjectKeys']) {
      const big = await bulk.preview({ ...valid, selector: { subjectType: 'CONSUMER', [field]: tooMany } })
      expect(big.status).toBe(400)
      expect(big.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'limit.bulk.includeListTooLarge', field: `selector.${field}` } })
      const bigRun = await bulk.run({ ...valid, selector: { subjectType: 'CONSUMER', [field]: tooMany }, previewFingerprint: 'x' })
      expect(bigRun.body.params.reason).toBe('limit.bulk.includeListTooLarge')
    }
    const inherit = await bulk.preview({ ...valid, content: { family: 'REQUEST_RATE', mode: 'INHERIT' } })
    expect(inherit.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'content.mode' } })
    const plans = await bulk.preview({ ...valid, content: { family: 'REQUEST_RATE', planKeys: Array.from({ length: 201 }, (_, i) => `p${i}`) } })
    expect(plans.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'content.planKeys' } })
    const unknownPlan = await bulk.preview({ ...valid, content: { family: 'REQUEST_RATE', planKeys: ['no-such-plan'] } })
    expect(unknownPlan.status).toBe(404)
    expect(unknownPlan.body).toMatchObject({ errorKey: 'resourceNotFound', params: { plan: 'no-such-plan' } })
    const noFingerprint = await bulk.run(valid)
    expect(noFingerprint.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'previewFingerprint' } })
    expect(await runCount()).toBe(before)
  })

  it('an unknown subject key or organization is 404 naming the first missing key and how many are missing', async () => {
    const bulk = bulkClient(svc.http, alice)
    const before = await runCount()
    const res = await bulk.preview({ ...valid, selector: { subjectType: 'CONSUMER', subjectKeys: ['shop-frontend', 'ghost-1', 'ghost-2'] } })
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ errorKey: 'resourceNotFound', params: { subjectType: 'CONSUMER', subject: 'ghost-1', missingCount: 2 } })
    const excluded = await bulk.preview({ ...valid, selector: { subjectType: 'APPLICATION', excludeSubjectKeys: ['nope'] } })
    expect(excluded.body.params).toMatchObject({ subjectType: 'APPLICATION', subject: 'nope', missingCount: 1 })
    const org = await bulk.preview({ ...valid, selector: { subjectType: 'CONSUMER', organizationCodes: ['atlantis'] } })
    expect(org.status).toBe(404)
    const preview = await bulk.preview(valid)
    const run = await bulk.run({ ...valid, selector: { subjectType: 'CONSUMER', subjectKeys: ['shop-frontend', 'ghost-1'] }, previewFingerprint: preview.body.selectorFingerprint })
    // the fingerprint no longer matches first
    expect(run.body.params.reason).toBe('limit.bulk.fingerprintMismatch')
    expect(await runCount()).toBe(before)
  })

  it('a run whose body no longer hashes to previewFingerprint is refused with fingerprintMismatch', async () => {
    const bulk = bulkClient(svc.http, alice)
    const preview = await bulk.preview(valid)
    const before = await runCount()
    const res = await bulk.run({ ...valid, content: customRate(99), previewFingerprint: preview.body.selectorFingerprint })
    expect(res.status).toBe(409)
    expect(res.body).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.bulk.fingerprintMismatch', previewFingerprint: preview.body.selectorFingerprint } })
    expect(await runCount()).toBe(before)
  })

  it('scope and permission: admin project, out-of-scope project, VIEW only, AI_BUDGETS', async () => {
    const before = await runCount()
    const admin = await bulkClient(svc.http, root, 'admin').preview(valid)
    expect(admin.status).toBe(400)
    expect(admin.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'platformScopeNotSupported' } })
    const other = await bulkClient(svc.http, alice, 'other').preview(valid)
    expect(other.status).toBe(404)
    expect(other.body.errorKey).toBe('resourceNotFound')
    const viewer = bulkClient(svc.http, carol)
    const denied = await viewer.preview(valid)
    expect(denied.status).toBe(403)
    expect(denied.body.errorKey).toBe('permissionDenied')
    expect((await viewer.run({ ...valid, previewFingerprint: 'x' })).body.errorKey).toBe('permissionDenied')
    expect((await viewer.list()).status).toBe(200)
    const runId = (await viewer.list()).body.items[0].runId
    expect((await viewer.cancel(runId)).body.errorKey).toBe('permissionDenied')
    expect((await viewer.rollback(runId)).body.errorKey).toBe('permissionDenied')
    expect((await bulkClient(svc.http, alice, 'other').get(runId)).status).toBe(404)
    expect((await bulkClient(svc.http, alice).get('lbr_nope')).body).toMatchObject({ errorKey: 'resourceNotFound', params: { runId: 'lbr_nope' } })
    expect((await bulkClient(svc.http, bob).preview(valid)).status).toBe(200)
    expect((await bulkClient(svc.http, erin).preview(valid)).status).toBe(200)
    expect((await bulkClient(svc.http, erin).list()).status).toBe(200)
    expect(await runCount()).toBe(before)
  })

  it('Idempotency-Key: required, replay after completion, different body, failed call releases, 20 concurrent creates → one run', async () => {
    const bulk = bulkClient(svc.http, alice)
    await seedConsumers(prisma(), 'payments', 'idem', 2)
    const body = { selector: { subjectType: 'CONSUMER', search: 'idem-' }, content: customRate() }
    const preview = await bulk.preview(body)
    const runBody = { ...body, previewFingerprint: preview.body.selectorFingerprint, expectedCount: 2 }
    const before = await runCount()
    const missing = await bulk.run(runBody, null)
    expect(missing.status).toBe(400)
    expect(missing.body.errorKey).toBe('idempotencyKeyRequired')
    expect((await bulk.run(runBody, '   ')).body.errorKey).toBe('idempotencyKeyRequired')

    // a failed call releases its key: the same key then works
    const key = newKey()
    const failed = await bulk.run({ ...runBody, previewFingerprint: 'sha256:stale' }, key)
    expect(failed.body.params.reason).toBe('limit.bulk.fingerprintMismatch')
    expect(await runCount()).toBe(before)

    const results = await Promise.all(Array.from({ length: 20 }, () => bulk.run(runBody, key)))
    const accepted = results.filter((r) => r.status === 202)
    expect(accepted).toHaveLength(1)
    for (const r of results.filter((x) => x.status !== 202)) {
      expect(r.status).toBe(409)
      expect(['idempotencyInProgress', 'idempotencyReplayExpired']).toContain(r.body.errorKey)
    }
    expect(await runCount()).toBe(before + 1)
    const runId = accepted[0].body.runId
    await bulk.finished(runId)
    const replay = await bulk.run(runBody, key)
    expect(replay.status).toBe(409)
    expect(replay.body).toMatchObject({ errorKey: 'idempotencyReplayExpired', params: { resource: runId } })
    const reused = await bulk.run({ ...runBody, expectedCount: 3 }, key)
    expect(reused.body.errorKey).toBe('idempotencyKeyReused')
    expect(await runCount()).toBe(before + 1)
    const run = await bulk.get(runId)
    expect(run.body.idempotencyKey).toBe(key)
  })

  it('cancel of a finished run is refused; a finished run can be read but not cancelled', async () => {
    const bulk = bulkClient(svc.http, alice)
    const runId = (await bulk.list()).body.items[0].runId
    const res = await bulk.cancel(runId)
    expect(res.status).toBe(409)
    expect(res.body).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.bulk.runNotCancellable' } })
    expect((await bulk.get(runId)).body.cancelRequested).toBe(false)
  })
})
