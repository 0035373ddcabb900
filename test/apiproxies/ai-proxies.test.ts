import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { proxiesReferencingProvider } from '../../src/modules/apiproxies/ai/references.js'
import { apiManagersBootstrap, expectRefused, proxyCall } from './ai-proxies-support.js'

// AI, MCP and A2A proxies and their routing (spec §4.5, issue 4 bullet 6), legacy envelope, and the GraphQL door.

// erin: API_MANAGEMENT MANAGE in payments; frank: API_MANAGEMENT VIEW in payments; alice: no API_MANAGEMENT.
// The bootstrap file gives the MCP proxy boot-mcp no routing mode.
const bed = useTestbed({ workers: ['dev'], bootstrap: (workers) => apiManagersBootstrap(workers, [['boot-mcp', 'MCP']]), tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', alice: 'alice-pass-1' } })
let paymentsId: string

const SECRET_TOKEN = 'mcp-bearer-7f3c1e'
const ROTATED_TOKEN = 'mcp-bearer-rotated-91aa'
const SECRET_PASSWORD = 'a2a-basic-pw-55d0'
const URL_PASSWORD = 'mcp-url-pw-0c8e'
/** every response body of the suite, scanned for the secrets at the end */
const seen: string[] = []

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await proxyCall(bed.svc, method, path, token, body)
  seen.push(res.text)
  return res
}

async function gql(query: string, variables: Record<string, unknown>, token: string) {
  const res = await bed.svc.graphql(query, variables, token)
  seen.push(JSON.stringify(res.body))
  return res.body
}

const proxyRow = (name: string) => bed.svc.deps.prisma.apiProxy.findFirst({ where: { projectId: paymentsId, name } })

/** An LLM provider through its own REST door (alice holds AI_DEVELOPMENT MANAGE). */
async function provider(name: string, allowedModelIds: string[] = []) {
  const res = await bed.svc.http(`/apiops/projects/payments/llm-providers/${name}/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bed.alice}`, 'content-type': 'application/json' },
    body: JSON.stringify({ _class: 'llm', name, providerType: 'OPENAI', allowedModelIds }),
  })
  if (res.status !== 200) throw new Error(`provider ${name}: HTTP ${res.status} ${await res.text()}`)
}

beforeAll(async () => {
  paymentsId = (await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })).id
  await provider('OpenAI-Main', [])
  await provider('azure-eu', ['gpt-4o', 'gpt-4o-mini'])
  bed.dev.received.length = 0 // the providers' own pushes
})

describe('AI proxies', () => {
  it('creates an AI proxy with routing to LLM providers by name and deploys it', async () => {
    const res = await call('POST', 'ai/chat-gw/', bed.erin, {
      name: 'chat-gw',
      description: 'chat completions',
      groups: ['ai'],
      routing: {
        strategy: 'WEIGHTED',
        targets: [
          { providerName: 'openai-main', model: 'gpt-4.1', weight: 3 },
          { providerName: 'azure-eu', model: 'gpt-4o', weight: 1, priority: 1 },
        ],
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultCount: 1, deploymentResult: { success: true } })
    const proxy = res.body.resultList[0]
    expect(proxy).toMatchObject({ name: 'chat-gw', kind: 'AI', description: 'chat completions', routingMode: null, groups: ['ai'], revision: 1 })
    // defaults filled, provider names canonicalised to the stored spelling
    expect(proxy.routing).toEqual({
      strategy: 'WEIGHTED',
      targets: [
        { providerName: 'OpenAI-Main', model: 'gpt-4.1', weight: 3, priority: 0, enabled: true, timeoutMs: 60000 },
        { providerName: 'azure-eu', model: 'gpt-4o', weight: 1, priority: 1, enabled: true, timeoutMs: 60000 },
      ],
      fallbackOnStatus: [429, 500, 502, 503, 504],
      maxAttempts: 3,
    })
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'API_PROXY', name: 'chat-gw', revision: 1, config: { proxyKind: 'AI' } })
    expect(await proxiesReferencingProvider(bed.svc.deps.prisma, paymentsId, 'OPENAI-MAIN')).toEqual(['chat-gw'])
    expect(await proxiesReferencingProvider(bed.svc.deps.prisma, paymentsId, 'azure-eu')).toEqual(['chat-gw'])
  })

  it('creates an AI proxy without routing; the body name may be omitted', async () => {
    const res = await call('POST', 'ai/bare-ai/', bed.erin, {})
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'bare-ai', kind: 'AI', routing: null, groups: [] })
  })

  it('refuses a body name that differs from the path, a duplicate, and a bad path name; nothing is written', async () => {
    const before = await bed.svc.deps.prisma.apiProxy.count()
    expectRefused(await call('POST', 'ai/gw-x/', bed.erin, { name: 'gw-y' }), "name: 'gw-y' differs from the path name 'gw-x'")
    expectRefused(await call('POST', 'ai/CHAT-GW/', bed.erin, {}), "API proxy 'chat-gw' already exists")
    expectRefused(await call('POST', 'ai/orders-api/', bed.erin, {}), "API proxy 'orders-api' already exists")
    expectRefused(await call('POST', 'ai/%20/', bed.erin, {}), /^apiProxyName: must not be blank/)
    expect(await bed.svc.deps.prisma.apiProxy.count()).toBe(before)
    expect(bed.dev.received).toHaveLength(0)
  })

  it('refuses unknown providers, disallowed models, duplicates and bounds, naming the field; nothing is written', async () => {
    const before = await bed.svc.deps.prisma.apiProxy.count()
    const create = (routing: unknown) => call('POST', 'ai/gw-bad/', bed.erin, { routing })
    expectRefused(await create({ targets: [{ providerName: 'nope' }] }), "routing.targets[0].providerName: LLM provider 'nope' not found in the project")
    expectRefused(await create({ targets: [{ providerName: 'azure-eu', model: 'o3' }] }), "routing.targets[0].model: model 'o3' is not allowed by LLM provider 'azure-eu'")
    expectRefused(await create({ targets: [{ providerName: 'azure-eu' }, { providerName: 'AZURE-EU' }] }), "routing.targets[1]: provider 'AZURE-EU' is listed twice")
    expectRefused(await create({ targets: [{ providerName: 'azure-eu', weight: 0 }] }), 'routing.targets[0].weight: must be at least 1')
    expectRefused(await create({ strategy: 'FASTEST' }), /^routing.strategy: must be one of PRIORITY, ROUND_ROBIN, WEIGHTED, LEAST_LATENCY, LEAST_COST/)
    expectRefused(await create({ maxAttempts: 11 }), 'routing.maxAttempts: must be at most 10')
    expectRefused(await create({ fallbackOnStatus: [200] }), 'routing.fallbackOnStatus[0]: must be an HTTP status 400..599')
    expectRefused(await create({ targets: [{ providerName: 'azure-eu', enabled: false }] }), 'routing.targets: at least one target must be enabled')
    expectRefused(await create({ targets: [], colour: 'red' }), 'routing.colour: unknown field')
    expect(await bed.svc.deps.prisma.apiProxy.count()).toBe(before)
  })

  it('replaces the routing; the provider references follow', async () => {
    const res = await call('PUT', 'chat-gw/ai-routing/', bed.erin, { targets: [{ providerName: 'azure-eu', model: 'gpt-4o-mini' }] })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultCount: 1, deploymentResult: { success: true } })
    expect(res.body.resultList[0]).toMatchObject({ revision: 2, routing: { strategy: 'PRIORITY', targets: [{ providerName: 'azure-eu', model: 'gpt-4o-mini' }] } })
    expect(bed.dev.received[0]).toMatchObject({ kind: 'API_PROXY', name: 'chat-gw', revision: 2 })
    expect(await proxiesReferencingProvider(bed.svc.deps.prisma, paymentsId, 'OpenAI-Main')).toEqual([])
    expect(await proxiesReferencingProvider(bed.svc.deps.prisma, paymentsId, 'azure-eu')).toEqual(['chat-gw'])
    // the provider's own read reports its users (spec §2.7 usedByRefs)
    const usedBy = async (name: string) => {
      const res = await bed.svc.http(`/apiops/projects/payments/llm-providers/${name}/`, { headers: { authorization: `Bearer ${bed.alice}` } })
      return ((await res.json()) as any).resultList[0].usedByRefs
    }
    expect(await usedBy('azure-eu')).toEqual(['chat-gw'])
    expect(await usedBy('OpenAI-Main')).toEqual([])
    const read = await call('GET', 'chat-gw/ai-routing/', bed.frank)
    expect(read.body).toMatchObject({ status: 'SUCCESS', resultCount: 1, resultList: [{ name: 'chat-gw', revision: 2 }] })
  })

  it('refuses routing of a missing proxy, of another kind, and with an unknown provider; nothing changes', async () => {
    expectRefused(await call('PUT', 'ghost/ai-routing/', bed.erin, { targets: [] }), "API proxy 'ghost' not found")
    expectRefused(await call('PUT', 'orders-api/ai-routing/', bed.erin, { targets: [] }), "API proxy 'orders-api' is a REST proxy, not an AI proxy")
    expectRefused(await call('PUT', 'chat-gw/mcp-routing/', bed.erin, {}), "API proxy 'chat-gw' is an AI proxy, not an MCP proxy; use /ai-routing/")
    const before = await proxyRow('chat-gw')
    expectRefused(await call('PUT', 'chat-gw/ai-routing/', bed.erin, { targets: [{ providerName: 'ghost-llm' }] }), "LLM provider 'ghost-llm' not found")
    expect(await proxyRow('chat-gw')).toEqual(before)
    expect(await proxiesReferencingProvider(bed.svc.deps.prisma, paymentsId, 'azure-eu')).toEqual(['chat-gw'])
    expect(bed.dev.received).toHaveLength(0)
  })

  it('needs API_MANAGEMENT MANAGE to write and VIEW to read; an unknown project is a 400', async () => {
    expectRefused(await call('POST', 'ai/alice-gw/', bed.alice, {}), "User lacks permission API_MANAGEMENT MANAGE in project 'payments'")
    expectRefused(await call('POST', 'ai/frank-gw/', bed.frank, {}), "User lacks permission API_MANAGEMENT MANAGE in project 'payments'")
    expectRefused(await call('PUT', 'chat-gw/ai-routing/', bed.frank, { targets: [] }), 'User lacks permission API_MANAGEMENT MANAGE')
    expectRefused(await call('GET', 'chat-gw/ai-routing/', bed.alice), 'User lacks permission API_MANAGEMENT VIEW')
    const res = await bed.svc.http('/apiops/projects/nowhere/apiProxies/ai/x/', { method: 'POST', headers: { authorization: `Bearer ${bed.erin}`, 'content-type': 'application/json' }, body: '{}' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ status: 'FAILURE', resultMessage: "Project 'nowhere' not found" })
    const blank = await bed.svc.http('/apiops/projects/%20/apiProxies/ai/x/', { method: 'POST', headers: { authorization: `Bearer ${bed.erin}`, 'content-type': 'application/json' }, body: '{}' })
    expect(blank.status).toBe(400)
    expect(await blank.json()).toEqual({ status: 'FAILURE', resultMessage: 'Project name is empty' })
    expect(await proxyRow('alice-gw')).toBeNull()
    expect(await proxyRow('frank-gw')).toBeNull()
    const anon = await bed.svc.http('/apiops/projects/payments/apiProxies/ai/anon/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    expect(anon.status).toBe(401)
  })

  it('reports a failing environment but keeps the save', async () => {
    bed.dev.status = 503
    const res = await call('POST', 'ai/gw-failing/', bed.erin, {})
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(false)
    expect(res.body.deploymentResult.environmentResults).toEqual(
      expect.arrayContaining([expect.objectContaining({ environmentName: 'dev', success: false, message: expect.stringContaining('HTTP 503') })]),
    )
    expect(await proxyRow('gw-failing')).not.toBeNull()
  })
})

describe('MCP proxies', () => {
  it('needs routingMode, and refuses an unknown one; nothing is written', async () => {
    expectRefused(await call('POST', 'mcp/tools-gw/', bed.erin, {}), /^routingMode: must be one of PASSTHROUGH, AGGREGATE/)
    expectRefused(await call('POST', 'mcp/tools-gw/', bed.erin, { routingMode: 'AGENT_EXPOSE' }), /^routingMode: must be one of PASSTHROUGH, AGGREGATE/)
    expect(await proxyRow('tools-gw')).toBeNull()
  })

  it('creates without routing (empty default config) and needs a JSON body', async () => {
    const res = await call('POST', 'mcp/empty-mcp/', bed.erin, { routingMode: 'AGGREGATE' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ kind: 'MCP', routingMode: 'AGGREGATE', routing: { loadBalancing: 'FAILOVER', backendServers: [] } })
    const noBody = await bed.svc.http('/apiops/projects/payments/apiProxies/mcp/no-body/', { method: 'POST', headers: { authorization: `Bearer ${bed.erin}` } })
    expect(noBody.status).toBe(400)
    expect(await noBody.json()).toEqual({ status: 'FAILURE', resultMessage: 'Request body is required' })
    const notJson = await bed.svc.http('/apiops/projects/payments/apiProxies/mcp/no-body/', { method: 'POST', headers: { authorization: `Bearer ${bed.erin}`, 'content-type': 'application/json' }, body: '{oops' })
    expect(notJson.status).toBe(400)
    expect(await proxyRow('no-body')).toBeNull()
  })

  it('creates with inline backend servers; backend secrets are sealed, never returned, and sent to the gateway', async () => {
    const res = await call('POST', 'mcp/tools-gw/', bed.erin, {
      routingMode: 'PASSTHROUGH',
      routing: {
        backendServers: [
          { name: 'tools-a', url: 'https://mcp-a.example.test/mcp', auth: { scheme: 'BEARER', token: SECRET_TOKEN }, headers: [{ name: 'X-Tenant', value: 't1' }] },
          { name: 'tools-b', url: 'https://mcp-b.example.test/mcp', transport: 'SSE', weight: 2 },
        ],
      },
    })
    expect(res.status).toBe(200)
    const proxy = res.body.resultList[0]
    expect(proxy).toMatchObject({ kind: 'MCP', routingMode: 'PASSTHROUGH', revision: 1 })
    expect(proxy.routing.loadBalancing).toBe('FAILOVER')
    expect(proxy.routing.backendServers[0]).toEqual({
      name: 'tools-a', url: 'https://mcp-a.example.test/mcp', transport: 'STREAMABLE_HTTP', toolPrefix: null, weight: 1, enabled: true, timeoutMs: 30000,
      headers: [{ name: 'X-Tenant', value: 't1' }], auth: { scheme: 'BEARER', headerName: null, username: null, tokenSet: true, passwordSet: false },
    })
    expect(proxy.routing.backendServers[1]).toMatchObject({ name: 'tools-b', transport: 'SSE', weight: 2, auth: { scheme: 'NONE', tokenSet: false } })
    const stored = JSON.stringify((await proxyRow('tools-gw'))!.routing)
    expect(stored).not.toContain(SECRET_TOKEN)
    expect(stored).toContain('tokenCipher')
    const pushed = bed.dev.received[0]!.config as any
    expect(pushed.routingMode).toBe('PASSTHROUGH')
    expect(pushed.routing.backendServers[0].auth).toEqual({ scheme: 'BEARER', headerName: null, username: null, token: SECRET_TOKEN })
  })

  it('keeps a stored token when the replace leaves it blank, rotates it when given, and needs one for BEARER', async () => {
    const servers = (token?: string) => ({ backendServers: [{ name: 'TOOLS-A', url: 'https://mcp-a.example.test/mcp', auth: { scheme: 'BEARER', ...(token !== undefined ? { token } : {}) } }] })
    let res = await call('PUT', 'tools-gw/mcp-routing/', bed.erin, servers(''))
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ routingMode: 'PASSTHROUGH', revision: 2, routing: { backendServers: [{ name: 'TOOLS-A', auth: { tokenSet: true } }] } })
    expect((bed.dev.received[0]!.config as any).routing.backendServers[0].auth.token).toBe(SECRET_TOKEN)
    res = await call('PUT', 'tools-gw/mcp-routing/', bed.erin, servers(ROTATED_TOKEN))
    expect((bed.dev.received[1]!.config as any).routing.backendServers[0].auth.token).toBe(ROTATED_TOKEN)
    const before = await proxyRow('tools-gw')
    expectRefused(
      await call('PUT', 'tools-gw/mcp-routing/', bed.erin, { backendServers: [{ name: 'fresh', url: 'https://mcp-c.example.test', auth: { scheme: 'BEARER' } }] }),
      'backendServers[0].auth.token: is required for scheme BEARER',
    )
    expectRefused(
      await call('PUT', 'tools-gw/mcp-routing/', bed.erin, { backendServers: [{ name: 'k', url: 'https://mcp-c.example.test', auth: { scheme: 'API_KEY_HEADER', token: 'x' } }] }),
      'backendServers[0].auth.headerName: is required for scheme API_KEY_HEADER',
    )
    expect(await proxyRow('tools-gw')).toEqual(before)
  })

  it('switches the mode on replace and enforces the AGGREGATE prefix rules and server names', async () => {
    const agg = (servers: unknown[]) => call('PUT', 'tools-gw/mcp-routing/', bed.erin, { routingMode: 'AGGREGATE', backendServers: servers })
    expectRefused(
      await agg([{ name: 'a', url: 'https://a.example.test' }, { name: 'b', url: 'https://b.example.test', toolPrefix: 'b' }]),
      'backendServers[0].toolPrefix: is required in AGGREGATE mode when several servers are listed',
    )
    expectRefused(
      await agg([{ name: 'a', url: 'https://a.example.test', toolPrefix: 'x' }, { name: 'b', url: 'https://b.example.test', toolPrefix: 'X' }]),
      "backendServers[1].toolPrefix: 'X' is used by another server",
    )
    expectRefused(await agg([{ name: 'a', url: 'https://a.example.test' }, { name: 'A', url: 'https://b.example.test' }]), "backendServers[1].name: backend server 'A' is listed twice")
    expectRefused(await agg([{ name: 'a', url: 'ftp://a.example.test' }]), 'backendServers[0].url: must be an http(s) URL')
    expectRefused(
      await agg([{ name: 'a', url: 'https://a.example.test', headers: [{ name: 'Authorization', value: 'Bearer x' }] }]),
      'backendServers[0].headers[0].name: carries a credential: set it through auth, where it is stored encrypted and never returned',
    )
    expectRefused(await agg([{ name: 'a', url: 'https://a.example.test', enabled: false }]), 'backendServers: at least one backend server must be enabled')
    const ok = await agg([{ name: 'a', url: 'https://a.example.test', toolPrefix: 'a' }, { name: 'b', url: 'https://b.example.test', toolPrefix: 'b' }])
    expect(ok.status).toBe(200)
    expect(ok.body.resultList[0]).toMatchObject({ routingMode: 'AGGREGATE', routing: { backendServers: [{ toolPrefix: 'a' }, { toolPrefix: 'b' }] } })
  })

  it('refuses credentials inside a backend URL or a token-named header (they would be returned on read); nothing is written', async () => {
    const before = await proxyRow('tools-gw')
    expectRefused(
      await call('PUT', 'tools-gw/mcp-routing/', bed.erin, { backendServers: [{ name: 'a', url: `https://svc:${URL_PASSWORD}@mcp-a.example.test/mcp` }] }),
      'backendServers[0].url: must not carry a user name or password: set credentials through auth, where they are stored encrypted and never returned',
    )
    expectRefused(
      await call('POST', 'a2a/url-agent/', bed.erin, { routing: { backendServers: [{ name: 'a', url: 'https://agent@a2a.example.test' }] } }),
      'routing.backendServers[0].url: must not carry a user name or password',
    )
    expectRefused(
      await call('PUT', 'tools-gw/mcp-routing/', bed.erin, { backendServers: [{ name: 'a', url: 'https://mcp-a.example.test', headers: [{ name: 'X-Auth-Token', value: URL_PASSWORD }] }] }),
      'backendServers[0].headers[0].name: carries a credential: set it through auth',
    )
    expect(await proxyRow('tools-gw')).toEqual(before)
    expect(await proxyRow('url-agent')).toBeNull()
    expect(bed.dev.received).toHaveLength(0)
  })

  it('the generic door refuses MCP; an MCP proxy of the bootstrap file gets its mode with its first routing', async () => {
    const generic = await gql(`mutation { createApiProxy(projectName: "payments", input: { name: "generic-mcp", kind: "MCP" }) { name } }`, {}, bed.erin)
    expect(generic.errors?.[0]).toMatchObject({ message: 'kind: create MCP proxies with createMcpProxy, which takes the required routingMode', extensions: { params: { field: 'kind' } } })
    expect(await proxyRow('generic-mcp')).toBeNull()
    expectRefused(await call('PUT', 'boot-mcp/mcp-routing/', bed.erin, { backendServers: [] }), 'routingMode: is required: the proxy has no routing mode yet')
    const ok = await call('PUT', 'boot-mcp/mcp-routing/', bed.erin, { routingMode: 'PASSTHROUGH', backendServers: [] })
    expect(ok.body.resultList[0]).toMatchObject({ routingMode: 'PASSTHROUGH', revision: 1 })
  })

  it('rejects a request that carries a standalone outbound MCP/A2A connection; nothing is written', async () => {
    expectRefused(
      await call('POST', 'mcp/legacy-gw/', bed.erin, { routingMode: 'PASSTHROUGH', mcpConnectionName: 'old-conn' }),
      'mcpConnectionName: standalone outbound MCP/A2A connections no longer exist; declare the backend servers inline in the routing (backendServers)',
    )
    expectRefused(
      await call('POST', 'a2a/legacy-agent/', bed.erin, { routing: { backendServers: [{ name: 'x', connectionId: 'abc' }] } }),
      'routing.backendServers[0].connectionId: standalone outbound MCP/A2A connections no longer exist',
    )
    const before = await proxyRow('tools-gw')
    expectRefused(await call('PUT', 'tools-gw/mcp-routing/', bed.erin, { a2aConnection: { name: 'agent' } }), 'a2aConnection: standalone outbound')
    expectRefused(await call('PUT', 'tools-gw/mcp-routing/', bed.erin, { backendServers: [{ _class: 'McpConnection', name: 'x', url: 'https://x.example.test' }] }), 'backendServers[0]._class: standalone outbound')
    expect(await proxyRow('legacy-gw')).toBeNull()
    expect(await proxyRow('legacy-agent')).toBeNull()
    expect(await proxyRow('tools-gw')).toEqual(before)
  })
})

describe('A2A proxies', () => {
  it('defaults routingMode to AGENT_EXPOSE', async () => {
    const res = await call('POST', 'a2a/agent-gw/', bed.erin, {
      routing: {
        backendServers: [{ name: 'planner', url: 'https://agent.example.test/a2a', auth: { scheme: 'BASIC', username: 'svc', password: SECRET_PASSWORD } }],
        agentCard: { name: 'Planner', skills: [{ id: 'plan', name: 'Plan a trip', tags: ['travel'] }] },
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({
      kind: 'A2A',
      routingMode: 'AGENT_EXPOSE',
      routing: {
        loadBalancing: 'FAILOVER',
        backendServers: [{ name: 'planner', protocol: 'JSONRPC', skills: [], auth: { scheme: 'BASIC', username: 'svc', passwordSet: true, tokenSet: false } }],
        agentCard: { name: 'Planner', skills: [{ id: 'plan', name: 'Plan a trip', tags: ['travel'] }] },
      },
    })
    expect((bed.dev.received[0]!.config as any).routing.backendServers[0].auth.password).toBe(SECRET_PASSWORD)
  })

  it('can be created from the path alone', async () => {
    const res = await bed.svc.http('/apiops/projects/payments/apiProxies/a2a/bare-agent/', { method: 'POST', headers: { authorization: `Bearer ${bed.erin}` } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as any
    seen.push(JSON.stringify(body))
    expect(body.resultList[0]).toMatchObject({ name: 'bare-agent', kind: 'A2A', routingMode: 'AGENT_EXPOSE', routing: { loadBalancing: 'FAILOVER', backendServers: [], agentCard: null } })
  })

  it('enforces SKILL_ROUTE: every server names its skills and a skill has one server', async () => {
    const put = (servers: unknown[]) => call('PUT', 'agent-gw/a2a-routing/', bed.erin, { routingMode: 'SKILL_ROUTE', backendServers: servers })
    expectRefused(await put([{ name: 'a', url: 'https://a.example.test' }]), 'backendServers[0].skills: SKILL_ROUTE needs the skills each server serves')
    expectRefused(
      await put([{ name: 'a', url: 'https://a.example.test', skills: ['plan'] }, { name: 'b', url: 'https://b.example.test', skills: ['book', 'plan'] }]),
      "backendServers[1].skills: skill 'plan' is already served by 'a'",
    )
    expectRefused(await call('PUT', 'agent-gw/a2a-routing/', bed.erin, { routingMode: 'AGGREGATE' }), /^routingMode: must be one of AGENT_EXPOSE, PASSTHROUGH, SKILL_ROUTE/)
    const ok = await put([{ name: 'a', url: 'https://a.example.test', skills: ['plan'] }, { name: 'b', url: 'https://b.example.test', skills: ['book'] }])
    expect(ok.status).toBe(200)
    expect(ok.body.resultList[0]).toMatchObject({ routingMode: 'SKILL_ROUTE', revision: 2 })
  })
})

const PROXY_FIELDS = `name kind description routingMode revision groups
  aiRouting { strategy maxAttempts fallbackOnStatus targets { providerName model weight priority enabled timeoutMs } }
  mcpRouting { routingMode loadBalancing backendServers { name url transport toolPrefix weight enabled timeoutMs headers { name value } auth { scheme headerName username tokenSet passwordSet } } }
  a2aRouting { routingMode loadBalancing backendServers { name url protocol skills auth { scheme tokenSet passwordSet } } agentCard { name skills { id name tags } } }`
const WRITE = `apiProxy { ${PROXY_FIELDS} } deploymentResult { success environmentResults { environmentName success } }`

describe('GraphQL', () => {
  it('creates MCP and A2A proxies, replaces routing, and never returns secrets', async () => {
    const created = await gql(
      `mutation($p: String!, $n: String!, $i: McpProxyInput!) { createMcpProxy(projectName: $p, name: $n, input: $i) { ${WRITE} } }`,
      { p: 'payments', n: 'gql-mcp', i: { routingMode: 'PASSTHROUGH', routing: { backendServers: [{ name: 's1', url: 'https://s1.example.test', auth: { scheme: 'BEARER', token: SECRET_TOKEN } }] } } },
      bed.erin,
    )
    expect(created.errors).toBeUndefined()
    expect(created.data.createMcpProxy).toMatchObject({
      apiProxy: { name: 'gql-mcp', kind: 'MCP', routingMode: 'PASSTHROUGH', revision: 1, aiRouting: null, a2aRouting: null, mcpRouting: { routingMode: 'PASSTHROUGH', backendServers: [{ name: 's1', transport: 'STREAMABLE_HTTP', auth: { scheme: 'BEARER', tokenSet: true } }] } },
      deploymentResult: { success: true },
    })
    const replaced = await gql(
      `mutation($p: String!, $n: String!, $r: McpRoutingInput!) { replaceMcpRouting(projectName: $p, name: $n, routingMode: "AGGREGATE", routing: $r) { ${WRITE} } }`,
      { p: 'payments', n: 'gql-mcp', r: { backendServers: [{ name: 's1', url: 'https://s1.example.test', toolPrefix: 's1', auth: { scheme: 'BEARER', token: null } }] } },
      bed.erin,
    )
    expect(replaced.errors).toBeUndefined()
    expect(replaced.data.replaceMcpRouting.apiProxy).toMatchObject({ routingMode: 'AGGREGATE', revision: 2, mcpRouting: { backendServers: [{ toolPrefix: 's1', auth: { tokenSet: true } }] } })

    const a2a = await gql(`mutation { createA2aProxy(projectName: "payments", name: "gql-a2a") { ${WRITE} } }`, {}, bed.erin)
    expect(a2a.data.createA2aProxy.apiProxy).toMatchObject({ kind: 'A2A', routingMode: 'AGENT_EXPOSE', a2aRouting: { routingMode: 'AGENT_EXPOSE', backendServers: [], agentCard: null } })

    const read = await gql(`query { apiProxy(projectName: "payments", name: "chat-gw") { ${PROXY_FIELDS} } }`, {}, bed.frank)
    expect(read.data.apiProxy).toMatchObject({ kind: 'AI', aiRouting: { strategy: 'PRIORITY', targets: [{ providerName: 'azure-eu' }] }, mcpRouting: null })
  })

  it('answers the same errors with errorKey and field', async () => {
    const bad = await gql(`mutation { createMcpProxy(projectName: "payments", name: "gql-bad", input: { routingMode: "NOPE" }) { apiProxy { name } } }`, {}, bed.erin)
    expect(bad.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^routingMode: must be one of PASSTHROUGH, AGGREGATE/), extensions: { errorKey: 'malformedRequest', params: { field: 'routingMode' } } })
    const ai = await gql(`mutation { replaceAiRouting(projectName: "payments", name: "chat-gw", routing: { targets: [{ providerName: "ghost" }] }) { apiProxy { name } } }`, {}, bed.erin)
    expect(ai.errors?.[0]).toMatchObject({ extensions: { errorKey: 'resourceNotFound', params: { field: 'targets[0].providerName', llmProvider: 'ghost' } } })
    const denied = await gql(`mutation { createAiProxy(projectName: "payments", name: "x", input: {}) { apiProxy { name } } }`, {}, bed.frank)
    expect(denied.errors?.[0]).toMatchObject({ extensions: { errorKey: 'permissionDenied' } })
    expect(await proxyRow('gql-bad')).toBeNull()
    expect(await proxyRow('x')).toBeNull()
  })
})

describe('OpenAPI', () => {
  it('documents the routes with their body schemas', async () => {
    const doc = (await (await bed.svc.http('/apiops/openapi.json')).json()) as any
    const mcp = doc.paths['/apiops/projects/{projectName}/apiProxies/mcp/{apiProxyName}/'].post
    expect(mcp.requestBody.content['application/json'].schema.required).toContain('routingMode')
    expect(Object.keys(mcp.responses)).toEqual(['200', '400', '401'])
    expect(doc.paths['/apiops/projects/{projectName}/apiProxies/{apiProxyName}/a2a-routing/'].put.requestBody.content['application/json'].schema.properties.routingMode).toBeDefined()
    expect(doc.paths['/apiops/projects/{projectName}/apiProxies/{apiProxyName}/policies/{policyName}/parse-skills/'].post).toBeDefined()
  })
})

describe('deletion', () => {
  it('undeploys a deleted AI/MCP/A2A proxy and drops its provider references', async () => {
    const res = await gql(`mutation { deleteApiProxy(projectName: "payments", name: "chat-gw") }`, {}, bed.erin)
    expect(res.data.deleteApiProxy).toBe(true)
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'API_PROXY', name: 'chat-gw', revision: 2 })])
    expect(await proxiesReferencingProvider(bed.svc.deps.prisma, paymentsId, 'azure-eu')).toEqual([])
    const again = await gql(`mutation { deleteApiProxy(projectName: "payments", name: "chat-gw") }`, {}, bed.erin)
    expect(again.errors?.[0]).toMatchObject({ extensions: { errorKey: 'resourceNotFound', params: { apiProxy: 'chat-gw' } } })
  })
})

describe('secrets', () => {
  it('never appear in any response of the suite', () => {
    expect(seen.length).toBeGreaterThan(20)
    for (const body of seen) {
      for (const secret of [SECRET_TOKEN, ROTATED_TOKEN, SECRET_PASSWORD, URL_PASSWORD]) expect(body).not.toContain(secret)
    }
  })
})
