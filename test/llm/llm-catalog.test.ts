import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { coveredModelPrices } from '../../src/modules/llm/models/prices.js'
import { expectFailure, expectNoSecrets, legacyClient, llmBootstrap } from './llm-helpers.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import vendorExamples from '../openapi/vendor-examples.json' with { type: 'json' }

/** The newest vendor page's example body (api-reference/<folder>/<page>.mdx #index), deep-copied. */
const pageExample = (page: string, index = 0): any =>
  structuredClone((vendorExamples as VendorExample[]).find((e) => e.page === `api-reference/${page}.mdx` && e.index === index)!.body)
const audits = (objectName: string) => bed.svc.deps.prisma.auditEvent.findMany({ where: { objectName }, orderBy: { id: 'asc' } })

// Provider definitions (built-in read-only) and the model catalog (spec §2.7 model fields, §4.5)
const P = '/apiops/projects/payments/llm-providers'
const DEFS = '/apiops/projects/payments/llm-provider-definitions'
const MODELS = '/apiops/projects/payments/llm-models'

// every response body of this file is scanned for it at the end
const API_KEY = 'sk-SEEDED-catalog-key-1313'

const bed = useTestbed({ workers: ['dev'], bootstrap: llmBootstrap, tokens: { alice: 'alice-pass-1', vic: 'vic-pass-1' } })
const { bodies, get, post, put, del } = legacyClient(() => bed.svc, () => bed.alice)

beforeAll(async () => {
  // the provider whose supportedModels show the catalog's deprecation flag
  expect((await post(`${P}/openai-main/`, { _class: 'llm', name: 'openai-main', providerType: 'OPENAI', apiKey: API_KEY })).status).toBe(200)
  bed.dev.received.length = 0
})

describe('provider definitions', () => {
  it('lists the 18 built-in definitions plus the custom ones', async () => {
    await post(`${DEFS}/edge-llm/`, { name: 'edge-llm', providerType: 'OPENAI', description: 'edge' })
    const res = await get(DEFS + '/')
    expect(res.status).toBe(200)
    const builtIn = res.body.resultList.filter((d: any) => d.builtIn)
    expect(builtIn).toHaveLength(18)
    expect(res.body.resultList.filter((d: any) => !d.builtIn).map((d: any) => d.name)).toEqual(['edge-llm'])
    expect((await get(`${DEFS}/openai/`)).body.resultList[0]).toMatchObject({ name: 'openai', builtIn: true, defaultEndpoint: 'https://api.openai.com/v1', projectName: null })
    expect((await get(`${DEFS}/edge-llm/`)).body.resultList[0]).toMatchObject({ name: 'edge-llm', builtIn: false, projectName: 'payments', wireProtocol: 'OPENAI', defaultChatCompletionPath: '/chat/completions' })
  })

  it('refuses every write on a built-in definition with a clear 400', async () => {
    expectFailure(await post(`${DEFS}/openai/`, { name: 'openai', providerType: 'OPENAI' }), /Provider definition 'openai' is built-in and read-only/)
    expectFailure(await put(`${DEFS}/Azure-OpenAI/`, { providerType: 'AZURE_OPENAI' }), /Provider definition 'Azure-OpenAI' is built-in and read-only/)
    expectFailure(await del(`${DEFS}/anthropic/`), /built-in and read-only/)
    expect(await bed.svc.deps.prisma.llmProviderDefinition.count({ where: { nameKey: { in: ['openai', 'azure-openai'] } } })).toBe(0)
  })

  it('applies the name rules, PUT must exist, unknown fields refused', async () => {
    expectFailure(await post(`${DEFS}/d1/`, { providerType: 'OPENAI' }), /name is required/)
    expectFailure(await post(`${DEFS}/d1/`, { name: 'd2' }), /does not match/)
    expectFailure(await put(`${DEFS}/d1/`, { name: 'd1' }), /Provider definition 'd1' not found/)
    expectFailure(await post(`${DEFS}/d1/`, { name: 'd1', wireProtocol: 'SOAP' }), /^wireProtocol: must be one of OPENAI, ANTHROPIC, GEMINI, BEDROCK, COHERE/)
    expectFailure(await post(`${DEFS}/d1/`, { name: 'd1', shape: 1 }), /^shape: unknown field/)
    expectFailure(await post(`${DEFS}/d1/`, { name: 'd1', defaultAuthHeaderName: 'Api Key' }), /^defaultAuthHeaderName: must be an HTTP header name/)
    expect(await bed.svc.deps.prisma.llmProviderDefinition.count({ where: { nameKey: 'd1' } })).toBe(0)
    expectFailure(await get(`${DEFS}/d1/`), /Provider definition 'd1' not found/)
  })

  it('updates and deletes a custom definition, pushing each change', async () => {
    const res = await put(`${DEFS}/edge-llm/`, { name: '', providerType: 'ANTHROPIC' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ wireProtocol: 'ANTHROPIC', defaultChatCompletionPath: '/messages', defaultApiVersion: '2023-06-01' })
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'LLM_PROVIDER_DEFINITION', name: 'edge-llm', revision: 2 })
    expect((await del(`${DEFS}/edge-llm/`)).status).toBe(200)
    expect(bed.dev.received[1]).toMatchObject({ action: 'UNDEPLOY', kind: 'LLM_PROVIDER_DEFINITION', name: 'edge-llm' })
    expectFailure(await get(`${DEFS}/edge-llm/`), /not found/)
  })
})

describe("provider definitions: the vendor page's examples (code, iconUrl, docsUrl; issue 32 §0)", () => {
  it('create: accepted, stored, read back with the read page\'s fields, audited and pushed; update: the same', async () => {
    const res = await post(`${DEFS}/internal-llm-gateway/`, pageExample('llm-provider-definitions/create-llm-provider-definition'))
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(true)
    const read = (await get(`${DEFS}/internal-llm-gateway/`)).body.resultList[0]
    expect(read).toMatchObject({
      name: 'internal-llm-gateway', code: 'internal-llm-gateway', displayName: 'Internal LLM Gateway', defaultEndpoint: 'https://llm-gateway.internal.example.com/v1',
      defaultApiVersion: 'v1', defaultAuthScheme: 'API_KEY_HEADER', defaultAuthHeaderName: 'x-api-key', iconUrl: 'https://cdn.example.com/icons/internal-llm.svg',
      docsUrl: 'https://wiki.internal.example.com/llm-gateway', builtIn: false, projectName: 'payments', lastUpdatedAt: expect.any(String),
    })
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'LLM_PROVIDER_DEFINITION', name: 'internal-llm-gateway', config: { code: 'internal-llm-gateway' } })
    const update = await put(`${DEFS}/internal-llm-gateway/`, pageExample('llm-provider-definitions/update-llm-provider-definition'))
    expect(update.status).toBe(200)
    expect((await get(`${DEFS}/internal-llm-gateway/`)).body.resultList[0]).toMatchObject({
      displayName: 'Internal LLM Gateway (v2 rollout)', defaultEndpoint: 'https://llm-gateway-v2.internal.example.com/v1', code: 'internal-llm-gateway',
    })
    expect(bed.dev.received.map((m) => m.revision)).toEqual([1, 2])
    expect((await audits('internal-llm-gateway')).map((a) => a.operation)).toEqual([expect.stringMatching(/^POST /), expect.stringMatching(/^PUT /)])
    // a built-in reads with its code and no lastUpdatedAt
    expect((await get(`${DEFS}/openai/`)).body.resultList[0]).toMatchObject({ code: 'openai', builtIn: true, lastUpdatedAt: null })
    expect((await del(`${DEFS}/internal-llm-gateway/`)).status).toBe(200)
    bed.dev.received.length = 0
  })

  it('a blank name falls back to code, then must equal the path', async () => {
    const body = { ...pageExample('llm-provider-definitions/create-llm-provider-definition'), name: '', code: 'edge-gw' }
    expect((await post(`${DEFS}/edge-gw/`, body)).status).toBe(200)
    expect((await get(`${DEFS}/edge-gw/`)).body.resultList[0]).toMatchObject({ name: 'edge-gw', code: 'edge-gw' })
    expectFailure(await post(`${DEFS}/edge-gw2/`, { ...body, name: undefined, code: 'edge-other' }), /name 'edge-other' does not match the name in the path 'edge-gw2'/)
    expect((await del(`${DEFS}/edge-gw/`)).status).toBe(200)
    bed.dev.received.length = 0
  })

  it("the page's refusals: builtIn true, a bad iconUrl, a name not matching the path; nothing written or pushed", async () => {
    const before = await bed.svc.deps.prisma.llmProviderDefinition.count()
    const body = pageExample('llm-provider-definitions/create-llm-provider-definition')
    expectFailure(await post(`${DEFS}/internal-llm-gateway/`, { ...body, builtIn: true }), /^Built-in provider definitions are read-only\.$/)
    expectFailure(await post(`${DEFS}/internal-llm-gateway/`, { ...body, iconUrl: 'ftp://x/y.svg' }), /^iconUrl: must be an http\(s\) URL/)
    expectFailure(await post(`${DEFS}/other-name/`, body), /name 'internal-llm-gateway' does not match the name in the path 'other-name'/)
    expectFailure(await put(`${DEFS}/internal-llm-gateway/`, pageExample('llm-provider-definitions/update-llm-provider-definition')), /Provider definition 'internal-llm-gateway' not found/)
    expect(await bed.svc.deps.prisma.llmProviderDefinition.count()).toBe(before)
    expect(bed.dev.received).toHaveLength(0)
  })
})

describe("model catalog: the vendor page's examples (name {providerCode}/{modelId}; issue 32 §0, docs/llm.md)", () => {
  const VENDOR = `${MODELS}/openai%2Fgpt-5-mini/`

  it('create: the name with its / (sent as %2F) is accepted, stored apart from the modelId, read back, audited and pushed', async () => {
    const res = await post(VENDOR, pageExample('llm-models/create-llm-model'))
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(true)
    const read = (await get(VENDOR)).body.resultList[0]
    expect(read).toMatchObject({
      name: 'openai/gpt-5-mini', providerDefinitionId: '6640aa12c2e4b8000000ef01', providerCode: 'openai', modelId: 'gpt-5-mini', displayName: 'GPT-5 Mini',
      contextWindow: 128000, maxOutputTokens: 16384, pricePerMillionInput: 0.25, pricePerMillionOutput: 2, pricePerMillionCached: 0.025, pricePerImage: null,
      pricePerAudioMinute: null, pricePerCharacterTts: null, capabilities: ['chat', 'function_calling', 'json_mode'], modality: 'TEXT', isDeprecated: false,
      deprecatedAt: null, sunsetAt: null, builtIn: false,
    })
    expect((await get(`${MODELS}/`)).body.resultList.map((m: any) => m.name)).toContain('openai/gpt-5-mini')
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'LLM_MODEL', name: 'openai/gpt-5-mini', config: { modelId: 'gpt-5-mini' } })
    expect(await audits('openai/gpt-5-mini')).toEqual([expect.objectContaining({ operation: expect.stringMatching(/^POST /), outcome: 'SUCCEEDED' })])
  })

  it('update: replaces the entry; the price check sees the modelId, not the name', async () => {
    const body = { ...pageExample('llm-models/update-llm-model'), deprecatedAt: '2026-09-01T00:00:00Z', pricePerImage: 0.04 }
    expect((await put(VENDOR, body)).status).toBe(200)
    expect((await get(VENDOR)).body.resultList[0]).toMatchObject({
      maxOutputTokens: 32768, pricePerMillionInput: 0.2, capabilities: ['chat', 'function_calling', 'json_mode', 'reasoning'], deprecatedAt: '2026-09-01T00:00:00.000Z', pricePerImage: 0.04,
    })
    const project = await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
    expect(await coveredModelPrices(bed.svc.deps.prisma, project.id)).toEqual(expect.arrayContaining([{ modelId: 'gpt-5-mini', modelKey: 'gpt-5-mini', pricePerMillionInput: 0.2, source: 'catalog' }]))
    expect(bed.dev.received.map((m) => [m.kind, m.name, m.revision])).toEqual([['LLM_MODEL', 'openai/gpt-5-mini', 2]])
  })

  it('is the GraphQL mutation too (one service): the vendor shape by name', async () => {
    const body = pageExample('llm-models/create-llm-model')
    delete body.builtIn
    const res = await bed.svc.graphql(
      'mutation($input: LlmCatalogModelInput!) { upsertLlmModel(projectName: "payments", modelId: "anthropic/claude-x", input: $input) { model { name providerCode modelId } } }',
      { input: { ...body, name: 'anthropic/claude-x', providerCode: 'anthropic', modelId: 'claude-x', providerDefinitionId: null } }, bed.alice,
    )
    expect(res.body.errors).toBeUndefined()
    expect(res.body.data.upsertLlmModel.model).toEqual({ name: 'anthropic/claude-x', providerCode: 'anthropic', modelId: 'claude-x' })
    expect((await del(`${MODELS}/anthropic%2Fclaude-x/`)).status).toBe(200)
    bed.dev.received.length = 0
  })

  it("the page's refusals and the name rules; nothing written or pushed", async () => {
    const before = await bed.svc.deps.prisma.llmModelDefinition.count()
    const body = pageExample('llm-models/create-llm-model')
    const cases: [string, unknown, RegExp][] = [
      [`${MODELS}/openai%2Fgpt-5/`, body, /name 'openai\/gpt-5-mini' does not match the name in the path 'openai\/gpt-5'/],
      [VENDOR.replace('openai%2F', 'openai%2Fx%2F'), { ...body, name: 'openai/x/gpt-5-mini' }, /^name: must be a name without .* or \{providerCode\}\/\{modelId\} \(one '\/'\)/],
      [`${MODELS}/openai%2Fgpt-6/`, { ...body, name: 'openai/gpt-6' }, /^name 'openai\/gpt-6' must be \{providerCode\}\/\{modelId\} \('openai\/gpt-5-mini'\)$/],
      [`${MODELS}/openai%2Fgpt-6/`, { ...body, name: 'openai/gpt-6', providerCode: undefined }, /^providerCode and modelId are required$/],
      [`${MODELS}/openai%2Fgpt-6/`, { ...body, name: 'openai/gpt-6', modelId: '' }, /^providerCode and modelId are required$/],
      [`${MODELS}/openai%2Fgpt-6/`, { modelId: 'gpt-6' }, /^name is required with a '\/' in the path/],
      [VENDOR, { ...body, builtIn: true }, /^builtIn: must be false/],
      [VENDOR, { ...body, sunsetAt: 'soon' }, /^sunsetAt: must be an ISO 8601 timestamp/],
      [VENDOR, { ...body, pricePerAudioMinute: -1 }, /^pricePerAudioMinute: must be at least 0/],
    ]
    for (const [path, b, message] of cases) expectFailure(await post(path, b), message)
    expectFailure(await put(`${MODELS}/openai%2Fgpt-6/`, { ...body, name: 'openai/gpt-6', modelId: 'gpt-6' }), /Model 'openai\/gpt-6' not found/)
    expect(await bed.svc.deps.prisma.llmModelDefinition.count()).toBe(before)
    expect(bed.dev.received).toHaveLength(0)
    expect((await del(VENDOR)).status).toBe(200)
    bed.dev.received.length = 0
  })
})

describe('model catalog', () => {
  it('creates, reads, lists, updates and deletes catalog entries named by modelId', async () => {
    expect((await get(MODELS + '/')).body.resultCount).toBe(0)
    const res = await post(`${MODELS}/gpt-4o/`, {
      modelId: 'gpt-4o', displayName: 'GPT-4o', providerType: 'OPENAI', contextWindow: 128000, maxOutputTokens: 16384,
      pricePerMillionInput: 2.5, pricePerMillionOutput: 10, pricePerMillionCached: 1.25, capabilities: ['chat', 'vision'], modality: 'MULTIMODAL',
    })
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(true)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'LLM_MODEL', name: 'gpt-4o' })
    expect((await get(`${MODELS}/GPT-4o/`)).body.resultList[0]).toMatchObject({
      modelId: 'gpt-4o', displayName: 'GPT-4o', contextWindow: 128000, pricePerMillionInput: 2.5, pricePerMillionOutput: 10, pricePerMillionCached: 1.25,
      capabilities: ['chat', 'vision'], modality: 'MULTIMODAL', isDeprecated: false,
    })
    expect((await put(`${MODELS}/gpt-4o/`, { isDeprecated: true, pricePerMillionInput: 3 })).status).toBe(200)
    const updated = (await get(`${MODELS}/gpt-4o/`)).body.resultList[0]
    // full replacement: omitted fields are cleared
    expect(updated).toMatchObject({ isDeprecated: true, pricePerMillionInput: 3, displayName: null, capabilities: [] })
    // providers listing the model show the catalog's deprecation
    const provider = (await get(`${P}/openai-main/`)).body.resultList[0]
    expect(provider.supportedModels).toEqual([])
    await put(`${P}/openai-main/`, { _class: 'llm', name: 'openai-main', providerType: 'OPENAI', supportedModels: [{ modelId: 'GPT-4o', isDeprecated: false }] })
    expect((await get(`${P}/openai-main/`)).body.resultList[0].supportedModels[0]).toMatchObject({ modelId: 'GPT-4o', isDeprecated: true })
  })

  it('refuses bad catalog writes and writes nothing', async () => {
    const before = await bed.svc.deps.prisma.llmModelDefinition.count()
    expectFailure(await post(`${MODELS}/m1/`, { displayName: 'x' }), /modelId is required/)
    expectFailure(await post(`${MODELS}/m1/`, { modelId: 'm2' }), /modelId 'm2' does not match/)
    expectFailure(await post(`${MODELS}/m1/`, { modelId: 'm1', pricePerMillionInput: -0.5 }), /^pricePerMillionInput: must be at least 0/)
    expectFailure(await post(`${MODELS}/m1/`, { modelId: 'm1', modality: 'SMELL' }), /^modality: must be one of TEXT/)
    expectFailure(await post(`${MODELS}/m1/`, { modelId: 'm1', contextWindow: 1.5 }), /^contextWindow: must be an integer/)
    expectFailure(await put(`${MODELS}/m1/`, { modelId: 'm1' }), /Model 'm1' not found/)
    expectFailure(await post(`${MODELS}/m1/`, { modelId: 'm1' }, bed.vic), /lacks permission AI_DEVELOPMENT MANAGE/)
    expect(await bed.svc.deps.prisma.llmModelDefinition.count()).toBe(before)
  })

  it('exposes every known model with its input price to the USD budget check', async () => {
    await post(`${MODELS}/text-embedding-3-small/`, { modelId: 'text-embedding-3-small', modality: 'EMBEDDING' })
    const project = await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
    const rows = await coveredModelPrices(bed.svc.deps.prisma, project.id)
    expect(rows).toEqual(expect.arrayContaining([
      { modelId: 'gpt-4o', modelKey: 'gpt-4o', pricePerMillionInput: 3, source: 'catalog' },
      { modelId: 'text-embedding-3-small', modelKey: 'text-embedding-3-small', pricePerMillionInput: null, source: 'catalog' },
      // the same model as the catalog's gpt-4o: modelKey is what a price check compares
      { modelId: 'GPT-4o', modelKey: 'gpt-4o', pricePerMillionInput: null, source: 'provider:openai-main' },
    ]))
    const other = await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'other' } })
    expect(await coveredModelPrices(bed.svc.deps.prisma, other.id)).toEqual([])
  })

  it('deletes a catalog entry and undeploys it', async () => {
    expect((await del(`${MODELS}/text-embedding-3-small/`)).status).toBe(200)
    expect(bed.dev.received[0]).toMatchObject({ action: 'UNDEPLOY', kind: 'LLM_MODEL', name: 'text-embedding-3-small' })
    expectFailure(await del(`${MODELS}/text-embedding-3-small/`), /not found/)
  })
})

describe('secrets never leave the service', () => {
  it('no response body of this file carried a seeded secret', () => expectNoSecrets(bodies, [API_KEY], 15))
})
