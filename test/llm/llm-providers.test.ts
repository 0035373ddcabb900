import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectFailure, expectNoSecrets, legacyClient, llmBootstrap } from './llm-helpers.js'

// LLM providers (spec §2.7, §4.5); definitions and the model catalog: llm-catalog.test.ts
const P = '/apiops/projects/payments/llm-providers'
const DEFS = '/apiops/projects/payments/llm-provider-definitions'

// every response body of this file is scanned for these at the end
const API_KEY = 'sk-SEEDED-api-key-1111'
const API_KEY_2 = 'sk-SEEDED-api-key-rotated-2222'
const API_SECRET = 'SEEDED-api-secret-3333'
const SA_JSON = '{"type":"service_account","private_key":"SEEDED-private-key-4444"}'
const META_SECRET = 'SEEDED-metadata-secret-5555'
const META_SECRET_2 = 'SEEDED-metadata-secret-rotated-6666'
const SECRETS = [API_KEY, API_KEY_2, API_SECRET, SA_JSON, 'SEEDED-private-key-4444', META_SECRET, META_SECRET_2]

const bed = useTestbed({ workers: ['dev'], bootstrap: llmBootstrap, tokens: { alice: 'alice-pass-1', vic: 'vic-pass-1', root: 's3cret-root', carol: 'carol-pass-1' } })
const { bodies, call, get, post, put, del } = legacyClient(() => bed.svc, () => bed.alice)

const providerRow = (name: string) => bed.svc.deps.prisma.llmProvider.findFirst({ where: { name } })
const providerCount = () => bed.svc.deps.prisma.llmProvider.count()

describe('LLM providers: create, read, defaults', () => {
  it('lists an empty project with resultCount 0', async () => {
    const res = await get(P + '/')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
  })

  it('creates with POST, fills defaults from providerType, seals secrets and pushes to every environment', async () => {
    const res = await post(`${P}/openai-main/`, {
      _class: 'llm', name: 'openai-main', providerType: 'OPENAI', apiKey: API_KEY, apiSecret: API_SECRET, description: 'main',
      metadata: [{ key: 'team', value: 'payments' }, { key: 'signing', value: META_SECRET, secret: true }],
      supportedModels: [{ modelId: 'gpt-4o', pricePerMillionInput: 2.5, modality: 'TEXT', capabilities: ['chat'] }, { modelId: 'gpt-x' }],
    })
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('SUCCESS')
    expect(res.body.deploymentResult.success).toBe(true)
    expect(res.body.deploymentResult.environmentResults.map((e: any) => e.environmentName)).toEqual(['dev', 'prod'])
    expect(res.body.resultList[0]).toMatchObject({ name: 'openai-main', apiKeySet: true })

    const row = await providerRow('openai-main')
    expect(row!.apiKeyCipher).not.toContain(API_KEY)
    expect(bed.svc.deps.keyring.decrypt(row!.apiKeyCipher!)).toBe(API_KEY)
    expect(bed.svc.deps.keyring.decrypt(row!.apiSecretCipher!)).toBe(API_SECRET)
    expect(JSON.stringify(row!.metadata)).not.toContain(META_SECRET)

    expect(bed.dev.received).toHaveLength(1)
    const pushed = bed.dev.received[0]
    expect(pushed).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'LLM_PROVIDER', name: 'openai-main', revision: 1 })
    // the gateway gets the secrets it needs, opened
    expect(pushed.config).toMatchObject({ apiKey: API_KEY, apiSecret: API_SECRET, endpoint: 'https://api.openai.com/v1' })
    expect((pushed.config.metadata as any[]).find((m) => m.key === 'signing').value).toBe(META_SECRET)
    expect((pushed.config.resolvedUrls as any[])[0]).toEqual({ requestType: 'CHAT_COMPLETION', url: 'https://api.openai.com/v1/chat/completions', headers: {} })
  })

  it('reads one provider with defaults, presence flags, null secret metadata values and usedByRefs', async () => {
    const res = await get(`${P}/openai-main/`)
    expect(res.status).toBe(200)
    expect(res.body.resultCount).toBe(1)
    const p = res.body.resultList[0]
    expect(p).toMatchObject({
      _class: 'llm', name: 'openai-main', projectName: 'payments', description: 'main', enabled: true, providerType: 'OPENAI',
      endpoint: 'https://api.openai.com/v1', apiVersion: null, authScheme: 'BEARER', authHeaderName: 'Authorization', deploymentType: 'CLOUD',
      apiKeySet: true, apiSecretSet: true, serviceAccountJsonSet: false, wireProtocol: 'OPENAI', providerDefinitionId: 'openai',
      defaultChatCompletionPath: '/chat/completions', defaultEmbeddingPath: '/embeddings', defaultAudioTranscriptionPath: '/audio/transcriptions',
      defaultAudioSpeechPath: '/audio/speech', defaultImageGenerationPath: '/images/generations', defaultResponsesPath: '/responses',
      healthStatus: 'UNKNOWN', lastHealthCheckAt: null, lastLatencyMs: null, builtIn: false, allowedModelIds: [], coldStartRetryEnabled: false,
      usedByRefs: [],
    })
    expect(p.id).toEqual(expect.any(String))
    expect(p.metadata).toEqual([{ key: 'team', value: 'payments', secret: false }, { key: 'signing', value: null, secret: true }])
    expect(p.supportedModels).toEqual([
      { modelId: 'gpt-4o', displayName: null, contextWindow: null, maxOutputTokens: null, pricePerMillionInput: 2.5, pricePerMillionOutput: null,
        pricePerMillionCached: null, capabilities: ['chat'], modality: 'TEXT', isDeprecated: false },
      expect.objectContaining({ modelId: 'gpt-x', pricePerMillionInput: null, isDeprecated: false }),
    ])
    expect(p).not.toHaveProperty('apiKey')
    expect(p).not.toHaveProperty('apiSecret')
  })

  it('lists providers without usedByRefs', async () => {
    const res = await get(P + '/')
    expect(res.body.resultCount).toBe(1)
    expect(res.body.resultList[0].name).toBe('openai-main')
    expect(res.body.resultList[0]).not.toHaveProperty('usedByRefs')
  })

  it('fills the Azure and Anthropic defaults from the catalog', async () => {
    expect((await post(`${P}/azure-1/`, { _class: 'llm', name: 'azure-1', providerType: 'AZURE_OPENAI', endpoint: '' })).status).toBe(200)
    const azure = (await get(`${P}/azure-1/`)).body.resultList[0]
    expect(azure).toMatchObject({
      endpoint: 'https://${resourceName}.openai.azure.com/openai', apiVersion: '2024-10-21', authScheme: 'API_KEY_HEADER', authHeaderName: 'api-key',
      deploymentType: 'CLOUD', wireProtocol: 'OPENAI', defaultChatCompletionPath: '/deployments/${model}/chat/completions', apiKeySet: false,
    })
    expect((await post(`${P}/claude/`, { _class: 'llm', name: 'claude', providerType: 'ANTHROPIC', authScheme: null, apiVersion: '  ' })).status).toBe(200)
    const claude = (await get(`${P}/claude/`)).body.resultList[0]
    expect(claude).toMatchObject({ apiVersion: '2023-06-01', authScheme: 'API_KEY_HEADER', authHeaderName: 'x-api-key', wireProtocol: 'ANTHROPIC', defaultChatCompletionPath: '/messages', defaultEmbeddingPath: null })
    const local = (await post(`${P}/local/`, { _class: 'llm', name: 'local', providerType: 'OLLAMA' })).body
    expect(local.resultList[0]).toMatchObject({ deploymentType: 'ON_PREM', authScheme: 'NONE', endpoint: 'http://localhost:11434/v1' })
  })

  it('keeps explicit values instead of defaults', async () => {
    const res = await post(`${P}/custom-azure/`, {
      _class: 'llm', name: 'custom-azure', providerType: 'AZURE_OPENAI', endpoint: 'https://acme.openai.azure.com/openai', apiVersion: '2025-01-01',
      authScheme: 'BEARER', authHeaderName: 'X-Auth', deploymentType: 'ON_PREM', enabled: false, providerRpmLimit: 60, providerTpmLimit: 100000,
      coldStartRetryEnabled: true, allowedModelIds: ['gpt-4o', 'gpt-4o'], region: 'westeurope', organizationId: 'org-1',
    })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({
      endpoint: 'https://acme.openai.azure.com/openai', apiVersion: '2025-01-01', authScheme: 'BEARER', authHeaderName: 'X-Auth', deploymentType: 'ON_PREM',
      enabled: false, providerRpmLimit: 60, providerTpmLimit: 100000, coldStartRetryEnabled: true, allowedModelIds: ['gpt-4o'], region: 'westeurope', organizationId: 'org-1',
    })
  })

  it('defaults providerType to OTHER when none is sent', async () => {
    const res = await post(`${P}/bare/`, { _class: 'llm', name: 'bare' })
    expect(res.body.resultList[0]).toMatchObject({ providerType: 'OTHER', providerDefinitionId: 'other', wireProtocol: 'OPENAI' })
  })
})

describe('LLM providers: usedByRefs', () => {
  it('lists the AI proxies whose routing references the provider (case-insensitively)', async () => {
    expect((await post('/apiops/projects/payments/apiProxies/ai/chat-gw/', {}, bed.root)).status).toBe(200)
    const routed = await put('/apiops/projects/payments/apiProxies/chat-gw/ai-routing/', { targets: [{ providerName: 'OPENAI-MAIN', model: 'gpt-4o' }] }, bed.root)
    expect(routed.status).toBe(200)
    expect((await get(`${P}/openai-main/`)).body.resultList[0].usedByRefs).toEqual(['chat-gw'])
    expect((await get(`${P}/azure-1/`)).body.resultList[0].usedByRefs).toEqual([])
    expect((await get(P + '/')).body.resultList.every((p: any) => !('usedByRefs' in p))).toBe(true)
  })
})

describe('LLM providers: body rules', () => {
  it('refuses a body without _class (cannot be deserialized) and writes nothing', async () => {
    const before = await providerCount()
    expectFailure(await post(`${P}/no-class/`, { name: 'no-class', providerType: 'OPENAI' }), /_class is required/)
    expectFailure(await put(`${P}/openai-main/`, { name: 'openai-main', description: 'changed' }), /_class is required/)
    expectFailure(await post(`${P}/no-class/`, { _class: 'vector-db', name: 'no-class' }), /_class 'vector-db' is not supported/)
    expect(await providerCount()).toBe(before)
    expect((await providerRow('openai-main'))!.description).toBe('main')
    expect(bed.dev.received).toHaveLength(0)
  })

  it('requires the name on POST and equal to the path name (case-insensitively)', async () => {
    const before = await providerCount()
    expectFailure(await post(`${P}/p1/`, { _class: 'llm' }), /name is required/)
    expectFailure(await post(`${P}/p1/`, { _class: 'llm', name: '  ' }), /name is required/)
    const mismatch = await post(`${P}/p1/`, { _class: 'llm', name: 'p2' })
    expectFailure(mismatch, /name 'p2' does not match the name in the path 'p1'/)
    expect(await providerCount()).toBe(before)
    const ok = await post(`${P}/p1/`, { _class: 'llm', name: 'P1' })
    expect(ok.status).toBe(200)
    expect(ok.body.resultList[0].name).toBe('P1')
  })

  it('addresses providers case-insensitively: POST on an existing name updates it (upsert)', async () => {
    const before = await providerCount()
    const res = await post(`${P}/p1/`, { _class: 'llm', name: 'p1', description: 'upserted' })
    expect(res.status).toBe(200)
    expect(await providerCount()).toBe(before)
    const row = await providerRow('p1')
    expect(row).toMatchObject({ description: 'upserted', revision: 2 })
  })

  it('refuses PUT on a provider that does not exist, writing nothing', async () => {
    const before = await providerCount()
    expectFailure(await put(`${P}/ghost/`, { _class: 'llm', name: 'ghost' }), /LLM provider 'ghost' not found in project 'payments'/)
    expect(await providerCount()).toBe(before)
    expect(bed.dev.received).toHaveLength(0)
  })

  it('on PUT a blank name falls back to the path value; a different one is refused', async () => {
    expect((await put(`${P}/p1/`, { _class: 'llm', name: '', description: 'put' })).status).toBe(200)
    expect((await providerRow('p1'))!.description).toBe('put')
    expectFailure(await put(`${P}/p1/`, { _class: 'llm', name: 'other', description: 'x' }), /does not match/)
    expect((await providerRow('p1'))!.description).toBe('put')
  })

  it('refuses unknown fields and bad values, naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ _class: 'llm', name: 'bad', providerType: 'NOPE' }, /^providerType: must be one of OPENAI/],
      [{ _class: 'llm', name: 'bad', authScheme: 'MAGIC' }, /^authScheme: must be one of BEARER/],
      [{ _class: 'llm', name: 'bad', deploymentType: 'EDGE' }, /^deploymentType: must be one of CLOUD, ON_PREM/],
      [{ _class: 'llm', name: 'bad', providerRpmLimit: 0 }, /^providerRpmLimit: must be at least 1/],
      [{ _class: 'llm', name: 'bad', authHeaderName: 'x-api-key: v' }, /^authHeaderName: must be an HTTP header name/],
      [{ _class: 'llm', name: 'bad', colour: 'red' }, /^colour: unknown field/],
      [{ _class: 'llm', name: 'bad', supportedModels: [{ displayName: 'x' }] }, /^supportedModels\[0\]\.modelId: is required/],
      [{ _class: 'llm', name: 'bad', supportedModels: [{ modelId: 'a', pricePerMillionInput: -1 }] }, /^supportedModels\[0\]\.pricePerMillionInput: must be at least 0/],
      [{ _class: 'llm', name: 'bad', supportedModels: [{ modelId: 'a' }, { modelId: 'A' }] }, /^supportedModels\[1\]\.modelId: duplicate model 'A'/],
      [{ _class: 'llm', name: 'bad', metadata: [{ key: 'k' }, { key: 'k' }] }, /^metadata\[1\]\.key: duplicate key 'k'/],
      [{ _class: 'llm', name: 'bad', metadata: [{ value: 'v' }] }, /^metadata\[0\]\.key: is required/],
      [{ _class: 'llm', name: 'bad', providerDefinitionId: 'nope' }, /^providerDefinitionId: unknown provider definition 'nope'/],
      [{ _class: 'llm', name: 'bad', providerType: 'OPENAI', providerDefinitionId: 'anthropic' }, /definition 'anthropic' is for providerType ANTHROPIC, not OPENAI/],
    ]
    const before = await providerCount()
    for (const [body, message] of cases) {
      const res = await post(`${P}/bad/`, body)
      expectFailure(res, message)
    }
    expect(await providerCount()).toBe(before)
    expect(bed.dev.received).toHaveLength(0)
  })

  it('refuses a body that is not a JSON object', async () => {
    expectFailure(await post(`${P}/bad/`, [1, 2]), /JSON object/)
    const res = await bed.svc.http(`${P}/bad/`, { method: 'POST', headers: { authorization: `Bearer ${bed.alice}`, 'content-type': 'application/json' }, body: '{oops' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as any).resultMessage).toMatch(/not valid JSON/)
  })

  it('ignores read-only fields on write and copies wireProtocol and paths from the definition', async () => {
    const res = await put(`${P}/openai-main/`, {
      _class: 'llm', name: 'openai-main', providerType: 'OPENAI', description: 'main', id: 'forged', projectId: 'forged', apiKeySet: false,
      wireProtocol: 'COHERE', defaultChatCompletionPath: '/hacked', builtIn: true, healthStatus: 'HEALTHY', lastLatencyMs: 3, usedByRefs: ['x'],
      metadata: [{ key: 'team', value: 'payments' }, { key: 'signing', value: '', secret: true }],
    })
    expect(res.status).toBe(200)
    const row = await providerRow('openai-main')
    expect(row).toMatchObject({ wireProtocol: 'OPENAI', defaultChatCompletionPath: '/chat/completions', healthStatus: 'UNKNOWN', lastLatencyMs: null })
    expect(row!.id).not.toBe('forged')
  })
})

describe('LLM providers: secrets', () => {
  it('keeps stored secrets when the update sends them blank or omits them', async () => {
    const before = await providerRow('openai-main')
    expect((await put(`${P}/openai-main/`, { _class: 'llm', name: 'openai-main', providerType: 'OPENAI', apiKey: '', apiSecret: '   ', metadata: [{ key: 'signing', secret: true }] })).status).toBe(200)
    const after = await providerRow('openai-main')
    expect(after!.apiKeyCipher).toBe(before!.apiKeyCipher)
    expect(after!.apiSecretCipher).toBe(before!.apiSecretCipher)
    const signing = (after!.metadata as any[]).find((m) => m.key === 'signing')
    expect(bed.svc.deps.keyring.decrypt(signing.valueCipher)).toBe(META_SECRET)
    const view = (await get(`${P}/openai-main/`)).body.resultList[0]
    expect(view).toMatchObject({ apiKeySet: true, apiSecretSet: true })
  })

  it('rotates a secret when a non-blank value is sent, and pushes the new value', async () => {
    const res = await put(`${P}/openai-main/`, {
      _class: 'llm', name: 'openai-main', providerType: 'OPENAI', apiKey: API_KEY_2, serviceAccountJson: SA_JSON,
      metadata: [{ key: 'signing', value: META_SECRET_2, secret: true }],
    })
    expect(res.status).toBe(200)
    const row = await providerRow('openai-main')
    expect(bed.svc.deps.keyring.decrypt(row!.apiKeyCipher!)).toBe(API_KEY_2)
    expect(bed.svc.deps.keyring.decrypt(row!.serviceAccountJsonCipher!)).toBe(SA_JSON)
    expect(bed.svc.deps.keyring.decrypt((row!.metadata as any[])[0].valueCipher)).toBe(META_SECRET_2)
    expect(bed.dev.received[0].config).toMatchObject({ apiKey: API_KEY_2, serviceAccountJson: SA_JSON })
    expect((await get(`${P}/openai-main/`)).body.resultList[0]).toMatchObject({ serviceAccountJsonSet: true, metadata: [{ key: 'signing', value: null, secret: true }] })
  })

  it('drops a metadata secret that becomes a plain value', async () => {
    await put(`${P}/p1/`, { _class: 'llm', name: 'p1', metadata: [{ key: 'm', value: 'hidden-not-seeded', secret: true }] })
    await put(`${P}/p1/`, { _class: 'llm', name: 'p1', metadata: [{ key: 'm', value: 'plain', secret: false }] })
    expect((await providerRow('p1'))!.metadata).toEqual([{ key: 'm', value: 'plain', secret: false, valueCipher: null }])
  })
})

describe('LLM providers: definitions selection', () => {
  it('copies wireProtocol and paths from a selected custom definition; an empty definition path falls back to the type default', async () => {
    const def = await post(`${DEFS}/my-gateway/`, {
      name: 'my-gateway', providerType: 'OTHER', wireProtocol: 'COHERE', defaultChatCompletionPath: '/v9/chat', defaultEmbeddingPath: '',
      defaultEndpoint: 'https://llm.internal/api',
    })
    expect(def.status).toBe(200)
    const id = def.body.resultList[0].id
    const res = await post(`${P}/internal/`, { _class: 'llm', name: 'internal', providerType: 'OTHER', providerDefinitionId: 'my-gateway' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({
      providerDefinitionId: id, wireProtocol: 'COHERE', defaultChatCompletionPath: '/v9/chat', defaultEmbeddingPath: '/embeddings', endpoint: 'https://llm.internal/api',
    })
    // selection by id works too, and the providerType comes from the definition when omitted
    const byId = await post(`${P}/internal-2/`, { _class: 'llm', name: 'internal-2', providerDefinitionId: id })
    expect(byId.body.resultList[0]).toMatchObject({ providerType: 'OTHER', wireProtocol: 'COHERE' })
  })

  it('keeps the selected definition when an update omits it, and follows changes of the definition on the next save', async () => {
    await put(`${DEFS}/my-gateway/`, { name: 'my-gateway', providerType: 'OTHER', wireProtocol: 'GEMINI', defaultChatCompletionPath: '/v10/chat' })
    const res = await put(`${P}/internal/`, { _class: 'llm', name: 'internal', providerType: 'OTHER' })
    expect(res.body.resultList[0]).toMatchObject({ wireProtocol: 'GEMINI', defaultChatCompletionPath: '/v10/chat' })
  })

  it('keeps the copied values when the selected custom definition was deleted', async () => {
    expect((await del(`${DEFS}/my-gateway/`)).status).toBe(200)
    const res = await put(`${P}/internal/`, { _class: 'llm', name: 'internal', providerType: 'OTHER', description: 'after' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ wireProtocol: 'GEMINI', defaultChatCompletionPath: '/v10/chat', description: 'after' })
  })

  it('switches to the new type built-in when the type changes', async () => {
    const res = await put(`${P}/internal/`, { _class: 'llm', name: 'internal', providerType: 'ANTHROPIC' })
    expect(res.body.resultList[0]).toMatchObject({ providerDefinitionId: 'anthropic', wireProtocol: 'ANTHROPIC', defaultChatCompletionPath: '/messages' })
  })
})

describe('LLM providers: permissions, scope, deployment', () => {
  it('requires AI_DEVELOPMENT VIEW to read and MANAGE to write', async () => {
    expectFailure(await get(P + '/', bed.carol), /lacks permission AI_DEVELOPMENT VIEW/)
    expectFailure(await get(`${P}/openai-main/`, bed.carol), /lacks permission AI_DEVELOPMENT VIEW/)
    expect((await get(P + '/', bed.vic)).status).toBe(200)
    const before = await providerCount()
    expectFailure(await post(`${P}/v1/`, { _class: 'llm', name: 'v1' }, bed.vic), /lacks permission AI_DEVELOPMENT MANAGE/)
    expectFailure(await put(`${P}/p1/`, { _class: 'llm', name: 'p1' }, bed.vic), /lacks permission AI_DEVELOPMENT MANAGE/)
    expectFailure(await del(`${P}/p1/`, bed.vic), /lacks permission AI_DEVELOPMENT MANAGE/)
    expect(await providerCount()).toBe(before)
    expect((await get(P + '/', bed.root)).status).toBe(200)
  })

  it('answers 400 for an unknown project and 401 without a token', async () => {
    expectFailure(await get('/apiops/projects/nope/llm-providers/'), /Project 'nope' not found/)
    expectFailure(await get('/apiops/projects/other/llm-providers/'), /Project 'other' not found/)
    const res = await call('GET', P + '/', null)
    expect(res.status).toBe(401)
    expect(res.body.status).toBe('FAILURE')
  })

  it('keeps the save when an environment fails, and says so in deploymentResult', async () => {
    bed.dev.status = 503
    const res = await put(`${P}/p1/`, { _class: 'llm', name: 'p1', description: 'while down' })
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(false)
    expect(res.body.deploymentResult.environmentResults.find((e: any) => e.environmentName === 'dev')).toMatchObject({ success: false, message: expect.stringMatching(/503/) })
    expect((await providerRow('p1'))!.description).toBe('while down')
  })

  it('deletes, undeploys, and then reports not found', async () => {
    const row = await providerRow('p1')
    const res = await del(`${P}/P1/`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'LLM_PROVIDER', name: 'p1', revision: row!.revision + 1 })])
    expect(await providerRow('p1')).toBeNull()
    expectFailure(await get(`${P}/p1/`), /LLM provider 'p1' not found/)
    expectFailure(await del(`${P}/p1/`), /LLM provider 'p1' not found/)
  })
})

describe('secrets never leave the service', () => {
  it('no response body of this file carried a seeded secret', () => expectNoSecrets(bodies, SECRETS, 40))
})
