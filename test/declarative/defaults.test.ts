import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// Issue 29 §3 "no false drift": defaults are filled by the server on both sides. A create lists only what the file
// says; a file that leaves a defaulted field out neither shows it changed nor resets a stored value; a dump planned
// against its own project has zero changes, also after objects were created with defaults left out.

const bed = useTestbed({ tokens: { root: 's3cret-root' } })

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const plan = (document: unknown, mode = 'apply') => call('POST', '/apiops/projects/payments/declarative-plans', { mode, document })
const apply = (id: string) => call('POST', `/apiops/projects/payments/declarative-plans/${id}/apply`)
const doc = (credentials: unknown[]) => ({ formatVersion: 1, project: 'payments', credentials })

describe('no false drift', { timeout: 180_000 }, () => {
  it('a create shows only the file\'s fields, defaults are not drift, and a dump plans to zero changes', async () => {
    const created = await plan(doc([{ username: 'minimal-app', fullName: 'Minimal' }]))
    expect(created.status).toBe(200)
    expect(created.body.changes).toEqual([{ action: 'create', type: 'credentials', name: 'minimal-app', fields: ['fullName'], details: [{ field: 'fullName', after: 'Minimal' }] }])
    expect((await apply(created.body.id)).status).toBe(200)

    // the server filled the defaults: the stored credential is enabled, with no IP list
    const stored = (await call('GET', '/apiops/projects/payments/credentials/')).body.resultList.find((c: any) => c.username === 'minimal-app')
    expect(stored).toMatchObject({ username: 'minimal-app', fullName: 'Minimal', enabled: true, ipList: [] })

    // the same file again: nothing to change
    expect((await plan(doc([{ username: 'minimal-app', fullName: 'Minimal' }]))).body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })

    // a REST edit of a defaulted field is kept by a file that leaves the field out (no reset, no change listed)
    expect((await call('PUT', '/apiops/projects/payments/credentials/', { username: 'minimal-app', fullName: 'Minimal', email: 'minimal@example.test', enabled: false })).status).toBe(200)
    const kept = await plan(doc([{ username: 'minimal-app', fullName: 'Minimal' }]))
    expect(kept.body.changes).toEqual([])
    // a file that says it lists exactly that field
    const named = await plan(doc([{ username: 'minimal-app', fullName: 'Minimal', enabled: true }]))
    expect(named.body.changes).toEqual([{ action: 'update', type: 'credentials', name: 'minimal-app', fields: ['enabled'], details: [{ field: 'enabled', before: false, after: true }] }])

    // the dump of the whole project planned against itself, in sync mode: zero changes
    const dump = await call('GET', '/apiops/projects/payments/declarative-state')
    expect(dump.status).toBe(200)
    const again = await plan(dump.body, 'sync')
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
  })

  it('endpoints stated by method and path are no drift once created; the second sync of the file writes nothing', async () => {
    // out of the stored order, fields the endpoint rules fill (kind, operationId, path parameters, backend) left out
    // a sync in a namespace of its own (it deletes only what the namespace owns)
    const file = {
      formatVersion: 1, project: 'payments', namespace: 'endpoints-team',
      apiProxies: [{ name: 'decl-endpoints', endpoints: [{ method: 'POST', path: '/orders' }, { method: 'GET', path: '/orders/{id}', description: 'one order' }, { method: 'GET', path: '/orders' }] }],
    }
    const created = await plan(file, 'sync')
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body.summary).toEqual({ create: 1, update: 0, delete: 0 })
    const applied = await apply(created.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const endpoints = (await bed.svc.deps.prisma.gatewayEndpoint.findMany({ where: { apiProxy: { name: 'decl-endpoints' } }, orderBy: [{ path: 'asc' }, { method: 'asc' }] }))
    expect(endpoints.map((e) => [e.method, e.path, e.operationId, e.backendPath])).toEqual([
      ['GET', '/orders', 'get_orders', '/orders'], ['POST', '/orders', 'post_orders', '/orders'], ['GET', '/orders/{id}', 'get_orders_id', '/orders/{id}'],
    ])

    const db = bed.svc.deps.prisma
    const writes = async () => ({ audit: await db.auditEvent.count(), outbox: await db.deliveryOutbox.count(), revision: (await db.apiProxy.findFirstOrThrow({ where: { name: 'decl-endpoints' } })).revision })
    const before = await writes()
    const second = await plan(file, 'sync')
    expect(second.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    const none = await apply(second.body.id)
    expect(none.status).toBe(200)
    expect(none.body).toMatchObject({ applied: false, pushes: [], summary: { create: 0, update: 0, delete: 0 } })
    expect(await writes()).toEqual(before)

    // a changed endpoint is a change of the proxy's endpoints, and nothing else
    const edited = await plan({ ...file, apiProxies: [{ ...file.apiProxies[0], endpoints: [...file.apiProxies[0]!.endpoints.slice(0, 2), { method: 'GET', path: '/orders', enabled: false }] }] }, 'sync')
    expect(edited.body.changes.map((c: any) => [c.action, c.name, c.fields])).toEqual([['update', 'decl-endpoints', ['endpoints']]])
  })
})
