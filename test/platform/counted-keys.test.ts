// A filtered list's keys and total in one statement (issue 19 §3): the SQL written from a Prisma where clause
// selects exactly what Prisma selects, in Prisma's order, and any where shape it does not know is refused.
import { describe, expect, it } from 'vitest'
import { countedKeys, whereSql } from '../../src/platform/db/counted-keys.js'
import { mintPublicKey } from '../../src/platform/keys.js'
import { containsText, type OrderBy } from '../../src/platform/envelopes/paging.js'
import { freshProject, useIdentityTestbed, unique } from '../support/identity.js'

const bed = useIdentityTestbed()
const db = () => bed.svc.deps.prisma

describe('countedKeys', () => {
  it('reads the same keys in the same order and the same total as findMany and count, for every where shape the lists use', async () => {
    const p = await freshProject(bed.svc)
    const tag = unique('ck')
    const names = ['Ann Major', null, 'bob 50% off', 'Carl_Ho', 'ann minor', 'Dora', null, 'back\\slash']
    await db().credential.createMany({
      data: names.map((fullName, i) => ({ projectId: p.id, username: `${tag}-${i}`, consumerKey: mintPublicKey('csm'), fullName, enabled: i % 3 !== 0 })),
    })
    const wheres: object[] = [
      { projectId: p.id },
      { projectId: p.id, enabled: true },
      { projectId: p.id, OR: [{ username: containsText('-1') }, { fullName: containsText('ANN') }] },
      { projectId: p.id, fullName: containsText('0% ') },
      { projectId: p.id, fullName: containsText('_') },
      { projectId: p.id, fullName: containsText('\\') },
      { projectId: p.id, fullName: null },
      { projectId: p.id, username: { in: [`${tag}-2`, `${tag}-5`, 'nobody'] } },
      { projectId: p.id, username: { in: [] } },
      { projectId: p.id, username: { equals: `${tag}-7` } },
      { projectId: p.id, AND: [{ enabled: false }, { OR: [{ username: `${tag}-3` }, { username: `${tag}-6` }] }] },
      { projectId: p.id, OR: [{ enabled: false }, { fullName: containsText('dora') }] },
    ]
    const orders: OrderBy[] = [[{ username: 'asc' }], [{ fullName: 'desc' }, { username: 'asc' }], [{ enabled: 'asc' }, { username: 'desc' }]]
    for (const where of wheres) {
      for (const orderBy of orders) {
        const expected = (await db().credential.findMany({ where, orderBy, select: { username: true } })).map((c) => c.username)
        const all = await countedKeys(db(), { table: 'Credential', key: 'username', where, orderBy, skip: 0, take: 100 })
        expect(all, JSON.stringify({ where, orderBy })).toEqual({ keys: expected, total: expected.length ? expected.length : undefined })
        const window = await countedKeys(db(), { table: 'Credential', key: 'username', where, orderBy, skip: 1, take: 2 })
        expect(window).toEqual({ keys: expected.slice(1, 3), total: expected.length > 1 ? expected.length : undefined })
      }
    }
  })

  it('refuses a where shape it cannot write, and a name that is not a column', () => {
    for (const where of [{ username: { startsWith: 'a' } }, { NOT: { enabled: true } }, { project: { name: 'x' } }, { username: { contains: 'a' } }, { createdAt: new Date() }, { OR: [] }, { AND: [] }]) {
      expect(() => whereSql(where), JSON.stringify(where)).toThrow(/unsupported condition/)
    }
    expect(() => whereSql({ 'x" OR 1=1 --': 'a' })).toThrow(/not a column name/)
  })
})
