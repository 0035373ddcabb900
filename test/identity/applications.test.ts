// The application read surface (spec §4.10, §2.15) and the entitlement writes behind the entitlements
// sub-resource: filters, sort, paging, the view, sub-resources, GraphQL, and every refusal.
import { describe, expect, it } from 'vitest'
import { mintPublicKey } from '../../src/platform/keys.js'
import { insertApiClient } from '../../src/modules/identity/api-clients.js'
import { insertApplication } from '../../src/modules/identity/applications.js'
import { freshProject as freshProjectIn, okJson, useIdentityTestbed, unique } from '../support/identity.js'
import { jsonOf } from '../support/http.js'

const bed = useIdentityTestbed()

const db = () => bed.svc.deps.prisma
const freshProject = (organizations: string[] = []) => freshProjectIn(bed.svc, organizations)


const addApp = (projectId: string, input: Parameters<typeof insertApplication>[2]) => insertApplication(db(), projectId, input)

const get = (token: string, path: string) => bed.svc.http(path, { headers: { authorization: `Bearer ${token}` } })


/** A Common Contract refusal: status, errorKey, exact params and the correlation id of the response. */
async function refusal(res: Response, status: number, errorKey: string, params: Record<string, unknown>) {
  const body = await jsonOf(res)
  expect(res.status, JSON.stringify(body)).toBe(status)
  expect(body.errorKey).toBe(errorKey)
  expect(body.params).toEqual(params)
  expect(body.correlationId).toMatch(/\S/)
  expect(body.correlationId).toBe(res.headers.get('x-correlation-id'))
}

async function gql(query: string, variables: Record<string, unknown>, token = bed.carol) {
  const { body } = await bed.svc.graphql(query, variables, token)
  return body
}
async function gqlData(query: string, variables: Record<string, unknown>, token = bed.carol) {
  const body = await gql(query, variables, token)
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined()
  return body.data
}
async function gqlRefusal(query: string, variables: Record<string, unknown>, token = bed.carol) {
  const body = await gql(query, variables, token)
  expect(body.errors, JSON.stringify(body)).toBeDefined()
  return { errorKey: body.errors![0].extensions.errorKey, params: body.errors![0].extensions.params }
}

const names = (page: any) => page.items.map((a: any) => a.name)

describe('application list', () => {
  it('pages in the database: default size 20, cap 200, totals and page arithmetic', async () => {
    const p = await freshProject()
    const all = Array.from({ length: 205 }, (_, i) => `app-${String(i).padStart(3, '0')}`)
    await db().application.createMany({ data: all.map((name) => ({ projectId: p.id, name, applicationKey: mintPublicKey('app') })) })
    const base = `/apiops/projects/${p.name}/applications`

    const first = await okJson(await get(bed.carol, base))
    expect(first).toMatchObject({ status: 'SUCCESS', page: 0, size: 20, totalElements: 205, totalPages: 11, sort: ['name,asc'] })
    expect(names(first)).toEqual(all.slice(0, 20))
    expect(names(await okJson(await get(bed.carol, `${base}?page=10`)))).toEqual(all.slice(200))
    const capped = await okJson(await get(bed.carol, `${base}?size=1000`))
    expect(capped).toMatchObject({ size: 200, totalPages: 2 })
    expect(names(capped)).toEqual(all.slice(0, 200))
    expect(names(await okJson(await get(bed.carol, `${base}?size=9&page=2`)))).toEqual(all.slice(18, 27))
    await refusal(await get(bed.carol, `${base}?page=x`), 400, 'malformedRequest', { field: 'page' })
  })

  it('sorts by name and appStatus in both directions; anything else is refused', async () => {
    const p = await freshProject()
    await addApp(p.id, { name: 'b-app', appStatus: 'ARCHIVED' })
    await addApp(p.id, { name: 'a-app', appStatus: 'SUSPENDED' })
    await addApp(p.id, { name: 'd-app', appStatus: 'ACTIVE' })
    await addApp(p.id, { name: 'c-app', appStatus: 'SUSPENDED' })
    const order = async (sort: string) => {
      const page = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/applications?sort=${sort}`))
      expect(page.sort).toEqual([sort])
      return names(page).map((n: string) => n[0]).join('')
    }
    expect(await order('name,asc')).toBe('abcd')
    expect(await order('name,desc')).toBe('dcba')
    // appStatus sorts by the constant's name (issue 11 §3: ACTIVE, ARCHIVED, PENDING_DELETION, SUSPENDED), ties by name
    expect(await order('appStatus,asc')).toBe('dbac')
    expect(await order('appStatus,desc')).toBe('acbd')
    for (const bad of ['created,asc', 'applicationKind', 'lifecycleRevision,desc']) {
      await refusal(await get(bed.carol, `/apiops/projects/${p.name}/applications?sort=${bad}`), 400, 'unsupportedSortField', { field: 'sort', supported: ['name', 'appStatus'] })
    }
  })

  it('filters by organization, status and search (case-insensitive contains on the name)', async () => {
    const p = await freshProject(['north', 'south'])
    await addApp(p.id, { name: 'Checkout-Web', organizationCode: 'north' })
    await addApp(p.id, { name: 'checkout-mobile', organizationCode: 'south', appStatus: 'SUSPENDED' })
    await addApp(p.id, { name: 'billing', organizationCode: 'north', appStatus: 'PENDING_DELETION' })
    await addApp(p.id, { name: 'reports', appStatus: 'ARCHIVED' })
    const list = async (query: string) => names(await okJson(await get(bed.carol, `/apiops/projects/${p.name}/applications?${query}`))).sort()

    expect(await list('organizationCode=north')).toEqual(['Checkout-Web', 'billing'])
    expect(await list('status=ACTIVE')).toEqual(['Checkout-Web'])
    expect(await list('status=SUSPENDED')).toEqual(['checkout-mobile'])
    expect(await list('status=PENDING_DELETION')).toEqual(['billing'])
    expect(await list('status=ARCHIVED')).toEqual(['reports'])
    expect(await list('search=CHECKOUT')).toEqual(['Checkout-Web', 'checkout-mobile'])
    expect(await list('search=out-w')).toEqual(['Checkout-Web'])
    expect(await list('search=checkout&organizationCode=south&status=SUSPENDED')).toEqual(['checkout-mobile'])
    expect(await okJson(await get(bed.carol, `/apiops/projects/${p.name}/applications?status=ACTIVE&organizationCode=south`))).toMatchObject({ items: [], totalElements: 0, totalPages: 0 })

    for (const bad of ['active', 'DELETED', '', 'ACTIVE&status=ARCHIVED']) {
      await refusal(await get(bed.carol, `/apiops/projects/${p.name}/applications?status=${bad}`), 400, 'malformedRequest', { field: 'status' })
    }
    await refusal(await get(bed.carol, `/apiops/projects/${p.name}/applications?organizationCode=atlantis`), 404, 'resourceNotFound', { organization: 'atlantis' })
  })

  it('pages a search with exact totals on every page and past the end, sorted by status or name', async () => {
    const p = await freshProject()
    const statuses = ['ACTIVE', 'SUSPENDED', 'ARCHIVED'] as const
    const all = Array.from({ length: 40 }, (_, i) => ({ name: `${i % 4 === 0 ? 'Needle' : 'hay'}-${String(i).padStart(2, '0')}`, appStatus: statuses[i % 3]! }))
    await db().application.createMany({ data: all.map((a) => ({ projectId: p.id, ...a, applicationKey: mintPublicKey('app') })) })
    const matched = all.filter((a) => a.name.startsWith('Needle'))
    const page = async (query: string) => okJson(await get(bed.carol, `/apiops/projects/${p.name}/applications?search=needle&${query}`))

    const pages = [await page('size=4&page=0'), await page('size=4&page=1'), await page('size=4&page=2')]
    for (const pg of pages) expect(pg).toMatchObject({ totalElements: 10, totalPages: 3 })
    expect(pages.flatMap(names)).toEqual(matched.map((a) => a.name))
    expect(await page('size=4&page=3')).toMatchObject({ items: [], totalElements: 10, totalPages: 3 })
    const byStatus = [...matched].sort((a, b) => (a.appStatus === b.appStatus ? a.name.localeCompare(b.name) : a.appStatus < b.appStatus ? 1 : -1))
    expect(names(await page('sort=appStatus,desc&size=5&page=1'))).toEqual(byStatus.slice(5).map((a) => a.name))
    expect(await page('status=ARCHIVED&size=2&page=1')).toMatchObject({ totalElements: 3, items: [{ name: 'Needle-32' }] })
  })
})

describe('one application and its sub-resources', () => {
  it('shows exactly the §2.15 fields; trafficLogDisabled only when set', async () => {
    const p = await freshProject(['north'])
    const full = await addApp(p.id, { name: 'full', applicationKind: 'PORTAL', appStatus: 'SUSPENDED', organizationCode: 'north', referenceId: 'ref-9', description: 'all set' })
    await db().application.update({ where: { id: full.id }, data: { trafficLogDisabled: true, lifecycleRevision: 3 } })
    const bare = await addApp(p.id, { name: 'bare' })

    expect(await okJson(await get(bed.carol, `/apiops/projects/${p.name}/applications/${full.applicationKey}`))).toEqual({
      applicationKey: full.applicationKey, name: 'full', referenceId: 'ref-9', applicationKind: 'PORTAL', appStatus: 'SUSPENDED', description: 'all set',
      organizationCode: 'north', created: full.createdAt.toISOString(), lifecycleRevision: 3, trafficLogDisabled: true,
    })
    const shown = await okJson(await get(bed.carol, `/apiops/projects/${p.name}/applications/${bare.applicationKey}`))
    expect(shown).toEqual({
      applicationKey: bare.applicationKey, name: 'bare', referenceId: null, applicationKind: 'INTERNAL', appStatus: 'ACTIVE', description: null,
      organizationCode: null, created: bare.createdAt.toISOString(), lifecycleRevision: 1,
    })
    expect((await okJson(await get(bed.carol, `/apiops/projects/${p.name}/applications`))).items[0]).toEqual(shown)
  })

  it('lists its own API clients, its entitlements and (for now) no limit assignments', async () => {
    const p = await freshProject()
    const app = await addApp(p.id, { name: 'owner' })
    await addApp(p.id, { name: 'bystander' })
    const [idA, idB] = [unique('cid'), unique('cid')]
    const a = await insertApiClient(db(), p.id, { name: 'a', clientId: idA, applicationName: 'owner', operationalState: 'SUSPENDED' })
    await insertApiClient(db(), p.id, { name: 'b', clientId: idB, applicationName: 'bystander' })
    const base = `/apiops/projects/${p.name}/applications/${app.applicationKey}`

    expect(await okJson(await get(bed.carol, `${base}/api-clients`))).toEqual([
      { apiClientKey: a.apiClientKey, clientId: idA, name: 'a', operationalState: 'SUSPENDED', readiness: 'PENDING_SECRET', validFrom: null, expiresAt: null, version: 1 },
    ])
    expect(await okJson(await get(bed.carol, `${base}/entitlements`))).toEqual([])
    expect(await okJson(await get(bed.carol, `${base}/limit-assignments`))).toEqual([])

    await db().apiProxy.create({ data: { projectId: p.id, name: 'catalog' } })
    const ent = await gqlData('mutation ($p: String!) { createEntitlement(projectName: $p, input: { subjectType: "APPLICATION", subjectKey: "owner", targetType: "API_PRODUCT", targetRef: "gold", source: "PORTAL" }) { entitlementKey } }', { p: p.name }, bed.root)
    expect(await okJson(await get(bed.carol, `${base}/entitlements`))).toEqual([{
      entitlementKey: ent.createEntitlement.entitlementKey, subjectType: 'APPLICATION', subjectKey: 'owner', targetType: 'API_PRODUCT', targetRef: 'gold',
      status: 'ACTIVE', validFrom: null, validUntil: null, source: 'PORTAL', version: 1, assignedAt: expect.any(String), assignedBy: 'root',
      endedAt: null, endedBy: null, endedReason: null,
    }])
  })

  it('is not found by an unknown key or by a key of another project', async () => {
    const [p, elsewhere] = [await freshProject(), await freshProject()]
    const foreign = await addApp(elsewhere.id, { name: 'foreign' })
    for (const key of ['app_nope', foreign.applicationKey]) {
      for (const sub of ['', '/api-clients', '/entitlements', '/limit-assignments']) {
        await refusal(await get(bed.root, `/apiops/projects/${p.name}/applications/${key}${sub}`), 404, 'resourceNotFound', { application: key })
      }
    }
  })
})

describe('scope and permission', () => {
  const paths = (project: string, key = 'app_any') =>
    ['applications', `applications/${key}`, `applications/${key}/api-clients`, `applications/${key}/entitlements`, `applications/${key}/limit-assignments`].map((s) => `/apiops/projects/${project}/${s}`)

  it('refuses the platform project first, then hides unknown and out-of-scope projects as 404', async () => {
    for (const token of [bed.root, bed.erin]) {
      for (const path of paths('admin')) await refusal(await get(token, path), 400, 'malformedRequest', { reason: 'platformScopeNotSupported' })
    }
    for (const path of paths('nowhere')) await refusal(await get(bed.root, path), 404, 'resourceNotFound', { project: 'nowhere' })
    for (const path of paths('other')) await refusal(await get(bed.carol, path), 404, 'resourceNotFound', { project: 'other' })
  })

  it('needs IDENTITY VIEW: carol reads, erin is denied', async () => {
    const key = (await db().application.findFirstOrThrow({ where: { name: 'checkout', project: { name: 'payments' } } })).applicationKey
    for (const path of paths('payments', key)) {
      expect((await get(bed.carol, path)).status).toBe(200)
      await refusal(await get(bed.erin, path), 403, 'permissionDenied', { category: 'IDENTITY', level: 'VIEW' })
    }
    const clients = await okJson(await get(bed.carol, `/apiops/projects/payments/applications/${key}/api-clients`))
    expect(clients.map((c: any) => c.clientId)).toEqual(['checkout-web-id'])
  })
})

describe('GraphQL applications', () => {
  const list = `query ($p: String!, $org: String, $status: String, $search: String, $sort: [String!], $size: Int) {
    applications(projectName: $p, organizationCode: $org, status: $status, search: $search, sort: $sort, size: $size) { totalElements sort items { name appStatus } }
  }`
  const byKey = 'query ($p: String!, $k: String!) { applicationByKey(projectName: $p, applicationKey: $k) { applicationKey name organizationCode apiClients { clientId } entitlements { subjectKey targetRef status } } }'

  it('lists with the same filters and sort as REST and reads by key with entitlements', async () => {
    const p = await freshProject(['north'])
    const app = await addApp(p.id, { name: 'Gamma', organizationCode: 'north', appStatus: 'SUSPENDED' })
    await addApp(p.id, { name: 'gamma-two', organizationCode: 'north' })
    await addApp(p.id, { name: 'delta' })
    expect((await gqlData(list, { p: p.name, org: 'north', sort: ['appStatus,desc'] })).applications).toEqual({
      totalElements: 2, sort: ['appStatus,desc'], items: [{ name: 'Gamma', appStatus: 'SUSPENDED' }, { name: 'gamma-two', appStatus: 'ACTIVE' }],
    })
    expect((await gqlData(list, { p: p.name, search: 'GAMMA', status: 'ACTIVE' })).applications.items).toEqual([{ name: 'gamma-two', appStatus: 'ACTIVE' }])
    expect(await gqlRefusal(list, { p: p.name, status: 'GONE' })).toEqual({ errorKey: 'malformedRequest', params: { field: 'status' } })
    expect(await gqlRefusal(list, { p: p.name, sort: ['created'] })).toEqual({ errorKey: 'unsupportedSortField', params: { field: 'sort', supported: ['name', 'appStatus'] } })
    expect(await gqlRefusal(list, { p: 'admin' }, bed.root)).toEqual({ errorKey: 'malformedRequest', params: { reason: 'platformScopeNotSupported' } })
    expect(await gqlRefusal(list, { p: p.name }, bed.erin)).toEqual({ errorKey: 'permissionDenied', params: { category: 'IDENTITY', level: 'VIEW' } })

    await db().apiProxyGroup.create({ data: { projectId: p.id, name: 'partners' } })
    await gqlData('mutation ($p: String!) { createEntitlement(projectName: $p, input: { subjectType: "APPLICATION", subjectKey: "Gamma", targetType: "API_PROXY_GROUP", targetRef: "partners" }) { entitlementKey } }', { p: p.name }, bed.root)
    expect((await gqlData(byKey, { p: p.name, k: app.applicationKey })).applicationByKey).toEqual({
      applicationKey: app.applicationKey, name: 'Gamma', organizationCode: 'north', apiClients: [], entitlements: [{ subjectKey: 'Gamma', targetRef: 'partners', status: 'ACTIVE' }],
    })
    expect(await gqlRefusal(byKey, { p: p.name, k: 'app_nope' })).toEqual({ errorKey: 'resourceNotFound', params: { application: 'app_nope' } })
    expect(await gqlRefusal(byKey, { p: 'other', k: app.applicationKey })).toEqual({ errorKey: 'resourceNotFound', params: { project: 'other' } })
  })
})

describe('entitlement writes', () => {
  const create = `mutation ($p: String!, $input: EntitlementInput!) { createEntitlement(projectName: $p, input: $input) {
    entitlementKey subjectType subjectKey targetType targetRef environmentRef status validFrom validUntil source version assignedAt assignedBy endedAt endedBy endedReason
  } }`
  const end = 'mutation ($p: String!, $k: String!, $r: String) { endEntitlement(projectName: $p, entitlementKey: $k, reason: $r) { status version endedAt endedBy endedReason } }'
  const input = (over: Record<string, unknown> = {}) => ({ subjectType: 'APPLICATION', subjectKey: 'checkout', targetType: 'API_PROXY', targetRef: 'orders-api', ...over })
  const count = () => db().entitlement.count()

  it('create with the caller as assignedBy and end once, by IDENTITY MANAGE', async () => {
    const made = (await gqlData(create, { p: 'payments', input: input({ status: 'DRAFT', validFrom: '2030-01-01T00:00:00.000Z' }) }, bed.alice)).createEntitlement
    expect(made).toMatchObject({ subjectType: 'APPLICATION', subjectKey: 'checkout', targetType: 'API_PROXY', targetRef: 'orders-api', environmentRef: null, status: 'DRAFT', validFrom: '2030-01-01T00:00:00.000Z', validUntil: null, source: 'MANUAL', version: 1, assignedBy: 'alice', endedAt: null })
    expect(made.entitlementKey).toMatch(/^ent_/)

    expect(await gqlRefusal(end, { p: 'payments', k: made.entitlementKey })).toEqual({ errorKey: 'permissionDenied', params: { category: 'IDENTITY', level: 'MANAGE' } })
    const ended = (await gqlData(end, { p: 'payments', k: made.entitlementKey, r: 'replaced' }, bed.alice)).endEntitlement
    expect(ended).toMatchObject({ status: 'ENDED', version: 2, endedBy: 'alice', endedReason: 'replaced' })
    expect(await gqlRefusal(end, { p: 'payments', k: made.entitlementKey }, bed.root)).toEqual({ errorKey: 'lifecycleConflict', params: { reason: 'entitlement.alreadyEnded' } })
    expect(await gqlRefusal(end, { p: 'payments', k: 'ent_nope' }, bed.root)).toEqual({ errorKey: 'resourceNotFound', params: { entitlement: 'ent_nope' } })
    expect(await gqlRefusal(end, { p: 'other', k: made.entitlementKey }, bed.root)).toEqual({ errorKey: 'resourceNotFound', params: { entitlement: made.entitlementKey } })
    expect((await db().entitlement.findUniqueOrThrow({ where: { entitlementKey: made.entitlementKey } })).endedReason).toBe('replaced')
  })

  it('refuse bad input, unknown references and missing permission, and write nothing', async () => {
    const before = await count()
    const cases: [Record<string, unknown>, string, unknown, string?][] = [
      [input({ targetType: 'API_PROXY_ENV' }), 'malformedRequest', { field: 'environmentRef' }],
      [input({ environmentRef: 'dev' }), 'malformedRequest', { field: 'environmentRef' }],
      [input({ targetType: 'API_PROXY_GROUP', targetRef: 'retail', environmentRef: 'dev' }), 'malformedRequest', { field: 'environmentRef' }],
      [input({ subjectType: 'ORGANIZATION' }), 'malformedRequest', { field: 'subjectType' }],
      [input({ targetType: 'AI_MODEL' }), 'malformedRequest', { field: 'targetType' }],
      [input({ targetRef: '  ' }), 'malformedRequest', { field: 'targetRef' }],
      [input({ status: 'ENDED' }), 'malformedRequest', { field: 'status' }],
      [input({ source: 'BULK' }), 'malformedRequest', { field: 'source' }],
      [input({ validFrom: '2030-02-01T00:00:00Z', validUntil: '2030-01-01T00:00:00Z' }), 'malformedRequest', { field: 'validUntil' }],
      [input({ subjectKey: 'ghost-app' }), 'resourceNotFound', { subjectType: 'APPLICATION', subject: 'ghost-app' }],
      [input({ subjectType: 'CONSUMER', subjectKey: 'ghost-user' }), 'resourceNotFound', { subjectType: 'CONSUMER', subject: 'ghost-user' }],
      [input({ targetRef: 'ghost-api' }), 'resourceNotFound', { apiProxy: 'ghost-api' }],
      [input({ targetType: 'API_PROXY_GROUP', targetRef: 'ghost-group' }), 'resourceNotFound', { apiProxyGroup: 'ghost-group' }],
      [input({ targetType: 'API_PROXY_ENV', environmentRef: 'staging' }), 'resourceNotFound', { environment: 'staging' }],
      [input(), 'permissionDenied', { category: 'IDENTITY', level: 'MANAGE' }, bed.carol],
    ]
    for (const [given, errorKey, params, token] of cases) {
      expect(await gqlRefusal(create, { p: 'payments', input: given }, token ?? bed.alice), JSON.stringify(given)).toEqual({ errorKey, params })
    }
    expect(await gqlRefusal(create, { p: 'admin', input: input() }, bed.root)).toEqual({ errorKey: 'malformedRequest', params: { reason: 'platformScopeNotSupported' } })
    expect(await gqlRefusal(create, { p: 'other', input: input() }, bed.alice)).toEqual({ errorKey: 'resourceNotFound', params: { project: 'other' } })
    // a subject of another project is not found
    expect(await gqlRefusal(create, { p: 'other', input: input() }, bed.root)).toEqual({ errorKey: 'resourceNotFound', params: { subjectType: 'APPLICATION', subject: 'checkout' } })
    expect(await count()).toBe(before)
  })

  it('accepts a per-environment target with its environment', async () => {
    const made = (await gqlData(create, { p: 'payments', input: input({ targetType: 'API_PROXY_ENV', environmentRef: 'prod', source: 'MIGRATION' }) }, bed.root)).createEntitlement
    expect(made).toMatchObject({ targetType: 'API_PROXY_ENV', environmentRef: 'prod', source: 'MIGRATION', status: 'ACTIVE', assignedBy: 'root' })
  })
})
