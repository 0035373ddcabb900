import { createClient, type Client } from 'graphql-ws'
import pg from 'pg'
import WebSocket from 'ws'
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { jsonOf } from '../support/http.js'
import { startTestService } from '../support/app.js'

/** A graphql-ws client on the service's /graphql, signed in through connectionParams. */
function wsClient(url: string, connectionParams: Record<string, string>): Client {
  return createClient({ url: url.replace(/^http/, 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true })
}

/** One subscription's results in order; `next()` waits for the following one. */
function follow(client: Client, query: string, variables: Record<string, unknown>) {
  const results: any[] = []
  let waiting: (() => void) | null = null
  let ended = false
  const stop = client.subscribe({ query, variables }, {
    next: (r) => (results.push(r), waiting?.()),
    error: (e) => (results.push({ error: e }), (ended = true), waiting?.()),
    complete: () => ((ended = true), waiting?.()),
  })
  let read = 0
  return {
    stop,
    get ended() { return ended },
    async next(): Promise<any> {
      while (read >= results.length && !ended) await new Promise<void>((r) => (waiting = r))
      return results[read++]
    },
    /**
     * The first result. A subscription is live only once an event of its own arrives, so `write(i)` is repeated
     * (with `pause` between tries) until one does; after `tries` writes it just waits.
     */
    async live(write: (i: number) => Promise<unknown>, pause: () => Promise<unknown> = () => new Promise((r) => setImmediate(r)), tries = 50): Promise<any> {
      const first = this.next()
      for (let i = 0; ; i++) {
        await write(i)
        const got = await Promise.race([first, pause().then(() => undefined)])
        if (got || i >= tries) return got ?? first
      }
    },
  }
}

const AUDIT = 'subscription($p: String!) { auditEvents(projectName: $p) { projectName operation objectType objectName actor } }'
const DEPLOY = 'subscription($p: String!) { deploymentOutcomes(projectName: $p) { projectName environmentName kind name acknowledged } }'

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })

const createCredential = (token: string, project: string, username: string) =>
  bed.svc.http(`/apiops/projects/${project}/credentials/`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'Pw-123456', fullName: username, email: `${username}@example.test` }),
  })

describe('GraphQL subscriptions over graphql-ws (issue 18 §3)', () => {
  it('sends the audited writes of the project, never those of another project', async () => {
    const client = wsClient(bed.svc.url, { authorization: `Bearer ${bed.root}` })
    try {
      const sub = follow(client, AUDIT, { p: 'payments' })
      const got = await sub.live(async (n) => {
        expect((await createCredential(bed.root, 'other', `o-${n}`)).status).toBe(200)
        expect((await createCredential(bed.root, 'payments', `p-${n}`)).status).toBe(200)
      })
      expect(got.data.auditEvents).toMatchObject({ projectName: 'payments', objectType: 'credentials', actor: 'root' })
      expect(got.data.auditEvents.objectName).toMatch(/^p-/)
      expect((await createCredential(bed.root, 'payments', 'p-last')).status).toBe(200)
      let next = await sub.next()
      while (next.data.auditEvents.objectName !== 'p-last') {
        expect(next.data.auditEvents.projectName).toBe('payments')
        next = await sub.next()
      }
      sub.stop()
    } finally {
      await client.dispose()
    }
  })

  it('refuses a connection without a valid token and a subscription to a project the caller cannot see', async () => {
    const anonymous = wsClient(bed.svc.url, {})
    const closed = await new Promise<any>((resolve) => anonymous.subscribe({ query: AUDIT, variables: { p: 'payments' } }, { next: resolve, error: resolve, complete: () => resolve('complete') }))
    expect(closed.code).toBe(4403)
    await anonymous.dispose()

    const carol = await bed.svc.tokenFor('carol', 'carol-pass-1')
    const client = wsClient(bed.svc.url, { authorization: `Bearer ${carol}` })
    try {
      const sub = follow(client, AUDIT, { p: 'payments' })
      const r = await sub.next()
      expect(r.errors?.[0]?.extensions?.errorKey ?? r.errors?.[0]?.message).toBeDefined()
      expect(r.data ?? null).toBeNull()
      const hidden = follow(client, AUDIT, { p: 'other' })
      const h = await hidden.next()
      expect(h.errors?.[0]?.message).toBe("Project 'other' not found")
    } finally {
      await client.dispose()
    }
  })

  it('ends the subscription on the next event once its token is revoked (service-token header)', async () => {
    const token = await bed.svc.tokenFor('root', 's3cret-root')
    const client = wsClient(bed.svc.url, { 'service-token': token })
    try {
      const sub = follow(client, AUDIT, { p: 'payments' })
      const got = await sub.live((i) => createCredential(bed.root, 'payments', `r-${i}`))
      expect(got.data.auditEvents.projectName).toBe('payments')
      const revoked = await bed.svc.graphql('mutation($t: String!) { revokeToken(token: $t) }', { t: token }, bed.root)
      expect(revoked.body.data).toEqual({ revokeToken: true })
      await createCredential(bed.root, 'payments', 'after-revoke')
      let r = await sub.next()
      while (r && !r.error && !r.errors) r = await sub.next()
      expect(r.errors?.[0]?.message ?? r.error?.[0]?.message).toBe('Invalid token')
    } finally {
      await client.dispose()
    }
  })

  it('sends what each environment answered to a push of the project', async () => {
    const client = wsClient(bed.svc.url, { authorization: `Bearer ${bed.root}` })
    try {
      const sub = follow(client, DEPLOY, { p: 'payments' })
      const got = await sub.live(async () => {
        const res = await bed.svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: { authorization: `Bearer ${bed.root}` } })
        expect((await jsonOf(res)).deploymentResult.success).toBe(true)
      })
      expect(got.data.deploymentOutcomes).toMatchObject({ projectName: 'payments', environmentName: 'dev', acknowledged: true })
    } finally {
      await client.dispose()
    }
  })

  it('sends every record a statement wrote, one by one, however many (a bulk chunk records 200 at once)', async () => {
    const client = wsClient(bed.svc.url, { authorization: `Bearer ${bed.root}` })
    try {
      const sub = follow(client, DEPLOY, { p: 'payments' })
      await sub.live(async () => {
        expect((await bed.svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: { authorization: `Bearer ${bed.root}` } })).status).toBe(200)
      })
      // 300 records in one insert (long names: the statement's notifications are split to stay under NOTIFY's limit),
      // half not acknowledged, beside records of another project; then the same 300 again as an upsert's updates
      const names = Array.from({ length: 300 }, (_, k) => `stmt-${String(k).padStart(3, '0')}-${'n'.repeat(60)}`)
      const write = (revision: number) => bed.svc.deps.prisma.$executeRaw`
        INSERT INTO "DeploymentRecord" ("projectName", "environmentName", "kind", "name", "action", "revision", "acknowledged", "at")
        SELECT p, 'dev', 'LIMIT_ASSIGNMENT', n, 'DEPLOY', ${revision}::integer, ord % 2 = 0, now()
          FROM unnest(${names}::text[]) WITH ORDINALITY AS t(n, ord), unnest(ARRAY['payments', 'other']) AS p
        ON CONFLICT ("projectName", "environmentName", "kind", "name") DO UPDATE SET "revision" = excluded."revision", "acknowledged" = excluded."acknowledged"`
      const seen = async () => {
        const out = new Map<string, boolean>()
        while (out.size < names.length) {
          const r = (await sub.next()).data.deploymentOutcomes
          expect(r.projectName).toBe('payments')
          if (!r.name.startsWith('stmt-')) continue
          expect(out.has(r.name)).toBe(false)
          out.set(r.name, r.acknowledged)
        }
        return out
      }
      expect(await write(1)).toBe(600)
      const inserted = await seen()
      expect(await write(2)).toBe(600)
      const updated = await seen()
      for (const got of [inserted, updated]) {
        expect([...got.keys()].sort()).toEqual(names)
        names.forEach((n, k) => expect(got.get(n)).toBe((k + 1) % 2 === 0))
      }
      sub.stop()
    } finally {
      await client.dispose()
    }
  })
})

/** `count` audit events per project written by one INSERT (a bootstrap, a declarative apply or a transfer writes so). */
const auditInOneStatement = (count: number, marker: string) => bed.svc.deps.prisma.$executeRaw`
  INSERT INTO "AuditEvent" ("surface", "actor", "projectName", "operation", "objectType", "objectName", "outcome", "correlationId")
  SELECT 'BOOTSTRAP', 'bootstrap', p, 'bootstrap.create', 'credentials', ${marker} || '-' || lpad(k::text, 5, '0'), 'SUCCEEDED', ${marker}
    FROM generate_series(1, ${count}::integer) AS k, unnest(ARRAY['payments', 'other']) AS p`

describe('audit events written by one statement', () => {
  it('are each sent to the subscription, once and in the order written, however many', async () => {
    const client = wsClient(bed.svc.url, { authorization: `Bearer ${bed.root}` })
    try {
      const sub = follow(client, AUDIT, { p: 'payments' })
      await sub.live(async (i) => expect((await createCredential(bed.root, 'payments', `live-${i}`)).status).toBe(200))
      // 1,500 events per project: more ids than one notification holds, so the statement's are split
      expect(await auditInOneStatement(1500, 'stmt')).toBe(3000)
      const names: string[] = []
      while (names.length < 1500) {
        const event = (await sub.next()).data.auditEvents
        expect(event.projectName).toBe('payments')
        if (event.objectName.startsWith('stmt-')) names.push(event.objectName)
      }
      expect(names).toEqual(Array.from({ length: 1500 }, (_, k) => `stmt-${String(k + 1).padStart(5, '0')}`))
      sub.stop()
    } finally {
      await client.dispose()
    }
  })

  // counted on a listening session of its own, which PGlite (one in-process session) does not offer
  it.runIf(process.env.TEST_DATABASE_URL)('are announced per statement and project, not per row', async () => {
    const listener = new pg.Client({ connectionString: bed.svc.db.databaseUrl })
    await listener.connect()
    const payloads: { k: string; p: string | null; ids?: string[] }[] = []
    listener.on('notification', (n) => payloads.push(JSON.parse(n.payload!)))
    try {
      await listener.query('LISTEN gateway_events')
      expect(await auditInOneStatement(1500, 'counted')).toBe(3000)
      // NOTIFY is delivered at commit, in order: a round trip on the listening session follows them
      await listener.query('SELECT 1')
      const audits = payloads.filter((p) => p.k === 'audits')
      expect(payloads.filter((p) => p.k === 'audit')).toEqual([])
      expect(audits.length).toBeGreaterThanOrEqual(2 * 2)
      expect(audits.length).toBeLessThanOrEqual(2 * 6)
      for (const project of ['payments', 'other']) expect(audits.filter((a) => a.p === project).flatMap((a) => a.ids!)).toHaveLength(1500)
      for (const a of audits) expect(Buffer.byteLength(JSON.stringify(a))).toBeLessThan(8000)
    } finally {
      await listener.end()
    }
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('across instances on one PostgreSQL', () => {
  it('a subscriber on one instance sees writes made on another', async () => {
    const second = await startTestService({ db: bed.svc.db })
    const client = wsClient(second.url, { authorization: `Bearer ${bed.root}` })
    try {
      const sub = follow(client, AUDIT, { p: 'payments' })
      // written through the first instance
      const got = await sub.live((i) => createCredential(bed.root, 'payments', `x-${i}`), () => new Promise((r) => setTimeout(r, 50)))
      expect(got.data.auditEvents).toMatchObject({ projectName: 'payments', objectType: 'credentials' })
    } finally {
      await client.dispose()
      await second.stop()
    }
  })

  it('keeps listening after the database cut its listening session (a restart, a killed backend)', async () => {
    // the sessions of this database that LISTEN: the service's event bus (one per instance)
    const cut = await bed.svc.deps.prisma.$queryRawUnsafe<{ cut: boolean }[]>(
      `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    )
    expect(cut.length).toBeGreaterThan(0)
    const client = wsClient(bed.svc.url, { authorization: `Bearer ${bed.root}` })
    try {
      const sub = follow(client, AUDIT, { p: 'payments' })
      const got = await sub.live((i) => createCredential(bed.root, 'payments', `after-cut-${i}`), () => new Promise((r) => setTimeout(r, 100)), 100)
      expect(got.data.auditEvents).toMatchObject({ projectName: 'payments', objectType: 'credentials' })
    } finally {
      await client.dispose()
    }
  })

})
