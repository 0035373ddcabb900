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
        // a versioned list (Credential) knows its total also past the end
        expect(all, JSON.stringify({ where, orderBy })).toEqual({ keys: expected, total: expected.length })
        const window = await countedKeys(db(), { table: 'Credential', key: 'username', where, orderBy, skip: 1, take: 2 })
        expect(window).toEqual({ keys: expected.slice(1, 3), total: expected.length })
        // a list without versions reads keys and total in one statement: no total past the end
        const once = await countedKeys(db(), { table: 'Credential', key: 'username', where: { ...where, projectId: { equals: p.id } }, orderBy, skip: 1, take: 2 })
        expect(once).toEqual({ keys: expected.slice(1, 3), total: expected.length > 1 ? expected.length : undefined })
      }
    }
  })

  it('walks the order\'s index for a search with many matches: the same windows, front, middle and back, as findMany', async () => {
    const p = await freshProject(bed.svc)
    const tag = unique('walk')
    // 2,000 consumers: 'common' in every 10th full name, 'rare' in 3, 'bunched' in the last 150 by username
    await db().credential.createMany({
      data: Array.from({ length: 2000 }, (_, i) => ({
        projectId: p.id, username: `${tag}-${String(i).padStart(4, '0')}`, consumerKey: mintPublicKey('csm'),
        fullName: `Person ${i}${i % 10 === 4 ? ' Common' : ''}${[5, 977, 1500].includes(i) ? ' Rare' : ''}${i >= 1850 ? ' Bunched' : ''}`, enabled: i % 7 !== 0,
      })),
    })
    const orders: OrderBy[] = [[{ username: 'asc' }], [{ fullName: 'desc' }, { username: 'desc' }], [{ enabled: 'desc' }, { username: 'asc' }]]
    for (const term of ['common', 'rare', 'bunched', 'person 1']) {
      for (const extra of [{}, { enabled: true }]) {
        const where = { projectId: p.id, ...extra, OR: [{ username: containsText(term) }, { fullName: containsText(term) }] }
        for (const orderBy of extra.enabled ? orders.slice(0, 1) : orders) {
          const expected = (await db().credential.findMany({ where, orderBy, select: { username: true } })).map((c) => c.username)
          for (const skip of [0, Math.floor(expected.length / 2), Math.max(0, expected.length - 25), expected.length + 5]) {
            const got = await countedKeys(db(), { table: 'Credential', key: 'username', where, orderBy, skip, take: 20, walkOrders: [['username'], ['fullName', 'username']] })
            expect(got, JSON.stringify({ term, extra, orderBy, skip })).toEqual({ keys: expected.slice(skip, skip + 20), total: expected.length })
          }
        }
      }
    }
  }, 180_000)

  it('reuses a counted total while the list\'s version holds, and counts again after any write that moves it', async () => {
    const p = await freshProject(bed.svc)
    const tag = unique('ver')
    await db().credential.createMany({
      data: Array.from({ length: 30 }, (_, i) => ({ projectId: p.id, username: `${tag}-${i}`, consumerKey: mintPublicKey('csm'), fullName: i % 3 ? `Plain ${i}` : `Needle ${i}` })),
    })
    const where = { projectId: p.id, OR: [{ username: containsText('needle') }, { fullName: containsText('needle') }] }
    const total = async () => (await countedKeys(db(), { table: 'Credential', key: 'username', where, orderBy: [{ username: 'asc' }], skip: 0, take: 5, walkOrders: [['username']] })).total
    const actual = () => db().credential.count({ where })
    expect(await total()).toBe(10)
    // a row written with the triggers off (replication role) moves no version: the reused total shows it was not counted again
    await db().$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica')
      await tx.credential.create({ data: { projectId: p.id, username: `${tag}-hidden`, consumerKey: mintPublicKey('csm'), fullName: 'Needle hidden' } })
    })
    expect(await total()).toBe(10)
    expect(await actual()).toBe(11)
    // every kind of write that can change the matches moves the version: the total is exact again
    await db().credential.create({ data: { projectId: p.id, username: `${tag}-new`, consumerKey: mintPublicKey('csm'), fullName: 'Needle new' } })
    expect(await total()).toBe(await actual())
    await db().credential.update({ where: { username: `${tag}-1` }, data: { fullName: 'Needle renamed' } })
    expect(await total()).toBe(await actual())
    await db().credential.updateMany({ where: { projectId: p.id, fullName: { startsWith: 'Needle' } }, data: { enabled: false } })
    await db().credential.deleteMany({ where: { username: { in: [`${tag}-0`, `${tag}-3`] } } })
    expect(await total()).toBe(await actual())
    await db().credential.update({ where: { username: `${tag}-6` }, data: { username: `${tag}-plain-6`, fullName: 'Plain' } })
    expect(await total()).toBe(await actual())
    expect(await actual()).toBe(10)
    // a write that changes no searched or filtered column leaves the version as it was
    const before = await db().listVersion.findUniqueOrThrow({ where: { list_scope: { list: 'Credential', scope: p.id } } })
    await db().credential.update({ where: { username: `${tag}-2` }, data: { description: 'not searched' } })
    expect((await db().listVersion.findUniqueOrThrow({ where: { list_scope: { list: 'Credential', scope: p.id } } })).v).toBe(before.v)
  })

  it('refuses a where shape it cannot write, and a name that is not a column', () => {
    for (const where of [{ username: { startsWith: 'a' } }, { NOT: { enabled: true } }, { project: { name: 'x' } }, { username: { contains: 'a' } }, { createdAt: new Date() }, { OR: [] }, { AND: [] }]) {
      expect(() => whereSql(where), JSON.stringify(where)).toThrow(/unsupported condition/)
    }
    expect(() => whereSql({ 'x" OR 1=1 --': 'a' })).toThrow(/not a column name/)
  })
})
