import https from 'node:https'
import type { AddressInfo } from 'node:net'
import type { TLSSocket } from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeCertificate, makePkcs12, rsaKeyPair } from '../keys/support.js'
import { useTestbed } from '../support/testbed.js'

// A webhook connection's trust store and key store (spec §2.17) in its requests: with a trust store the server's
// certificate must chain to one of its certificates (and only those), without one it is not verified; a key store
// gives the request its client certificate (mutual TLS). A store that cannot be used fails the request, named.
// Both doors are tested: the GraphQL webhook API (installation-wide: the platform project's keystores) and the
// project's /apiops connection test (the project's keystores). Event deliveries send through the same function.

const bed = useTestbed({ tokens: { root: 's3cret-root' }, env: { CONNECTION_TEST_ALLOW_PRIVATE: 'true', CONNECTION_TEST_TIMEOUT_MS: '3000' } })

const ca = { cn: 'Hook CA', keys: rsaKeyPair() }
const caCert = makeCertificate({ cn: ca.cn, keys: ca.keys, ca: true })
const serverCert = makeCertificate({ cn: 'localhost', sans: ['localhost'], issuer: ca, serial: '01' })
const clientCert = makeCertificate({ cn: 'hook-client', issuer: ca, serial: '02' })
const stranger = makeCertificate({ cn: 'Other CA', ca: true, serial: '03' })

/** HTTPS servers: `mutual` asks for a client certificate issued by the CA and refuses the handshake without one. */
const servers: https.Server[] = []
const seen: (string | null)[] = []
const events: { cn: string | null; eventType: string | undefined }[] = []
async function serve(mutual: boolean): Promise<string> {
  const server = https.createServer(
    { key: serverCert.keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), cert: serverCert.pem, ...(mutual ? { requestCert: true, rejectUnauthorized: true, ca: [caCert.pem] } : {}) },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate()
      const cn = peer && peer.subject ? String(peer.subject.CN) : null
      if (req.headers['x-gateway-event-type']) events.push({ cn, eventType: String(req.headers['x-gateway-event-type']) })
      else seen.push(cn)
      req.resume()
      req.on('end', () => res.end('ok'))
    },
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  servers.push(server)
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
}

let mutualUrl: string
let plainUrl: string

const gql = (query: string, variables: Record<string, unknown>) => bed.svc.graphql(query, variables, bed.root)
const TEST = `mutation($name: String!) { testWebhookConnection(name: $name) { success status error } }`
const CREATE = `mutation($input: WebhookConnectionInput!) { createWebhookConnection(input: $input) { name trustStoreName keyStoreName } }`
const UPDATE = `mutation($name: String!, $input: WebhookConnectionInput!) { updateWebhookConnection(name: $name, input: $input) { name trustStoreName keyStoreName } }`

async function rest(method: string, path: string, body?: unknown) {
  const res = await fetch(`${bed.svc.url}${path}`, {
    method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
  })
  return { status: res.status, body: (await res.json()) as any }
}

async function keystore(project: string, name: string, keys: ReturnType<typeof rsaKeyPair>, chain: string[]) {
  const made = await rest('POST', `/apiops/projects/${project}/keystores/`, {
    name, keyStoreEnvironmentList: [{ environmentName: 'dev', type: 'PKCS12', file: makePkcs12(name, 'changeit', keys, chain), password: 'changeit' }],
  })
  expect(made.status, JSON.stringify(made.body)).toBe(200)
}

async function hook(name: string, fullUrl: string, stores: { trustStoreName?: string; keyStoreName?: string }) {
  const { body } = await gql(CREATE, { input: { name, environment: 'dev', method: 'POST', fullUrl, ...stores } })
  expect(body.errors).toBeUndefined()
}
const test = async (name: string) => (await gql(TEST, { name })).body

beforeAll(async () => {
  // the platform project holds installation-wide material; it has no environment until one is linked
  const [admin, dev] = await Promise.all([bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'admin' } }), bed.svc.deps.prisma.environment.findUniqueOrThrow({ where: { name: 'dev' } })])
  await bed.svc.deps.prisma.projectEnvironment.create({ data: { projectId: admin.id, environmentId: dev.id } })
  mutualUrl = await serve(true)
  plainUrl = await serve(false)
  await keystore('admin', 'hook-trust', ca.keys, [caCert.pem])
  await keystore('admin', 'hook-client', clientCert.keys, [clientCert.pem, caCert.pem])
  await keystore('admin', 'other-trust', stranger.keys, [stranger.pem])
})
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

describe('webhook connections over TLS with their stores', () => {
  it('trust store and key store: the server is verified against the trust store and sees the client certificate', async () => {
    await hook('mtls-hook', mutualUrl, { trustStoreName: 'hook-trust', keyStoreName: 'hook-client' })
    seen.length = 0
    expect((await test('mtls-hook')).data.testWebhookConnection).toEqual({ success: true, status: 200, error: null })
    expect(seen).toEqual(['hook-client'])
  })

  it('without the key store the mutual-TLS server refuses the handshake: a failed test, no answer', async () => {
    await hook('no-client-cert', mutualUrl, { trustStoreName: 'hook-trust' })
    seen.length = 0
    const result = (await test('no-client-cert')).data.testWebhookConnection
    expect(result).toMatchObject({ success: false, status: null })
    expect(result.error).toBeTruthy()
    expect(seen).toEqual([])
  })

  it('a trust store that does not hold the server\'s authority fails verification; no trust store verifies nothing', async () => {
    await hook('wrong-trust', plainUrl, { trustStoreName: 'other-trust' })
    const wrong = (await test('wrong-trust')).data.testWebhookConnection
    expect(wrong).toMatchObject({ success: false, status: null })
    expect(wrong.error).toMatch(/certificate/i)
    await hook('no-trust', plainUrl, {})
    expect((await test('no-trust')).data.testWebhookConnection).toEqual({ success: true, status: 200, error: null })
    await hook('right-trust', plainUrl, { trustStoreName: 'hook-trust' })
    expect((await test('right-trust')).data.testWebhookConnection).toEqual({ success: true, status: 200, error: null })
  })

  it('a store that is not a keystore of the platform project fails the test naming it, and sends nothing', async () => {
    await hook('missing-trust', mutualUrl, { trustStoreName: 'nope' })
    seen.length = 0
    expect((await test('missing-trust')).data.testWebhookConnection).toMatchObject({
      success: false, status: null, error: "trust store 'nope' is not a keystore of project 'admin'",
    })
    const renamed = await gql(UPDATE, { name: 'missing-trust', input: { trustStoreName: 'hook-trust', keyStoreName: 'also-missing' } })
    expect(renamed.body.errors).toBeUndefined()
    expect((await test('missing-trust')).data.testWebhookConnection).toMatchObject({
      success: false, error: "key store 'also-missing' is not a keystore of project 'admin'",
    })
    expect(seen).toEqual([])
  })

  it('the project door: a project webhook uses the project\'s keystores', async () => {
    await keystore('payments', 'pay-trust', ca.keys, [caCert.pem])
    await keystore('payments', 'pay-client', clientCert.keys, [clientCert.pem, caCert.pem])
    const made = await rest('POST', '/apiops/projects/payments/connections/pay-hook/', { type: 'webhook', name: 'pay-hook', httpMethod: 'POST', fullUrl: mutualUrl, environment: 'dev', deployToWorker: false })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const before = (await rest('POST', '/apiops/projects/payments/connections/pay-hook/test')).body
    expect(before).toMatchObject({ success: false })
    // the /apiops page names the stores too: a keystore the project does not have is refused by field, nothing written
    const unknown = await rest('PUT', '/apiops/projects/payments/connections/pay-hook/', { type: 'webhook', name: 'pay-hook', trustStoreName: 'nope' })
    expect(unknown.status).toBe(400)
    expect(unknown.body).toEqual({ status: 'FAILURE', resultMessage: 'trustStoreName: Keystore (name: nope) is not found!' })
    expect((await gql(`query { webhookConnection(name: "pay-hook") { trustStoreName keyStoreName } }`, {})).body.data.webhookConnection).toEqual({ trustStoreName: null, keyStoreName: null })
    const named = await rest('PUT', '/apiops/projects/payments/connections/pay-hook/', { type: 'webhook', name: 'pay-hook', trustStoreName: 'pay-trust', keyStoreName: 'pay-client' })
    expect(named.status, JSON.stringify(named.body)).toBe(200)
    expect((await rest('GET', '/apiops/projects/payments/connections/pay-hook/')).body.resultList[0]).toMatchObject({ trustStoreName: 'pay-trust', keyStoreName: 'pay-client', serverNameVerification: false })
    seen.length = 0
    const after = (await rest('POST', '/apiops/projects/payments/connections/pay-hook/test')).body
    expect(after).toMatchObject({ success: true, message: `POST ${mutualUrl} answered HTTP 200` })
    expect(seen).toEqual(['hook-client'])
    // an event delivery goes through the same stores: subscribed, an audited connection write is delivered over mutual TLS
    const subscribed = await rest('PUT', '/apiops/projects/payments/connections/pay-hook/events/', { eventTypes: ['audit.CONNECTION'], signingSecret: 'a-signing-secret-of-32-characters!' })
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(200)
    expect((await rest('POST', '/apiops/projects/payments/connections/other-hook/', { type: 'webhook', name: 'other-hook', httpMethod: 'POST', fullUrl: plainUrl, environment: 'dev', deployToWorker: false })).status).toBe(200)
    for (let i = 0; i < 200 && !events.length; i++) await new Promise((r) => setTimeout(r, 100))
    expect(events[0]).toEqual({ cn: 'hook-client', eventType: 'audit.CONNECTION' })
    // the platform project's stores are not the project's (the webhook API, for system administrators, takes any name)
    expect((await gql(UPDATE, { name: 'pay-hook', input: { trustStoreName: 'hook-trust' } })).body.errors).toBeUndefined()
    expect((await rest('POST', '/apiops/projects/payments/connections/pay-hook/test')).body).toMatchObject({
      success: false, message: expect.stringContaining("trust store 'hook-trust' is not a keystore of the connection's project"),
    })
  })
})
