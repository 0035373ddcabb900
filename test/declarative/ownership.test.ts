import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// Issue 29 "ownership": a file with a namespace owns only the objects it created or updated; its sync deletes only
// those, in the collections it lists; another namespace cannot update them. A file without namespace owns every object.

const bed = useTestbed({ tokens: { root: 's3cret-root' } })

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json()) as any }
}
const plan = (document: unknown, mode = 'sync') => call('POST', '/apiops/projects/payments/declarative-plans', { mode, document })
const apply = (id: string) => call('POST', `/apiops/projects/payments/declarative-plans/${id}/apply`)
const doc = (namespace: string | undefined, ipGroups: unknown[]) => ({ formatVersion: 1, project: 'payments', ...(namespace ? { namespace } : {}), ipGroups })

describe('namespace ownership', { timeout: 180_000 }, () => {
  it('syncs only what a namespace owns, refuses updating another namespace\'s object, and marks owned objects managedBy', async () => {
    const a = await plan(doc('team-a', [{ name: 'a-ips', ips: ['10.1.0.0/16'] }]))
    expect(a.body.changes.map((c: any) => [c.action, c.name])).toEqual([['create', 'a-ips']]) // office-ips (unowned) is left alone
    expect((await apply(a.body.id)).status).toBe(200)
    const b = await plan(doc('team-b', [{ name: 'b-ips', ips: ['10.2.0.0/16'] }]))
    expect(b.body.changes.map((c: any) => [c.action, c.name])).toEqual([['create', 'b-ips']]) // a-ips belongs to team-a
    expect((await apply(b.body.id)).status).toBe(200)

    const steal = await plan(doc('team-b', [{ name: 'b-ips', ips: ['10.2.0.0/16'] }, { name: 'a-ips', ips: ['0.0.0.0/0'] }]))
    expect(steal.status).toBe(400)
    expect(steal.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'declarativeOwnershipConflict', errors: [{ path: 'ipGroups[1]' }] } })

    const dump = await call('GET', '/apiops/projects/payments/declarative-state?collections=ipGroups')
    expect(dump.body.ipGroups.map((g: any) => [g.name, g.managedBy ?? null])).toEqual([['a-ips', 'team-a'], ['b-ips', 'team-b'], ['office-ips', null]])
    const onlyA = await call('GET', '/apiops/projects/payments/declarative-state?namespace=team-a')
    expect(onlyA.body).toMatchObject({ namespace: 'team-a', ipGroups: [{ name: 'a-ips' }] })

    // team-a's sync with an empty list deletes its own object only
    const empty = await plan(doc('team-a', []))
    expect(empty.body.changes.map((c: any) => [c.action, c.name])).toEqual([['delete', 'a-ips']])
    // apply mode never deletes
    expect((await plan(doc('team-a', []), 'apply')).body.changes).toEqual([])
    // a file without namespace owns the whole collection
    const all = await plan(doc(undefined, [{ name: 'office-ips', ips: ['10.0.0.0/8'] }]))
    expect(all.body.changes.map((c: any) => [c.action, c.name]).sort()).toEqual([['delete', 'a-ips'], ['delete', 'b-ips']])
    // collections the file does not list are never touched
    expect((await plan({ formatVersion: 1, project: 'payments', namespace: 'team-a' })).body).toMatchObject({ collections: [], changes: [] })
  })
})
