import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { declarativeDoors } from './support.js'

// Issue 32: a backend server's OAuth2 client secret travels as the token does (issue 29): never dumped, a `${env:…}`
// reference with --secrets refs, sealed on the way in; its other OAuth2 fields and an mTLS server's settings are
// data, and a dump plans to zero changes.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const base = '/apiops/projects/payments'
const SECRET = 'decl-client-secret-66'
const { call, plan } = declarativeDoors(bed)

describe('OAuth2 backend servers in the declarative state', { timeout: 180_000 }, () => {
  it('dumps without the client secret, refers to it with --secrets refs, and plans its own dump to zero changes', async () => {
    const made = await call('POST', `${base}/apiProxies/mcp/oauth-gw/`, {
      routingMode: 'PASSTHROUGH',
      backendServers: [{ name: 'srv', endpoint: 'https://mcp.example.test/mcp', authScheme: 'OAUTH2_CLIENT_CREDENTIALS', tokenEndpoint: 'https://auth.example.test/token', clientId: 'gw', clientSecret: SECRET }],
    })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const dump = await call('GET', `${base}/declarative-state?collections=aiProxies`)
    expect(dump.status, JSON.stringify(dump.body)).toBe(200)
    expect(JSON.stringify(dump.body)).not.toMatch(new RegExp(`${SECRET}|Cipher|clientSecretSet`))
    expect(dump.body.aiProxies[0].routing.backendServers[0].auth).toEqual({ scheme: 'OAUTH2_CLIENT_CREDENTIALS', headerName: null, username: null, tokenEndpoint: 'https://auth.example.test/token', clientId: 'gw', scope: null })
    expect((await plan(dump.body, 'sync')).body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    const refs = await call('GET', `${base}/declarative-state?collections=aiProxies&secrets=refs`)
    expect(refs.body.aiProxies[0].routing.backendServers[0].auth.clientSecret).toMatch(/^\$\{env:AI_PROXIES_OAUTH_GW_[A-Z_]*CLIENT_SECRET\}$/)
    expect(JSON.stringify(refs.body)).not.toContain(SECRET)
  })
})
