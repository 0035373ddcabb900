import crypto from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectFailure, expectNoSecrets, legacyClient, startLlmService } from './llm-helpers.js'
import type { TestService } from '../support/app.js'
import { FakeEmbeddings } from '../support/fake-embeddings.js'
import { FakeWorker } from '../support/fake-worker.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import vendorExamples from '../openapi/vendor-examples.json' with { type: 'json' }

// Knowledge bases and their documents (spec §4.5): chunking, embedding through the provider, reindex
const BASE = '/apiops/projects/payments'
const VDB = `${BASE}/vector-dbs`
const KB = `${BASE}/knowledge-bases`

// every response body of this file is scanned for these at the end
const EMB_KEY = 'sk-SEEDED-embedding-key-7777'
const VDB_KEY = 'SEEDED-vector-api-key-8888'

let svc: TestService
let worker: FakeWorker
let emb: FakeEmbeddings
let alice: string
let viewer: string
let providerId: string
const { bodies, get, post, put, del } = legacyClient(() => svc, () => alice)

/** A multipart body built by hand, so the test decides every part. */
function multipart(parts: { name: string; fileName?: string; content: Buffer | string; type?: string }[]) {
  const boundary = `----kb${crypto.randomUUID()}`
  const chunks: Buffer[] = []
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.fileName !== undefined ? `; filename="${p.fileName}"` : ''}`
    const type = p.fileName !== undefined ? `Content-Type: ${p.type ?? 'text/plain'}\r\n` : ''
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(p.content), Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` }
}

async function upload(kb: string, parts: Parameters<typeof multipart>[0], token = alice) {
  const { body, contentType } = multipart(parts)
  const res = await svc.http(`${KB}/${kb}/documents/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body: new Uint8Array(body) })
  const text = await res.text()
  bodies.push(text)
  return { status: res.status, body: JSON.parse(text) }
}

/** A long text of numbered sentences, so the chunker makes several chunks. */
const LONG_TEXT = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} tells the reader about payments and refunds.`).join(' ')

beforeAll(async () => {
  worker = await FakeWorker.start()
  emb = await FakeEmbeddings.start()
  svc = await startLlmService(worker.url)
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  viewer = await svc.tokenFor('vic', 'vic-pass-1')

  const provider = await post(`${BASE}/llm-providers/embedder/`, { _class: 'llm', name: 'embedder', providerType: 'OTHER', endpoint: `${emb.url}/v1`, authScheme: 'BEARER', authHeaderName: null, apiKey: EMB_KEY })
  expect(provider.status).toBe(200)
  providerId = provider.body.resultList[0].id
  const store = await post(`${VDB}/qdrant-1/`, {
    _class: 'vector-db', name: 'qdrant-1', dbType: 'QDRANT', transport: { family: 'http', endpoint: `${emb.url}/qdrant`, authScheme: 'API_KEY_HEADER', apiKey: VDB_KEY },
  })
  expect(store.status).toBe(200)
  worker.received.length = 0
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

describe('knowledge bases', () => {
  let vdbId: string

  it('creates a knowledge base that references its connections by id', async () => {
    vdbId = (await get(`${VDB}/qdrant-1/`)).body.resultList[0].id
    expect((await get(KB + '/')).body.resultCount).toBe(0)
    const res = await post(`${KB}/handbook/`, {
      name: 'handbook', description: 'staff handbook', embeddingProviderId: providerId, embeddingModel: 'text-embedding-3-small', vectorDbId: vdbId,
      collectionName: 'handbook', chunkSize: 200, chunkOverlap: 20,
    })
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(true)
    expect(res.body.resultList[0]).toMatchObject({
      name: 'handbook', embeddingProviderId: providerId, embeddingProviderName: 'embedder', vectorDbId: vdbId, vectorDbName: 'qdrant-1',
      chunkSize: 200, chunkOverlap: 20, documentCount: 0, chunkCount: 0, collectionName: 'handbook',
    })
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'KNOWLEDGE_BASE', name: 'handbook', revision: 1 })
    const defaults = await post(`${KB}/defaults/`, { name: 'defaults', embeddingProviderId: providerId, embeddingModel: 'm' })
    expect(defaults.body.resultList[0]).toMatchObject({ chunkSize: 1000, chunkOverlap: 100, vectorDbId: null, vectorDbName: null })
  })

  it("the update page's example (update-knowledge-base.mdx) against an existing knowledge base: refused like the create's, as spec §1 rule 2 makes the connection references stored ids; nothing written or pushed", async () => {
    const example = structuredClone((vendorExamples as VendorExample[]).find((e) => e.page === 'api-reference/knowledge-bases/update-knowledge-base.mdx')!.body) as any
    const before = JSON.stringify(await svc.deps.prisma.knowledgeBase.findMany({ orderBy: { name: 'asc' } }))
    const pushed = worker.received.length
    expectFailure(await put(`${KB}/handbook/`, { ...example, name: 'handbook' }), /^embeddingProviderId: is required/)
    expect(JSON.stringify(await svc.deps.prisma.knowledgeBase.findMany({ orderBy: { name: 'asc' } }))).toBe(before)
    expect(worker.received).toHaveLength(pushed)
  })

  it('refuses bad knowledge base bodies and writes nothing', async () => {
    const before = await svc.deps.prisma.knowledgeBase.count()
    const ok = { name: 'kb2', embeddingProviderId: providerId, embeddingModel: 'm' }
    const cases: [unknown, RegExp][] = [
      [{ ...ok, embeddingProviderId: undefined }, /^embeddingProviderId: is required/],
      [{ ...ok, embeddingProviderId: 'embedder' }, /^embeddingProviderId: no LLM provider with id 'embedder' in this project/],
      [{ ...ok, embeddingModel: ' ' }, /^embeddingModel: is required/],
      [{ ...ok, vectorDbId: 'nope' }, /^vectorDbId: no vector store with id 'nope'/],
      [{ ...ok, chunkSize: 50 }, /^chunkSize: must be at least 100/],
      [{ ...ok, chunkSize: 200, chunkOverlap: 101 }, /^chunkOverlap: must be at most half of chunkSize \(100\)/],
      [{ ...ok, name: 'kb3' }, /does not match/],
      [{ ...ok, colour: 1 }, /^colour: unknown field/],
    ]
    for (const [body, message] of cases) expectFailure(await post(`${KB}/kb2/`, body), message)
    expectFailure(await put(`${KB}/kb2/`, ok), /Knowledge base 'kb2' not found/)
    // a provider without an embeddings path cannot embed
    const claude = await post(`${BASE}/llm-providers/claude/`, { _class: 'llm', name: 'claude', providerType: 'ANTHROPIC' })
    expectFailure(await post(`${KB}/kb2/`, { ...ok, embeddingProviderId: claude.body.resultList[0].id }), /LLM provider 'claude' has no embeddings path/)
    expect(await svc.deps.prisma.knowledgeBase.count()).toBe(before)
  })

  it('refuses to delete a provider or vector store a knowledge base uses', async () => {
    expectFailure(await del(`${BASE}/llm-providers/embedder/`), /LLM provider 'embedder' is the embedding provider of knowledge base\(s\) 'defaults', 'handbook'/)
    expectFailure(await del(`${VDB}/qdrant-1/`), /Vector store 'qdrant-1' is used by knowledge base\(s\) 'handbook'/)
    expect(await svc.deps.prisma.llmProvider.count({ where: { name: 'embedder' } })).toBe(1)
  })
})

describe('knowledge base documents', () => {
  let documentId: string

  it('chunks and embeds an uploaded document through the provider /embeddings and stores the vectors', async () => {
    const res = await upload('handbook', [{ name: 'file', fileName: 'handbook.md', content: LONG_TEXT, type: 'text/markdown' }])
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('SUCCESS')
    expect(res.body.deploymentResult.success).toBe(true)
    const doc = res.body.resultList[0]
    documentId = doc.id
    expect(doc).toMatchObject({
      knowledgeBaseName: 'handbook', fileName: 'handbook.md', mimeType: 'text/markdown', sizeBytes: Buffer.byteLength(LONG_TEXT),
      sha256: crypto.createHash('sha256').update(LONG_TEXT).digest('hex'), embeddingModel: 'text-embedding-3-small', dimension: 8,
    })
    expect(doc.chunkCount).toBeGreaterThan(5)

    const calls = emb.embeddingCalls()
    expect(calls).toHaveLength(1)
    expect(calls[0].url).toBe('/v1/embeddings')
    expect(calls[0].headers.authorization).toBe(`Bearer ${EMB_KEY}`)
    expect(calls[0].body.model).toBe('text-embedding-3-small')
    expect(calls[0].body.input).toHaveLength(doc.chunkCount)

    const chunks = await svc.deps.prisma.knowledgeChunk.findMany({ where: { documentId }, orderBy: { ordinal: 'asc' } })
    expect(chunks.map((c) => c.content)).toEqual(calls[0].body.input)
    for (const c of chunks) {
      expect(c.content.length).toBeLessThanOrEqual(200)
      expect(c.embedding).toEqual(FakeEmbeddings.vectorOf(c.content, 8).map((x) => expect.closeTo(x, 10)))
    }
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'KNOWLEDGE_BASE', name: 'handbook', revision: 2 })
    expect(worker.received[0].config).toMatchObject({ documentCount: 1, chunkCount: doc.chunkCount })
  })

  it('lists documents and reads one with its chunks (no vectors)', async () => {
    const list = await get(`${KB}/handbook/documents/`)
    expect(list.body.resultCount).toBe(1)
    expect(list.body.resultList[0]).toMatchObject({ id: documentId, fileName: 'handbook.md' })
    expect(list.body.resultList[0]).not.toHaveProperty('chunks')
    const one = (await get(`${KB}/handbook/documents/${documentId}/`)).body.resultList[0]
    expect(one.chunks.length).toBe(one.chunkCount)
    expect(one.chunks[0]).toEqual({ ordinal: 0, content: expect.stringMatching(/^Sentence number 0/) })
    expect(JSON.stringify(one)).not.toContain('embedding"')
    expect((await get(`${KB}/handbook/`)).body.resultList[0]).toMatchObject({ documentCount: 1, chunkCount: one.chunkCount })
    expectFailure(await get(`${KB}/handbook/documents/00000000-0000-0000-0000-000000000000/`), /Document '00000000-0000-0000-0000-000000000000' not found in knowledge base 'handbook'/)
    expectFailure(await get(`${KB}/handbook/documents/not-an-id/`), /Document 'not-an-id' not found/)
    expectFailure(await get(`${KB}/defaults/documents/${documentId}/`), /not found in knowledge base 'defaults'/)
    expectFailure(await get(`${KB}/nope/documents/`), /Knowledge base 'nope' not found/)
  })

  it('takes the fileName field over the file name of the part', async () => {
    const res = await upload('defaults', [{ name: 'file', fileName: 'a.txt', content: 'short note' }, { name: 'fileName', content: 'note.txt' }])
    expect(res.body.resultList[0]).toMatchObject({ fileName: 'note.txt', chunkCount: 1 })
  })

  it('refuses missing, empty and binary files, stores nothing and calls no provider', async () => {
    const before = await svc.deps.prisma.knowledgeDocument.count()
    expectFailure(await upload('handbook', [{ name: 'other', fileName: 'x.txt', content: 'x' }]), /file: a multipart part named 'file' is required/)
    expectFailure(await upload('handbook', [{ name: 'file', fileName: 'x.txt', content: '' }]), /file: the uploaded document is empty/)
    expectFailure(await upload('handbook', [{ name: 'file', fileName: 'x.txt', content: '  \n ' }]), /holds no text/)
    expectFailure(await upload('handbook', [{ name: 'file', fileName: 'x.bin', content: Buffer.from([0xff, 0xfe, 0x00, 0x81]) }]), /only UTF-8 text documents are supported/)
    expectFailure(await upload('handbook', [{ name: 'file', fileName: 'x.bin', content: Buffer.from('abc\u0000def') }]), /binary data/)
    expectFailure(await upload('handbook', [{ name: 'file', fileName: 'x.txt', content: 'x' }], viewer), /lacks permission AI_DEVELOPMENT MANAGE/)
    expectFailure(await upload('ghost', [{ name: 'file', fileName: 'x.txt', content: 'x' }]), /Knowledge base 'ghost' not found/)
    expect(await svc.deps.prisma.knowledgeDocument.count()).toBe(before)
    expect(emb.embeddingCalls()).toHaveLength(0)
  })

  it('stores nothing when the embedding provider fails', async () => {
    const before = await svc.deps.prisma.knowledgeDocument.count()
    const chunksBefore = await svc.deps.prisma.knowledgeChunk.count()
    emb.failStatus = 500
    const res = await upload('handbook', [{ name: 'file', fileName: 'x.txt', content: 'some text' }])
    expectFailure(res, /Embedding through LLM provider 'embedder' failed: HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings/)
    // the upstream echoed the key: the message shows it blanked out
    expect(res.body.resultMessage).toContain('upstream exploded')
    expect(res.body.resultMessage).toContain('"authorization":"***"')
    expect(res.body.resultMessage).not.toContain(EMB_KEY)
    // an echo where the message is cut (200 characters of the answer) leaves no start of the key behind
    emb.failPadding = 200 - '{"error":{"message":"upstream exploded'.length - '","authorization":"Bearer '.length - 6
    const cut = await upload('handbook', [{ name: 'file', fileName: 'x.txt', content: 'some text' }])
    expectFailure(cut, /HTTP 500/)
    expect(cut.body.resultMessage).not.toContain(EMB_KEY.slice(0, 6))
    expect(await svc.deps.prisma.knowledgeDocument.count()).toBe(before)
    expect(await svc.deps.prisma.knowledgeChunk.count()).toBe(chunksBefore)
    expect(worker.received).toHaveLength(0)
  })

  it("embeds through the resolved URL of the provider's type (api-version and key header for Azure)", async () => {
    await post(`${BASE}/llm-provider-definitions/azure-fixed/`, { name: 'azure-fixed', providerType: 'AZURE_OPENAI', defaultEmbeddingPath: '/deployments/emb-small/embeddings' })
    const azure = await post(`${BASE}/llm-providers/azure-emb/`, {
      _class: 'llm', name: 'azure-emb', providerType: 'AZURE_OPENAI', providerDefinitionId: 'azure-fixed', endpoint: `${emb.url}/openai?tenant=t1`, apiKey: EMB_KEY,
    })
    await post(`${KB}/azure-kb/`, { name: 'azure-kb', embeddingProviderId: azure.body.resultList[0].id, embeddingModel: 'emb-small' })
    const res = await upload('azure-kb', [{ name: 'file', fileName: 'x.txt', content: 'hello azure' }])
    expect(res.status).toBe(200)
    const call = emb.embeddingCalls()[0]
    expect(call.url).toBe('/openai/deployments/emb-small/embeddings?tenant=t1&api-version=2024-10-21')
    expect(call.headers['api-key']).toBe(EMB_KEY)
    expect(call.headers.authorization).toBeUndefined()
  })

  it('refuses to embed through a URL that still holds variable references', async () => {
    const azure = await post(`${BASE}/llm-providers/azure-vars/`, { _class: 'llm', name: 'azure-vars', providerType: 'AZURE_OPENAI', apiKey: EMB_KEY })
    await post(`${KB}/vars-kb/`, { name: 'vars-kb', embeddingProviderId: azure.body.resultList[0].id, embeddingModel: 'm' })
    expectFailure(await upload('vars-kb', [{ name: 'file', fileName: 'x.txt', content: 'x' }]), /holds variable references that only the gateway resolves/)
  })

  it('reindexes every document with the current settings', async () => {
    const kbRow = await svc.deps.prisma.knowledgeBase.findFirstOrThrow({ where: { name: 'handbook' } })
    await put(`${KB}/handbook/`, { name: 'handbook', embeddingProviderId: providerId, embeddingModel: 'text-embedding-3-large', vectorDbId: kbRow.vectorDbId, chunkSize: 400, chunkOverlap: 0 })
    emb.dimension = 16
    worker.received.length = 0
    const res = await post(`${KB}/handbook/reindex/`)
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(true)
    expect(res.body.resultList[0]).toMatchObject({ name: 'handbook', embeddingModel: 'text-embedding-3-large', documentCount: 1 })
    const doc = await svc.deps.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: documentId } })
    expect(doc).toMatchObject({ embeddingModel: 'text-embedding-3-large', dimension: 16 })
    const chunks = await svc.deps.prisma.knowledgeChunk.findMany({ where: { documentId }, orderBy: { ordinal: 'asc' } })
    expect(chunks).toHaveLength(doc.chunkCount)
    expect(chunks.every((c) => c.embedding.length === 16 && c.content.length <= 400)).toBe(true)
    expect(emb.embeddingCalls()[0].body.model).toBe('text-embedding-3-large')
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'KNOWLEDGE_BASE', name: 'handbook' })
  })

  it('changes nothing when reindexing fails', async () => {
    const before = await svc.deps.prisma.knowledgeChunk.findMany({ where: { documentId }, orderBy: { ordinal: 'asc' } })
    emb.failStatus = 502
    expectFailure(await post(`${KB}/handbook/reindex/`), /HTTP 502/)
    expect(await svc.deps.prisma.knowledgeChunk.findMany({ where: { documentId }, orderBy: { ordinal: 'asc' } })).toEqual(before)
    expectFailure(await post(`${KB}/ghost/reindex/`), /Knowledge base 'ghost' not found/)
    expectFailure(await post(`${KB}/handbook/reindex/`, undefined, viewer), /lacks permission AI_DEVELOPMENT MANAGE/)
  })

  // apinizer/docs api-reference/knowledge-bases/reindex-knowledge-document: one document, the others untouched
  const chunksOf = (id: string) => svc.deps.prisma.knowledgeChunk.findMany({ where: { documentId: id }, orderBy: { ordinal: 'asc' } })
  let otherId: string

  it('reindexes one document alone with the current settings; the other documents keep their vectors', async () => {
    otherId = (await upload('handbook', [{ name: 'file', fileName: 'other.txt', content: 'A second document about refunds and chargebacks.' }])).body.resultList[0].id
    const otherBefore = await chunksOf(otherId)
    const kbRow = await svc.deps.prisma.knowledgeBase.findFirstOrThrow({ where: { name: 'handbook' } })
    await put(`${KB}/handbook/`, { name: 'handbook', embeddingProviderId: providerId, embeddingModel: 'text-embedding-3-small', vectorDbId: kbRow.vectorDbId, chunkSize: 300, chunkOverlap: 0 })
    emb.reset()
    emb.dimension = 4
    worker.received.length = 0
    const res = await post(`${KB}/handbook/documents/${documentId}/reindex/`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, deploymentResult: expect.objectContaining({ success: true }) })
    expect(await svc.deps.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: documentId } })).toMatchObject({ embeddingModel: 'text-embedding-3-small', dimension: 4 })
    const chunks = await chunksOf(documentId)
    expect(chunks.every((c) => c.embedding.length === 4 && c.content.length <= 300)).toBe(true)
    const calls = emb.embeddingCalls()
    expect(calls).toHaveLength(1)
    expect(calls[0].body).toMatchObject({ model: 'text-embedding-3-small', input: chunks.map((c) => c.content) })
    expect(await chunksOf(otherId)).toEqual(otherBefore)
    expect(await svc.deps.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: otherId } })).toMatchObject({ embeddingModel: 'text-embedding-3-large', dimension: 8 })
    expect(worker.received).toHaveLength(1)
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'KNOWLEDGE_BASE', name: 'handbook' })
  })

  it('refuses a document reindex for an unknown document, one of another knowledge base, an unknown knowledge base or a viewer; a failed embedding changes nothing', async () => {
    const kb = await svc.deps.prisma.knowledgeBase.findFirstOrThrow({ where: { name: 'handbook' } })
    const before = { chunks: await chunksOf(documentId), revision: kb.revision }
    const defaultsDoc = await svc.deps.prisma.knowledgeDocument.findFirstOrThrow({ where: { knowledgeBase: { name: 'defaults' } } })
    expectFailure(await post(`${KB}/handbook/documents/00000000-0000-0000-0000-000000000000/reindex/`), /^Document '00000000-0000-0000-0000-000000000000' not found in knowledge base 'handbook'$/)
    expectFailure(await post(`${KB}/handbook/documents/${defaultsDoc.id}/reindex/`), new RegExp(`^Document '${defaultsDoc.id}' not found in knowledge base 'handbook'$`))
    expectFailure(await post(`${KB}/ghost/documents/${documentId}/reindex/`), /Knowledge base 'ghost' not found/)
    expectFailure(await post(`${KB}/handbook/documents/${documentId}/reindex/`, undefined, viewer), /lacks permission AI_DEVELOPMENT MANAGE/)
    emb.failStatus = 502
    expectFailure(await post(`${KB}/handbook/documents/${documentId}/reindex/`), /HTTP 502/)
    expect(await chunksOf(documentId)).toEqual(before.chunks)
    expect((await svc.deps.prisma.knowledgeBase.findUniqueOrThrow({ where: { id: kb.id } })).revision).toBe(before.revision)
    expect(worker.received).toEqual([])
    expect(emb.embeddingCalls()).toHaveLength(1)
    expect((await del(`${KB}/handbook/documents/${otherId}/`)).status).toBe(200)
  })

  it('deletes a document with its vectors', async () => {
    const res = await del(`${KB}/handbook/documents/${documentId}/`)
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(true)
    expect(await svc.deps.prisma.knowledgeChunk.count({ where: { documentId } })).toBe(0)
    expect(await svc.deps.prisma.knowledgeDocument.count({ where: { id: documentId } })).toBe(0)
    expectFailure(await del(`${KB}/handbook/documents/${documentId}/`), /not found/)
    expect((await get(`${KB}/handbook/documents/`)).body).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
  })

  it('deletes a knowledge base with its documents and undeploys it; then its connections can go', async () => {
    const kb = await svc.deps.prisma.knowledgeBase.findFirstOrThrow({ where: { name: 'defaults' } })
    expect(await svc.deps.prisma.knowledgeDocument.count({ where: { knowledgeBaseId: kb.id } })).toBe(1)
    expect((await del(`${KB}/defaults/`)).status).toBe(200)
    expect(worker.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'KNOWLEDGE_BASE', name: 'defaults' })
    expect(await svc.deps.prisma.knowledgeDocument.count({ where: { knowledgeBaseId: kb.id } })).toBe(0)
    expect(await svc.deps.prisma.knowledgeChunk.count({ where: { knowledgeBaseId: kb.id } })).toBe(0)
    expectFailure(await get(`${KB}/defaults/`), /Knowledge base 'defaults' not found/)
    await del(`${KB}/handbook/`)
    expect((await del(`${VDB}/qdrant-1/`)).status).toBe(200)
    expect(worker.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'VECTOR_DB', name: 'qdrant-1' })
    expectFailure(await get(`${VDB}/qdrant-1/`), /not found/)
  })
})

describe('secrets never leave the service', () => {
  it('no response body of this file carried a seeded secret', () => expectNoSecrets(bodies, [EMB_KEY, VDB_KEY], 30))
})
