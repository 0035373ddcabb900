import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import { apiManagersBootstrap, expectRefused, proxyCall } from './ai-proxies-support.js'

// Issue 32 §0: the newest discovery pages (policies/crud/discover-mcp-policy-tools.mdx, discover-a2a-policy-skills.mdx)
// probe a live server: `{}` the proxy's own backend server (its stored token opened for the probe only), `{ endpoint,
// authScheme, bearerToken }` another address for this call. A local MCP server and A2A agent answer here; the
// installation allows private addresses (SPEC_FETCH_ALLOW_PRIVATE). Nothing is saved, pushed or audited.

const bed = useTestbed({
  workers: ['dev'], env: { SPEC_FETCH_ALLOW_PRIVATE: 'true' },
  bootstrap: (workers) => apiManagersBootstrap(workers, []), tokens: { erin: 'erin-pass-1' },
})
const examples = JSON.parse(fs.readFileSync(new URL('../openapi/vendor-examples.json', import.meta.url), 'utf8')) as VendorExample[]
const example = (page: string, index: number) => structuredClone(examples.find((e) => e.page === `api-reference/policies/crud/${page}` && e.index === index)!.body) as Record<string, any>

const STORED_TOKEN = 'stored-mcp-token-4411'
const seenAuth: string[] = []
/** what /mcp was asked, in order: method, session id and protocol version header */
const mcpCalls: { method: string; session: string; version: string }[] = []
const initialized = new Set<string>()
let sessions = 0
let server: http.Server
let base: string

const TOOLS = { tools: [{ name: 'search', description: 'Full-text search', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }] }
const CARD = { name: 'partner', skills: [{ id: 'translate', name: 'Translate', tags: ['lang'] }] }

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      seenAuth.push(req.headers.authorization ?? '')
      const rpc = req.method === 'POST' ? (JSON.parse(body) as { id: number; method: string }) : null
      // /mcp keeps MCP's lifecycle (streamable HTTP): initialize opens a session, notifications/initialized completes
      // it, and tools/list is answered only inside a completed session
      if (req.url === '/mcp' && rpc) {
        if (req.headers.authorization !== `Bearer ${STORED_TOKEN}`) return res.writeHead(401).end()
        const session = String(req.headers['mcp-session-id'] ?? '')
        mcpCalls.push({ method: rpc.method, session, version: String(req.headers['mcp-protocol-version'] ?? '') })
        if (rpc.method === 'initialize') {
          const id = `sess-${++sessions}`
          return res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': id })
            .end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'fake', version: '1' } } }))
        }
        if (rpc.method === 'notifications/initialized') return initialized.add(session), res.writeHead(202).end()
        if (rpc.method === 'tools/list') {
          if (!initialized.has(session)) return res.writeHead(400).end('no initialized session')
          return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: TOOLS }))
        }
      }
      if (req.url === '/mcp-sse' && rpc?.method === 'tools/list') {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        return res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: { tools: [{ name: 'fetch_document' }] } })}\n\n`)
      }
      if (req.url === '/a2a/.well-known/agent-card.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CARD))
      res.writeHead(404).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const mcp = await proxyCall(bed.svc, 'POST', 'mcp/tools-gw/', bed.erin, {
    routingMode: 'PASSTHROUGH', backendServers: [{ name: 'local', endpoint: `${base}/mcp`, authScheme: 'BEARER', bearerToken: STORED_TOKEN }],
  })
  expect(mcp.status).toBe(200)
  expect((await proxyCall(bed.svc, 'POST', 'mcp/empty-gw/', bed.erin, { routingMode: 'TOOL_EXPOSE' })).status).toBe(200)
  const a2a = await proxyCall(bed.svc, 'POST', 'a2a/agent-gw/', bed.erin, { routingMode: 'PASSTHROUGH', backendServers: [{ name: 'partner', endpoint: `${base}/a2a` }] })
  expect(a2a.status).toBe(200)
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
})

/** Nothing saved, pushed or audited by a preview. */
async function unchanged<T>(run: () => Promise<T>): Promise<T> {
  const rows = await bed.svc.deps.prisma.apiProxy.findMany({ orderBy: { id: 'asc' } })
  const events = await bed.svc.deps.prisma.auditEvent.count()
  const pushes = bed.dev.received.length
  const out = await run()
  expect(await bed.svc.deps.prisma.apiProxy.findMany({ orderBy: { id: 'asc' } })).toEqual(rows)
  expect(await bed.svc.deps.prisma.auditEvent.count()).toBe(events)
  expect(bed.dev.received.length).toBe(pushes)
  return out
}
const parse = (proxy: string, what: 'parse-tools' | 'parse-skills', body: unknown) => unchanged(() => proxyCall(bed.svc, 'POST', `${proxy}/policies/discovery/${what}/`, bed.erin, body))

describe('parse-tools probing an MCP server (discover-mcp-policy-tools.mdx)', () => {
  it("probes the proxy's own backend server with the page's empty body, its stored token opened for the probe", async () => {
    const res = await parse('tools-gw', 'parse-tools', example('discover-mcp-policy-tools.mdx', 0))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultCount: 1, resultList: [{ name: 'search', description: 'Full-text search', source: 'MCP', inputSchema: { properties: { query: { type: 'string' } } } }] })
    expect(seenAuth.at(-1)).toBe(`Bearer ${STORED_TOKEN}`)
    // in a session, as MCP's lifecycle has it: the version the server chose, its session id on every later call
    const session = mcpCalls.at(-1)!.session
    expect(session).toMatch(/^sess-\d+$/)
    expect(mcpCalls.slice(-3)).toEqual([
      { method: 'initialize', session: '', version: '' },
      { method: 'notifications/initialized', session, version: '2025-03-26' },
      { method: 'tools/list', session, version: '2025-03-26' },
    ])
    expect(res.text).not.toContain(STORED_TOKEN)
  })

  it("probes another address with the page's override body (its token, or the stored one when omitted); reads an event stream", async () => {
    const override = { ...example('discover-mcp-policy-tools.mdx', 1), endpoint: `${base}/mcp-sse` }
    const res = await parse('tools-gw', 'parse-tools', override)
    expect(res.body.resultList).toMatchObject([{ name: 'fetch_document' }])
    expect(seenAuth.at(-1)).toBe('Bearer staging-only-token')
    const stored = await parse('tools-gw', 'parse-tools', { endpoint: `${base}/mcp` })
    expect(stored.body.resultList).toMatchObject([{ name: 'search' }])
  })

  it('refuses a proxy without a backend server, a BEARER probe without a token, a refusing server and a document beside a probe', async () => {
    expectRefused(await parse('empty-gw', 'parse-tools', {}), /^document: a tool or skill definition document is required \(or an endpoint to probe/)
    expectRefused(await parse('empty-gw', 'parse-tools', { endpoint: `${base}/mcp-sse`, authScheme: 'BEARER' }), /^bearerToken: is required for authScheme BEARER/)
    expectRefused(await parse('tools-gw', 'parse-tools', { endpoint: `${base}/mcp`, authScheme: 'NONE' }), /^endpoint: .*answered HTTP 401/)
    expectRefused(await parse('tools-gw', 'parse-tools', { endpoint: `${base}/nothing` }), /^endpoint: .*answered HTTP 404/)
    expectRefused(await parse('tools-gw', 'parse-tools', { endpoint: 'ftp://example.com/mcp' }), /^endpoint/)
    // a document and a probe at once is neither
    expectRefused(await parse('tools-gw', 'parse-tools', { document: JSON.stringify(TOOLS), endpoint: `${base}/mcp` }), /^document: not a tool definition document/)
  })
})

describe('parse-skills probing an A2A agent (discover-a2a-policy-skills.mdx)', () => {
  it("reads the agent card of the proxy's own backend agent (at its .well-known path) with the page's empty body", async () => {
    const res = await parse('agent-gw', 'parse-skills', example('discover-a2a-policy-skills.mdx', 0))
    expect(res.status).toBe(200)
    expect(res.body.resultList).toMatchObject([{ id: 'translate', name: 'Translate', tags: ['lang'] }])
  })

  it("probes the page's override address, and refuses an address without an agent card", async () => {
    const res = await parse('agent-gw', 'parse-skills', { ...example('discover-a2a-policy-skills.mdx', 1), endpoint: `${base}/a2a` })
    expect(res.body.resultList).toMatchObject([{ id: 'translate' }])
    expect(seenAuth.at(-1)).toBe('Bearer staging-only-token')
    expectRefused(await parse('agent-gw', 'parse-skills', { endpoint: `${base}/elsewhere` }), /^endpoint: no agent card with skills/)
  })

  it('over GraphQL too (the probe arguments)', async () => {
    const answer = await unchanged(() => bed.svc.graphql('mutation { parseProxySkills(projectName: "payments", apiProxyName: "agent-gw", policyName: "discovery") { id name } }', {}, bed.erin))
    expect(answer.body).toMatchObject({ data: { parseProxySkills: [{ id: 'translate', name: 'Translate' }] } })
    const tools = await unchanged(() => bed.svc.graphql(`mutation { parseProxyTools(projectName: "payments", apiProxyName: "tools-gw", policyName: "discovery", endpoint: "${base}/mcp-sse", authScheme: "NONE") { name } }`, {}, bed.erin))
    expect(tools.body).toMatchObject({ data: { parseProxyTools: [{ name: 'fetch_document' }] } })
  })
})
