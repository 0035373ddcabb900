// The audit trail's totals from counters (issue 31, migration 20261127190000_audit_counts): a page no longer counts
// the project's whole trail. Seeds events over several UTC days, projects, actors, surfaces, operations and object
// types, then checks, for every filter and time range (whole days, part-days at either end, a range inside one day),
// that REST and GraphQL answer the exact count(*) of the matching events, that pages front and back hold the events
// in the order an ORDER BY gives, and that the counters follow inserts, a purge, a moved event and a rollback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { purgeAuditEvents } from '../../src/platform/audit/recorder.js'
import { startTestService, type TestService } from '../support/app.js'
import { jsonOf } from '../support/http.js'
import { sampleBootstrap } from '../support/fixtures.js'

let svc: TestService
let root: string
const db = () => svc.deps.prisma

const DAY = 86_400_000
/** 00:00 UTC of five days ago: the seeded events span six UTC days from there */
const day0 = Math.floor(Date.now() / DAY) * DAY - 5 * DAY
const at = (days: number, hours = 0) => new Date(day0 + days * DAY + hours * 3_600_000)

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  // 6 days × 4 projects (one installation-level) × 2 actors × 2 surfaces × 3 operations × 2 object types (one none),
  // at every 7th hour of each day: one INSERT … SELECT, as the bootstrap writes its events
  await db().$executeRawUnsafe(`
    INSERT INTO "AuditEvent" (at, surface, actor, "projectName", operation, "objectType", "objectName", outcome, "correlationId")
    SELECT $1::timestamp(3) + make_interval(days => d, hours => (d * 5 + a * 3 + o * 7 + p * 11) % 24),
           (ARRAY['REST_APIOPS', 'GRAPHQL'])[s]::"AuditSurface", (ARRAY['ann', 'ben'])[a],
           (ARRAY['payments', 'other', NULL, 'admin'])[p], 'op-' || o, CASE WHEN t = 1 THEN 'things' END, 'thing-' || ((d + o) % 3), 'SUCCEEDED', 'seed'
      FROM generate_series(0, 5) d, generate_series(1, 4) p, generate_series(1, 2) a, generate_series(1, 2) s, generate_series(1, 3) o, generate_series(1, 2) t`,
  new Date(day0).toISOString().replace('Z', ''))
})
afterAll(async () => {
  await svc?.close()
})

const get = (path: string) => svc.http(path, { headers: { authorization: `Bearer ${root}` } })

/** Every counter row that disagrees with the events it counts (a missing row counts 0). */
async function drift() {
  return db().$queryRawUnsafe<unknown[]>(`
    WITH actual AS (SELECT coalesce("projectName", '') AS scope, at::date AS day, actor, surface, operation, coalesce("objectType", '') AS "objectType",
                           count(*)::int AS n FROM "AuditEvent" GROUP BY 1, 2, 3, 4, 5, 6)
    SELECT * FROM actual a FULL JOIN "AuditCount" c USING (scope, day, actor, surface, operation, "objectType")
     WHERE coalesce(a.n, 0) <> coalesce(c.n, 0) OR c.n = 0`)
}

/** Every (project, day) whose per-day counter (the sum of its slots) disagrees with its events, or is kept at 0. */
async function dayDrift() {
  return db().$queryRawUnsafe<unknown[]>(`
    WITH actual AS (SELECT coalesce("projectName", '') AS scope, at::date AS day, count(*)::int AS n FROM "AuditEvent" GROUP BY 1, 2),
         kept AS (SELECT scope, day, sum(n)::int AS n FROM "AuditDayCount" GROUP BY 1, 2)
    SELECT * FROM actual a FULL JOIN kept c USING (scope, day)
     WHERE coalesce(a.n, 0) <> coalesce(c.n, 0) OR c.n = 0`)
}

interface Filter { user?: string; surface?: string; operation?: string; objectType?: string; objectName?: string; from?: Date; to?: Date }

/** count(*) of the events a project's trail shows under the filter, straight from the table. */
async function actual(project: string, f: Filter): Promise<number> {
  return db().auditEvent.count({
    where: {
      OR: project === 'admin' ? [{ projectName: 'admin' }, { projectName: null }] : [{ projectName: project }],
      actor: f.user, surface: f.surface as never, operation: f.operation, objectType: f.objectType, objectName: f.objectName,
      at: { gte: f.from, lt: f.to },
    },
  })
}

const query = (f: Filter, extra: Record<string, string> = {}) => new URLSearchParams({
  ...Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : String(v)])),
  ...extra,
})

async function listed(project: string, f: Filter, extra: Record<string, string> = {}) {
  const res = await get(`/apiops/projects/${project}/audit-events?${query(f, extra)}`)
  const body = await jsonOf(res)
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body as { totalElements: number; totalPages: number; items: { id: string; at: string }[] }
}

const FILTERS: Filter[] = [
  {},
  { user: 'ann' },
  { surface: 'GRAPHQL' },
  { operation: 'op-2', objectType: 'things' },
  { user: 'ben', surface: 'REST_APIOPS', operation: 'op-3' },
  { objectName: 'thing-1' },
  { objectType: 'things', objectName: 'thing-2', user: 'ann' },
  { from: at(2) },
  { to: at(4) },
  { from: at(1), to: at(4) },
  { from: at(1, 5.5), to: at(4, 13.25) },
  { from: at(1, 5.5) },
  { to: at(3, 0.001) },
  { from: at(2, 3), to: at(2, 17) },
  { from: at(2, 3), to: at(3) },
  { from: at(2), to: at(2, 23) },
  { user: 'ann', from: at(0, 10), to: at(5, 2) },
  { objectName: 'thing-0', from: at(1, 12), to: at(3, 12) },
  { user: 'nobody' },
  { from: at(30) },
]

describe('audit trail totals from counters', () => {
  it('the counters match the events after a seed of one INSERT … SELECT', async () => {
    expect(await drift()).toEqual([])
    expect(await dayDrift()).toEqual([])
    expect(await db().auditCount.count()).toBeGreaterThan(0)
    // per day: at most 4 slots per project and day, far fewer rows than the fine counters
    const days = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(DISTINCT (coalesce("projectName", ''), at::date))::int AS n FROM "AuditEvent"`)
    const dayRows = await db().auditDayCount.count()
    expect(dayRows).toBeGreaterThanOrEqual(days[0]!.n)
    expect(dayRows).toBeLessThanOrEqual(4 * days[0]!.n)
    expect(dayRows).toBeLessThan(await db().auditCount.count())
  })

  it('REST: every filter and time range gives the exact total, for a project and for the platform project', async () => {
    for (const project of ['payments', 'admin']) {
      for (const f of FILTERS) {
        const expected = await actual(project, f)
        expect({ project, f, total: (await listed(project, f, { size: '7' })).totalElements }).toEqual({ project, f, total: expected })
      }
    }
  })

  it('GraphQL: the installation trail and one project, with filters, give the exact total', async () => {
    const q = `query($p: String, $u: String, $from: String, $to: String, $t: String) {
      auditEvents(projectName: $p, user: $u, from: $from, to: $to, objectType: $t, size: 3) { totalElements } }`
    for (const [vars, where] of [
      [{}, {}],
      [{ p: 'other' }, { projectName: 'other' }],
      [{ u: 'ben', from: at(1, 6).toISOString(), to: at(3, 18).toISOString() }, { actor: 'ben', at: { gte: at(1, 6), lt: at(3, 18) } }],
      [{ p: 'payments', t: 'things', from: at(4).toISOString() }, { projectName: 'payments', objectType: 'things', at: { gte: at(4) } }],
    ] as const) {
      const res = await svc.graphql(q, vars, root)
      expect(res.body.errors).toBeUndefined()
      expect(res.body.data.auditEvents.totalElements).toBe(await db().auditEvent.count({ where }))
    }
  })

  it('pages at the front, the middle and the back hold the events in the order an ORDER BY gives', async () => {
    for (const [f, sort] of [[{}, undefined], [{ user: 'ben', from: at(1, 5) }, undefined], [{}, 'actor,asc'], [{ surface: 'GRAPHQL' }, 'operation,desc']] as const) {
      const all = await db().auditEvent.findMany({
        where: { projectName: 'payments', actor: f.user, surface: f.surface as never, at: { gte: f.from } },
        orderBy: sort ? [{ [sort.split(',')[0]!]: sort.split(',')[1] }, { id: 'asc' }] : [{ at: 'desc' }, { id: 'asc' }],
        select: { id: true },
      })
      const size = 11
      const pages = Math.ceil(all.length / size)
      for (const page of [0, 1, Math.floor(pages / 2), pages - 2, pages - 1, pages]) {
        const body = await listed('payments', f, { size: String(size), page: String(page), ...(sort ? { sort } : {}) })
        expect(body.totalElements).toBe(all.length)
        expect(body.items.map((e) => e.id)).toEqual(all.slice(page * size, page * size + size).map((e) => e.id.toString()))
      }
    }
  })

  it('deep pages start at their day (counters) and hold the events an ORDER BY gives, in both orders and under filters', async () => {
    // 2,400 more events in 'other' over the six days, some at the same instant (ties broken by id)
    await db().$executeRawUnsafe(`
      INSERT INTO "AuditEvent" (at, surface, actor, "projectName", operation, "objectType", outcome, "correlationId")
      SELECT $1::timestamp(3) + make_interval(secs => (n / 2) * 432), 'REST_APIOPS', (ARRAY['ann', 'ben', 'cy'])[n % 3 + 1], 'other',
             'op-deep', 'things', 'SUCCEEDED', 'deep'
        FROM generate_series(0, 2399) n`, new Date(day0).toISOString().replace('Z', ''))
    expect(await drift()).toEqual([])
    for (const [f, sort] of [
      [{}, undefined], [{}, 'at,asc'], [{ user: 'cy' }, undefined], [{ from: at(1, 5.5), to: at(4, 13.25) }, undefined],
      [{ user: 'ben', from: at(0, 20) }, 'at,asc'], [{ to: at(5, 1) }, 'at,desc'],
    ] as const) {
      const all = await db().auditEvent.findMany({
        where: { projectName: 'other', actor: (f as Filter).user, at: { gte: (f as Filter).from, lt: (f as Filter).to } },
        orderBy: [{ at: sort === 'at,asc' ? 'asc' : 'desc' }, { id: 'asc' }],
        select: { id: true },
      })
      const size = 13
      const pages = Math.ceil(all.length / size)
      for (const page of [16, 17, 31, Math.floor(pages / 2) - 1, Math.floor(pages / 2), pages - 20, pages - 1, pages]) {
        const body = await listed('other', f, { size: String(size), page: String(page), ...(sort ? { sort } : {}) })
        expect(body.totalElements).toBe(all.length)
        expect({ f, sort, page, ids: body.items.map((e) => e.id) }).toEqual({ f, sort, page, ids: all.slice(page * size, page * size + size).map((e) => e.id.toString()) })
      }
    }
  })

  it('the counters follow a purge, a moved event and a rolled-back insert', async () => {
    const before = await actual('payments', {})
    // events older than 4 days: the seed's first day or two
    const purged = await purgeAuditEvents(db(), 4)
    expect(purged).toBeGreaterThan(0)
    expect(await drift()).toEqual([])
    expect(await dayDrift()).toEqual([])
    expect((await listed('payments', {})).totalElements).toBe(await actual('payments', {}))
    expect(await actual('payments', {})).toBeLessThan(before)

    const moved = await db().auditEvent.findFirstOrThrow({ where: { projectName: 'payments', actor: 'ann' } })
    await db().auditEvent.update({ where: { id: moved.id }, data: { projectName: 'other', actor: 'ben', objectType: null } })
    // the settle step's update of outcome, status and object name moves nothing
    await db().auditEvent.update({ where: { id: moved.id }, data: { outcome: 'DEPLOY_FAILED', httpStatus: 207, objectName: 'renamed' } })
    expect(await drift()).toEqual([])
    expect(await dayDrift()).toEqual([])
    // an event moved to another day leaves its old day counted one less
    await db().auditEvent.update({ where: { id: moved.id }, data: { at: new Date(moved.at.getTime() - 86_400_000) } })
    expect(await drift()).toEqual([])
    expect(await dayDrift()).toEqual([])

    await expect(db().$transaction(async (tx) => {
      await tx.auditEvent.create({ data: { surface: 'GRAPHQL', actor: 'ann', projectName: 'payments', operation: 'op-9', outcome: 'SUCCEEDED', correlationId: 'x' } })
      throw new Error('rolled back')
    })).rejects.toThrow('rolled back')
    expect(await drift()).toEqual([])
    expect(await dayDrift()).toEqual([])
    for (const f of FILTERS) expect((await listed('payments', f)).totalElements).toBe(await actual('payments', f))
  })

  it('a REST write adds its event to the counted total at once', async () => {
    const before = (await listed('payments', { user: 'root' })).totalElements
    const res = await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: { authorization: `Bearer ${root}` } })
    expect(res.status, await res.clone().text()).toBe(200)
    expect((await listed('payments', { user: 'root' })).totalElements).toBe(before + 1)
    expect((await listed('payments', {})).totalElements).toBe(await actual('payments', {}))
    expect(await drift()).toEqual([])
    expect(await dayDrift()).toEqual([])
  })
})
