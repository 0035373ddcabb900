import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// A deleted API client is undeployed from the environments of its project, whichever delete removed it: the GraphQL
// deleteApiClient and deleteApplication (its clients go with it), a declarative sync that deletes its application or
// consumer, an application's declared list that leaves it out. The push goes after the commit; an environment that
// does not acknowledge it gets it from the retry outbox, as the other deletes' undeploys.

// The outbox's own poll never comes during the file (10 minutes): the test delivers the retry with the service's
// deliverer (svc.outbox.runOnce) once the worker answers 200 again. A live poll could take the retry while the worker
// still answers 500, or record it before the test clears what the worker received and answer it after: a wait for
// it then had only a deadline to end it, and missed under load.
const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' }, env: { OUTBOX_POLL_INTERVAL_MS: '600000' } })
const base = '/apiops/projects/payments'

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const plan = (document: unknown, mode = 'apply') => call('POST', `${base}/declarative-plans`, { mode, document })
const apply = (id: string) => call('POST', `${base}/declarative-plans/${id}/apply`)
const gql = async (query: string) => {
  const res = await bed.svc.graphql(query, {}, bed.root)
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined()
  return res.body.data as any
}

const undeploysOf = (clientId: string) => bed.dev.received.filter((m) => m.kind === 'API_CLIENT' && m.name === clientId && m.action === 'UNDEPLOY')

/** An application with ACTIVE clients, pushed to dev. */
async function appWithClients(name: string, clientIds: string[], consumer?: string) {
  await gql(`mutation { createApplication(projectName: "payments", input: { name: "${name}" }) { name } }`)
  for (const clientId of clientIds) {
    const made = await call('POST', '/api/api-clients', { projectName: 'payments', name: clientId, clientId, ...(consumer ? { consumerUsername: consumer } : { applicationName: name }) })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect((await call('POST', `/api/api-clients/${made.body.apiClient.apiClientKey}/actions/activate`, {})).status).toBe(200)
  }
  expect(bed.dev.received.some((m) => m.kind === 'API_CLIENT' && m.name === clientIds[0] && m.action === 'DEPLOY')).toBe(true)
}

beforeAll(async () => {
  const made = await call('POST', `${base}/credentials/`, { username: 'undeploy-consumer', password: 'undeploy-pw-1', fullName: 'c', email: 'c@example.test', roleNameList: [] })
  expect(made.status, JSON.stringify(made.body)).toBe(200)
})

describe('a deleted API client is undeployed', { timeout: 120_000 }, () => {
  it('by the GraphQL deleteApiClient and deleteApplication', async () => {
    await appWithClients('del-gql', ['del-gql-1', 'del-gql-2'])
    const key = (await bed.svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { clientId: 'del-gql-1' } })).apiClientKey
    expect(undeploysOf('del-gql-1')).toEqual([])
    expect((await gql(`mutation { deleteApiClient(projectName: "payments", apiClientKey: "${key}") }`)).deleteApiClient).toBe(true)
    expect(undeploysOf('del-gql-1')).toEqual([expect.objectContaining({ project: 'payments', config: expect.objectContaining({ clientId: 'del-gql-1', apiClientKey: key }) })])

    expect((await gql('mutation { deleteApplication(projectName: "payments", name: "del-gql") }')).deleteApplication).toBe(true)
    expect(undeploysOf('del-gql-2')).toHaveLength(1)
    expect(await bed.svc.deps.prisma.apiClient.count({ where: { clientId: { startsWith: 'del-gql' } } })).toBe(0)
  })

  it('by a sync that deletes the application, and by a declared list that leaves the client out', async () => {
    await appWithClients('del-sync', ['del-sync-1'])
    await appWithClients('del-list', ['del-list-keep', 'del-list-drop'])
    // apply mode: the application's list is whole, the client it leaves out is deleted and undeployed
    const listed = await plan({ formatVersion: 1, project: 'payments', applications: [{ name: 'del-list', apiClients: [{ clientId: 'del-list-keep', name: 'del-list-keep' }] }] })
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    const a = await apply(listed.body.id)
    expect(a.status, JSON.stringify(a.body)).toBe(200)
    expect(a.body.pushFailed).toBe(false)
    expect(undeploysOf('del-list-drop')).toHaveLength(1)
    expect(undeploysOf('del-list-keep')).toEqual([])

    // sync of the application collection without del-sync (the others listed as they are)
    const dump = await call('GET', `${base}/declarative-state?collections=applications`)
    const doc = { ...dump.body, applications: dump.body.applications.filter((x: any) => x.name !== 'del-sync') }
    const p = await plan(doc, 'sync')
    expect(p.body.changes).toEqual([expect.objectContaining({ action: 'delete', type: 'applications', name: 'del-sync' })])
    const s = await apply(p.body.id)
    expect(s.status, JSON.stringify(s.body)).toBe(200)
    expect(s.body.pushes).toEqual([{ type: 'applications', name: 'del-sync', success: true }])
    expect(undeploysOf('del-sync-1')).toHaveLength(1)
  })

  it('by a sync that deletes the consumer owning it', async () => {
    const made = await call('POST', '/api/api-clients', { projectName: 'payments', name: 'consumer-client', clientId: 'consumer-client', consumerUsername: 'undeploy-consumer' })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const dump = await call('GET', `${base}/declarative-state?collections=credentials`)
    const p = await plan({ ...dump.body, credentials: dump.body.credentials.filter((c: any) => c.username !== 'undeploy-consumer') }, 'sync')
    expect(p.body.changes.map((c: any) => [c.action, c.name])).toEqual([['delete', 'undeploy-consumer']])
    const s = await apply(p.body.id)
    expect(s.status, JSON.stringify(s.body)).toBe(200)
    expect(s.body.pushFailed).toBe(false)
    expect(undeploysOf('consumer-client')).toHaveLength(1)
    expect(bed.dev.received.some((m) => m.kind === 'CREDENTIAL' && m.name === 'undeploy-consumer' && m.action === 'UNDEPLOY')).toBe(true)
  })

  it('an environment that does not acknowledge the undeploy gets it from the outbox', async () => {
    await appWithClients('del-retry', ['del-retry-1'])
    const id = (await bed.svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { clientId: 'del-retry-1' } })).id
    bed.dev.status = 500
    const dump = await call('GET', `${base}/declarative-state?collections=applications`)
    const p = await plan({ ...dump.body, applications: dump.body.applications.filter((x: any) => x.name !== 'del-retry') }, 'sync')
    const s = await apply(p.body.id)
    expect(s.status, JSON.stringify(s.body)).toBe(200)
    expect(s.body.pushFailed).toBe(true)
    expect(s.body.pushes).toEqual([{ type: 'applications', name: 'del-retry', success: false, message: expect.stringContaining('retried by the outbox') }])
    const rows = await bed.svc.deps.prisma.deliveryOutbox.findMany({ where: { subject: { startsWith: `apiClient:${id}:` } } })
    expect(rows).toEqual([expect.objectContaining({ environmentName: 'dev', message: expect.objectContaining({ action: 'UNDEPLOY', kind: 'API_CLIENT', name: 'del-retry-1' }) })])
    expect(rows[0]!.deliveredAt).toBeNull()
    bed.dev.received.length = 0
    bed.dev.status = 200
    expect(await bed.svc.outbox.runOnce()).toBeGreaterThanOrEqual(1)
    expect(undeploysOf('del-retry-1')).toEqual([expect.objectContaining({ project: 'payments', config: expect.objectContaining({ clientId: 'del-retry-1' }) })])
    expect((await bed.svc.deps.prisma.deliveryOutbox.findUniqueOrThrow({ where: { id: rows[0]!.id } })).deliveredAt).not.toBeNull()
  })
})
