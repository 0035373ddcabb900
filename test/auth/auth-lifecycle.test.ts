import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  CreatePersonalAccessTokenDocument,
  LoginDocument,
  MeDocument,
  MyTokensDocument,
  RegenerateTokenDocument,
  RevokeTokenDocument,
  UpdateUserDocument,
  CreateUserDocument,
} from '../generated/graphql.js'
import { SYSTEM } from '../../src/platform/auth/actor.js'
import { setMemberPermissions } from '../../src/modules/projects/projects.js'
import { jsonOf } from '../support/http.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

let svc: TestService
let rootToken: string

/** An authenticated /apiops call: the credential reset (idempotent with no workers). */
const apiopsCall = (headers: Record<string, string>) =>
  svc.http('/apiops/projects/payments/credentials/ldap-synced/token/', { method: 'DELETE', headers: { 'x-correlation-id': 'probe', ...headers } })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function newUser(username: string, extra: Record<string, unknown> = {}) {
  const res = await svc.op(CreateUserDocument, { input: { username, password: `${username}-pw`, ...extra } }, rootToken)
  expect(res.errors).toBeUndefined()
  await setMemberPermissions(svc.deps.prisma, SYSTEM, 'payments', username, [{ category: 'IDENTITY', level: 'MANAGE' }])
  return svc.tokenFor(username, `${username}-pw`)
}

/** The answer to an unknown token: every token that stops working must get exactly this. */
async function unknownTokenAnswer() {
  const res = await apiopsCall(bearer('gmt_not-a-real-token'))
  return { status: res.status, body: await res.text() }
}

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }), env: { AUTH_MAX_FAILURES_PER_ADDRESS: '1000' } })
  rootToken = await svc.tokenFor('root', 's3cret-root')
})
afterAll(async () => svc?.close())

describe('presenting a token (spec §5)', () => {
  it('accepts the token as Authorization: Bearer and as the service-token header', async () => {
    const token = await svc.tokenFor('alice', 'alice-pass-1')
    expect((await apiopsCall(bearer(token))).status).toBe(200)
    expect((await apiopsCall({ 'service-token': token })).status).toBe(200)
  })

  it('refuses a missing, unknown or malformed token with a legacy 401', async () => {
    const missing = await apiopsCall({})
    expect(missing.status).toBe(401)
    expect(await jsonOf(missing)).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(/empty key/i) })
    const unknown = await apiopsCall(bearer('gmt_unknown'))
    expect(unknown.status).toBe(401)
    expect((await jsonOf(unknown)).resultMessage).toBe('Invalid token')
    expect((await apiopsCall({ authorization: 'Basic abc' })).status).toBe(401)
  })
})

describe('token validity (spec §3.5, §5.4, §5.5)', () => {
  it('stops every token of a user on the next call once the user is locked, as if unknown', async () => {
    const first = await newUser('lock-me')
    const second = await svc.tokenFor('lock-me', 'lock-me-pw')
    expect((await apiopsCall(bearer(first))).status).toBe(200)
    await svc.op(UpdateUserDocument, { username: 'lock-me', input: { locked: true } }, rootToken)
    const expected = await unknownTokenAnswer()
    for (const token of [first, second]) {
      const res = await apiopsCall(bearer(token))
      expect({ status: res.status, body: await res.text() }).toEqual(expected)
    }
    await svc.op(UpdateUserDocument, { username: 'lock-me', input: { locked: false } }, rootToken)
    expect((await apiopsCall(bearer(first))).status).toBe(200)
  })

  it('stops every token of a user once the user is disabled, as if unknown', async () => {
    const token = await newUser('disable-me')
    await svc.op(UpdateUserDocument, { username: 'disable-me', input: { enabled: false } }, rootToken)
    const res = await apiopsCall(bearer(token))
    expect({ status: res.status, body: await res.text() }).toEqual(await unknownTokenAnswer())
    const gql = await svc.op(MeDocument, {}, token)
    expect(gql.status).toBe(401)
  })

  it('enforces expiry on use', async () => {
    const token = await newUser('short-lived', { tokenLifetimeSeconds: 1 })
    expect((await apiopsCall(bearer(token))).status).toBe(200)
    await new Promise((r) => setTimeout(r, 1100))
    const res = await apiopsCall(bearer(token))
    expect(res.status).toBe(401)
    expect((await jsonOf(res)).resultMessage).toBe('Token has expired')
  })

  it('keeps several tokens per user and revokes one by value without touching the others', async () => {
    const a = await newUser('multi')
    const b = await svc.tokenFor('multi', 'multi-pw')
    const revoked = await svc.op(RevokeTokenDocument, { token: a }, b)
    expect(revoked.data?.revokeToken).toBe(true)
    expect((await apiopsCall(bearer(a))).status).toBe(401)
    expect((await apiopsCall(bearer(b))).status).toBe(200)
    expect(await svc.deps.prisma.accessToken.count({ where: { user: { username: 'multi' } } })).toBe(1)
    const again = await svc.op(RevokeTokenDocument, { token: a }, b)
    expect(again.errors?.[0].extensions.errorKey).toBe('resourceNotFound')
  })

  it('regenerates a token: the new value works at once and the old one stops', async () => {
    const caller = await newUser('regen')
    const created = await svc.op(CreatePersonalAccessTokenDocument, { name: 'ci' }, caller)
    const { token: oldValue, tokenKey } = created.data!.createPersonalAccessToken
    const regenerated = await svc.op(RegenerateTokenDocument, { tokenKey }, caller)
    const newValue = regenerated.data!.regenerateToken.token
    expect(newValue).not.toBe(oldValue)
    expect((await apiopsCall(bearer(newValue))).status).toBe(200)
    expect((await apiopsCall(bearer(oldValue))).status).toBe(401)
  })

  it('lists the caller\'s own tokens without their values', async () => {
    const caller = await newUser('lister')
    await svc.op(CreatePersonalAccessTokenDocument, { name: 'second' }, caller)
    const res = await svc.op(MyTokensDocument, {}, caller)
    expect(res.data!.myTokens).toHaveLength(2)
    expect(res.data!.myTokens.map((t) => t.name)).toContain('second')
    expect(JSON.stringify(res)).not.toContain(caller)
  })

  it('refuses another user\'s token by value as not found', async () => {
    const victim = await svc.tokenFor('alice', 'alice-pass-1')
    const res = await svc.op(RevokeTokenDocument, { token: victim }, rootToken)
    expect(res.errors?.[0].extensions.errorKey).toBe('resourceNotFound')
    expect((await apiopsCall(bearer(victim))).status).toBe(200)
  })
})

describe('token audiences', () => {
  it('gives console session tokens /graphql and /api but not /apiops', async () => {
    const login = await svc.op(LoginDocument, { username: 'alice', password: 'alice-pass-1' })
    const consoleToken = login.data!.login.token
    expect((await svc.op(MeDocument, {}, consoleToken)).data?.me.username).toBe('alice')
    const session = await svc.http('/api/session', { headers: bearer(consoleToken) })
    expect(session.status).toBe(200)
    expect(await jsonOf(session)).toMatchObject({ username: 'alice', audience: 'CONSOLE' })
    const refused = await apiopsCall(bearer(consoleToken))
    expect({ status: refused.status, body: await refused.text() }).toEqual(await unknownTokenAnswer())
  })

  it('gives personal access tokens all three surfaces', async () => {
    const token = await svc.tokenFor('alice', 'alice-pass-1')
    expect((await svc.op(MeDocument, {}, token)).data?.me.username).toBe('alice')
    expect((await svc.http('/api/session', { headers: bearer(token) })).status).toBe(200)
    expect((await apiopsCall(bearer(token))).status).toBe(200)
  })

  it('refuses a bad console login with the same error as any bad sign-in', async () => {
    const res = await svc.op(LoginDocument, { username: 'mallory', password: 'm-pass' })
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED', errorKey: 'unauthorized_client' })
  })

  it('answers GraphQL calls with an invalid token with HTTP 401', async () => {
    const res = await svc.op(MeDocument, {}, 'gmt_bogus')
    expect(res.status).toBe(401)
    expect(res.errors?.[0].extensions.code).toBe('UNAUTHENTICATED')
  })
})
