import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llmTransferAdapters } from '../../src/modules/llm/transfer-adapter.js'
import { ensureTransferAdapters } from '../../src/modules/transfer/adapters/index.js'
import { registerTransferAdapter } from '../../src/platform/transfer/registry.js'
import { expectNoSecrets, legacyClient } from './llm-helpers.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeEmbeddings } from '../support/fake-embeddings.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { importPackage, transferExport, unzip } from '../support/zip-fixtures.js'

const KEY = 'sk-SEEDED-transfer-key-4242'
const META = 'SEEDED-transfer-meta-4343'

let svc: TestService
let worker: FakeWorker
let emb: FakeEmbeddings
let root: string
let alice: string
// every JSON answer of this file (the package itself carries secrets by design) is scanned for KEY and META at the end
const { bodies, get, post, put, del } = legacyClient(() => svc, () => alice)

async function importAndKeep(...args: Parameters<typeof importPackage>) {
  const result = await importPackage(...args)
  bodies.push(JSON.stringify(result.preflight), JSON.stringify(result.body))
  return result
}

const projectId = async (name: string) => (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name } })).id

beforeAll(async () => {
  // the adapters are contributed in this test's process only (see docs/llm.md on switching the types over)
  await ensureTransferAdapters()
  for (const adapter of llmTransferAdapters) registerTransferAdapter(adapter, { replace: true })
  worker = await FakeWorker.start()
  emb = await FakeEmbeddings.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  alice = await svc.tokenFor('alice', 'alice-pass-1')

  const base = '/apiops/projects/payments'
  expect((await post(`${base}/llm-provider-definitions/in-house/`, { name: 'in-house', providerType: 'OTHER', defaultChatCompletionPath: '/v2/chat' })).status).toBe(200)
  const provider = await post(`${base}/llm-providers/emb/`, {
    _class: 'llm', name: 'emb', providerType: 'OTHER', providerDefinitionId: 'in-house', endpoint: `${emb.url}/v1`, apiKey: KEY,
    metadata: [{ key: 'team', value: 'ai' }, { key: 'sig', value: META, secret: true }], supportedModels: [{ modelId: 'e1', pricePerMillionInput: 0.02 }],
  })
  expect(provider.status).toBe(200)
  const vdb = await post(`${base}/vector-dbs/qd/`, { _class: 'vector-db', name: 'qd', dbType: 'QDRANT', transport: { family: 'http', endpoint: `${emb.url}/q` } })
  const kb = await post(`${base}/knowledge-bases/faq/`, {
    name: 'faq', embeddingProviderId: provider.body.resultList[0].id, embeddingModel: 'e1', vectorDbId: vdb.body.resultList[0].id, chunkSize: 100, chunkOverlap: 0,
  })
  expect(kb.status).toBe(200)
  const f = new FormData()
  f.append('file', new Blob(['Refunds take five days. '.repeat(12)], { type: 'text/plain' }), 'faq.txt')
  const up = await svc.http(`${base}/knowledge-bases/faq/documents/`, { method: 'POST', headers: { authorization: `Bearer ${alice}` }, body: f })
  expect(up.status).toBe(200)
  bodies.push(await up.text())
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
  await emb?.stop()
})

describe('LLM_PROVIDER transfer adapter', () => {
  it('exports the write body with secrets apart and imports it into another project, sealed and deployed', async () => {
    const { bytes } = await transferExport(svc, alice, 'payments', { formatVersion: 1, type: 'LLM_PROVIDER', names: ['emb'] })
    const files = unzip(bytes)
    const file = JSON.parse([...files.entries()].find(([n]) => n.endsWith('emb.json'))![1].toString('utf8'))
    expect(file.data).toMatchObject({ providerType: 'OTHER', providerDefinitionId: 'in-house', endpoint: `${emb.url}/v1`, metadata: [{ key: 'team', value: 'ai', secret: false }, { key: 'sig', value: null, secret: true }] })
    expect(file.data).not.toHaveProperty('id')
    expect(Object.keys(file.secrets).sort()).toEqual(['apiKey', 'metadata:sig'])
    expect(JSON.stringify(file.data)).not.toContain(KEY)

    worker.received.length = 0
    const imported = await importAndKeep(svc, root, 'other', 'LLM_PROVIDER', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    // the custom definition does not exist in `other`: the provider falls back to its type's built-in
    expect(imported.body.advisories).toEqual([{ level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: 'LLM_PROVIDER/emb', type: 'LLM_PROVIDER_DEFINITION', name: 'in-house' } }])
    const copy = await svc.deps.prisma.llmProvider.findFirstOrThrow({ where: { projectId: await projectId('other'), name: 'emb' } })
    expect(copy).toMatchObject({ providerType: 'OTHER', providerDefinitionId: 'other', defaultChatCompletionPath: '/chat/completions', endpoint: `${emb.url}/v1` })
    expect(copy.apiKeyCipher).toMatch(/^v1\./)
    expect(svc.deps.keyring.decrypt(copy.apiKeyCipher!)).toBe(KEY)
    expect(svc.deps.keyring.decrypt((copy.metadata as any[]).find((m) => m.key === 'sig').valueCipher)).toBe(META)
    expect(worker.received).toEqual([expect.objectContaining({ action: 'DEPLOY', project: 'other', kind: 'LLM_PROVIDER', name: 'emb' })])
  })

  it('replaces an existing provider on REPLACE', async () => {
    await put('/apiops/projects/other/llm-providers/emb/', { _class: 'llm', name: 'emb', providerType: 'OTHER', description: 'changed in target' }, root)
    const { bytes } = await transferExport(svc, alice, 'payments', { formatVersion: 1, type: 'LLM_PROVIDER', names: ['emb'] })
    const replaced = await importAndKeep(svc, root, 'other', 'LLM_PROVIDER', bytes, { conflictPolicy: 'REPLACE' })
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    const copy = await svc.deps.prisma.llmProvider.findFirstOrThrow({ where: { projectId: await projectId('other'), name: 'emb' } })
    expect(copy).toMatchObject({ description: null, endpoint: `${emb.url}/v1` })
  })
})

describe('KNOWLEDGE_BASE transfer adapter', () => {
  it('carries the configuration, the documents and their vectors; the provider travels as a dependency', async () => {
    await del('/apiops/projects/other/llm-providers/emb/', root)
    const { bytes } = await transferExport(svc, alice, 'payments', { formatVersion: 1, type: 'KNOWLEDGE_BASE', names: ['faq'], withDependencies: true })
    emb.received.length = 0
    const imported = await importAndKeep(svc, root, 'other', 'KNOWLEDGE_BASE', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body.advisories).toEqual(expect.arrayContaining([
      { level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: 'KNOWLEDGE_BASE/faq', type: 'VECTOR_DB', name: 'qd' } },
    ]))
    const other = await projectId('other')
    const kb = await svc.deps.prisma.knowledgeBase.findFirstOrThrow({ where: { projectId: other, name: 'faq' }, include: { embeddingProvider: true, documents: { include: { chunks: { orderBy: { ordinal: 'asc' } } } } } })
    expect(kb).toMatchObject({ embeddingModel: 'e1', chunkSize: 100, chunkOverlap: 0, vectorDbId: null })
    expect(kb.embeddingProvider).toMatchObject({ name: 'emb', projectId: other })
    const source = await svc.deps.prisma.knowledgeDocument.findFirstOrThrow({ where: { knowledgeBase: { projectId: await projectId('payments'), name: 'faq' } }, include: { chunks: { orderBy: { ordinal: 'asc' } } } })
    expect(kb.documents).toHaveLength(1)
    expect(kb.documents[0]).toMatchObject({ fileName: 'faq.txt', sha256: source.sha256, chunkCount: source.chunkCount, dimension: 8 })
    expect(kb.documents[0].chunks.map((c) => [c.content, c.embedding])).toEqual(source.chunks.map((c) => [c.content, c.embedding]))
    // vectors came in the package: no embedding call on import
    expect(emb.embeddingCalls()).toHaveLength(0)
    expect((await get('/apiops/projects/other/knowledge-bases/faq/', root)).body.resultList[0]).toMatchObject({ documentCount: 1, embeddingProviderName: 'emb' })
  })

  it('refuses a knowledge base whose embedding provider is missing in the target', async () => {
    const { bytes } = await transferExport(svc, alice, 'payments', { formatVersion: 1, type: 'KNOWLEDGE_BASE', names: ['faq'] })
    await del('/apiops/projects/other/knowledge-bases/faq/', root)
    await del('/apiops/projects/other/llm-providers/emb/', root)
    const run = await importAndKeep(svc, root, 'other', 'KNOWLEDGE_BASE', bytes)
    expect(run.status).toBe(400)
    expect(run.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'knowledgeBaseProviderMissing', knowledgeBase: 'faq', provider: 'emb' } })
    expect(await svc.deps.prisma.knowledgeBase.count({ where: { projectId: await projectId('other') } })).toBe(0)
  })
})

describe('secrets never leave the service in an answer', () => {
  it('no JSON answer of this file carried a seeded secret', async () => {
    expect((await get('/apiops/projects/payments/llm-providers/emb/')).body.resultList[0]).toMatchObject({ apiKeySet: true, metadata: [{ key: 'team', value: 'ai', secret: false }, { key: 'sig', value: null, secret: true }] })
    expectNoSecrets(bodies, [KEY, META], 8)
  })
})
