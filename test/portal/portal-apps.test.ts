import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { graphqlStatements } from '../support/statements.js'

// The portal operations of the vendor's openapi.yaml (PortalAppProvision, PortalAppCredential, PortalReport; no page
// shows their bodies, docs/portal.md): portal applications are applications of kind PORTAL found by referenceId.

function bootstrap(workers: { dev: string[] }) {
  const doc = sampleBootstrap(workers)
  doc.users.push({ username: 'olga', password: 'olga-pass-1' })
  return doc
}
// bob: IDENTITY MANAGE; carol: IDENTITY VIEW; olga: no project
const bed = useTestbed({ workers: ['dev'], bootstrap, tokens: { bob: 'bob-pass-1', carol: 'carol-pass-1', olga: 'olga-pass-1' } })

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<LegacyAnswer & { raw: string }> {
  const res = await bed.svc.http(`/apiops/${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const raw = await res.text()
  return { status: res.status, body: raw ? JSON.parse(raw) : undefined, raw }
}
const state = async () => JSON.stringify([
  await bed.svc.deps.prisma.application.findMany({ orderBy: { name: 'asc' } }),
  await bed.svc.deps.prisma.organization.findMany({ orderBy: { code: 'asc' } }),
  await bed.svc.deps.prisma.productSubscription.findMany({ orderBy: { productName: 'asc' } }),
])
const expectRefused = (c: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(c, message, { state, pushes: () => bed.dev.received.length })

/** A provisioning request with the vendor's ProdProvisionRequestDTO fields. */
const PROVISION = {
  referenceId: 'portal-app-42', nameDefault: 'Mobile Shop', nameSecondary: 'Mobil Mağaza', description: 'The mobile shop', contactEmail: 'dev@shop.example',
  prodPortalId: 'portal-1', createNewOrganization: true, code: 'shop-co', organization: { code: 'shop-co', name: 'Shop Co' }, app: { name: 'mobile-shop' },
  prodProductRefId: 'product-ref-1', productName: 'Payments API', prodPlanRefId: 'plan-ref-1', planName: 'Gold', sandboxAppId: 'sandbox-9',
}

beforeAll(async () => {
  await bed.svc.deps.prisma.application.updateMany({ where: { name: 'checkout' }, data: { referenceId: 'portal-checkout' } })
})

describe('portal applications', () => {
  it('lists the organizations a provisioning may name', async () => {
    const res = await call('GET', 'portal-apps/organizations?projectName=payments', bed.carol)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultCount: 4 })
    expect(res.body.resultList.find((o: any) => o.code === 'acme-eu')).toEqual({ id: expect.any(String), code: 'acme-eu', name: 'Acme EU', parentCode: 'acme', state: 'ACTIVE', suspended: false })
  })

  it('provisions an application in a new organization with its subscription; provisioning again updates it', async () => {
    const res = await call('POST', 'portal-apps/provision?projectName=payments', bed.bob, PROVISION)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({
      status: 'SUCCESS', applicationKey: expect.any(String), name: 'mobile-shop', referenceId: 'portal-app-42', applicationKind: 'PORTAL', appStatus: 'ACTIVE', organizationCode: 'shop-co',
      created: true, organizationCreated: true, subscription: { productName: 'Payments API', status: 'APPROVED' }, provisionedBy: 'bob',
    })
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { operation: 'POST /apiops/portal-apps/provision' }, orderBy: { id: 'desc' } })
    expect(audit).toMatchObject({ actor: 'bob', objectType: 'APPLICATION', objectName: 'portal-app-42', outcome: 'SUCCEEDED' })
    const again = await call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { referenceId: 'portal-app-42', name: 'ignored-name', prodOrganizationId: 'acme', productName: 'Orders API' })
    expect(again.body).toMatchObject({ applicationKey: res.body.applicationKey, name: 'mobile-shop', organizationCode: 'acme', created: false, organizationCreated: false, subscription: { productName: 'Orders API' } })
    expect(await bed.svc.deps.prisma.productSubscription.count({ where: { application: { referenceId: 'portal-app-42' } } })).toBe(2)
  })

  it('refuses every provisioning cause; nothing written', async () => {
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.olga, { probe: 1 }), /^Project 'payments' not found$/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.carol, { probe: 1 }), /^User lacks permission IDENTITY MANAGE in project 'payments'$/)
    await expectRefused(() => call('POST', 'portal-apps/provision', bed.bob, PROVISION), /^projectName: is required/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { ...PROVISION, referenceId: '' }), /^referenceId: must not be blank/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { ...PROVISION, contactEmail: 'nope' }), /^contactEmail: must be an email address/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { ...PROVISION, surprise: true }), /surprise/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { referenceId: 'r-1' }), /^name: is required/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { ...PROVISION, referenceId: 'r-2', app: { name: 'r-2' } }), /^Organization 'shop-co' already exists/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { referenceId: 'r-3', name: 'r-3', prodOrganizationId: 'ghost' }), /^prodOrganizationId: organization 'ghost' not found/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { referenceId: 'r-4', name: 'checkout' }), /^Application 'checkout' already exists/)
    await expectRefused(() => call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { ...PROVISION, referenceId: 'r-5', prodOrganizationId: 'acme' }), /^prodOrganizationId: not with createNewOrganization/)
    expect((await call('POST', 'portal-apps/provision?projectName=payments', null, PROVISION)).status).toBe(401)
  })

  it('reads an application\'s credentials and usage by referenceId; unknown and out of sight are one answer', async () => {
    const creds = await call('GET', 'portal-apps/portal-checkout/credentials', bed.carol)
    expect(creds.status, creds.raw).toBe(200)
    expect(creds.body).toMatchObject({ status: 'SUCCESS', resultCount: 1, resultList: [{ clientId: 'checkout-web-id', name: 'checkout-web', operationalState: 'ACTIVE' }] })
    const usage = await call('GET', 'portal-apps/portal-checkout/usage-report', bed.carol)
    expect(usage.body).toMatchObject({ status: 'SUCCESS', name: 'checkout', referenceId: 'portal-checkout', organizationCode: 'acme', apiClientCount: 1, apiClientsByState: { ACTIVE: 1 }, consumerCount: 1, subscriptions: [] })
    const notFound = { status: 'FAILURE', resultMessage: "Portal application 'portal-checkout' not found" }
    expect((await call('GET', 'portal-apps/portal-checkout/credentials', bed.olga)).body).toEqual(notFound)
    expect((await call('GET', 'portal-apps/portal-checkout/usage-report', bed.olga)).body).toEqual(notFound)
    expect((await call('GET', 'portal-apps/nothing-here/credentials', bed.carol)).body).toEqual({ status: 'FAILURE', resultMessage: "Portal application 'nothing-here' not found" })
    expect((await call('GET', 'portal-apps/portal-checkout/credentials?projectName=other', bed.carol)).body).toEqual(notFound)
  })

  it('reports usage and the traffic-facing summary of the project', async () => {
    const usage = await call('GET', 'portal/usage?projectName=payments', bed.carol)
    expect(usage.status, usage.raw).toBe(200)
    expect(usage.body.resultList.map((r: any) => r.name)).toEqual(['checkout', 'mobile-shop'])
    expect(usage.body.resultList[1].subscriptions.map((s: any) => s.productName)).toEqual(['Orders API', 'Payments API'])
    const summary = await call('GET', 'portal/traffic/summary?projectName=payments', bed.carol)
    expect(summary.body).toEqual({
      status: 'SUCCESS', success: true, projectName: 'payments', trafficRecorded: false, requestCount: null, portalApplicationCount: 2, portalApplicationsByStatus: { ACTIVE: 2 },
      apiClientCount: 1, apiClientsByState: { ACTIVE: 1 }, subscriptionCount: 2, subscriptionsByStatus: { APPROVED: 2 }, productCount: 2,
    })
    for (const path of ['portal/usage', 'portal/traffic/summary', 'portal-apps/organizations']) {
      expect((await call('GET', `${path}?projectName=payments`, bed.olga)).body).toEqual({ status: 'FAILURE', resultMessage: "Project 'payments' not found" })
      expect((await call('GET', path, bed.carol)).body.resultMessage).toMatch(/^projectName: is required/)
    }
  })

  it('narrows both reports to the products of productRefIds (comma-separated or repeated), GraphQL too', async () => {
    const payments = encodeURIComponent('Payments API')
    const usage = await call('GET', `portal/usage?projectName=payments&productRefIds=${payments}`, bed.carol)
    expect(usage.status, usage.raw).toBe(200)
    expect(usage.body.resultList.map((r: any) => r.name)).toEqual(['mobile-shop'])
    const summary = await call('GET', `portal/traffic/summary?projectName=payments&productRefIds=${payments}`, bed.carol)
    expect(summary.body).toMatchObject({ portalApplicationCount: 1, portalApplicationsByStatus: { ACTIVE: 1 }, apiClientCount: 0, apiClientsByState: {}, subscriptionCount: 1, subscriptionsByStatus: { APPROVED: 1 }, productCount: 1 })
    const both = await call('GET', `portal/traffic/summary?projectName=payments&productRefIds=${payments}&productRefIds=Orders%20API,%20Ghost`, bed.carol)
    expect(both.body).toMatchObject({ portalApplicationCount: 1, subscriptionCount: 2, productCount: 2 })
    const none = await call('GET', 'portal/usage?projectName=payments&productRefIds=Ghost', bed.carol)
    expect(none.body).toMatchObject({ status: 'SUCCESS', resultList: [], resultCount: 0 })
    expect((await call('GET', 'portal/usage?projectName=payments&productRefIds=', bed.carol)).body.resultList.map((r: any) => r.name)).toEqual(['checkout', 'mobile-shop'])
    const q = await bed.svc.graphql('query($p: [String!]) { portalUsage(projectName: "payments", productRefIds: $p) portalTrafficSummary(projectName: "payments", productRefIds: $p) }', { p: ['Payments API'] }, bed.carol)
    expect(q.body.data.portalUsage).toEqual(usage.body.resultList)
    const { status: _s, success: _ok, ...counted } = summary.body
    expect(q.body.data.portalTrafficSummary).toEqual(counted)
    const tooLong = await call('GET', `portal/usage?projectName=payments&productRefIds=${'p'.repeat(201)}`, bed.carol)
    expect(tooLong.status).toBe(400)
    expect(tooLong.body).toEqual({ status: 'FAILURE', resultMessage: 'productRefIds: each product reference must be at most 200 characters' })
  })

  it('reads usage in a number of statements that does not grow with the applications', async () => {
    const count = async () => (await graphqlStatements(bed.svc, '{ portalUsage(projectName: "payments") }', {}, bed.carol)).statements.length
    const before = await count()
    for (let i = 0; i < 5; i++) {
      const res = await call('POST', 'portal-apps/provision?projectName=payments', bed.bob, { referenceId: `many-${i}`, name: `many-${i}`, productName: 'Orders API' })
      expect(res.status, res.raw).toBe(200)
    }
    expect((await graphqlStatements(bed.svc, '{ portalUsage(projectName: "payments") }', {}, bed.carol)).data.portalUsage).toHaveLength(7)
    expect(await count()).toBe(before)
  })

  it('GraphQL twins answer as the REST doors', async () => {
    const q = await bed.svc.graphql(`query { portalOrganizations(projectName: "payments") portalUsage(projectName: "payments") portalTrafficSummary(projectName: "payments")
      portalApplicationCredentials(referenceId: "portal-checkout") portalApplicationUsage(referenceId: "portal-checkout") }`, {}, bed.carol)
    expect(q.body.errors).toBeUndefined()
    expect(q.body.data.portalUsage).toEqual((await call('GET', 'portal/usage?projectName=payments', bed.carol)).body.resultList)
    expect(q.body.data.portalApplicationCredentials).toEqual((await call('GET', 'portal-apps/portal-checkout/credentials', bed.carol)).body.resultList)
    const { status: _s, success: _ok, ...summary } = (await call('GET', 'portal/traffic/summary?projectName=payments', bed.carol)).body
    expect(q.body.data.portalTrafficSummary).toEqual(summary)
    const before = await state()
    const refused = await bed.svc.graphql('mutation($i: JSON!) { provisionPortalApplication(projectName: "payments", input: $i) }', { i: { ...PROVISION, referenceId: 'gql-1', code: 'gql-co', organization: null } }, bed.carol)
    expect(refused.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await state()).toBe(before)
    const m = await bed.svc.graphql('mutation($i: JSON!) { provisionPortalApplication(projectName: "payments", input: $i) }', { i: { referenceId: 'gql-1', name: 'gql-app' } }, bed.bob)
    expect(m.body.data.provisionPortalApplication).toMatchObject({ name: 'gql-app', referenceId: 'gql-1', created: true, subscription: null })
  })
})
