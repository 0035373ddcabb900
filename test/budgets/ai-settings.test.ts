import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { jsonOf } from '../support/http.js'
import { AiGatewaySettingsDocument, UpdateAiGatewaySettingsDocument } from '../generated/graphql.js'

// AI gateway settings (spec §2.8, §4.6, §7.1): GET/PUT /apiops/settings/ai-gateway and the GraphQL twin.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root', alice: 'alice-pass-1' } })

const PATH = '/apiops/settings/ai-gateway'
const DISABLED = {
  enabled: false, tokensPerHour: null, tokensPerMinute: null, tokensPerDay: null, tokensPerMonth: null,
  monthlyBudgetUsd: null, usdPerHour: null, usdPerDay: null, softCapPercents: [], hardCapPercent: 100,
  overflowAction: 'BLOCK', cheaperModelId: null, modelBudgets: [], providerBudgets: [],
}
const DEFAULTS = {
  defaultConnectTimeoutSeconds: 10, defaultStreamTimeoutSeconds: 120, defaultRetryCount: 0,
  maxAiRequestBodyBytes: 10485760, maxAiBinaryRequestBodyBytes: 26214400, maxAiBinaryResponseBodyBytes: 26214400,
  maxToolTurns: 5, agenticLoopEnabled: true, defaultBudget: DISABLED, defaultAnonymousBudget: DISABLED,
}

const get = (token = bed.root) => bed.svc.http(PATH, { headers: { authorization: `Bearer ${token}` } })
const put = (body: unknown, token = bed.root) =>
  bed.svc.http(PATH, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const stored = () => bed.svc.deps.prisma.aiGatewaySettings.findUnique({ where: { id: 'current' } })
const current = async () => (await jsonOf(await get())).resultList[0]

async function expectRefused(res: Response, message: RegExp | string) {
  expect(res.status).toBe(400)
  const body = await jsonOf(res)
  expect(body.status).toBe('FAILURE')
  expect(body.resultMessage).toMatch(message)
  return body
}

/** Seeds models through the llm module's REST routes: the catalog and a provider's supportedModels. */
async function seedModel(project: string, modelId: string, pricePerMillionInput?: number) {
  const res = await bed.svc.http(`/apiops/projects/${project}/llm-models/${modelId}/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bed.root}`, 'content-type': 'application/json' },
    body: JSON.stringify({ modelId, ...(pricePerMillionInput === undefined ? {} : { pricePerMillionInput }) }),
  })
  expect(res.status, await res.clone().text()).toBe(200)
}

describe('AI gateway settings over REST', () => {
  it('reads the defaults of §2.8 before any update, as a one-element list', async () => {
    const res = await get()
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', resultCount: 1 })
    expect(body.resultList).toHaveLength(1)
    expect(body.resultList[0]).toMatchObject({ ...DEFAULTS, revision: 0, updatedAt: null, updatedBy: null })
  })

  it('is for system administrators only: a project member gets 400 on GET and PUT, and nothing is written', async () => {
    await expectRefused(await get(bed.alice), /system administrator/)
    await expectRefused(await put({ maxToolTurns: 7 }, bed.alice), /system administrator/)
    expect(await stored()).toBeNull()
  })

  it('refuses an empty body, an empty object and a body of nulls', async () => {
    await expectRefused(await put(undefined), /body is required|at least one/i)
    await expectRefused(await put({}), /at least one/)
    await expectRefused(await put({ maxToolTurns: null, defaultBudget: null }), /at least one/)
    await expectRefused(await put([1]), /JSON object/)
    expect(await stored()).toBeNull()
  })

  const bounds: [string, number, number][] = [
    ['defaultConnectTimeoutSeconds', 1, 300],
    ['defaultStreamTimeoutSeconds', 1, 3600],
    ['defaultRetryCount', 0, 10],
    ['maxAiRequestBodyBytes', 1, 1073741824],
    ['maxAiBinaryRequestBodyBytes', 1, 1073741824],
    ['maxAiBinaryResponseBodyBytes', 1, 1073741824],
  ]
  it.each(bounds)('enforces the bounds of %s with a message naming the field and the bounds', async (field, min, max) => {
    for (const value of [min - 1, max + 1, min + 0.5]) {
      await expectRefused(await put({ [field]: value }), `${field}: must be an integer between ${min} and ${max}`)
    }
    await expectRefused(await put({ [field]: 'ten' }), `${field}: must be an integer between ${min} and ${max}`)
    expect(await stored()).toBeNull()
  })

  it('refuses maxToolTurns above 100 and an unknown field; nothing is written', async () => {
    await expectRefused(await put({ maxToolTurns: 101 }), 'maxToolTurns: must be at most 100 (0 or below disables the agentic loop)')
    await expectRefused(await put({ maxToolTurns: 5, defaultTimeout: 3 }), 'defaultTimeout: unknown field')
    expect(await stored()).toBeNull()
  })

  it('accepts the bounds themselves', async () => {
    for (const [field, min, max] of bounds) {
      for (const value of [min, max]) {
        const res = await put({ [field]: value })
        expect(res.status).toBe(200)
        expect((await jsonOf(res)).resultList[0][field]).toBe(value)
      }
    }
  })

  it('updates partially: omitted and null fields keep the stored values; answers the full effective document', async () => {
    const before = await current()
    const res = await put({ defaultConnectTimeoutSeconds: 30, defaultRetryCount: 3 })
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', resultCount: 1 })
    expect(body.resultList[0]).toMatchObject({ ...before, defaultConnectTimeoutSeconds: 30, defaultRetryCount: 3, revision: before.revision + 1, updatedBy: 'root', updatedAt: expect.any(String) })
    const next = await jsonOf(await put({ defaultStreamTimeoutSeconds: 600, defaultConnectTimeoutSeconds: null }))
    expect(next.resultList[0]).toMatchObject({ defaultConnectTimeoutSeconds: 30, defaultRetryCount: 3, defaultStreamTimeoutSeconds: 600 })
    expect(await current()).toEqual(next.resultList[0])
  })

  it('accepts maxToolTurns of 100, 0 and below; 0 or below disables the agentic loop', async () => {
    expect((await jsonOf(await put({ maxToolTurns: 100 }))).resultList[0]).toMatchObject({ maxToolTurns: 100, agenticLoopEnabled: true })
    expect((await jsonOf(await put({ maxToolTurns: 0 }))).resultList[0]).toMatchObject({ maxToolTurns: 0, agenticLoopEnabled: false })
    expect((await jsonOf(await put({ maxToolTurns: -3 }))).resultList[0]).toMatchObject({ maxToolTurns: -3, agenticLoopEnabled: false })
    expect((await jsonOf(await put({ maxToolTurns: 5 }))).resultList[0]).toMatchObject({ maxToolTurns: 5, agenticLoopEnabled: true })
  })

  it('pushes the effective settings to every environment of the installation', async () => {
    bed.dev.received.length = 0
    const body = await jsonOf(await put({ defaultRetryCount: 2 }))
    expect(body.deploymentResult).toMatchObject({ success: true })
    expect(body.deploymentResult.environmentResults.map((e: { environmentName: string }) => e.environmentName)).toEqual(['dev', 'prod'])
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({
      action: 'DEPLOY', project: '', kind: 'AI_GATEWAY_SETTINGS', name: 'ai-gateway', revision: body.resultList[0].revision,
      config: { defaultRetryCount: 2, maxToolTurns: 5, defaultBudget: DISABLED },
    })
  })
})

describe('default budgets of the settings', () => {
  it('stores defaultBudget and defaultAnonymousBudget as budget objects with every default applied', async () => {
    const res = await put({
      defaultBudget: { enabled: true, tokensPerMonth: 1000000, softCapPercents: [50, 80], modelBudgets: [{ modelId: 'm-1', tokensPerDay: 500 }] },
      defaultAnonymousBudget: { enabled: true, tokensPerMinute: 100, overflowAction: 'ALERT_ONLY' },
    })
    expect(res.status).toBe(200)
    const doc = (await jsonOf(res)).resultList[0]
    expect(doc.defaultBudget).toEqual({
      ...DISABLED, enabled: true, tokensPerMonth: 1000000, softCapPercents: [50, 80],
      modelBudgets: [{ modelId: 'm-1', tokensPerHour: null, tokensPerDay: 500, tokensPerMonth: null, monthlyBudgetUsd: null, usdPerHour: null, usdPerDay: null, overflowAction: 'BLOCK' }],
    })
    expect(doc.defaultAnonymousBudget).toEqual({ ...DISABLED, enabled: true, tokensPerMinute: 100, overflowAction: 'ALERT_ONLY' })
  })

  it('replaces the scalars of a budget, keeps its override lists when absent or null, and wipes them with []', async () => {
    let doc = (await jsonOf(await put({ defaultBudget: { enabled: true, tokensPerDay: 10 } }))).resultList[0]
    expect(doc.defaultBudget).toMatchObject({ enabled: true, tokensPerDay: 10, tokensPerMonth: null, softCapPercents: [] })
    expect(doc.defaultBudget.modelBudgets.map((m: { modelId: string }) => m.modelId)).toEqual(['m-1'])
    doc = (await jsonOf(await put({ defaultBudget: { enabled: true, modelBudgets: null } }))).resultList[0]
    expect(doc.defaultBudget.modelBudgets).toHaveLength(1)
    expect(doc.defaultAnonymousBudget).toMatchObject({ enabled: true, tokensPerMinute: 100 })
    doc = (await jsonOf(await put({ defaultBudget: { enabled: false, modelBudgets: [] } }))).resultList[0]
    expect(doc.defaultBudget).toEqual(DISABLED)
  })

  const invalid: [string, unknown, string][] = [
    ['a token cap of 0', { tokensPerMonth: 0 }, 'defaultBudget.tokensPerMonth: must be at least 1'],
    ['a fractional token cap', { tokensPerHour: 1.5 }, 'defaultBudget.tokensPerHour: must be an integer of at least 1'],
    ['a USD cap of 0', { monthlyBudgetUsd: 0 }, 'defaultBudget.monthlyBudgetUsd: must be greater than 0'],
    ['a negative USD cap', { usdPerDay: -1 }, 'defaultBudget.usdPerDay: must be greater than 0'],
    ['a soft cap above 100', { softCapPercents: [50, 101] }, 'defaultBudget.softCapPercents[1]: must be between 0 and 100'],
    ['a soft cap below 0', { softCapPercents: [-1] }, 'defaultBudget.softCapPercents[0]: must be between 0 and 100'],
    ['a hard cap of 0', { hardCapPercent: 0 }, 'defaultBudget.hardCapPercent: must be between 1 and 100'],
    ['a hard cap above 100', { hardCapPercent: 101 }, 'defaultBudget.hardCapPercent: must be between 1 and 100'],
    ['an unknown overflow action', { overflowAction: 'DROP' }, 'defaultBudget.overflowAction: must be one of BLOCK, FAILOVER, ALERT_ONLY, CHEAPER_MODEL'],
    ['CHEAPER_MODEL without a model', { overflowAction: 'CHEAPER_MODEL' }, 'defaultBudget.cheaperModelId: is required when overflowAction is CHEAPER_MODEL'],
    ['51 model overrides', { modelBudgets: Array.from({ length: 51 }, (_, i) => ({ modelId: `m-${i}` })) }, 'defaultBudget.modelBudgets: at most 50 entries'],
    ['51 provider overrides', { providerBudgets: Array.from({ length: 51 }, (_, i) => ({ providerRef: `p-${i}` })) }, 'defaultBudget.providerBudgets: at most 50 entries'],
    ['a model override without modelId', { modelBudgets: [{ tokensPerDay: 5 }] }, 'defaultBudget.modelBudgets[0].modelId: modelId is required'],
    ['a model override with a token cap of 0', { modelBudgets: [{ modelId: 'a', tokensPerMonth: 0 }] }, 'defaultBudget.modelBudgets[0].tokensPerMonth: must be at least 1'],
    ['a provider override with a USD cap of 0', { providerBudgets: [{ providerRef: 'x', usdPerHour: 0 }] }, 'defaultBudget.providerBudgets[0].usdPerHour: must be greater than 0'],
    ['a duplicate model override', { modelBudgets: [{ modelId: 'a' }, { modelId: 'a' }] }, "defaultBudget.modelBudgets[1].modelId: duplicates modelBudgets[0] ('a')"],
    ['an unknown budget field', { tokens: 5 }, 'defaultBudget.tokens: unknown field'],
    ['a budget that is not an object', 'big', 'defaultBudget: must be a budget object'],
  ]
  it.each(invalid)('refuses %s, naming the field; nothing is written', async (_what, budget, message) => {
    const before = await stored()
    await expectRefused(await put({ defaultRetryCount: 1, defaultBudget: budget }), message)
    expect(await stored()).toEqual(before)
  })

  it('refuses a provider override naming no provider connection', async () => {
    const before = await stored()
    await expectRefused(await put({ defaultBudget: { providerBudgets: [{ providerRef: 'nope', tokensPerDay: 5 }] } }), "defaultBudget.providerBudgets[0].providerRef: no LLM provider connection with id 'nope'")
    expect(await stored()).toEqual(before)
  })

  it('accepts 50 model overrides', async () => {
    const modelBudgets = Array.from({ length: 50 }, (_, i) => ({ modelId: `m-${i}`, tokensPerDay: i + 1 }))
    const res = await put({ defaultBudget: { modelBudgets } })
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).resultList[0].defaultBudget.modelBudgets).toHaveLength(50)
    await put({ defaultBudget: { modelBudgets: [] } })
  })
})

describe('USD price check of the default budgets (every project\'s models are covered)', () => {
  beforeAll(async () => {
    await seedModel('payments', 'gpt-unpriced')
    await seedModel('other', 'claude-priced', 3)
  })

  it('rejects a USD default budget while a model of any project has no input price, with a problem body; nothing saved', async () => {
    const before = await stored()
    for (const field of ['defaultBudget', 'defaultAnonymousBudget']) {
      const res = await put({ maxToolTurns: 9, [field]: { enabled: true, monthlyBudgetUsd: 100 } })
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      const body = await jsonOf(res)
      expect(body).toEqual({
        type: 'about:blank', title: 'Bad Request', status: 400, detail: expect.stringContaining('gpt-unpriced'), path: PATH,
        errorKey: 'aiQuota.usdBudgetModelPriceMissing', params: { modelCount: 1, models: ['gpt-unpriced'] }, correlationId: expect.any(String),
      })
    }
    expect(await stored()).toEqual(before)
  })

  it('checks model overrides by their modelId, unknown models included', async () => {
    await expectProblem({ defaultBudget: { modelBudgets: [{ modelId: 'claude-priced', usdPerDay: 5 }, { modelId: 'ghost', usdPerHour: 1 }] } }, ['ghost'])
    const res = await put({ defaultBudget: { modelBudgets: [{ modelId: 'claude-priced', usdPerDay: 5 }, { modelId: 'gpt-unpriced', tokensPerDay: 9 }] } })
    expect(res.status).toBe(200)
  })

  it('lets token-only budgets through, and USD budgets once every model is priced', async () => {
    expect((await put({ defaultBudget: { enabled: true, tokensPerMonth: 5 } })).status).toBe(200)
    await seedModel('payments', 'gpt-unpriced', 0.5)
    const res = await put({ defaultBudget: { enabled: true, monthlyBudgetUsd: 100 } })
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).resultList[0].defaultBudget).toMatchObject({ enabled: true, monthlyBudgetUsd: 100 })
    await put({ defaultBudget: { enabled: false, modelBudgets: [] } })
  })

  async function expectProblem(body: unknown, models: string[]) {
    const before = await stored()
    const res = await put(body)
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toMatchObject({ status: 400, errorKey: 'aiQuota.usdBudgetModelPriceMissing', params: { modelCount: models.length, models } })
    expect(await stored()).toEqual(before)
  }
})

describe('AI gateway settings over GraphQL', () => {
  it('reads and updates with the same rules as REST', async () => {
    const read = await bed.svc.op(AiGatewaySettingsDocument, {}, bed.root)
    expect(read.errors).toBeUndefined()
    const rest = await current()
    expect(read.data!.aiGatewaySettings).toMatchObject({ maxToolTurns: rest.maxToolTurns, defaultBudget: rest.defaultBudget, revision: rest.revision })

    const updated = await bed.svc.op(UpdateAiGatewaySettingsDocument, { input: { defaultStreamTimeoutSeconds: 900, maxToolTurns: null } }, bed.root)
    expect(updated.errors).toBeUndefined()
    expect(updated.data!.updateAiGatewaySettings.settings).toMatchObject({ defaultStreamTimeoutSeconds: 900, maxToolTurns: rest.maxToolTurns, revision: rest.revision + 1 })
    expect(updated.data!.updateAiGatewaySettings.deploymentResult.success).toBe(true)
    expect((await current()).defaultStreamTimeoutSeconds).toBe(900)
  })

  it('answers the same errors: bounds with params.field, non-administrators, the USD price check', async () => {
    const before = await stored()
    const bound = await bed.svc.op(UpdateAiGatewaySettingsDocument, { input: { maxToolTurns: 101 } }, bed.root)
    expect(bound.errors![0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params: { field: 'maxToolTurns' } })
    const empty = await bed.svc.op(UpdateAiGatewaySettingsDocument, { input: {} }, bed.root)
    expect(empty.errors![0].message).toMatch(/at least one/)
    const denied = await bed.svc.op(UpdateAiGatewaySettingsDocument, { input: { maxToolTurns: 3 } }, bed.alice)
    expect(denied.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', errorKey: 'permissionDenied' })
    expect((await bed.svc.op(AiGatewaySettingsDocument, {}, bed.alice)).errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })

    await seedModel('other', 'mistral-unpriced')
    const usd = await bed.svc.op(UpdateAiGatewaySettingsDocument, { input: { defaultAnonymousBudget: { enabled: true, usdPerHour: 2 } } }, bed.root)
    expect(usd.errors![0].extensions).toMatchObject({ errorKey: 'aiQuota.usdBudgetModelPriceMissing', params: { modelCount: 1, models: ['mistral-unpriced'] } })
    expect(await stored()).toEqual(before)
  })
})
