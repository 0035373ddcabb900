import { describe, expect, it } from 'vitest'
import { claimIdempotencyKey } from '../../src/platform/idempotency/claims.js'
import { startTestService } from '../support/app.js'
import { freshDatabase } from '../support/database.js'
import { sampleBootstrap } from '../support/fixtures.js'

const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

describe('two instances on one database (RUNTIME.md §1)', () => {
  it.runIf(onPostgres)('share tokens, revocation, sign-in throttling and idempotency claims', async () => {
    const db = await freshDatabase()
    const bootstrap = sampleBootstrap({ dev: [] })
    // both start at once: migrations and the bootstrap must not trip over each other
    const [a, b] = await Promise.all([
      startTestService({ db, bootstrap, env: { AUTH_MAX_FAILURES_PER_USER: '2' } }),
      startTestService({ db, bootstrap, env: { AUTH_MAX_FAILURES_PER_USER: '2' } }),
    ])
    try {
      expect(await a.deps.prisma.user.count()).toBe(6)
      const token = await a.tokenFor('alice', 'alice-pass-1')
      const session = (svc: typeof a) => svc.http('/api/session', { headers: { authorization: `Bearer ${token}` } })
      expect((await session(b)).status).toBe(200)

      const revoked = await b.graphql('mutation($t: String!) { revokeToken(token: $t) }', { t: token }, token)
      expect(revoked.body.data?.revokeToken).toBe(true)
      expect((await session(a)).status).toBe(401)

      const wrong = (svc: typeof a) =>
        svc.http('/apiops/auth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'bob', client_secret: 'wrong' }),
        })
      await wrong(a)
      await wrong(b)
      await expect(a.tokenFor('bob', 'bob-pass-1')).rejects.toThrow(/401/)

      const request = { scope: 'p', operation: 'op', key: 'shared-key', body: { x: 1 } }
      await claimIdempotencyKey(a.deps.prisma, request)
      await expect(claimIdempotencyKey(b.deps.prisma, request)).rejects.toMatchObject({ errorKey: 'idempotencyInProgress' })
    } finally {
      await a.stop()
      await b.stop()
      await db.cleanup()
    }
  })

  it.runIf(!onPostgres)('refuse a second process on one embedded data directory', async () => {
    const db = await freshDatabase()
    const first = await startTestService({ db })
    try {
      await expect(startTestService({ db })).rejects.toThrow(/already open in this process|in use by process/)
    } finally {
      await first.close()
      await db.cleanup()
    }
  })
})
