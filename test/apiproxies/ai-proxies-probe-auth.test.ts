import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { makeCertificate, makePkcs12 } from '../keys/support.js'
import { apiManagersBootstrap, expectRefused, proxyCall } from './ai-proxies-support.js'

// Issue 32: parse-tools / parse-skills probing a backend server that authenticates with OAUTH2_CLIENT_CREDENTIALS
// (a loopback token endpoint issues the access token the MCP server then requires) or MTLS (a loopback https server
// that requires a client certificate, the keystore's entry). The installation allows private addresses here.

const CLIENT_SECRET = 'probe-client-secret-31'
const ACCESS_TOKEN = 'issued-access-token-9'
const P12_PASSWORD = 'p12-pass-77'
const ca = makeCertificate({ cn: 'Probe CA', ca: true, serial: '11' })
const client = makeCertificate({ cn: 'gateway-client', issuer: { cn: 'Probe CA', keys: ca.keys }, serial: '12' })
const serverCert = makeCertificate({ cn: 'localhost', sans: ['localhost'], serial: '13' })
const P12 = makePkcs12('client', P12_PASSWORD, client.keys, [client.pem, ca.pem])
const stranger = makeCertificate({ cn: 'stranger', serial: '14' })
const STRANGER_P12 = makePkcs12('stranger', P12_PASSWORD, stranger.keys, [stranger.pem])

const bed = useTestbed({
  workers: ['dev'], env: { SPEC_FETCH_ALLOW_PRIVATE: 'true' },
  bootstrap: (workers) => {
    const doc = apiManagersBootstrap(workers, [])
    doc.projects[0]!.members!.find((m) => m.username === 'erin')!.permissions!.push({ category: 'CERTIFICATE', level: 'MANAGE' })
    return doc
  },
  tokens: { erin: 'erin-pass-1' },
})

const tokenRequests: { authorization: string; body: string; contentType: string }[] = []
const peers: string[] = []
let plain: http.Server
let secure: https.Server
let base: string
let secureBase: string

const TOOLS = { jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'search' }] } }
const CARD = { name: 'partner', skills: [{ id: 'translate', name: 'Translate' }] }

beforeAll(async () => {
  plain = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      if (req.url === '/oauth/token') {
        tokenRequests.push({ authorization: req.headers.authorization ?? '', body, contentType: String(req.headers['content-type']) })
        const expected = `Basic ${Buffer.from(`gateway:${CLIENT_SECRET}`).toString('base64')}`
        if (req.headers.authorization !== expected) return res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}')
        return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 300 }))
      }
      if (req.url === '/oauth/broken') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"token_type":"Bearer"}')
      if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) return res.writeHead(401).end()
      if (req.url === '/mcp') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(TOOLS))
      if (req.url === '/a2a/.well-known/agent-card.json') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(CARD))
      res.writeHead(404).end()
    })
  })
  // answers only a client presenting a certificate issued by the probe CA
  secure = https.createServer({ key: serverCert.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), cert: serverCert.pem, ca: [ca.pem], requestCert: true, rejectUnauthorized: true }, (req, res) => {
    req.resume()
    req.on('end', () => {
      peers.push((req.socket as TLSSocket).getPeerCertificate().subject.CN)
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(TOOLS))
    })
  })
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve))
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`
  secureBase = `https://localhost:${(secure.address() as AddressInfo).port}`

  for (const [name, file] of [['client-ks', P12], ['stranger-ks', STRANGER_P12]]) {
    const ks = await bed.svc.http('/apiops/projects/payments/keystores/', {
      method: 'POST', headers: { authorization: `Bearer ${bed.erin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, keyStoreEnvironmentList: [{ environmentName: 'dev', file, password: P12_PASSWORD }] }),
    })
    expect(ks.status).toBe(200)
  }
  const oauth = { authScheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: `${base}/oauth/token`, clientId: 'gateway', clientSecret: CLIENT_SECRET, scope: 'tools.read' }
  const created = [
    await proxyCall(bed.svc, 'POST', 'mcp/oauth-gw/', bed.erin, { routingMode: 'PASSTHROUGH', backendServers: [{ name: 'local', endpoint: `${base}/mcp`, ...oauth }] }),
    await proxyCall(bed.svc, 'POST', 'a2a/oauth-agent/', bed.erin, { routingMode: 'PASSTHROUGH', backendServers: [{ name: 'partner', endpoint: `${base}/a2a`, ...oauth }] }),
    await proxyCall(bed.svc, 'POST', 'mcp/mtls-gw/', bed.erin, {
      routingMode: 'PASSTHROUGH', backendServers: [{ name: 'secure', endpoint: `${secureBase}/mcp`, authScheme: 'MTLS', mTLSSettings: { keyStoreName: 'client-ks', disableSslValidation: true } }],
    }),
  ]
  for (const c of created) expect(c.status, c.text).toBe(200)
})
afterAll(async () => {
  await new Promise((resolve) => plain?.close(resolve))
  await new Promise((resolve) => secure?.close(resolve))
})

/** Nothing saved, pushed or audited by a preview; no secret in the answer. */
async function parse(proxy: string, what: 'parse-tools' | 'parse-skills', body: unknown) {
  const rows = await bed.svc.deps.prisma.apiProxy.findMany({ orderBy: { id: 'asc' } })
  const events = await bed.svc.deps.prisma.auditEvent.count()
  const pushes = bed.dev.received.length
  const res = await proxyCall(bed.svc, 'POST', `${proxy}/policies/discovery/${what}/`, bed.erin, body)
  expect(await bed.svc.deps.prisma.apiProxy.findMany({ orderBy: { id: 'asc' } })).toEqual(rows)
  expect(await bed.svc.deps.prisma.auditEvent.count()).toBe(events)
  expect(bed.dev.received.length).toBe(pushes)
  expect(res.text).not.toContain(CLIENT_SECRET)
  expect(res.text).not.toContain(ACCESS_TOKEN)
  return res
}

describe('probing an OAUTH2_CLIENT_CREDENTIALS backend server', () => {
  it('asks the token endpoint with the stored client credentials, then calls the server with the access token', async () => {
    const res = await parse('oauth-gw', 'parse-tools', {})
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList).toMatchObject([{ name: 'search' }])
    expect(tokenRequests.at(-1)).toEqual({
      authorization: `Basic ${Buffer.from(`gateway:${CLIENT_SECRET}`).toString('base64')}`, body: 'grant_type=client_credentials&scope=tools.read', contentType: 'application/x-www-form-urlencoded',
    })
    const skills = await parse('oauth-agent', 'parse-skills', {})
    expect(skills.body.resultList).toMatchObject([{ id: 'translate' }])
  })

  it("takes the body's fields over the stored ones, and refuses a refused client, a token answer without a token and missing fields", async () => {
    const wrong = await parse('oauth-gw', 'parse-tools', { clientSecret: 'not-the-secret' })
    expectRefused(wrong, /^tokenEndpoint: .*answered HTTP 401/)
    expectRefused(await parse('oauth-gw', 'parse-tools', { tokenEndpoint: `${base}/oauth/broken` }), /^tokenEndpoint: the token endpoint did not answer with a bearer access_token/)
    expectRefused(await parse('mtls-gw', 'parse-tools', { endpoint: `${base}/mcp`, authScheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: `${base}/oauth/token` }), /^clientId: is required for authScheme OAUTH2_CLIENT_CREDENTIALS/)
    expectRefused(await parse('oauth-gw', 'parse-tools', { tokenEndpoint: 'ftp://example.com/token' }), /^tokenEndpoint: must be an http\(s\) URL/)
  })
})

describe('probing an MTLS backend server', () => {
  it("presents the keystore's client certificate to a server that requires one", async () => {
    const res = await parse('mtls-gw', 'parse-tools', {})
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList).toMatchObject([{ name: 'search' }])
    expect(peers.at(-1)).toBe('gateway-client')
  })

  it('is refused by the server with a certificate of another issuer, and refuses an unknown keystore', async () => {
    const count = peers.length
    expectRefused(await parse('mtls-gw', 'parse-tools', { mTLSSettings: { keyStoreName: 'stranger-ks', disableSslValidation: true } }), /^endpoint: could not be fetched/)
    // the server's certificate is verified unless disableSslValidation (here it is self-signed)
    expectRefused(await parse('mtls-gw', 'parse-tools', { mTLSSettings: { keyStoreName: 'client-ks' } }), /^endpoint: could not be fetched: self-signed certificate/)
    expect(peers.length).toBe(count)
    expectRefused(await parse('mtls-gw', 'parse-tools', { mTLSSettings: { keyStoreName: 'ghost-ks' } }), /^mTLSSettings.keyStoreName: Keystore \(name: ghost-ks\) is not found/)
  })

  it('over GraphQL too (the probe arguments)', async () => {
    const answer = await bed.svc.graphql('mutation { parseProxyTools(projectName: "payments", apiProxyName: "mtls-gw", policyName: "d", mTLSSettings: { keyStoreName: "client-ks", disableSslValidation: true }) { name } }', {}, bed.erin)
    expect(answer.body).toMatchObject({ data: { parseProxyTools: [{ name: 'search' }] } })
    const refused = await bed.svc.graphql(`mutation { parseProxyTools(projectName: "payments", apiProxyName: "oauth-gw", policyName: "d", clientSecret: "bad") { name } }`, {}, bed.erin)
    expect(refused.body.errors![0].extensions).toMatchObject({ params: { field: 'tokenEndpoint' } })
  })
})
