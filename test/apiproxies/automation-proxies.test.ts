import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { isNonPublicAddress } from '../../src/platform/http/outbound-fetch.js'
import { startTestService } from '../support/app.js'
import { automationBootstrap, legacy, PETSTORE, PETSTORE_V2_YAML, SpecServer, specForm } from './automation-proxy-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// API proxies of the automation surface (vendor 04-api-proxies/crud and /deployment, issue 13 bullet 4): the pages'
// examples replayed over HTTP, in the legacy envelope of spec §7.1.

// erin: API_MANAGEMENT MANAGE; frank: API_MANAGEMENT VIEW; gina: MANAGE and DEPLOY_UNDEPLOY; alice: no API_MANAGEMENT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, env: { SPEC_FETCH_ALLOW_PRIVATE: 'true' }, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1', alice: 'alice-pass-1' } })
let spec: SpecServer

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const proxyCount = () => bed.svc.deps.prisma.apiProxy.count()
const endpointsOf = async (name: string) =>
  (await bed.svc.deps.prisma.gatewayEndpoint.findMany({ where: { apiProxy: { name } }, orderBy: [{ path: 'asc' }, { method: 'asc' }] })).map((e) => `${e.method} ${e.path} ${e.operationId}`)

/** The page's URL example, aimed at the loopback spec server. */
const urlExample = (name: string, extra: Record<string, unknown> = {}) => ({
  apiProxyName: name,
  apiProxyDescription: 'Petstore API Proxy',
  apiProxyCreationType: 'OPEN_API',
  specUrl: `${spec.url}/petstore.json`,
  clientRoute: { relativePathList: [`/${name}`], virtualHostList: ['api.example.com'] },
  routingInfo: { routingAddressList: [{ address: 'https://backend.example.com', weight: 100, healthCheckEnabled: true }], routingEnabled: true, mirrorEnabled: false },
  deploy: false,
  deployTargetEnvironmentNameList: ['dev'],
  reParse: false,
  soapToRest: false,
  enableWSA: false,
  enableWSRM: false,
  backendApiVersion: 'v1',
  maintenanceModeSetting: { enabled: false, httpStatusCode: 503, contentType: 'application/json', message: 'Service is under maintenance' },
  specAuthorizationValueList: [{ headerName: 'Authorization', headerValue: 'Bearer token123' }],
  ...extra,
})

/** A refused write: 400 (or 401) in the legacy envelope, nothing stored, nothing pushed. */
async function expectRefused(write: () => Promise<LegacyAnswer>, message: RegExp, status = 400) {
  const state = async () => [await proxyCount(), await bed.svc.deps.prisma.gatewayEndpoint.count()]
  const res = await expectLegacyRefusal(write, message, { state, pushes }, status)
  expect(res.body.error).toBeUndefined()
}

beforeAll(async () => {
  spec = await SpecServer.start()
})
afterAll(async () => {
  await spec?.stop()
})

describe('create from a URL (POST …/apiProxies/url/)', () => {
  it("replays the page's example: the document's operations become endpoints, nothing is pushed without deploy", async () => {
    const res = await call('POST', 'url/', bed.erin, urlExample('petstore-api'))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await endpointsOf('petstore-api')).toEqual(['GET /pets listPets', 'POST /pets createPet', 'GET /pets/{petId} showPetById'])
    expect(pushes()).toBe(0)
    // the spec URL was fetched with the page's authorization header, which is not stored
    expect(spec.requests.at(-1)).toEqual({ url: '/petstore.json', authorization: 'Bearer token123' })
    const row = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'petstore-api' } })
    expect(JSON.stringify(row.settings)).not.toContain('token123')
    // the same object on the GraphQL door and in the audit trail
    const gql = await bed.svc.graphql('query { apiProxy(projectName: "payments", name: "petstore-api") { name kind description } }', {}, bed.frank)
    expect(gql.body.data.apiProxy).toEqual({ name: 'petstore-api', kind: 'REST', description: 'Petstore API Proxy' })
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { objectType: 'API_PROXY', operation: 'POST /apiops/projects/:projectName/apiProxies/url/' } })
    expect(audit).toMatchObject({ actor: 'erin', projectName: 'payments', outcome: 'SUCCEEDED' })
  })

  it('follows a redirect and reads YAML Swagger 2.0 documents (SWAGGER)', async () => {
    const res = await call('POST', 'url/', bed.erin, urlExample('redirected', { specUrl: `${spec.url}/redirect`, apiProxyCreationType: 'SWAGGER' }))
    expect(res.status).toBe(200)
    expect(await endpointsOf('redirected')).toHaveLength(3)
    spec.documents.set('/v2.yaml', PETSTORE_V2_YAML)
    expect((await call('POST', 'url/', bed.erin, urlExample('yaml-v2', { specUrl: `${spec.url}/v2.yaml`, apiProxyCreationType: 'SWAGGER' }))).status).toBe(200)
    expect(await endpointsOf('yaml-v2')).toEqual(['GET /pets listPets', 'DELETE /pets/{petId} deletePet'])
  })

  it('creates a reverse proxy without a specification', async () => {
    const res = await call('POST', 'url/', bed.erin, { apiProxyName: 'reverse-proxy', apiProxyCreationType: 'REVERSE_PROXY', specUrl: null, clientRoute: { relativePathList: ['/reverse'] } })
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await endpointsOf('reverse-proxy')).toEqual([])
  })

  it('deploys to the listed environments when deploy is true and answers with deploymentResults', async () => {
    const res = await call('POST', 'url/', bed.gina, urlExample('deployed-at-birth', { deploy: true, deployTargetEnvironmentNameList: ['dev'] }))
    expect(res.body).toEqual({
      status: 'SUCCESS',
      success: true,
      deploymentResult: { success: true, message: expect.any(String), deploymentResults: [{ environmentName: 'dev', success: true, message: 'Acknowledged' }] },
    })
    expect(bed.prod.received).toHaveLength(0)
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'API_PROXY', name: 'deployed-at-birth', revision: 1 })
    expect((bed.dev.received[0]!.config.endpoints as unknown[]).length).toBe(3)
  })

  it('saves but does not deploy for a caller without DEPLOY_UNDEPLOY (spec §5)', async () => {
    const res = await call('POST', 'url/', bed.erin, urlExample('saved-only', { deploy: true, deployTargetEnvironmentNameList: ['dev', 'prod'] }))
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(false)
    expect(res.body.deploymentResult.deploymentResults.map((r: any) => r.environmentName)).toEqual(['dev', 'prod'])
    expect(res.body.deploymentResult.message).toMatch(/DEPLOY_UNDEPLOY/)
    expect(pushes()).toBe(0)
    expect(await endpointsOf('saved-only')).toHaveLength(3)
  })

  it('refuses every cause the page lists, writing and pushing nothing', async () => {
    await call('POST', 'url/', bed.erin, urlExample('taken'))
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('TAKEN', { clientRoute: { relativePathList: ['/other'] } })), /API proxy 'taken' already exists/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('wsdl', { apiProxyCreationType: 'WSDL' })), /^specUrl: is not a WSDL document \(no 'definitions' element\)/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('bad-type', { apiProxyCreationType: 'GRAPHQL' })), /^apiProxyCreationType: must be one of OPEN_API, SWAGGER, WSDL, REVERSE_PROXY/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('no-url', { specUrl: null })), /^specUrl: is required for OPEN_API/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('ftp', { specUrl: 'ftp://example.com/x.json' })), /^specUrl: scheme 'ftp' is not allowed/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('missing-doc', { specUrl: `${spec.url}/nope.json` })), /^specUrl: .* answered HTTP 404/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('not-openapi', { specUrl: `${spec.url}/not-openapi.json` })), /^specUrl: is not an OpenAPI or Swagger document/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('broken', { specUrl: `${spec.url}/broken.json` })), /^specUrl: does not parse as JSON or YAML/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('huge', { specUrl: `${spec.url}/huge.json` })), /^specUrl: the document is larger than/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('no-route', { clientRoute: undefined })), /^clientRoute: is required/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('empty-route', { clientRoute: { relativePathList: [] } })), /^clientRoute.relativePathList: needs at least one relative path/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('path-taken', { clientRoute: { relativePathList: ['/taken'] } })), /'\/taken' is already the relative path of API proxy 'taken'/)
    await expectRefused(() => call('POST', 'url/', bed.gina, urlExample('unknown-env', { deploy: true, deployTargetEnvironmentNameList: ['dev', 'staging'] })), /^deployTargetEnvironmentNameList\[1\]: environment 'staging' not found/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('soap', { soapToRest: true })), /^soapToRest: applies to SOAP \(WSDL\) proxies only/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('bad-weight', { routingInfo: { routingAddressList: [{ address: 'https://b.example', weight: 'heavy' }] } })), /^routingInfo.routingAddressList\[0\].weight:/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('cred-url', { routingInfo: { routingAddressList: [{ address: 'https://u:p@b.example' }] } })), /^routingInfo.routingAddressList\[0\].address: must not carry a user name or password/)
    await expectRefused(() => call('POST', 'url/', bed.erin, urlExample('nul\u0000name')), /^apiProxyName: must not contain/)
    await expectRefused(() => call('POST', 'url/', bed.erin, '{"apiProxyName": '), /not valid JSON/)
    await expectRefused(() => call('POST', 'url/', bed.frank, urlExample('viewer')), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => call('POST', 'url/', bed.alice, urlExample('outsider')), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => legacy(bed.svc, 'POST', 'nowhere/apiProxies/url/', bed.erin, urlExample('x')), /Project 'nowhere' not found/)
    await expectRefused(() => call('POST', 'url/', null, urlExample('anonymous')), /token/i, 401)
  })
})

describe('specUrl fetch guard', () => {
  it('classifies loopback, private, link-local and mapped addresses as non-public', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) {
      expect(isNonPublicAddress(a), a).toBe(true)
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isNonPublicAddress(a), a).toBe(false)
  })

  it('refuses loopback and private addresses unless the installation allows them', async () => {
    const strict = await startTestService({ bootstrap: automationBootstrap({ dev: [bed.dev.url], prod: [] }) })
    try {
      const token = await strict.tokenFor('erin', 'erin-pass-1')
      const before = spec.requests.length
      for (const [specUrl, message] of [
        [`${spec.url}/petstore.json`, /127\.0\.0\.1:\d+ is a loopback or private address/],
        [`http://localhost:${new URL(spec.url).port}/petstore.json`, /is a loopback or private address/],
        ['http://169.254.169.254/latest/meta-data', /169\.254\.169\.254 is a loopback or private address/],
        ['http://[::1]/x', /is a loopback or private address/],
      ] as const) {
        const res = await legacy(strict, 'POST', 'payments/apiProxies/url/', token, urlExample('guarded', { specUrl }))
        expect(res.status).toBe(400)
        expect(res.body.resultMessage).toMatch(message)
      }
      expect(spec.requests.length).toBe(before)
      expect(await strict.deps.prisma.apiProxy.count({ where: { name: 'guarded' } })).toBe(0)
    } finally {
      await strict.close()
    }
  })
})

describe('create and update from a file (…/apiProxies/file/)', () => {
  it("replays the page's example 1: metadata and an OpenAPI JSON file", async () => {
    const meta = { apiProxyName: 'file-petstore', apiProxyDescription: 'Petstore API Proxy', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/file-petstore'] }, deploy: false, reParse: false, soapToRest: false }
    const res = await call('POST', 'file/', bed.erin, specForm(meta, { text: JSON.stringify(PETSTORE), name: 'openapi.json' }))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await endpointsOf('file-petstore')).toHaveLength(3)
  })

  it('re-parses with PUT: changed operations follow the document, the description is kept when empty', async () => {
    const res = await call('PUT', 'file/', bed.erin, specForm({ apiProxyName: 'file-petstore', apiProxyDescription: '', apiProxyCreationType: 'OPEN_API', reParse: true, deploy: false }, { text: PETSTORE_V2_YAML, name: 'updated.yaml' }))
    expect(res.status).toBe(200)
    expect(await endpointsOf('file-petstore')).toEqual(['GET /pets listPets', 'DELETE /pets/{petId} deletePet'])
    const row = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'file-petstore' } })
    expect(row).toMatchObject({ description: 'Petstore API Proxy', revision: 2, relativePath: '/file-petstore' })
  })

  it('refuses a missing metadata part, a missing file, a WSDL type, a proxy that does not exist and a type change', async () => {
    await expectRefused(() => call('POST', 'file/', bed.erin, specForm('', { text: '{}', name: 'x.json' })), /^metadata: is required/)
    await expectRefused(() => call('POST', 'file/', bed.erin, specForm('{not json', { text: '{}', name: 'x.json' })), /^metadata: is not valid JSON/)
    await expectRefused(() => call('POST', 'file/', bed.erin, specForm({ apiProxyName: 'nofile', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/nofile'] } })), /^specFile: is required for OPEN_API/)
    await expectRefused(() => call('POST', 'file/', bed.erin, specForm({ apiProxyName: 'soap-service', apiProxyCreationType: 'WSDL', clientRoute: { relativePathList: ['/soap'] } }, { text: '<definitions/>', name: 'service.wsdl' })), /^specFile: the WSDL document declares no operation/)
    await expectRefused(() => call('PUT', 'file/', bed.erin, specForm({ apiProxyName: 'ghost', apiProxyCreationType: 'OPEN_API', reParse: true }, { text: JSON.stringify(PETSTORE), name: 'a.json' })), /API proxy 'ghost' can not be re-parsed because it does not exist/)
    await expectRefused(() => call('PUT', 'file/', bed.erin, specForm({ apiProxyName: 'file-petstore', apiProxyCreationType: 'REVERSE_PROXY', reParse: true })), /^apiProxyCreationType: API proxy 'file-petstore' was created as OPEN_API; the type can not change/)
    await expectRefused(() => call('POST', 'file/', bed.erin, JSON.stringify({ apiProxyName: 'json-body' })), /Content-Type must be multipart\/form-data/)
    // a proxy from the bootstrap file has no client route yet: the re-parse must give one
    await expectRefused(() => call('PUT', 'url/', bed.erin, { apiProxyName: 'orders-api', apiProxyCreationType: 'REVERSE_PROXY' }), /^clientRoute: is required: API proxy 'orders-api' has no client route yet/)
    await expectRefused(() => call('PUT', 'file/', bed.frank, specForm({ apiProxyName: 'file-petstore', apiProxyCreationType: 'OPEN_API' }, { text: JSON.stringify(PETSTORE), name: 'a.json' })), /lacks permission API_MANAGEMENT MANAGE/)
  })

  it('updates from a URL (PUT …/url/), keeping routing when routingInfo is absent', async () => {
    await call('POST', 'url/', bed.erin, urlExample('url-update'))
    const res = await call('PUT', 'url/', bed.erin, { apiProxyName: 'url-update', apiProxyDescription: 'Updated Petstore API', apiProxyCreationType: 'OPEN_API', specUrl: `${spec.url}/petstore-v2.yaml`, clientRoute: { relativePathList: ['/api/v1'] }, reParse: true, deploy: false })
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    const detail = await call('GET', 'url-update/', bed.frank)
    expect(detail.body).toMatchObject({
      status: 'SUCCESS', name: 'url-update', description: 'Updated Petstore API', apiType: 'REST', sharingType: 'PROJECT', relativePath: '/api/v1',
      clientRoute: { relativePathList: ['/api/v1'] }, routing: { routingAddressList: [{ address: 'https://backend.example.com', weight: 100, healthCheckEnabled: true }] },
    })
    await expectRefused(() => call('PUT', 'url/', bed.erin, { apiProxyName: 'url-update', apiProxyCreationType: 'OPEN_API', specUrl: `${spec.url}/petstore.json`, clientRoute: { relativePathList: ['/taken'] } }), /already the relative path of API proxy 'taken'/)
  })
})

describe('list, get and delete', () => {
  it('lists the proxies by name with the fields of the page', async () => {
    const res = await call('GET', '', bed.frank)
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('SUCCESS')
    expect(res.body.resultCount).toBe(res.body.resultList.length)
    const names = res.body.resultList.map((p: any) => p.name)
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)))
    expect(res.body.resultList.find((p: any) => p.name === 'petstore-api')).toEqual({ name: 'petstore-api', description: 'Petstore API Proxy', type: 'REST', relativePath: '/petstore-api', soapToRest: false })
    expect((await call('GET', '', bed.alice)).body).toMatchObject({ status: 'FAILURE', resultMessage: expect.stringMatching(/lacks permission API_MANAGEMENT VIEW/) })
    expect((await legacy(bed.svc, 'GET', 'other/apiProxies/', bed.erin)).body.resultMessage).toMatch(/Project 'other' not found/)
  })

  it('reads one proxy and refuses an unknown one', async () => {
    const res = await call('GET', 'petstore-api/', bed.frank)
    expect(res.body).toMatchObject({ status: 'SUCCESS', name: 'petstore-api', apiType: 'REST', creationType: 'OPEN_API', categoryList: [], endpointCount: 3, deploymentList: [
      { environmentName: 'dev', deployed: false, redeployRequired: false }, { environmentName: 'prod', deployed: false, redeployRequired: false },
    ] })
    // a NUL in a path name is a 400 naming the parameter, not a database error
    expect(await call('GET', 'x%00y/', bed.frank)).toMatchObject({ status: 400, body: { status: 'FAILURE', resultMessage: expect.stringMatching(/^apiProxyName: must not contain/) } })
    expect((await call('POST', 'petstore-api/environments/d%00ev/', bed.gina)).body.resultMessage).toMatch(/^environmentName: must not contain/)
    const missing = await call('GET', 'ghost/', bed.frank)
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ status: 'FAILURE', resultMessage: "API proxy 'ghost' not found" })
  })
})

describe('deploy and undeploy per environment (…/{apiProxyName}/environments/{environmentName}/)', () => {
  it("replays the pages' examples and tracks deployed / redeployRequired", async () => {
    const res = await call('POST', 'petstore-api/environments/prod/', bed.gina)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, deploymentResult: { success: true, message: expect.any(String), deploymentResults: [{ environmentName: 'prod', success: true, message: 'Acknowledged' }] } })
    expect(bed.dev.received).toHaveLength(0)
    expect(bed.prod.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY', name: 'petstore-api', revision: 1 })
    let detail = await call('GET', 'petstore-api/', bed.frank)
    expect(detail.body.deploymentList).toMatchObject([{ environmentName: 'dev', deployed: false }, { environmentName: 'prod', deployed: true, redeployRequired: false }])
    // a re-parse moves the revision on: prod now runs an older one
    await call('PUT', 'url/', bed.erin, { apiProxyName: 'petstore-api', apiProxyCreationType: 'OPEN_API', specUrl: `${spec.url}/petstore.json`, reParse: true })
    detail = await call('GET', 'petstore-api/', bed.frank)
    expect(detail.body.deploymentList[1]).toMatchObject({ environmentName: 'prod', deployed: true, redeployRequired: true })
    const undeploy = await call('DELETE', 'petstore-api/environments/prod/', bed.gina)
    expect(undeploy.body.deploymentResult.deploymentResults).toEqual([{ environmentName: 'prod', success: true, message: 'Acknowledged' }])
    expect(bed.prod.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'API_PROXY', name: 'petstore-api' })
    detail = await call('GET', 'petstore-api/', bed.frank)
    expect(detail.body.deploymentList[1]).toMatchObject({ deployed: false, redeployRequired: false })
  })

  it('reports a failing worker in deploymentResult and does not mark the environment deployed', async () => {
    bed.dev.status = 500
    const res = await call('POST', 'petstore-api/environments/dev/', bed.gina)
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(false)
    expect(res.body.deploymentResult.deploymentResults[0]).toMatchObject({ environmentName: 'dev', success: false, message: expect.stringMatching(/HTTP 500/) })
    expect((await call('GET', 'petstore-api/', bed.frank)).body.deploymentList[0]).toMatchObject({ environmentName: 'dev', deployed: false })
  })

  it('refuses an unknown proxy or environment, a missing permission, and undeploying where it does not run', async () => {
    await expectRefused(() => call('POST', 'ghost/environments/dev/', bed.gina), /API proxy 'ghost' not found/)
    await expectRefused(() => call('POST', 'petstore-api/environments/staging/', bed.gina), /environment 'staging' not found in project 'payments'/)
    await expectRefused(() => call('POST', 'petstore-api/environments/dev/', bed.erin), /lacks permission API_MANAGEMENT DEPLOY_UNDEPLOY/)
    await expectRefused(() => call('DELETE', 'petstore-api/environments/dev/', bed.frank), /lacks permission API_MANAGEMENT DEPLOY_UNDEPLOY/)
    await expectRefused(() => call('DELETE', 'petstore-api/environments/dev/', bed.gina), /API proxy 'petstore-api' is not deployed to environment 'dev'/)
  })

  it('deletes a proxy, undeploying it only where it runs', async () => {
    await call('POST', 'url/', bed.gina, urlExample('short-lived', { deploy: true, deployTargetEnvironmentNameList: ['dev'] }))
    bed.dev.received.length = 0
    const res = await call('DELETE', 'short-lived/', bed.erin)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, deploymentResult: { success: true, message: expect.any(String), deploymentResults: [{ environmentName: 'dev', success: true, message: 'Acknowledged' }] } })
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'API_PROXY', name: 'short-lived' })])
    expect(bed.prod.received).toHaveLength(0)
    expect(await bed.svc.deps.prisma.apiProxy.count({ where: { name: 'short-lived' } })).toBe(0)
    expect(await bed.svc.deps.prisma.gatewayEndpoint.count({ where: { apiProxy: { name: 'short-lived' } } })).toBe(0)
    await expectRefused(() => call('DELETE', 'short-lived/', bed.erin), /API proxy 'short-lived' not found/)
    await expectRefused(() => call('DELETE', 'petstore-api/', bed.frank), /lacks permission API_MANAGEMENT MANAGE/)
  })
})

describe('GraphQL door (same services)', () => {
  const CREATE = `mutation($m: JSON!, $d: String) { createApiProxyFromSpec(projectName: "payments", metadata: $m, specDocument: $d) {
    apiProxy { name kind creationType relativePath } deploymentResult { success environmentResults { environmentName success } } } }`

  it('creates from a document, deploys per environment and reads the deployments', async () => {
    const created = await bed.svc.graphql(CREATE, { m: { apiProxyName: 'gql-petstore', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/gql-petstore'] } }, d: JSON.stringify(PETSTORE) }, bed.erin)
    expect(created.body.errors).toBeUndefined()
    expect(created.body.data.createApiProxyFromSpec).toEqual({ apiProxy: { name: 'gql-petstore', kind: 'REST', creationType: 'OPEN_API', relativePath: '/gql-petstore' }, deploymentResult: null })
    expect(await endpointsOf('gql-petstore')).toHaveLength(3)
    const deployed = await bed.svc.graphql('mutation { deployApiProxy(projectName: "payments", name: "gql-petstore", environmentName: "dev") { success environmentResults { environmentName success } } }', {}, bed.gina)
    expect(deployed.body.data.deployApiProxy).toEqual({ success: true, environmentResults: [{ environmentName: 'dev', success: true }] })
    const read = await bed.svc.graphql('query { apiProxyDeployments(projectName: "payments", name: "gql-petstore") { environmentName deployed redeployRequired } }', {}, bed.frank)
    expect(read.body.data.apiProxyDeployments).toEqual([{ environmentName: 'dev', deployed: true, redeployRequired: false }, { environmentName: 'prod', deployed: false, redeployRequired: false }])
    // the REST door reads the same object
    expect((await call('GET', 'gql-petstore/', bed.frank)).body).toMatchObject({ name: 'gql-petstore', endpointCount: 3, deploymentList: [{ deployed: true }, { deployed: false }] })
  })

  it('refuses with the same rules: WSDL, missing permission; nothing written or pushed', async () => {
    const [before, pushesBefore] = [await proxyCount(), pushes()]
    const wsdl = await bed.svc.graphql(CREATE, { m: { apiProxyName: 'gql-wsdl', apiProxyCreationType: 'WSDL', clientRoute: { relativePathList: ['/gql-wsdl'] } }, d: '<definitions/>' }, bed.erin)
    expect(wsdl.body.errors![0].message).toMatch(/^specFile: the WSDL document declares no operation/)
    const viewer = await bed.svc.graphql('mutation { deployApiProxy(projectName: "payments", name: "gql-petstore", environmentName: "dev") { success } }', {}, bed.erin)
    expect(viewer.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await proxyCount()).toBe(before)
    expect(pushes()).toBe(pushesBefore)
  })
})
