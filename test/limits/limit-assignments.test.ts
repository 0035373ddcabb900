import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import {
  createAssignmentInTx, endAssignmentInTx, findLiveAssignment, prepareAssignmentContent, resolveSubjectKeys, validateAssignmentContent,
} from '../../src/modules/limits/assignments/service.js'
import { aiSpec, caller, expectRefused, key, limitsBootstrap, limitsSnapshot, rateSpec, USERS } from './limit-plans-helpers.js'

// Limit assignments (spec §2.13, §3.1, §4.8): every subject type, content mode, target type and audience rule,
// every transition and refusal (nothing written on refusal), the Idempotency-Key table, activation pushes, and
// the consumers' and applications' limit-assignments arrays (§4.10).

let svc: TestService
let worker: FakeWorker
let call: ReturnType<typeof caller>
const tokens: Record<string, string> = {}
const A = '/apiops/projects/payments/limit-assignments'
const PLANS = '/apiops/projects/payments/limit-plans'
let ratePlan: string
let aiPlan: string
let seq = 0

const create = (body: object, user = 'alice', idem = key(), base = A) => call('POST', base, user, body, { 'idempotency-key': idem })
async function made(body: object) {
  const res = await create(body)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
/** A body on a fresh target so that scopes never collide between tests. */
function body(extra: { subject?: object; content?: object; audienceRule?: object; status?: string } = {}) {
  const targetKey = `/ep/${++seq}`
  return {
    subject: extra.subject ?? { type: 'CONSUMER', key: 'shop-frontend' },
    content: { family: 'REQUEST_RATE', planKeys: [ratePlan], target: { type: 'API_ENDPOINT', targetKey }, ...extra.content },
    ...(extra.audienceRule ? { audienceRule: extra.audienceRule } : {}),
    ...(extra.status ? { status: extra.status } : {}),
  }
}
async function publishedPlan(family: string, name: string) {
  const res = await call('POST', PLANS, 'alice', { family, name, initialRuleSpec: family === 'REQUEST_RATE' ? rateSpec() : aiSpec() }, { 'idempotency-key': key() })
  expect(res.status).toBe(201)
  expect((await call('POST', `${PLANS}/${res.body.planKey}/revisions/1/actions/publish`, 'alice')).status).toBe(200)
  return res.body.planKey as string
}

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: limitsBootstrap(sampleBootstrap({ dev: [worker.url] })) })
  for (const [u, p] of USERS) tokens[u] = await svc.tokenFor(u, p)
  call = caller(svc, tokens)
  ratePlan = await publishedPlan('REQUEST_RATE', 'Rate plan')
  aiPlan = await publishedPlan('AI_TOKEN_BUDGET', 'AI plan')
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
  it('creates a DRAFT with every default filled in, Location set, and nothing pushed', async () => {
    const b = body()
    const res = await create(b)
    expect(res.status).toBe(201)
    expect(res.headers.get('location')).toBe(`${A}/${res.body.bindingKey}`)
    expect(res.body).toEqual({
      bindingKey: expect.stringMatching(/^lb_/), subject: { type: 'CONSUMER', key: 'shop-frontend' }, family: 'REQUEST_RATE', actorScope: 'ANY',
      target: { type: 'API_ENDPOINT', targetKey: b.content.target.targetKey }, mode: 'PLAN', planKeys: [ratePlan], customRuleSpec: null, audienceRule: null,
      cacheErrorHandlingType: 'FAIL', cacheConnectionTimeoutInSeconds: null, showRateLimitStatisticsInResponseHeader: false, customMessageTemplate: null,
      customMessageContentType: null, customMessageHttpStatusCode: 429, source: 'MANUAL', status: 'DRAFT', validFrom: null, validUntil: null,
      assignedAt: expect.any(String), assignedBy: 'alice', endedAt: null, endedBy: null, operatorOverride: false, version: 1,
    })
    expect((await call('GET', `${A}/${res.body.bindingKey}`, 'carol')).body).toEqual(res.body)
    expect(worker.received).toEqual([])
  })

  it('creates ACTIVE and pushes the compiled limit with the published rule spec to the environments', async () => {
    const b = body({ status: 'ACTIVE', content: { customMessageTemplate: '{"error":"slow down"}', customMessageHttpStatusCode: 503, showRateLimitStatisticsInResponseHeader: true, cacheErrorHandlingType: 'CONTINUE', cacheConnectionTimeoutInSeconds: 3, validFrom: '2030-01-01T00:00:00.000Z', validUntil: '2031-01-01T00:00:00.000Z' } })
    const res = await made(b)
    expect(res).toMatchObject({
      status: 'ACTIVE', customMessageContentType: 'application/json;charset=utf-8', customMessageHttpStatusCode: 503, showRateLimitStatisticsInResponseHeader: true,
      cacheErrorHandlingType: 'CONTINUE', cacheConnectionTimeoutInSeconds: 3, validFrom: '2030-01-01T00:00:00.000Z', validUntil: '2031-01-01T00:00:00.000Z',
    })
    expect(worker.received).toEqual([{
      action: 'DEPLOY', project: 'payments', kind: 'LIMIT_ASSIGNMENT', name: res.bindingKey, revision: 1,
      config: expect.objectContaining({
        bindingKey: res.bindingKey, subject: { type: 'CONSUMER', key: 'shop-frontend' }, family: 'REQUEST_RATE', mode: 'PLAN',
        rules: [{ planKey: ratePlan, revision: 1, ruleSpec: rateSpec() }],
        enforcement: expect.objectContaining({ customMessageHttpStatusCode: 503 }),
      }),
    }])
  })

  it('refuses status ENDED with limit.binding.statusNotCreatable', async () => {
    await expectRefused(svc, () => create(body({ status: 'ENDED' })), 409, 'lifecycleConflict', { reason: 'limit.binding.statusNotCreatable' })
  })

  it('resolves every keyed subject type by its key, and the keyless ones without', async () => {
    const cases: [object, object][] = [
      [{ type: 'CONSUMER', key: 'mobile-app' }, { type: 'CONSUMER', key: 'mobile-app' }],
      [{ type: 'API_CLIENT', key: 'checkout-web-id' }, { type: 'API_CLIENT', key: 'checkout-web-id' }],
      [{ type: 'APPLICATION', key: 'checkout' }, { type: 'APPLICATION', key: 'checkout' }],
      [{ type: 'ORGANIZATION', key: 'acme' }, { type: 'ORGANIZATION', key: 'acme' }],
      [{ type: 'API_PROXY', key: 'orders-api' }, { type: 'API_PROXY', key: 'orders-api' }],
      [{ type: 'PLATFORM' }, { type: 'PLATFORM' }],
      [{ type: 'PROJECT' }, { type: 'PROJECT' }],
    ]
    for (const [subject, view] of cases) expect((await made(body({ subject }))).subject).toEqual(view)
  })

  it('refuses unknown subject keys (404) and keys missing or present against the subject type (400)', async () => {
    for (const [type, k] of [['CONSUMER', 'ghost'], ['API_CLIENT', 'ghost-id'], ['APPLICATION', 'ghost-app'], ['ORGANIZATION', 'ghost-org'], ['API_PROXY', 'ghost-api']]) {
      await expectRefused(svc, () => create(body({ subject: { type, key: k } })), 404, 'resourceNotFound', { subjectType: type, subject: k, missingCount: 1 })
    }
    await expectRefused(svc, () => create(body({ subject: { type: 'CONSUMER' } })), 400, 'malformedRequest', { field: 'subject.key' })
    await expectRefused(svc, () => create(body({ subject: { type: 'PROJECT', key: 'payments' } })), 400, 'malformedRequest', { field: 'subject.key' })
    await expectRefused(svc, () => create(body({ subject: { type: 'TENANT' } })), 400, 'malformedRequest', { field: 'subject.type' })
    await expectRefused(svc, () => create({ content: body().content }), 400, 'malformedRequest', { field: 'subject' })
    // an API client of another project is not found here
    await expectRefused(svc, () => create(body({ subject: { type: 'CONSUMER', key: 'ldap-synced-nope' } })), 404, 'resourceNotFound')
  })

  it('checks actorScope against the subject type', async () => {
    expect((await made(body({ subject: { type: 'PROJECT' }, content: { actorScope: 'ANONYMOUS' } }))).actorScope).toBe('ANONYMOUS')
    expect((await made(body({ content: { actorScope: 'AUTHENTICATED' } }))).actorScope).toBe('AUTHENTICATED')
    await expectRefused(svc, () => create(body({ content: { actorScope: 'ANONYMOUS' } })), 400, 'malformedRequest', { field: 'content.actorScope', allowed: ['ANY', 'AUTHENTICATED'] })
  })
})

describe('content modes', () => {
  it('accepts CUSTOM with its rule spec, INHERIT and OFF, and infers PLAN from planKeys', async () => {
    const custom = await made(body({ content: { mode: 'CUSTOM', planKeys: undefined, customRuleSpec: rateSpec(3, { overflowAction: 'COUNT_ONLY' }) } }))
    expect(custom).toMatchObject({ mode: 'CUSTOM', planKeys: [], customRuleSpec: rateSpec(3, { overflowAction: 'COUNT_ONLY' }) })
    expect(await made(body({ content: { mode: 'INHERIT', planKeys: undefined } }))).toMatchObject({ mode: 'INHERIT', planKeys: [], customRuleSpec: null })
    expect(await made(body({ content: { mode: 'OFF', planKeys: undefined } }))).toMatchObject({ mode: 'OFF' })
    expect(await made(body({ content: { mode: 'PLAN' } }))).toMatchObject({ mode: 'PLAN', planKeys: [ratePlan] })
  })

  it('refuses required and forbidden fields of each mode', async () => {
    const refuse = (content: object, params: object) => expectRefused(svc, () => create(body({ content })), 400, 'malformedRequest', params)
    await refuse({ mode: 'CUSTOM', planKeys: undefined }, { field: 'content.customRuleSpec', reason: 'limit.plan.ruleSpecRequired' })
    await refuse({ mode: 'CUSTOM', planKeys: undefined, customRuleSpec: aiSpec() }, { field: 'content.customRuleSpec', reason: 'limit.plan.ruleSpecFamilyMismatch' })
    await refuse({ mode: 'CUSTOM', customRuleSpec: rateSpec() }, { field: 'content.planKeys' })
    await refuse({ mode: 'PLAN', planKeys: [] }, { field: 'content.planKeys' })
    await refuse({ planKeys: [ratePlan, ratePlan] }, { field: 'content.planKeys' })
    await refuse({ mode: 'INHERIT' }, { field: 'content.planKeys' })
    await refuse({ mode: 'OFF', planKeys: undefined, customRuleSpec: rateSpec() }, { field: 'content.customRuleSpec' })
    await refuse({ planKeys: undefined }, { field: 'content.mode' })
    await refuse({ family: undefined }, { field: 'content.family' })
    await refuse({ family: 'AI_TOKEN_BUDGET', planKeys: [aiPlan], customMessageTemplate: 'x' }, { field: 'content.customMessageTemplate' })
    await refuse({ family: 'AI_TOKEN_BUDGET', planKeys: [aiPlan], cacheErrorHandlingType: 'FAIL' }, { field: 'content.cacheErrorHandlingType' })
    await refuse({ customMessageHttpStatusCode: 200 }, { field: 'content.customMessageHttpStatusCode' })
    await refuse({ validFrom: '2031-01-01T00:00:00Z', validUntil: '2030-01-01T00:00:00Z' }, { field: 'content.validUntil' })
    await refuse({ validFrom: 'tomorrow' }, { field: 'content.validFrom' })
    await refuse({ colour: 'red' }, { field: 'content.colour' })
  })

  it('leaves the REQUEST_RATE-only fields null for AI_TOKEN_BUDGET', async () => {
    const ai = await made(body({ content: { family: 'AI_TOKEN_BUDGET', planKeys: [aiPlan], target: { type: 'AI_MODEL', targetKey: 'gpt-x' } } }))
    expect(ai).toMatchObject({
      family: 'AI_TOKEN_BUDGET', target: { type: 'AI_MODEL', targetKey: 'gpt-x' }, cacheErrorHandlingType: null, showRateLimitStatisticsInResponseHeader: null,
      customMessageHttpStatusCode: null, customMessageContentType: null,
    })
  })

  it('refuses AI_TOKEN_BUDGET content while the licence lacks the AI gateway module, and writes nothing', async () => {
    const setLicense = (modules: string[]) => svc.http('/api/installation-license', {
      method: 'PUT', headers: { authorization: `Bearer ${tokens.root}`, 'content-type': 'application/json' }, body: JSON.stringify({ modules }),
    })
    expect((await setLicense(['API_GATEWAY'])).status).toBe(200)
    try {
      const before = await svc.deps.prisma.limitAssignment.count()
      const aiBody = body({ content: { family: 'AI_TOKEN_BUDGET', planKeys: [aiPlan], target: { type: 'AI_MODEL', targetKey: 'gpt-licence' } } })
      await expectRefused(svc, () => create(aiBody), 403, 'permissionDenied', { reason: 'license.moduleRequired', module: 'AI_GATEWAY' })
      expect(await svc.deps.prisma.limitAssignment.count()).toBe(before)
      // request-rate content needs no AI licence
      await made(body())
    } finally {
      expect((await setLicense(['API_GATEWAY', 'AI_GATEWAY', 'API_PORTAL', 'ANALYTICS'])).status).toBe(200)
    }
  })

  it('resolves plan keys: unknown 404 params.plan, another family 400, retired and unpublished 409', async () => {
    await expectRefused(svc, () => create(body({ content: { planKeys: ['no-such-plan'] } })), 404, 'resourceNotFound', { plan: 'no-such-plan' })
    await expectRefused(svc, () => create(body({ content: { planKeys: [aiPlan] } })), 400, 'malformedRequest', { field: 'content.planKeys', plan: aiPlan })
    const draft = await call('POST', PLANS, 'alice', { family: 'REQUEST_RATE', name: 'Unpublished', initialRuleSpec: rateSpec() }, { 'idempotency-key': key() })
    await expectRefused(svc, () => create(body({ content: { planKeys: [draft.body.planKey] } })), 409, 'lifecycleConflict', { reason: 'limit.binding.planNotPublished', plan: draft.body.planKey })
    const retired = await publishedPlan('REQUEST_RATE', 'To retire')
    const before = await made(body({ content: { planKeys: [retired] }, status: 'ACTIVE' }))
    await call('POST', `${PLANS}/${retired}/actions/retire`, 'alice')
    await expectRefused(svc, () => create(body({ content: { planKeys: [retired] } })), 409, 'lifecycleConflict', { reason: 'limit.binding.planRetired', plan: retired })
    // existing assignments keep applying
    expect((await call('GET', `${A}/${before.bindingKey}`, 'alice')).body.status).toBe('ACTIVE')
  })

  it('cannot resolve a platform-only plan key from a project', async () => {
    const res = await call('POST', '/apiops/projects/admin/limit-plans', 'root', { family: 'REQUEST_RATE', name: 'Platform shared', initialRuleSpec: rateSpec(7) }, { 'idempotency-key': key() })
    await call('POST', `/apiops/projects/admin/limit-plans/${res.body.planKey}/revisions/1/actions/publish`, 'root')
    await expectRefused(svc, () => create(body({ content: { planKeys: [res.body.planKey] } })), 404, 'resourceNotFound', { plan: res.body.planKey })
  })
})

describe('targets', () => {
  it('accepts every target type with its fields', async () => {
    const targets = [
      { type: 'ALL' },
      { type: 'API_PROXY', apiProxyName: 'orders-api', httpMethods: ['GET', 'POST'] },
      { type: 'API_PROXY_ENV', apiProxyName: 'orders-api', environmentName: 'dev', httpMethods: [] },
      { type: 'API_PROXY_GROUP', apiProxyGroupName: 'retail' },
      { type: 'API_PROXY_GROUP_ENV', apiProxyGroupName: 'retail', environmentName: 'prod' },
      { type: 'API_ENDPOINT', targetKey: 'GET /orders/{id}' },
    ]
    for (const target of targets) {
      const res = await made({ subject: { type: 'APPLICATION', key: 'checkout' }, content: { family: 'REQUEST_RATE', planKeys: [ratePlan], target } })
      expect(res.target).toEqual(target)
    }
    expect((await made({ subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', planKeys: [ratePlan] } })).target).toEqual({ type: 'ALL' })
    const provider = await made({ subject: { type: 'PROJECT' }, content: { family: 'AI_TOKEN_BUDGET', planKeys: [aiPlan], target: { type: 'AI_PROVIDER', targetKey: 'openai-main' } } })
    expect(provider.target).toEqual({ type: 'AI_PROVIDER', targetKey: 'openai-main' })
  })

  it('refuses missing, forbidden and unknown target references and the method axis outside proxy targets', async () => {
    const refuse = (target: object, status: number, errorKey: string, params: object) =>
      expectRefused(svc, () => create({ subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', planKeys: [ratePlan], target } }), status, errorKey, params)
    await refuse({ type: 'ALL', httpMethods: ['GET'] }, 400, 'malformedRequest', { field: 'content.target.httpMethods', reason: 'limit.binding.methodAxisNotAllowed' })
    await refuse({ type: 'API_PROXY_GROUP', apiProxyGroupName: 'retail', httpMethods: ['GET'] }, 400, 'malformedRequest', { reason: 'limit.binding.methodAxisNotAllowed' })
    await refuse({ type: 'API_ENDPOINT', targetKey: 'x', httpMethods: ['GET'] }, 400, 'malformedRequest', { reason: 'limit.binding.methodAxisNotAllowed' })
    await refuse({ type: 'API_PROXY' }, 400, 'malformedRequest', { field: 'content.target.apiProxyName' })
    await refuse({ type: 'API_PROXY_ENV', apiProxyName: 'orders-api' }, 400, 'malformedRequest', { field: 'content.target.environmentName' })
    await refuse({ type: 'API_PROXY_GROUP' }, 400, 'malformedRequest', { field: 'content.target.apiProxyGroupName' })
    await refuse({ type: 'ALL', apiProxyName: 'orders-api' }, 400, 'malformedRequest', { field: 'content.target.apiProxyName' })
    await refuse({ type: 'API_ENDPOINT' }, 400, 'malformedRequest', { field: 'content.target.targetKey' })
    await refuse({ type: 'AI_MODEL', targetKey: 'm' }, 400, 'malformedRequest', { field: 'content.target.type' })
    await refuse({ type: 'API_PROXY', apiProxyName: 'orders-api', httpMethods: ['FETCH'] }, 400, 'malformedRequest', { field: 'content.target.httpMethods[0]' })
    await refuse({ type: 'API_PROXY', apiProxyName: 'ghost-api' }, 404, 'resourceNotFound', { apiProxy: 'ghost-api' })
    await refuse({ type: 'API_PROXY_GROUP', apiProxyGroupName: 'ghost-group' }, 404, 'resourceNotFound', { apiProxyGroup: 'ghost-group' })
    await refuse({ type: 'API_PROXY_ENV', apiProxyName: 'orders-api', environmentName: 'staging' }, 404, 'resourceNotFound', { environment: 'staging' })
  })
})

describe('audience rules', () => {
  const rule = { operator: 'EQ', value: 'gold' }
  it('accepts an AUDIENCE_RULE assignment with its defaults, and every shape', async () => {
    const res = await made(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: rule }))
    expect(res.subject).toEqual({ type: 'AUDIENCE_RULE' })
    expect(res.audienceRule).toEqual({ identitySource: 'AUTH_RESOLVED', variableId: null, operator: 'EQ', value: 'gold', outOfTargetAction: 'BLOCK', generalQuotaMode: null, generalQuotaWindows: null })
    const general = await made(body({
      subject: { type: 'AUDIENCE_RULE' },
      audienceRule: { identitySource: 'VARIABLE', variableId: 'tier', operator: 'IN', value: ['gold', 'silver'], outOfTargetAction: 'GENERAL_QUOTA', generalQuotaWindows: [{ permittedMessageCount: 10, interval: 'ONE_MINUTE' }] },
    }))
    expect(general.audienceRule).toMatchObject({ generalQuotaMode: 'TOTAL', generalQuotaWindows: [{ permittedMessageCount: 10, interval: 'ONE_MINUTE' }] })
    expect((await made(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { ...rule, outOfTargetAction: 'NONE' } }))).audienceRule.outOfTargetAction).toBe('NONE')
  })

  it('refuses a missing or misplaced rule, broken shapes and another family', async () => {
    const shape = (b: object, field: string) => expectRefused(svc, () => create(b), 400, 'malformedRequest', { field, reason: 'limit.binding.audienceRuleShape' })
    await shape(body({ subject: { type: 'AUDIENCE_RULE' } }), 'audienceRule')
    await shape(body({ audienceRule: rule }), 'audienceRule')
    await shape(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { value: 'x' } }), 'audienceRule.operator')
    await shape(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { operator: 'EQ' } }), 'audienceRule.value')
    await shape(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { ...rule, identitySource: 'VARIABLE' } }), 'audienceRule.variableId')
    await shape(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { ...rule, outOfTargetAction: 'GENERAL_QUOTA' } }), 'audienceRule.generalQuotaWindows')
    await shape(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { ...rule, generalQuotaMode: 'PER_IDENTITY' } }), 'audienceRule.generalQuotaMode')
    await shape(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { operator: 'IN', value: 'gold' } }), 'audienceRule.value')
    await shape(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { ...rule, outOfTargetAction: 'GENERAL_QUOTA', generalQuotaWindows: [{ interval: 'ONE_MINUTE' }] } }), 'audienceRule.generalQuotaWindows[0].permittedMessageCount')
    await expectRefused(svc, () => create(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: rule, content: { family: 'AI_TOKEN_BUDGET', planKeys: [aiPlan] } })), 400, 'malformedRequest', { reason: 'limit.binding.audienceRuleFamily' })
  })
})

describe('scopeAlreadyBound', () => {
  it('refuses a second live assignment on the same subject, family, target and actorScope until the first is ended', async () => {
    const b = body({ status: 'ACTIVE' })
    const first = await made(b)
    await expectRefused(svc, () => create({ ...b, status: 'DRAFT' }), 409, 'lifecycleConflict', { reason: 'limit.binding.scopeAlreadyBound', existingBindingKey: first.bindingKey })
    // another actorScope, another target or another subject is another scope
    await made({ ...b, content: { ...b.content, actorScope: 'AUTHENTICATED' } })
    await made({ ...b, subject: { type: 'CONSUMER', key: 'mobile-app' } })
    await call('POST', `${A}/${first.bindingKey}/actions/end`, 'alice', {})
    expect((await create(b)).status).toBe(201)
  })
})

describe('update', () => {
  it('replaces the editable content and bumps the version; an ACTIVE row is pushed again', async () => {
    const b = body({ status: 'ACTIVE' })
    const row = await made(b)
    worker.received.length = 0
    const res = await call('PUT', `${A}/${row.bindingKey}`, 'alice', { subject: b.subject, content: { ...b.content, mode: 'CUSTOM', planKeys: undefined, customRuleSpec: rateSpec(9), validUntil: '2040-01-01T00:00:00Z' }, version: 1 })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ mode: 'CUSTOM', planKeys: [], customRuleSpec: rateSpec(9), validUntil: '2040-01-01T00:00:00.000Z', version: 2, status: 'ACTIVE' })
    expect(worker.received).toEqual([expect.objectContaining({ action: 'DEPLOY', name: row.bindingKey, revision: 2, config: expect.objectContaining({ rules: [{ planKey: null, revision: null, ruleSpec: rateSpec(9) }] }) })])
    // without version: accepted
    expect((await call('PUT', `${A}/${row.bindingKey}`, 'alice', { subject: b.subject, content: b.content })).body.version).toBe(3)
  })

  it('changes the audience rule of an AUDIENCE_RULE assignment', async () => {
    const b = body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { operator: 'EQ', value: 'a' } })
    const row = await made(b)
    const res = await call('PUT', `${A}/${row.bindingKey}`, 'alice', { ...b, audienceRule: { operator: 'STARTS_WITH', value: 'b' } })
    expect(res.body.audienceRule).toMatchObject({ operator: 'STARTS_WITH', value: 'b' })
  })

  it('refuses a moved-on version, immutable changes, ENDED rows and bad bodies; nothing is written', async () => {
    const b = body()
    const row = await made(b)
    const url = `${A}/${row.bindingKey}`
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, version: 5 }), 409, 'versionConflict', { entity: 'limitAssignment', expected: 5, current: 1 })
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, subject: { type: 'CONSUMER', key: 'mobile-app' } }), 409, 'lifecycleConflict', { reason: 'limit.binding.scopeImmutable' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, bindingKey: 'lb_other' }), 409, 'lifecycleConflict', { reason: 'limit.binding.keyImmutable', field: 'bindingKey' })
    await expectRefused(svc, () => create({ ...body(), bindingKey: 'lb_mine' }), 400, 'malformedRequest', { field: 'bindingKey' })
    // repeating the key it has is allowed
    expect((await call('PUT', url, 'alice', { ...b, bindingKey: row.bindingKey })).status).toBe(200)
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, content: { ...b.content, family: 'AI_TOKEN_BUDGET', planKeys: [aiPlan] } }), 409, 'lifecycleConflict', { reason: 'limit.binding.counterIdentityImmutable', field: 'content.family' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, content: { ...b.content, target: { type: 'ALL' } } }), 409, 'lifecycleConflict', { reason: 'limit.binding.counterIdentityImmutable', field: 'content.target' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, content: { ...b.content, actorScope: 'AUTHENTICATED' } }), 409, 'lifecycleConflict', { reason: 'limit.binding.counterIdentityImmutable', field: 'content.actorScope' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, status: 'ACTIVE' }), 400, 'malformedRequest', { field: 'status' })
    await expectRefused(svc, () => call('PUT', url, 'alice', { ...b, content: { ...b.content, planKeys: ['nope'] } }), 404, 'resourceNotFound', { plan: 'nope' })
    await expectRefused(svc, () => call('PUT', `${A}/lb_nope`, 'alice', b), 404, 'resourceNotFound', { bindingKey: 'lb_nope' })
    const active = await made(body({ status: 'ACTIVE' }))
    await call('POST', `${A}/${active.bindingKey}/actions/end`, 'alice', { reason: 'done' })
    await expectRefused(svc, () => call('PUT', `${A}/${active.bindingKey}`, 'alice', { subject: b.subject, content: b.content }), 409, 'lifecycleConflict', { reason: 'limit.binding.endedIsFinal' })
  })
})

describe('activate and end', () => {
  it('activates a DRAFT (pushed), ends it with the reason recorded (undeployed)', async () => {
    const row = await made(body())
    const activated = await call('POST', `${A}/${row.bindingKey}/actions/activate`, 'alice', { version: 1 })
    expect(activated.status).toBe(200)
    expect(activated.body).toMatchObject({ status: 'ACTIVE', version: 2 })
    expect(worker.received).toEqual([expect.objectContaining({ action: 'DEPLOY', name: row.bindingKey, revision: 2 })])
    worker.received.length = 0
    const ended = await call('POST', `${A}/${row.bindingKey}/actions/end`, 'alice', { version: 2, reason: 'customer downgraded' })
    expect(ended.body).toMatchObject({ status: 'ENDED', endedBy: 'alice', endedAt: expect.any(String), endedReason: 'customer downgraded', version: 3 })
    expect(worker.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', name: row.bindingKey, revision: 3, config: null })])
    // without a body: the default reason
    const other = await made(body({ status: 'ACTIVE' }))
    expect((await call('POST', `${A}/${other.bindingKey}/actions/end`, 'alice')).body.endedReason).toBe('ENDED_BY_OPERATOR')
  })

  it('refuses activate on a non-DRAFT row, end on DRAFT and ENDED rows, and moved-on versions', async () => {
    const draft = await made(body())
    await expectRefused(svc, () => call('POST', `${A}/${draft.bindingKey}/actions/activate`, 'alice', { version: 4 }), 409, 'lifecycleConflict', { reason: 'limit.binding.versionConflict', expected: 4, current: 1 })
    await expectRefused(svc, () => call('POST', `${A}/${draft.bindingKey}/actions/end`, 'alice', {}), 409, 'lifecycleConflict', { reason: 'limit.binding.notActive' })
    const active = await made(body({ status: 'ACTIVE' }))
    await expectRefused(svc, () => call('POST', `${A}/${active.bindingKey}/actions/activate`, 'alice', {}), 409, 'lifecycleConflict', { reason: 'limit.binding.notDraft' })
    await expectRefused(svc, () => call('POST', `${A}/${active.bindingKey}/actions/end`, 'alice', { version: 9 }), 409, 'lifecycleConflict', { reason: 'limit.binding.versionConflict' })
    await call('POST', `${A}/${active.bindingKey}/actions/end`, 'alice', {})
    await expectRefused(svc, () => call('POST', `${A}/${active.bindingKey}/actions/end`, 'alice', {}), 409, 'lifecycleConflict', { reason: 'limit.binding.alreadyEnded' })
    await expectRefused(svc, () => call('POST', `${A}/${active.bindingKey}/actions/activate`, 'alice', {}), 409, 'lifecycleConflict', { reason: 'limit.binding.notDraft' })
    await expectRefused(svc, () => call('POST', `${A}/${draft.bindingKey}/actions/activate`, 'alice', { colour: 1 }), 400, 'malformedRequest', { field: 'colour' })
  })

  it('refuses activating a DRAFT whose plan was retired meanwhile', async () => {
    const plan = await publishedPlan('REQUEST_RATE', `Short lived ${++seq}`)
    const draft = await made(body({ content: { planKeys: [plan] } }))
    await call('POST', `${PLANS}/${plan}/actions/retire`, 'alice')
    await expectRefused(svc, () => call('POST', `${A}/${draft.bindingKey}/actions/activate`, 'alice', {}), 409, 'lifecycleConflict', { reason: 'limit.binding.planRetired' })
  })

  it('keeps an unacknowledged push for the retry outbox and still answers with the saved row', async () => {
    worker.status = 500
    const row = await made(body({ status: 'ACTIVE' }))
    expect(row.status).toBe('ACTIVE')
    const outbox = await svc.deps.prisma.deliveryOutbox.findMany({ where: { subject: { startsWith: `limitAssignment:${row.bindingKey}:` } } })
    expect(outbox.map((o) => o.environmentName)).toEqual(['dev'])
  })
})

describe('validate', () => {
  it('answers 200 with an empty body for an acceptable body and the create refusal otherwise; writes nothing', async () => {
    const before = await limitsSnapshot(svc)
    const ok = await call('POST', `${A}/actions/validate`, 'alice', body())
    expect(ok.status).toBe(200)
    expect(ok.body).toBeUndefined()
    expect(await limitsSnapshot(svc)).toEqual(before)
    await expectRefused(svc, () => call('POST', `${A}/actions/validate`, 'alice', body({ content: { target: { type: 'ALL', httpMethods: ['GET'] } } })), 400, 'malformedRequest', { reason: 'limit.binding.methodAxisNotAllowed' })
    await expectRefused(svc, () => call('POST', `${A}/actions/validate`, 'alice', body({ content: { planKeys: ['nope'] } })), 404, 'resourceNotFound', { plan: 'nope' })
    await expectRefused(svc, () => call('POST', `${A}/actions/validate`, 'alice'), 400, 'malformedRequest', { reason: 'bodyRequired' })
    await expectRefused(svc, () => call('POST', `${A}/actions/validate`, 'carol', body()), 403, 'permissionDenied')
  })
})

describe('Idempotency-Key on create', () => {
  it('requires the header (missing or blank)', async () => {
    await expectRefused(svc, () => call('POST', A, 'alice', body()), 400, 'idempotencyKeyRequired')
    await expectRefused(svc, () => create(body(), 'alice', ''), 400, 'idempotencyKeyRequired')
  })

  it('replays after completion as idempotencyReplayExpired naming the assignment; another body is idempotencyKeyReused', async () => {
    const k = key()
    const b = body()
    const first = await create(b, 'alice', k)
    expect(first.status).toBe(201)
    await expectRefused(svc, () => create(b, 'alice', k), 409, 'idempotencyReplayExpired', { resource: first.body.bindingKey })
    await expectRefused(svc, () => create({ ...b, status: 'ACTIVE' }, 'alice', k), 409, 'idempotencyKeyReused')
  })

  it('answers idempotencyInProgress while the first call is still pushing', async () => {
    worker.delayMs = 2000
    const k = key()
    const b = body({ status: 'ACTIVE' })
    const first = create(b, 'alice', k)
    // the worker has this row's push (not a retried push of an earlier test): the first call is past its claim,
    // its row committed, and waiting for the acknowledgement
    const targetKey = (b.content.target as { targetKey: string }).targetKey
    const pushedNow = async () => {
      const row = await svc.deps.prisma.limitAssignment.findFirst({ where: { targetKey }, select: { bindingKey: true } })
      return row !== null && worker.received.some((m) => m.name === row.bindingKey)
    }
    while (!(await pushedNow())) await new Promise((r) => setTimeout(r, 20))
    const countBefore = await svc.deps.prisma.limitAssignment.count()
    const second = await create(b, 'alice', k)
    expect(second.status).toBe(409)
    expect(second.body).toMatchObject({ errorKey: 'idempotencyInProgress' })
    expect(await svc.deps.prisma.limitAssignment.count()).toBe(countBefore)
    expect((await first).status).toBe(201)
  })

  it('releases the claim of a failed call', async () => {
    const k = key()
    const b = body()
    await expectRefused(svc, () => create({ ...b, content: { ...b.content, planKeys: ['nope'] } }, 'alice', k), 404, 'resourceNotFound')
    expect((await create(b, 'alice', k)).status).toBe(201)
  })

  it('twenty concurrent creates with one key make exactly one assignment', async () => {
    const k = key()
    const b = body()
    const results = await Promise.all(Array.from({ length: 20 }, () => create(b, 'alice', k)))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 201)) expect(['idempotencyInProgress', 'idempotencyReplayExpired']).toContain(r.body.errorKey)
    expect(await svc.deps.prisma.limitAssignment.count({ where: { targetKey: b.content.target.targetKey } })).toBe(1)
  })

  it('claims the key per project: the same key works in another project', async () => {
    const k = key()
    expect((await create(body(), 'alice', k)).status).toBe(201)
    const other = await create({ subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', mode: 'OFF' } }, 'erin', k, '/apiops/projects/other/limit-assignments')
    expect(other.status, JSON.stringify(other.body)).toBe(201)
  })
})

describe('list', () => {
  it('filters by family, status, subjectType and subjectKey, sorts and pages', async () => {
    const audience = await made(body({ subject: { type: 'AUDIENCE_RULE' }, audienceRule: { operator: 'EQ', value: 'listed' } }))
    const all = await call('GET', `${A}?size=200`, 'carol')
    expect(all.body).toMatchObject({ status: 'SUCCESS', page: 0, size: 200, sort: ['assignedAt,desc'] })
    const stamps = all.body.items.map((i: any) => i.assignedAt)
    expect(stamps).toEqual([...stamps].sort().reverse())
    const mobile = await call('GET', `${A}?subjectType=CONSUMER&subjectKey=mobile-app&size=200`, 'carol')
    expect(mobile.body.items.length).toBeGreaterThan(0)
    expect(mobile.body.items.every((i: any) => i.subject.key === 'mobile-app')).toBe(true)
    expect((await call('GET', `${A}?subjectType=AUDIENCE_RULE&subjectKey=${audience.bindingKey}`, 'carol')).body.items.map((i: any) => i.bindingKey)).toEqual([audience.bindingKey])
    expect((await call('GET', `${A}?subjectType=PROJECT&subjectKey=ignored&size=200`, 'carol')).body.items.every((i: any) => i.subject.type === 'PROJECT')).toBe(true)
    expect((await call('GET', `${A}?subjectType=CONSUMER&subjectKey=ghost`, 'carol')).body).toMatchObject({ items: [], totalElements: 0 })
    const ended = await call('GET', `${A}?status=ENDED&family=REQUEST_RATE&size=200`, 'carol')
    expect(ended.body.items.length).toBeGreaterThan(0)
    expect(ended.body.items.every((i: any) => i.status === 'ENDED' && i.family === 'REQUEST_RATE')).toBe(true)
    const page = await call('GET', `${A}?size=2&page=1&sort=status,asc`, 'carol')
    expect(page.body).toMatchObject({ page: 1, size: 2, sort: ['status,asc'], totalElements: all.body.totalElements })
    expect(page.body.items).toHaveLength(2)
    await expectRefused(svc, () => call('GET', `${A}?subjectKey=mobile-app`, 'carol'), 400, 'malformedRequest', { field: 'subjectType', reason: 'subjectKeyRequiresSubjectType' })
    await expectRefused(svc, () => call('GET', `${A}?sort=bindingKey,asc`, 'carol'), 400, 'unsupportedSortField', { supported: ['assignedAt', 'status', 'family'] })
    await expectRefused(svc, () => call('GET', `${A}?status=GONE`, 'carol'), 400, 'malformedRequest', { field: 'status' })
  })
})

describe('scope and permissions', () => {
  it('refuses the admin project, hides other projects and needs IDENTITY or AI_BUDGETS', async () => {
    await expectRefused(svc, () => call('GET', '/apiops/projects/admin/limit-assignments', 'root'), 400, 'malformedRequest', { reason: 'platformScopeNotSupported' })
    await expectRefused(svc, () => create(body(), 'root', key(), '/apiops/projects/admin/limit-assignments'), 400, 'malformedRequest', { reason: 'platformScopeNotSupported' })
    await expectRefused(svc, () => call('GET', '/apiops/projects/other/limit-assignments', 'alice'), 404, 'resourceNotFound', { project: 'other' })
    const row = await made(body())
    await expectRefused(svc, () => call('GET', `/apiops/projects/other/limit-assignments/${row.bindingKey}`, 'erin'), 404, 'resourceNotFound', { bindingKey: row.bindingKey })
    await expectRefused(svc, () => create(body(), 'carol'), 403, 'permissionDenied')
    await expectRefused(svc, () => call('POST', `${A}/${row.bindingKey}/actions/activate`, 'carol', {}), 403, 'permissionDenied')
    expect((await call('GET', A, 'carol')).status).toBe(200)
    // AI_BUDGETS stands in for IDENTITY
    expect((await create(body(), 'vera')).status).toBe(201)
  })
})

describe('consumer and application limit-assignments arrays', () => {
  it('list the subject\'s assignments, ended ones included', async () => {
    const consumer = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'mobile-app' } })
    const app = await svc.deps.prisma.application.findFirstOrThrow({ where: { name: 'checkout' } })
    const ofConsumer = await made(body({ subject: { type: 'CONSUMER', key: 'mobile-app' }, status: 'ACTIVE' }))
    await call('POST', `${A}/${ofConsumer.bindingKey}/actions/end`, 'alice', {})
    const ofApp = await made(body({ subject: { type: 'APPLICATION', key: 'checkout' } }))
    const c = await call('GET', `/apiops/projects/payments/consumers/${consumer.consumerKey}/limit-assignments`, 'carol')
    expect(c.status).toBe(200)
    expect(c.body.find((a: any) => a.bindingKey === ofConsumer.bindingKey)).toMatchObject({ status: 'ENDED', subject: { type: 'CONSUMER', key: 'mobile-app' } })
    expect(c.body.every((a: any) => a.subject.type === 'CONSUMER' && a.subject.key === 'mobile-app')).toBe(true)
    const a = await call('GET', `/apiops/projects/payments/applications/${app.applicationKey}/limit-assignments`, 'carol')
    expect(a.body.map((x: any) => x.bindingKey)).toContain(ofApp.bindingKey)
    expect(a.body.every((x: any) => x.subject.type === 'APPLICATION')).toBe(true)
  })
})

describe('entry points used by bulk runs', () => {
  it('resolve many subject keys at once, create in a caller transaction, find the live row and end it', async () => {
    const db = svc.deps.prisma
    const project = await db.project.findUniqueOrThrow({ where: { name: 'payments' }, select: { id: true, name: true } })
    const found = await resolveSubjectKeys(db, project.id, 'CONSUMER', ['shop-frontend', 'mobile-app', 'ghost', 'mobile-app'])
    expect([...found.keys()].sort()).toEqual(['mobile-app', 'shop-frontend'])
    expect(() => validateAssignmentContent({ family: 'REQUEST_RATE', mode: 'INHERIT' }, { subjectType: 'CONSUMER', bulk: true })).toThrow(/PLAN and CUSTOM/)
    const content = validateAssignmentContent({ family: 'REQUEST_RATE', planKeys: [ratePlan], target: { type: 'API_ENDPOINT', targetKey: `/bulk/${++seq}` } }, { subjectType: 'CONSUMER', bulk: true })
    const prepared = await prepareAssignmentContent(db, project.id, content)
    const subjects = [...found.values()]
    const rows = await db.$transaction((tx) =>
      Promise.all(subjects.map((subject) => createAssignmentInTx(tx, { project, subject, content, prepared, status: 'DRAFT', source: 'BULK', assignedBy: 'alice', bulkRunId: 'run-1' }))),
    )
    expect(rows.map((r) => r.source)).toEqual(['BULK', 'BULK'])
    const live = await findLiveAssignment(db, project.id, subjects[0], content)
    expect(live?.bindingKey).toBe(rows[0].bindingKey)
    await expect(db.$transaction((tx) => createAssignmentInTx(tx, { project, subject: subjects[0], content, prepared, status: 'DRAFT', source: 'BULK', assignedBy: 'alice' })))
      .rejects.toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.binding.scopeAlreadyBound', existingBindingKey: rows[0].bindingKey } })
    const { row, wasActive } = await db.$transaction((tx) => endAssignmentInTx(tx, { id: rows[0].id, endedBy: 'alice', reason: 'BULK_ROLLBACK', allowDraft: true }))
    expect(wasActive).toBe(false)
    expect(row).toMatchObject({ status: 'ENDED', endedReason: 'BULK_ROLLBACK', liveScopeKey: null })
    expect(await findLiveAssignment(db, project.id, subjects[0], content)).toBeNull()
    const viewed = await call('GET', `${A}/${rows[1].bindingKey}`, 'carol')
    expect(viewed.body).toMatchObject({ source: 'BULK', bulkRunId: 'run-1' })
  })
})
