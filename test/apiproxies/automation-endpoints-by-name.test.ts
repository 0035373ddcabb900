import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { automationBootstrap, legacy, PETSTORE } from './automation-proxy-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// The endpoint pages as they read since 2025-11-17 (management-api-docs commit b9d5441; issue 28 §1): the endpoint
// is named in the body, name + httpMethod (details, update, policies, delete) or identifierName +
// identifierHttpMethod beside the settings (status, cache, wsa). Every body below is a page's own example. The
// {endpointId} aliases of the older pages are in automation-endpoints.test.ts; here a few calls check that the two
// forms are one operation.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; bob: a member without API_MANAGEMENT; gina: MANAGE and DEPLOY_UNDEPLOY
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1', bob: 'bob-pass-1' } })

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const db = () => bed.svc.deps.prisma
const endpointRows = () => db().gatewayEndpoint.findMany({ orderBy: { id: 'asc' } })
const revisions = async () => (await db().apiProxy.findMany({ orderBy: { name: 'asc' }, select: { name: true, revision: true } }))
const lastConfig = () => bed.dev.received[bed.dev.received.length - 1] as any
const rowOf = (method: string, path: string, proxy = 'MyAPI') => db().gatewayEndpoint.findFirstOrThrow({ where: { method, path, version: '', apiProxy: { name: proxy } } })

/** A refusal: 400 FAILURE with the message, no endpoint row, proxy revision or push changed. */
const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp | string) =>
  expectLegacyRefusal(write, message, { state: async () => [await endpointRows(), await revisions(), await db().apiProxyPolicy.findMany({ orderBy: { id: 'asc' } })], pushes })

const USERS = { name: '/api/users', httpMethod: 'GET' }
const MISSING = 'Endpoint identifier (name and httpMethod) must be provided in request body!'
const UNKNOWN = 'Endpoint with name (/api/nope) and HTTP method (GET) is not found!'
const CACHE_BASIC = {
  name: 'Endpoint Cache Settings', description: 'Cache configuration for this endpoint', cacheActive: true, cacheOnlyHttpGetRequests: false, cacheKeyType: 'QUERY_PARAMS',
  cacheStorageType: 'LOCAL', capacity: 1000, ttl: 3600, handlingAction: 'STOP', invalidationRequiresAuthn: false, cacheNullValue: false, variableList: [],
}
const CACHE_CUSTOM = {
  name: 'Endpoint Cache with Custom Key', description: 'Cache using custom variables', cacheActive: true, cacheOnlyHttpGetRequests: false, cacheKeyType: 'CUSTOM',
  cacheStorageType: 'DISTRIBUTED', capacity: 5000, ttl: 7200, handlingAction: 'CONTINUE', invalidationRequiresAuthn: true, cacheNullValue: true,
  variableList: [{ name: 'userId', type: 'HEADER', dataType: 'STRING' }, { name: 'apiVersion', type: 'PARAMETER', dataType: 'STRING' }],
}
const WSA_BASIC = {
  wsaEnabled: true, wsaMustUnderstand: 'NONE', wsaVersion: 'V200508', wsaAddDefaultAction: true, wsaAction: null, wsaAddDefaultTo: true, wsaTo: null, wsaReplyTo: null,
  wsaGenerateMessageId: true, wsaMessageId: null, wsaFrom: null, wsaFaultTo: null, wsaRelatesTo: null, wsaRelationShipType: null,
}
const WSA_CUSTOM = {
  wsaEnabled: true, wsaMustUnderstand: 'TRUE', wsaVersion: 'V200508', wsaAddDefaultAction: false, wsaAction: 'http://example.com/soap/action', wsaAddDefaultTo: false,
  wsaTo: 'http://example.com/soap/service', wsaReplyTo: 'http://example.com/soap/reply', wsaGenerateMessageId: false, wsaMessageId: 'urn:uuid:12345678-1234-1234-1234-123456789012',
  wsaFrom: 'http://example.com/soap/from', wsaFaultTo: 'http://example.com/soap/fault', wsaRelatesTo: 'urn:uuid:87654321-4321-4321-4321-210987654321', wsaRelationShipType: 'Reply',
}

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/myapi'] }, deploy: true, deployTargetEnvironmentNameList: ['dev'] }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  const created = await call('POST', 'file/', bed.gina, form)
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  // the create page's example: the endpoint every other page's example names
  const added = await call('POST', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', description: 'Get all users', httpMethod: 'GET', backendResourceUrl: '/users', backendHttpMethod: 'GET' })
  if (added.status !== 200) throw new Error(JSON.stringify(added.body))
  // a SOAP proxy with the wsa page's operation getUser (WSDL import is not served yet, so it is stored directly)
  const project = await db().project.findFirstOrThrow({ where: { name: 'payments' } })
  const soap = await db().apiProxy.create({ data: { projectId: project.id, name: 'SoapAPI', kind: 'SOAP', relativePath: '/soap', revision: 1 } })
  await db().gatewayEndpoint.create({
    data: { apiProxyId: soap.id, method: 'POST', path: '/getUser', pathKey: '/getUser', operationId: 'getUser', kind: 'SOAP', parameters: [], responses: [], rewriteRules: [], policies: [], consumes: [], produces: [] },
  })
  bed.dev.received.length = 0
})

describe('POST …/endpoints/details/', () => {
  it("answers the page's example endpoint without policy lists, to a VIEW member", async () => {
    const res = await call('POST', 'MyAPI/endpoints/details/', bed.frank, USERS)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: 'SUCCESS', id: (await rowOf('GET', '/api/users')).id, endpoint: '/api/users', description: 'Get all users', active: true, httpMethod: 'GET', backendResourceUrl: '/users', backendHttpMethod: 'GET',
    })
    expect(res.body.requestPolicyList).toBeUndefined()
    expect(res.body.responsePolicyList).toBeUndefined()
    // the same answer as the {endpointId} alias
    expect((await call('GET', `MyAPI/endpoints/${res.body.id}/`, bed.frank)).body).toEqual(res.body)
    // a path template matches whatever its variables are called; a trailing slash does not matter
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/pets/{id}/', httpMethod: 'GET' })).body).toMatchObject({ endpoint: '/pets/{petId}', operationId: 'showPetById' })
  })

  it('refuses a missing identifier, an invalid method, an unknown endpoint, a caller without access; nothing is written', async () => {
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, { httpMethod: 'GET' }), MISSING)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/api/users' }), MISSING)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '  ', httpMethod: 'GET' }), MISSING)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, {}), MISSING)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/api/users', httpMethod: 'FETCH' }), /^httpMethod: must be one of GET, POST, PUT, DELETE, PATCH, OPTIONS, HEAD, TRACE, ALL$/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/api/nope', httpMethod: 'GET' }), UNKNOWN)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/api/users', httpMethod: 'POST' }), 'Endpoint with name (/api/users) and HTTP method (POST) is not found!')
    await expectRefused(() => call('POST', 'Nope/endpoints/details/', bed.frank, USERS), /API proxy 'Nope' not found/)
    // access is decided before the body is read: a caller without it learns nothing of the body rules
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.bob, {}), /API_MANAGEMENT/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.bob, USERS), /API_MANAGEMENT/)
    const anonymous = await call('POST', 'MyAPI/endpoints/details/', null, USERS)
    expect(anonymous.status).toBe(401)
  })
})

describe('PATCH …/endpoints/ (name + httpMethod name the endpoint)', () => {
  it("replays the page's examples: only the fields sent change, the change is pushed where the proxy runs", async () => {
    const before = await rowOf('GET', '/api/users')
    const first = await call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', httpMethod: 'GET', description: 'Updated endpoint description' })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true, deploymentResults: [{ environmentName: 'dev', success: true }] } })
    expect(bed.prod.received).toHaveLength(0)
    expect(await rowOf('GET', '/api/users')).toMatchObject({ id: before.id, description: 'Updated endpoint description', path: '/api/users', method: 'GET', backendPath: '/users', backendMethod: 'GET', enabled: true })
    expect(bed.dev.received).toHaveLength(1)

    await call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', httpMethod: 'GET', backendResourceUrl: '/users/v2', backendHttpMethod: 'GET' })
    expect(await rowOf('GET', '/api/users')).toMatchObject({ description: 'Updated endpoint description', backendPath: '/users/v2', backendMethod: 'GET' })
    expect(lastConfig().config.endpoints).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/users', backendPath: '/users/v2', backendMethod: 'GET' }))
    await call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', httpMethod: 'GET', description: 'Updated endpoint', backendResourceUrl: '/users/v2' })
    // the page's full example
    const full = await call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', httpMethod: 'GET', description: 'Updated endpoint description', backendResourceUrl: '/users/v2', backendHttpMethod: 'GET' })
    expect(full.body).toMatchObject({ status: 'SUCCESS', success: true })
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, USERS)).body).toMatchObject({
      id: before.id, endpoint: '/api/users', httpMethod: 'GET', description: 'Updated endpoint description', backendResourceUrl: '/users/v2', backendHttpMethod: 'GET', active: true,
    })
  })

  it('refuses a missing identifier, an invalid method, an unknown endpoint, no field to change, an invalid field and a VIEW member', async () => {
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, { httpMethod: 'GET', description: 'x' }), MISSING)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', description: 'x' }), MISSING)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/api/users', httpMethod: 'GRAB', description: 'x' }), /^httpMethod: must be one of GET/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/api/nope', httpMethod: 'GET', description: 'x' }), UNKNOWN)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, USERS), 'Nothing to update: the body names no field besides the identifier (name, httpMethod)')
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, { ...USERS, backendHttpMethod: 'FETCH' }), /^backendHttpMethod: must be one of GET/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, { ...USERS, backendResourceUrl: 'users' }), /^backendResourceUrl: must start with '\/'/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.frank, { ...USERS, description: 'x' }), /API_MANAGEMENT/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.frank, {}), /API_MANAGEMENT/)
  })
})

describe('PATCH …/endpoints/status/, cache/ and wsa/ (identifierName + identifierHttpMethod)', () => {
  it("disables and enables the page's endpoint; the deployed config carries it", async () => {
    const res = await call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', active: false })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect((await rowOf('GET', '/api/users')).enabled).toBe(false)
    expect(lastConfig().config.endpoints).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/users', enabled: false }))
    await call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', active: true })
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, USERS)).body.active).toBe(true)
  })

  it('refuses status without its identifier or active, an unknown endpoint, the old flat identifier names and a VIEW member', async () => {
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierHttpMethod: 'GET', active: false }), MISSING)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/users', active: false }), MISSING)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { ...USERS, active: false }), MISSING)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'get', active: false }), /^identifierHttpMethod: must be one of GET/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET' }), /^active: must be true or false/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/nope', identifierHttpMethod: 'GET', active: false }), UNKNOWN)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/status/', bed.frank, { identifierName: '/api/users', identifierHttpMethod: 'GET', active: false }), /API_MANAGEMENT/)
  })

  it("stores both of the cache page's examples, deploys them, and refuses what the page refuses", async () => {
    const basic = await call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', cacheSettings: CACHE_BASIC })
    expect(basic.status).toBe(200)
    expect(basic.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, USERS)).body.cacheSettings).toMatchObject(CACHE_BASIC)
    await call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', cacheSettings: CACHE_CUSTOM })
    const stored = (await rowOf('GET', '/api/users')).cache as any
    expect(stored).toMatchObject({ name: 'Endpoint Cache with Custom Key', cacheKeyType: 'CUSTOM', cacheStorageType: 'DISTRIBUTED' })
    expect(stored.variableList).toEqual([
      expect.objectContaining({ name: 'userId', type: 'HEADER', headerName: 'userId' }),
      expect.objectContaining({ name: 'apiVersion', type: 'PARAMETER', paramType: 'QUERY', paramName: 'apiVersion' }),
    ])
    expect(lastConfig().config.endpoints).toContainEqual(expect.objectContaining({ path: '/api/users', cache: expect.objectContaining({ cacheKeyType: 'CUSTOM' }) }))

    const id = { identifierName: '/api/users', identifierHttpMethod: 'GET' }
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { identifierHttpMethod: 'GET', cacheSettings: CACHE_BASIC }), MISSING)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'FETCH', cacheSettings: CACHE_BASIC }), /^identifierHttpMethod: must be one of/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { identifierName: '/api/nope', identifierHttpMethod: 'GET', cacheSettings: CACHE_BASIC }), UNKNOWN)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, id), 'cacheSettings: is required')
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { ...id, cacheSettings: { ...CACHE_BASIC, handlingAction: undefined } }), /^cacheSettings\.handlingAction: must be one of CONTINUE, STOP/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { ...id, cacheSettings: { ...CACHE_BASIC, cacheKeyType: 'CUSTOM' } }), /^cacheSettings\.variableList: needs at least one variable/)
    // the old page's flat settings beside the identifier are not this page's body
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { ...id, ...CACHE_BASIC }), 'cacheSettings: is required')
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { ...id, cacheSettings: CACHE_BASIC, ttl: 60 }), 'ttl: unknown field')
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.frank, { ...id, cacheSettings: CACHE_BASIC }), /API_MANAGEMENT/)
  })

  it("sets WS-Addressing of the page's SOAP operation (both examples); a REST endpoint or a missing address is refused", async () => {
    const res = await call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, { identifierName: 'getUser', identifierHttpMethod: 'POST', wsaSettings: WSA_BASIC })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true }) // SoapAPI is deployed nowhere: saved, nothing pushed
    expect(pushes()).toBe(0)
    await call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, { identifierName: 'getUser', identifierHttpMethod: 'POST', wsaSettings: WSA_CUSTOM })
    expect((await rowOf('POST', '/getUser', 'SoapAPI')).wsa).toMatchObject(WSA_CUSTOM)
    expect((await call('POST', 'SoapAPI/endpoints/details/', bed.frank, { name: 'getUser', httpMethod: 'POST' })).body.wsaSettings).toMatchObject(WSA_CUSTOM)

    const id = { identifierName: 'getUser', identifierHttpMethod: 'POST' }
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/wsa/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', wsaSettings: WSA_BASIC }), /^wsa: WS-Addressing settings apply to SOAP endpoints; this is a REST endpoint/)
    await expectRefused(() => call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, { ...id, wsaSettings: { ...WSA_CUSTOM, wsaAction: null } }), /^wsaSettings\.wsaAction: is required when wsaEnabled is true and wsaAddDefaultAction is false/)
    await expectRefused(() => call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, { ...id, wsaSettings: { ...WSA_CUSTOM, wsaTo: 'not a uri' } }), /^wsaSettings\.wsaTo: must be an absolute URI/)
    await expectRefused(() => call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, { identifierName: 'getUser', wsaSettings: WSA_BASIC }), MISSING)
    await expectRefused(() => call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, id), 'wsaSettings: is required')
    await expectRefused(() => call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, { identifierName: 'getUser', identifierHttpMethod: 'GET', wsaSettings: WSA_BASIC }), 'Endpoint with name (getUser) and HTTP method (GET) is not found!')
    await expectRefused(() => call('PATCH', 'SoapAPI/endpoints/wsa/', bed.frank, { ...id, wsaSettings: WSA_BASIC }), /API_MANAGEMENT/)
  })
})

describe("the newest pages' deploy and deployTargetEnvironmentNameList (api-reference/api-proxies/endpoints, issue 32 §0)", () => {
  const DEPLOY_NONE = { deploy: false, deployTargetEnvironmentNameList: [] }
  it("accepts the status, cache, wsa and update examples with deploy false: saved and pushed where the proxy runs, as before", async () => {
    const status = await call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', active: false, ...DEPLOY_NONE })
    expect(status.status, JSON.stringify(status.body)).toBe(200)
    expect(status.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { deploymentResults: [{ environmentName: 'dev', success: true }] } })
    expect((await rowOf('GET', '/api/users')).enabled).toBe(false)
    expect(bed.prod.received).toHaveLength(0)
    const cache = await call('PATCH', 'MyAPI/endpoints/cache/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', cacheSettings: CACHE_BASIC, ...DEPLOY_NONE })
    expect(cache.status, JSON.stringify(cache.body)).toBe(200)
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, USERS)).body.cacheSettings).toMatchObject(CACHE_BASIC)
    const wsa = await call('PATCH', 'SoapAPI/endpoints/wsa/', bed.erin, { identifierName: 'getUser', identifierHttpMethod: 'POST', wsaSettings: WSA_CUSTOM, ...DEPLOY_NONE })
    expect(wsa.status, JSON.stringify(wsa.body)).toBe(200)
    const update = await call('PATCH', 'MyAPI/endpoints/', bed.erin, { ...USERS, description: 'Updated endpoint description', backendResourceUrl: '/users/v2', backendHttpMethod: 'GET', ...DEPLOY_NONE })
    expect(update.status, JSON.stringify(update.body)).toBe(200)
    await call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/api/users', identifierHttpMethod: 'GET', active: true })
    expect(bed.prod.received).toHaveLength(0)
  })

  it('with deploy true pushes the proxy to the environments listed, and needs DEPLOY_UNDEPLOY to push', async () => {
    const res = await call('PATCH', 'MyAPI/endpoints/status/', bed.gina, { identifierName: '/api/users', identifierHttpMethod: 'GET', active: true, deploy: true, deployTargetEnvironmentNameList: ['prod'] })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: true, deploymentResults: [{ environmentName: 'prod', success: true }] })
    expect(bed.prod.received[bed.prod.received.length - 1]).toMatchObject({ name: 'MyAPI', config: { endpoints: expect.arrayContaining([expect.objectContaining({ path: '/api/users', enabled: true })]) } })
    // erin may change the endpoint but not deploy: saved, reported not deployed, nothing pushed to prod
    const before = bed.prod.received.length
    const saved = await call('PATCH', 'MyAPI/endpoints/', bed.erin, { ...USERS, description: 'by erin', deploy: true, deployTargetEnvironmentNameList: ['prod'] })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body.deploymentResult).toMatchObject({ success: false })
    expect(JSON.stringify(saved.body.deploymentResult)).toContain('DEPLOY_UNDEPLOY')
    expect(bed.prod.received).toHaveLength(before)
    expect((await rowOf('GET', '/api/users')).description).toBe('by erin')
  })

  it('refuses an unknown environment, a deploy that is not a boolean and an invalid list; nothing is written or pushed', async () => {
    await expectRefused(
      () => call('PATCH', 'MyAPI/endpoints/status/', bed.gina, { identifierName: '/api/users', identifierHttpMethod: 'GET', active: false, deploy: true, deployTargetEnvironmentNameList: ['staging'] }),
      "deployTargetEnvironmentNameList[0]: environment 'staging' not found in project 'payments'",
    )
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/cache/', bed.gina, { identifierName: '/api/users', identifierHttpMethod: 'GET', cacheSettings: CACHE_BASIC, deploy: 'yes' }), /^deploy: must be true or false/)
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.gina, { ...USERS, description: 'x', deployTargetEnvironmentNameList: 'prod' }), /^deployTargetEnvironmentNameList: /)
  })
})

describe('POST …/endpoints/policies/ and …/endpoints/delete/', () => {
  it('answers the endpoint with its three policy lists', async () => {
    const added = await call('POST', 'MyAPI/policies/block-users/', bed.erin, {
      operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/api/users', targetEndpointHTTPMethod: 'GET', targetPipeline: 'REQUEST', deploy: false },
      policy: { type: 'policy-black-ip', description: 'Block', active: true, ipList: ['192.168.1.100'] },
    })
    expect(added.status).toBe(200)
    const res = await call('POST', 'MyAPI/endpoints/policies/', bed.frank, USERS)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      status: 'SUCCESS', id: (await rowOf('GET', '/api/users')).id, endpoint: '/api/users', httpMethod: 'GET',
      requestPolicyList: [{ type: 'policy-black-ip', name: 'block-users', description: 'Block', active: true }], responsePolicyList: [], errorPolicyList: [],
    })
    expect((await call('GET', `MyAPI/endpoints/${res.body.id}/policies/`, bed.frank)).body).toEqual(res.body)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/policies/', bed.frank, { name: '/api/users' }), MISSING)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/policies/', bed.frank, { name: '/api/users', httpMethod: 'FETCH' }), /^httpMethod: must be one of/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/policies/', bed.frank, { name: '/api/nope', httpMethod: 'GET' }), UNKNOWN)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/policies/', bed.bob, USERS), /API_MANAGEMENT/)
  })

  it("deletes the page's endpoint with its policies and pushes the proxy without it; refusals change nothing", async () => {
    await expectRefused(() => call('POST', 'MyAPI/endpoints/delete/', bed.erin, { name: '/api/users' }), MISSING)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/delete/', bed.erin, { httpMethod: 'GET' }), MISSING)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/delete/', bed.erin, { name: '/api/users', httpMethod: 'REMOVE' }), /^httpMethod: must be one of/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/delete/', bed.erin, { name: '/api/nope', httpMethod: 'GET' }), UNKNOWN)
    await expectRefused(() => call('POST', 'SoapAPI/endpoints/delete/', bed.erin, { name: 'getUser', httpMethod: 'POST' }), /^Endpoint can only be deleted from REST API Proxies!/)
    await expectRefused(() => call('POST', 'MyAPI/endpoints/delete/', bed.frank, USERS), /API_MANAGEMENT/)
    const id = (await rowOf('GET', '/api/users')).id
    const res = await call('POST', 'MyAPI/endpoints/delete/', bed.erin, USERS)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(await db().gatewayEndpoint.findUnique({ where: { id } })).toBeNull()
    expect(await db().apiProxyPolicy.count({ where: { name: 'block-users' } })).toBe(0)
    expect(lastConfig().config.endpoints.map((e: any) => e.path)).not.toContain('/api/users')
    await expectRefused(() => call('POST', 'MyAPI/endpoints/details/', bed.frank, USERS), 'Endpoint with name (/api/users) and HTTP method (GET) is not found!')
  })
})

describe('path versions and the two forms', () => {
  it('names the unversioned endpoint, else the only version holding it; several versions are refused', async () => {
    const proxy = await db().apiProxy.findFirstOrThrow({ where: { name: 'MyAPI' } })
    const row = (version: string, path: string, operationId: string) => ({
      apiProxyId: proxy.id, version, method: 'GET', path, pathKey: path, operationId, kind: 'REST', parameters: [], responses: [], rewriteRules: [], policies: [], consumes: [], produces: [],
    })
    await db().gatewayEndpoint.createMany({ data: [row('v2', '/pets', 'listPetsV2'), row('v1', '/toys', 'listToysV1'), row('v2', '/toys', 'listToysV2'), row('v2', '/birds', 'listBirds')] })
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/pets', httpMethod: 'GET' })).body).toMatchObject({ version: '', operationId: 'listPets' })
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/birds', httpMethod: 'GET' })).body).toMatchObject({ version: 'v2', operationId: 'listBirds' })
    await expectRefused(() => call('PATCH', 'MyAPI/endpoints/', bed.erin, { name: '/toys', httpMethod: 'GET', description: 'x' }),
      "Endpoint with name (/toys) and HTTP method (GET) exists in the path versions v1, v2 of API proxy 'MyAPI'; address it by id")
  })

  it('applies one rule to both forms: a change by id reads back by name and the reverse', async () => {
    const pets = await rowOf('POST', '/pets')
    await call('PATCH', `MyAPI/endpoints/${pets.id}/status/`, bed.erin, { active: false })
    expect((await call('POST', 'MyAPI/endpoints/details/', bed.frank, { name: '/pets', httpMethod: 'POST' })).body.active).toBe(false)
    await call('PATCH', 'MyAPI/endpoints/status/', bed.erin, { identifierName: '/pets', identifierHttpMethod: 'POST', active: true })
    expect((await call('GET', `MyAPI/endpoints/${pets.id}/`, bed.frank)).body.active).toBe(true)
    // the same body rule on both forms: an empty change is refused alike
    await expectRefused(() => call('PATCH', `MyAPI/endpoints/${pets.id}/`, bed.erin, { unknown: 1 }), 'Nothing to update: the body names no field')
  })

  it('lists both forms in the OpenAPI document', async () => {
    const doc = (await (await bed.svc.http('/apiops/openapi.json')).json()) as { paths: Record<string, Record<string, { summary?: string; requestBody?: unknown }>> }
    const base = '/apiops/projects/{projectName}/apiProxies/{apiProxyName}/endpoints'
    const forms: [string, string][] = [
      ['post', '/details/'], ['patch', '/'], ['patch', '/status/'], ['patch', '/cache/'], ['patch', '/wsa/'], ['post', '/policies/'], ['post', '/delete/'],
      ['get', '/{endpointId}/'], ['patch', '/{endpointId}/'], ['delete', '/{endpointId}/'], ['patch', '/{endpointId}/status/'], ['patch', '/{endpointId}/cache/'],
      ['patch', '/{endpointId}/wsa/'], ['get', '/{endpointId}/policies/'],
    ]
    for (const [method, path] of forms) expect(doc.paths[`${base}${path}`]?.[method], `${method} ${path}`).toBeDefined()
    expect(JSON.stringify(doc.paths[`${base}/cache/`]!.patch!.requestBody)).toContain('identifierHttpMethod')
    // the body forms are mounted before the aliases, so the document (and the router) try them first
    const order = Object.keys(doc.paths).filter((p) => p.startsWith(base))
    expect(order.indexOf(`${base}/status/`)).toBeLessThan(order.indexOf(`${base}/{endpointId}/`))
  })
})
