import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { canonicalHash } from '../../src/platform/hashing/canonical.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { aiSpec, caller, expectRefused, key, limitsBootstrap, limitsSnapshot, rateSpec, USERS } from './limit-plans-helpers.js'

// Limit plans and revisions (spec §2.12, §3.2, §4.7) on /apiops and the manager surface (§4.11): every state
// transition and every refusal, with nothing written on refusal.

let svc: TestService
let worker: FakeWorker
let call: ReturnType<typeof caller>
const tokens: Record<string, string> = {}
const P = '/apiops/projects/payments/limit-plans'
let seq = 0

const createPlan = (body: object, user = 'alice', idem = key(), base = P) => call('POST', base, user, body, { 'idempotency-key': idem })
async function newPlan(extra: object = {}, family = 'REQUEST_RATE') {
  const res = await createPlan({ family, name: `Plan ${++seq}`, initialRuleSpec: family === 'REQUEST_RATE' ? rateSpec() : aiSpec(), ...extra })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
async function publishedPlan(extra: object = {}, family = 'REQUEST_RATE') {
  const plan = await newPlan(extra, family)
  const res = await call('POST', `${P}/${plan.planKey}/revisions/1/actions/publish`, 'alice', {})
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return plan
}

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: limitsBootstrap(sampleBootstrap({ dev: [worker.url] })) })
  for (const [u, p] of USERS) tokens[u] = await svc.tokenFor(u, p)
  call = caller(svc, tokens)
})
afterEach(() => {
  worker.status = 200
  worker.delayMs = 0
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('create', () => {
  it('creates a DRAFT plan with revision 1 DRAFT, mints the key from the name and reads the spec back exactly', async () => {
    const spec = { requestRate: { windows: [{ permittedMessageCount: 5, interval: 'ONE_SECOND' }, { permittedMessageCount: 100, interval: 'ONE_HOUR', periodLength: 2, windowType: 'SLIDING', countingMode: 'ACCEPTED_ONLY' }] } }
    const res = await createPlan({ family: 'REQUEST_RATE', name: 'Gold Tier!', nameTr: 'Altın', description: 'd', labels: ['a', 'b'], initialRuleSpec: spec })
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe('/apiops/projects/payments/limit-plans/gold-tier')
    expect(res.body).toEqual({
      planKey: 'gold-tier', family: 'REQUEST_RATE', name: 'Gold Tier!', nameTr: 'Altın', description: 'd', labels: ['a', 'b'], lifecycle: 'DRAFT',
      currentPublishedRevision: 0, platformScoped: false, managedBySubscriptionPlanId: null, managedBySubscriptionPlanName: null, retiredAt: null,
      retiredBy: null, version: 1,
    })
    const revisions = await call('GET', `${P}/gold-tier/revisions`, 'carol')
    expect(revisions.body).toEqual([{
      planKey: 'gold-tier', revision: 1, status: 'DRAFT', ruleSpec: spec, semanticChecksum: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      changeReason: null, publishedAt: null, publishedBy: null,
    }])
    expect((await call('GET', `${P}/gold-tier/draft`, 'carol')).body).toEqual(revisions.body[0])
    expect((await call('GET', `${P}/gold-tier/revisions/1`, 'carol')).body).toEqual(revisions.body[0])
    expect((await call('GET', `${P}/gold-tier`, 'carol')).body).toEqual(res.body)
    await expectRefused(svc, () => call('GET', `${P}/gold-tier/published`, 'carol'), 404, 'resourceNotFound', { plan: 'gold-tier', reason: 'limit.plan.revisionNotFound' })
  })

  it('hashes equal rule specs equally whatever the key order, and different specs differently', async () => {
    const a = await newPlan({ initialRuleSpec: { requestRate: { overflowAction: 'COUNT_ONLY', windows: [{ interval: 'ONE_DAY', permittedMessageCount: 9 }] } } })
    const b = await newPlan({ initialRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 9, interval: 'ONE_DAY' }], overflowAction: 'COUNT_ONLY' } } })
    const c = await newPlan({ initialRuleSpec: rateSpec(10) })
    const sum = async (k: string) => (await call('GET', `${P}/${k}/revisions/1`, 'alice')).body.semanticChecksum
    expect(await sum(a.planKey)).toBe(await sum(b.planKey))
    expect(await sum(a.planKey)).not.toBe(await sum(c.planKey))
  })

  it('refuses bodies without family, name or rule spec, a spec of the other family and broken windows; nothing is written', async () => {
    const good = { family: 'REQUEST_RATE', name: 'Refused plan', initialRuleSpec: rateSpec() }
    const refuse = (body: object, params: object) => expectRefused(svc, () => createPlan(body), 400, 'malformedRequest', params)
    await refuse({ ...good, family: undefined }, { field: 'family', reason: 'limit.plan.familyRequired' })
    await refuse({ ...good, name: '  ' }, { field: 'name', reason: 'limit.plan.nameRequired' })
    await refuse({ ...good, initialRuleSpec: undefined }, { field: 'initialRuleSpec', reason: 'limit.plan.ruleSpecRequired' })
    await refuse({ ...good, initialRuleSpec: aiSpec() }, { field: 'initialRuleSpec', reason: 'limit.plan.ruleSpecFamilyMismatch' })
    await refuse({ ...good, initialRuleSpec: { ...rateSpec(), ...aiSpec() } }, { field: 'initialRuleSpec', reason: 'limit.plan.ruleSpecFamilyMismatch' })
    await refuse({ ...good, family: 'AI_TOKEN_BUDGET' }, { field: 'initialRuleSpec', reason: 'limit.plan.ruleSpecFamilyMismatch' })
    await refuse({ ...good, initialRuleSpec: { requestRate: { windows: [] } } }, { field: 'initialRuleSpec.requestRate.windows' })
    await refuse({ ...good, initialRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 0, interval: 'ONE_MINUTE' }] } } }, { field: 'initialRuleSpec.requestRate.windows[0].permittedMessageCount' })
    await refuse({ ...good, initialRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 1, interval: 'ONE_WEEK' }] } } }, { field: 'initialRuleSpec.requestRate.windows[0].interval' })
    await refuse({ ...good, initialRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 1 }] } } }, { field: 'initialRuleSpec.requestRate.windows[0].interval' })
    await refuse({ ...good, initialRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 1, interval: 'ONE_DAY', periodLength: 0 }] } } }, { field: 'initialRuleSpec.requestRate.windows[0].periodLength' })
    await refuse({ ...good, family: 'AI_TOKEN_BUDGET', initialRuleSpec: { aiBudget: { hardCapPercent: 0 } } }, { field: 'initialRuleSpec.aiBudget.hardCapPercent' })
    await refuse({ ...good, family: 'FLOOD' }, { field: 'family' })
    await refuse({ ...good, lifecycle: 'PUBLISHED' }, { field: 'lifecycle' })
  })

  it('refuses a second plan of the same family and name in the scope; the other family mints another key', async () => {
    await newPlan({ name: 'Silver' })
    await expectRefused(svc, () => createPlan({ family: 'REQUEST_RATE', name: 'Silver', initialRuleSpec: rateSpec() }), 409, 'lifecycleConflict', { reason: 'limit.plan.nameAlreadyExists' })
    const ai = await newPlan({ name: 'Silver' }, 'AI_TOKEN_BUDGET')
    expect(ai.planKey).toBe('silver-2')
    // another project is another scope
    const other = await createPlan({ family: 'REQUEST_RATE', name: 'Silver', initialRuleSpec: rateSpec() }, 'erin', key(), '/apiops/projects/other/limit-plans')
    expect(other.status).toBe(201)
    expect(other.body.planKey).toBe('silver')
  })
})

describe('Idempotency-Key on create', () => {
  const body = () => ({ family: 'REQUEST_RATE', name: `Idem ${++seq}`, initialRuleSpec: rateSpec() })

  it('requires the header (missing or blank)', async () => {
    await expectRefused(svc, () => call('POST', P, 'alice', body()), 400, 'idempotencyKeyRequired')
    await expectRefused(svc, () => createPlan(body(), 'alice', '   '), 400, 'idempotencyKeyRequired')
  })

  it('replays after completion as idempotencyReplayExpired naming the plan, and refuses the key with another body', async () => {
    const k = key()
    const b = body()
    const first = await createPlan(b, 'alice', k)
    expect(first.status).toBe(201)
    await expectRefused(svc, () => createPlan(b, 'alice', k), 409, 'idempotencyReplayExpired', { resource: first.body.planKey })
    await expectRefused(svc, () => createPlan({ ...b, description: 'other' }, 'alice', k), 409, 'idempotencyKeyReused')
    // the key is claimed per scope: the platform catalog is another scope
    expect((await createPlan(body(), 'root', k, '/apiops/projects/admin/limit-plans')).status).toBe(201)
  })

  it('answers idempotencyInProgress while a claim with the same body is held', async () => {
    const k = key()
    const b = body()
    const project = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
    await svc.deps.prisma.idempotencyClaim.create({ data: { scope: project.id, operation: 'limitPlan.create', key: k, bodyHash: canonicalHash(b) } })
    await expectRefused(svc, () => createPlan(b, 'alice', k), 409, 'idempotencyInProgress')
  })

  it('releases the claim of a failed call, so the same key works again', async () => {
    const k = key()
    const b = body()
    await expectRefused(svc, () => createPlan({ ...b, initialRuleSpec: undefined }, 'alice', k), 400, 'malformedRequest', { reason: 'limit.plan.ruleSpecRequired' })
    const again = await createPlan(b, 'alice', k)
    expect(again.status).toBe(201)
  })

  it('twenty concurrent creates with one key make exactly one plan', async () => {
    const k = key()
    const b = body()
    const results = await Promise.all(Array.from({ length: 20 }, () => createPlan(b, 'alice', k)))
    const created = results.filter((r) => r.status === 201)
    expect(created).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409)
      expect(['idempotencyInProgress', 'idempotencyReplayExpired']).toContain(r.body.errorKey)
    }
    expect(await svc.deps.prisma.limitPlan.count({ where: { name: b.name } })).toBe(1)
  })
})

describe('update and delete', () => {
  it('updates name, nameTr, description and replaces labels with the current version', async () => {
    const plan = await newPlan({ labels: ['x', 'y'] })
    const res = await call('PUT', `${P}/${plan.planKey}`, 'alice', { name: 'Renamed plan', labels: ['z'], version: 1 })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ planKey: plan.planKey, name: 'Renamed plan', labels: ['z'], nameTr: null, description: null, version: 2 })
  })

  it('refuses an update without version (staleVersion), with another version (versionConflict), without name, or to a taken name', async () => {
    const plan = await newPlan()
    const taken = await newPlan()
    const url = `${P}/${plan.planKey}`
    await expectRefused(svc, () => call('PUT', url, 'alice', { name: 'X' }), 409, 'lifecycleConflict', { reason: 'limit.plan.staleVersion' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { name: 'X', version: 7 }), 409, 'versionConflict', { entity: 'limitPlan', expected: 7, current: 1 })
    await expectRefused(svc, () => call('PUT', url, 'alice', { version: 1 }), 400, 'malformedRequest', { field: 'name', reason: 'limit.plan.nameRequired' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { name: taken.name, version: 1 }), 409, 'lifecycleConflict', { reason: 'limit.plan.nameAlreadyExists' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { name: 'X', version: 1, family: 'AI_TOKEN_BUDGET' }), 400, 'malformedRequest', { field: 'family' })
    await expectRefused(svc, () => call('PUT', `${P}/no-such-plan`, 'alice', { name: 'X', version: 1 }), 404, 'resourceNotFound', { plan: 'no-such-plan', reason: 'limit.plan.notFound' })
  })

  it('deletes a never-published plan (204) and refuses a published one', async () => {
    const draft = await newPlan()
    const res = await call('DELETE', `${P}/${draft.planKey}`, 'alice')
    expect(res.status).toBe(204)
    expect(res.body).toBeUndefined()
    expect(await svc.deps.prisma.limitPlanRevision.count({ where: { plan: { planKey: draft.planKey } } })).toBe(0)
    const published = await publishedPlan()
    await expectRefused(svc, () => call('DELETE', `${P}/${published.planKey}`, 'alice'), 409, 'lifecycleConflict', { reason: 'limit.plan.notDeletable', cause: 'published' })
    await expectRefused(svc, () => call('DELETE', `${P}/${draft.planKey}`, 'alice'), 404, 'resourceNotFound', { plan: draft.planKey })
  })
})

describe('revisions', () => {
  it('publishes, opens, replaces and publishes again: the previous revision is SUPERSEDED', async () => {
    const plan = await newPlan()
    const url = `${P}/${plan.planKey}`
    await expectRefused(svc, () => call('POST', `${url}/draft-revisions`, 'alice', { ruleSpec: rateSpec(2) }), 409, 'lifecycleConflict', { reason: 'limit.plan.draftAlreadyExists' })

    const published = await call('POST', `${url}/revisions/1/actions/publish`, 'alice', { changeReason: 'first' })
    expect(published.status).toBe(200)
    expect(published.body).toMatchObject({ revision: 1, status: 'PUBLISHED', changeReason: 'first', publishedBy: 'alice', publishedAt: expect.any(String) })
    expect((await call('GET', url, 'alice')).body).toMatchObject({ lifecycle: 'PUBLISHED', currentPublishedRevision: 1, version: 2 })
    await expectRefused(svc, () => call('GET', `${url}/draft`, 'alice'), 404, 'resourceNotFound', { reason: 'limit.plan.revisionNotFound' })
    await expectRefused(svc, () => call('PUT', `${url}/draft-revisions/1`, 'alice', { ruleSpec: rateSpec(3) }), 409, 'lifecycleConflict', { reason: 'limit.plan.revisionNotDraft', revision: 1 })
    await expectRefused(svc, () => call('POST', `${url}/revisions/1/actions/publish`, 'alice', {}), 409, 'lifecycleConflict', { reason: 'limit.plan.revisionNotDraft' })

    const opened = await call('POST', `${url}/draft-revisions`, 'alice', { ruleSpec: rateSpec(20), changeReason: 'more' })
    expect(opened.status).toBe(201)
    expect(opened.headers.get('location')).toBe(`${url}/revisions/2`)
    expect(opened.body).toMatchObject({ revision: 2, status: 'DRAFT', ruleSpec: rateSpec(20), changeReason: 'more' })
    await expectRefused(svc, () => call('POST', `${url}/draft-revisions`, 'alice', { ruleSpec: rateSpec(21) }), 409, 'lifecycleConflict', { reason: 'limit.plan.draftAlreadyExists', revision: 2 })
    await expectRefused(svc, () => call('PUT', `${url}/draft-revisions/2`, 'alice', { ruleSpec: aiSpec() }), 400, 'malformedRequest', { field: 'ruleSpec', reason: 'limit.plan.ruleSpecFamilyMismatch' })
    await expectRefused(svc, () => call('PUT', `${url}/draft-revisions/2`, 'alice', {}), 400, 'malformedRequest', { field: 'ruleSpec', reason: 'limit.plan.ruleSpecRequired' })
    await expectRefused(svc, () => call('PUT', `${url}/draft-revisions/9`, 'alice', { ruleSpec: rateSpec() }), 404, 'resourceNotFound', { reason: 'limit.plan.revisionNotFound', revision: 9 })

    const replaced = await call('PUT', `${url}/draft-revisions/2`, 'alice', { ruleSpec: rateSpec(30) })
    expect(replaced.body).toMatchObject({ revision: 2, status: 'DRAFT', ruleSpec: rateSpec(30), changeReason: 'more' })
    const second = await call('POST', `${url}/revisions/2/actions/publish`, 'alice')
    expect(second.body).toMatchObject({ revision: 2, status: 'PUBLISHED' })
    const all = (await call('GET', `${url}/revisions`, 'carol')).body
    expect(all.map((r: any) => [r.revision, r.status])).toEqual([[1, 'SUPERSEDED'], [2, 'PUBLISHED']])
    expect((await call('GET', `${url}/published`, 'carol')).body).toMatchObject({ revision: 2, ruleSpec: rateSpec(30) })
    expect((await call('GET', url, 'alice')).body).toMatchObject({ currentPublishedRevision: 2, version: 3 })
  })

  it('answers 404 for unknown revisions and revision numbers that are not numbers', async () => {
    const plan = await newPlan()
    await expectRefused(svc, () => call('GET', `${P}/${plan.planKey}/revisions/5`, 'alice'), 404, 'resourceNotFound', { plan: plan.planKey, revision: 5, reason: 'limit.plan.revisionNotFound' })
    await expectRefused(svc, () => call('GET', `${P}/${plan.planKey}/revisions/abc`, 'alice'), 404, 'resourceNotFound', { reason: 'limit.plan.revisionNotFound' })
    await expectRefused(svc, () => call('GET', `${P}/nope/revisions`, 'alice'), 404, 'resourceNotFound', { plan: 'nope', reason: 'limit.plan.notFound' })
  })

  it('retires a published plan and refuses retiring a never-published one', async () => {
    const draft = await newPlan()
    await expectRefused(svc, () => call('POST', `${P}/${draft.planKey}/actions/retire`, 'alice'), 409, 'lifecycleConflict', { reason: 'limit.plan.notPublished' })
    const plan = await publishedPlan()
    const draft2 = await call('POST', `${P}/${plan.planKey}/draft-revisions`, 'alice', { ruleSpec: rateSpec(3) })
    expect(draft2.status).toBe(201)
    const retired = await call('POST', `${P}/${plan.planKey}/actions/retire`, 'alice')
    expect(retired.status).toBe(200)
    expect(retired.body).toMatchObject({ lifecycle: 'RETIRED', retiredBy: 'alice', retiredAt: expect.any(String), version: 3 })
    expect((await call('POST', `${P}/${plan.planKey}/actions/retire`, 'alice')).body).toEqual(retired.body)
    await expectRefused(svc, () => call('POST', `${P}/${plan.planKey}/revisions/2/actions/publish`, 'alice'), 409, 'lifecycleConflict', { reason: 'limit.plan.publishConflict', revision: 2 })
    const other = await publishedPlan()
    await call('POST', `${P}/${other.planKey}/actions/retire`, 'alice')
    await expectRefused(svc, () => call('POST', `${P}/${other.planKey}/draft-revisions`, 'alice', { ruleSpec: rateSpec() }), 409, 'lifecycleConflict', { reason: 'limit.plan.retired' })
  })

  it('publishing recompiles and pushes every ACTIVE assignment that references the plan', async () => {
    const plan = await publishedPlan()
    const made = await call('POST', '/apiops/projects/payments/limit-assignments', 'alice', {
      subject: { type: 'CONSUMER', key: 'mobile-app' }, content: { family: 'REQUEST_RATE', planKeys: [plan.planKey], target: { type: 'API_PROXY', apiProxyName: 'billing-api' } }, status: 'ACTIVE',
    }, { 'idempotency-key': key() })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    worker.received.length = 0
    await call('POST', `${P}/${plan.planKey}/draft-revisions`, 'alice', { ruleSpec: rateSpec(77) })
    expect(worker.received).toEqual([])
    await call('POST', `${P}/${plan.planKey}/revisions/2/actions/publish`, 'alice')
    expect(worker.received).toEqual([expect.objectContaining({
      action: 'DEPLOY', kind: 'LIMIT_ASSIGNMENT', name: made.body.bindingKey, revision: 2,
      config: expect.objectContaining({ rules: [{ planKey: plan.planKey, revision: 2, ruleSpec: rateSpec(77) }] }),
    })])
    // the referencing assignment keeps the plan from being deleted even once it is ended
    await call('POST', `/apiops/projects/payments/limit-assignments/${made.body.bindingKey}/actions/end`, 'alice', {})
    await expectRefused(svc, () => call('DELETE', `${P}/${plan.planKey}`, 'alice'), 409, 'lifecycleConflict', { reason: 'limit.plan.notDeletable' })
  })
})

describe('list', () => {
  it('pages by name with the planKey tie-break, filters by family and sorts by family or lifecycle', async () => {
    for (const name of ['Zeta sort', 'Alpha sort', 'Mid sort']) await newPlan({ name })
    const res = await call('GET', `${P}?size=200`, 'carol')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', page: 0, size: 200, sort: ['name,asc'] })
    const names: string[] = res.body.items.map((p: any) => p.name)
    expect(names.filter((n) => n.endsWith(' sort'))).toEqual(['Alpha sort', 'Mid sort', 'Zeta sort'])
    expect(res.body.totalElements).toBe(res.body.items.length)
    const ai = await call('GET', `${P}?family=AI_TOKEN_BUDGET&size=200`, 'carol')
    expect(ai.body.items.length).toBeGreaterThan(0)
    expect(ai.body.items.every((p: any) => p.family === 'AI_TOKEN_BUDGET')).toBe(true)
    const byFamily = await call('GET', `${P}?sort=family,desc&size=1&page=1`, 'carol')
    expect(byFamily.body).toMatchObject({ page: 1, size: 1, sort: ['family,desc'], totalPages: res.body.totalElements })
    expect((await call('GET', `${P}?sort=lifecycle,asc`, 'carol')).status).toBe(200)
    await expectRefused(svc, () => call('GET', `${P}?sort=version,asc`, 'carol'), 400, 'unsupportedSortField', { supported: ['name', 'family', 'lifecycle'] })
    await expectRefused(svc, () => call('GET', `${P}?family=OTHER`, 'carol'), 400, 'malformedRequest', { field: 'family' })
  })

  it('shows platform plans read-only with includePlatform and hides subscription-managed plans unless includeManaged', async () => {
    const platform = await createPlan({ family: 'REQUEST_RATE', name: 'Platform default', initialRuleSpec: rateSpec() }, 'root', key(), '/apiops/projects/admin/limit-plans')
    expect(platform.status).toBe(201)
    expect(platform.headers.get('location')).toBe(`/apiops/projects/admin/limit-plans/${platform.body.planKey}`)
    expect(platform.body.platformScoped).toBe(true)
    const keys = async (q: string) => (await call('GET', `${P}?size=200${q}`, 'carol')).body.items.map((p: any) => p.planKey)
    expect(await keys('')).not.toContain(platform.body.planKey)
    const withPlatform = (await call('GET', `${P}?size=200&includePlatform=true`, 'carol')).body.items
    expect(withPlatform.find((p: any) => p.planKey === platform.body.planKey)).toMatchObject({ platformScoped: true })
    // a project cannot resolve a platform-only key
    await expectRefused(svc, () => call('GET', `${P}/${platform.body.planKey}`, 'alice'), 404, 'resourceNotFound', { plan: platform.body.planKey })

    const managed = await newPlan()
    await svc.deps.prisma.limitPlan.updateMany({ where: { planKey: managed.planKey }, data: { managedBySubscriptionPlanId: 'sp-1', managedBySubscriptionPlanName: 'Gold subscription' } })
    expect(await keys('')).not.toContain(managed.planKey)
    expect(await keys('&includeManaged=true')).toContain(managed.planKey)
    const url = `${P}/${managed.planKey}`
    expect((await call('GET', url, 'alice')).body).toMatchObject({ managedBySubscriptionPlanId: 'sp-1', managedBySubscriptionPlanName: 'Gold subscription' })
    const refusedManaged = (c: () => Promise<any>) => expectRefused(svc, c, 409, 'lifecycleConflict', { reason: 'managedBySubscriptionPlan' })
    await refusedManaged(() => call('PUT', url, 'alice', { name: 'x', version: 1 }))
    await refusedManaged(() => call('DELETE', url, 'alice'))
    await refusedManaged(() => call('POST', `${url}/revisions/1/actions/publish`, 'alice'))
    await refusedManaged(() => call('PUT', `${url}/draft-revisions/1`, 'alice', { ruleSpec: rateSpec() }))
    await refusedManaged(() => call('POST', `${url}/draft-revisions`, 'alice', { ruleSpec: rateSpec() }))
    await refusedManaged(() => call('POST', `${url}/actions/retire`, 'alice'))
  })
})

describe('scope and permissions', () => {
  it('keeps the platform catalog for system administrators and other projects out of reach', async () => {
    await expectRefused(svc, () => call('GET', '/apiops/projects/admin/limit-plans', 'alice'), 404, 'resourceNotFound', { project: 'admin' })
    await expectRefused(svc, () => createPlan({ family: 'REQUEST_RATE', name: 'Nope', initialRuleSpec: rateSpec() }, 'alice', key(), '/apiops/projects/admin/limit-plans'), 404, 'resourceNotFound')
    await expectRefused(svc, () => call('GET', '/apiops/projects/other/limit-plans', 'alice'), 404, 'resourceNotFound', { project: 'other' })
    await expectRefused(svc, () => call('GET', '/apiops/projects/nowhere/limit-plans', 'alice'), 404, 'resourceNotFound', { project: 'nowhere' })
  })

  it('needs IDENTITY or AI_BUDGETS: VIEW reads, MANAGE writes', async () => {
    expect((await call('GET', P, 'carol')).status).toBe(200)
    await expectRefused(svc, () => createPlan({ family: 'REQUEST_RATE', name: 'Carol', initialRuleSpec: rateSpec() }, 'carol'), 403, 'permissionDenied')
    const plan = await newPlan()
    await expectRefused(svc, () => call('POST', `${P}/${plan.planKey}/revisions/1/actions/publish`, 'carol'), 403, 'permissionDenied')
    expect((await createPlan({ family: 'AI_TOKEN_BUDGET', name: `Vera ${++seq}`, initialRuleSpec: aiSpec() }, 'vera')).status).toBe(201)
    const anonymous = await svc.http(P)
    expect(anonymous.status).toBe(401)
  })
})

describe('project deletion', () => {
  it('removes a project with its plans and the assignments that reference them', async () => {
    await svc.deps.prisma.project.create({ data: { name: 'doomed' } })
    const base = '/apiops/projects/doomed/limit-plans'
    const made = await createPlan({ family: 'REQUEST_RATE', name: 'Doomed plan', initialRuleSpec: rateSpec() }, 'root', key(), base)
    await call('POST', `${base}/${made.body.planKey}/revisions/1/actions/publish`, 'root')
    const assignment = await call('POST', '/apiops/projects/doomed/limit-assignments', 'root', { subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', planKeys: [made.body.planKey] } }, { 'idempotency-key': key() })
    expect(assignment.status).toBe(201)
    const res = await svc.graphql('mutation { deleteProject(name: "doomed") }', {}, tokens.root)
    expect(res.body).toEqual({ data: { deleteProject: true } })
    expect(await svc.deps.prisma.limitAssignment.count({ where: { bindingKey: assignment.body.bindingKey } })).toBe(0)
    expect(await svc.deps.prisma.limitPlan.count({ where: { planKey: made.body.planKey, projectId: { not: null }, project: { name: 'doomed' } } })).toBe(0)
  })
})

describe('manager surface /api/limit-plans', () => {
  const M = '/api/limit-plans'
  it('runs the same operations with projectId, publish and retire without the actions segment', async () => {
    const made = await createPlan({ family: 'REQUEST_RATE', name: 'Manager plan', initialRuleSpec: rateSpec() }, 'alice', key(), `${M}?projectId=payments`)
    expect(made.status).toBe(201)
    expect(made.headers.get('location')).toBe(`${M}/manager-plan?projectId=payments`)
    const q = '?projectId=payments'
    expect((await call('GET', `${M}/manager-plan${q}`, 'alice')).body).toEqual(made.body)
    expect((await call('GET', `${M}${q}&size=200`, 'alice')).body.items.map((p: any) => p.planKey)).toContain('manager-plan')
    expect((await call('PUT', `${M}/manager-plan${q}`, 'alice', { name: 'Manager plan', description: 'm', version: 1 })).body).toMatchObject({ description: 'm', version: 2 })
    expect((await call('POST', `${M}/manager-plan/revisions/1/publish${q}`, 'alice', {})).body).toMatchObject({ status: 'PUBLISHED' })
    expect((await call('POST', `${M}/manager-plan/draft-revisions${q}`, 'alice', { ruleSpec: rateSpec(5) })).status).toBe(201)
    expect((await call('GET', `${M}/manager-plan/draft${q}`, 'alice')).body).toMatchObject({ revision: 2 })
    expect((await call('PUT', `${M}/manager-plan/draft-revisions/2${q}`, 'alice', { ruleSpec: rateSpec(6) })).body).toMatchObject({ ruleSpec: rateSpec(6) })
    expect((await call('GET', `${M}/manager-plan/revisions${q}`, 'alice')).body).toHaveLength(2)
    expect((await call('GET', `${M}/manager-plan/revisions/1${q}`, 'alice')).body).toMatchObject({ status: 'PUBLISHED' })
    expect((await call('GET', `${M}/manager-plan/published${q}`, 'alice')).body).toMatchObject({ revision: 1 })
    expect((await call('POST', `${M}/manager-plan/retire${q}`, 'alice')).body).toMatchObject({ lifecycle: 'RETIRED' })
    const gone = await createPlan({ family: 'REQUEST_RATE', name: 'Manager gone', initialRuleSpec: rateSpec() }, 'alice', key(), `${M}${q}`)
    expect((await call('DELETE', `${M}/${gone.body.planKey}${q}`, 'alice')).status).toBe(204)
  })

  it('addresses the platform catalog without projectId: system administrators only', async () => {
    const before = await limitsSnapshot(svc)
    const refused = await createPlan({ family: 'REQUEST_RATE', name: 'Platform by alice', initialRuleSpec: rateSpec() }, 'alice', key(), M)
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ errorKey: 'permissionDenied', params: { reason: 'systemAdminRequired' } })
    expect(await limitsSnapshot(svc)).toEqual(before)
    const made = await createPlan({ family: 'AI_TOKEN_BUDGET', name: 'Platform AI', initialRuleSpec: aiSpec() }, 'root', key(), M)
    expect(made.status).toBe(201)
    expect(made.headers.get('location')).toBe(`${M}/${made.body.planKey}`)
    expect(made.body.platformScoped).toBe(true)
    expect((await call('GET', `${M}/${made.body.planKey}`, 'root')).status).toBe(200)
    expect((await call('GET', `${M}/${made.body.planKey}`, 'alice')).status).toBe(403)
  })
})
