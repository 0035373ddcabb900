import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { declarativeDoors } from './support.js'

// Issue 29 §7: a plan reads a large collection a page of 1,000 at a time (compare.ts). Across page boundaries the
// plan must be the one a whole-collection comparison gives: an edit on a later page, a rename whose old name is on
// the first page and new name past it, a delete on the last page, the changes in the file's order, the deletes in
// name order; its baseRevision must be the digest the apply computes in one read (no false stale plan), and a change
// between plan and apply on a later page still makes the plan stale (409, nothing written).

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const N = 2_100
const username = (i: number) => `paged-${String(i).padStart(5, '0')}`
const credentials = (n: number) => Array.from({ length: n }, (_, i) => ({ username: username(i), fullName: `Paged ${i}`, email: `p${i}@example.test`, enabled: true }))
const doc = (creds: unknown[]) => ({ formatVersion: 1, project: 'payments', environments: ['dev'], credentials: creds })

describe('a plan over more than one page of live objects', { timeout: 600_000 }, () => {
  it('plans, applies and refuses a stale plan as a whole-collection read would', async () => {
    const { plan, apply, call } = declarativeDoors(bed)
    const created = await plan(doc(credentials(N)), 'sync')
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(200)
    expect(created.body.summary).toMatchObject({ create: N, update: 0 }) // and the testbed's own credentials deleted
    expect((await apply(created.body.id)).status).toBe(200)

    const same = await plan(doc(credentials(N)), 'sync')
    expect(same.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    // the plan's digest is the apply's (read in one go inside its transaction): a no-change plan applies, not stale
    const sameApplied = await apply(same.body.id)
    expect(sameApplied.status, JSON.stringify(sameApplied.body)).toBe(200)
    expect(sameApplied.body.applied).toBe(false)

    // an edit on the third page, a rename from the first page to a name past every page, the last one left out
    const edited = credentials(N - 1)
    edited[1_500] = { ...edited[1_500]!, fullName: 'Edited' }
    edited[3] = { ...edited[3]!, username: 'paged-zz-renamed', renamedFrom: username(3) } as (typeof edited)[number]
    const changed = await plan(doc(edited), 'sync')
    expect(changed.status, JSON.stringify(changed.body).slice(0, 500)).toBe(200)
    expect(changed.body.changes.map((c: any) => [c.action, c.name, c.renamedFrom ?? null, c.fields])).toEqual([
      ['update', 'paged-zz-renamed', username(3), ['username']],
      ['update', username(1_500), null, ['fullName']],
      ['delete', username(N - 1), null, []],
    ])

    // someone edits a credential on the second page between plan and apply: stale, nothing written
    const put = await call('PUT', '/apiops/projects/payments/credentials/', { username: username(1_200), fullName: 'Changed by REST', email: 'p1200@example.test' })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    const stale = await apply(changed.body.id)
    expect(stale.status).toBe(409)
    expect(JSON.stringify(stale.body)).toContain('declarativePlanStale')
    const db = bed.svc.deps.prisma
    expect(await db.credential.count({ where: { project: { name: 'payments' }, username: { startsWith: 'paged-' } } })).toBe(N)
    expect(await db.credential.findUnique({ where: { username: username(3) }, select: { username: true } })).not.toBeNull()

    const again = await plan(doc(edited), 'sync')
    const applied = await apply(again.body.id)
    expect(applied.status, JSON.stringify(applied.body).slice(0, 500)).toBe(200)
    expect(applied.body.summary).toEqual({ create: 0, update: 3, delete: 1 })
    expect(await db.credential.findUnique({ where: { username: 'paged-zz-renamed' }, select: { fullName: true } })).toEqual({ fullName: `Paged 3` })
    expect((await plan(doc(edited), 'sync')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })
})
