import fs from 'node:fs'
import os from 'node:os'
import path_ from 'node:path'
import { describe, expect, it } from 'vitest'
import { BootstrapError, parseBootstrap, readBootstrapFile } from '../../src/bootstrap/apply.js'
import { jsonOf } from '../support/http.js'
import { startTestService } from '../support/app.js'
import { freshDatabase } from '../support/database.js'
import { sampleBootstrap } from '../support/fixtures.js'

async function counts(svc: { deps: { prisma: any } }) {
  const p = svc.deps.prisma
  return {
    users: await p.user.count(),
    projects: await p.project.count(),
    environments: await p.environment.count(),
    memberships: await p.membership.count(),
    grants: await p.permissionGrant.count(),
    organizations: await p.organization.count(),
    credentials: await p.credential.count(),
    applications: await p.application.count(),
    apiClients: await p.apiClient.count(),
    apiProxies: await p.apiProxy.count(),
    groups: await p.apiProxyGroup.count(),
    objects: await p.storedObject.count(),
  }
}

/** Every row of the tables a bootstrap file writes, by table. */
async function allRows(svc: { deps: { prisma: any } }): Promise<Record<string, any[]>> {
  const p = svc.deps.prisma
  const tables = ['user', 'environment', 'project', 'projectEnvironment', 'membership', 'permissionGrant', 'organization', 'credential', 'application', 'apiClient', 'apiProxy', 'apiProxyGroup', 'storedObject']
  const out: Record<string, any[]> = {}
  for (const table of tables) {
    const rows = await p[table].findMany()
    // the two link tables have composite keys: give their rows one too
    out[table] = rows.map((r: any) => (r.id ? r : { id: [r.projectId, r.environmentId, r.membershipId, r.category, r.level].filter(Boolean).join(':'), ...r }))
  }
  return out
}

describe('start without a bootstrap file', () => {
  it('serves /healthz and has the admin platform project', async () => {
    const svc = await startTestService()
    try {
      const res = await svc.http('/healthz')
      expect(res.status).toBe(200)
      expect(await jsonOf(res)).toEqual({ status: 'UP' })
      expect(await svc.deps.prisma.project.findMany({ select: { name: true } })).toEqual([{ name: 'admin' }])
    } finally {
      await svc.close()
    }
  })
})

describe('applying the bootstrap file (RUNTIME.md §3)', () => {
  it('creates every entity it lists, with secrets hashed or encrypted', async () => {
    const svc = await startTestService({ bootstrap: sampleBootstrap({ dev: ['http://127.0.0.1:9901'] }) })
    try {
      const p = svc.deps.prisma
      expect(await counts(svc)).toEqual({
        users: 6, projects: 3, environments: 2, memberships: 3, grants: 6, organizations: 4, credentials: 2,
        applications: 1, apiClients: 1, apiProxies: 1, groups: 1, objects: 2,
      })
      const root = await p.user.findUniqueOrThrow({ where: { username: 'root' } })
      expect(root).toMatchObject({ role: 'ADMIN', locked: false, enabled: true, tokenLifetimeSeconds: null })
      expect(root.passwordHash).toMatch(/^scrypt\$/)
      expect(root.passwordHash).not.toContain('s3cret-root')
      expect(await p.user.findUniqueOrThrow({ where: { username: 'mallory' } })).toMatchObject({ locked: true, enabled: true })
      expect(await p.user.findUniqueOrThrow({ where: { username: 'dave' } })).toMatchObject({ locked: false, enabled: false })
      expect((await p.user.findUniqueOrThrow({ where: { username: 'alice' } })).tokenLifetimeSeconds).toBe(3600)

      const dev = await p.environment.findUniqueOrThrow({ where: { name: 'dev' } })
      expect(dev.workerUrls).toEqual(['http://127.0.0.1:9901'])
      const payments = await p.project.findUniqueOrThrow({ where: { name: 'payments' }, include: { environments: { include: { environment: true } } } })
      expect(payments.environments.map((e: any) => e.environment.name).sort()).toEqual(['dev', 'prod'])

      const euOrg = await p.organization.findFirstOrThrow({ where: { code: 'acme-eu' }, include: { parent: true } })
      expect(euOrg.parent?.code).toBe('acme')
      expect(await p.organization.findFirstOrThrow({ where: { code: 'frozen' } })).toMatchObject({ suspended: true, state: 'ACTIVE' })
      expect(await p.organization.findFirstOrThrow({ where: { code: 'gone' } })).toMatchObject({ state: 'TOMBSTONED' })

      const shop = await p.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' }, include: { organization: true, application: true } })
      expect(shop.consumerKey).toMatch(/^csm_[A-Za-z0-9_-]{22}$/)
      expect(shop.passwordCipher).not.toContain('pw-1')
      expect(svc.deps.keyring.decrypt(shop.passwordCipher!)).toBe('pw-1')
      expect(shop.organization?.code).toBe('acme')
      expect(shop.application?.name).toBe('checkout')
      expect((await p.credential.findUniqueOrThrow({ where: { username: 'ldap-synced' } })).syncManaged).toBe(true)

      const client = await p.apiClient.findUniqueOrThrow({ where: { clientId: 'checkout-web-id' }, include: { application: true } })
      expect(client).toMatchObject({ name: 'checkout-web', operationalState: 'ACTIVE' })
      expect(client.application?.name).toBe('checkout')
      const proxy = await p.apiProxy.findFirstOrThrow({ where: { name: 'orders-api' }, include: { groups: true } })
      expect(proxy.groups.map((g: any) => g.name)).toEqual(['retail'])
      expect(await p.storedObject.findFirstOrThrow({ where: { type: 'CERTIFICATE' } })).toMatchObject({ kind: 'KEY_STORE', name: 'edge-ks', content: { alias: 'edge' } })
      const grants = await p.permissionGrant.findMany({ where: { membership: { user: { username: 'alice' } } } })
      expect(grants).toHaveLength(4)
    } finally {
      await svc.close()
    }
  })

  it('stores every credential field the file may set: ipList, expiry, token settings, a disabled credential', async () => {
    const bootstrap = sampleBootstrap({ dev: [] }) as any
    bootstrap.projects[0].credentials.push({
      username: 'edge-robot', password: 'pw-3', description: 'robot', enabled: false, expireDate: '2031-02-03T04:05:06.789Z',
      ipList: ['10.0.0.1', '192.168.0.0/16', '2001:db8::/32'], tokenSettings: { tokenExpiresInAmount: 10, tokenExpiresInUnit: 'MINUTES' },
    })
    const svc = await startTestService({ bootstrap })
    try {
      const robot = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'edge-robot' } })
      expect(robot).toMatchObject({ description: 'robot', enabled: false, ipList: ['10.0.0.1', '192.168.0.0/16', '2001:db8::/32'], passwordFormat: 'SEALED' })
      expect(robot.expireDate?.toISOString()).toBe('2031-02-03T04:05:06.789Z')
      expect(robot.tokenSettings).toMatchObject({ tokenExpiresInAmount: 10, tokenExpiresInUnit: 'MINUTES', grantType: null })
      expect(svc.deps.keyring.decrypt(robot.passwordCipher!)).toBe('pw-3')
      expect(robot.createdAt.getTime()).toBeGreaterThan(Date.now() - 600_000)
      const other = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'ldap-synced' } })
      expect(other).toMatchObject({ ipList: [], tokenSettings: null, expireDate: null, enabled: true, email: null })
    } finally {
      await svc.close()
    }
  })

  it('is idempotent: a second start on the same data creates nothing and keeps what exists as it is', async () => {
    const db = await freshDatabase()
    const bootstrap = sampleBootstrap({ dev: [] })
    const first = await startTestService({ bootstrap, db })
    const before = await counts(first)
    const shopBefore = await first.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    const token = await first.tokenFor('alice', 'alice-pass-1')
    await first.close()

    // same names, different attributes: existing objects are left as they are
    const changed = structuredClone(bootstrap) as any
    changed.users[1].password = 'another-password'
    changed.projects[0].credentials[0].fullName = 'Renamed'
    const second = await startTestService({ bootstrap: changed, db })
    try {
      expect(await counts(second)).toEqual(before)
      const shopAfter = await second.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
      expect(shopAfter).toEqual(shopBefore)
      expect(await second.tokenFor('alice', 'alice-pass-1')).toBeTruthy()
      // a token issued before the restart still works
      const res = await second.http('/api/session', { headers: { authorization: `Bearer ${token}` } })
      expect(res.status).toBe(200)
    } finally {
      await second.close()
      await db.cleanup()
    }
  })

  it('re-applied over existing data: objects deleted since are created again, every other row stays exactly as it was', async () => {
    const db = await freshDatabase()
    const bootstrap = sampleBootstrap({ dev: [] }) as any
    // more credentials than one insert batch, a `${variable}` reference and a legacy password kept as written
    bootstrap.projects[0].credentials.push(
      { username: 'by-reference', password: '${vault.shop}' },
      { username: 'legacy-plain', legacyPassword: { format: 'PLAIN', value: 'old-secret' } },
      ...Array.from({ length: 1200 }, (_, i) => ({ username: `bulk-${String(i).padStart(4, '0')}`, password: `pw-${i}`, organizationCode: i % 2 ? 'acme' : undefined })),
    )
    const first = await startTestService({ bootstrap, db })
    const p = first.deps.prisma
    expect(await p.credential.count()).toBe(1204)
    await p.user.delete({ where: { username: 'bob' } }) // takes bob's membership and grant with it
    await p.organization.deleteMany({ where: { code: 'frozen' } })
    await p.credential.deleteMany({ where: { username: { in: ['ldap-synced', 'bulk-0007', 'legacy-plain'] } } })
    await p.storedObject.deleteMany({ where: { name: 'office-ips' } })
    await p.apiProxy.deleteMany({ where: { name: 'orders-api' } })
    const before = await allRows(first)
    await first.close()

    const second = await startTestService({ bootstrap, db })
    try {
      const after = await allRows(second)
      const q = second.deps.prisma
      const created: Record<string, string[]> = {}
      for (const [table, rows] of Object.entries(after)) {
        const old = new Map(before[table]!.map((r: any) => [r.id, r]))
        // every row that was there is there, unchanged (timestamps, revisions, ciphers, keys)
        for (const row of before[table]!) expect(rows.find((r: any) => r.id === row.id), `${table} ${row.id}`).toEqual(row)
        const added = rows.filter((r: any) => !old.has(r.id)).map((r: any) => r.username ?? r.code ?? r.name ?? r.category ?? r.userId)
        if (added.length) created[table] = added.sort()
      }
      const bob = await q.user.findUniqueOrThrow({ where: { username: 'bob' } })
      expect(created).toEqual({
        user: ['bob'], membership: [bob.id], permissionGrant: ['IDENTITY'], organization: ['frozen'],
        credential: ['bulk-0007', 'ldap-synced', 'legacy-plain'], storedObject: ['office-ips'], apiProxy: ['orders-api'],
      })
      expect(await second.tokenFor('bob', 'bob-pass-1')).toBeTruthy()
      expect(await q.credential.findUniqueOrThrow({ where: { username: 'legacy-plain' } })).toMatchObject({ passwordCipher: 'old-secret', passwordFormat: 'PLAIN' })
      expect(await q.credential.findUniqueOrThrow({ where: { username: 'by-reference' } })).toMatchObject({ passwordCipher: '${vault.shop}', passwordFormat: 'REFERENCE' })
      const bulk7 = await q.credential.findUniqueOrThrow({ where: { username: 'bulk-0007' }, include: { organization: true } })
      expect(bulk7.organization?.code).toBe('acme')
      expect(second.deps.keyring.decrypt(bulk7.passwordCipher!)).toBe('pw-7')
      expect(bulk7.consumerKey).toMatch(/^csm_[A-Za-z0-9_-]{22}$/)
      expect(await q.apiProxy.findFirstOrThrow({ where: { name: 'orders-api' }, include: { groups: true } })).toMatchObject({ groups: [{ name: 'retail' }] })

      // one audit event per created object, under the second run's correlation id
      const runs = await q.auditEvent.groupBy({ by: ['correlationId'], where: { surface: 'BOOTSTRAP' }, _count: true, orderBy: { correlationId: 'asc' } })
      expect(runs.map((r: any) => r._count).sort((a: number, b: number) => a - b)).toEqual([8, 1226])
      const again = runs.find((r: any) => r._count === 8)!.correlationId
      const events = await q.auditEvent.findMany({ where: { correlationId: again }, orderBy: { at: 'asc' } })
      expect(events.map((e: any) => `${e.objectType}:${e.objectName}`).sort()).toEqual(
        ['apiProxies:orders-api', 'credentials:bulk-0007', 'credentials:ldap-synced', 'credentials:legacy-plain', 'members:bob', 'objects:office-ips', 'organizations:frozen', 'users:bob'].sort(),
      )
    } finally {
      await second.close()
      await db.cleanup()
    }
  })

  it('creates what a later file adds next to what exists', async () => {
    const db = await freshDatabase()
    const first = await startTestService({ bootstrap: { users: [{ username: 'u1', password: 'p1' }] }, db })
    await first.close()
    const second = await startTestService({ bootstrap: { users: [{ username: 'u1', password: 'p1' }, { username: 'u2', password: 'p2' }] }, db })
    try {
      expect((await second.deps.prisma.user.findMany({ orderBy: { username: 'asc' } })).map((u: any) => u.username)).toEqual(['u1', 'u2'])
    } finally {
      await second.close()
      await db.cleanup()
    }
  })
})

describe('a bootstrap file that does not validate', () => {
  const base = () => sampleBootstrap({ dev: [] }) as any

  it.each([
    ['not JSON', '{ nope', '$'],
    ['an unknown top-level field', JSON.stringify({ ...base(), extra: 1 }), '$.extra'],
    ['a misspelt field', JSON.stringify({ users: [{ username: 'x', pasword: 'y' }] }), '$.users[0]'],
    ['a bad role', JSON.stringify({ users: [{ username: 'x', password: 'y', role: 'ROOT' }] }), '$.users[0].role'],
    ['a bad permission level', JSON.stringify((() => { const b = base(); b.projects[0].members[0].permissions[1].level = 'OWN'; return b })()), '$.projects[0].members[0].permissions[1].level'],
    ['a bad organization state', JSON.stringify((() => { const b = base(); b.projects[0].organizations[3].state = 'DEAD'; return b })()), '$.projects[0].organizations[3].state'],
    ['a multi-kind object without kind', JSON.stringify((() => { const b = base(); delete b.projects[0].objects[1].kind; return b })()), '$.projects[0].objects[1].kind'],
    ['credential roles (the file has no role catalogue)', JSON.stringify((() => { const b = base(); b.projects[0].credentials[0].roleNameList = ['gold']; return b })()), '$.projects[0].credentials[0].roleNameList'],
    ['a credential address that is not an IP or CIDR range', JSON.stringify((() => { const b = base(); b.projects[0].credentials[0].ipList = ['10.0.0.300']; return b })()), '$.projects[0].credentials[0].ipList[0]'],
    ['a worker URL that is not a URL', JSON.stringify({ environments: [{ name: 'dev', workerUrls: ['not a url'] }] }), '$.environments[0].workerUrls[0]'],
  ])('refuses %s naming the JSON path of the first problem', async (_case, text, path) => {
    // in memory, and as start-up reads a file: as a stream
    const file = path_.join(fs.mkdtempSync(path_.join(os.tmpdir(), 'gw-bootstrap-')), 'bootstrap.json')
    fs.writeFileSync(file, text)
    for (const read of [async () => parseBootstrap(text), () => readBootstrapFile(file)]) {
      try {
        await read()
        expect.unreachable('should have been refused')
      } catch (err) {
        expect(err).toBeInstanceOf(BootstrapError)
        expect((err as BootstrapError).jsonPath.startsWith(path)).toBe(true)
        expect((err as Error).message.startsWith(path)).toBe(true)
      }
    }
    fs.rmSync(path_.dirname(file), { recursive: true, force: true })
  })

  it.each([
    ['an unknown environment of a project', (b: any) => (b.projects[0].environments = ['dev', 'staging']), '$.projects[0]', /Environment 'staging' not found/],
    ['an unknown member', (b: any) => (b.projects[0].members[0].username = 'ghost'), '$.projects[0].members[0]', /User 'ghost' not found/],
    ['an unknown parent organization', (b: any) => (b.projects[0].organizations[1].parentCode = 'nope'), '$.projects[0].organizations[1]', /Organization 'nope' not found/],
    ['an unknown consumer of an application', (b: any) => (b.projects[0].applications[0].consumers = ['ghost']), '$.projects[0].applications[0]', /Credential 'ghost' not found/],
    // the applications are written set-based: the first refused one in file order is named, after a good one
    ['an unknown consumer of a later application', (b: any) => b.projects[0].applications.push({ name: 'second-app', consumers: [] }, { name: 'third-app', consumers: ['ghost'] }, { name: 'fourth-app', organizationCode: 'nope' }), '$.projects[0].applications[2]', /Credential 'ghost' not found/],
    ['an unknown organization of a credential', (b: any) => (b.projects[0].credentials[1].organizationCode = 'nope'), '$.projects[0].credentials[1]', /Organization 'nope' not found/],
    ['a credential username used twice', (b: any) => (b.projects[1].credentials = [{ username: 'shop-frontend' }]), '$.projects[1].credentials[0]', /Credential username 'shop-frontend' is already taken/],
  ])('refuses start-up for %s, names the path, and writes nothing', async (_case, mutate, path, message) => {
    const bootstrap = base()
    mutate(bootstrap)
    const db = await freshDatabase()
    try {
      // one refused start (the real start path) answers both: the error's class and its message
      const refusal = startTestService({ bootstrap, db })
      await expect(refusal).rejects.toThrow(BootstrapError)
      await expect(refusal).rejects.toThrow(new RegExp(`^${path.replace(/[[\].$]/g, '\\$&')}: ${message.source}`))
      const ok = await startTestService({ db })
      try {
        // nothing of the refused file; the one user is the first-run admin of a start without users (issue 18 §1)
        expect((await ok.deps.prisma.user.findMany({ select: { username: true } })).map((u) => u.username)).toEqual(['admin'])
        expect(await ok.deps.prisma.environment.count()).toBe(0)
        expect(await ok.deps.prisma.project.count()).toBe(1)
      } finally {
        await ok.close()
      }
    } finally {
      await db.cleanup()
    }
  })
})
