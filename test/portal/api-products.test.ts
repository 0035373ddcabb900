import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import { sampleBootstrap } from '../support/fixtures.js'

// API products (the vendor's ApiProduct operations of its openapi.yaml; no page shows them, docs/portal.md): promoted
// by referenceId, listed with their approved subscriptions, and the subscription plans the limits record.

function bootstrap(workers: { dev: string[] }) {
  const doc = sampleBootstrap(workers)
  doc.users.push({ username: 'erin', password: 'erin-pass-1' }, { username: 'frank', password: 'frank-pass-1' }, { username: 'olga', password: 'olga-pass-1' })
  doc.projects[0]!.members!.push({ username: 'erin', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }] }, { username: 'frank', permissions: [{ category: 'API_MANAGEMENT', level: 'VIEW' }] })
  return doc
}
// erin: API_MANAGEMENT MANAGE; frank: VIEW; carol: IDENTITY VIEW only; olga: no project
const bed = useTestbed({ workers: ['dev'], bootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', carol: 'carol-pass-1', olga: 'olga-pass-1', root: 's3cret-root' } })

async function call(method: string, path: string, token: string | null, body?: unknown): Promise<LegacyAnswer & { raw: string }> {
  const res = await bed.svc.http(`/apiops/${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const raw = await res.text()
  return { status: res.status, body: raw ? JSON.parse(raw) : undefined, raw }
}
const state = async () => JSON.stringify(await bed.svc.deps.prisma.apiProduct.findMany({ orderBy: { name: 'asc' } }))
const expectRefused = (c: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(c, message, { state, pushes: () => bed.dev.received.length })

/** The vendor's ProdProductPromoteRequestDTO fields. */
const PROMOTE = {
  referenceId: 'prod-ref-1', name: 'Payments API', nameDefault: 'Payments API', nameSecondary: 'Ödeme API', titleDefault: 'Payments', titleSecondary: 'Ödemeler',
  descriptionDefault: 'Pay things', descriptionSecondary: 'Öde', prodPortalId: 'portal-1', type: 'PUBLIC',
}

beforeAll(async () => {
  const payments = await bed.svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'payments' } })
  const app = await bed.svc.deps.prisma.application.findFirstOrThrow({ where: { name: 'checkout' } })
  await bed.svc.deps.prisma.productSubscription.create({ data: { projectId: payments.id, applicationId: app.id, productName: 'Payments API', status: 'APPROVED' } })
  await bed.svc.deps.prisma.limitPlan.createMany({ data: [
    { scope: `project:${payments.id}`, projectId: payments.id, planKey: 'gold-rate', family: 'REQUEST_RATE', name: 'Gold rate', createdBy: 'test', managedBySubscriptionPlanId: 'plan-gold', managedBySubscriptionPlanName: 'Gold', currentPublishedRevision: 1, lifecycle: 'PUBLISHED' },
    { scope: `project:${payments.id}`, projectId: payments.id, planKey: 'gold-tokens', family: 'AI_TOKEN_BUDGET', name: 'Gold tokens', createdBy: 'test', managedBySubscriptionPlanId: 'plan-gold', managedBySubscriptionPlanName: 'Gold' },
    { scope: `project:${payments.id}`, projectId: payments.id, planKey: 'plain', family: 'REQUEST_RATE', name: 'Plain', createdBy: 'test' },
  ] })
})

describe('API products', () => {
  it('promotes the vendor request, lists it with its approved subscriptions, promotes again as an update', async () => {
    const res = await call('POST', 'api-products/promote?projectName=payments', bed.erin, PROMOTE)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', referenceId: 'prod-ref-1', name: 'Payments API', nameSecondary: 'Ödeme API', portalId: 'portal-1', type: 'PUBLIC', approvedSubscriptionCount: 1, created: true })
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { operation: 'POST /apiops/api-products/promote' }, orderBy: { id: 'desc' } })
    expect(audit).toMatchObject({ actor: 'erin', objectType: 'API_PRODUCT', objectName: 'prod-ref-1', outcome: 'SUCCEEDED' })
    const again = await call('POST', 'api-products/promote?projectName=payments', bed.erin, { ...PROMOTE, titleDefault: 'Payments v2' })
    expect(again.body).toMatchObject({ id: res.body.id, titleDefault: 'Payments v2', created: false })
    await call('POST', 'api-products/promote?projectName=payments', bed.erin, { referenceId: 'prod-ref-2', nameDefault: 'Orders API', prodPortalId: 'portal-2' })
    const list = await call('GET', 'api-products?projectName=payments', bed.frank)
    expect(list.body).toMatchObject({ status: 'SUCCESS', resultCount: 2 })
    expect(list.body.resultList.map((p: any) => [p.name, p.approvedSubscriptionCount])).toEqual([['Orders API', 0], ['Payments API', 1]])
    expect((await call('GET', 'api-products?projectName=payments&portalId=portal-2', bed.frank)).body.resultList.map((p: any) => p.name)).toEqual(['Orders API'])
  })

  it('lists the subscription plans the limits record for the product\'s project', async () => {
    const res = await call('GET', 'api-products/prod-ref-1/plans', bed.frank)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true, referenceId: 'prod-ref-1', productName: 'Payments API', approvedSubscriptionCount: 1,
      plans: [{ planId: 'plan-gold', planName: 'Gold', families: ['AI_TOKEN_BUDGET', 'REQUEST_RATE'], limitPlans: [
        { planKey: 'gold-tokens', family: 'AI_TOKEN_BUDGET', scope: expect.any(String), published: false },
        { planKey: 'gold-rate', family: 'REQUEST_RATE', scope: expect.any(String), published: true },
      ] }],
    })
    const notFound = { status: 'FAILURE', resultMessage: "API product 'prod-ref-1' not found" }
    expect((await call('GET', 'api-products/prod-ref-1/plans', bed.olga)).body).toEqual(notFound)
    expect((await call('GET', 'api-products/prod-ref-1/plans?projectName=other', bed.frank)).body).toEqual(notFound)
    expect((await call('GET', 'api-products/prod-ref-1/plans', bed.carol)).body.resultMessage).toMatch(/^User lacks permission API_MANAGEMENT VIEW in project 'payments'$/)
    expect((await call('GET', 'api-products/no-such/plans', bed.frank)).body).toEqual({ status: 'FAILURE', resultMessage: "API product 'no-such' not found" })
  })

  it('refuses every cause; nothing written', async () => {
    await expectRefused(() => call('POST', 'api-products/promote?projectName=payments', bed.olga, { probe: 1 }), /^Project 'payments' not found$/)
    await expectRefused(() => call('POST', 'api-products/promote?projectName=payments', bed.frank, { probe: 1 }), /^User lacks permission API_MANAGEMENT MANAGE in project 'payments'$/)
    await expectRefused(() => call('POST', 'api-products/promote', bed.erin, PROMOTE), /^projectName: is required/)
    await expectRefused(() => call('POST', 'api-products/promote?projectName=payments', bed.erin, { ...PROMOTE, referenceId: ' ' }), /^referenceId: must not be blank/)
    await expectRefused(() => call('POST', 'api-products/promote?projectName=payments', bed.erin, { referenceId: 'r-9' }), /^name: is required/)
    await expectRefused(() => call('POST', 'api-products/promote?projectName=payments', bed.erin, { ...PROMOTE, referenceId: 'r-10' }), /^API product 'Payments API' already exists with another referenceId/)
    await expectRefused(() => call('POST', 'api-products/promote?projectName=payments', bed.erin, { ...PROMOTE, extra: 1 }), /extra/)
    await expectRefused(() => call('POST', 'api-products/promote?projectName=payments', bed.erin), /body/i)
    expect((await call('GET', 'api-products?projectName=payments', bed.carol)).body.resultMessage).toMatch(/^User lacks permission API_MANAGEMENT VIEW/)
    expect((await call('GET', 'api-products', bed.frank)).body.resultMessage).toMatch(/^projectName: is required/)
  })

  it('GraphQL twins answer as the REST doors', async () => {
    const q = await bed.svc.graphql('query { apiProducts(projectName: "payments") apiProductPlans(referenceId: "prod-ref-1") }', {}, bed.frank)
    expect(q.body.errors).toBeUndefined()
    expect(q.body.data.apiProducts).toEqual((await call('GET', 'api-products?projectName=payments', bed.frank)).body.resultList)
    const { status: _s, success: _ok, ...plans } = (await call('GET', 'api-products/prod-ref-1/plans', bed.frank)).body
    expect(q.body.data.apiProductPlans).toEqual(plans)
    const before = await state()
    const refused = await bed.svc.graphql('mutation($i: JSON!) { promoteApiProduct(projectName: "payments", input: $i) }', { i: { referenceId: 'g-1', name: 'G1' } }, bed.frank)
    expect(refused.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await state()).toBe(before)
    const m = await bed.svc.graphql('mutation($i: JSON!) { promoteApiProduct(projectName: "payments", input: $i) }', { i: { referenceId: 'g-1', name: 'G1' } }, bed.erin)
    expect(m.body.data.promoteApiProduct).toMatchObject({ referenceId: 'g-1', name: 'G1', created: true })
  })
})

describe('a deleted project', () => {
  it('takes its API products with it', async () => {
    const made = await bed.svc.graphql('mutation { createProject(input: { name: "short-lived" }) { name } }', {}, bed.root)
    expect(made.body.errors).toBeUndefined()
    const project = await bed.svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'short-lived' } })
    await bed.svc.deps.prisma.apiProduct.create({ data: { projectId: project.id, referenceId: 'gone-ref', name: 'Gone API' } })
    const res = await bed.svc.graphql('mutation { deleteProject(name: "short-lived") }', {}, bed.root)
    expect(res.body).toEqual({ data: { deleteProject: true } })
    expect(await bed.svc.deps.prisma.apiProduct.count({ where: { referenceId: 'gone-ref' } })).toBe(0)
  })
})
