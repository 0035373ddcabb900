// Deep pages and contains search of the large lists (issue 12, target 2): pages are read by a deferred join
// and pages in the back half of a list from its far end, and the search runs on trigram indexes. None of it
// may change an answer: every page of every sort, both directions, is the slice of the whole list at its
// offset, and a search on LIKE wildcards, quotes, backslashes and non-ASCII text matches them as characters.
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintPublicKey } from '../../src/platform/keys.js'
import { startTestService, type TestService } from '../support/app.js'

let svc: TestService
let root: string
let projectId: string
const PROJECT = 'paging'
const ROWS = 47 // pages of 10: 0–3 forward, 4 the short last page, read from the far end

beforeAll(async () => {
  svc = await startTestService({
    bootstrap: {
      environments: [{ name: 'dev', workerUrls: [] }],
      users: [{ username: 'root', password: 's3cret-root', role: 'ADMIN' }],
      projects: [{ name: PROJECT, environments: ['dev'] }],
    },
  })
  root = await svc.tokenFor('root', 's3cret-root')
  projectId = (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: PROJECT } })).id
  const db = svc.deps.prisma
  const idx = Array.from({ length: ROWS }, (_, i) => i)
  const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 0, minute))
  await db.credential.createMany({
    data: idx.map((i) => ({
      projectId, username: `pg${String((i * 17) % ROWS).padStart(2, '0')}`, consumerKey: mintPublicKey('csm'),
      fullName: i % 5 === 0 ? null : `name ${i % 4}`, enabled: i % 3 !== 0,
    })),
  })
  await db.application.createMany({
    data: idx.map((i) => ({
      projectId, applicationKey: mintPublicKey('app'), name: `app${String((i * 13) % ROWS).padStart(2, '0')}`,
      appStatus: (['ACTIVE', 'SUSPENDED', 'ARCHIVED', 'PENDING_DELETION'] as const)[i % 4],
    })),
  })
  await db.limitAssignment.createMany({
    data: idx.map((i) => ({
      bindingKey: `bk${String((i * 11) % ROWS).padStart(2, '0')}`, projectId, subjectType: 'PROJECT' as const, mode: 'OFF' as const, assignedBy: 'root',
      family: (['REQUEST_RATE', 'AI_TOKEN_BUDGET'] as const)[i % 2], status: (['ENDED', 'DRAFT', 'ACTIVE'] as const)[i % 3], assignedAt: at(i % 6),
    })),
  })
  // never QUEUED or RUNNING: the runner would take those
  await db.limitBulkRun.createMany({
    data: idx.map((i) => ({
      runId: `run${String((i * 7) % ROWS).padStart(2, '0')}`, projectId, trigger: 'REST', triggeredBy: 'root',
      kind: (['ROLLBACK', 'ASSIGN', 'RETRY'] as const)[i % 3], runStatus: (['SUCCESS', 'FAILED', 'CANCELLED'] as const)[i % 3], startedAt: at(i % 5),
    })),
  })
})

afterAll(async () => {
  await svc?.close()
})

async function get(path: string): Promise<any> {
  const res = await svc.http(path, { headers: { authorization: `Bearer ${root}` } })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body
}

const P = `/apiops/projects/${PROJECT}`
const LISTS = [
  { list: 'consumers', path: `${P}/consumers`, key: 'username', sorts: ['username', 'fullName', 'enabled'] },
  { list: 'applications', path: `${P}/applications`, key: 'name', sorts: ['name', 'appStatus'] },
  { list: 'limit assignments', path: `${P}/limit-assignments`, key: 'bindingKey', sorts: ['assignedAt', 'status', 'family'] },
  { list: 'bulk runs', path: `${P}/limit-assignment-runs`, key: 'runId', sorts: ['startedAt', 'status', 'kind'] },
]

describe('every page is the slice of the whole list at its offset', () => {
  for (const { list, path, key, sorts } of LISTS) {
    for (const field of sorts) {
      for (const direction of ['asc', 'desc']) {
        it(`${list}, sort ${field},${direction}`, async () => {
          const sort = `sort=${field},${direction}`
          const whole = (await get(`${path}?size=200&${sort}`)).items.map((item: any) => item[key])
          expect(whole).toHaveLength(ROWS)
          for (let page = 0; page * 10 < ROWS; page++) {
            const body = await get(`${path}?size=10&page=${page}&${sort}`)
            expect(body).toMatchObject({ page, size: 10, totalElements: ROWS, totalPages: 5, sort: [`${field},${direction}`] })
            expect(body.items.map((item: any) => item[key])).toEqual(whole.slice(page * 10, page * 10 + 10))
          }
          const beyond = await get(`${path}?size=10&page=5&${sort}`)
          expect(beyond).toMatchObject({ items: [], page: 5, totalElements: ROWS, totalPages: 5 })
        })
      }
    }
  }

  it('a page whose far-end window is cut short still holds the rows at its offset (size 20, page 2 of 47 rows)', async () => {
    const whole = (await get(`${P}/consumers?size=200`)).items.map((c: any) => c.username)
    const body = await get(`${P}/consumers?size=20&page=2`)
    expect(body.items.map((c: any) => c.username)).toEqual(whole.slice(40))
    const middle = await get(`${P}/consumers?size=20&page=1&sort=fullName,desc`)
    const wholeByName = (await get(`${P}/consumers?size=200&sort=fullName,desc`)).items.map((c: any) => c.username)
    expect(middle.items.map((c: any) => c.username)).toEqual(wholeByName.slice(20, 40))
  })
})

describe('contains search matches special characters as themselves', () => {
  const tag = crypto.randomBytes(3).toString('hex')
  const consumers: [string, string | null][] = [
    ['x_y', null], ['xzy', null], ['pct', 'up 100% off'], ['plain', 'up 1000 off'], ['slash', 'back\\slash'], ['backs', 'backslash'],
    ['quote', `it's "quoted"`], ['noquote', 'its quoted'], ['umlaut', 'Jürgen Müller'], ['ascii', 'Jurgen Muller'], ['cjk', '東京タワー'],
  ]
  beforeAll(async () => {
    await svc.deps.prisma.credential.createMany({
      data: consumers.map(([u, fullName]) => ({ projectId, username: `${tag}-${u}`, consumerKey: mintPublicKey('csm'), fullName })),
    })
    await svc.deps.prisma.application.createMany({
      data: ['a%b', 'axb', 'a_c', 'abc', "o'neil", 'oneil', 'back\\app', 'café', 'cafe'].map((name) => ({ projectId, applicationKey: mintPublicKey('app'), name: `${tag}-${name}` })),
    })
  })

  const consumersMatching = async (search: string) =>
    (await get(`${P}/consumers?size=200&search=${encodeURIComponent(search)}`)).items.map((c: any) => c.username.slice(tag.length + 1))
  const applicationsMatching = async (search: string) =>
    (await get(`${P}/applications?size=200&search=${encodeURIComponent(search)}`)).items.map((a: any) => a.name.slice(tag.length + 1))

  it('consumers: %, _, backslash, quotes, non-ASCII, case-insensitive', async () => {
    expect(await consumersMatching(`${tag}-x_y`)).toEqual(['x_y'])
    expect(await consumersMatching('x_y')).toEqual(['x_y'])
    expect(await consumersMatching('0% ')).toEqual(['pct'])
    expect(await consumersMatching('100%')).toEqual(['pct'])
    expect(await consumersMatching('%')).toEqual(['pct'])
    expect(await consumersMatching('_')).toEqual(['x_y'])
    expect(await consumersMatching('\\')).toEqual(['slash'])
    expect(await consumersMatching('k\\s')).toEqual(['slash'])
    expect(await consumersMatching("it's")).toEqual(['quote'])
    expect(await consumersMatching('"QUOTED"')).toEqual(['quote'])
    expect(await consumersMatching("'")).toEqual(['quote'])
    expect(await consumersMatching('Müll')).toEqual(['umlaut'])
    expect(await consumersMatching('MÜLL'.slice(0, 1) + 'üll')).toEqual(['umlaut']) // ASCII letters fold, the ü is matched as typed
    expect(await consumersMatching('muller')).toEqual(['ascii'])
    expect(await consumersMatching('京タ')).toEqual(['cjk'])
    expect(await consumersMatching('BACKSLASH')).toEqual(['backs'])
    expect(await consumersMatching(`${tag}-NO`)).toEqual(['noquote'])
  })

  it('applications: %, _, backslash, quotes, non-ASCII, case-insensitive', async () => {
    expect(await applicationsMatching('a%b')).toEqual(['a%b'])
    expect(await applicationsMatching('a_c')).toEqual(['a_c'])
    expect(await applicationsMatching("o'n")).toEqual(["o'neil"])
    expect(await applicationsMatching('\\app')).toEqual(['back\\app'])
    expect(await applicationsMatching('CAFÉ'.slice(0, 3) + 'é')).toEqual(['café'])
    expect(await applicationsMatching(`${tag}-CAFE`)).toEqual(['cafe'])
  })
})
