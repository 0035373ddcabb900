import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'
import {
  AiBudgetDocument, AiBudgetEffectiveLimitDocument, AiBudgetHierarchyDocument, AiBudgetScopeRulesDocument, BudgetTargetIdsDocument,
  UpdateAiBudgetDocument,
} from '../generated/graphql.js'

// AI budgets (spec §2.9, §4.5, §7.1): PUT …/ai-budgets/, the effective-limit preview along the chain,
// scope rules and the hierarchy, over REST and GraphQL.

let svc: TestService
let worker: FakeWorker
let root: string
let alice: string // AI_BUDGETS MANAGE
let carol: string // AI_BUDGETS VIEW
let bob: string // no AI_BUDGETS
const ids = {} as Record<string, string>

const DISABLED = {
  enabled: false, tokensPerHour: null, tokensPerMinute: null, tokensPerDay: null, tokensPerMonth: null,
  monthlyBudgetUsd: null, usdPerHour: null, usdPerDay: null, softCapPercents: [], hardCapPercent: 100,
  overflowAction: 'BLOCK', cheaperModelId: null, modelBudgets: [], providerBudgets: [],
}
const entry = (over: Record<string, unknown>) => ({
  tokensPerHour: null, tokensPerDay: null, tokensPerMonth: null, monthlyBudgetUsd: null, usdPerHour: null, usdPerDay: null, overflowAction: 'BLOCK', ...over,
})

/** The sample installation plus what budgets need: AI_BUDGETS grants, a second proxy, credentials in sub-organizations. */
function bootstrap(workerUrl: string) {
  const doc = sampleBootstrap({ dev: [workerUrl] })
  const payments = doc.projects[0] as any
  const grant = (username: string, level: string) => payments.members.find((m: any) => m.username === username).permissions.push({ category: 'AI_BUDGETS', level })
  grant('alice', 'MANAGE')
  grant('carol', 'VIEW')
  payments.apiProxies.push({ name: 'llm-api', groups: [], kind: 'REST' })
  payments.credentials.push(
    { username: 'eu-client', password: 'pw-3', organizationCode: 'acme-eu' },
    { username: 'frozen-client', password: 'pw-4', organizationCode: 'frozen' },
    { username: 'off-client', password: 'pw-5', organizationCode: 'acme', enabled: false },
  )
  ;(doc.projects[1] as any).apiProxies = [{ name: 'foreign-api', groups: [], kind: 'REST' }]
  return doc
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` })
const putBudget = (body: unknown, token = alice, project = 'payments') =>
  svc.http(`/apiops/projects/${project}/ai-budgets/`, {
    method: 'PUT',
    headers: { ...auth(token), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const effective = async (nodeType: string, nodeId: string, token = carol, project = 'payments') =>
  svc.http(`/apiops/projects/${project}/ai-budgets/hierarchy/${nodeType}/${nodeId}/effective-limit/`, { headers: auth(token) })
const limitOf = async (nodeType: string, nodeId: string) => {
  const res = await effective(nodeType, nodeId)
  expect(res.status).toBe(200)
  const body = await jsonOf(res)
  expect(body).toMatchObject({ status: 'SUCCESS', resultCount: 1 })
  return body.resultList[0]
}
const budgetRows = () => svc.deps.prisma.aiBudget.findMany({ orderBy: { id: 'asc' } })
const saved = async (body: unknown) => {
  const res = await putBudget(body)
  expect(res.status, await res.clone().text()).toBe(200)
  return (await jsonOf(res)).resultList[0]
}

async function expectRefused(res: Response, message: RegExp | string) {
  expect(res.status).toBe(400)
  const body = await jsonOf(res)
  expect(body).toEqual({ status: 'FAILURE', resultMessage: expect.any(String) })
  expect(body.resultMessage).toMatch(message)
}

async function rootPost(path: string, body: unknown) {
  const res = await svc.http(path, { method: 'POST', headers: { ...auth(root), 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status, await res.clone().text()).toBe(200)
  return jsonOf(res)
}

/** A consumer's API proxy entitlement: the CREDENTIAL_ALLOWED_API_PROXY binding. */
async function bind(username: string, apiProxy: string) {
  const { body } = await svc.graphql(
    `mutation($input: EntitlementInput!) { createEntitlement(projectName: "payments", input: $input) { id entitlementKey } }`,
    { input: { subjectType: 'CONSUMER', subjectKey: username, targetType: 'API_PROXY', targetRef: apiProxy } },
    root,
  )
  expect(body.errors).toBeUndefined()
  return body.data.createEntitlement.id as string
}

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: bootstrap(worker.url) })
  ;[root, alice, carol, bob] = await Promise.all([
    svc.tokenFor('root', 's3cret-root'), svc.tokenFor('alice', 'alice-pass-1'), svc.tokenFor('carol', 'carol-pass-1'), svc.tokenFor('bob', 'bob-pass-1'),
  ])
  // entity ids come from the GraphQL id fields added for budget targets
  const { data, errors } = await svc.op(BudgetTargetIdsDocument, { projectName: 'payments', apiProxyName: 'orders-api', username: 'eu-client' }, root)
  expect(errors).toBeUndefined()
  ids.project = data!.project.id
  ids.ordersApi = data!.apiProxy.id
  ids.euClient = data!.credential.id
  for (const org of data!.organizations.items) ids[org.code] = org.id
  ids.otherProject = (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'other' } })).id
  ids.foreignApi = (await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'foreign-api' } })).id
  ids.llmApi = (await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'llm-api' } })).id
  ids.shopFrontend = (await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })).id
  ids.frozenClient = (await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'frozen-client' } })).id
  ids.offClient = (await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'off-client' } })).id
  ids.euOnOrders = await bind('eu-client', 'orders-api')
  ids.shopOnLlm = await bind('shop-frontend', 'llm-api')
  ids.frozenOnOrders = await bind('frozen-client', 'orders-api')
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('PUT ai-budgets', () => {
  it('saves a PROJECT budget with every default, answers the resulting budget and redeploys the project', async () => {
    worker.received.length = 0
    const res = await putBudget({ targetType: 'PROJECT', targetId: ids.project, targetProjectId: 'ignored', budget: { enabled: true, tokensPerMonth: 1000000 } })
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', resultCount: 1, deploymentResult: { success: true } })
    expect(body.resultList).toEqual([{
      targetType: 'PROJECT', targetId: ids.project, targetName: 'payments', targetProjectId: ids.project, budgetSource: null,
      budget: { ...DISABLED, enabled: true, tokensPerMonth: 1000000 }, revision: 1, updatedAt: expect.any(String), updatedBy: 'alice',
    }])
    expect(worker.received).toEqual([{
      action: 'DEPLOY', project: 'payments', kind: 'PROJECT', name: 'payments', revision: 1, config: { aiBudget: { ...DISABLED, enabled: true, tokensPerMonth: 1000000 } },
    }])
  })

  it('saves API proxy, organization and binding budgets without a redeploy', async () => {
    worker.received.length = 0
    const proxy = await saved({ targetType: 'API_PROXY', targetId: ids.ordersApi, budget: { enabled: true, tokensPerMonth: 2000000, tokensPerDay: 90000 } })
    expect(proxy).toMatchObject({ targetType: 'API_PROXY', targetName: 'orders-api', targetProjectId: ids.project, budgetSource: null })
    const org = await saved({ targetType: 'CREDENTIAL_ORGANIZATION', targetId: ids['acme-eu'], budget: { enabled: true, tokensPerMonth: 300000, tokensPerMinute: 500 } })
    expect(org).toMatchObject({ targetName: 'Acme EU', budget: { tokensPerMonth: 300000, tokensPerMinute: 500 } })
    const binding = await saved({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.euOnOrders, budget: { enabled: true, tokensPerMonth: 500000 } })
    expect(binding).toMatchObject({ targetName: 'eu-client → orders-api', budgetSource: 'INHERIT', budget: { tokensPerMonth: 500000 } })
    expect(worker.received).toEqual([])
  })

  it('applies budgetSource only to bindings: new ones INHERIT, null keeps, a value sets it', async () => {
    const first = await saved({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.shopOnLlm, budgetSource: 'CREDENTIAL', budget: { enabled: true, tokensPerDay: 100 } })
    expect(first.budgetSource).toBe('CREDENTIAL')
    const kept = await saved({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.shopOnLlm, budgetSource: null, budget: { enabled: true, tokensPerDay: 200 } })
    expect(kept).toMatchObject({ budgetSource: 'CREDENTIAL', revision: 2, budget: { tokensPerDay: 200 } })
    const changed = await saved({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.shopOnLlm, budgetSource: 'ORGANIZATION', budget: { enabled: true, tokensPerDay: 200 } })
    expect(changed.budgetSource).toBe('ORGANIZATION')
    const before = await budgetRows()
    await expectRefused(await putBudget({ targetType: 'API_PROXY', targetId: ids.ordersApi, budgetSource: 'CREDENTIAL', budget: {} }), 'budgetSource: only allowed for target type CREDENTIAL_ALLOWED_API_PROXY')
    await expectRefused(await putBudget({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.shopOnLlm, budgetSource: 'SELF', budget: {} }), 'budgetSource: must be one of CREDENTIAL, ORGANIZATION, INHERIT')
    expect(await budgetRows()).toEqual(before)
  })

  it('keeps override lists when absent or null and wipes them with []', async () => {
    const target = { targetType: 'API_PROXY', targetId: ids.llmApi }
    let b = await saved({ ...target, budget: { enabled: true, modelBudgets: [{ modelId: 'a', tokensPerDay: 1 }, { modelId: 'b', tokensPerMonth: 9 }] } })
    expect(b.budget.modelBudgets).toEqual([entry({ modelId: 'a', tokensPerDay: 1 }), entry({ modelId: 'b', tokensPerMonth: 9 })])
    b = await saved({ ...target, budget: { enabled: true, tokensPerHour: 10 } })
    expect(b.budget).toMatchObject({ tokensPerHour: 10, modelBudgets: [{ modelId: 'a' }, { modelId: 'b' }] })
    b = await saved({ ...target, budget: { enabled: false, modelBudgets: null, providerBudgets: null } })
    expect(b.budget.modelBudgets).toHaveLength(2)
    expect(b.budget.tokensPerHour).toBeNull()
    b = await saved({ ...target, budget: { modelBudgets: [] } })
    expect(b.budget).toEqual(DISABLED)
  })

  it('refuses an empty body and blank or unknown targets; nothing is saved', async () => {
    const before = await budgetRows()
    await expectRefused(await putBudget(undefined), /body is required/i)
    await expectRefused(await putBudget({}), /body is required/i)
    await expectRefused(await putBudget('text'), /JSON/)
    await expectRefused(await putBudget({ targetType: '', targetId: ids.project, budget: {} }), 'targetType: is required')
    await expectRefused(await putBudget({ targetType: '  ', targetId: ids.project, budget: {} }), 'targetType: is required')
    await expectRefused(await putBudget({ targetId: ids.project, budget: {} }), 'targetType: is required')
    await expectRefused(await putBudget({ targetType: 'PROJECT', targetId: ' ', budget: {} }), 'targetId: is required')
    await expectRefused(await putBudget({ targetType: 'PROJECT', budget: {} }), 'targetId: is required')
    await expectRefused(await putBudget({ targetType: 'TENANT', targetId: ids.project, budget: {} }), 'targetType: must be one of CREDENTIAL_ORGANIZATION, API_PROXY, PROJECT, CREDENTIAL_ALLOWED_API_PROXY')
    await expectRefused(await putBudget({ targetType: 'PROJECT', targetId: ids.project }), 'budget: is required')
    await expectRefused(await putBudget({ targetType: 'PROJECT', targetId: ids.project, budget: {}, owner: 'x' }), 'owner: unknown field')
    await expectRefused(await putBudget({ targetType: 'PROJECT', targetId: ids.otherProject, budget: {} }), `targetId: no PROJECT with id '${ids.otherProject}' in project 'payments'`)
    await expectRefused(await putBudget({ targetType: 'API_PROXY', targetId: ids.foreignApi, budget: {} }), `targetId: no API_PROXY with id '${ids.foreignApi}'`)
    await expectRefused(await putBudget({ targetType: 'API_PROXY', targetId: ids.project, budget: {} }), 'targetId: no API_PROXY')
    await expectRefused(await putBudget({ targetType: 'CREDENTIAL_ORGANIZATION', targetId: 'missing', budget: {} }), 'targetId: no CREDENTIAL_ORGANIZATION')
    // a credential id is not a binding: the binding is the credential's API proxy entitlement
    await expectRefused(await putBudget({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.euClient, budget: {} }), 'targetId: no CREDENTIAL_ALLOWED_API_PROXY')
    expect(await budgetRows()).toEqual(before)
  })

  const invalid: [string, unknown, string][] = [
    ['a token cap of 0', { tokensPerMonth: 0 }, 'budget.tokensPerMonth: must be at least 1'],
    ['a per-minute token cap of -1', { tokensPerMinute: -1 }, 'budget.tokensPerMinute: must be at least 1'],
    ['a USD cap of 0', { usdPerHour: 0 }, 'budget.usdPerHour: must be greater than 0'],
    ['a soft cap above 100', { softCapPercents: [101] }, 'budget.softCapPercents[0]: must be between 0 and 100'],
    ['a hard cap of 0', { hardCapPercent: 0 }, 'budget.hardCapPercent: must be between 1 and 100'],
    ['an unknown overflow action', { overflowAction: 'THROTTLE' }, 'budget.overflowAction: must be one of BLOCK, FAILOVER, ALERT_ONLY, CHEAPER_MODEL'],
    ['CHEAPER_MODEL without a model', { overflowAction: 'CHEAPER_MODEL', cheaperModelId: ' ' }, 'budget.cheaperModelId: is required when overflowAction is CHEAPER_MODEL'],
    ['51 model overrides', { modelBudgets: Array.from({ length: 51 }, (_, i) => ({ modelId: `m${i}` })) }, 'budget.modelBudgets: at most 50 entries'],
    ['51 provider overrides', { providerBudgets: Array.from({ length: 51 }, (_, i) => ({ providerRef: `p${i}` })) }, 'budget.providerBudgets: at most 50 entries'],
    ['a provider override without providerRef', { providerBudgets: [{ tokensPerDay: 1 }] }, 'budget.providerBudgets[0].providerRef: providerRef is required'],
    ['a model override with an unknown overflow action', { modelBudgets: [{ modelId: 'x', overflowAction: 'NOPE' }] }, 'budget.modelBudgets[0].overflowAction: must be one of'],
    ['a duplicate model override', { modelBudgets: [{ modelId: 'x' }, { modelId: 'y' }, { modelId: 'x' }] }, "budget.modelBudgets[2].modelId: duplicates modelBudgets[0] ('x')"],
    ['a provider override naming no connection', { providerBudgets: [{ providerRef: 'no-such-id', tokensPerDay: 3 }] }, "budget.providerBudgets[0].providerRef: no LLM provider connection with id 'no-such-id' in the project"],
    ['a negative soft cap', { softCapPercents: [50, -1] }, 'budget.softCapPercents[1]: must be between 0 and 100'],
    ['a hard cap above 100', { hardCapPercent: 101 }, 'budget.hardCapPercent: must be between 1 and 100'],
    ['a negative monthly USD budget', { monthlyBudgetUsd: -5 }, 'budget.monthlyBudgetUsd: must be greater than 0'],
    ['a fractional token cap', { tokensPerDay: 1.5 }, 'budget.tokensPerDay: must be an integer'],
    ['a model override without modelId', { modelBudgets: [{ tokensPerDay: 1 }] }, 'budget.modelBudgets[0].modelId: modelId is required'],
    ['a model override with a token cap of 0', { modelBudgets: [{ modelId: 'x', tokensPerHour: 0 }] }, 'budget.modelBudgets[0].tokensPerHour: must be at least 1'],
    ['a provider override with a USD cap of 0', { providerBudgets: [{ providerRef: 'p', usdPerDay: 0 }] }, 'budget.providerBudgets[0].usdPerDay: must be greater than 0'],
    ['an unknown field in a model override', { modelBudgets: [{ modelId: 'x', weight: 2 }] }, 'budget.modelBudgets[0].weight: unknown field'],
    ['an unknown field in the budget', { tokensPerWeek: 5 }, 'budget.tokensPerWeek: unknown field'],
  ]
  it.each(invalid)('refuses %s, naming the field; nothing is saved', async (_what, budget, message) => {
    const before = await budgetRows()
    await expectRefused(await putBudget({ targetType: 'API_PROXY', targetId: ids.ordersApi, budget }), message)
    expect(await budgetRows()).toEqual(before)
  })

  it('accepts 50 model and 50 provider overrides', async () => {
    const providerIds: string[] = []
    for (let i = 0; i < 50; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) =>
        rootPost(`/apiops/projects/payments/llm-providers/bulk-${i + j}/`, { _class: 'llm', name: `bulk-${i + j}`, providerType: 'OPENAI' })))
      providerIds.push(...batch.map((b) => b.resultList[0].id as string))
    }
    const budget = {
      enabled: true,
      modelBudgets: Array.from({ length: 50 }, (_, i) => ({ modelId: `m${i}`, tokensPerDay: 5 })),
      providerBudgets: providerIds.map((providerRef, i) => ({ providerRef, tokensPerMonth: i + 1 })),
    }
    const b = await saved({ targetType: 'CREDENTIAL_ORGANIZATION', targetId: ids.gone, budget })
    expect(b.budget.modelBudgets).toHaveLength(50)
    expect(b.budget.providerBudgets).toHaveLength(50)
  })

  it('needs AI_BUDGETS MANAGE in the project: VIEW, other categories, non-members and unknown projects get 400', async () => {
    const before = await budgetRows()
    const body = { targetType: 'PROJECT', targetId: ids.project, budget: { enabled: true } }
    await expectRefused(await putBudget(body, carol), "User lacks permission AI_BUDGETS MANAGE in project 'payments'")
    await expectRefused(await putBudget(body, bob), "User lacks permission AI_BUDGETS MANAGE in project 'payments'")
    await expectRefused(await putBudget({ ...body, targetId: ids.otherProject }, alice, 'other'), "Project 'other' not found")
    await expectRefused(await putBudget(body, alice, 'nowhere'), "Project 'nowhere' not found")
    expect(await budgetRows()).toEqual(before)
    expect((await putBudget(body, 'not-a-token')).status).toBe(401)
  })
})

describe('effective limit along the chain', () => {
  it('PROJECT: the tenant budget only', async () => {
    expect(await limitOf('PROJECT', ids.project)).toEqual({
      credentialLeafTokensPerMonth: null, orgChain: [], appCapTokensPerMonth: null, tenantCapTokensPerMonth: 1000000,
      effectiveMonthlyTokens: 1000000, effectiveDailyTokens: null, effectiveMinuteTokens: null, status: 'NORMAL',
    })
  })

  it('API_PROXY: the application (proxy) budget under the tenant cap; a clipped own limit is AT_CAPACITY', async () => {
    expect(await limitOf('API_PROXY', ids.ordersApi)).toEqual({
      credentialLeafTokensPerMonth: null, orgChain: [], appCapTokensPerMonth: 2000000, tenantCapTokensPerMonth: 1000000,
      effectiveMonthlyTokens: 1000000, effectiveDailyTokens: 90000, effectiveMinuteTokens: null, status: 'AT_CAPACITY',
    })
    // a disabled budget limits nothing
    expect(await limitOf('API_PROXY', ids.llmApi)).toMatchObject({ appCapTokensPerMonth: null, effectiveMonthlyTokens: 1000000, status: 'NORMAL' })
  })

  it('CREDENTIAL_ORGANIZATION: own budget, parent organizations, tenant cap; no orgChain', async () => {
    await saved({ targetType: 'CREDENTIAL_ORGANIZATION', targetId: ids.acme, budget: { enabled: true, tokensPerMonth: 250000, tokensPerDay: 20000 } })
    expect(await limitOf('CREDENTIAL_ORGANIZATION', ids['acme-eu'])).toEqual({
      credentialLeafTokensPerMonth: null, orgChain: [], appCapTokensPerMonth: null, tenantCapTokensPerMonth: 1000000,
      effectiveMonthlyTokens: 250000, effectiveDailyTokens: 20000, effectiveMinuteTokens: 500, status: 'AT_CAPACITY',
    })
    expect(await limitOf('CREDENTIAL_ORGANIZATION', ids.acme)).toMatchObject({ effectiveMonthlyTokens: 250000, status: 'NORMAL' })
    expect(await limitOf('CREDENTIAL_ORGANIZATION', ids.frozen)).toMatchObject({ status: 'LOCKED' })
  })

  it('CREDENTIAL by binding id: leaf, organization chain, application cap and tenant cap (budgetSource INHERIT)', async () => {
    expect(await limitOf('CREDENTIAL', ids.euOnOrders)).toEqual({
      credentialLeafTokensPerMonth: 500000,
      orgChain: [{ orgId: ids['acme-eu'], orgName: 'Acme EU', tokensPerMonth: 300000 }, { orgId: ids.acme, orgName: 'Acme', tokensPerMonth: 250000 }],
      appCapTokensPerMonth: 2000000, tenantCapTokensPerMonth: 1000000,
      effectiveMonthlyTokens: 250000, effectiveDailyTokens: 20000, effectiveMinuteTokens: 500, status: 'AT_CAPACITY',
    })
  })

  it('CREDENTIAL: budgetSource CREDENTIAL skips the organizations, ORGANIZATION skips the leaf', async () => {
    await saved({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.euOnOrders, budgetSource: 'CREDENTIAL', budget: { enabled: true, tokensPerMonth: 500000 } })
    expect(await limitOf('CREDENTIAL', ids.euOnOrders)).toEqual({
      credentialLeafTokensPerMonth: 500000, orgChain: [], appCapTokensPerMonth: 2000000, tenantCapTokensPerMonth: 1000000,
      effectiveMonthlyTokens: 500000, effectiveDailyTokens: 90000, effectiveMinuteTokens: null, status: 'NORMAL',
    })
    await saved({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.euOnOrders, budgetSource: 'ORGANIZATION', budget: { enabled: true, tokensPerMonth: 500000 } })
    expect(await limitOf('CREDENTIAL', ids.euOnOrders)).toMatchObject({ credentialLeafTokensPerMonth: null, effectiveMonthlyTokens: 250000, orgChain: [{ tokensPerMonth: 300000 }, { tokensPerMonth: 250000 }] })
  })

  it('CREDENTIAL by credential id: organization chain and tenant cap, no leaf and no application cap', async () => {
    expect(await limitOf('CREDENTIAL', ids.euClient)).toEqual({
      credentialLeafTokensPerMonth: null,
      orgChain: [{ orgId: ids['acme-eu'], orgName: 'Acme EU', tokensPerMonth: 300000 }, { orgId: ids.acme, orgName: 'Acme', tokensPerMonth: 250000 }],
      appCapTokensPerMonth: null, tenantCapTokensPerMonth: 1000000,
      effectiveMonthlyTokens: 250000, effectiveDailyTokens: 20000, effectiveMinuteTokens: 500, status: 'NORMAL',
    })
  })

  it('is LOCKED for a disabled credential or one in a suspended organization', async () => {
    expect((await limitOf('CREDENTIAL', ids.offClient)).status).toBe('LOCKED')
    expect((await limitOf('CREDENTIAL', ids.frozenClient)).status).toBe('LOCKED')
    expect((await limitOf('CREDENTIAL', ids.frozenOnOrders)).status).toBe('LOCKED')
  })

  it('caps a project without a budget of its own with the installation default budget', async () => {
    const settings = await svc.http('/apiops/settings/ai-gateway', {
      method: 'PUT', headers: { ...auth(root), 'content-type': 'application/json' }, body: JSON.stringify({ defaultBudget: { enabled: true, tokensPerMonth: 5000000 } }),
    })
    expect(settings.status).toBe(200)
    const res = await effective('PROJECT', ids.otherProject, root, 'other')
    expect((await jsonOf(res)).resultList[0]).toMatchObject({ tenantCapTokensPerMonth: 5000000, effectiveMonthlyTokens: 5000000 })
    // payments has its own budget, which wins over the default
    expect((await limitOf('PROJECT', ids.project)).tenantCapTokensPerMonth).toBe(1000000)
  })

  it('refuses a node that cannot be resolved and an unknown nodeType with 400', async () => {
    await expectRefused(await effective('CREDENTIAL', 'missing'), "CREDENTIAL 'missing' not found in project 'payments'")
    await expectRefused(await effective('API_PROXY', ids.foreignApi), `API_PROXY '${ids.foreignApi}' not found in project 'payments'`)
    await expectRefused(await effective('PROJECT', ids.otherProject), 'not found in project')
    await expectRefused(await effective('CREDENTIAL_ORGANIZATION', ids.euClient), 'not found in project')
    await expectRefused(await effective('credential', ids.euClient), "nodeType 'credential' is not supported: use one of CREDENTIAL, CREDENTIAL_ORGANIZATION, API_PROXY, PROJECT")
    await expectRefused(await effective('CREDENTIAL_ALLOWED_API_PROXY', ids.euOnOrders), 'is not supported')
  })

  it('needs AI_BUDGETS VIEW', async () => {
    await expectRefused(await effective('PROJECT', ids.project, bob), "User lacks permission AI_BUDGETS VIEW in project 'payments'")
    expect((await effective('PROJECT', ids.project, alice)).status).toBe(200)
  })
})

describe('scope rules and hierarchy', () => {
  it('lists every saved budget of the project as flat scope rules', async () => {
    const res = await svc.http('/apiops/projects/payments/ai-budgets/scope-rules/', { headers: auth(carol) })
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.status).toBe('SUCCESS')
    expect(body.resultCount).toBe(body.resultList.length)
    const rows = body.resultList.map((r: any) => [r.targetType, r.targetName])
    expect(rows).toEqual([
      ['PROJECT', 'payments'],
      ['API_PROXY', 'llm-api'],
      ['API_PROXY', 'orders-api'],
      ['CREDENTIAL_ORGANIZATION', 'Acme'],
      ['CREDENTIAL_ORGANIZATION', 'Acme EU'],
      ['CREDENTIAL_ORGANIZATION', 'Gone'],
      ['CREDENTIAL_ALLOWED_API_PROXY', 'eu-client → orders-api'],
      ['CREDENTIAL_ALLOWED_API_PROXY', 'shop-frontend → llm-api'],
    ])
    expect(body.resultList[0]).toMatchObject({ targetId: ids.project, targetProjectId: ids.project, budget: { tokensPerMonth: 1000000 } })
    await expectRefused(await svc.http('/apiops/projects/payments/ai-budgets/scope-rules/', { headers: auth(bob) }), 'AI_BUDGETS VIEW')
  })

  it('returns the budget tree rooted at the project', async () => {
    const res = await svc.http('/apiops/projects/payments/ai-budgets/hierarchy/', { headers: auth(carol) })
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', resultCount: 1 })
    const tree = body.resultList[0]
    const outline = (n: any): unknown => [n.nodeType, n.key, ...(n.children.length ? [n.children.map(outline)] : [])]
    expect(outline(tree)).toEqual(['PROJECT', 'payments', [
      ['API_PROXY', 'llm-api'],
      ['API_PROXY', 'orders-api'],
      ['CREDENTIAL_ORGANIZATION', 'acme', [
        ['CREDENTIAL_ORGANIZATION', 'acme-eu', [['CREDENTIAL', 'eu-client', [['CREDENTIAL_ALLOWED_API_PROXY', 'orders-api']]]]],
        ['CREDENTIAL', 'off-client'],
        ['CREDENTIAL', 'shop-frontend', [['CREDENTIAL_ALLOWED_API_PROXY', 'llm-api']]],
      ]],
      ['CREDENTIAL_ORGANIZATION', 'frozen', [['CREDENTIAL', 'frozen-client', [['CREDENTIAL_ALLOWED_API_PROXY', 'orders-api']]]]],
      ['CREDENTIAL_ORGANIZATION', 'gone'],
      ['CREDENTIAL', 'ldap-synced'],
    ]])
    expect(tree).toMatchObject({ nodeId: ids.project, name: 'payments', budget: { tokensPerMonth: 1000000 }, budgetSource: null })
    const binding = tree.children[2].children[0].children[0].children[0]
    expect(binding).toMatchObject({ nodeId: ids.euOnOrders, budgetSource: 'ORGANIZATION', budget: { tokensPerMonth: 500000 } })
    expect(tree.children[5]).toMatchObject({ nodeType: 'CREDENTIAL', budget: null, budgetSource: null })
  })
})

describe('USD price check (spec §7.1)', () => {
  let providerId: string
  beforeAll(async () => {
    // models of the payments project, seeded through the llm module's routes: catalog entries and a provider's supportedModels
    await rootPost('/apiops/projects/payments/llm-models/gpt-priced/', { modelId: 'gpt-priced', pricePerMillionInput: 2.5 })
    await rootPost('/apiops/projects/payments/llm-models/gpt-free/', { modelId: 'gpt-free' })
    const provider = await rootPost('/apiops/projects/payments/llm-providers/local-llm/', {
      _class: 'llm', name: 'local-llm', providerType: 'OPENAI',
      supportedModels: [{ modelId: 'gpt-priced' }, { modelId: 'llama-local' }],
    })
    providerId = provider.resultList[0].id
  })

  async function expectProblem(body: unknown, models: string[]) {
    const before = await budgetRows()
    worker.received.length = 0
    const res = await putBudget(body)
    expect(res.status).toBe(400)
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(await jsonOf(res)).toEqual({
      type: 'about:blank', title: 'Bad Request', status: 400, detail: expect.stringContaining('pricePerMillionInput'), path: '/apiops/projects/payments/ai-budgets/',
      errorKey: 'aiQuota.usdBudgetModelPriceMissing', params: { modelCount: models.length, models }, correlationId: expect.any(String),
    })
    expect(await budgetRows()).toEqual(before)
    expect(worker.received).toEqual([])
  }

  it('rejects a USD project or proxy budget over unpriced models with errorKey and params; nothing saved, nothing pushed', async () => {
    await expectProblem({ targetType: 'PROJECT', targetId: ids.project, budget: { enabled: true, monthlyBudgetUsd: 500 } }, ['gpt-free', 'llama-local'])
    await expectProblem({ targetType: 'API_PROXY', targetId: ids.ordersApi, budget: { enabled: true, tokensPerMonth: 5, usdPerDay: 10 } }, ['gpt-free', 'llama-local'])
    // a disabled budget still carries its USD limit
    await expectProblem({ targetType: 'API_PROXY', targetId: ids.ordersApi, budget: { enabled: false, usdPerHour: 1 } }, ['gpt-free', 'llama-local'])
  })

  it('checks model overrides by modelId and provider overrides by the provider connection\'s models', async () => {
    await expectProblem({ targetType: 'API_PROXY', targetId: ids.llmApi, budget: { modelBudgets: [{ modelId: 'gpt-priced', usdPerDay: 1 }, { modelId: 'gpt-free', usdPerDay: 1 }] } }, ['gpt-free'])
    await expectProblem({ targetType: 'PROJECT', targetId: ids.project, budget: { providerBudgets: [{ providerRef: providerId, monthlyBudgetUsd: 50 }] } }, ['llama-local'])
    // the stored override lists are part of the saved budget: a kept USD override is checked too
    await saved({ targetType: 'API_PROXY', targetId: ids.llmApi, budget: { modelBudgets: [{ modelId: 'gpt-free', tokensPerDay: 1 }, { modelId: 'gpt-priced', usdPerDay: 2 }] } })
    await expectProblem({ targetType: 'API_PROXY', targetId: ids.llmApi, budget: { enabled: true, modelBudgets: [{ modelId: 'lost', usdPerDay: 1 }] } }, ['lost'])
  })

  it('does not check token-only budgets, organization budgets or bindings', async () => {
    await saved({ targetType: 'PROJECT', targetId: ids.project, budget: { enabled: true, tokensPerMonth: 1000000, modelBudgets: [{ modelId: 'gpt-free', tokensPerDay: 5 }] } })
    await saved({ targetType: 'CREDENTIAL_ORGANIZATION', targetId: ids.acme, budget: { enabled: true, tokensPerMonth: 250000, tokensPerDay: 20000, monthlyBudgetUsd: 10 } })
    await saved({ targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: ids.shopOnLlm, budget: { enabled: true, usdPerDay: 3 } })
  })

  it('accepts USD budgets once every covered model has an input price', async () => {
    await rootPost('/apiops/projects/payments/llm-models/gpt-free/', { modelId: 'gpt-free', pricePerMillionInput: 0.1 })
    await rootPost('/apiops/projects/payments/llm-models/llama-local/', { modelId: 'llama-local', pricePerMillionInput: 0 })
    const b = await saved({ targetType: 'API_PROXY', targetId: ids.ordersApi, budget: { enabled: true, tokensPerMonth: 2000000, tokensPerDay: 90000, usdPerDay: 10, providerBudgets: [{ providerRef: providerId, usdPerHour: 1 }] } })
    expect(b.budget).toMatchObject({ usdPerDay: 10, providerBudgets: [entry({ providerRef: providerId, usdPerHour: 1 })] })
  })
})

describe('AI budgets over GraphQL', () => {
  it('saves, reads and previews with the same rules as REST', async () => {
    worker.received.length = 0
    const write = await svc.op(UpdateAiBudgetDocument, {
      projectName: 'payments',
      input: { targetType: 'PROJECT', targetId: ids.project, targetProjectId: 'x', budget: { enabled: true, tokensPerMonth: 3000000000, softCapPercents: [80] } },
    }, alice)
    expect(write.errors).toBeUndefined()
    expect(write.data!.updateAiBudget.budget).toMatchObject({
      targetType: 'PROJECT', targetId: ids.project, targetName: 'payments', targetProjectId: ids.project, budgetSource: null, updatedBy: 'alice',
      budget: { enabled: true, tokensPerMonth: 3000000000, softCapPercents: [80], hardCapPercent: 100, modelBudgets: [{ modelId: 'gpt-free', tokensPerDay: 5 }] },
    })
    expect(write.data!.updateAiBudget.deploymentResult).toMatchObject({ success: true })
    expect(worker.received.map((m) => m.kind)).toEqual(['PROJECT'])

    const proxyWrite = await svc.op(UpdateAiBudgetDocument, { projectName: 'payments', input: { targetType: 'API_PROXY', targetId: ids.llmApi, budget: { enabled: true, tokensPerDay: 7 } } }, alice)
    expect(proxyWrite.data!.updateAiBudget.deploymentResult).toBeNull()

    const read = await svc.op(AiBudgetDocument, { projectName: 'payments', targetType: 'PROJECT', targetId: ids.project }, carol)
    expect(read.data!.aiBudget).toEqual(write.data!.updateAiBudget.budget)
    const none = await svc.op(AiBudgetDocument, { projectName: 'payments', targetType: 'CREDENTIAL_ORGANIZATION', targetId: ids.frozen }, carol)
    expect(none.errors).toBeUndefined()
    expect(none.data!.aiBudget).toBeNull()

    const limit = await svc.op(AiBudgetEffectiveLimitDocument, { projectName: 'payments', nodeType: 'PROJECT', nodeId: ids.project }, carol)
    expect(limit.data!.aiBudgetEffectiveLimit).toMatchObject({ tenantCapTokensPerMonth: 3000000000, effectiveMonthlyTokens: 3000000000, status: 'NORMAL' })
    const rest = await limitOf('CREDENTIAL', ids.euOnOrders)
    const gql = await svc.op(AiBudgetEffectiveLimitDocument, { projectName: 'payments', nodeType: 'CREDENTIAL', nodeId: ids.euOnOrders }, carol)
    expect(gql.data!.aiBudgetEffectiveLimit).toEqual(rest)

    const rules = await svc.op(AiBudgetScopeRulesDocument, { projectName: 'payments' }, carol)
    expect(rules.data!.aiBudgetScopeRules.map((r) => r.targetType)).toContain('CREDENTIAL_ALLOWED_API_PROXY')
    const tree = await svc.op(AiBudgetHierarchyDocument, { projectName: 'payments' }, carol)
    const nodes = tree.data!.aiBudgetHierarchy
    expect(nodes[0]).toMatchObject({ nodeType: 'PROJECT', nodeId: ids.project, parentNodeId: null, depth: 0, budget: { tokensPerMonth: 3000000000 } })
    expect(nodes.find((n) => n.nodeId === ids.euOnOrders)).toMatchObject({ nodeType: 'CREDENTIAL_ALLOWED_API_PROXY', parentNodeId: ids.euClient, depth: 4, budgetSource: 'ORGANIZATION' })
  })

  it('answers the same errors: fields in params.field, permissions, unresolvable nodes, the USD price check', async () => {
    const before = await budgetRows()
    const blank = await svc.op(UpdateAiBudgetDocument, { projectName: 'payments', input: { targetType: '', targetId: ids.project, budget: {} } }, alice)
    expect(blank.errors![0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'targetType' } })
    const bound = await svc.op(UpdateAiBudgetDocument, { projectName: 'payments', input: { targetType: 'PROJECT', targetId: ids.project, budget: { hardCapPercent: 101 } } }, alice)
    expect(bound.errors![0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'budget.hardCapPercent' } })
    const denied = await svc.op(UpdateAiBudgetDocument, { projectName: 'payments', input: { targetType: 'PROJECT', targetId: ids.project, budget: {} } }, carol)
    expect(denied.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', errorKey: 'permissionDenied' })
    await rootPost('/apiops/projects/payments/llm-models/new-unpriced/', { modelId: 'new-unpriced' })
    const usd = await svc.op(UpdateAiBudgetDocument, { projectName: 'payments', input: { targetType: 'PROJECT', targetId: ids.project, budget: { usdPerDay: 4 } } }, alice)
    expect(usd.errors![0].extensions).toMatchObject({ errorKey: 'aiQuota.usdBudgetModelPriceMissing', params: { modelCount: 1, models: ['new-unpriced'] } })
    expect(await budgetRows()).toEqual(before)
    const node = await svc.op(AiBudgetEffectiveLimitDocument, { projectName: 'payments', nodeType: 'API_PROXY', nodeId: 'nope' }, carol)
    expect(node.errors![0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { nodeType: 'API_PROXY', nodeId: 'nope' } })
  })
})
