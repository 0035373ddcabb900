import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { automationBootstrap, legacy, PETSTORE } from './automation-proxy-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// Endpoints of an API proxy through the vendor pages 04-api-proxies/endpoints/* (issue 17 §1), in the {endpointId}
// forms of the pages before 2025-11-17, kept as aliases (the body forms: automation-endpoints-by-name.test.ts): the same
// GatewayEndpoint rows as spec §2.18, addressed by id; status, cache and WS-Addressing travel in the deployed config.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE and DEPLOY_UNDEPLOY
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })
let soapEndpointId: string

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const endpointRows = () => bed.svc.deps.prisma.gatewayEndpoint.findMany({ orderBy: { id: 'asc' } })
const proxyRevision = async (name = 'MyAPI') => (await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name } })).revision
const idOf = async (method: string, path: string) => (await bed.svc.deps.prisma.gatewayEndpoint.findFirstOrThrow({ where: { method, path, apiProxy: { name: 'MyAPI' } } })).id
const lastConfig = () => bed.dev.received[bed.dev.received.length - 1] as any

async function expectRefused(write: () => Promise<LegacyAnswer>, message: RegExp, params?: Record<string, unknown>) {
  const res = await expectLegacyRefusal(write, message, { state: async () => [await endpointRows(), await proxyRevision()], pushes })
  // the legacy envelope carries status and resultMessage only (spec §7.1); errorKey and params are the GraphQL door's
  if (params) expect(res.body).toMatchObject(params)
}

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/api/users'] }, deploy: true, deployTargetEnvironmentNameList: ['dev'] }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  const created = await call('POST', 'file/', bed.gina, form)
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  // a SOAP proxy with one endpoint (WSDL import is not served yet, so it is stored directly)
  const project = await bed.svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'payments' } })
  const soap = await bed.svc.deps.prisma.apiProxy.create({ data: { projectId: project.id, name: 'SoapAPI', kind: 'SOAP', relativePath: '/soap', revision: 1 } })
  const endpoint = await bed.svc.deps.prisma.gatewayEndpoint.create({
    data: { apiProxyId: soap.id, method: 'POST', path: '/GetQuote', pathKey: '/GetQuote', operationId: 'GetQuote', kind: 'SOAP', parameters: [], responses: [], rewriteRules: [], policies: [], consumes: [], produces: [] },
  })
  soapEndpointId = endpoint.id
  bed.dev.received.length = 0
})

describe('list and get', () => {
  it('lists the endpoints an OpenAPI import created, in the fields of the page', async () => {
    const res = await call('GET', 'MyAPI/endpoints/', bed.frank)
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('SUCCESS')
    expect(res.body.resultCount).toBe(3)
    expect(res.body.resultList).toContainEqual({
      id: expect.any(String), endpoint: '/pets', description: 'List all pets', active: true, httpMethod: 'GET', backendResourceUrl: '/pets', backendHttpMethod: 'GET', version: '', operationId: 'listPets',
    })
  })

  it('gets one by id; an unknown id, proxy or missing permission is a 400', async () => {
    const id = await idOf('GET', '/pets')
    const res = await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)
    expect(res.body).toMatchObject({ status: 'SUCCESS', id, endpoint: '/pets', httpMethod: 'GET', active: true, cacheSettings: null, wsaSettings: null })
    expect(res.body.requestPolicyList).toBeUndefined()
    const missing = await call('GET', 'MyAPI/endpoints/nope/', bed.frank)
    expect(missing.status).toBe(400)
    expect(missing.body.resultMessage).toBe('Endpoint with ID (nope) was not found!')
    expect((await call('GET', 'Nope/endpoints/', bed.frank)).body.resultMessage).toMatch(/API proxy 'Nope' not found/)
    expect((await call('GET', 'MyAPI/endpoints/', null)).status).toBe(401)
  })
})

describe('create (POST …/endpoints/)', () => {
  it("replays the page's example: stored under the proxy, redeployed where the proxy runs", async () => {
    const revision = await proxyRevision()
    const res = await call('POST', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', description: 'Get all users', httpMethod: 'GET', backendResourceUrl: '/users', backendHttpMethod: 'GET' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, id: expect.any(String), deploymentResult: { success: true, deploymentResults: [{ environmentName: 'dev', success: true }] } })
    expect(await proxyRevision()).toBe(revision + 1)
    expect(bed.prod.received).toHaveLength(0)
    expect(lastConfig().config.endpoints).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/users', backendPath: '/users', enabled: true }))
    const got = await call('GET', `MyAPI/endpoints/${res.body.id}/`, bed.frank)
    expect(got.body).toMatchObject({ endpoint: '/api/users', description: 'Get all users', active: true, backendResourceUrl: '/users' })
    // the spec's door sees the same row
    const row = await bed.svc.deps.prisma.gatewayEndpoint.findUniqueOrThrow({ where: { id: res.body.id } })
    expect(row).toMatchObject({ version: '', operationId: 'get_api_users', kind: 'REST' })
  })

  it('refuses a missing or invalid field, a taken name + method, a non-REST proxy, and a viewer', async () => {
    await expectRefused(() => call('POST', 'MyAPI/endpoints/', bed.erin, { name: '/x', backendResourceUrl: '/x', backendHttpMethod: 'GET' }), /^httpMethod: must be one of GET/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/', bed.erin, { name: '/x', httpMethod: 'FETCH', backendResourceUrl: '/x', backendHttpMethod: 'GET' }), /^httpMethod: must be one of/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/', bed.erin, { name: 'x', httpMethod: 'GET', backendResourceUrl: '/x', backendHttpMethod: 'GET' }), /^name: must start with '\/'/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/', bed.erin, { name: '/x', httpMethod: 'GET', backendHttpMethod: 'GET' }), /^backendResourceUrl:/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/', bed.erin, { name: '/pets', httpMethod: 'GET', backendResourceUrl: '/pets', backendHttpMethod: 'GET' }), /collides with endpoint 'listPets'/)
    await expectRefused(() => call('POST', 'SoapAPI/endpoints/', bed.erin, { name: '/x', httpMethod: 'POST', backendResourceUrl: '/x', backendHttpMethod: 'POST' }), /^Endpoint can only be added to REST API Proxies!/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/', bed.frank, { name: '/x', httpMethod: 'GET', backendResourceUrl: '/x', backendHttpMethod: 'GET' }), /API_MANAGEMENT/)
    await expectRefused(() => call('POST', 'Nope/endpoints/', bed.erin, { name: '/x', httpMethod: 'GET', backendResourceUrl: '/x', backendHttpMethod: 'GET' }), /API proxy 'Nope' not found/)
  })
})

describe('update (PATCH …/endpoints/{id}/)', () => {
  it('changes only the fields given', async () => {
    const id = await idOf('POST', '/pets')
    const res = await call('PATCH', `MyAPI/endpoints/${id}/`, bed.erin, { description: 'Updated endpoint description' })
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true })
    expect((await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)).body).toMatchObject({ description: 'Updated endpoint description', endpoint: '/pets', httpMethod: 'POST', backendResourceUrl: '/pets' })
    await call('PATCH', `MyAPI/endpoints/${id}/`, bed.erin, { backendResourceUrl: '/pets/v2', backendHttpMethod: 'PUT' })
    expect((await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)).body).toMatchObject({ backendResourceUrl: '/pets/v2', backendHttpMethod: 'PUT', description: 'Updated endpoint description' })
  })

  it('refuses an unknown id, an empty body, an invalid field and a clash', async () => {
    const id = await idOf('POST', '/pets')
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/nope/', bed.erin, { description: 'x' }), /^Endpoint with ID \(nope\) was not found!$/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/`, bed.erin, {}), /^Nothing to update/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/`, bed.erin, { httpMethod: 'GRAB' }), /^httpMethod: must be one of/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/`, bed.erin, { httpMethod: 'GET' }), /collides with endpoint 'listPets'/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/`, bed.frank, { description: 'x' }), /API_MANAGEMENT/)
  })
})

describe('status, cache and WS-Addressing', () => {
  it('disables and enables an endpoint; the deployed config carries it', async () => {
    const id = await idOf('GET', '/pets/{petId}')
    const res = await call('PATCH', `MyAPI/endpoints/${id}/status/`, bed.erin, { active: false })
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(lastConfig().config.endpoints).toContainEqual(expect.objectContaining({ operationId: 'showPetById', enabled: false }))
    expect((await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)).body.active).toBe(false)
    await call('PATCH', `MyAPI/endpoints/${id}/status/`, bed.erin, { active: true })
    expect((await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)).body.active).toBe(true)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/status/`, bed.erin, {}), /^active: must be true or false/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/status/`, bed.erin, { active: 'no' }), /^active: must be true or false/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/nope/status/', bed.erin, { active: false }), /^Endpoint with ID \(nope\) was not found!/)
  })

  it("stores both of the cache page's examples and deploys them; refuses what the page refuses", async () => {
    const id = await idOf('GET', '/pets')
    const basic = { name: 'Endpoint Cache Settings', description: 'Cache configuration for this endpoint', cacheActive: true, cacheOnlyHttpGetRequests: false, cacheKeyType: 'QUERY_PARAMS', cacheStorageType: 'LOCAL', capacity: 1000, ttl: 3600, handlingAction: 'STOP', invalidationRequiresAuthn: false, cacheNullValue: false, variableList: [] }
    expect((await call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, basic)).body).toMatchObject({ status: 'SUCCESS', success: true })
    expect((await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)).body.cacheSettings).toMatchObject(basic)
    const custom = { ...basic, name: 'Endpoint Cache with Custom Key', cacheKeyType: 'CUSTOM', cacheStorageType: 'DISTRIBUTED', handlingAction: 'CONTINUE', variableList: [{ name: 'userId', type: 'HEADER', dataType: 'STRING' }, { name: 'apiVersion', type: 'PARAMETER', dataType: 'STRING' }] }
    await call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, custom)
    const stored = (await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)).body.cacheSettings
    expect(stored.variableList).toEqual([
      expect.objectContaining({ name: 'userId', type: 'HEADER', headerName: 'userId' }),
      expect.objectContaining({ name: 'apiVersion', type: 'PARAMETER', paramType: 'QUERY', paramName: 'apiVersion' }),
    ])
    expect(lastConfig().config.endpoints).toContainEqual(expect.objectContaining({ operationId: 'listPets', cache: expect.objectContaining({ cacheKeyType: 'CUSTOM' }) }))
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, { ...basic, handlingAction: undefined }), /^handlingAction: must be one of CONTINUE, STOP/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, { ...basic, cacheStorageType: 'DISK' }), /^cacheStorageType: must be one of LOCAL, DISTRIBUTED/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, { ...basic, cacheKeyType: 'CUSTOM', variableList: [] }), /^variableList: needs at least one variable/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, { ...basic, cacheKeyType: 'CUSTOM', variableList: [{ name: 'b', type: 'BODY' }] }), /^variableList\[0\]\.messageContentType: is required when type is BODY/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, { ...basic, ttl: 0 }), /^ttl: must be at least 1/)
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${id}/cache/`, bed.erin, { ...basic, name: '' }), /^name: must not be blank/)
  })

  it('sets WS-Addressing of a SOAP endpoint (both page examples); a REST endpoint or a missing address is refused', async () => {
    const basic = { wsaEnabled: true, wsaMustUnderstand: 'NONE', wsaVersion: 'V200508', wsaAddDefaultAction: true, wsaAction: null, wsaAddDefaultTo: true, wsaTo: null, wsaReplyTo: null, wsaGenerateMessageId: true, wsaMessageId: null, wsaFrom: null, wsaFaultTo: null, wsaRelatesTo: null, wsaRelationShipType: null }
    const res = await call('PATCH', `SoapAPI/endpoints/${soapEndpointId}/wsa/`, bed.erin, basic)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true }) // SoapAPI is deployed nowhere: nothing pushed
    expect(pushes()).toBe(0)
    const custom = {
      wsaEnabled: true, wsaMustUnderstand: 'TRUE', wsaVersion: 'V200508', wsaAddDefaultAction: false, wsaAction: 'http://example.com/soap/action', wsaAddDefaultTo: false, wsaTo: 'http://example.com/soap/service',
      wsaReplyTo: 'http://example.com/soap/reply', wsaGenerateMessageId: false, wsaMessageId: 'urn:uuid:12345678-1234-1234-1234-123456789012', wsaFrom: 'http://example.com/soap/from',
      wsaFaultTo: 'http://example.com/soap/fault', wsaRelatesTo: 'urn:uuid:87654321-4321-4321-4321-210987654321', wsaRelationShipType: 'Reply',
    }
    await call('PATCH', `SoapAPI/endpoints/${soapEndpointId}/wsa/`, bed.erin, custom)
    expect((await call('GET', `SoapAPI/endpoints/${soapEndpointId}/`, bed.frank)).body.wsaSettings).toMatchObject(custom)
    const rest = await idOf('GET', '/pets')
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${rest}/wsa/`, bed.erin, basic), /^wsa: WS-Addressing settings apply to SOAP endpoints; this is a REST endpoint/)
    const soapRevision = await proxyRevision('SoapAPI')
    for (const [body, message] of [
      [{ ...custom, wsaAction: null }, /^wsaAction: is required when wsaEnabled is true and wsaAddDefaultAction is false/],
      [{ ...custom, wsaVersion: 'V2020' }, /^wsaVersion: must be one of V200408, V200508/],
      [{ ...custom, wsaTo: 'not a uri' }, /^wsaTo: must be an absolute URI/],
    ] as const) {
      const refused = await call('PATCH', `SoapAPI/endpoints/${soapEndpointId}/wsa/`, bed.erin, body)
      expect(refused.status).toBe(400)
      expect(refused.body.resultMessage).toMatch(message)
    }
    expect(await proxyRevision('SoapAPI')).toBe(soapRevision)
    expect((await call('GET', `SoapAPI/endpoints/${soapEndpointId}/`, bed.frank)).body.wsaSettings).toMatchObject(custom)
  })
})

describe('policies and delete', () => {
  it('lists the policies of an endpoint by pipeline', async () => {
    const added = await call('POST', 'MyAPI/policies/throttle-pets/', bed.erin, {
      operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/pets', targetEndpointHTTPMethod: 'GET', targetPipeline: 'REQUEST', deploy: false },
      policy: { type: 'policy-black-ip', description: 'Block', active: true, ipList: ['192.168.1.100'] },
    })
    expect(added.status).toBe(200)
    const id = await idOf('GET', '/pets')
    const res = await call('GET', `MyAPI/endpoints/${id}/policies/`, bed.frank)
    expect(res.body).toMatchObject({
      status: 'SUCCESS', id, endpoint: '/pets', httpMethod: 'GET',
      requestPolicyList: [{ type: 'policy-black-ip', name: 'throttle-pets', description: 'Block', active: true }], responsePolicyList: [], errorPolicyList: [],
    })
    expect((await call('GET', 'MyAPI/endpoints/nope/policies/', bed.frank)).body.resultMessage).toBe('Endpoint with ID (nope) was not found!')
  })

  it('deletes an endpoint with its policies; an unknown id or a non-REST proxy is refused', async () => {
    const id = await idOf('GET', '/pets')
    await expectRefused(() => call('DELETE', `SoapAPI/endpoints/${soapEndpointId}/`, bed.erin), /^Endpoint can only be deleted from REST API Proxies!/)
    await expectRefused(() => call('DELETE', 'MyAPI/endpoints/nope/', bed.erin), /^Endpoint with ID \(nope\) was not found!/)
    await expectRefused(() => call('DELETE', `MyAPI/endpoints/${id}/`, bed.frank), /API_MANAGEMENT/)
    const res = await call('DELETE', `MyAPI/endpoints/${id}/`, bed.erin)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(await bed.svc.deps.prisma.gatewayEndpoint.findUnique({ where: { id } })).toBeNull()
    expect(await bed.svc.deps.prisma.apiProxyPolicy.count({ where: { name: 'throttle-pets' } })).toBe(0)
    expect(lastConfig().config.endpoints.map((e: any) => e.operationId)).not.toContain('listPets')
    expect((await call('GET', `MyAPI/endpoints/${id}/`, bed.frank)).status).toBe(400)
  })
})
