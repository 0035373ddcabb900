import type { TypedDocumentNode } from '@graphql-typed-document-node/core'
import { print } from 'graphql'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  DeleteKnowledgeBaseDocument, DeleteKnowledgeDocumentDocument, DeleteLlmModelDocument, DeleteLlmProviderDefinitionDocument, DeleteLlmProviderDocument,
  DeleteVectorDbDocument, KnowledgeBaseDocument, KnowledgeBasesDocument, KnowledgeDocumentDocument, KnowledgeDocumentsDocument, LlmModelDocument, LlmModelsDocument,
  LlmProviderDefinitionDocument, LlmProviderDefinitionsDocument, LlmProviderDocument, LlmProvidersDocument, ReindexKnowledgeBaseDocument, TestVectorDbConnectionDocument,
  UpdateKnowledgeBaseDocument, UpdateLlmModelDocument, UpdateLlmProviderDefinitionDocument, UpdateLlmProviderDocument, UpdateVectorDbDocument,
  UploadKnowledgeDocumentDocument,
  UploadKnowledgeDocumentFileDocument, UpsertKnowledgeBaseDocument, UpsertLlmModelDocument, UpsertLlmProviderDefinitionDocument, UpsertLlmProviderDocument,
  UpsertVectorDbDocument, VectorDbDocument, VectorDbsDocument,
} from '../generated/graphql.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeEmbeddings } from '../support/fake-embeddings.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'

const KEY = 'sk-SEEDED-graphql-key-1212'
const KEY_2 = 'sk-SEEDED-graphql-key-rotated-3434'
const META = 'SEEDED-graphql-meta-5656'
const VDB_KEY = 'SEEDED-graphql-vdb-key-7878'
const SECRETS = [KEY, KEY_2, META, VDB_KEY]
const project = 'payments'

let svc: TestService
let worker: FakeWorker
let emb: FakeEmbeddings
let alice: string
let carol: string
const bodies: string[] = []

/** Runs a named operation and keeps its whole answer for the secret scan. */
async function op<R, V>(document: TypedDocumentNode<R, V>, variables: V, token = alice) {
  const result = await svc.op(document, variables, token)
  bodies.push(JSON.stringify(result))
  return result
}

function expectError(result: { data?: unknown; errors?: any[] }, errorKey: string, message: RegExp) {
  expect(result.errors?.length).toBe(1)
  expect(result.errors![0].extensions.errorKey).toBe(errorKey)
  expect(result.errors![0].message).toMatch(message)
}

beforeAll(async () => {
  worker = await FakeWorker.start()
  emb = await FakeEmbeddings.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  carol = await svc.tokenFor('carol', 'carol-pass-1')
})
afterEach(() => {
  worker.status = 200
  worker.received.length = 0
  emb.reset()
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
  await emb?.stop()
})

describe('GraphQL: LLM providers', () => {
  it('upserts a provider with write-only secrets, deploys it and reads resolved URLs per request type', async () => {
    const res = await op(UpsertLlmProviderDocument, {
      projectName: project, name: 'azure-eu',
      input: {
        providerType: 'AZURE_OPENAI', endpoint: 'https://acme.openai.azure.com/openai?tenant=t1', apiKey: KEY,
        metadata: [{ key: 'sig', value: META, secret: true }], supportedModels: [{ modelId: 'gpt-4o', pricePerMillionInput: 2.5 }],
      },
    })
    expect(res.errors).toBeUndefined()
    const p = res.data!.upsertLlmProvider.provider
    expect(res.data!.upsertLlmProvider.deploymentResult.success).toBe(true)
    expect(p).toMatchObject({ name: 'azure-eu', apiKeySet: true, apiSecretSet: false, apiVersion: '2024-10-21', authScheme: 'API_KEY_HEADER', wireProtocol: 'OPENAI' })
    expect(p.metadata).toEqual([{ key: 'sig', value: null, secret: true }])
    expect(p.resolvedUrls.find((u) => u.requestType === 'CHAT_COMPLETION')).toEqual({
      requestType: 'CHAT_COMPLETION', url: 'https://acme.openai.azure.com/openai/deployments/${model}/chat/completions?tenant=t1&api-version=2024-10-21', headers: [],
    })
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'LLM_PROVIDER', name: 'azure-eu' })
  })

  it('shows the version header of ANTHROPIC among the resolved URLs', async () => {
    const res = await op(UpsertLlmProviderDocument, { projectName: project, name: 'claude', input: { providerType: 'ANTHROPIC' } })
    const urls = res.data!.upsertLlmProvider.provider.resolvedUrls
    expect(urls[0]).toEqual({ requestType: 'CHAT_COMPLETION', url: 'https://api.anthropic.com/v1/messages', headers: [{ name: 'anthropic-version', value: '2023-06-01' }] })
    expect(urls.find((u) => u.requestType === 'EMBEDDING')!.url).toBeNull()
  })

  it('lists providers and reads one with usedByRefs', async () => {
    const list = await op(LlmProvidersDocument, { projectName: project })
    expect(list.data!.llmProviders).toMatchObject({ page: 0, size: 20, totalElements: 2, totalPages: 1, sort: ['name,asc'] })
    expect(list.data!.llmProviders.items.map((p) => [p.name, p.usedByRefs])).toEqual([['azure-eu', []], ['claude', []]])
    const second = await op(LlmProvidersDocument, { projectName: project, page: 1, size: 1, sort: ['name,desc'] })
    expect(second.data!.llmProviders).toMatchObject({ page: 1, size: 1, totalElements: 2, totalPages: 2, sort: ['name,desc'] })
    expect(second.data!.llmProviders.items.map((p) => p.name)).toEqual(['azure-eu'])
    expectError(await op(LlmProvidersDocument, { projectName: project, sort: ['colour,asc'] }), 'unsupportedSortField', /Unsupported sort field 'colour'/)
    const one = await op(LlmProviderDocument, { projectName: project, name: 'AZURE-EU' })
    expect(one.data!.llmProvider).toMatchObject({ name: 'azure-eu', usedByRefs: [] })
  })

  it('gives every provider of a list its own usedByRefs (batched), within its project, names compared case-insensitively', async () => {
    const root = await svc.tokenFor('root', 's3cret-root')
    const rest = async (method: string, path: string, body: unknown) => {
      const res = await svc.http(path, { method, headers: { authorization: `Bearer ${root}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      const text = await res.text()
      bodies.push(text)
      return `${res.status} ${res.status === 200 ? '' : text}`.trim()
    }
    const routes: [string, string, string][] = [['payments', 'gw-a', 'AZURE-EU'], ['payments', 'gw-b', 'claude'], ['payments', 'gw-c', 'azure-eu'], ['other', 'gw-x', 'claude']]
    // a provider of the same name in another project has its own references
    expect(await rest('POST', '/apiops/projects/other/llm-providers/claude/', { _class: 'llm', name: 'claude', providerType: 'ANTHROPIC' })).toBe('200')
    for (const [projectName, proxy, provider] of routes) {
      expect(await rest('POST', `/apiops/projects/${projectName}/apiProxies/ai/${proxy}/`, {})).toBe('200')
      expect(await rest('PUT', `/apiops/projects/${projectName}/apiProxies/${proxy}/ai-routing/`, { targets: [{ providerName: provider, model: 'gpt-4o' }] })).toBe('200')
    }
    const list = await op(LlmProvidersDocument, { projectName: project })
    expect(list.errors).toBeUndefined()
    expect(list.data!.llmProviders.items.map((p) => [p.name, p.usedByRefs])).toEqual([['azure-eu', ['gw-a', 'gw-c']], ['claude', ['gw-b']]])
    expect((await op(LlmProviderDocument, { projectName: project, name: 'Claude' })).data!.llmProvider.usedByRefs).toEqual(['gw-b'])
    expect((await op(LlmProvidersDocument, { projectName: 'other' }, root)).data!.llmProviders.items.map((p) => [p.name, p.usedByRefs])).toEqual([['claude', ['gw-x']]])
  })

  it('keeps secrets on a blank update and rotates them on a new value', async () => {
    const before = await svc.deps.prisma.llmProvider.findFirstOrThrow({ where: { name: 'azure-eu' } })
    const kept = await op(UpdateLlmProviderDocument, { projectName: project, name: 'azure-eu', input: { providerType: 'AZURE_OPENAI', apiKey: '', metadata: [{ key: 'sig', secret: true }] } })
    expect(kept.errors).toBeUndefined()
    const after = await svc.deps.prisma.llmProvider.findFirstOrThrow({ where: { name: 'azure-eu' } })
    expect(after.apiKeyCipher).toBe(before.apiKeyCipher)
    await op(UpdateLlmProviderDocument, { projectName: project, name: 'azure-eu', input: { providerType: 'AZURE_OPENAI', apiKey: KEY_2 } })
    const rotated = await svc.deps.prisma.llmProvider.findFirstOrThrow({ where: { name: 'azure-eu' } })
    expect(svc.deps.keyring.decrypt(rotated.apiKeyCipher!)).toBe(KEY_2)
  })

  it('answers the same errors as REST, with errorKey in extensions, and writes nothing', async () => {
    const before = await svc.deps.prisma.llmProvider.count()
    expectError(await op(UpsertLlmProviderDocument, { projectName: project, name: 'p1', input: { name: 'p2' } }), 'malformedRequest', /name 'p2' does not match the name in the path 'p1'/)
    expectError(await op(UpdateLlmProviderDocument, { projectName: project, name: 'ghost', input: {} }), 'resourceNotFound', /LLM provider 'ghost' not found in project 'payments'/)
    expectError(await op(UpsertLlmProviderDocument, { projectName: project, name: 'p1', input: { providerType: 'NOPE' } }), 'malformedRequest', /^providerType: must be one of/)
    expectError(await op(UpsertLlmProviderDocument, { projectName: project, name: 'p1', input: {} }, carol), 'permissionDenied', /lacks permission AI_DEVELOPMENT MANAGE/)
    expectError(await op(LlmProvidersDocument, { projectName: project }, carol), 'permissionDenied', /AI_DEVELOPMENT VIEW/)
    expectError(await op(LlmProviderDocument, { projectName: 'nope', name: 'x' }), 'resourceNotFound', /Project 'nope' not found/)
    expect(await svc.deps.prisma.llmProvider.count()).toBe(before)
    expect(worker.received).toHaveLength(0)
  })
})

describe('GraphQL: definitions and model catalog', () => {
  it('reads built-ins, refuses writes on them, and manages custom definitions', async () => {
    const list = await op(LlmProviderDefinitionsDocument, { projectName: project })
    expect(list.data!.llmProviderDefinitions.filter((d) => d.builtIn)).toHaveLength(18)
    expect((await op(LlmProviderDefinitionDocument, { projectName: project, name: 'aws-bedrock' })).data!.llmProviderDefinition).toMatchObject({ defaultAuthScheme: 'AWS_SIGV4', wireProtocol: 'BEDROCK' })
    expectError(await op(UpsertLlmProviderDefinitionDocument, { projectName: project, name: 'openai', input: {} }), 'builtInReadOnly', /built-in and read-only/)
    expectError(await op(DeleteLlmProviderDefinitionDocument, { projectName: project, name: 'openai' }), 'builtInReadOnly', /built-in and read-only/)
    const created = await op(UpsertLlmProviderDefinitionDocument, { projectName: project, name: 'vllm', input: { providerType: 'OTHER', defaultChatCompletionPath: '/v1/chat' } })
    expect(created.data!.upsertLlmProviderDefinition.definition).toMatchObject({ name: 'vllm', builtIn: false, defaultChatCompletionPath: '/v1/chat', projectName: project })
    const updated = await op(UpdateLlmProviderDefinitionDocument, { projectName: project, name: 'vllm', input: { providerType: 'OTHER', description: 'self-hosted' } })
    expect(updated.data!.updateLlmProviderDefinition.definition).toMatchObject({ description: 'self-hosted', defaultChatCompletionPath: '/chat/completions' })
    expect((await op(DeleteLlmProviderDefinitionDocument, { projectName: project, name: 'vllm' })).data!.deleteLlmProviderDefinition.success).toBe(true)
  })

  it('manages the model catalog', async () => {
    const res = await op(UpsertLlmModelDocument, { projectName: project, modelId: 'gpt-4o', input: { pricePerMillionInput: 2.5, modality: 'TEXT' } })
    expect(res.data!.upsertLlmModel.model).toMatchObject({ modelId: 'gpt-4o', pricePerMillionInput: 2.5, isDeprecated: false })
    expectError(await op(UpsertLlmModelDocument, { projectName: project, modelId: 'gpt-4o', input: { modelId: 'other' } }), 'malformedRequest', /modelId 'other' does not match/)
    expectError(await op(UpdateLlmModelDocument, { projectName: project, modelId: 'nope', input: {} }), 'resourceNotFound', /Model 'nope' not found/)
    await op(UpdateLlmModelDocument, { projectName: project, modelId: 'gpt-4o', input: { isDeprecated: true } })
    expect((await op(LlmModelDocument, { projectName: project, modelId: 'GPT-4O' })).data!.llmModel).toMatchObject({ isDeprecated: true, pricePerMillionInput: null })
    expect((await op(LlmProviderDocument, { projectName: project, name: 'azure-eu' })).data!.llmProvider.supportedModels).toEqual([])
    expect((await op(LlmModelsDocument, { projectName: project })).data!.llmModels).toMatchObject({ totalElements: 1, sort: ['modelId,asc'] })
    expect((await op(DeleteLlmModelDocument, { projectName: project, modelId: 'gpt-4o' })).data!.deleteLlmModel.success).toBe(true)
  })
})

describe('GraphQL: vector stores and knowledge bases', () => {
  it('upserts a vector store, tests a connection with the supplied values and reads presence flags', async () => {
    const input = { dbType: 'QDRANT', transport: { family: 'http', endpoint: `${emb.url}/q`, authScheme: 'BEARER', apiKey: VDB_KEY } }
    const res = await op(UpsertVectorDbDocument, { projectName: project, name: 'qd', input })
    expect(res.errors).toBeUndefined()
    expect(res.data!.upsertVectorDb.vectorDb.transport).toMatchObject({ family: 'http', apiKeySet: true, passwordSet: null, jdbcUrl: null })
    emb.requiredAuthorization = `Bearer ${VDB_KEY}`
    const ok = await op(TestVectorDbConnectionDocument, { projectName: project, name: 'qd', input })
    expect(ok.data!.testVectorDbConnection).toMatchObject({ success: true, reachable: true, statusCode: 200 })
    const blank = await op(TestVectorDbConnectionDocument, { projectName: project, name: 'qd', input: { ...input, transport: { ...input.transport, apiKey: '' } } })
    expect(blank.data!.testVectorDbConnection).toMatchObject({ success: false, statusCode: 401 })
    expectError(await op(UpsertVectorDbDocument, { projectName: project, name: 'qd2', input: { dbType: 'QDRANT', transport: { family: 'smtp' } } }), 'malformedRequest', /^transport\.family/)
    expectError(await op(UpdateVectorDbDocument, { projectName: project, name: 'ghost', input }), 'resourceNotFound', /Vector store 'ghost' not found/)
    expect((await op(VectorDbsDocument, { projectName: project })).data!.vectorDbs.items.map((v) => v.name)).toEqual(['qd'])
    expect((await op(VectorDbDocument, { projectName: project, name: 'qd' })).data!.vectorDb.dbType).toBe('QDRANT')
  })

  it("upserts the vendor page's redis store (dbType REDIS, family redis, timeouts) and reads the flattened fields (issue 32 §0)", async () => {
    const res = await svc.graphql(
      `mutation($input: VectorDbInput!) { upsertVectorDb(projectName: "payments", name: "redis-search", input: $input) {
        vectorDb { dbType enabled family connectTimeoutMs requestTimeoutMs redisUri redisUsername redisPasswordSet jdbcUrl maxBatchSize distanceMetric builtIn transport { family uri passwordSet } } } }`,
      { input: { dbType: 'REDIS', enabled: false, defaultCollectionName: 'doc_idx', transport: { family: 'redis', connectTimeoutMs: 5000, requestTimeoutMs: 30000, uri: 'rediss://redis.internal:6379', username: 'default', password: 'redis-auth-pass' } } },
      alice,
    )
    expect(res.body.errors).toBeUndefined()
    expect(res.body.data.upsertVectorDb.vectorDb).toEqual({
      dbType: 'REDIS', enabled: false, family: 'redis', connectTimeoutMs: 5000, requestTimeoutMs: 30000, redisUri: 'rediss://redis.internal:6379', redisUsername: 'default',
      redisPasswordSet: true, jdbcUrl: null, maxBatchSize: 100, distanceMetric: 'COSINE', builtIn: false, transport: { family: 'redis', uri: 'rediss://redis.internal:6379', passwordSet: true },
    })
    const wrongFamily = await svc.graphql('mutation { upsertVectorDb(projectName: "payments", name: "r2", input: { dbType: "REDIS", transport: { family: "http", endpoint: "https://x.example" } }) { vectorDb { id } } }', {}, alice)
    expect(wrongFamily.body.errors![0]!.message).toBe('transport.family: dbType REDIS is reached with the redis family, not http')
    expect(await svc.deps.prisma.vectorDb.count({ where: { name: 'r2' } })).toBe(0)
    expect((await svc.graphql('mutation { deleteVectorDb(projectName: "payments", name: "redis-search") { success } }', {}, alice)).body.data.deleteVectorDb.success).toBe(true)
  })

  it('creates a knowledge base, uploads, lists, reads, reindexes and deletes documents', async () => {
    const provider = await op(UpsertLlmProviderDocument, { projectName: project, name: 'emb', input: { providerType: 'OTHER', endpoint: `${emb.url}/v1`, apiKey: KEY } })
    const providerId = provider.data!.upsertLlmProvider.provider.id
    const vdbId = (await op(VectorDbDocument, { projectName: project, name: 'qd' })).data!.vectorDb.id
    const kb = await op(UpsertKnowledgeBaseDocument, { projectName: project, name: 'faq', input: { embeddingProviderId: providerId, embeddingModel: 'e1', vectorDbId: vdbId, chunkSize: 100, chunkOverlap: 0 } })
    expect(kb.errors).toBeUndefined()
    expect(kb.data!.upsertKnowledgeBase.knowledgeBase).toMatchObject({ name: 'faq', embeddingProviderName: 'emb', vectorDbName: 'qd', documentCount: 0 })

    const text = 'Refunds take five days. '.repeat(20)
    const up = await op(UploadKnowledgeDocumentDocument, { projectName: project, knowledgeBase: 'faq', fileName: 'faq.txt', content: text })
    expect(up.errors).toBeUndefined()
    const doc = up.data!.uploadKnowledgeDocument.document
    expect(doc).toMatchObject({ fileName: 'faq.txt', mimeType: 'text/plain', dimension: 8, embeddingModel: 'e1' })
    expect(emb.embeddingCalls()[0].headers.authorization).toBe(`Bearer ${KEY}`)
    expectError(await op(UploadKnowledgeDocumentDocument, { projectName: project, knowledgeBase: 'faq', fileName: 'e.txt', content: '' }), 'malformedRequest', /the uploaded document is empty/)

    // the same mutation takes a multipart upload (graphql-upload-minimal); exactly one of file and content
    const form = new FormData()
    form.append('operations', JSON.stringify({ query: print(UploadKnowledgeDocumentFileDocument), variables: { projectName: project, knowledgeBase: 'faq', file: null } }))
    form.append('map', JSON.stringify({ 0: ['variables.file'] }))
    form.append('0', new Blob(['Shipping is free above fifty euros. '.repeat(10)], { type: 'text/plain' }), 'shipping.txt')
    const uploaded = (await (await svc.http('/graphql', {
      method: 'POST', body: form, headers: { authorization: `Bearer ${alice}`, 'apollo-require-preflight': 'true' },
    })).json()) as any
    expect(uploaded.errors).toBeUndefined()
    expect(uploaded.data.uploadKnowledgeDocument.document).toMatchObject({ fileName: 'shipping.txt', mimeType: 'text/plain', embeddingModel: 'e1' })
    expect((await op(DeleteKnowledgeDocumentDocument, { projectName: project, knowledgeBase: 'faq', id: uploaded.data.uploadKnowledgeDocument.document.id })).data!.deleteKnowledgeDocument.success).toBe(true)
    const neither = await svc.graphql('mutation { uploadKnowledgeDocument(projectName: "payments", knowledgeBase: "faq") { document { id } } }', {}, alice)
    expect(neither.body.errors?.[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'file' } })

    expect((await op(KnowledgeDocumentsDocument, { projectName: project, knowledgeBase: 'faq' })).data!.knowledgeDocuments.items.map((d) => d.id)).toEqual([doc.id])
    const one = (await op(KnowledgeDocumentDocument, { projectName: project, knowledgeBase: 'faq', id: doc.id })).data!.knowledgeDocument
    expect(one.chunks).toHaveLength(doc.chunkCount)
    expect((await op(KnowledgeBaseDocument, { projectName: project, name: 'faq' })).data!.knowledgeBase).toMatchObject({ documentCount: 1, chunkCount: doc.chunkCount })

    await op(UpdateKnowledgeBaseDocument, { projectName: project, name: 'faq', input: { embeddingProviderId: providerId, embeddingModel: 'e2', chunkSize: 200, chunkOverlap: 0 } })
    const re = await op(ReindexKnowledgeBaseDocument, { projectName: project, name: 'faq' })
    expect(re.data!.reindexKnowledgeBase.knowledgeBase).toMatchObject({ embeddingModel: 'e2', vectorDbName: null, documentCount: 1 })
    expect(emb.embeddingCalls().at(-1)!.body.model).toBe('e2')

    expect((await op(DeleteKnowledgeDocumentDocument, { projectName: project, knowledgeBase: 'faq', id: doc.id })).data!.deleteKnowledgeDocument.success).toBe(true)
    expectError(await op(KnowledgeDocumentDocument, { projectName: project, knowledgeBase: 'faq', id: doc.id }), 'resourceNotFound', /not found in knowledge base 'faq'/)
    expectError(await op(DeleteLlmProviderDocument, { projectName: project, name: 'emb' }), 'inUse', /embedding provider of knowledge base\(s\) 'faq'/)
    expect((await op(KnowledgeBasesDocument, { projectName: project })).data!.knowledgeBases.items.map((k) => k.name)).toEqual(['faq'])
    expect((await op(DeleteKnowledgeBaseDocument, { projectName: project, name: 'faq' })).data!.deleteKnowledgeBase.success).toBe(true)
    expect((await op(DeleteLlmProviderDocument, { projectName: project, name: 'emb' })).data!.deleteLlmProvider.success).toBe(true)
    expect((await op(DeleteVectorDbDocument, { projectName: project, name: 'qd' })).data!.deleteVectorDb.success).toBe(true)
  })
})

describe('GraphQL: secrets never leave the service', () => {
  it('no answer of this file carried a seeded secret', () => {
    const all = bodies.join('\n')
    for (const secret of SECRETS) expect(all).not.toContain(secret)
  })
})
