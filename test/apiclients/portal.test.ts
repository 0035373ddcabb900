import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

// The portal management lookup (spec §4.11): an application's API clients by appId (its applicationKey);
// a key the application does not own answers as not found.

const BASE = '/apiportal/management/portal/api-clients/get-by-app-id'
const SUMMARY_FIELDS = ['apiClientKey', 'clientId', 'expiresAt', 'name', 'operationalState', 'readiness', 'validFrom', 'version']

let svc: TestService
const tokens: Record<string, string> = {}
const keys: Record<string, string> = {}

const get = (path: string, token?: string) => svc.http(path, token ? { headers: { authorization: `Bearer ${token}` } } : {})

beforeAll(async () => {
  const bootstrap = sampleBootstrap({ dev: [] })
  bootstrap.users.push({ username: 'erin', password: 'erin-pass-1' })
  const payments = bootstrap.projects[0]
  payments.applications!.push({
    name: 'billing', applicationKind: 'INTERNAL', organizationCode: 'acme', consumers: [],
    apiClients: [{ name: 'billing-cli', clientId: 'billing-cli-id', operationalState: 'DRAFT' }],
  })
  svc = await startTestService({ bootstrap })
  for (const [u, p] of [['alice', 'alice-pass-1'], ['carol', 'carol-pass-1'], ['erin', 'erin-pass-1'], ['root', 's3cret-root']]) tokens[u] = await svc.tokenFor(u, p)
  for (const app of await svc.deps.prisma.application.findMany()) keys[app.name] = app.applicationKey
  for (const c of await svc.deps.prisma.apiClient.findMany()) keys[c.clientId] = c.apiClientKey
})
afterAll(async () => {
  await svc?.close()
})

describe('GET /apiportal/management/portal/api-clients/get-by-app-id/{appId}', () => {
  it("lists exactly the application's clients as summary rows, by name, never a secret", async () => {
    const created = await jsonOf(await svc.http('/api/api-clients', {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.alice}`, 'content-type': 'application/json' },
      body: JSON.stringify({ projectName: 'payments', name: 'a-checkout-mobile', clientId: 'checkout-mobile-id', applicationKey: keys.checkout }),
    }))
    const res = await get(`${BASE}/${keys.checkout}`, tokens.alice)
    expect(res.status).toBe(200)
    const rows = await jsonOf(res)
    expect(rows.map((r: { clientId: string }) => r.clientId)).toEqual(['checkout-mobile-id', 'checkout-web-id'])
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(SUMMARY_FIELDS)
    expect(rows[1]).toEqual({
      apiClientKey: keys['checkout-web-id'], clientId: 'checkout-web-id', name: 'checkout-web', operationalState: 'ACTIVE',
      readiness: 'PENDING_SECRET', validFrom: null, expiresAt: null, version: 1,
    })
    expect(JSON.stringify(rows)).not.toContain(created.clientSecret)

    const billing = await jsonOf(await get(`${BASE}/${keys.billing}`, tokens.carol))
    expect(billing.map((r: { clientId: string }) => r.clientId)).toEqual(['billing-cli-id'])
  })

  it('answers an unknown application, or one the caller cannot see, as not found', async () => {
    for (const [appId, token] of [['app_unknown', tokens.alice], [keys.checkout, tokens.erin]]) {
      const res = await get(`${BASE}/${appId}`, token)
      expect(res.status).toBe(404)
      expect(await jsonOf(res)).toEqual({ errorKey: 'resourceNotFound', message: expect.any(String), params: { application: appId }, correlationId: expect.any(String) })
    }
    expect((await get(`${BASE}/${keys.checkout}`)).status).toBe(401)
    expect((await get(`${BASE}/${keys.checkout}`, tokens.root)).status).toBe(200)
  })
})

describe('GET …/get-by-app-id/{appId}/{apiClientKey}', () => {
  it("answers a client the application owns, and a key it does not own as not found", async () => {
    const own = await get(`${BASE}/${keys.checkout}/${keys['checkout-web-id']}`, tokens.carol)
    expect(own.status).toBe(200)
    expect(await jsonOf(own)).toMatchObject({ clientId: 'checkout-web-id', operationalState: 'ACTIVE' })

    for (const key of [keys['billing-cli-id'], 'acl_unknown']) {
      const res = await get(`${BASE}/${keys.checkout}/${key}`, tokens.alice)
      expect(res.status).toBe(404)
      expect(await jsonOf(res)).toMatchObject({ errorKey: 'resourceNotFound', params: { apiClient: key } })
    }
    expect((await get(`${BASE}/${keys.billing}/${keys['checkout-web-id']}`, tokens.alice)).status).toBe(404)
    expect((await get(`${BASE}/${keys.checkout}/${keys['checkout-web-id']}`, tokens.erin)).status).toBe(404)
  })
})
