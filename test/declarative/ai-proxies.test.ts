import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { declarativeDoors } from './support.js'

// Issue 29 §1–§4 for the `aiProxies` collection (AI, MCP and A2A proxies, spec §4.5): by name, routing as stored, a
// backend server's token and password as secrets (never dumped; `${env:…}` with --secrets refs; kept when absent;
// sensitive in plans), written through the AI proxy service's creation and routing rules. A dump plans to zero
// changes and syncs into a new project with the same proxies; an invalid object is refused with its field path,
// nothing written; one audit event per change, the proxy pushed after the commit; a namespace's sync deletes only
// its own proxy, undeployed.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const base = '/apiops/projects/payments'
const TOKEN_VAR = 'AI_PROXIES_TOOLS_GW_ROUTING_BACKEND_SERVERS_SRV1_TOKEN'

const { call, plan, apply } = declarativeDoors(bed)
const db = () => bed.svc.deps.prisma

/** A project's routed proxies as the routing reads answer them (secrets as presence flags). */
async function routed(project: string) {
  const p = await db().project.findUniqueOrThrow({ where: { name: project } })
  const rows = await db().apiProxy.findMany({ where: { projectId: p.id, kind: { in: ['AI', 'MCP', 'A2A'] } }, orderBy: { name: 'asc' } })
  const out = []
  for (const r of rows) {
    const read = await call('GET', `/apiops/projects/${project}/apiProxies/${r.name}/${r.kind.toLowerCase()}-routing/`)
    expect(read.status, JSON.stringify(read.body)).toBe(200)
    out.push({ name: r.name, kind: r.kind, description: r.description, routingMode: r.routingMode, routing: read.body.resultList?.[0]?.routing ?? read.body.routing ?? read.body })
  }
  return out
}
const counts = async () => ({ proxies: await db().apiProxy.count(), audit: await db().auditEvent.count({ where: { declarativePlanId: { not: null } } }) })

beforeAll(async () => {
  for (const project of ['payments']) {
    const made = await call('POST', `/apiops/projects/${project}/llm-providers/openai-main/`, { _class: 'llm', name: 'openai-main', providerType: 'OPENAI', allowedModelIds: [] })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
  }
  const ai = await call('POST', `${base}/apiProxies/ai/chat-gw/`, { name: 'chat-gw', description: 'chat', routing: { strategy: 'WEIGHTED', targets: [{ providerName: 'openai-main', model: 'gpt-4.1', weight: 3 }] } })
  expect(ai.status, JSON.stringify(ai.body)).toBe(200)
  const mcp = await call('POST', `${base}/apiProxies/mcp/tools-gw/`, { routingMode: 'AGGREGATE', routing: { backendServers: [{ name: 'srv1', url: 'https://mcp.example.test/', auth: { scheme: 'BEARER', token: 'mcp-token-1234' } }] } })
  expect(mcp.status, JSON.stringify(mcp.body)).toBe(200)
})

describe('AI, MCP and A2A proxies as a declarative collection', { timeout: 180_000 }, () => {
  it('dumps routed proxies without backend secrets; the dump plans to 0 changes and syncs into a new project with the same proxies', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=llmProviders,aiProxies`)
    expect(dump.status, JSON.stringify(dump.body)).toBe(200)
    expect(JSON.stringify(dump.body)).not.toMatch(/mcp-token-1234|Cipher|tokenSet/)
    expect(dump.body.aiProxies.map((p: any) => [p.name, p.kind])).toEqual([['chat-gw', 'AI'], ['tools-gw', 'MCP']])
    expect(dump.body.aiProxies[1].routing.backendServers[0].auth).toEqual({ scheme: 'BEARER', headerName: null, username: null })
    const self = await plan(dump.body, 'sync')
    expect(self.status, JSON.stringify(self.body)).toBe(200)
    expect(self.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    // a hand-written routing with the body's defaults left out is no drift either
    expect((await plan({ formatVersion: 1, project: 'payments', aiProxies: [{ name: 'chat-gw', kind: 'AI', routing: { strategy: 'WEIGHTED', targets: [{ providerName: 'openai-main', model: 'gpt-4.1', weight: 3 }] } }] })).body.summary).toEqual({ create: 0, update: 0, delete: 0 })

    const refs = await call('GET', `${base}/declarative-state?collections=llmProviders,aiProxies&secrets=refs`)
    expect(refs.body.aiProxies[1].routing.backendServers[0].auth.token).toBe(`\${env:${TOKEN_VAR}}`)
    // what gwctl does with the reference: the value goes to the server
    const copy = JSON.parse(JSON.stringify({ ...refs.body, project: 'ai-copy' }).replace(`\${env:${TOKEN_VAR}}`, 'mcp-token-copy-1'))
    await bed.svc.graphql('mutation { createProject(input: { name: "ai-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    const p = await plan(copy, 'sync', 'ai-copy')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.changes.map((c: any) => [c.action, c.type, c.name])).toEqual([['create', 'llmProviders', 'openai-main'], ['create', 'aiProxies', 'chat-gw'], ['create', 'aiProxies', 'tools-gw']])
    expect(JSON.stringify(p.body)).not.toContain('mcp-token-copy-1')
    bed.dev.received.length = 0
    const applied = await apply(p.body.id, 'ai-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.pushFailed).toBe(false)
    expect(await routed('ai-copy')).toEqual(await routed('payments'))
    // pushed with the backend token opened for the gateway, as the proxy's own writes push it
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ project: 'ai-copy', kind: 'API_PROXY', name: 'tools-gw', action: 'DEPLOY', config: expect.objectContaining({ routing: expect.objectContaining({ backendServers: [expect.objectContaining({ auth: expect.objectContaining({ token: 'mcp-token-copy-1' }) })] }) }) }))
    const again = await call('GET', '/apiops/projects/ai-copy/declarative-state?collections=llmProviders,aiProxies')
    expect((await plan(again.body, 'sync', 'ai-copy')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('plans a changed backend token as sensitive, keeps it when absent, audits once and pushes after the commit', async () => {
    const doc = (token?: string) => ({ formatVersion: 1, project: 'payments', aiProxies: [{ name: 'tools-gw', kind: 'MCP', description: 'tools', routing: { backendServers: [{ name: 'srv1', url: 'https://mcp.example.test/', auth: { scheme: 'BEARER', ...(token ? { token } : {}) } }] } }] })
    const same = await plan(doc('mcp-token-1234'))
    expect(same.body.changes).toEqual([expect.objectContaining({ fields: ['description'] })])
    const p = await plan(doc('mcp-token-5678'))
    expect(p.body.changes).toEqual([expect.objectContaining({ action: 'update', type: 'aiProxies', name: 'tools-gw', fields: ['description', 'routing/backendServers/srv1/token'], sensitive: true })])
    expect(JSON.stringify(p.body)).not.toMatch(/mcp-token/)
    bed.dev.received.length = 0
    const applied = await apply(p.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.pushes).toEqual([{ type: 'aiProxies', name: 'tools-gw', success: true }])
    expect(bed.dev.received).toEqual([expect.objectContaining({ kind: 'API_PROXY', name: 'tools-gw', config: expect.objectContaining({ description: 'tools', routing: expect.objectContaining({ backendServers: [expect.objectContaining({ auth: expect.objectContaining({ token: 'mcp-token-5678' }) })] }) }) })])
    const audit = await db().auditEvent.findMany({ where: { declarativePlanId: p.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectType: 'aiProxies', objectName: 'tools-gw', declarativeAction: 'update' }])
    // the token left out is kept
    expect((await plan(doc())).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('refuses invalid objects with their field paths and writes nothing', async () => {
    const before = await counts()
    const shape = await plan({ formatVersion: 1, project: 'payments', aiProxies: [{ name: 'x', kind: 'SOAP' }] })
    expect(shape.status).toBe(400)
    expect(shape.body.params).toMatchObject({ reason: 'declarativeDocumentInvalid', field: 'document.aiProxies[0].kind' })
    const refused = await plan({ formatVersion: 1, project: 'payments', aiProxies: [
      { name: 'ok-gw', kind: 'AI', routing: { targets: [{ providerName: 'openai-main' }] } },
      { name: 'ghost-gw', kind: 'AI', routing: { targets: [{ providerName: 'nope' }] } },
      { name: 'chat-gw', kind: 'MCP' },
      { name: 'no-mode', kind: 'MCP' },
    ] })
    expect(refused.status, JSON.stringify(refused.body)).toBe(200)
    const applied = await apply(refused.body.id)
    expect(applied.status).toBe(400)
    expect(applied.body.params.errors.map((e: any) => [e.path, e.reason])).toEqual([
      ['aiProxies[1].routing.targets[0].providerName', 'resourceNotFound'],
      ['aiProxies[2].kind', 'malformedRequest'],
      ['aiProxies[3].routingMode', 'malformedRequest'],
    ])
    expect(await counts()).toEqual(before)
  })

  it("a namespace's sync deletes only its own proxy, undeployed from every environment", async () => {
    const owned = { formatVersion: 1, project: 'payments', namespace: 'team-ai', aiProxies: [{ name: 'team-gw', kind: 'A2A', description: 'agents' }] }
    const created = await plan(owned, 'sync')
    expect(created.body.summary).toEqual({ create: 1, update: 0, delete: 0 })
    expect((await apply(created.body.id)).status).toBe(200)
    bed.dev.received.length = 0
    const emptied = await plan({ ...owned, aiProxies: [] }, 'sync')
    expect(emptied.body.changes).toEqual([{ action: 'delete', type: 'aiProxies', name: 'team-gw', fields: [], details: [] }])
    const applied = await apply(emptied.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'API_PROXY', name: 'team-gw', config: { proxyKind: 'A2A' } })])
    expect((await routed('payments')).map((p) => p.name)).toEqual(['chat-gw', 'tools-gw'])
  })

  it('carries an AI proxy\'s relativePath and its outbound proxy password (a secret: never dumped, a reference with --secrets refs, sealed on the way in)', async () => {
    await bed.svc.graphql('mutation { createProject(input: { name: "ai-page", environments: ["dev"] }) { name } }', {}, bed.root)
    const page = '/apiops/projects/ai-page'
    expect((await call('POST', `${page}/llm-providers/openai-main/`, { _class: 'llm', name: 'openai-main', providerType: 'OPENAI', allowedModelIds: [] })).status).toBe(200)
    const made = await call('POST', `${page}/apiProxies/ai/page-gw/`, { relativePath: '/ai/page', llmProviderName: 'openai-main', modelId: 'gpt-4.1' })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const outbound = { llmProviderRefName: 'openai-main', proxyEnabled: true, proxyHost: 'egress.example.com', proxyPort: 3128, proxyAuthorizationNeeded: true, proxyUsername: 'gw', proxyPassword: 'outbound-pw-77' }
    expect((await call('PUT', `${page}/apiProxies/page-gw/ai-routing/`, outbound)).status).toBe(200)

    const dump = await call('GET', `${page}/declarative-state?collections=llmProviders,aiProxies`)
    expect(dump.status, JSON.stringify(dump.body)).toBe(200)
    expect(JSON.stringify(dump.body)).not.toMatch(/outbound-pw-77|Cipher|proxyPassword/)
    expect(dump.body.aiProxies[0]).toMatchObject({ name: 'page-gw', relativePath: '/ai/page', routing: expect.objectContaining({ proxyUsername: 'gw' }) })
    expect((await plan(dump.body, 'sync', 'ai-page')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })

    const refs = await call('GET', `${page}/declarative-state?collections=llmProviders,aiProxies&secrets=refs`)
    const ref = refs.body.aiProxies[0].routing.proxyPassword as string
    expect(ref).toMatch(/^\$\{env:AI_PROXIES_PAGE_GW_[A-Z_]*PROXY_PASSWORD\}$/)
    // into a second project: the relative path is its own there; the password is the reference's value
    await bed.svc.graphql('mutation { createProject(input: { name: "ai-page-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    const copy = JSON.parse(JSON.stringify({ ...refs.body, project: 'ai-page-copy' }).replace(ref, 'outbound-pw-copy'))
    const p = await plan(copy, 'sync', 'ai-page-copy')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(JSON.stringify(p.body)).not.toContain('outbound-pw-copy')
    bed.dev.received.length = 0
    const applied = await apply(p.body.id, 'ai-page-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const stored = await db().apiProxy.findFirstOrThrow({ where: { name: 'page-gw', project: { name: 'ai-page-copy' } } })
    expect(stored.relativePath).toBe('/ai/page')
    expect(JSON.stringify(stored.routing)).not.toContain('outbound-pw-copy')
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ project: 'ai-page-copy', name: 'page-gw', action: 'DEPLOY', config: expect.objectContaining({ routing: expect.objectContaining({ proxyPassword: 'outbound-pw-copy' }) }) }))
    // a relative path another proxy of the project holds is refused with its field, nothing written
    const before = await counts()
    const clash = await plan({ formatVersion: 1, project: 'ai-page-copy', aiProxies: [{ name: 'other-gw', kind: 'AI', relativePath: '/ai/page' }] }, 'apply', 'ai-page-copy')
    const refused = clash.status === 200 ? await apply(clash.body.id, 'ai-page-copy') : clash
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body, JSON.stringify(refused.body)).toMatchObject({
      errorKey: 'malformedRequest',
      params: {
        reason: 'declarativeApplyRefused', field: 'aiProxies[0].relativePath',
        errors: [{ type: 'aiProxies', name: 'other-gw', path: 'aiProxies[0].relativePath', reason: 'relativePathAlreadyUsed', message: "relativePath: '/ai/page' is already the relative path of API proxy 'page-gw'" }],
      },
    })
    expect(await counts()).toEqual(before)
  })
})

