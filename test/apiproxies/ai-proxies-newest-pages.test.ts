import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import { apiManagersBootstrap, expectRefused, proxyCall } from './ai-proxies-support.js'

// Issue 32 §0: the newest vendor pages' bodies for AI, MCP and A2A proxies (api-proxies/crud/create-ai/mcp/a2a-api-proxy.mdx,
// api-proxies/settings/update-ai/mcp/a2a-routing.mdx): accepted, stored, read back and pushed; their refusals write,
// audit and push nothing; the older bodies stay accepted (ai-proxies.test.ts).

// erin: API_MANAGEMENT MANAGE in payments; alice: AI_DEVELOPMENT MANAGE (LLM providers)
const bed = useTestbed({ workers: ['dev'], bootstrap: (workers) => apiManagersBootstrap(workers, []), tokens: { erin: 'erin-pass-1', alice: 'alice-pass-1' } })
const examples = JSON.parse(fs.readFileSync(new URL('../openapi/vendor-examples.json', import.meta.url), 'utf8')) as VendorExample[]
const example = (page: string, index = 0) => {
  const found = examples.find((e) => e.page === `api-reference/api-proxies/${page}` && e.index === index)
  if (!found) throw new Error(`no example ${page}#${index}`)
  return structuredClone(found.body) as Record<string, any>
}

const prisma = () => bed.svc.deps.prisma
const seen: string[] = []
const call = async (method: string, path: string, body?: unknown, token = bed.erin) => {
  const res = await proxyCall(bed.svc, method, path, token, body)
  seen.push(res.text)
  return res
}
const row = (name: string) => prisma().apiProxy.findFirstOrThrow({ where: { name } })
const audits = (objectName: string) => prisma().auditEvent.findMany({ where: { objectName }, orderBy: { id: 'asc' } })

async function provider(name: string) {
  const res = await bed.svc.http(`/apiops/projects/payments/llm-providers/${name}/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bed.alice}`, 'content-type': 'application/json' },
    body: JSON.stringify({ _class: 'llm', name, providerType: 'OPENAI' }),
  })
  expect(res.status).toBe(200)
}

/** A refused write: 400 naming the field, no proxy row changed, no audit event, no push. */
async function refused(method: string, path: string, body: unknown, field: string, message: RegExp) {
  const rows = await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })
  const events = await prisma().auditEvent.count()
  const pushes = bed.dev.received.length
  const res = await call(method, path, body)
  expectRefused(res, message)
  expect(res.body.resultMessage.startsWith(field)).toBe(true)
  expect(await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })).toEqual(rows)
  expect(await prisma().auditEvent.count()).toBe(events)
  expect(bed.dev.received.length).toBe(pushes)
}

describe('AI proxies: the newest create and routing pages', () => {
  it("creates the page's example: relativePath and the first routing by provider name, stored, read back, pushed, audited", async () => {
    await provider('openai-prod')
    const body = example('crud/create-ai-api-proxy.mdx', 0)
    const res = await call('POST', 'ai/support-chat/', body)
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'support-chat', kind: 'AI', relativePath: '/ai/chat', description: 'Customer support assistant' })
    const stored = await row('support-chat')
    expect(stored.relativePath).toBe('/ai/chat')
    expect(stored.routing).toMatchObject({ llmProviderRefName: 'openai-prod', modelId: 'gpt-4o-mini', streaming: false, targets: [{ providerName: 'openai-prod', model: 'gpt-4o-mini', priority: 0 }] })
    const read = await call('GET', 'support-chat/ai-routing/')
    expect(read.body.resultList[0]).toMatchObject({ relativePath: '/ai/chat', routing: { llmProviderRefName: 'openai-prod', modelId: 'gpt-4o-mini', streaming: false } })
    const listed = await call('GET', '')
    expect(listed.body.resultList).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'support-chat', type: 'AI', relativePath: '/ai/chat' })]))
    const detail = await call('GET', 'support-chat/')
    expect(detail.body).toMatchObject({ status: 'SUCCESS', name: 'support-chat', relativePath: '/ai/chat' })
    // created with a relativePath only: its route reads as the default route on that path (the get page's clientRoute)
    expect(detail.body.clientRoute).toEqual({ relativePathList: ['/ai/chat'], hostList: [], virtualHostList: [], methodList: [], headerList: [], bufferRequest: true, bufferResponse: true })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY', name: 'support-chat', config: { proxyKind: 'AI', relativePath: '/ai/chat', routing: { llmProviderRefName: 'openai-prod' } } })
    expect(await audits('support-chat')).toMatchObject([{ outcome: 'SUCCEEDED', objectType: 'API_PROXY' }])
    // the minimal example: a path and nothing routed yet
    const minimal = await call('POST', 'ai/bare-chat/', { ...example('crud/create-ai-api-proxy.mdx', 1), relativePath: '/ai/bare' })
    expect(minimal.body.resultList[0]).toMatchObject({ relativePath: '/ai/bare', routing: null })
  })

  it('refuses an unknown provider, a taken relativePath, a model without provider and both routing forms', async () => {
    await refused('POST', 'ai/x1/', { relativePath: '/ai/x1', llmProviderName: 'nobody' }, 'llmProviderName', /LLM provider 'nobody' not found/)
    await refused('POST', 'ai/x2/', { relativePath: '/ai/chat' }, 'relativePath', /already the relative path of API proxy 'support-chat'/)
    await refused('POST', 'ai/x3/', { relativePath: '/ai/x3', modelId: 'gpt-4o' }, 'llmProviderName', /is required with modelId/)
    await refused('POST', 'ai/x4/', { llmProviderName: 'openai-prod', routing: { targets: [] } }, 'llmProviderName', /cannot be sent with routing/)
    await refused('POST', 'ai/x5/', { relativePath: 'ai/no-slash' }, 'relativePath', /must start with '\/'/)
  })

  it("replaces the routing with the update page's example; refuses targets beside it and an unknown provider", async () => {
    const body = example('settings/update-ai-routing.mdx', 0)
    const res = await call('PUT', 'support-chat/ai-routing/', body)
    expect(res.status).toBe(200)
    const routing = (await call('GET', 'support-chat/ai-routing/')).body.resultList[0].routing
    expect(routing).toMatchObject({
      llmProviderRefName: 'openai-prod', modelId: 'gpt-4o-mini', timeoutSeconds: 60, connectTimeoutSeconds: 10, streamTimeoutSeconds: 120, retryCount: 0,
      failoverStrategy: 'SEQUENTIAL', enumAiRoutingAlgorithm: 'ROUND_ROBIN', circuitBreakerEnabled: false, blockAnonymousRequests: false,
      targets: [{ providerName: 'openai-prod', model: 'gpt-4o-mini', timeoutMs: 60_000 }],
    })
    expect((await row('support-chat')).revision).toBe(2)
    expect(bed.dev.received.at(-1)).toMatchObject({ name: 'support-chat', revision: 2, config: { routing: { failoverStrategy: 'SEQUENTIAL' } } })
    // a failover chain names its providers by name too
    await provider('deepseek-backup')
    const chain = await call('PUT', 'support-chat/ai-routing/', { llmProviderRefName: 'openai-prod', providerFailoverChain: [{ llmProviderRefName: 'deepseek-backup', modelId: 'deepseek-chat' }] })
    expect(chain.body.resultList[0].routing.targets).toMatchObject([{ providerName: 'openai-prod', priority: 0 }, { providerName: 'deepseek-backup', model: 'deepseek-chat', priority: 1 }])
    await refused('PUT', 'support-chat/ai-routing/', { llmProviderRefName: 'openai-prod', targets: [{ providerName: 'deepseek-backup' }] }, 'targets', /cannot be sent with llmProviderRefName/)
    // the routing as read back (the page's form beside the targets it derives) may be sent again as it is
    const { proxyPasswordSet: _set, ...readBack } = chain.body.resultList[0].routing
    const again = await call('PUT', 'support-chat/ai-routing/', readBack)
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body.resultList[0].routing.targets).toEqual(chain.body.resultList[0].routing.targets)
    await refused('PUT', 'support-chat/ai-routing/', { llmProviderRefName: 'openai-prod', providerFailoverChain: [{ llmProviderRefName: 'ghost' }] }, 'providerFailoverChain[0].llmProviderRefName', /LLM provider 'ghost' not found/)
    await refused('PUT', 'support-chat/ai-routing/', { llmProviderRefName: 'openai-prod', failoverStrategy: 'RANDOM' }, 'failoverStrategy', /must be one of SEQUENTIAL, ROUND_ROBIN, CONDITIONAL/)
  })
})

describe("AI routing: the outbound proxy's credentials (update-ai-routing.mdx)", () => {
  const outbound = { llmProviderRefName: 'openai-prod', proxyEnabled: true, proxyHost: 'egress.example.com', proxyPort: 3128, proxyAuthorizationNeeded: true, proxyUsername: 'gw' }

  it('seals the password, shows only proxyPasswordSet, keeps it when blank, and pushes it opened', async () => {
    const res = await call('PUT', 'support-chat/ai-routing/', { ...outbound, proxyPassword: 'outbound-proxy-pw-77' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0].routing).toMatchObject({ proxyHost: 'egress.example.com', proxyPort: 3128, proxyUsername: 'gw', proxyPasswordSet: true })
    expect(res.body.resultList[0].routing).not.toHaveProperty('proxyPassword')
    expect(JSON.stringify((await row('support-chat')).routing)).not.toContain('outbound-proxy-pw-77')
    expect(bed.dev.received.at(-1)).toMatchObject({ name: 'support-chat', config: { routing: { proxyPassword: 'outbound-proxy-pw-77' } } })
    const kept = await call('PUT', 'support-chat/ai-routing/', { ...outbound, proxyPassword: '' })
    expect(kept.body.resultList[0].routing.proxyPasswordSet).toBe(true)
    expect(bed.dev.received.at(-1)).toMatchObject({ config: { routing: { proxyPassword: 'outbound-proxy-pw-77' } } })
  })

  it('refuses authorization without a user name or a password, and a password without authorization', async () => {
    await refused('PUT', 'support-chat/ai-routing/', { ...outbound, proxyUsername: null }, 'proxyUsername', /is required with proxyAuthorizationNeeded true/)
    await refused('PUT', 'bare-chat/ai-routing/', outbound, 'proxyPassword', /is required with proxyAuthorizationNeeded true/)
    await refused('PUT', 'bare-chat/ai-routing/', { llmProviderRefName: 'openai-prod', proxyPassword: 'x' }, 'proxyPassword', /is only used with proxyAuthorizationNeeded true/)
  })
})

describe('MCP proxies: the newest create and routing pages', () => {
  it("creates the pages' examples (TOOL_EXPOSE; PASSTHROUGH with inline servers in the page's spelling), stored and read back", async () => {
    const tools = await call('POST', 'mcp/support-tools/', example('crud/create-mcp-api-proxy.mdx', 0))
    expect(tools.status).toBe(200)
    expect(tools.body.resultList[0]).toMatchObject({ kind: 'MCP', routingMode: 'TOOL_EXPOSE', relativePath: '/mcp/support' })
    expect((await call('POST', 'mcp/github/', example('crud/create-mcp-api-proxy.mdx', 1))).body.resultList[0]).toMatchObject({ routingMode: 'TOOL_EXPOSE', relativePath: '/mcp/github' })
    // the page's second step sent at creation: the flat backendServers become the first routing
    const passthrough = await call('POST', 'mcp/github-direct/', { relativePath: '/mcp/github-direct', ...example('crud/create-mcp-api-proxy.mdx', 2) })
    expect(passthrough.status).toBe(200)
    expect(passthrough.body.resultList[0]).toMatchObject({
      routingMode: 'PASSTHROUGH',
      routing: { backendServers: [{ name: 'github-mcp', url: 'https://mcp.github.example.com/mcp', transport: 'HTTP_SSE', auth: { scheme: 'BEARER', tokenSet: true } }] },
    })
    expect(JSON.stringify(await row('github-direct'))).not.toContain('raw-token-in-transit-only')
    expect(bed.dev.received.at(-1)).toMatchObject({ name: 'github-direct', config: { routing: { backendServers: [{ url: 'https://mcp.github.example.com/mcp', auth: { token: 'raw-token-in-transit-only' } }] } } })
  })

  it("replaces the routing with the update page's examples and reads back their fields", async () => {
    const exposed = await call('PUT', 'support-tools/mcp-routing/', example('settings/update-mcp-routing.mdx', 0))
    expect(exposed.status).toBe(200)
    expect((await call('GET', 'support-tools/mcp-routing/')).body.resultList[0]).toMatchObject({
      routingMode: 'TOOL_EXPOSE',
      routing: { protocolVersion: '2025-06-18', exposedTools: [{ proxyId: '665f1c2e8b3a4d0012ab34cd', toolName: 'order_lookup', apiMethodHttpMethod: 'GET', apiMethodPath: '/orders/{id}', requiredScopes: ['orders.read'] }], identityAcl: [], callQuota: null },
    })
    const passthrough = await call('PUT', 'support-tools/mcp-routing/', example('settings/update-mcp-routing.mdx', 1))
    expect(passthrough.status).toBe(200)
    expect(passthrough.body.resultList[0]).toMatchObject({
      routingMode: 'PASSTHROUGH',
      routing: { allowedToolNames: ['search', 'fetch_document'], backendServers: [{ name: 'internal-mcp-server', url: 'https://mcp.example.com/mcp', driftPolicy: 'WARN_ONLY', auth: { scheme: 'BEARER', tokenSet: true } }] },
    })
    // a blank bearerToken keeps the stored one
    const kept = await call('PUT', 'support-tools/mcp-routing/', { routingMode: 'PASSTHROUGH', backendServers: [{ name: 'internal-mcp-server', endpoint: 'https://mcp.example.com/mcp', authScheme: 'BEARER' }] })
    expect(kept.body.resultList[0].routing.backendServers[0].auth.tokenSet).toBe(true)
    expect(await audits('support-tools')).toHaveLength(4)
  })

  it('refuses servers under TOOL_EXPOSE, tools under PASSTHROUGH, an unsupported auth scheme and two addresses', async () => {
    const server = { name: 's', endpoint: 'https://mcp.example.com/mcp' }
    await refused('PUT', 'support-tools/mcp-routing/', { routingMode: 'TOOL_EXPOSE', backendServers: [server] }, 'backendServers', /TOOL_EXPOSE serves exposedTools/)
    await refused('PUT', 'support-tools/mcp-routing/', { routingMode: 'PASSTHROUGH', backendServers: [server], exposedTools: [{ proxyName: 'orders', toolName: 't' }] }, 'exposedTools', /only TOOL_EXPOSE exposes tools/)
    await refused('PUT', 'support-tools/mcp-routing/', { routingMode: 'TOOL_EXPOSE', exposedTools: [{ toolName: 't' }] }, 'exposedTools[0].proxyName', /is required \(or proxyId\)/)
    await refused('PUT', 'support-tools/mcp-routing/', { routingMode: 'PASSTHROUGH', backendServers: [{ ...server, authScheme: 'KERBEROS' }] }, 'backendServers[0].authScheme', /must be one of NONE, BEARER, OAUTH2_CLIENT_CREDENTIALS, MTLS/)
    await refused('PUT', 'support-tools/mcp-routing/', { routingMode: 'PASSTHROUGH', backendServers: [{ ...server, url: 'https://other.example.com/mcp' }] }, 'backendServers[0].endpoint', /differs from url/)
    await refused('PUT', 'support-tools/mcp-routing/', { routingMode: 'PASSTHROUGH', backendServers: [{ name: 's' }] }, 'backendServers[0].url', /is required \(or endpoint\)/)
    await refused('PUT', 'support-tools/mcp-routing/', { routingMode: 'PASSTHROUGH', protocolVersion: '2023-01-01' }, 'protocolVersion', /must be one of 2024-11-05/)
  })
})

describe('A2A proxies: the newest create and routing pages', () => {
  it("creates the pages' examples and replaces the routing with the update page's examples", async () => {
    const minimal = await call('POST', 'a2a/support-agent/', example('crud/create-a2a-api-proxy.mdx', 0))
    expect(minimal.body.resultList[0]).toMatchObject({ kind: 'A2A', routingMode: 'AGENT_EXPOSE', relativePath: '/a2a/support' })
    expect((await call('POST', 'a2a/partner/', example('crud/create-a2a-api-proxy.mdx', 1))).body.resultList[0]).toMatchObject({ relativePath: '/a2a/partner', description: 'Forwards tasks to a partner agent' })
    const direct = await call('POST', 'a2a/partner-direct/', example('crud/create-a2a-api-proxy.mdx', 2))
    expect(direct.body.resultList[0]).toMatchObject({ routingMode: 'PASSTHROUGH', relativePath: null, routing: { backendServers: [{ name: 'partner-agent', url: 'https://agents.partner.example.com/a2a', auth: { scheme: 'BEARER', tokenSet: true } }] } })

    const card = await call('PUT', 'support-agent/a2a-routing/', example('settings/update-a2a-routing.mdx', 0))
    expect(card.status).toBe(200)
    expect((await call('GET', 'support-agent/a2a-routing/')).body.resultList[0].routing).toMatchObject({
      agentCard: { name: null, descriptionOverride: 'Answers customer support questions', inputModes: ['text/plain'], outputModes: ['text/plain'], skills: [{ id: 'answer-question', tags: ['support'] }] },
      pushSettings: null, identityAcl: [],
    })
    const pass = await call('PUT', 'partner/a2a-routing/', example('settings/update-a2a-routing.mdx', 1))
    expect(pass.body.resultList[0]).toMatchObject({ routingMode: 'PASSTHROUGH', routing: { allowedSkillNames: ['translate', 'summarize'], backendServers: [{ url: 'https://agents.partner.example.com/a2a', driftPolicy: 'WARN_ONLY' }] } })
    expect(bed.dev.received.at(-1)).toMatchObject({ name: 'partner', config: { routingMode: 'PASSTHROUGH', routing: { backendServers: [{ auth: { token: 'raw-token-in-transit-only' } }] } } })
  })

  it('refuses an identity rule of an unknown principal type and auth sent both ways', async () => {
    await refused('PUT', 'partner/a2a-routing/', { identityAcl: [{ principalType: 'USER' }] }, 'identityAcl[0].principalType', /must be one of CREDENTIAL, ROLE, ORGANIZATION/)
    const both = { name: 'a', endpoint: 'https://a.example.com/a2a', authScheme: 'BEARER', bearerToken: 't', auth: { scheme: 'BEARER', token: 't' } }
    await refused('PUT', 'partner/a2a-routing/', { backendServers: [both] }, 'backendServers[0].authScheme', /cannot be sent with auth/)
  })
})

describe('the newest fields over GraphQL', () => {
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await bed.svc.graphql(query, variables, bed.erin)
    seen.push(JSON.stringify(res.body))
    return res.body as { data?: any; errors?: any[] }
  }

  it('creates with relativePath and flat servers, replaces an AI routing by provider name, with the same rules as REST', async () => {
    const created = await gql(`mutation { createMcpProxy(projectName: "payments", name: "gql-mcp", input: {
      routingMode: "PASSTHROUGH", relativePath: "/mcp/gql", backendServers: [{ name: "s1", endpoint: "https://s1.example.com/mcp", authScheme: "BEARER", bearerToken: "gql-secret-1" }] }) {
      apiProxy { name relativePath mcpRouting { routingMode backendServers { name url auth { scheme tokenSet } } } } } }`)
    expect(created.errors).toBeUndefined()
    expect(created.data.createMcpProxy.apiProxy).toEqual({
      name: 'gql-mcp', relativePath: '/mcp/gql', mcpRouting: { routingMode: 'PASSTHROUGH', backendServers: [{ name: 's1', url: 'https://s1.example.com/mcp', auth: { scheme: 'BEARER', tokenSet: true } }] },
    })
    const ai = await gql(`mutation { replaceAiRouting(projectName: "payments", name: "support-chat", routing: { llmProviderRefName: "openai-prod", modelId: "gpt-4o", timeoutSeconds: 30 }) {
      apiProxy { aiRouting { llmProviderRefName modelId timeoutSeconds targets { providerName model timeoutMs } } } } }`)
    expect(ai.errors).toBeUndefined()
    expect(ai.data.replaceAiRouting.apiProxy.aiRouting).toEqual({ llmProviderRefName: 'openai-prod', modelId: 'gpt-4o', timeoutSeconds: 30, targets: [{ providerName: 'openai-prod', model: 'gpt-4o', timeoutMs: 30_000 }] })
    const before = await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })
    const bad = await gql('mutation { createAiProxy(projectName: "payments", name: "gql-ai", input: { relativePath: "/ai/gql", llmProviderName: "ghost" }) { apiProxy { name } } }')
    expect(bad.errors![0].extensions).toMatchObject({ params: { field: 'llmProviderName' } })
    expect(await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })).toEqual(before)
  })

  it('never returns a backend secret', () => {
    for (const text of seen) {
      expect(text).not.toContain('raw-token-in-transit-only')
      expect(text).not.toContain('gql-secret-1')
      expect(text).not.toContain('outbound-proxy-pw-77')
    }
  })
})
