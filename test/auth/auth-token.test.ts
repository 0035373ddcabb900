import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf } from '../support/http.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

let svc: TestService

const tokenRequest = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  svc.http('/apiops/auth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-correlation-id': 'fixed-correlation', ...headers },
    body: new URLSearchParams(fields),
  })

const creds = (client_id: string, client_secret: string) => ({ grant_type: 'client_credentials', client_id, client_secret })

beforeAll(async () => {
  svc = await startTestService({
    bootstrap: sampleBootstrap({ dev: [] }),
    env: { AUTH_MAX_FAILURES_PER_USER: '3', AUTH_MAX_FAILURES_PER_ADDRESS: '1000' },
  })
})
afterAll(async () => svc?.close())

describe('POST /apiops/auth/token (spec §4.1, §7.2)', () => {
  it('issues a bearer token with expires_in for a user with a token lifetime', async () => {
    const res = await tokenRequest(creds('alice', 'alice-pass-1'), { accept: 'application/json' })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await jsonOf(res)
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type'])
    expect(body.token_type).toBe('Bearer')
    expect(body.expires_in).toBe(3600)
    expect(body.access_token).toMatch(/^gmt_[A-Za-z0-9_-]{43}$/)
  })

  it('omits expires_in when the user has no token lifetime', async () => {
    const body = await jsonOf(await tokenRequest(creds('root', 's3cret-root')))
    expect(body.token_type).toBe('Bearer')
    expect(body).not.toHaveProperty('expires_in')
  })

  it('stores only a hash of the token, never its value', async () => {
    const { access_token } = await jsonOf(await tokenRequest(creds('root', 's3cret-root')))
    const stored = await svc.deps.prisma.accessToken.findMany()
    expect(stored.length).toBeGreaterThan(0)
    expect(JSON.stringify(stored)).not.toContain(access_token)
  })

  it.each([
    ['password', { grant_type: 'password', client_id: 'alice', client_secret: 'alice-pass-1' }],
    ['missing', { client_id: 'alice', client_secret: 'alice-pass-1' }],
    ['refresh_token', { grant_type: 'refresh_token', client_id: 'alice', client_secret: 'alice-pass-1' }],
  ])('refuses grant_type %s with 400 unsupported_grant_type and issues nothing', async (_name, fields) => {
    const before = await svc.deps.prisma.accessToken.count()
    const res = await tokenRequest(fields)
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ error: 'unsupported_grant_type', error_description: expect.any(String) })
    expect(await svc.deps.prisma.accessToken.count()).toBe(before)
  })

  it('accepts only form-encoded bodies', async () => {
    const res = await svc.http('/apiops/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(creds('alice', 'alice-pass-1')),
    })
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).error).toBe('invalid_request')
  })

  it('answers unknown user, wrong password, locked and disabled with byte-identical 401s', async () => {
    const cases = [creds('nobody', 'whatever'), creds('alice', 'wrong-password'), creds('mallory', 'm-pass'), creds('dave', 'd-pass')]
    const answers = []
    for (const fields of cases) {
      const res = await tokenRequest(fields)
      const headers = [...res.headers.entries()].filter(([name]) => name !== 'date')
      answers.push({ status: res.status, body: await res.text(), headers })
    }
    expect(answers[0].status).toBe(401)
    expect(JSON.parse(answers[0].body)).toEqual({ error: 'unauthorized_client', error_description: expect.any(String) })
    for (const other of answers.slice(1)) expect(other).toEqual(answers[0])
  })

  it('throttles repeated failures per user with the same 401, even for the right password', async () => {
    await svc.graphql(
      'mutation($i: CreateUserInput!) { createUser(input: $i) { username } }',
      { i: { username: 'throttled-user', password: 'right-pass' } },
      await svc.tokenFor('root', 's3cret-root'),
    )
    const reference = await tokenRequest(creds('nobody-else', 'x'))
    const referenceBody = await reference.text()
    for (let i = 0; i < 3; i++) expect((await tokenRequest(creds('throttled-user', 'wrong'))).status).toBe(401)
    const blocked = await tokenRequest(creds('throttled-user', 'right-pass'))
    expect(blocked.status).toBe(401)
    expect(await blocked.text()).toBe(referenceBody)
    // another user from the same address is unaffected
    expect((await tokenRequest(creds('bob', 'bob-pass-1'))).status).toBe(200)
  })
})

describe('throttling per client address', () => {
  it('refuses every sign-in from an address after too many failures, with the same 401', async () => {
    const local = await startTestService({
      bootstrap: { users: [{ username: 'erin', password: 'erin-pass' }] },
      env: { AUTH_MAX_FAILURES_PER_USER: '100', AUTH_MAX_FAILURES_PER_ADDRESS: '4' },
    })
    try {
      const request = (u: string, p: string) =>
        local.http('/apiops/auth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams(creds(u, p)),
        })
      expect((await request('erin', 'erin-pass')).status).toBe(200)
      for (let i = 0; i < 4; i++) await request(`ghost-${i}`, 'x')
      const refused = await request('erin', 'erin-pass')
      expect(refused.status).toBe(401)
      expect((await jsonOf(refused)).error).toBe('unauthorized_client')
    } finally {
      await local.close()
    }
  })
})
