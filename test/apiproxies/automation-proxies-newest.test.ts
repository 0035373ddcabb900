import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { automationBootstrap, legacy, SpecServer, specForm } from './automation-proxy-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import vendorExamples from '../openapi/vendor-examples.json' with { type: 'json' }

// The newest vendor pages' create/update-from-URL examples (api-reference/api-proxies/crud, issue 32 §0): the
// spec-authorization entries { keyName, value, type } (header or query), EMPTY_API, healthMonitoringEnabled and
// the body read behaviours. Each example as the page has it, but its specUrl aimed at a loopback server and the
// environment `production` read as this installation's `prod`.

const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, env: { SPEC_FETCH_ALLOW_PRIVATE: 'true' }, tokens: { erin: 'erin-pass-1', gina: 'gina-pass-1' } })
let spec: SpecServer

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const state = async () => [await bed.svc.deps.prisma.apiProxy.count(), await bed.svc.deps.prisma.gatewayEndpoint.count(), await bed.svc.deps.prisma.auditEvent.count({ where: { outcome: 'SUCCEEDED' } })]
const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(write, message, { state, pushes })
const endpointsOf = async (name: string) =>
  (await bed.svc.deps.prisma.gatewayEndpoint.findMany({ where: { apiProxy: { name } }, orderBy: [{ path: 'asc' }, { method: 'asc' }] })).map((e) => `${e.method} ${e.path}`)
const audits = () => bed.svc.deps.prisma.auditEvent.findMany({ where: { operation: { contains: 'apiProxies/url' } }, orderBy: { id: 'asc' } })

/** The page's example (deep copy), its specUrl on the loopback server and `production` as `prod`. */
function pageExample(page: string, index: number): any {
  const body = structuredClone((vendorExamples as VendorExample[]).find((e) => e.page === `api-reference/api-proxies/crud/${page}.mdx` && e.index === index)!.body) as any
  if (typeof body.specUrl === 'string') body.specUrl = `${spec.url}/petstore.json`
  if (Array.isArray(body.deployTargetEnvironmentNameList)) body.deployTargetEnvironmentNameList = body.deployTargetEnvironmentNameList.map((e: string) => (e === 'production' ? 'prod' : e))
  return body
}

/** A WSDL 1.1 document with two operations (a SOAP service the update page re-parses). */
const SOAP_WSDL = `<?xml version="1.0"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" name="Accounts">
  <wsdl:portType name="AccountsPort">
    <wsdl:operation name="GetBalance"><wsdl:input message="tns:GetBalanceRequest"/></wsdl:operation>
    <wsdl:operation name="Transfer"><wsdl:input message="tns:TransferRequest"/></wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="AccountsBinding" type="tns:AccountsPort">
    <wsdl:operation name="GetBalance"><soap:operation soapAction="GetBalance"/></wsdl:operation>
  </wsdl:binding>
</wsdl:definitions>`

beforeAll(async () => {
  spec = await SpecServer.start()
  spec.documents.set('/service.wsdl', SOAP_WSDL)
})
afterAll(async () => {
  await spec?.stop()
})

describe('create from a URL: the newest page (create-api-proxy-from-url.mdx)', () => {
  it('#0: the spec-authorization entry { keyName, value, type: header } is sent as a header; accepted, stored, read back, audited; no push without deploy', async () => {
    const res = await call('POST', 'url/', bed.erin, pageExample('create-api-proxy-from-url', 0))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(spec.requests.at(-1)).toEqual({ url: '/petstore.json', authorization: 'Bearer token123' })
    expect(await endpointsOf('petstore-api')).toEqual(['GET /pets', 'POST /pets', 'GET /pets/{petId}'])
    const detail = await call('GET', 'petstore-api/', bed.erin)
    expect(detail.body).toMatchObject({
      name: 'petstore-api', description: 'Petstore API Proxy', creationType: 'OPEN_API', relativePath: '/api/v1', backendApiVersion: 'v1',
      clientRoute: { relativePathList: ['/api/v1'], hostList: ['api.example.com'] },
      // healthMonitoringEnabled is the newest pages' name of healthCheckEnabled: both read back
      routing: { routingAddressList: [{ address: 'https://backend.example.com', weight: 100, healthCheckEnabled: true, healthMonitoringEnabled: true }], routingEnabled: true, mirrorEnabled: false },
      requestBodyReadBehavior: 'ALWAYS_READ', responseBodyReadBehavior: 'ALWAYS_READ',
      maintenanceModeSetting: { enabled: false, httpStatusCode: 503, contentType: 'application/json', message: 'Service is under maintenance' },
    })
    expect(JSON.stringify(detail.body)).not.toContain('token123')
    expect(JSON.stringify((await bed.svc.deps.prisma.apiProxy.findFirst({ where: { name: 'petstore-api' } }))!.settings)).not.toContain('token123')
    expect(pushes()).toBe(0)
    expect((await audits()).map((a) => [a.operation, a.outcome])).toEqual([[expect.stringMatching(/^POST .*apiProxies\/url/), 'SUCCEEDED']])
  })

  it('a { keyName, value, type: query } entry is sent as a query parameter of specUrl, never stored', async () => {
    spec.documents.set('/petstore.json?api_key=q-secret-1', spec.documents.get('/petstore.json')!)
    const body = { ...pageExample('create-api-proxy-from-url', 0), apiProxyName: 'petstore-query', clientRoute: { relativePathList: ['/query'] }, specAuthorizationValueList: [{ keyName: 'api_key', value: 'q-secret-1', type: 'query' }] }
    expect((await call('POST', 'url/', bed.erin, body)).body).toEqual({ status: 'SUCCESS', success: true })
    expect(spec.requests.at(-1)).toEqual({ url: '/petstore.json?api_key=q-secret-1' })
    const row = await bed.svc.deps.prisma.apiProxy.findFirst({ where: { name: 'petstore-query' } })
    expect(JSON.stringify(row)).not.toContain('q-secret-1')
    expect((await call('GET', 'petstore-query/', bed.erin)).body.specUrl).toBe(`${spec.url}/petstore.json`)
  })

  it('#1 (EMPTY_API): no specification, no endpoint; its placeholder address (http://backend-host:port) is refused as not a URL', async () => {
    const example = pageExample('create-api-proxy-from-url', 1)
    await expectRefused(() => call('POST', 'url/', bed.erin, example), /^routingInfo\.routingAddressList\[0\]\.address: must be an absolute http\(s\) URL/)
    const fetched = spec.requests.length
    example.routingInfo.routingAddressList[0].address = 'http://backend-host:8080'
    const res = await call('POST', 'url/', bed.erin, example)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(spec.requests).toHaveLength(fetched)
    expect(await endpointsOf('nospec-api')).toEqual([])
    expect((await call('GET', 'nospec-api/', bed.erin)).body).toMatchObject({ creationType: 'EMPTY_API', relativePath: '/nospec', routing: { routingAddressList: [{ address: 'http://backend-host:8080' }] } })
  })

  it("EMPTY_API's refusals (the page): no re-parse by PUT, no file form; nothing written or pushed", async () => {
    await expectRefused(() => call('PUT', 'url/', bed.erin, { apiProxyName: 'nospec-api', apiProxyCreationType: 'EMPTY_API', reParse: true }), /^apiProxyCreationType: API proxy 'nospec-api' has no specification to re-parse \(EMPTY_API\)/)
    await expectRefused(
      () => call('POST', 'file/', bed.erin, specForm({ apiProxyName: 'nospec-file', apiProxyCreationType: 'EMPTY_API', clientRoute: { relativePathList: ['/nospec-file'] } }, { text: '{}', name: 'x.json' })),
      /^apiProxyCreationType: EMPTY_API proxies have no specification file/,
    )
  })

  it('refuses a header entry whose keyName is not a header name, an unknown type, and an entry of neither shape', async () => {
    const base = { ...pageExample('create-api-proxy-from-url', 0), apiProxyName: 'bad-auth', clientRoute: { relativePathList: ['/bad-auth'] } }
    await expectRefused(() => call('POST', 'url/', bed.erin, { ...base, specAuthorizationValueList: [{ keyName: 'Bad Header', value: 'x', type: 'header' }] }), /^specAuthorizationValueList\[0\]\.keyName: must be an HTTP header name/)
    await expectRefused(() => call('POST', 'url/', bed.erin, { ...base, specAuthorizationValueList: [{ keyName: 'k', value: 'x', type: 'cookie' }] }), /^specAuthorizationValueList\[0\]/)
    await expectRefused(() => call('POST', 'url/', bed.erin, { ...base, specAuthorizationValueList: [{ name: 'k' }] }), /^specAuthorizationValueList\[0\]/)
    await expectRefused(() => call('POST', 'url/', bed.erin, { ...base, requestBodyReadBehavior: 'SOMETIMES' }), /^requestBodyReadBehavior: must be one of ALWAYS_READ, READ_IF_POLICY_EXISTS, NEVER_READ/)
  })
})

describe('update from a URL: the newest pages (update-api-proxy-from-url.mdx, update-api-proxy.mdx)', () => {
  it('update-api-proxy-from-url #0 re-parses with the header credential, changes the description and version, pushes nothing', async () => {
    const res = await call('PUT', 'url/', bed.erin, pageExample('update-api-proxy-from-url', 0))
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(spec.requests.at(-1)).toEqual({ url: '/petstore.json', authorization: 'Bearer token123' })
    expect((await call('GET', 'petstore-api/', bed.erin)).body).toMatchObject({ description: 'Updated Petstore API Proxy', backendApiVersion: 'v2' })
    expect(pushes()).toBe(0)
  })

  it('update-api-proxy-from-url #2 updates a reverse proxy (no specification)', async () => {
    expect((await call('POST', 'url/', bed.erin, { apiProxyName: 'reverse-proxy', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/reverse'] } })).status).toBe(200)
    const res = await call('PUT', 'url/', bed.erin, pageExample('update-api-proxy-from-url', 2))
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('GET', 'reverse-proxy/', bed.erin)).body).toMatchObject({ description: 'Updated Reverse Proxy', clientRoute: { hostList: ['reverse.example.com'] }, routing: { routingAddressList: [{ healthCheckEnabled: true }] } })
  })

  it('update-api-proxy-from-url #1 (WSDL) re-parses a SOAP proxy: one POST endpoint per operation, the SOAP options stored', async () => {
    const created = await call('POST', 'url/', bed.erin, { apiProxyName: 'soap-service', apiProxyCreationType: 'WSDL', specUrl: `${spec.url}/service.wsdl`, clientRoute: { relativePathList: ['/soap'] } })
    expect(created.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await endpointsOf('soap-service')).toEqual(['POST /GetBalance', 'POST /Transfer'])
    const example = pageExample('update-api-proxy-from-url', 1)
    example.specUrl = `${spec.url}/service.wsdl`
    const res = await call('PUT', 'url/', bed.erin, example)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('GET', 'soap-service/', bed.erin)).body).toMatchObject({
      description: 'Updated SOAP Service', creationType: 'WSDL', soapSettings: { soapToRest: false, enableWSA: true, enableWSRM: false },
      maintenanceModeSetting: { contentType: 'text/xml' }, clientRoute: { hostList: ['soap.example.com'] },
    })
    expect(pushes()).toBe(0)
  })

  it('WSDL refusals: not a WSDL, no operation, a SOAP option on another type; nothing written or pushed', async () => {
    spec.documents.set('/empty.wsdl', '<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"><portType name="P"/></definitions>')
    const wsdl = (extra: Record<string, unknown>) => ({ apiProxyName: 'soap-bad', apiProxyCreationType: 'WSDL', clientRoute: { relativePathList: ['/soap-bad'] }, ...extra })
    await expectRefused(() => call('POST', 'url/', bed.erin, wsdl({ specUrl: `${spec.url}/petstore.json` })), /^specUrl: is not a WSDL document/)
    await expectRefused(() => call('POST', 'url/', bed.erin, wsdl({ specUrl: `${spec.url}/empty.wsdl` })), /^specUrl: the WSDL document declares no operation/)
    await expectRefused(() => call('POST', 'url/', bed.erin, { ...pageExample('create-api-proxy-from-url', 0), apiProxyName: 'rest-wsa', clientRoute: { relativePathList: ['/rest-wsa'] }, enableWSA: true }), /^enableWSA: applies to SOAP \(WSDL\) proxies only/)
  })

  it('update-api-proxy #0 re-parses and deploys to the listed environment with its body read behaviour', async () => {
    const res = await call('PUT', 'url/', bed.gina, pageExample('update-api-proxy', 0))
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: true, deploymentResults: [{ environmentName: 'prod', success: true }] })
    expect(bed.dev.received).toHaveLength(0)
    expect(bed.prod.received).toEqual([expect.objectContaining({ action: 'DEPLOY', kind: 'API_PROXY', name: 'petstore-api' })])
    expect((await call('GET', 'petstore-api/', bed.erin)).body).toMatchObject({ requestBodyReadBehavior: 'READ_IF_POLICY_EXISTS', responseBodyReadBehavior: 'ALWAYS_READ', routing: { loadBalanceAlgorithm: 'ROUND_ROBIN', connectTimeout: 30, readTimeout: 60 } })
    expect((await audits()).at(-1)).toMatchObject({ operation: expect.stringMatching(/^PUT .*apiProxies\/url/), outcome: 'SUCCEEDED' })
  })
})
