import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// Issue 29 §1–§4 for the `applications` collection: an application with its consumers (credentials, by username) and
// its API clients (by clientId) nested, written through the identity and API client services. A dump has no secret and
// plans against its project to zero changes; it syncs into a new project and the lists match; an invalid object is
// refused with its field path and nothing written; a sync deletes only what its namespace owns; each change is audited
// once with the plan id; a declared client keeps its secret.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const base = '/apiops/projects/payments'

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const plan = (document: unknown, mode = 'apply', project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans`, { mode, document })
const apply = (id: string, project = 'payments') => call('POST', `/apiops/projects/${project}/declarative-plans/${id}/apply`)
const gql = async (query: string) => {
  const res = await bed.svc.graphql(query, {}, bed.root)
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined()
  return res.body.data as any
}

/** applications of a project with their consumers and clients, read through the REST list and sub-resources */
async function applications(project: string) {
  const list = await call('GET', `/apiops/projects/${project}/applications?size=100`)
  expect(list.status).toBe(200)
  const out = []
  for (const a of list.body.items) {
    const clients = await call('GET', `/apiops/projects/${project}/applications/${a.applicationKey}/api-clients`)
    const consumers = await bed.svc.deps.prisma.credential.findMany({ where: { application: { applicationKey: a.applicationKey } }, select: { username: true }, orderBy: { username: 'asc' } })
    out.push({
      name: a.name, applicationKind: a.applicationKind, description: a.description, referenceId: a.referenceId, organizationCode: a.organizationCode,
      consumers: consumers.map((c) => c.username),
      apiClients: clients.body.map((c: any) => ({ clientId: c.clientId, name: c.name, validFrom: c.validFrom, expiresAt: c.expiresAt })).sort((x: any, y: any) => x.clientId.localeCompare(y.clientId)),
    })
  }
  return out.sort((x, y) => x.name.localeCompare(y.name))
}
const counts = async () => {
  const db = bed.svc.deps.prisma
  return { applications: await db.application.count(), apiClients: await db.apiClient.count(), audit: await db.auditEvent.count({ where: { declarativePlanId: { not: null } } }) }
}

beforeAll(async () => {
  for (const username of ['orders-web', 'orders-batch']) {
    const made = await call('POST', `${base}/credentials/`, { username, password: `${username}-pw-1`, fullName: username, email: `${username}@example.test`, roleNameList: [] })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
  }
  await gql('mutation { createApplication(projectName: "payments", input: { name: "orders", applicationKind: \"PORTAL\", description: "order intake", referenceId: "REF-7", consumers: ["orders-web", "orders-batch"] }) { name } }')
  const client = await call('POST', '/api/api-clients', {
    projectName: 'payments', name: 'orders backend', clientId: 'orders-backend', applicationName: 'orders',
    expiresAt: '2031-01-01T00:00:00Z', allowedGrantTypes: ['client_credentials'], tokenExpiresInAmount: 30, tokenExpiresInUnit: 'MINUTES',
  })
  expect(client.status, JSON.stringify(client.body)).toBe(200)
  expect(client.body.clientSecret).toMatch(/^acs_/)
})

describe('applications as a declarative collection', { timeout: 180_000 }, () => {
  it('dumps applications with consumers and API clients and no secret; the dump plans to 0 changes and syncs into a new project', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=credentials,applications`)
    expect(dump.status).toBe(200)
    expect(JSON.stringify(dump.body)).not.toMatch(/acs_|pw-1|apiClientKey|applicationKey/)
    // the testbed's seed has an application of its own (checkout): its dump plans to zero changes as well
    expect(dump.body.applications.find((a: any) => a.name === 'orders')).toEqual({
      name: 'orders', applicationKind: 'PORTAL', description: 'order intake', referenceId: 'REF-7', organizationCode: null,
      consumers: ['orders-batch', 'orders-web'],
      apiClients: [expect.objectContaining({ clientId: 'orders-backend', name: 'orders backend', validFrom: null, expiresAt: '2031-01-01T00:00:00.000Z', allowedGrantTypes: ['client_credentials'], tokenExpiresInAmount: 30, tokenExpiresInUnit: 'MINUTES', tokenNeverExpires: null })],
    })
    const self = await plan(dump.body, 'sync')
    expect(self.status, JSON.stringify(self.body)).toBe(200)
    expect(self.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })

    // a hand-written file that leaves a client's defaulted fields out is no drift either
    const minimal = { formatVersion: 1, project: 'payments', applications: [{ name: 'orders', apiClients: [{ clientId: 'orders-backend', name: 'orders backend', expiresAt: '2031-01-01T00:00:00Z', allowedGrantTypes: ['client_credentials'], tokenExpiresInAmount: 30, tokenExpiresInUnit: 'MINUTES' }] }] }
    expect((await plan(minimal)).body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })

    // into a new project: usernames and client ids are unique in the installation, so the copy renames them
    await gql('mutation { createProject(input: { name: "orders-copy", environments: ["dev"] }) { name } }')
    const only = { ...dump.body, project: 'orders-copy', applications: dump.body.applications.filter((a: any) => a.name === 'orders'), credentials: dump.body.credentials.filter((c: any) => c.username.startsWith('orders-')) }
    const text = JSON.stringify(only).replaceAll('orders-web', 'copy-web').replaceAll('orders-batch', 'copy-batch').replaceAll('orders-backend', 'copy-backend')
    const copy = JSON.parse(text)
    for (const c of copy.credentials) c.password = `${c.username}-pw-2`
    const p = await plan(copy, 'sync', 'orders-copy')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.summary).toEqual({ create: 3, update: 0, delete: 0 })
    expect(p.body.changes.map((c: any) => [c.type, c.name])).toEqual([['credentials', 'copy-batch'], ['credentials', 'copy-web'], ['applications', 'orders']])
    const applied = await apply(p.body.id, 'orders-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.pushFailed).toBe(false)

    const rename = (list: any[]) => JSON.parse(JSON.stringify(list).replaceAll('orders-web', 'copy-web').replaceAll('orders-batch', 'copy-batch').replaceAll('orders-backend', 'copy-backend'))
    expect(await applications('orders-copy')).toEqual(rename((await applications('payments')).filter((a) => a.name === 'orders')))
    // the new client has no secret yet: a plan never mints one it could not show
    const created = await bed.svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { clientId: 'copy-backend' }, include: { secrets: true } })
    expect(created).toMatchObject({ operationalState: 'DRAFT', readiness: 'PENDING_SECRET', secrets: [] })
    // the copy planned against itself: 0 changes
    const copyDump = await call('GET', '/apiops/projects/orders-copy/declarative-state?collections=credentials,applications')
    expect((await plan(copyDump.body, 'sync', 'orders-copy')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('is a transfer type of the one engine: an export preview of an application names its consumers as dependencies', async () => {
    const p = await call('POST', `${base}/transfer-export-previews`, { formatVersion: 1, type: 'APPLICATION', names: ['orders'], withDependencies: true })
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body).toMatchObject({ type: 'APPLICATION', objects: [{ type: 'APPLICATION', kind: null, name: 'orders' }] })
    expect(p.body.dependencies.map((d: any) => [d.type, d.name]).sort()).toEqual([['CREDENTIAL', 'orders-batch'], ['CREDENTIAL', 'orders-web']])
  })

  it('updates an application and its client through a plan: fields listed, the client keeps its secret, one audit event with the plan id', async () => {
    const secretsBefore = await bed.svc.deps.prisma.apiClientSecret.findMany({ where: { apiClient: { clientId: 'orders-backend' } }, select: { id: true, retiredAt: true } })
    expect(secretsBefore).toHaveLength(1)
    const doc = { formatVersion: 1, project: 'payments', applications: [{ name: 'orders', description: 'order intake v2', consumers: ['orders-web'], apiClients: [{ clientId: 'orders-backend', name: 'orders backend v2' }] }] }
    const p = await plan(doc)
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.changes).toEqual([expect.objectContaining({ action: 'update', type: 'applications', name: 'orders', fields: ['apiClients', 'consumers', 'description'] })])
    const applied = await apply(p.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const orders = (await applications('payments')).find((a) => a.name === 'orders')
    expect(orders).toMatchObject({ description: 'order intake v2', consumers: ['orders-web'], apiClients: [{ clientId: 'orders-backend', name: 'orders backend v2', expiresAt: null }] })
    expect(await bed.svc.deps.prisma.apiClientSecret.findMany({ where: { apiClient: { clientId: 'orders-backend' } }, select: { id: true, retiredAt: true } })).toEqual(secretsBefore)
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: p.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectType: 'applications', objectName: 'orders', declarativeAction: 'update' }])
    // the same file again: nothing to change, nothing written
    expect((await plan(doc)).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('refuses an invalid object, naming its field path, and writes nothing', async () => {
    const before = await counts()
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `bulk-${String(i).padStart(2, '0')}`, apiClients: [{ clientId: `bulk-client-${i}`, name: `bulk ${i}` }] }))
    // the file's shape: refused when planning
    const malformedDoc = { formatVersion: 1, project: 'payments', applications: [...many.slice(0, 10), { name: 'bad', apiClients: [{ clientId: 'has space', name: 'x' }] }] }
    const shape = await plan(malformedDoc)
    expect(shape.status).toBe(400)
    expect(shape.body.params).toMatchObject({ reason: 'declarativeDocumentInvalid', field: 'document.applications[10].apiClients[0].clientId' })
    // keys minted per installation are not in the file
    const minted = await plan({ formatVersion: 1, project: 'payments', applications: [{ name: 'bad', apiClients: [{ clientId: 'bad-1', name: 'x', apiClientKey: 'acl_x' }] }] })
    expect(minted.status).toBe(400)
    expect(minted.body.params.field).toBe('document.applications[0].apiClients[0]')

    // the services' rules: refused when applying, the whole plan, each refused object named
    const refused = { formatVersion: 1, project: 'payments', applications: [...many, { name: 'ghost-consumer', consumers: ['nobody-here'] }, { name: 'taken-client', apiClients: [{ clientId: 'copy-backend', name: 'taken' }] }, { name: 'bad-window', apiClients: [{ clientId: 'bad-window-1', name: 'w', validFrom: '2030-01-01T00:00:00Z', expiresAt: '2029-01-01T00:00:00Z' }] }] }
    const p = await plan(refused)
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.summary.create).toBe(33)
    const applied = await apply(p.body.id)
    expect(applied.status).toBe(400)
    expect(applied.body.params).toMatchObject({ reason: 'declarativeApplyRefused', field: 'applications[30].consumers[0]' })
    expect(applied.body.params.errors.map((e: any) => [e.path, e.reason])).toEqual([
      ['applications[30].consumers[0]', 'declarativeReferenceMissing'],
      ['applications[31].apiClients[0].clientId', 'nameAlreadyExists'],
      ['applications[32].apiClients[0].expiresAt', 'apiClient.validityWindow'],
    ])
    expect(await counts()).toEqual(before)
  })

  it('a sync deletes only the applications its namespace owns, and renames by renamedFrom', async () => {
    const owned = { formatVersion: 1, project: 'payments', namespace: 'team-a', applications: [{ name: 'team-a-app', apiClients: [{ clientId: 'team-a-client', name: 'a' }] }] }
    const created = await plan(owned, 'sync')
    expect(created.body.summary).toEqual({ create: 1, update: 0, delete: 0 })
    expect((await apply(created.body.id)).status).toBe(200)

    const renamed = await plan({ ...owned, applications: [{ ...owned.applications[0], name: 'team-a-renamed', renamedFrom: 'team-a-app' }] }, 'sync')
    expect(renamed.body.changes).toEqual([expect.objectContaining({ action: 'update', name: 'team-a-renamed', renamedFrom: 'team-a-app', fields: ['name'] })])
    expect((await apply(renamed.body.id)).status).toBe(200)
    const keyAfter = await bed.svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { clientId: 'team-a-client' }, include: { application: true } })
    expect(keyAfter.application?.name).toBe('team-a-renamed')

    const emptied = await plan({ ...owned, applications: [] }, 'sync')
    expect(emptied.body.changes).toEqual([{ action: 'delete', type: 'applications', name: 'team-a-renamed', fields: [], details: [] }])
    expect((await apply(emptied.body.id)).status).toBe(200)
    expect((await applications('payments')).map((a) => a.name)).toEqual(['checkout', 'orders'])
    expect(await bed.svc.deps.prisma.apiClient.findUnique({ where: { clientId: 'team-a-client' } })).toBeNull()
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: emptied.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectType: 'applications', objectName: 'team-a-renamed', declarativeAction: 'delete' }])
  })
})
