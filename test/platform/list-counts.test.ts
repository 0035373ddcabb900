// Exact list totals kept by triggers (issue 19 §3, migration 20261126110000_list_counts): after every kind of
// write (REST create and delete, createMany, a raw INSERT … SELECT, a move between projects, a project's
// cascade delete, a transfer import, a rolled-back write) the unfiltered list's totalElements equals
// count(*) and no counter of the installation has drifted from the rows it counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintPublicKey } from '../../src/platform/keys.js'
import { startTestService, type TestService } from '../support/app.js'
import { jsonOf } from '../support/http.js'
import { importPackage, transferBootstrap, transferExport } from '../support/zip-fixtures.js'

let svc: TestService
let root: string

beforeAll(async () => {
  svc = await startTestService({ bootstrap: transferBootstrap({ dev: [] }) })
  root = await svc.tokenFor('root', 's3cret-root')
})
afterAll(async () => {
  await svc?.close()
})

const db = () => svc.deps.prisma
const projectId = async (name: string) => (await db().project.findUniqueOrThrow({ where: { name } })).id
const send = (method: string, path: string, body?: unknown) =>
  svc.http(path, { method, headers: { authorization: `Bearer ${root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) })

/** Every counter that disagrees with the rows it counts (a counter of 0 may also be absent). */
async function drift() {
  return db().$queryRawUnsafe<{ list: string; scope: string; counted: number; actual: number }[]>(`
    WITH actual AS (
      SELECT 'Credential' AS list, "projectId" AS scope, count(*)::int AS n FROM "Credential" GROUP BY 2
      UNION ALL SELECT 'Application', "projectId", count(*)::int FROM "Application" GROUP BY 2
      UNION ALL SELECT 'LimitAssignment', "projectId", count(*)::int FROM "LimitAssignment" GROUP BY 2
      UNION ALL SELECT 'LimitBulkRun', "projectId", count(*)::int FROM "LimitBulkRun" GROUP BY 2
      UNION ALL SELECT 'LimitPlan.unmanaged', scope, count(*)::int FROM "LimitPlan" WHERE "managedBySubscriptionPlanId" IS NULL GROUP BY 2)
    SELECT coalesce(a.list, c.list) AS list, coalesce(a.scope, c.scope) AS scope, coalesce(c.n, 0) AS counted, coalesce(a.n, 0) AS actual
    FROM actual a FULL JOIN "ListCount" c ON c.list = a.list AND c.scope = a.scope
    WHERE coalesce(c.n, 0) <> coalesce(a.n, 0)`)
}

/** The consumer list's page 0 total, and the rows behind it. */
async function consumerTotals(project: string) {
  const res = await send('GET', `/apiops/projects/${project}/consumers?page=0&size=5`)
  const body = await jsonOf(res)
  expect(res.status, JSON.stringify(body)).toBe(200)
  return { listed: body.totalElements as number, actual: await db().credential.count({ where: { projectId: await projectId(project) } }) }
}

async function expectExact(project: string, expected: number) {
  expect(await consumerTotals(project)).toEqual({ listed: expected, actual: expected })
  expect(await drift()).toEqual([])
}

describe('list totals kept by triggers', () => {
  it('start exact: the migration counted the bootstrap rows', async () => {
    expect(await drift()).toEqual([])
    expect((await db().listCount.findMany()).length).toBeGreaterThan(0)
  })

  it('consumers: REST create and delete, createMany, INSERT … SELECT, a rolled-back write, a move', async () => {
    const project = 'other'
    const start = (await consumerTotals(project)).actual
    for (const username of ['lc-a', 'lc-b']) {
      const res = await send('POST', `/apiops/projects/${project}/credentials/`, { username, password: 'pw-123456', fullName: username, email: `${username}@example.com` })
      expect(res.status, await res.clone().text()).toBe(200)
    }
    await expectExact(project, start + 2)
    expect((await send('DELETE', `/apiops/projects/${project}/credentials/lc-a/`)).status).toBe(200)
    await expectExact(project, start + 1)

    const pid = await projectId(project)
    await db().credential.createMany({ data: Array.from({ length: 30 }, (_, i) => ({ projectId: pid, username: `lc-bulk-${i}`, consumerKey: mintPublicKey('csm') })) })
    await expectExact(project, start + 31)
    await db().$executeRawUnsafe(`
      INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "updatedAt")
      SELECT gen_random_uuid(), $1, 'lc-set-' || n, 'csm_lc_' || n || md5(random()::text), now() FROM generate_series(1, 50) n`, pid)
    await expectExact(project, start + 81)

    // a write rolled back leaves its counter untouched
    await expect(db().$transaction(async (tx) => {
      await tx.credential.create({ data: { projectId: pid, username: 'lc-rolled-back', consumerKey: mintPublicKey('csm') } })
      throw new Error('roll back')
    })).rejects.toThrow('roll back')
    await expectExact(project, start + 81)

    await db().credential.deleteMany({ where: { projectId: pid, username: { startsWith: 'lc-set-' } } })
    await expectExact(project, start + 31)

    // rows moved between projects by one UPDATE, and ordinary edits that do not move any
    await db().credential.updateMany({ where: { projectId: pid, username: { startsWith: 'lc-bulk-1' } }, data: { projectId: await projectId('payments') } })
    await db().credential.updateMany({ where: { projectId: pid }, data: { fullName: 'renamed' } })
    expect(await drift()).toEqual([])
    await expectExact(project, start + 31 - 11)
  })

  it('a transfer import counts the credential it creates', async () => {
    const original = await db().credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    const before = (await consumerTotals('other')).actual
    const { bytes } = await transferExport(svc, root, 'payments', { formatVersion: 1, type: 'CREDENTIAL', names: ['shop-frontend'] })
    await db().credential.delete({ where: { id: original.id } })
    const moved = await importPackage(svc, root, 'other', 'CREDENTIAL', bytes)
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    await expectExact('other', before + 1)
    const replaced = await importPackage(svc, root, 'other', 'CREDENTIAL', bytes, { conflictPolicy: 'REPLACE' })
    expect(replaced.status).toBe(200)
    await expectExact('other', before + 1)
  })

  it('applications: create, delete and the application list total', async () => {
    const pid = await projectId('other')
    await db().application.createMany({ data: Array.from({ length: 7 }, (_, i) => ({ projectId: pid, name: `lc-app-${i}`, applicationKey: mintPublicKey('app') })) })
    await db().application.deleteMany({ where: { projectId: pid, name: 'lc-app-3' } })
    const res = await send('GET', '/apiops/projects/other/applications?page=0&size=2')
    const body = await jsonOf(res)
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.totalElements).toBe(await db().application.count({ where: { projectId: pid } }))
    expect(await drift()).toEqual([])
  })

  it('a project deleted with its rows (cascade) leaves its counter at 0', async () => {
    await db().project.create({ data: { name: 'lc-doomed' } })
    const pid = await projectId('lc-doomed')
    await db().credential.createMany({ data: Array.from({ length: 12 }, (_, i) => ({ projectId: pid, username: `lc-doomed-${i}`, consumerKey: mintPublicKey('csm') })) })
    await expectExact('lc-doomed', 12)
    await db().project.delete({ where: { id: pid } })
    expect(await drift()).toEqual([])
    expect(await db().listCount.findUnique({ where: { list_scope: { list: 'Credential', scope: pid } } })).toMatchObject({ n: 0 })
  })
})
