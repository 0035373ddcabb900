import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { coveredModelPrices } from '../../src/modules/llm/models/prices.js'
import { expectFailure, expectNoSecrets, legacyClient, llmBootstrap } from './llm-helpers.js'

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
