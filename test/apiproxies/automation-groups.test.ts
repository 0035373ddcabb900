import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { automationBootstrap, legacy } from './automation-proxy-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// API proxy groups (vendor 09-api-proxy-groups, issue 13 bullet 6), legacy envelope of spec §7.1.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE and DEPLOY_UNDEPLOY; alice: no API_MANAGEMENT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1', alice: 'alice-pass-1' } })

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxyGroups/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const snapshot = async () =>
  JSON.stringify(await bed.svc.deps.prisma.apiProxyGroup.findMany({ orderBy: { name: 'asc' }, include: { proxies: { select: { name: true } }, deployments: { select: { environmentName: true } } } }))

const PAYMENT_GROUP = {
  name: 'PaymentAPIGroup',
  description: 'Payment API Group',
  clientRoute: { relativePathList: ['/api/v1/payment'], methodList: ['GET', 'POST', 'PUT', 'DELETE'], hostList: null, headerList: null, bufferRequest: true, bufferResponse: true },
}

const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(write, message, { state: snapshot, pushes })

beforeAll(async () => {
  for (const name of ['PaymentAPI', 'RefundAPI']) {
    const res = await legacy(bed.svc, 'POST', 'payments/apiProxies/url/', bed.erin, { apiProxyName: name, apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: [`/${name}`] } })
    if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  }
})

describe('crud', () => {
  it("replays the create examples and lists the groups (id, name, description, and the client route they wrote)", async () => {
    expect((await call('POST', '', bed.erin, PAYMENT_GROUP)).body).toEqual({ status: 'SUCCESS', success: true })
    const restricted = { name: 'RestrictedAPIGroup', description: 'Restricted API Group', clientRoute: { relativePathList: ['/api/v1/restricted'], methodList: ['GET', 'POST'], hostList: ['api.example.com', 'api-staging.example.com'], headerList: null, bufferRequest: true, bufferResponse: true } }
    const versioned = { name: 'VersionedAPIGroup', description: 'Versioned API Group', clientRoute: { relativePathList: ['/api/v1'], methodList: ['ALL'], hostList: null, headerList: [{ name: 'X-API-Version', value: 'v1' }], bufferRequest: true, bufferResponse: true } }
    expect((await call('POST', '', bed.erin, restricted)).status).toBe(200)
    expect((await call('POST', '', bed.erin, versioned)).status).toBe(200)
    const res = await call('GET', '', bed.frank)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 4 })
    // 'retail' comes from the bootstrap file (orders-api's group): the same ApiProxyGroup rows
    // ordered by name in the database's collation, which differs between PGlite and PostgreSQL for mixed case
    expect(res.body.resultList.map((g: any) => g.name).sort()).toEqual(['PaymentAPIGroup', 'RestrictedAPIGroup', 'VersionedAPIGroup', 'retail'])
    expect(res.body.resultList.find((g: any) => g.name === 'PaymentAPIGroup')).toEqual({
      id: expect.any(String), name: 'PaymentAPIGroup', description: 'Payment API Group',
      clientRoute: { relativePathList: ['/api/v1/payment'], hostList: [], methodList: ['GET', 'POST', 'PUT', 'DELETE'], headerList: [], bufferRequest: true, bufferResponse: true },
    })
    const row = await bed.svc.deps.prisma.apiProxyGroup.findFirstOrThrow({ where: { name: 'VersionedAPIGroup' } })
    expect(row.clientRoute).toMatchObject({ relativePathList: ['/api/v1'], methodList: ['ALL'], headerList: [{ name: 'X-API-Version', value: 'v1' }] })
  })

  it('updates a group by the name in the body', async () => {
    const res = await call('PUT', '', bed.erin, { ...PAYMENT_GROUP, description: 'Updated Payment API Group', clientRoute: { relativePathList: ['/api/v2/payment'], methodList: ['GET', 'POST', 'PUT', 'DELETE'], bufferRequest: true, bufferResponse: true } })
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    const row = await bed.svc.deps.prisma.apiProxyGroup.findFirstOrThrow({ where: { name: 'PaymentAPIGroup' } })
    expect(row).toMatchObject({ description: 'Updated Payment API Group', clientRoute: { relativePathList: ['/api/v2/payment'] } })
  })

  it('refuses every cause the pages list; nothing is written', async () => {
    await expectRefused(() => call('POST', '', bed.erin, { ...PAYMENT_GROUP, name: 'paymentapigroup' }), /API proxy group 'PaymentAPIGroup' already exists; use the update endpoint/)
    await expectRefused(() => call('POST', '', bed.erin, { ...PAYMENT_GROUP, name: '' }), /^name: must not be blank/)
    await expectRefused(() => call('POST', '', bed.erin, { name: 'NoRoute' }), /^clientRoute:/)
    await expectRefused(() => call('POST', '', bed.erin, { name: 'NoPath', clientRoute: { relativePathList: [] } }), /^clientRoute.relativePathList: needs at least one relative path/)
    await expectRefused(() => call('POST', '', bed.erin, { name: 'EmptyPath', clientRoute: { relativePathList: [''] } }), /^clientRoute.relativePathList\[0\]: must be at least 2 characters long/)
    await expectRefused(() => call('POST', '', bed.erin, { name: 'BadMethod', clientRoute: { relativePathList: ['/x1'], methodList: ['FETCH'] } }), /^clientRoute.methodList\[0\]: must be one of/)
    await expectRefused(() => call('PUT', '', bed.erin, { ...PAYMENT_GROUP, name: 'GhostGroup' }), /API proxy group 'GhostGroup' not found/)
    await expectRefused(() => call('POST', '', bed.frank, { ...PAYMENT_GROUP, name: 'ViewerGroup' }), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => legacy(bed.svc, 'POST', 'nowhere/apiProxyGroups/', bed.erin, PAYMENT_GROUP), /Project 'nowhere' not found/)
    expect((await call('GET', '', bed.alice)).body.resultMessage).toMatch(/lacks permission API_MANAGEMENT VIEW/)
    const anonymous = await call('GET', '', null)
    expect(anonymous.status).toBe(401)
  })
})

describe('membership (…/{apiProxyGroupName}/apiProxies/{apiProxyName}/)', () => {
  it('adds and removes proxies idempotently; GraphQL sees the same groups', async () => {
    expect((await call('POST', 'PaymentAPIGroup/apiProxies/PaymentAPI/', bed.erin)).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('POST', 'PaymentAPIGroup/apiProxies/PaymentAPI/', bed.erin)).body).toEqual({ status: 'SUCCESS', success: true })
    await call('POST', 'PaymentAPIGroup/apiProxies/RefundAPI/', bed.erin)
    const gql = await bed.svc.graphql('query { apiProxy(projectName: "payments", name: "PaymentAPI") { groups } }', {}, bed.frank)
    expect(gql.body.data.apiProxy.groups).toEqual(['PaymentAPIGroup'])
    expect((await call('DELETE', 'RestrictedAPIGroup/apiProxies/PaymentAPI/', bed.erin)).body).toEqual({ status: 'SUCCESS', success: true })
    const members = await bed.svc.deps.prisma.apiProxy.findMany({ where: { groups: { some: { name: 'PaymentAPIGroup' } } }, orderBy: { name: 'asc' }, select: { name: true } })
    expect(members.map((m) => m.name)).toEqual(['PaymentAPI', 'RefundAPI'])
  })

  it('refuses an unknown group or proxy and a missing permission', async () => {
    await expectRefused(() => call('POST', 'GhostGroup/apiProxies/PaymentAPI/', bed.erin), /API proxy group 'GhostGroup' not found/)
    await expectRefused(() => call('POST', 'PaymentAPIGroup/apiProxies/MyAPI/', bed.erin), /API proxy 'MyAPI' not found/)
    await expectRefused(() => call('DELETE', 'PaymentAPIGroup/apiProxies/PaymentAPI/', bed.frank), /lacks permission API_MANAGEMENT MANAGE/)
  })
})

describe('deployment (…/{apiProxyGroupName}/environments/…)', () => {
  it("replays deploy, list environments and undeploy: one message with every member", async () => {
    const res = await call('POST', 'PaymentAPIGroup/environments/prod/', bed.gina)
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true,
      deploymentResult: { success: true, message: expect.any(String), environmentResults: [{ environmentName: 'prod', success: true, message: 'Acknowledged' }] },
    })
    expect(bed.dev.received).toHaveLength(0)
    expect(bed.prod.received).toHaveLength(1)
    expect(bed.prod.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY_GROUP', name: 'PaymentAPIGroup', config: { clientRoute: { relativePathList: ['/api/v2/payment'] } } })
    expect((bed.prod.received[0]!.config.apiProxies as any[]).map((p) => p.name)).toEqual(['PaymentAPI', 'RefundAPI'])
    const envs = await call('GET', 'PaymentAPIGroup/environments/', bed.frank)
    expect(envs.body).toEqual({ status: 'SUCCESS', success: true, resultList: [{ environmentName: 'dev', deployed: false }, { environmentName: 'prod', deployed: true }], resultCount: 2 })
    // the members count as deployed there
    const detail = await legacy(bed.svc, 'GET', 'payments/apiProxies/PaymentAPI/', bed.frank)
    expect(detail.body.deploymentList).toMatchObject([{ environmentName: 'dev', deployed: false }, { environmentName: 'prod', deployed: true }])
    const undeploy = await call('DELETE', 'PaymentAPIGroup/environments/prod/', bed.gina)
    expect(undeploy.body.deploymentResult).toMatchObject({ success: true, environmentResults: [{ environmentName: 'prod', success: true }] })
    expect(bed.prod.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'API_PROXY_GROUP', name: 'PaymentAPIGroup' })
    expect((await call('GET', 'PaymentAPIGroup/environments/', bed.frank)).body.resultList).toEqual([{ environmentName: 'dev', deployed: false }, { environmentName: 'prod', deployed: false }])
  })

  it('reports a failing worker and leaves the group undeployed there', async () => {
    bed.dev.status = 503
    const res = await call('POST', 'PaymentAPIGroup/environments/dev/', bed.gina)
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: false, environmentResults: [{ environmentName: 'dev', success: false, message: expect.stringMatching(/HTTP 503/) }] })
    expect((await call('GET', 'PaymentAPIGroup/environments/', bed.frank)).body.resultList[0]).toEqual({ environmentName: 'dev', deployed: false })
  })

  it('refuses an unknown group or environment and a missing DEPLOY_UNDEPLOY; nothing is pushed', async () => {
    await expectRefused(() => call('POST', 'GhostGroup/environments/dev/', bed.gina), /API proxy group 'GhostGroup' not found/)
    await expectRefused(() => call('POST', 'PaymentAPIGroup/environments/production/', bed.gina), /environment 'production' not found in project 'payments'/)
    await expectRefused(() => call('POST', 'PaymentAPIGroup/environments/dev/', bed.erin), /lacks permission API_MANAGEMENT DEPLOY_UNDEPLOY/)
    await expectRefused(() => call('DELETE', 'PaymentAPIGroup/environments/dev/', bed.frank), /lacks permission API_MANAGEMENT DEPLOY_UNDEPLOY/)
    await expectRefused(() => call('GET', 'GhostGroup/environments/', bed.frank), /API proxy group 'GhostGroup' not found/)
    await expectRefused(() => call('GET', 'Ghost%00Group/environments/', bed.frank), /^apiProxyGroupName: must not contain/)
    await expectRefused(() => call('DELETE', 'PaymentAPIGroup/apiProxies/Pay%00mentAPI/', bed.erin), /^apiProxyName: must not contain/)
  })

  it('deletes a group: its proxies stay, it is undeployed where it ran', async () => {
    await call('POST', 'PaymentAPIGroup/environments/dev/', bed.gina)
    bed.dev.received.length = 0
    const res = await call('DELETE', 'PaymentAPIGroup/', bed.erin)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true, environmentResults: [{ environmentName: 'dev', success: true }] } })
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'API_PROXY_GROUP', name: 'PaymentAPIGroup' })])
    expect(await bed.svc.deps.prisma.apiProxy.count({ where: { name: { in: ['PaymentAPI', 'RefundAPI'] } } })).toBe(2)
    expect((await call('DELETE', 'RestrictedAPIGroup/', bed.erin)).body).toEqual({ status: 'SUCCESS', success: true })
    await expectRefused(() => call('DELETE', 'PaymentAPIGroup/', bed.erin), /API proxy group 'PaymentAPIGroup' not found/)
    await expectRefused(() => call('DELETE', 'VersionedAPIGroup/', bed.frank), /lacks permission API_MANAGEMENT MANAGE/)
  })
})

describe('GraphQL door (same services)', () => {
  it('creates, lists, fills and deploys a group', async () => {
    const created = await bed.svc.graphql('mutation($i: JSON!) { createApiProxyGroup(projectName: "payments", input: $i) { name description clientRoute } }',
      { i: { name: 'GqlGroup', description: 'via GraphQL', clientRoute: { relativePathList: ['/gql'] } } }, bed.erin)
    expect(created.body.data.createApiProxyGroup).toMatchObject({ name: 'GqlGroup', description: 'via GraphQL', clientRoute: { relativePathList: ['/gql'] } })
    expect((await bed.svc.graphql('mutation { addApiProxyToGroup(projectName: "payments", groupName: "GqlGroup", apiProxyName: "RefundAPI") }', {}, bed.erin)).body.data).toEqual({ addApiProxyToGroup: true })
    const deployed = await bed.svc.graphql('mutation { deployApiProxyGroup(projectName: "payments", name: "GqlGroup", environmentName: "dev") { success environmentResults { environmentName success } } }', {}, bed.gina)
    expect(deployed.body.data.deployApiProxyGroup).toEqual({ success: true, environmentResults: [{ environmentName: 'dev', success: true }] })
    const envs = await bed.svc.graphql('query { apiProxyGroupEnvironments(projectName: "payments", name: "GqlGroup") { environmentName deployed } }', {}, bed.frank)
    expect(envs.body.data.apiProxyGroupEnvironments).toEqual([{ environmentName: 'dev', deployed: true }, { environmentName: 'prod', deployed: false }])
    const groups = await bed.svc.graphql('query { apiProxyGroups(projectName: "payments") { name } }', {}, bed.frank)
    expect(groups.body.data.apiProxyGroups.map((g: any) => g.name)).toContain('GqlGroup')
    expect((await call('GET', '', bed.frank)).body.resultList.map((g: any) => g.name)).toContain('GqlGroup')
    const refused = await bed.svc.graphql('mutation { deleteApiProxyGroup(projectName: "payments", name: "GqlGroup") { success } }', {}, bed.frank)
    expect(refused.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
  })
})

describe('audit trail', () => {
  it('names the group (not the environment or the member proxy) on every group write', async () => {
    await call('POST', '', bed.erin, { ...PAYMENT_GROUP, name: 'AuditedGroup', clientRoute: { relativePathList: ['/audited'] } })
    await call('POST', 'AuditedGroup/apiProxies/PaymentAPI/', bed.erin)
    await call('POST', 'AuditedGroup/environments/dev/', bed.gina)
    await call('DELETE', 'AuditedGroup/', bed.erin)
    const events = await bed.svc.deps.prisma.auditEvent.findMany({ where: { objectType: 'API_PROXY_GROUP', operation: { contains: 'apiProxyGroups' } }, orderBy: { id: 'asc' } })
    const ours = events.filter((e) => e.objectName === 'AuditedGroup').map((e) => e.operation)
    expect(ours).toEqual([
      expect.stringMatching(/^POST .*apiProxyGroups\/$/),
      expect.stringMatching(/^POST .*apiProxies\/:apiProxyName\/$/),
      expect.stringMatching(/^POST .*environments\/:environmentName\/$/),
      expect.stringMatching(/^DELETE .*:apiProxyGroupName\/$/),
    ])
    expect(events.some((e) => e.objectName === 'dev' || e.objectName === 'PaymentAPI')).toBe(false)
  })
})
