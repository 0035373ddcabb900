import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { csvCell } from '../../src/modules/reports/csv.js'
import { REPORT_BATCH } from '../../src/modules/reports/service.js'
import { legacy } from '../apiproxies/automation-proxy-support.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { createPetstore, rlclBootstrap } from '../rlcl/support.js'

// Reports (vendor 02-api-reference/14-reports, issue 17 §5): system administrators and analyzers only, every
// project; streamed in keyset batches (more objects than one batch here), one page with page/size, CSV on Accept.

let svc: TestService
let dev: FakeWorker
let prod: FakeWorker
let erin: string // API_MANAGEMENT MANAGE and nothing installation-wide
let gina: string // MANAGE and DEPLOY_UNDEPLOY
let ana: string // ANALYZER
let root: string // ADMIN

async function report(path: string, token: string | null, accept?: string) {
  const res = await svc.http(`/apiops/reports/${path}`, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(accept ? { accept } : {}) } })
  const text = await res.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {
    // CSV
  }
  return { status: res.status, body, text, type: res.headers.get('content-type') ?? '' }
}

const auditCount = () => svc.deps.prisma.auditEvent.count()

beforeAll(async () => {
  ;[dev, prod] = await Promise.all([FakeWorker.start(), FakeWorker.start()])
  const doc = rlclBootstrap({ dev: [dev.url], prod: [prod.url] })
  // more proxies than one batch, so that the stream crosses batch boundaries
  doc.projects[1]!.apiProxies = Array.from({ length: REPORT_BATCH + 5 }, (_, i) => ({ name: `bulk-${String(i).padStart(3, '0')}`, groups: [], kind: 'REST' })) as never
  svc = await startTestService({ bootstrap: doc })
  ;[erin, gina, ana, root] = await Promise.all([svc.tokenFor('erin', 'erin-pass-1'), svc.tokenFor('gina', 'gina-pass-1'), svc.tokenFor('ana', 'ana-pass-1'), svc.tokenFor('root', 's3cret-root')])
  await createPetstore(svc, erin, 'MyAPI')
  const call = (method: string, path: string, body?: unknown) => legacy(svc, method, `payments/${path}`, gina, body)
  for (const [m, p, b] of [
    // the access report lists only proxies shared EXTERNAL or BOTH (set before the deployment: a settings write bumps the revision)
    ['PATCH', 'apiProxies/MyAPI/settings/metadata/', { sharingType: 'EXTERNAL' }],
    ['PATCH', 'apiProxies/orders-api/settings/metadata/', { sharingType: 'BOTH' }],
    ['POST', 'apiProxies/MyAPI/environments/dev/', undefined],
    ['POST', 'apiProxyGroups/retail/apiProxies/MyAPI/', undefined],
    ['POST', 'rlcl/', { name: 'Gold' }],
    ['POST', 'rlcl/Gold/credentials/', { credentialNameList: ['api-user-1', 'api-user-2'] }],
    ['POST', 'rlcl/Gold/endpoints/', { endpointRateLimitList: [{ apiProxyName: 'MyAPI', endpointName: 'ALL', endpointHTTPMethod: 'ALL', permittedMessageCount: 5, timeIntervalPeriodLength: 1, timeInterval: 'ONE_SECOND', cacheConnectionTimeoutInSeconds: 3, cacheErrorHandlingType: 'FAIL', timeIntervalWindowType: 'FIXED' }] }],
  ] as const) {
    const res = await call(m, p, b)
    if (res.status !== 200) throw new Error(`${m} ${p}: ${JSON.stringify(res.body)}`)
  }
  // the bulk proxies of project other are shared BOTH, but three: INTERNAL, NONE and never set
  const bulk = await svc.deps.prisma.apiProxy.findMany({ where: { project: { name: 'other' } }, orderBy: { name: 'asc' } })
  for (const [i, proxy] of bulk.entries()) {
    if (i === 2) continue
    await svc.deps.prisma.apiProxy.update({ where: { id: proxy.id }, data: { settings: { ...(proxy.settings as object | null), metadata: { sharingType: i === 0 ? 'INTERNAL' : i === 1 ? 'NONE' : 'BOTH' } } } })
  }
  // entitlements: shop-frontend (acme, application checkout) on orders-api; the checkout application on the retail group
  const project = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
  const shop = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
  const checkout = await svc.deps.prisma.application.findFirstOrThrow({ where: { name: 'checkout' } })
  await svc.deps.prisma.entitlement.createMany({
    data: [
      { entitlementKey: 'e-1', projectId: project.id, subjectType: 'CONSUMER', credentialId: shop.id, targetType: 'API_PROXY_ENV', targetRef: 'orders-api', environmentRef: 'prod', assignedBy: 'test' },
      { entitlementKey: 'e-2', projectId: project.id, subjectType: 'APPLICATION', applicationId: checkout.id, targetType: 'API_PROXY_GROUP', targetRef: 'retail', assignedBy: 'test' },
      { entitlementKey: 'e-3', projectId: project.id, subjectType: 'CONSUMER', credentialId: shop.id, targetType: 'API_PROXY', targetRef: 'MyAPI', status: 'ENDED', assignedBy: 'test' },
    ],
  })
})
afterAll(async () => {
  await svc?.close()
  await Promise.all([dev?.stop(), prod?.stop()])
})

describe('API report', () => {
  it('streams every proxy and group of every project to the analyzer, with endpoints, environments, deployment state and policy counts', async () => {
    const res = await report('api-proxies?includeEndpoints=true', ana)
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^application\/json/)
    const objects = res.body.resultList
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: objects.length })
    expect(objects.filter((o: any) => o.objectType === 'API_PROXY')).toHaveLength(REPORT_BATCH + 5 + 2)
    expect(objects.filter((o: any) => o.projectName === 'other')).toHaveLength(REPORT_BATCH + 5)
    // proxies first, then groups
    expect(objects.at(-1)).toMatchObject({ objectType: 'API_PROXY_GROUP', name: 'retail', apiProxies: ['MyAPI', 'orders-api'], endpointCount: 3, deploymentState: 'NOT_DEPLOYED' })
    const my = objects.find((o: any) => o.name === 'MyAPI')
    expect(my).toMatchObject({
      objectType: 'API_PROXY', type: 'REST', projectName: 'payments', groups: ['retail'], endpointCount: 3, policyCount: 0, deploymentState: 'PARTIALLY_DEPLOYED',
      environments: [{ environmentName: 'dev', deployed: true, revision: expect.any(Number), redeployRequired: false }, { environmentName: 'prod', deployed: false, revision: null, redeployRequired: false }],
    })
    expect(my.endpoints.map((e: any) => e.name).sort()).toEqual(['GET /pets', 'GET /pets/{petId}', 'POST /pets'])
    expect(objects.find((o: any) => o.name === 'bulk-000').endpoints).toEqual([]) // asked for, and it has none
    expect((await report('api-proxies', root)).body.resultCount).toBe(res.body.resultCount)
    expect((await report('api-proxies', root)).body.resultList[0]).not.toHaveProperty('endpoints')
    // every entry has endpoints: a group's are its members' (orders-api has none), each naming its proxy
    const retail = objects.find((o: any) => o.name === 'retail')
    expect(retail.endpoints.map((e: any) => [e.apiProxyName, e.name]).sort()).toEqual([['MyAPI', 'GET /pets'], ['MyAPI', 'GET /pets/{petId}'], ['MyAPI', 'POST /pets']])
    expect(retail.endpoints.map((e: any) => e.id).sort()).toEqual(my.endpoints.map((e: any) => e.id).sort())
    expect(objects.every((o: any) => Array.isArray(o.endpoints))).toBe(true)
  })

  it('with includeEndpoints, a group without members has endpoints [] (stream, page, GraphQL)', async () => {
    const created = await legacy(svc, 'POST', 'payments/apiProxyGroups/', gina, { name: 'empty-group', clientRoute: { relativePathList: ['/empty-group'] } })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    try {
      const streamed = (await report('api-proxies?projectName=payments&includeEndpoints=true', ana)).body.resultList.find((o: any) => o.name === 'empty-group')
      expect(streamed).toMatchObject({ objectType: 'API_PROXY_GROUP', apiProxies: [], endpoints: [] })
      const paged = (await report('api-proxies?projectName=payments&includeEndpoints=true&size=200', ana)).body.resultList.find((o: any) => o.name === 'empty-group')
      expect(paged.endpoints).toEqual([])
      const gql = await svc.graphql('query { apiProxyReport(projectName: "payments", includeEndpoints: true, size: 200) { items { name endpoints { name apiProxyName } } } }', {}, ana)
      expect(gql.body.data.apiProxyReport.items.find((i: any) => i.name === 'empty-group').endpoints).toEqual([])
      expect(gql.body.data.apiProxyReport.items.find((i: any) => i.name === 'retail').endpoints).toContainEqual({ name: 'GET /pets', apiProxyName: 'MyAPI' })
      expect((await report('api-proxies?projectName=payments', ana)).body.resultList.find((o: any) => o.name === 'empty-group')).not.toHaveProperty('endpoints')
    } finally {
      expect((await legacy(svc, 'DELETE', 'payments/apiProxyGroups/empty-group/', gina)).status).toBe(200)
    }
  })

  it('answers one page with page and size, and one project with projectName', async () => {
    const page = await report('api-proxies?page=1&size=2&projectName=payments', ana)
    expect(page.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 1, page: 1, size: 2, totalCount: 3 })
    expect(page.body.resultList.map((o: any) => o.name)).toEqual(['retail'])
    const first = await report('api-proxies?size=2&projectName=payments', ana)
    expect(first.body.resultList.map((o: any) => o.name)).toEqual(['MyAPI', 'orders-api'])
  })

  it('answers CSV for Accept: text/csv, one row per object, cells quoted and formula-safe', async () => {
    const res = await report('api-proxies?projectName=payments&includeEndpoints=true', ana, 'text/csv')
    expect(res.status).toBe(200)
    expect(res.type).toMatch(/^text\/csv/)
    const lines = res.text.trimEnd().split('\r\n')
    expect(lines[0]).toBe('objectType,projectName,name,type,description,relativePath,groupsOrApiProxies,endpointCount,policyCount,deploymentState,deployedEnvironments,redeployRequiredEnvironments,endpoints')
    expect(lines).toHaveLength(4)
    expect(lines.find((l) => l.startsWith('API_PROXY,payments,MyAPI,'))).toMatch(/,retail,3,0,PARTIALLY_DEPLOYED,dev,,/)
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell(['dev', 'prod'])).toBe('dev;prod')
    const paged = await report('api-proxies?size=1', root, 'text/csv')
    expect(paged.text.trimEnd().split('\r\n')).toHaveLength(2)
  })

  it('refuses callers that are neither administrator nor analyzer, bad parameters and an unknown project; writes nothing', async () => {
    const before = await auditCount()
    for (const [path, token, message] of [
      ['api-proxies', erin, /Reports are for system administrators and analyzers/],
      ['api-proxies?includeEndpoints=yes', ana, 'includeEndpoints must be true or false'],
      ['api-proxies?size=201', ana, 'size must be an integer from 1 to 200'],
      ['api-proxies?page=-1', ana, 'page must be an integer from 0 to 10000000'],
      ['api-proxies?sort=name', ana, /^sort: unknown query parameter/],
      ['api-proxies?projectName=nowhere', ana, "Project 'nowhere' not found"],
    ] as const) {
      const res = await report(path, token)
      expect(res.status).toBe(400)
      expect(res.body.status).toBe('FAILURE')
      expect(res.body.resultMessage).toMatch(message)
    }
    const anonymous = await report('api-proxies', null)
    expect(anonymous.status).toBe(401)
    expect(await auditCount()).toBe(before)
  })
})

describe('organization access report', () => {
  it('lists who reaches each proxy: entitlements on the proxy, per environment and through a group, and RLCL credentials', async () => {
    const res = await report('organization-api-data-model-access?projectName=payments', ana)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, result: { dataModelList: [] } })
    const byName = Object.fromEntries(res.body.result.apiProxyList.map((p: any) => [p.apiProxyName, p]))
    expect(Object.keys(byName).sort()).toEqual(['MyAPI', 'orders-api'])
    expect(byName['orders-api'].accessList).toEqual(expect.arrayContaining([
      { organizationCode: 'acme', organizationName: 'Acme', applicationName: 'checkout', credentialUsername: 'shop-frontend', environmentName: 'prod', source: 'ENTITLEMENT', via: 'API_PROXY_ENV' },
      { organizationCode: 'acme', organizationName: 'Acme', applicationName: 'checkout', credentialUsername: 'shop-frontend', environmentName: null, source: 'ENTITLEMENT', via: 'API_PROXY_GROUP:retail' },
    ]))
    expect(byName['orders-api'].accessList).toHaveLength(2)
    // the ENDED entitlement on MyAPI is not access; the group entitlement and the RLCL are
    expect(byName.MyAPI.accessList).toEqual([
      { organizationCode: null, organizationName: null, applicationName: null, credentialUsername: 'api-user-2', environmentName: null, source: 'RLCL', via: 'RLCL:Gold' },
      { organizationCode: 'acme', organizationName: 'Acme', applicationName: 'checkout', credentialUsername: 'shop-frontend', environmentName: null, source: 'ENTITLEMENT', via: 'API_PROXY_GROUP:retail' },
      { organizationCode: 'acme-eu', organizationName: 'Acme EU', applicationName: null, credentialUsername: 'api-user-1', environmentName: null, source: 'RLCL', via: 'RLCL:Gold' },
    ])
    expect(byName.MyAPI).toMatchObject({ projectName: 'payments', sharingType: 'EXTERNAL' })
    expect(byName['orders-api']).toMatchObject({ projectName: 'payments', sharingType: 'BOTH' })
  })

  it('streams every project across batches, pages, and answers CSV rows (one per access, one per proxy without any)', async () => {
    const all = await report('organization-api-data-model-access', root)
    // every proxy shared EXTERNAL or BOTH: not bulk-000 (INTERNAL), bulk-001 (NONE) nor bulk-002 (not set)
    expect(all.body.result.apiProxyList).toHaveLength(REPORT_BATCH + 5 - 3 + 2)
    expect(all.body.result.apiProxyList.every((p: any) => ['EXTERNAL', 'BOTH'].includes(p.sharingType))).toBe(true)
    expect(all.body.result.apiProxyList.map((p: any) => p.apiProxyName)).not.toContain('bulk-000')
    expect(all.body.result.apiProxyList.map((p: any) => p.apiProxyName)).toContain('bulk-003')
    const page = await report('organization-api-data-model-access?page=0&size=1&projectName=payments', ana)
    expect(page.body).toMatchObject({ page: 0, size: 1, totalCount: 2, result: { apiProxyList: [{ apiProxyName: 'MyAPI' }] } })
    const csv = await report('organization-api-data-model-access?projectName=payments', ana, 'text/csv, application/json;q=0.5')
    expect(csv.type).toMatch(/^text\/csv/)
    const lines = csv.text.trimEnd().split('\r\n')
    expect(lines[0]).toBe('projectName,apiProxyName,sharingType,organizationCode,organizationName,applicationName,credentialUsername,environmentName,source,via')
    expect(lines).toHaveLength(1 + 3 + 2)
    expect(lines).toContain('payments,MyAPI,EXTERNAL,acme-eu,Acme EU,,api-user-1,,RLCL,RLCL:Gold')
    const other = await report('organization-api-data-model-access?projectName=other&size=200', ana, 'text/csv')
    expect(other.text.trimEnd().split('\r\n')).toHaveLength(1 + REPORT_BATCH + 5 - 3)
    const otherPage = await report('organization-api-data-model-access?projectName=other&size=1', ana)
    expect(otherPage.body).toMatchObject({ totalCount: REPORT_BATCH + 5 - 3, result: { apiProxyList: [{ apiProxyName: 'bulk-003', sharingType: 'BOTH' }] } })
  })

  it('refuses other callers and bad parameters', async () => {
    for (const [path, token, message] of [
      ['organization-api-data-model-access', gina, /Reports are for system administrators and analyzers/],
      ['organization-api-data-model-access?includeEndpoints=true', ana, /^includeEndpoints: unknown query parameter/],
      ['organization-api-data-model-access?size=0', ana, 'size must be an integer from 1 to 200'],
      ['organization-api-data-model-access?projectName=', ana, 'projectName must not be blank'],
    ] as const) {
      const res = await report(path, token)
      expect(res.status).toBe(400)
      expect(res.body.resultMessage).toMatch(message)
    }
    expect((await report('organization-api-data-model-access', null)).status).toBe(401)
  })
})

describe('the analyzer role', () => {
  it('reads any project and changes nothing', async () => {
    expect((await legacy(svc, 'GET', 'other/apiProxies/', ana)).status).toBe(200)
    expect((await legacy(svc, 'GET', 'payments/apiProxyGroups/', ana)).status).toBe(200)
    const write = await legacy(svc, 'POST', 'payments/apiProxyGroups/', ana, { name: 'x', clientRoute: { relativePathList: ['/x'] } })
    expect(write.status).toBe(400)
    expect(write.body.resultMessage).toMatch(/lacks permission API_MANAGEMENT MANAGE/)
    expect(await svc.deps.prisma.apiProxyGroup.count({ where: { name: 'x' } })).toBe(0)
  })
})

describe('GraphQL twins (one page, JSON)', () => {
  it('pages the API report and the access report with the REST page\'s content', async () => {
    const api = await svc.graphql('query { apiProxyReport(projectName: "payments", includeEndpoints: true, page: 0, size: 200) { page size totalCount items { objectType name policyCount endpointCount deploymentState environments { environmentName deployed } endpoints { method path } groups apiProxies } } }', {}, ana)
    expect(api.body.errors).toBeUndefined()
    const rest = await report('api-proxies?projectName=payments&includeEndpoints=true&page=0&size=200', ana)
    const page = api.body.data.apiProxyReport
    expect(page).toMatchObject({ page: 0, size: 200, totalCount: rest.body.totalCount })
    expect(page.items.map((e: any) => e.name)).toEqual(rest.body.resultList.map((e: any) => e.name))
    const myApi = page.items.find((e: any) => e.name === 'MyAPI')
    const restMyApi = rest.body.resultList.find((e: any) => e.name === 'MyAPI')
    expect(myApi).toMatchObject({ objectType: 'API_PROXY', endpointCount: restMyApi.endpointCount, policyCount: restMyApi.policyCount, deploymentState: restMyApi.deploymentState, groups: restMyApi.groups })
    expect(myApi.endpoints).toHaveLength(restMyApi.endpoints.length)

    const access = await svc.graphql('query { organizationAccessReport(projectName: "payments", size: 1) { page size totalCount items { apiProxyName projectName accessList { credentialUsername source via } } } }', {}, root)
    expect(access.body.errors).toBeUndefined()
    const restAccess = await report('organization-api-data-model-access?page=0&size=1&projectName=payments', root)
    expect(access.body.data.organizationAccessReport).toMatchObject({ page: 0, size: 1, totalCount: restAccess.body.totalCount, items: [{ apiProxyName: restAccess.body.result.apiProxyList[0].apiProxyName }] })
    expect(access.body.data.organizationAccessReport.items[0].accessList).toHaveLength(restAccess.body.result.apiProxyList[0].accessList.length)
  })

  it('refuses other callers and bad arguments with the REST messages', async () => {
    const denied = await svc.graphql('query { apiProxyReport { totalCount } }', {}, gina)
    expect(denied.body.errors![0].message).toMatch(/Reports are for system administrators and analyzers/)
    expect(denied.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    const deniedAccess = await svc.graphql('query { organizationAccessReport { totalCount } }', {}, erin)
    expect(deniedAccess.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    const size = await svc.graphql('query { apiProxyReport(size: 500) { totalCount } }', {}, ana)
    expect(size.body.errors![0].message).toBe('size must be an integer from 1 to 200')
    const project = await svc.graphql('query { organizationAccessReport(projectName: "ghost") { totalCount } }', {}, ana)
    expect(project.body.errors![0].message).toBe("Project 'ghost' not found")
  })
})
