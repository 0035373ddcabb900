import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// Issue 29 for the `apiProxyGroups` collection, written through the groups service: description, client route and
// members by proxy name. Round trip (0 changes against itself, a copy into a new project lists the same), an invalid
// object (field path, nothing written), a sync that deletes only what its namespace owns, audit once per change.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const base = '/apiops/projects/payments'

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const plan = (document: unknown, mode = 'apply', project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans`, { mode, document })
const apply = (id: string, project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans/${id}/apply`)
/** groups with description, client route and member names, read from the database */
const groups = async (project: string) =>
  (await bed.svc.deps.prisma.apiProxyGroup.findMany({ where: { project: { name: project } }, include: { proxies: { select: { name: true }, orderBy: { name: 'asc' } } }, orderBy: { name: 'asc' } }))
    .map((g) => ({ name: g.name, description: g.description, clientRoute: g.clientRoute, members: g.proxies.map((p) => p.name) }))

beforeAll(async () => {
  for (const name of ['ledger', 'invoices']) {
    const made = await call('POST', `${base}/apiProxies/url/`, { apiProxyName: name, apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: [`/${name}`] } })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
  }
  const group = await call('POST', `${base}/apiProxyGroups/`, { name: 'finance', description: 'money', clientRoute: { relativePathList: ['/finance'], methodList: ['GET'] } })
  expect(group.status, JSON.stringify(group.body)).toBe(200)
  for (const proxy of ['ledger', 'invoices']) expect((await call('POST', `${base}/apiProxyGroups/finance/apiProxies/${proxy}/`)).status).toBe(200)
})

describe('API proxy groups as a declarative collection', { timeout: 180_000 }, () => {
  it('dumps groups with their members, plans the dump to 0 changes, and syncs them into a new project', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=apiProxies,apiProxyGroups`)
    expect(dump.status).toBe(200)
    const finance = dump.body.apiProxyGroups.find((g: any) => g.name === 'finance')
    expect(finance).toEqual({ name: 'finance', description: 'money', clientRoute: expect.objectContaining({ relativePathList: ['/finance'], methodList: ['GET'] }), apiProxies: ['invoices', 'ledger'] })
    const self = await plan(dump.body, 'sync')
    expect(self.status, JSON.stringify(self.body)).toBe(200)
    expect(self.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    // a client route written as the pages take it (defaults left out) is no drift
    expect((await plan({ formatVersion: 1, project: 'payments', apiProxyGroups: [{ name: 'finance', clientRoute: { relativePathList: ['/finance'], methodList: ['GET'] } }] })).body.changes).toEqual([])

    const created = await bed.svc.graphql('mutation { createProject(input: { name: "groups-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    expect(created.body.errors).toBeUndefined()
    const proxies = dump.body.apiProxies.filter((p: any) => ['ledger', 'invoices'].includes(p.name))
    const copy = await plan({ formatVersion: 1, project: 'groups-copy', apiProxies: proxies, apiProxyGroups: [finance] }, 'sync', 'groups-copy')
    expect(copy.status, JSON.stringify(copy.body)).toBe(200)
    expect(copy.body.changes.map((c: any) => [c.type, c.name])).toEqual([['apiProxies', 'invoices'], ['apiProxies', 'ledger'], ['apiProxyGroups', 'finance']])
    const applied = await apply(copy.body.id, 'groups-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(await groups('groups-copy')).toEqual((await groups('payments')).filter((g) => g.name === 'finance'))
  })

  it('edits members and description in one update, audited once with the plan id', async () => {
    const p = await plan({ formatVersion: 1, project: 'payments', apiProxyGroups: [{ name: 'finance', description: 'money v2', apiProxies: ['ledger'] }] })
    expect(p.body.changes).toEqual([expect.objectContaining({ action: 'update', type: 'apiProxyGroups', name: 'finance', fields: ['apiProxies', 'description'] })])
    expect((await apply(p.body.id)).status).toBe(200)
    expect((await groups('payments')).find((g) => g.name === 'finance')).toMatchObject({ description: 'money v2', members: ['ledger'] })
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: p.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectType: 'apiProxyGroups', objectName: 'finance', declarativeAction: 'update' }])
  })

  it('refuses invalid objects with their field paths, nothing written', async () => {
    const before = await groups('payments')
    const shape = await plan({ formatVersion: 1, project: 'payments', apiProxyGroups: [{ name: 'g', clientRoute: { relativePathList: [] } }] })
    expect(shape.status).toBe(400)
    expect(shape.body.params).toMatchObject({ reason: 'declarativeDocumentInvalid', field: 'document.apiProxyGroups[0].clientRoute.relativePathList' })
    const many = Array.from({ length: 15 }, (_, i) => ({ name: `bulk-${i}`, clientRoute: { relativePathList: [`/bulk-${i}`] } }))
    const p = await plan({ formatVersion: 1, project: 'payments', apiProxyGroups: [...many, { name: 'no-route' }, { name: 'ghost', clientRoute: { relativePathList: ['/ghost'] }, apiProxies: ['ledger', 'nowhere'] }] })
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    const applied = await apply(p.body.id)
    expect(applied.status).toBe(400)
    expect(applied.body.params.errors.map((e: any) => [e.path, e.reason])).toEqual([
      ['apiProxyGroups[15].clientRoute', expect.any(String)],
      ['apiProxyGroups[16].apiProxies[1]', 'declarativeReferenceMissing'],
    ])
    expect(await groups('payments')).toEqual(before)
  })

  it('a sync deletes only the groups its namespace owns; the proxies stay', async () => {
    const owned = { formatVersion: 1, project: 'payments', namespace: 'team-g', apiProxyGroups: [{ name: 'team-group', clientRoute: { relativePathList: ['/team'] }, apiProxies: ['invoices'] }] }
    const created = await plan(owned, 'sync')
    expect(created.body.summary).toEqual({ create: 1, update: 0, delete: 0 })
    expect((await apply(created.body.id)).status).toBe(200)
    const emptied = await plan({ ...owned, apiProxyGroups: [] }, 'sync')
    expect(emptied.body.changes).toEqual([{ action: 'delete', type: 'apiProxyGroups', name: 'team-group', fields: [], details: [] }])
    expect((await apply(emptied.body.id)).status).toBe(200)
    expect((await groups('payments')).map((g) => g.name)).not.toContain('team-group')
    expect((await groups('payments')).map((g) => g.name)).toContain('finance')
    expect(await bed.svc.deps.prisma.apiProxy.count({ where: { name: 'invoices', project: { name: 'payments' } } })).toBe(1)
  })
})
