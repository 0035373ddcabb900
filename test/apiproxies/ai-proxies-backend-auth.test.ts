import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import { makeCertificate, makePkcs12 } from '../keys/support.js'
import { apiManagersBootstrap, expectRefused, proxyCall } from './ai-proxies-support.js'

// Issue 32: a backend server's authScheme OAUTH2_CLIENT_CREDENTIALS and MTLS (update-mcp-routing.mdx,
// update-a2a-routing.mdx: `tokenEndpoint`/`clientId`/`clientSecret`/`scope`, `mTLSSettings`), in the page's flat
// spelling and our nested `auth`: accepted with the page's examples, the client secret sealed and never answered
// (clientSecretSet), pushed opened; refusals name their field and write, audit and push nothing.

const CLIENT_SECRET = 'oauth-client-secret-5150'
const P12_PASSWORD = 'p12-pass-88'
const client = makeCertificate({ cn: 'gateway-client' })
const P12 = makePkcs12('client', P12_PASSWORD, client.keys, [client.pem])

const bed = useTestbed({
  workers: ['dev'],
  bootstrap: (workers) => {
    const doc = apiManagersBootstrap(workers, [])
    // erin also manages the project's keystores (the mTLS server names one)
    doc.projects[0]!.members!.find((m) => m.username === 'erin')!.permissions!.push({ category: 'CERTIFICATE', level: 'MANAGE' })
    return doc
  },
  tokens: { erin: 'erin-pass-1' },
})
const examples = JSON.parse(fs.readFileSync(new URL('../openapi/vendor-examples.json', import.meta.url), 'utf8')) as VendorExample[]
const example = (page: string, index: number) => structuredClone(examples.find((e) => e.page === `api-reference/api-proxies/settings/${page}` && e.index === index)!.body) as Record<string, any>

const prisma = () => bed.svc.deps.prisma
const seen: string[] = []
const call = async (method: string, path: string, body?: unknown) => {
  const res = await proxyCall(bed.svc, method, path, bed.erin, body)
  seen.push(res.text)
  return res
}
const gql = async (query: string) => {
  const res = await bed.svc.graphql(query, {}, bed.erin)
  seen.push(JSON.stringify(res.body))
  return res.body as { data?: any; errors?: any[] }
}
const row = (name: string) => prisma().apiProxy.findFirstOrThrow({ where: { name } })

/** A refused write: 400 whose message starts with the field, no proxy row changed, no audit event, no push. */
async function refused(path: string, body: unknown, field: string, message: RegExp) {
  const rows = await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })
  const events = await prisma().auditEvent.count()
  const pushes = bed.dev.received.length
  const res = await call('PUT', path, body)
  expectRefused(res, message)
  expect(res.body.resultMessage.startsWith(`${field}:`), res.body.resultMessage).toBe(true)
  expect(await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })).toEqual(rows)
  expect(await prisma().auditEvent.count()).toBe(events)
  expect(bed.dev.received.length).toBe(pushes)
}

/** The MCP page's PASSTHROUGH example with its server's credentials in another scheme. */
function mcpExample(auth: Record<string, unknown>) {
  const body = example('update-mcp-routing.mdx', 1)
  const { bearerToken: _t, authScheme: _s, ...server } = body.backendServers[0]
  return { ...body, backendServers: [{ ...server, ...auth }] }
}
const OAUTH = { authScheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: 'https://auth.example.com/oauth2/token', clientId: 'gateway', clientSecret: CLIENT_SECRET, scope: 'mcp.read mcp.call' }
const MTLS = { authScheme: 'MTLS', mTLSSettings: { keyStoreName: 'client-ks', supportedProtocolList: ['TLS_1_3'], hostnameVerifierType: 'DEFAULT' } }

describe('OAUTH2_CLIENT_CREDENTIALS backend servers', () => {
  it("accepts the MCP page's example with client credentials: secret sealed, read back as clientSecretSet, pushed opened", async () => {
    expect((await call('POST', 'mcp/tools/', { routingMode: 'PASSTHROUGH' })).status).toBe(200)
    const res = await call('PUT', 'tools/mcp-routing/', mcpExample(OAUTH))
    expect(res.status, res.text).toBe(200)
    const expected = { scheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: OAUTH.tokenEndpoint, clientId: 'gateway', scope: 'mcp.read mcp.call', clientSecretSet: true, tokenSet: false }
    expect(res.body.resultList[0].routing.backendServers[0]).toMatchObject({ name: 'internal-mcp-server', url: 'https://mcp.example.com/mcp', auth: expected })
    expect(res.body.resultList[0].routing.backendServers[0].auth).not.toHaveProperty('clientSecret')
    expect((await call('GET', 'tools/mcp-routing/')).body.resultList[0].routing.backendServers[0].auth).toMatchObject(expected)
    const stored = await row('tools')
    expect(JSON.stringify(stored.routing)).not.toContain(CLIENT_SECRET)
    expect(bed.svc.deps.keyring.decrypt((stored.routing as any).backendServers[0].auth.clientSecretCipher)).toBe(CLIENT_SECRET)
    expect(bed.dev.received.at(-1)).toMatchObject({ name: 'tools', config: { routing: { backendServers: [{ auth: { scheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: OAUTH.tokenEndpoint, clientId: 'gateway', clientSecret: CLIENT_SECRET } }] } } })
    const audit = await prisma().auditEvent.findMany({ where: { objectName: 'tools' } })
    expect(audit.length).toBeGreaterThan(0)
    expect(JSON.stringify(audit, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).not.toContain(CLIENT_SECRET)
  })

  it('keeps the stored secret when omitted for the same client, and asks for one for another client', async () => {
    const { clientSecret: _c, ...noSecret } = OAUTH
    const kept = await call('PUT', 'tools/mcp-routing/', mcpExample(noSecret))
    expect(kept.status, kept.text).toBe(200)
    expect(kept.body.resultList[0].routing.backendServers[0].auth.clientSecretSet).toBe(true)
    expect(bed.dev.received.at(-1)).toMatchObject({ config: { routing: { backendServers: [{ auth: { clientSecret: CLIENT_SECRET } }] } } })
    await refused('tools/mcp-routing/', mcpExample({ ...noSecret, clientId: 'someone-else' }), 'backendServers[0].clientSecret', /is required for authScheme OAUTH2_CLIENT_CREDENTIALS/)
  })

  it('accepts our nested auth spelling on an A2A agent', async () => {
    expect((await call('POST', 'a2a/agent/', { routingMode: 'PASSTHROUGH' })).status).toBe(200)
    const body = example('update-a2a-routing.mdx', 1)
    const { bearerToken: _t, authScheme: _s, ...agent } = body.backendServers[0]
    const auth = { scheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: 'https://auth.partner.example.com/token', clientId: 'gw-a2a', clientSecret: CLIENT_SECRET }
    const res = await call('PUT', 'agent/a2a-routing/', { ...body, backendServers: [{ ...agent, auth }] })
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0].routing.backendServers[0].auth).toEqual({
      scheme: 'OAUTH2_CLIENT_CREDENTIALS', headerName: null, username: null, tokenSet: false, passwordSet: false,
      tokenEndpoint: 'https://auth.partner.example.com/token', clientId: 'gw-a2a', scope: null, clientSecretSet: true,
    })
  })

  it('refuses a missing client id, token URL or secret, a bad token URL, fields of another scheme and credentialRef', async () => {
    const { clientId: _i, ...noClient } = OAUTH
    const { tokenEndpoint: _e, ...noUrl } = OAUTH
    const { clientSecret: _s, ...noSecret } = OAUTH
    await refused('tools/mcp-routing/', mcpExample(noClient), 'backendServers[0].clientId', /is required for authScheme OAUTH2_CLIENT_CREDENTIALS/)
    await refused('tools/mcp-routing/', mcpExample(noUrl), 'backendServers[0].tokenEndpoint', /is required for authScheme OAUTH2_CLIENT_CREDENTIALS/)
    await refused('tools/mcp-routing/', mcpExample({ ...OAUTH, tokenEndpoint: 'ftp://auth.example.com/token' }), 'backendServers[0].tokenEndpoint', /must be an http\(s\) URL/)
    await refused('tools/mcp-routing/', mcpExample({ ...OAUTH, tokenEndpoint: 'https://user:pw@auth.example.com/token' }), 'backendServers[0].tokenEndpoint', /must not carry a user name or password/)
    await refused('tools/mcp-routing/', mcpExample({ authScheme: 'BEARER', bearerToken: 't', clientId: 'gateway' }), 'backendServers[0].clientId', /is only used with authScheme OAUTH2_CLIENT_CREDENTIALS/)
    await refused('tools/mcp-routing/', mcpExample({ ...OAUTH, credentialRef: 'my-credential' }), 'backendServers[0].credentialRef', /is not supported: send the client credentials inline/)
    await refused('tools/mcp-routing/', mcpExample({ ...OAUTH, auth: { scheme: 'NONE' } }), 'backendServers[0].authScheme', /cannot be sent with auth/)
    const { authScheme: _a, ...flatFields } = OAUTH
    await refused('tools/mcp-routing/', mcpExample({ ...flatFields, auth: { scheme: 'NONE' } }), 'backendServers[0].tokenEndpoint', /cannot be sent with auth/)
    // a new server (another name) has no stored secret to keep
    await refused('tools/mcp-routing/', { ...mcpExample(noSecret), backendServers: [{ ...mcpExample(noSecret).backendServers[0], name: 'fresh' }] }, 'backendServers[0].clientSecret', /is required for authScheme OAUTH2_CLIENT_CREDENTIALS/)
    const nested = { routingMode: 'PASSTHROUGH', backendServers: [{ name: 'n', url: 'https://n.example.com/mcp', auth: { scheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: 'https://auth.example.com/t' } }] }
    await refused('tools/mcp-routing/', nested, 'backendServers[0].auth.clientId', /is required for scheme OAUTH2_CLIENT_CREDENTIALS/)
  })
})

describe('MTLS backend servers', () => {
  it("accepts the page's example with a keystore of the project; its settings read back and pushed, the keystore's file never", async () => {
    const ks = await bed.svc.http('/apiops/projects/payments/keystores/', {
      method: 'POST', headers: { authorization: `Bearer ${bed.erin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'client-ks', keyStoreEnvironmentList: [{ environmentName: 'dev', file: P12, password: P12_PASSWORD }] }),
    })
    expect(ks.status).toBe(200)
    const res = await call('PUT', 'tools/mcp-routing/', mcpExample(MTLS))
    expect(res.status, res.text).toBe(200)
    const mTLSSettings = { keyStoreName: 'client-ks', trustStoreName: null, supportedProtocolList: ['TLS_1_3'], hostnameVerifierType: 'DEFAULT', disableSslValidation: false }
    expect(res.body.resultList[0].routing.backendServers[0].auth).toEqual({ scheme: 'MTLS', headerName: null, username: null, tokenSet: false, passwordSet: false, mTLSSettings })
    expect(bed.dev.received.at(-1)).toMatchObject({ name: 'tools', config: { routing: { backendServers: [{ auth: { scheme: 'MTLS', mTLSSettings } }] } } })
    // the mTLS settings page's spelling (keyStoreId, trustStoreId) names the same objects
    const byId = await call('PUT', 'tools/mcp-routing/', mcpExample({ authScheme: 'MTLS', mTLSSettings: { keyStoreId: 'client-ks', trustStoreId: 'client-ks' } }))
    expect(byId.body.resultList[0].routing.backendServers[0].auth.mTLSSettings).toMatchObject({ keyStoreName: 'client-ks', trustStoreName: 'client-ks' })
    for (const text of seen) expect(text).not.toContain(P12.slice(0, 40))
  })

  it('refuses a missing or unknown keystore, an unknown trust store and mTLS settings under another scheme', async () => {
    await refused('tools/mcp-routing/', mcpExample({ authScheme: 'MTLS' }), 'backendServers[0].mTLSSettings', /is required for authScheme MTLS/)
    await refused('tools/mcp-routing/', mcpExample({ authScheme: 'MTLS', mTLSSettings: { supportedProtocolList: ['TLS_1_2'] } }), 'backendServers[0].mTLSSettings.keyStoreName', /is required for authScheme MTLS/)
    await refused('tools/mcp-routing/', mcpExample({ authScheme: 'MTLS', mTLSSettings: { keyStoreName: 'ghost-ks' } }), 'backendServers[0].mTLSSettings.keyStoreName', /Keystore \(name: ghost-ks\) is not found/)
    await refused('tools/mcp-routing/', mcpExample({ authScheme: 'MTLS', mTLSSettings: { keyStoreName: 'client-ks', trustStoreName: 'ghost-ca' } }), 'backendServers[0].mTLSSettings.trustStoreName', /no keystore or certificate named 'ghost-ca'/)
    await refused('tools/mcp-routing/', mcpExample({ authScheme: 'MTLS', mTLSSettings: { keyStoreName: 'client-ks', hostnameVerifierType: 'LAX' } }), 'backendServers[0].mTLSSettings.hostnameVerifierType', /must be one of NOOP, DEFAULT, STRICT, BROWSER_COMPAT/)
    await refused('tools/mcp-routing/', mcpExample({ authScheme: 'NONE', mTLSSettings: { keyStoreName: 'client-ks' } }), 'backendServers[0].mTLSSettings', /is only used with authScheme MTLS/)
    const nested = { backendServers: [{ name: 'n', url: 'https://n.example.com/mcp', auth: { scheme: 'MTLS', mTLSSettings: { keyStoreName: 'ghost-ks' } } }] }
    await refused('tools/mcp-routing/', nested, 'backendServers[0].auth.mTLSSettings.keyStoreName', /Keystore \(name: ghost-ks\) is not found/)
  })
})

describe('the same fields over GraphQL', () => {
  it('replaces an MCP routing with flat OAuth2 fields and nested mTLS auth; refusals carry errorKey and field', async () => {
    const res = await gql(`mutation { replaceMcpRouting(projectName: "payments", name: "tools", routing: { backendServers: [
      { name: "o", endpoint: "https://o.example.com/mcp", authScheme: "OAUTH2_CLIENT_CREDENTIALS", tokenEndpoint: "https://auth.example.com/token", clientId: "gql-client", clientSecret: "${CLIENT_SECRET}", scope: "a b" },
      { name: "m", url: "https://m.example.com/mcp", auth: { scheme: "MTLS", mTLSSettings: { keyStoreName: "client-ks" } } } ] }) {
      apiProxy { mcpRouting { backendServers { name auth { scheme tokenEndpoint clientId scope clientSecretSet mTLSSettings { keyStoreName trustStoreName } } } } } } }`)
    expect(res.errors).toBeUndefined()
    expect(res.data.replaceMcpRouting.apiProxy.mcpRouting.backendServers).toEqual([
      { name: 'o', auth: { scheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: 'https://auth.example.com/token', clientId: 'gql-client', scope: 'a b', clientSecretSet: true, mTLSSettings: null } },
      { name: 'm', auth: { scheme: 'MTLS', tokenEndpoint: null, clientId: null, scope: null, clientSecretSet: null, mTLSSettings: { keyStoreName: 'client-ks', trustStoreName: null } } },
    ])
    const before = await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })
    const ghost = await gql('mutation { replaceMcpRouting(projectName: "payments", name: "tools", routing: { backendServers: [{ name: "m", url: "https://m.example.com/mcp", authScheme: "MTLS", mTLSSettings: { keyStoreId: "ghost-ks" } }] }) { apiProxy { name } } }')
    expect(ghost.errors![0].extensions).toMatchObject({ errorKey: 'keystoreNotFound', params: { field: 'backendServers[0].mTLSSettings.keyStoreName', keyStoreName: 'ghost-ks' } })
    const noClient = await gql('mutation { replaceMcpRouting(projectName: "payments", name: "tools", routing: { backendServers: [{ name: "o", url: "https://o.example.com/mcp", authScheme: "OAUTH2_CLIENT_CREDENTIALS", tokenEndpoint: "https://auth.example.com/token" }] }) { apiProxy { name } } }')
    expect(noClient.errors![0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'backendServers[0].clientId' } })
    expect(await prisma().apiProxy.findMany({ orderBy: { id: 'asc' } })).toEqual(before)
  })

  it('never answers a client secret', () => {
    for (const text of seen) expect(text).not.toContain(CLIENT_SECRET)
  })
})
