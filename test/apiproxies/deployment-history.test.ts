import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import { automationBootstrap, legacy, PETSTORE, PETSTORE_V2_YAML } from './automation-proxy-support.js'

// The API proxy lifecycle pages (apinizer/docs api-reference/api-proxies/deployment, api-proxy-groups/deployment):
// deploy status, route health, deploy histories (list, detail, delete) and rollback, for proxies and groups.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE, DEPLOY_UNDEPLOY, EXPORT_IMPORT; alice: no API_MANAGEMENT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1', alice: 'alice-pass-1' } })

const proxies = (path: string, token: string | null, method = 'GET', body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const groups = (path: string, token: string | null, method = 'GET', body?: unknown) => legacy(bed.svc, method, `payments/apiProxyGroups/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const state = async () => {
  const db = bed.svc.deps.prisma
  return Promise.all([
    db.apiDeployHistory.findMany({ orderBy: [{ deployedAt: 'asc' }, { revision: 'asc' }] }),
    db.apiProxy.findMany({ orderBy: { name: 'asc' }, include: { endpoints: { orderBy: [{ path: 'asc' }, { method: 'asc' }] }, policies: true } }),
    db.apiProxyGroup.findMany({ orderBy: { name: 'asc' }, include: { proxies: { select: { name: true } } } }),
    db.apiProxyDeployment.findMany({ orderBy: [{ apiProxyId: 'asc' }, { environmentName: 'asc' }] }),
  ])
}
const refused = (call: () => Promise<LegacyAnswer>, message: RegExp | string) => expectLegacyRefusal(call, message, { state, pushes })

function specForm(name: string, spec: string, file: string, extra: Record<string, unknown> = {}) {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: name, apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/petstore'] }, backendApiVersion: '1.0.0', ...extra }))
  form.append('specFile', new Blob([spec]), file)
  return form
}

beforeAll(async () => {
  const created = await proxies('file/', bed.gina, 'POST', specForm('petstore-api', JSON.stringify(PETSTORE), 'openapi.json', { apiProxyDescription: 'first' }))
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  // a secret of the settings pages travels in the snapshot sealed, and comes back with a rollback
  const ntlm = await proxies('petstore-api/settings/ntlm/', bed.erin, 'PATCH', { enabled: true, domain: 'EXAMPLE', username: 'user', password: 'ntlm-pass-1', workstation: 'WS01' })
  if (ntlm.status !== 200) throw new Error(JSON.stringify(ntlm.body))
})

describe('deploy, deploy status and deploy history of an API proxy', () => {
  it("records the deploy page's example body; deploy-status and the history read as the pages show", async () => {
    const never = await proxies('petstore-api/environments/dev/deploy-status/', bed.frank)
    expect(never.body).toEqual({ status: 'SUCCESS', success: true, resultList: [{ deployed: false, lastDeployTime: null, revision: null, redeployRequired: false }], resultCount: 1 })

    const deployed = await proxies('petstore-api/environments/dev/', bed.gina, 'POST', { description: 'v2.1 release', persistent: true })
    expect(deployed.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(bed.dev.received.map((m) => [m.action, m.kind, m.name])).toEqual([['DEPLOY', 'API_PROXY', 'petstore-api']])

    const list = await proxies('petstore-api/deploy-histories/', bed.frank)
    expect(list.body).toEqual({
      status: 'SUCCESS', success: true,
      resultList: [{ revision: 1, username: 'gina', deploymentTime: expect.any(String), description: 'v2.1 release', environment: 'dev', deploy: true, persistent: true, backendApiVersion: '1.0.0' }],
      resultCount: 1,
    })
    const detail = await proxies('petstore-api/deploy-histories/1/', bed.frank)
    expect(detail.body).toEqual({ status: 'SUCCESS', success: true, resultList: list.body.resultList, resultCount: 1 })

    const status = await proxies('petstore-api/environments/dev/deploy-status/', bed.frank)
    expect(status.body.resultList).toEqual([{ deployed: true, lastDeployTime: list.body.resultList[0].deploymentTime, revision: 1, redeployRequired: false }])
    // the snapshot holds the secret sealed, never in clear
    const row = await bed.svc.deps.prisma.apiDeployHistory.findFirstOrThrow({ where: { revision: 1, apiProxy: { name: 'petstore-api' } } })
    expect(JSON.stringify(row.snapshot)).not.toContain('ntlm-pass-1')
    expect(row.snapshot).toMatchObject({ data: { description: 'first' }, secrets: { 'settings/ntlm.password': { handling: 'CIPHERTEXT_VERBATIM' } } })
  })

  it('without a body the record gets the default description; an undeploy is a record too; a failed environment gets none', async () => {
    bed.prod.status = 500
    const failed = await proxies('petstore-api/environments/prod/', bed.gina, 'POST')
    expect(failed.body.deploymentResult).toMatchObject({ success: false })
    expect(await bed.svc.deps.prisma.apiDeployHistory.count({ where: { environmentName: 'prod' } })).toBe(0)
    bed.prod.status = 200
    await proxies('petstore-api/environments/prod/', bed.gina, 'POST')
    await proxies('petstore-api/environments/prod/', bed.gina, 'DELETE')
    const list = (await proxies('petstore-api/deploy-histories/', bed.frank)).body.resultList
    expect(list.map((r: any) => [r.revision, r.environment, r.deploy, r.description, r.persistent])).toEqual([
      [3, 'prod', false, 'Undeployed by APIOPS Api', false],
      [2, 'prod', true, 'Deployed by APIOPS Api', false],
      [1, 'dev', true, 'v2.1 release', true],
    ])
    expect((await proxies('petstore-api/environments/prod/deploy-status/', bed.frank)).body.resultList[0]).toMatchObject({ deployed: false, revision: 2, redeployRequired: false })
  })

  it("records the undeploy page's example body (description, persistent); a bad body is refused, nothing undeployed", async () => {
    await proxies('petstore-api/environments/prod/', bed.gina, 'POST')
    await refused(() => proxies('petstore-api/environments/prod/', bed.gina, 'DELETE', { persistent: 1 }), /^persistent:/)
    const undeployed = await proxies('petstore-api/environments/prod/', bed.gina, 'DELETE', { description: 'Scheduled maintenance', persistent: true })
    expect(undeployed.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    const [newest] = (await proxies('petstore-api/deploy-histories/', bed.frank)).body.resultList
    expect(newest).toMatchObject({ environment: 'prod', deploy: false, description: 'Scheduled maintenance', persistent: true, username: 'gina' })
  })

  it('refuses what the pages list; nothing is written or pushed', async () => {
    await refused(() => proxies('petstore-api/environments/dev/', bed.gina, 'POST', { description: 'x', note: 'y' }), /note/)
    await refused(() => proxies('petstore-api/environments/dev/', bed.gina, 'POST', { persistent: 'yes' }), /^persistent:/)
    await refused(() => proxies('ghost/environments/dev/deploy-status/', bed.frank), "API proxy 'ghost' not found")
    await refused(() => proxies('petstore-api/environments/nowhere/deploy-status/', bed.frank), /environmentName\[0\]: environment 'nowhere' not found/)
    await refused(() => proxies('petstore-api/environments/dev/route-health/', bed.alice), /lacks permission API_MANAGEMENT VIEW/)
    await refused(() => proxies('petstore-api/deploy-histories/99/', bed.frank), 'Deploy history with revision (99) is not found for ApiProxy (petstore-api)!')
    await refused(() => proxies('petstore-api/deploy-histories/abc/', bed.frank), /^revision: must be a positive integer/)
    await refused(() => proxies('petstore-api/deploy-histories/1/', bed.frank, 'DELETE'), /lacks permission API_MANAGEMENT MANAGE/)
    await refused(() => proxies('petstore-api/deploy-histories/99/', bed.erin, 'DELETE'), /revision \(99\) is not found/)
    await refused(() => proxies('petstore-api/deploy-histories/1/rollback/', bed.frank, 'POST'), /lacks permission API_MANAGEMENT MANAGE/)
    await refused(() => proxies('petstore-api/deploy-histories/3/rollback/', bed.gina, 'POST'), /^Rollback failed for deploy history revision \(3\)! it records an undeploy/)
    await refused(() => proxies('petstore-api/deploy-histories/1/rollback/?environmentName=nowhere', bed.gina, 'POST'), /environment 'nowhere' not found/)
    expect((await proxies('petstore-api/deploy-histories/', null)).status).toBe(401)
  })
})

describe('route health', () => {
  it("answers per worker from what it acknowledged, and names a disagreement with the manager's record", async () => {
    const dev = await proxies('petstore-api/environments/dev/route-health/', bed.frank)
    expect(dev.body).toEqual({
      status: 'SUCCESS', success: true,
      resultList: [{
        routeActive: true, servedPath: '/petstore', methods: ['GET', 'POST'], apinizerRootContext: '', podsResponded: 1, podsActive: 1, deployedInManager: true, inconsistent: false,
        pods: [{ routeActive: true, servedPath: '/petstore', methods: ['GET', 'POST'], workerPodIp: bed.dev.url, apinizerRootContext: '' }],
      }],
      resultCount: 1,
    })
    const prod = (await proxies('petstore-api/environments/prod/route-health/', bed.frank)).body.resultList[0]
    expect(prod).toMatchObject({ routeActive: false, servedPath: null, podsResponded: 1, podsActive: 0, deployedInManager: false, inconsistent: false })
    // an undeploy the worker did not acknowledge: the manager says undeployed, the worker may still serve it
    await proxies('petstore-api/environments/prod/', bed.gina, 'POST')
    bed.prod.status = 500
    await proxies('petstore-api/environments/prod/', bed.gina, 'DELETE')
    bed.prod.status = 200
    const stale = (await proxies('petstore-api/environments/prod/route-health/', bed.frank)).body.resultList[0]
    expect(stale).toMatchObject({ routeActive: false, deployedInManager: true, inconsistent: true, pods: [{ routeActive: false, workerPodIp: bed.prod.url, error: expect.stringMatching(/the last undeploy of the proxy was not acknowledged/) }] })
    await proxies('petstore-api/environments/prod/', bed.gina, 'DELETE')
  })
})

describe('invoke info', () => {
  it('answers one entry per environment of the project; GraphQL reads the same', async () => {
    const db = bed.svc.deps.prisma
    await db.environment.update({ where: { name: 'prod' }, data: { accessUrl: 'https://gateway.example.com' } })
    const res = await proxies('petstore-api/invoke-info/', bed.frank)
    const common = { rootContext: '', fullPaths: ['/petstore'], methods: ['GET', 'POST'] }
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true,
      resultList: [
        { environmentName: 'dev', gatewayBaseUrl: null, ...common, schemes: ['http'], deployed: true },
        { environmentName: 'prod', gatewayBaseUrl: 'https://gateway.example.com', ...common, schemes: ['https'], deployed: false },
      ],
      resultCount: 2,
    })
    const gql = await bed.svc.graphql('query { apiProxyInvokeInfo(projectName: "payments", name: "petstore-api") { environmentName gatewayBaseUrl fullPaths methods schemes deployed } }', {}, bed.frank)
    expect(gql.body.data.apiProxyInvokeInfo).toEqual(res.body.resultList.map(({ rootContext: _r, ...rest }: any) => rest))
    await refused(() => proxies('ghost/invoke-info/', bed.frank), "API proxy 'ghost' not found")
    await refused(() => proxies('petstore-api/invoke-info/', bed.alice), /lacks permission API_MANAGEMENT VIEW/)
  })
})

describe('methods (endpoints list-methods, get-method-policies)', () => {
  it('lists the methods, with policy lists when asked; one method with its policies by name and method', async () => {
    const plain = await proxies('petstore-api/methods/', bed.frank)
    expect(plain.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 3 })
    expect(plain.body.resultList.map((m: any) => `${m.httpMethod} ${m.endpoint}`)).toEqual(['GET /pets', 'POST /pets', 'GET /pets/{petId}'])
    expect(plain.body.resultList[0]).toEqual({ id: expect.any(String), endpoint: '/pets', description: 'List all pets', active: true, httpMethod: 'GET', backendResourceUrl: '/pets', backendHttpMethod: 'GET', version: '', operationId: 'listPets' })
    const withPolicies = await proxies('petstore-api/methods/?withPolicies=true', bed.frank)
    expect(withPolicies.body.resultList[0]).toMatchObject({ endpoint: '/pets', requestPolicyList: [], responsePolicyList: [], errorPolicyList: [] })
    const one = await proxies('petstore-api/methods/policies/', bed.frank, 'POST', { name: '/pets', httpMethod: 'GET' })
    expect(one.body).toMatchObject({ status: 'SUCCESS', endpoint: '/pets', httpMethod: 'GET', requestPolicyList: [], responsePolicyList: [], errorPolicyList: [] })
    const gql = await bed.svc.graphql('query { apiProxyMethods(projectName: "payments", name: "petstore-api", withPolicies: true) }', {}, bed.frank)
    expect(gql.body.data.apiProxyMethods).toEqual(withPolicies.body.resultList)
    await refused(() => proxies('petstore-api/methods/?withPolicies=maybe', bed.frank), /^withPolicies:/)
    await refused(() => proxies('petstore-api/methods/policies/', bed.frank, 'POST', { name: '/nowhere', httpMethod: 'GET' }), 'Endpoint with name (/nowhere) and HTTP method (GET) is not found!')
    await refused(() => proxies('ghost/methods/', bed.frank), "API proxy 'ghost' not found")
  })
})

describe('rollback', () => {
  it('restores the configuration, endpoints and secrets of the revision and redeploys where the proxy runs; GraphQL reads the same history', async () => {
    const first = structuredClone((await bed.svc.deps.prisma.apiDeployHistory.findFirstOrThrow({ where: { revision: 1, apiProxy: { name: 'petstore-api' } } })).snapshot)
    // a re-parse with another document and description, and the secret rotated
    const updated = await proxies('file/', bed.gina, 'PUT', specForm('petstore-api', PETSTORE_V2_YAML, 'openapi.yaml', { apiProxyDescription: 'second', backendApiVersion: '2.0.0' }))
    expect(updated.status).toBe(200)
    await proxies('petstore-api/settings/ntlm/', bed.erin, 'PATCH', { enabled: true, domain: 'EXAMPLE', username: 'user', password: 'ntlm-pass-2', workstation: 'WS01' })
    expect((await proxies('petstore-api/environments/dev/deploy-status/', bed.frank)).body.resultList[0].redeployRequired).toBe(true)
    bed.dev.received.length = 0

    const res = await proxies('petstore-api/deploy-histories/1/rollback/', bed.gina, 'POST')
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultMessage: 'API Proxy rolled back successfully to deploy history revision (1). Deployed to environment: dev', deploymentResult: { success: true } })
    const proxy = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'petstore-api' }, include: { endpoints: true } })
    expect(proxy.description).toBe('first')
    expect(proxy.endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(['GET /pets', 'GET /pets/{petId}', 'POST /pets'])
    // what dev now runs is what revision 1 deployed, its secret opened for the gateway
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY', name: 'petstore-api', config: { description: 'first', settings: { ntlm: { password: 'ntlm-pass-1' } } } })
    expect(JSON.stringify(proxy.settings)).not.toContain('ntlm-pass-1')
    // the rollback's deploy is a record of its own, whose snapshot is revision 1's
    const newest = await bed.svc.deps.prisma.apiDeployHistory.findFirstOrThrow({ where: { apiProxyId: proxy.id }, orderBy: { revision: 'desc' } })
    expect(newest).toMatchObject({ environmentName: 'dev', deploy: true, username: 'gina', description: 'Rollback to deploy history revision (1)', backendApiVersion: '1.0.0' })
    expect((newest.snapshot as any).data).toEqual((first as any).data)
    expect((await proxies('petstore-api/environments/dev/deploy-status/', bed.frank)).body.resultList[0]).toMatchObject({ deployed: true, revision: newest.revision, redeployRequired: false })
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { objectType: 'API_PROXY', objectName: 'petstore-api', operation: 'POST /apiops/projects/:projectName/apiProxies/:apiProxyName/deploy-histories/:revision/rollback/' } })
    expect(audit).toMatchObject({ actor: 'gina', outcome: 'SUCCEEDED' })

    const gql = await bed.svc.graphql('query { apiProxyDeployHistories(projectName: "payments", name: "petstore-api") { revision environment deploy description } apiProxyDeployStatus(projectName: "payments", name: "petstore-api", environmentName: "dev") { deployed revision redeployRequired } }', {}, bed.frank)
    expect(gql.body.data.apiProxyDeployHistories[0]).toEqual({ revision: newest.revision, environment: 'dev', deploy: true, description: 'Rollback to deploy history revision (1)' })
    expect(gql.body.data.apiProxyDeployStatus).toEqual({ deployed: true, revision: newest.revision, redeployRequired: false })
  })

  it('with environmentName deploys there; without DEPLOY_UNDEPLOY it is saved and reported as not deployed', async () => {
    const res = await proxies('petstore-api/deploy-histories/2/rollback/?environmentName=prod', bed.gina, 'POST')
    expect(res.body.resultMessage).toBe('API Proxy rolled back successfully to deploy history revision (2). Deployed to environment: prod')
    expect(bed.prod.received).toHaveLength(1)
    const viaErin = await bed.svc.graphql('mutation { rollbackApiProxy(projectName: "payments", name: "petstore-api", revision: 1) { revision resultMessage deploymentResult { success environmentResults { environmentName success } } } }', {}, bed.erin)
    expect(viaErin.body.data.rollbackApiProxy).toMatchObject({ revision: 1, resultMessage: expect.stringMatching(/^API Proxy rolled back successfully but deployment failed in dev: Not deployed: deploying needs API_MANAGEMENT DEPLOY_UNDEPLOY/), deploymentResult: { success: false } })
    expect(bed.dev.received.length + bed.prod.received.length).toBe(1)
  })

  it('deletes a record: no rollback to it afterwards', async () => {
    const del = await proxies('petstore-api/deploy-histories/2/', bed.erin, 'DELETE')
    expect(del.body).toEqual({ status: 'SUCCESS', success: true, resultMessage: 'Deploy history record deleted successfully.' })
    await refused(() => proxies('petstore-api/deploy-histories/2/rollback/', bed.gina, 'POST'), /revision \(2\) is not found/)
    const gql = await bed.svc.graphql('mutation { deleteApiProxyDeployHistory(projectName: "payments", name: "petstore-api", revision: 3) { revision deploy } }', {}, bed.erin)
    expect(gql.body.data.deleteApiProxyDeployHistory).toEqual({ revision: 3, deploy: false })
    expect((await proxies('petstore-api/deploy-histories/', bed.frank)).body.resultList.map((r: any) => r.revision)).not.toContain(3)
  })
})

describe('API proxy groups', () => {
  it('records group deploys with the example body, lists, reads, rolls back and deletes them', async () => {
    await groups('', bed.erin, 'POST', { name: 'PaymentAPIGroup', description: 'v1', clientRoute: { relativePathList: ['/api/v1/payment'] } })
    await groups('PaymentAPIGroup/apiProxies/petstore-api/', bed.erin, 'POST')
    const deployed = await groups('PaymentAPIGroup/environments/dev/', bed.gina, 'POST', { description: 'v2.1 group release', persistent: true })
    expect(deployed.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    const list = await groups('PaymentAPIGroup/deploy-histories/', bed.frank)
    expect(list.body).toEqual({ status: 'SUCCESS', success: true, resultList: [{ revision: 1, username: 'gina', date: expect.any(String), description: 'v2.1 group release', environment: 'dev', deploy: true, persistent: true }], resultCount: 1 })
    expect((await groups('PaymentAPIGroup/deploy-histories/1/', bed.frank)).body.resultList).toEqual(list.body.resultList)

    await groups('', bed.erin, 'PUT', { name: 'PaymentAPIGroup', description: 'v2', clientRoute: { relativePathList: ['/api/v2/payment'] } })
    await groups('PaymentAPIGroup/apiProxies/petstore-api/', bed.erin, 'DELETE')
    bed.dev.received.length = 0
    const rolled = await groups('PaymentAPIGroup/deploy-histories/1/rollback/', bed.gina, 'POST')
    expect(rolled.body).toMatchObject({ status: 'SUCCESS', resultMessage: 'API Proxy Group rolled back successfully to deploy history revision (1). Deployed to environment: dev' })
    const group = await bed.svc.deps.prisma.apiProxyGroup.findFirstOrThrow({ where: { name: 'PaymentAPIGroup' }, include: { proxies: { select: { name: true } } } })
    expect(group).toMatchObject({ description: 'v1', clientRoute: { relativePathList: ['/api/v1/payment'] }, proxies: [{ name: 'petstore-api' }] })
    expect(bed.dev.received).toEqual([expect.objectContaining({ kind: 'API_PROXY_GROUP', name: 'PaymentAPIGroup', config: expect.objectContaining({ description: 'v1', apiProxies: [expect.objectContaining({ name: 'petstore-api' })] }) })])

    await refused(() => groups('PaymentAPIGroup/deploy-histories/9/', bed.frank), 'Deploy history with revision (9) is not found for ApiProxyGroup (PaymentAPIGroup)!')
    await refused(() => groups('GhostGroup/deploy-histories/', bed.frank), "API proxy group 'GhostGroup' not found")
    await refused(() => groups('PaymentAPIGroup/deploy-histories/1/', bed.frank, 'DELETE'), /lacks permission API_MANAGEMENT MANAGE/)
    await refused(() => groups('PaymentAPIGroup/environments/dev/', bed.gina, 'POST', { persistent: 1 }), /^persistent:/)
    const del = await groups('PaymentAPIGroup/deploy-histories/1/', bed.erin, 'DELETE')
    expect(del.body).toEqual({ status: 'SUCCESS', success: true, resultMessage: 'Proxy Group deploy history record deleted successfully.' })
    const gql = await bed.svc.graphql('query { apiProxyGroupDeployHistories(projectName: "payments", name: "PaymentAPIGroup") { revision description } }', {}, bed.frank)
    expect(gql.body.data.apiProxyGroupDeployHistories).toEqual([{ revision: 2, description: 'Rollback to deploy history revision (1)' }])

    // the undeploy page's example body annotates the undeploy record (REST; GraphQL takes the same arguments)
    const undeployed = await groups('PaymentAPIGroup/environments/dev/', bed.gina, 'DELETE', { description: 'Rollback undeploy', persistent: true })
    expect(undeployed.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    expect((await groups('PaymentAPIGroup/deploy-histories/', bed.frank)).body.resultList[0]).toMatchObject({ revision: 3, environment: 'dev', deploy: false, description: 'Rollback undeploy', persistent: true })
    await groups('PaymentAPIGroup/environments/dev/', bed.gina, 'POST')
    const gqlUndeploy = await bed.svc.graphql('mutation { undeployApiProxyGroup(projectName: "payments", name: "PaymentAPIGroup", environmentName: "dev", description: "by GraphQL", persistent: true) { success } }', {}, bed.gina)
    expect(gqlUndeploy.body.data.undeployApiProxyGroup).toEqual({ success: true })
    expect((await groups('PaymentAPIGroup/deploy-histories/', bed.frank)).body.resultList[0]).toMatchObject({ deploy: false, description: 'by GraphQL', persistent: true })
  })
})
