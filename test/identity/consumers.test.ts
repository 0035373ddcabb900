// The consumer read surface (spec §4.10, §2.15): list filters, sort, paging, the view, the sub-resources,
// the GraphQL twin with its relations, and every refusal with its Common Contract body.
import { describe, expect, it, vi } from 'vitest'
import { mintPublicKey } from '../../src/platform/keys.js'
import { insertCredential } from '../../src/modules/credentials/service.js'
import { insertApiClient } from '../../src/modules/identity/api-clients.js'
import { freshProject as freshProjectIn, okJson, useIdentityTestbed, unique } from '../support/identity.js'
import { jsonOf } from '../support/http.js'

const bed = useIdentityTestbed()

const db = () => bed.svc.deps.prisma
const freshProject = (organizations: string[] = []) => freshProjectIn(bed.svc, organizations)


const addConsumer = (projectId: string, input: Record<string, unknown>) => insertCredential(db(), bed.svc.deps.keyring, projectId, input)

/** Many plain consumers at once: `${prefix}-c000`, `${prefix}-c001`, … */
async function manyConsumers(projectId: string, prefix: string, count: number) {
  const data = Array.from({ length: count }, (_, i) => ({ projectId, username: `${prefix}-c${String(i).padStart(3, '0')}`, consumerKey: mintPublicKey('csm') }))
  await db().credential.createMany({ data })
  return data.map((d) => d.username)
}

const get = (token: string, path: string, headers: Record<string, string> = {}) => bed.svc.http(path, { headers: { authorization: `Bearer ${token}`, ...headers } })


/** A Common Contract refusal: status, errorKey, exact params and the correlation id of the response. */
async function refusal(res: Response, status: number, errorKey: string, params: Record<string, unknown>) {
  const body = await jsonOf(res)
  expect(res.status, JSON.stringify(body)).toBe(status)
  expect(body.errorKey).toBe(errorKey)
  expect(body.params).toEqual(params)
  expect(body.correlationId).toMatch(/\S/)
  expect(body.correlationId).toBe(res.headers.get('x-correlation-id'))
}

const usernames = (page: any) => page.items.map((c: any) => c.username)

describe('consumer list', () => {
  it('pages in the database: default size 20, cap 200, totals and page arithmetic', async () => {
    const p = await freshProject()
    const names = await manyConsumers(p.id, unique('pg'), 205)
    const base = `/apiops/projects/${p.name}/consumers`

    const first = await okJson(await get(bed.carol, base))
    expect(first).toMatchObject({ status: 'SUCCESS', page: 0, size: 20, totalElements: 205, totalPages: 11, sort: ['username,asc'] })
    expect(usernames(first)).toEqual(names.slice(0, 20))

    const last = await okJson(await get(bed.carol, `${base}?page=10`))
    expect(usernames(last)).toEqual(names.slice(200))
    expect((await okJson(await get(bed.carol, `${base}?page=11`))).items).toEqual([])

    const capped = await okJson(await get(bed.carol, `${base}?size=500`))
    expect(capped).toMatchObject({ size: 200, totalElements: 205, totalPages: 2 })
    expect(usernames(capped)).toEqual(names.slice(0, 200))

    const odd = await okJson(await get(bed.carol, `${base}?size=7&page=3`))
    expect(odd).toMatchObject({ page: 3, size: 7, totalPages: 30 })
    expect(usernames(odd)).toEqual(names.slice(21, 28))

    await refusal(await get(bed.carol, `${base}?page=-1`), 400, 'malformedRequest', { field: 'page' })
    await refusal(await get(bed.carol, `${base}?size=0`), 400, 'malformedRequest', { field: 'size' })
    await refusal(await get(bed.carol, `${base}?size=ten`), 400, 'malformedRequest', { field: 'size' })
  })

  it('sorts by username, fullName and enabled in both directions, with username breaking ties', async () => {
    const p = await freshProject()
    const tag = unique('srt')
    // same case throughout, so the order is the same under every collation
    await addConsumer(p.id, { username: `${tag}-a`, fullName: 'carla', enabled: true })
    await addConsumer(p.id, { username: `${tag}-b`, fullName: 'anna', enabled: false })
    await addConsumer(p.id, { username: `${tag}-c`, fullName: 'bert', enabled: true })
    await addConsumer(p.id, { username: `${tag}-d`, enabled: false })
    const order = async (sort?: string) => {
      const page = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers${sort ? `?sort=${sort}` : ''}`))
      if (sort) expect(page.sort).toEqual([sort])
      return usernames(page).map((u: string) => u.slice(-1)).join('')
    }
    expect(await order()).toBe('abcd')
    expect(await order('username,asc')).toBe('abcd')
    expect(await order('username,desc')).toBe('dcba')
    expect(await order('fullName,asc')).toBe('bcad') // no full name sorts last ascending (PostgreSQL: NULLS LAST)
    expect(await order('fullName,desc')).toBe('dacb')
    expect(await order('enabled,asc')).toBe('bdac')
    expect(await order('enabled,desc')).toBe('acbd')
  })

  it('refuses a sort field it does not support, naming the supported ones', async () => {
    const p = await freshProject()
    const base = `/apiops/projects/${p.name}/consumers`
    const supported = { field: 'sort', supported: ['username', 'fullName', 'enabled'] }
    await refusal(await get(bed.carol, `${base}?sort=email,asc`), 400, 'unsupportedSortField', supported)
    await refusal(await get(bed.carol, `${base}?sort=passwordCipher`), 400, 'unsupportedSortField', supported)
    await refusal(await get(bed.carol, `${base}?sort=username,sideways`), 400, 'malformedRequest', { field: 'sort' })
  })

  it('filters by organization (exactly that one), enabledOnly and search, alone and together', async () => {
    const p = await freshProject(['north', 'south'])
    await db().organization.update({ where: { projectId_code: { projectId: p.id, code: 'south' } }, data: { parent: { connect: { projectId_code: { projectId: p.id, code: 'north' } } } } })
    const tag = unique('flt')
    await addConsumer(p.id, { username: `${tag}-alpha`, fullName: 'Mary Major', organizationCode: 'north' })
    await addConsumer(p.id, { username: `${tag}-bravo`, fullName: 'Minor Key', organizationCode: 'north', enabled: false })
    await addConsumer(p.id, { username: `${tag}-charlie`, fullName: 'Other Person', organizationCode: 'south' })
    await addConsumer(p.id, { username: `${tag}-delta-MAJOR`, enabled: true })
    const list = async (query: string) => usernames(await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers?${query}`))).map((u: string) => u.slice(tag.length + 1))

    expect(await list('organizationCode=north')).toEqual(['alpha', 'bravo']) // south is a child of north: not included
    expect(await list('organizationCode=south')).toEqual(['charlie'])
    expect(await list('enabledOnly=true')).toEqual(['alpha', 'charlie', 'delta-MAJOR'])
    expect(await list('enabledOnly=false')).toEqual(['alpha', 'bravo', 'charlie', 'delta-MAJOR'])
    // case-insensitive contains on username (delta-MAJOR) and on full name (Mary Major)
    expect(await list('search=major')).toEqual(['alpha', 'delta-MAJOR'])
    expect(await list('search=mInOr')).toEqual(['bravo'])
    expect(await list('search=ARLI')).toEqual(['charlie'])
    expect(await list('search=%20')).toEqual(['alpha', 'bravo', 'charlie', 'delta-MAJOR']) // blank search is no search
    expect(await list('search=major&organizationCode=north&enabledOnly=true')).toEqual(['alpha'])
    expect(await list(`search=${tag}&enabledOnly=true&sort=username,desc`)).toEqual(['delta-MAJOR', 'charlie', 'alpha'])

    const none = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers?search=nobody-matches`))
    expect(none).toMatchObject({ items: [], totalElements: 0, totalPages: 0 })

    await refusal(await get(bed.carol, `/apiops/projects/${p.name}/consumers?organizationCode=atlantis`), 404, 'resourceNotFound', { organization: 'atlantis' })
    await refusal(await get(bed.carol, `/apiops/projects/${p.name}/consumers?enabledOnly=yes`), 400, 'malformedRequest', { field: 'enabledOnly' })
    await refusal(await get(bed.carol, `/apiops/projects/${p.name}/consumers?search=a&search=b`), 400, 'malformedRequest', { field: 'search' })
  })

  it('treats LIKE wildcards in the search as plain characters', async () => {
    const p = await freshProject()
    const tag = unique('wild')
    await addConsumer(p.id, { username: `${tag}-x_y` })
    await addConsumer(p.id, { username: `${tag}-xzy` })
    await addConsumer(p.id, { username: `${tag}-pct`, fullName: 'up 100% off' })
    await addConsumer(p.id, { username: `${tag}-plain`, fullName: 'up 1000 off' })
    await addConsumer(p.id, { username: `${tag}-slash`, fullName: 'back\\slash' })
    const list = async (search: string) =>
      usernames(await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers?search=${encodeURIComponent(search)}`))).map((u: string) => u.slice(tag.length + 1))
    expect(await list('x_y')).toEqual(['x_y'])
    expect(await list('0% ')).toEqual(['pct'])
    expect(await list('\\')).toEqual(['slash'])
  })

  it('pages a search with exact totals on every page, past the end and in every sort', async () => {
    const p = await freshProject(['north'])
    const tag = unique('pgs')
    // 12 matches (every third of 36 by full name, plus one by username), the rest not
    const matched: string[] = []
    for (let i = 0; i < 36; i++) {
      const username = `${tag}-${String(i).padStart(2, '0')}`
      const hit = i % 3 === 0
      await addConsumer(p.id, { username, fullName: hit ? `Needle ${String(35 - i).padStart(2, '0')}` : `Hay ${i}`, enabled: i % 2 === 0, ...(i < 18 ? { organizationCode: 'north' } : {}) })
      if (hit) matched.push(username)
    }
    await addConsumer(p.id, { username: `${tag}-needle-by-name`, enabled: true })
    matched.push(`${tag}-needle-by-name`)
    const page = async (query: string) => okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers?search=NEEDLE&${query}`))

    const pages = [await page('size=5&page=0'), await page('size=5&page=1'), await page('size=5&page=2')]
    for (const pg of pages) expect(pg).toMatchObject({ size: 5, totalElements: 13, totalPages: 3 })
    expect(pages.flatMap(usernames)).toEqual(matched)
    expect(await page('size=5&page=3')).toMatchObject({ items: [], totalElements: 13, totalPages: 3 })
    expect(await page('size=5&page=9999')).toMatchObject({ items: [], totalElements: 13, totalPages: 3 })

    // full names sort in reverse of usernames; the match without one sorts last ascending, first descending
    const byName = (await page('sort=fullName,asc&size=20')).items.map((c: any) => c.fullName ?? null)
    expect(byName).toEqual([...matched.slice(0, 12).map((_, k) => `Needle ${String(35 - 3 * k).padStart(2, '0')}`).reverse(), null])
    expect(usernames(await page('sort=fullName,desc&size=3'))).toEqual([`${tag}-needle-by-name`, `${tag}-00`, `${tag}-03`])
    // enabled false first, ties by username; with the other filters at once
    expect(usernames(await page('sort=enabled,asc&size=3&page=1'))).toEqual([`${tag}-21`, `${tag}-27`, `${tag}-33`])
    expect(usernames(await page('sort=enabled,asc&size=3&page=2'))).toEqual([`${tag}-00`, `${tag}-06`, `${tag}-12`])
    const north = await page('organizationCode=north&enabledOnly=true&size=20')
    expect(north).toMatchObject({ totalElements: 3 })
    expect(usernames(north)).toEqual([`${tag}-00`, `${tag}-06`, `${tag}-12`])
  })
})

describe('one consumer', () => {
  it('shows exactly the §2.15 fields: organizationCode and trafficLogDisabled only when set, never a secret', async () => {
    const p = await freshProject(['north'])
    const tag = unique('view')
    const full = await addConsumer(p.id, {
      username: `${tag}-full`, password: 'never-shown', fullName: 'Full Name', email: 'full@example.test', description: 'everything set',
      organizationCode: 'north', expireDate: '2031-05-06T07:08:09.000Z', enabled: false,
      tokenSettings: { grantType: 'PASSWORD', tokenNeverExpires: true },
    })
    await db().credential.update({ where: { id: full.id }, data: { trafficLogDisabled: false } })
    const bare = await addConsumer(p.id, { username: `${tag}-bare`, password: 'also-hidden' })

    const shown = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers/${full.consumerKey}`))
    expect(shown).toEqual({
      consumerKey: full.consumerKey, username: `${tag}-full`, fullName: 'Full Name', email: 'full@example.test', description: 'everything set',
      enabled: false, organizationCode: 'north', expireDate: '2031-05-06T07:08:09.000Z', trafficLogDisabled: false,
    })
    const minimal = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers/${bare.consumerKey}`))
    expect(minimal).toEqual({ consumerKey: bare.consumerKey, username: `${tag}-bare`, fullName: null, email: null, description: null, enabled: true, expireDate: null })

    // the list shows the same view
    const listed = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers`))
    expect(listed.items).toEqual([minimal, shown])
    expect(JSON.stringify(listed)).not.toMatch(/never-shown|also-hidden|password|cipher|token|secret|certificate/i)
  })

  it('is not found by an unknown key or by a key of another project', async () => {
    const [p, elsewhere] = [await freshProject(), await freshProject()]
    const foreign = await addConsumer(elsewhere.id, { username: unique('foreign') })
    for (const key of ['csm_nope', foreign.consumerKey]) {
      for (const sub of ['', '/api-clients', '/entitlements', '/limit-assignments']) {
        await refusal(await get(bed.root, `/apiops/projects/${p.name}/consumers/${key}${sub}`), 404, 'resourceNotFound', { consumer: key })
      }
    }
  })
})

describe('consumer sub-resources', () => {
  it('lists the API clients the consumer owns as §2.5 summary rows', async () => {
    const p = await freshProject()
    const owner = await addConsumer(p.id, { username: unique('owner') })
    const other = await addConsumer(p.id, { username: unique('other') })
    const [idB, idA, idOther] = [unique('cid'), unique('cid'), unique('cid')]
    await insertApiClient(db(), p.id, { name: 'web-b', clientId: idB, credentialUsername: owner.username, operationalState: 'ACTIVE', validFrom: '2030-01-01T00:00:00Z', expiresAt: '2031-01-01T00:00:00Z' })
    const a = await insertApiClient(db(), p.id, { name: 'web-a', clientId: idA, credentialUsername: owner.username })
    await insertApiClient(db(), p.id, { name: 'web-c', clientId: idOther, credentialUsername: other.username })

    const rows = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers/${owner.consumerKey}/api-clients`))
    expect(rows).toHaveLength(2)
    expect(rows[0]).toEqual({ apiClientKey: a.apiClientKey, clientId: idA, name: 'web-a', operationalState: 'DRAFT', readiness: 'PENDING_SECRET', validFrom: null, expiresAt: null, version: 1 })
    expect(rows[1]).toMatchObject({ clientId: idB, name: 'web-b', operationalState: 'ACTIVE', readiness: 'PENDING_SECRET', validFrom: '2030-01-01T00:00:00.000Z', expiresAt: '2031-01-01T00:00:00.000Z' })
    expect(Object.keys(rows[1]).sort()).toEqual(['apiClientKey', 'clientId', 'expiresAt', 'name', 'operationalState', 'readiness', 'validFrom', 'version'])
    expect(await okJson(await get(bed.carol, `/apiops/projects/${p.name}/consumers/${other.consumerKey}/limit-assignments`))).toEqual([])
  })

  it('lists entitlements with exactly the §2.15 fields (environmentRef only for API_PROXY_ENV), ended ones included', async () => {
    const username = unique('ent')
    const created = await bed.svc.graphql('mutation ($u: String!) { createCredential(projectName: "payments", input: { username: $u }) { credential { consumerKey } } }', { u: username }, bed.alice)
    const consumerKey = created.body.data.createCredential.credential.consumerKey
    const create = 'mutation ($input: EntitlementInput!) { createEntitlement(projectName: "payments", input: $input) { entitlementKey } }'
    const keyOf = async (input: Record<string, unknown>) => (await bed.svc.graphql(create, { input: { subjectType: 'CONSUMER', subjectKey: username, ...input } }, bed.alice)).body.data.createEntitlement.entitlementKey
    const proxyKey = await keyOf({ targetType: 'API_PROXY', targetRef: 'orders-api', validFrom: '2030-01-01T00:00:00.000Z', validUntil: '2030-12-31T00:00:00.000Z' })
    const envKey = await keyOf({ targetType: 'API_PROXY_ENV', targetRef: 'orders-api', environmentRef: 'prod', status: 'DRAFT', source: 'PORTAL' })
    await bed.svc.graphql('mutation ($k: String!) { endEntitlement(projectName: "payments", entitlementKey: $k, reason: "contract over") { status } }', { k: proxyKey }, bed.alice)

    const rows = await okJson(await get(bed.carol, `/apiops/projects/payments/consumers/${consumerKey}/entitlements`))
    expect(rows).toHaveLength(2)
    const [ended, perEnv] = [rows.find((r: any) => r.entitlementKey === proxyKey), rows.find((r: any) => r.entitlementKey === envKey)]
    expect(ended).toEqual({
      entitlementKey: proxyKey, subjectType: 'CONSUMER', subjectKey: username, targetType: 'API_PROXY', targetRef: 'orders-api', status: 'ENDED',
      validFrom: '2030-01-01T00:00:00.000Z', validUntil: '2030-12-31T00:00:00.000Z', source: 'MANUAL', version: 2,
      assignedAt: expect.any(String), assignedBy: 'alice', endedAt: expect.any(String), endedBy: 'alice', endedReason: 'contract over',
    })
    expect(perEnv).toEqual({
      entitlementKey: envKey, subjectType: 'CONSUMER', subjectKey: username, targetType: 'API_PROXY_ENV', targetRef: 'orders-api', environmentRef: 'prod',
      status: 'DRAFT', validFrom: null, validUntil: null, source: 'PORTAL', version: 1,
      assignedAt: expect.any(String), assignedBy: 'alice', endedAt: null, endedBy: null, endedReason: null,
    })
    expect(Date.parse(ended.endedAt)).toBeGreaterThanOrEqual(Date.parse(ended.assignedAt))
  })
})

describe('scope and permission', () => {
  const paths = (project: string, key = 'csm_any') =>
    ['consumers', `consumers/${key}`, `consumers/${key}/api-clients`, `consumers/${key}/entitlements`, `consumers/${key}/limit-assignments`].map((s) => `/apiops/projects/${project}/${s}`)

  it('refuses the platform project first, whoever asks and whatever the key', async () => {
    for (const token of [bed.root, bed.erin]) {
      for (const path of paths('admin')) await refusal(await get(token, path), 400, 'malformedRequest', { reason: 'platformScopeNotSupported' })
    }
    await refusal(await get(bed.root, '/apiops/projects/admin/consumers?sort=nope'), 400, 'malformedRequest', { reason: 'platformScopeNotSupported' })
  })

  it('answers 404 for an unknown or out-of-scope project, never 403', async () => {
    for (const path of paths('nowhere')) await refusal(await get(bed.root, path), 404, 'resourceNotFound', { project: 'nowhere' })
    for (const path of paths('other')) await refusal(await get(bed.carol, path), 404, 'resourceNotFound', { project: 'other' })
  })

  it('needs IDENTITY VIEW: carol reads, erin is denied', async () => {
    const consumerKey = (await db().credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })).consumerKey
    for (const path of paths('payments', consumerKey)) {
      expect((await get(bed.carol, path)).status).toBe(200)
      await refusal(await get(bed.erin, path), 403, 'permissionDenied', { category: 'IDENTITY', level: 'VIEW' })
    }
    const res = await bed.svc.http('/apiops/projects/payments/consumers')
    expect(res.status).toBe(401)
  })

  it('keeps the correlation id a caller sends', async () => {
    const res = await get(bed.erin, '/apiops/projects/payments/consumers', { 'x-correlation-id': 'trace-123' })
    expect((await jsonOf(res)).correlationId).toBe('trace-123')
  })
})

describe('GraphQL consumers', () => {
  const page = `query ($p: String!, $org: String, $enabledOnly: Boolean, $search: String, $page: Int, $size: Int, $sort: [String!]) {
    consumers(projectName: $p, organizationCode: $org, enabledOnly: $enabledOnly, search: $search, page: $page, size: $size, sort: $sort) {
      page size totalElements totalPages sort items { username }
    }
  }`
  const one = `query ($p: String!, $k: String!) { consumer(projectName: $p, consumerKey: $k) {
    consumerKey username fullName email description enabled expireDate trafficLogDisabled organizationCode
    organization { code name } apiClients { clientId } entitlements { entitlementKey subjectType subjectKey targetType environmentRef status }
  } }`

  async function data(query: string, variables: Record<string, unknown>, token = bed.carol) {
    const { body } = await bed.svc.graphql(query, variables, token)
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined()
    return body.data
  }
  async function gqlRefusal(query: string, variables: Record<string, unknown>, token = bed.carol) {
    const { body } = await bed.svc.graphql(query, variables, token)
    expect(body.errors, JSON.stringify(body)).toBeDefined()
    return { errorKey: body.errors![0].extensions.errorKey, params: body.errors![0].extensions.params }
  }

  it('lists with the same filters, sort and paging as REST', async () => {
    const p = await freshProject(['north'])
    const tag = unique('gql')
    await addConsumer(p.id, { username: `${tag}-a`, fullName: 'Zed', organizationCode: 'north' })
    await addConsumer(p.id, { username: `${tag}-b`, fullName: 'Ann', organizationCode: 'north', enabled: false })
    await addConsumer(p.id, { username: `${tag}-c`, fullName: 'Bob' })
    const listed = (await data(page, { p: p.name, org: 'north', sort: ['fullName,asc'] })).consumers
    expect(listed).toEqual({ page: 0, size: 20, totalElements: 2, totalPages: 1, sort: ['fullName,asc'], items: [{ username: `${tag}-b` }, { username: `${tag}-a` }] })
    expect((await data(page, { p: p.name, enabledOnly: true, search: 'ZED' })).consumers.items).toEqual([{ username: `${tag}-a` }])
    expect((await data(page, { p: p.name, size: 2, page: 1 })).consumers).toMatchObject({ totalPages: 2, items: [{ username: `${tag}-c` }] })

    expect(await gqlRefusal(page, { p: p.name, sort: ['email'] })).toEqual({ errorKey: 'unsupportedSortField', params: { field: 'sort', supported: ['username', 'fullName', 'enabled'] } })
    expect(await gqlRefusal(page, { p: p.name, org: 'atlantis' })).toEqual({ errorKey: 'resourceNotFound', params: { organization: 'atlantis' } })
    expect(await gqlRefusal(page, { p: 'admin' }, bed.root)).toEqual({ errorKey: 'malformedRequest', params: { reason: 'platformScopeNotSupported' } })
    expect(await gqlRefusal(page, { p: 'other' })).toEqual({ errorKey: 'resourceNotFound', params: { project: 'other' } })
    expect(await gqlRefusal(page, { p: p.name }, bed.erin)).toEqual({ errorKey: 'permissionDenied', params: { category: 'IDENTITY', level: 'VIEW' } })
  })

  it('reads one consumer with its organization, API clients and entitlements', async () => {
    const username = unique('rel')
    const created = await bed.svc.graphql('mutation ($u: String!) { createCredential(projectName: "payments", input: { username: $u, organizationCode: "acme-eu" }) { credential { consumerKey } } }', { u: username }, bed.alice)
    const consumerKey = created.body.data.createCredential.credential.consumerKey
    const clientId = unique('rel-client')
    await bed.svc.graphql('mutation ($c: String!, $u: String!) { createApiClient(projectName: "payments", input: { name: "rel", clientId: $c, credentialUsername: $u }) { clientId } }', { c: clientId, u: username }, bed.alice)
    const ent = await bed.svc.graphql('mutation ($u: String!) { createEntitlement(projectName: "payments", input: { subjectType: "CONSUMER", subjectKey: $u, targetType: "API_PROXY_GROUP", targetRef: "retail" }) { entitlementKey } }', { u: username }, bed.alice)

    expect((await data(one, { p: 'payments', k: consumerKey })).consumer).toEqual({
      consumerKey, username, fullName: null, email: null, description: null, enabled: true, expireDate: null, trafficLogDisabled: null,
      organizationCode: 'acme-eu', organization: { code: 'acme-eu', name: 'Acme EU' }, apiClients: [{ clientId }],
      entitlements: [{ entitlementKey: ent.body.data.createEntitlement.entitlementKey, subjectType: 'CONSUMER', subjectKey: username, targetType: 'API_PROXY_GROUP', environmentRef: null, status: 'ACTIVE' }],
    })
    expect(await gqlRefusal(one, { p: 'payments', k: 'csm_nope' })).toEqual({ errorKey: 'resourceNotFound', params: { consumer: 'csm_nope' } })
    expect(await gqlRefusal(one, { p: 'payments', k: consumerKey }, bed.erin)).toEqual({ errorKey: 'permissionDenied', params: { category: 'IDENTITY', level: 'VIEW' } })
  })

  it('exposes no secret, certificate or token setting on the Consumer type', async () => {
    const type = await data('{ __type(name: "Consumer") { fields { name } } }', {}, bed.root)
    expect(type.__type.fields.map((f: any) => f.name).filter((n: string) => /secret|password|cipher|token|certificate/i.test(n))).toEqual([])
  })

  it('loads relations with a bounded number of queries whatever the page size', async () => {
    const p = await freshProject(['north'])
    const tag = unique('batch')
    for (let i = 0; i < 12; i++) {
      const c = await addConsumer(p.id, { username: `${tag}-${String(i).padStart(2, '0')}`, organizationCode: 'north' })
      await insertApiClient(db(), p.id, { name: `k${i}`, clientId: `${tag}-k${i}`, credentialUsername: c.username })
    }
    const tree = 'query ($p: String!, $size: Int) { consumers(projectName: $p, size: $size) { items { username organizationCode organization { code } apiClients { clientId } entitlements { entitlementKey } } } }'
    const reads = async (size: number) => {
      const prisma = bed.svc.deps.prisma as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>
      const spies = ['project', 'membership', 'organization', 'credential', 'apiClient', 'entitlement'].flatMap((m) =>
        ['findMany', 'findFirst', 'findUnique', 'count'].map((op) => vi.spyOn(prisma[m], op)),
      )
      try {
        const items = (await data(tree, { p: p.name, size })).consumers.items
        expect(items).toHaveLength(size)
        expect(items[size - 1]).toMatchObject({ organizationCode: 'north', organization: { code: 'north' }, apiClients: [{ clientId: `${tag}-k${size - 1}` }], entitlements: [] })
        return spies.reduce((n, spy) => n + spy.mock.calls.length, 0)
      } finally {
        for (const spy of spies) spy.mockRestore()
      }
    }
    expect(await reads(12)).toBe(await reads(2))
  })
})
