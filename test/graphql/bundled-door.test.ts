import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'
import { jsonOf } from '../support/http.js'
import { TEST_SECRET_KEY } from '../support/app.js'
import { freshDatabase, type FreshDatabase } from '../support/database.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { ensureBuilt, spawnService, type ServiceProcess } from '../support/process.js'

// The GraphQL door as `npm start` runs it: the bundle (scripts/bundle.mjs) changes graphql-js's execution in two
// places for speed (issue 31 §2): the one-realm `instanceOf` switch, and an early empty answer from getArgumentValues
// for a field without argument definitions. The other GraphQL tests run the sources, not the bundle, so this file
// checks through the bundle what those changes could break: arguments still read (literal, variable, default, wrong
// type), a field without arguments still refuses one, rows equal to the REST page's, the depth and cost limits, the
// error shapes, a refused project, and a mutation still recorded in the audit trail.

let db: FreshDatabase
let proc: ServiceProcess
let url: string
let carol: string
let alice: string
let root: string

async function token(user: string, password: string) {
  const res = await fetch(`${url}/apiops/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: user, client_secret: password }),
  })
  return ((await jsonOf(res)) as { access_token: string }).access_token
}

async function gql(query: string, variables: Record<string, unknown> = {}, bearer = carol) {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, 'x-correlation-id': 'bundled-cid' },
    body: JSON.stringify({ query, variables }),
  })
  return { status: res.status, body: (await jsonOf(res)) as { data?: any; errors?: any[] } }
}

beforeAll(async () => {
  ensureBuilt()
  db = await freshDatabase()
  const file = path.join(db.dataDir, 'bootstrap.json')
  fs.writeFileSync(file, JSON.stringify(sampleBootstrap({ dev: [] })))
  proc = spawnService({
    DATA_DIR: db.dataDir, LOG_LEVEL: 'info', GATEWAY_BOOTSTRAP: file,
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl, GATEWAY_SECRET_KEY: TEST_SECRET_KEY } : {}),
  }, { compiled: true })
  url = await proc.listening
  carol = await token('carol', 'carol-pass-1')
  alice = await token('alice', 'alice-pass-1')
  root = await token('root', 's3cret-root')
}, 120_000)

afterAll(async () => {
  proc?.child.kill('SIGTERM')
  await proc?.exited
  await db?.cleanup()
})

const ITEMS = 'username fullName consumerKey enabled description email expireDate organizationCode trafficLogDisabled id'

describe('the GraphQL door of the bundle (npm start)', () => {
  it('answers the rows and values of the REST page; arguments by literal, variable and default', async () => {
    const rest = await jsonOf(await fetch(`${url}/apiops/projects/payments/consumers?page=0&size=20`, { headers: { authorization: `Bearer ${carol}` } }))
    const byVariable = await gql(`query ($p: String!, $size: Int) { consumers(projectName: $p, page: 0, size: $size) { totalElements page size sort items { ${ITEMS} } } }`, { p: 'payments', size: 20 })
    expect(byVariable.status).toBe(200)
    expect(byVariable.body.errors).toBeUndefined()
    const page = byVariable.body.data.consumers
    expect(page).toMatchObject({ totalElements: rest.totalElements, page: 0, size: 20, sort: ['username,asc'] })
    // every field the REST view shows, value for value (REST leaves unset optional fields out; GraphQL answers null)
    expect(page.items.map(({ id, ...c }: any) => {
      expect(id).toMatch(/\S/)
      return Object.fromEntries(Object.entries(c).filter(([k, v]) => v !== null || k in (rest.items.find((r: any) => r.username === c.username) ?? {})))
    })).toEqual(rest.items)
    const byLiteral = await gql(`{ consumers(projectName: "payments", page: 0, size: 20) { totalElements page size sort items { ${ITEMS} } } }`)
    expect(byLiteral.body).toEqual(byVariable.body)
    // size left to its default, a search and a filter argument read
    const searched = await gql('{ consumers(projectName: "payments", search: "shop") { size items { username } } }')
    expect(searched.body).toEqual({ data: { consumers: { size: 20, items: [{ username: 'shop-frontend' }] } } })
    const small = await gql('query ($s: Int) { consumers(projectName: "payments", page: 0, size: $s) { size items { username } } }', { s: 1 })
    expect(small.body.data.consumers.size).toBe(1)
    expect(small.body.data.consumers.items).toHaveLength(1)
  })

  it('refuses an argument a field does not define, and a variable of the wrong type, in the GraphQL error shape', async () => {
    const unknown = await gql('{ consumers(projectName: "payments") { items { username(upper: true) } } }')
    expect(unknown.status).toBe(400)
    expect(unknown.body.errors![0]).toMatchObject({ message: expect.stringMatching(/Unknown argument "upper"/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED', correlationId: 'bundled-cid' } })
    const wrongType = await gql('query ($s: Int) { consumers(projectName: "payments", size: $s) { size } }', { s: 'twenty' })
    expect(wrongType.status).toBe(400)
    expect(wrongType.body.errors![0]).toMatchObject({ message: expect.stringMatching(/\$s/), extensions: { code: 'BAD_USER_INPUT', correlationId: 'bundled-cid' } })
    expect(wrongType.body.data).toBeUndefined()
  })

  it('refuses a project out of reach and an unknown consumer with errorKey, params and correlation id', async () => {
    const other = await gql('{ consumers(projectName: "nowhere", page: 0, size: 1) { totalElements } }')
    expect(other.status).toBe(200)
    expect(other.body.data).toBeNull()
    expect(other.body.errors![0]).toMatchObject({ path: ['consumers'], extensions: { code: 'NOT_FOUND', errorKey: 'resourceNotFound', correlationId: 'bundled-cid' } })
    const missing = await gql('{ consumer(projectName: "payments", consumerKey: "no-such-key") { username } }')
    expect(missing.body.errors![0].extensions).toEqual({ code: 'NOT_FOUND', errorKey: 'resourceNotFound', params: { consumer: 'no-such-key' }, correlationId: 'bundled-cid' })
  })

  it('still refuses operations over the depth and the cost limit before running them', async () => {
    let selection = 'name'
    for (let i = 0; i < 11; i++) selection = `children { ${selection} }`
    const deep = await gql(`{ organizations(projectName: "payments") { items { ${selection} } } }`)
    expect(deep.status).toBe(400)
    expect(deep.body.errors![0].message).toMatch(/depth/i)
    const costly = await gql(`{ ${Array.from({ length: 1200 }, (_, i) => `a${i}: me { username role locked enabled }`).join(' ')} }`)
    expect(costly.status).toBe(400)
    expect(costly.body.errors![0].message).toMatch(/cost/i)
    expect(costly.body.data).toBeUndefined()
  })

  it('records a mutation in the audit trail once, and a refused one not at all', async () => {
    const created = await gql('mutation ($p: String!, $i: ConsumerInput!) { createConsumer(projectName: $p, input: $i) { consumer { username enabled } } }',
      { p: 'payments', i: { username: 'bundled-consumer', fullName: 'Bundled' } }, alice)
    expect(created.body).toEqual({ data: { createConsumer: { consumer: { username: 'bundled-consumer', enabled: true } } } })
    const refused = await gql('mutation { createConsumer(projectName: "payments", input: { username: "carol-cannot" }) { consumer { username } } }', {}, carol)
    expect(refused.body.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', correlationId: 'bundled-cid' })
    const trail = await gql('{ auditEvents(projectName: "payments", operation: "createConsumer", page: 0, size: 50) { items { operation objectName surface outcome } } }', {}, root)
    expect(trail.body.errors, JSON.stringify(trail.body.errors)).toBeUndefined()
    const mine = trail.body.data.auditEvents.items
    expect(mine).toEqual([{ operation: 'createConsumer', objectName: 'bundled-consumer', surface: 'GRAPHQL', outcome: 'SUCCEEDED' }])
  })
})
