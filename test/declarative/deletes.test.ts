import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CRUD_EMAIL } from '../connections/examples.js'
import { FakeEmbeddings } from '../support/fake-embeddings.js'
import { useTestbed } from '../support/testbed.js'

// Issue 29 §3 sync deletes, for connections, LLM providers, knowledge bases and RLCLs: a sync deletes what the file
// lacks through each module's own delete (its checks inside the apply's transaction, its undeploy after the commit);
// a refused delete (an LLM provider a knowledge base still embeds with) aborts the whole plan, nothing written; a
// namespace deletes only what it owns. The dump of these collections plans to zero changes and round-trips.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
let emb: FakeEmbeddings
const base = '/apiops/projects/payments'

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const plan = (document: unknown, mode = 'sync', project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans`, { mode, document })
const apply = (id: string, project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans/${id}/apply`)
const COLLECTIONS = 'connections,llmProviders,knowledgeBases,rlcls'
/** the names each collection holds in `payments` (read from the database, not through the code under test) */
const names = async () => {
  const db = bed.svc.deps.prisma
  const where = { project: { name: 'payments' } }
  const list = (rows: { name: string }[]) => rows.map((r) => r.name).sort()
  return {
    connections: list(await db.connection.findMany({ where, select: { name: true } })),
    llmProviders: list(await db.llmProvider.findMany({ where, select: { name: true } })),
    knowledgeBases: list(await db.knowledgeBase.findMany({ where, select: { name: true } })),
    rlcls: list(await db.rlcl.findMany({ where, select: { name: true } })),
  }
}
const RLCL = { name: 'PremiumRLCL', description: 'premium users', enabled: true, executionOrder: 'LAST', cacheConnectionTimeoutInSeconds: 5, cacheErrorHandlingType: 'CONTINUE', timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true, targetVariable: { name: 'client.ip', type: 'CONTEXT', dataType: 'STRING' } }

beforeAll(async () => {
  emb = await FakeEmbeddings.start()
  expect((await call('POST', `${base}/connections/${CRUD_EMAIL.name}/`, CRUD_EMAIL)).status).toBe(200)
  expect((await call('POST', `${base}/llm-provider-definitions/in-house/`, { name: 'in-house', providerType: 'OTHER', defaultChatCompletionPath: '/v2/chat' })).status).toBe(200)
  const provider = await call('POST', `${base}/llm-providers/emb/`, { _class: 'llm', name: 'emb', providerType: 'OTHER', providerDefinitionId: 'in-house', endpoint: `${emb.url}/v1`, apiKey: 'sk-delete-test-1', supportedModels: [{ modelId: 'e1' }] })
  expect(provider.status, JSON.stringify(provider.body)).toBe(200)
  const vdb = await call('POST', `${base}/vector-dbs/qd/`, { _class: 'vector-db', name: 'qd', dbType: 'QDRANT', transport: { family: 'http', endpoint: `${emb.url}/q` } })
  const kb = await call('POST', `${base}/knowledge-bases/faq/`, { name: 'faq', embeddingProviderId: provider.body.resultList[0].id, embeddingModel: 'e1', vectorDbId: vdb.body.resultList[0].id, chunkSize: 100, chunkOverlap: 0 })
  expect(kb.status, JSON.stringify(kb.body)).toBe(200)
  expect((await call('POST', `${base}/rlcl/`, RLCL)).status).toBe(200)
})
afterAll(async () => {
  await emb?.stop()
})

describe('sync deletes of connections, LLM providers, knowledge bases and RLCLs', { timeout: 180_000 }, () => {
  it('dumps them, plans the dump against itself with 0 changes, and copies them into another project', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=${COLLECTIONS}`)
    expect(dump.status).toBe(200)
    expect([dump.body.connections, dump.body.llmProviders, dump.body.knowledgeBases, dump.body.rlcls].map((l: any[]) => l.map((o) => o.name)))
      .toEqual([[CRUD_EMAIL.name], ['emb'], ['faq'], ['PremiumRLCL']])
    const again = await plan(dump.body)
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })

    // into a new project (knowledge bases stay: their vector stores are no collection yet); secrets as the CLI resolves them
    const created = await bed.svc.graphql('mutation { createProject(input: { name: "ai-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    expect(created.body.errors).toBeUndefined()
    // provider definitions are no collection: the copy's project gets its own, as a REST client would create it
    expect((await call('POST', '/apiops/projects/ai-copy/llm-provider-definitions/in-house/', { name: 'in-house', providerType: 'OTHER', defaultChatCompletionPath: '/v2/chat' })).status).toBe(200)
    const refs = (await call('GET', `${base}/declarative-state?collections=connections,llmProviders,rlcls&secrets=refs`)).body
    const resolve = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === 'string' && v.startsWith('${env:') ? `resolved-${k}-value` : v]))
    const copy = { ...refs, project: 'ai-copy', connections: refs.connections.map(resolve), llmProviders: refs.llmProviders.map(resolve), rlcls: refs.rlcls.map(resolve) }
    const p = await plan(copy, 'sync', 'ai-copy')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.summary).toEqual({ create: 3, update: 0, delete: 0 })
    const applied = await apply(p.body.id, 'ai-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const copied = (await call('GET', '/apiops/projects/ai-copy/declarative-state?collections=connections,llmProviders,rlcls')).body
    const source = (await call('GET', `${base}/declarative-state?collections=connections,llmProviders,rlcls`)).body
    for (const key of ['connections', 'llmProviders', 'rlcls']) expect(copied[key]).toEqual(source[key])
    expect((await plan({ ...copy }, 'sync', 'ai-copy')).body.changes).toEqual([])
  })

  it('refuses a sync deleting an LLM provider a knowledge base still embeds with: the error names it, nothing written', async () => {
    const dump = (await call('GET', `${base}/declarative-state?collections=${COLLECTIONS}`)).body
    const before = await names()
    const p = await plan({ ...dump, llmProviders: [], connections: [] })
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.changes.map((c: any) => [c.action, c.type, c.name])).toEqual([['delete', 'llmProviders', 'emb'], ['delete', 'connections', CRUD_EMAIL.name]])
    const refused = await apply(p.body.id)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'declarativeApplyRefused', errors: [{ type: 'llmProviders', name: 'emb', path: 'llmProviders.emb', reason: 'inUse' }] } })
    expect(refused.body.params.errors[0].message).toMatch(/is the embedding provider of knowledge base\(s\) 'faq'/)
    expect(await names()).toEqual(before) // the connection's delete, which passed, rolled back too
  })

  it('a namespace deletes only what it owns', async () => {
    const p = await plan({ formatVersion: 1, project: 'payments', namespace: 'team-ai', connections: [], llmProviders: [], knowledgeBases: [], rlcls: [] })
    expect(p.body).toMatchObject({ changes: [] })
  })

  it('deletes what the file lacks, dependents first, through each module\'s delete, and undeploys them', async () => {
    const received = bed.dev.received.length
    const p = await plan({ formatVersion: 1, project: 'payments', connections: [], llmProviders: [], knowledgeBases: [], rlcls: [] })
    expect(p.body.changes.map((c: any) => [c.action, c.type, c.name])).toEqual([
      ['delete', 'rlcls', 'PremiumRLCL'], ['delete', 'knowledgeBases', 'faq'], ['delete', 'llmProviders', 'emb'], ['delete', 'connections', CRUD_EMAIL.name],
    ])
    const applied = await apply(p.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body).toMatchObject({ applied: true, summary: { delete: 4 }, pushFailed: false })
    expect(await names()).toEqual({ connections: [], llmProviders: [], knowledgeBases: [], rlcls: [] })
    // the workers heard the undeploys of what was deployed (the connection, provider and knowledge base; the RLCL's goes through the outbox)
    const undeploys = async () => bed.dev.received.slice(received).filter((m) => m.action === 'UNDEPLOY').map((m) => [m.kind, m.name])
    for (let i = 0; i < 100 && (await undeploys()).length < 4; i++) await new Promise((r) => setTimeout(r, 50))
    expect(await undeploys()).toEqual(expect.arrayContaining([['LLM_PROVIDER', 'emb'], ['KNOWLEDGE_BASE', 'faq'], ['RLCL', 'PremiumRLCL']]))
    expect((await undeploys()).some(([, name]) => name === CRUD_EMAIL.name)).toBe(true)
    // a delete is audited once with the plan id
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: p.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit.map((a) => [a.declarativeAction, a.objectType, a.objectName]).sort()).toEqual([
      ['delete', 'connections', CRUD_EMAIL.name], ['delete', 'knowledgeBases', 'faq'], ['delete', 'llmProviders', 'emb'], ['delete', 'rlcls', 'PremiumRLCL'],
    ])
  })
})
