import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { legacy, PETSTORE, PETSTORE_V2_YAML } from './automation-proxy-support.js'
import { newestPagesBootstrap } from './settings-support.js'

// The vendor document's API proxy operations without a page (openapi.yaml getFullApiProxy,
// findEnvironmentVariablesBy…, getSpecAPIOfSpecGet, updateSpecAPIOfSpecPut): the full proxy, the environment
// variables it names, its specification read and replaced; refusals write and push nothing.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE and DEPLOY_UNDEPLOY; bob: IDENTITY only; root: administrator
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: newestPagesBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1', bob: 'bob-pass-1', root: 's3cret-root' } })
const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const state = async () => [
  await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'Pets' }, select: { specDocument: true, revision: true, settings: true } }),
  await bed.svc.deps.prisma.gatewayEndpoint.findMany({ where: { apiProxy: { name: 'Pets' } }, orderBy: { id: 'asc' } }),
]
const expectRefused = (write: () => ReturnType<typeof call>, message: RegExp | string) => expectLegacyRefusal(write, message, { state, pushes })
const SPEC_TEXT = JSON.stringify(PETSTORE)

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'Pets', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/pets-api'] }, deploy: true, deployTargetEnvironmentNameList: ['production'] }))
  form.append('specFile', new Blob([SPEC_TEXT]), 'openapi.json')
  const created = await call('POST', 'file/', bed.gina, form)
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  // a proxy-level policy and a settings text naming environment variables
  const policy = await call('POST', 'Pets/policies/tenant-script/', bed.erin, {
    operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false },
    policy: { type: 'policy-script', description: 'adds the tenant', active: true, executionType: 'SYNC', scriptLanguage: 'GROOVY', scriptBody: "request.setHeader('X-Tenant', '${TENANT_ID}')" },
  })
  if (policy.status !== 200) throw new Error(JSON.stringify(policy.body))
  const message = await call('PATCH', 'Pets/settings/custom-message/', bed.erin, { customMessageTemplate: 'Hello from ${Region}' })
  if (message.status !== 200) throw new Error(JSON.stringify(message.body))
  for (const [name, value] of [['TENANT_ID', 'acme'], ['REGION', 'eu-1'], ['UNUSED', 'x']]) {
    const res = await legacy(bed.svc, 'POST', `payments/environmentVariables/${name}/`, bed.root, { name, global: true, globalValue: value, globalVisible: true })
    if (res.status !== 200) throw new Error(JSON.stringify(res.body))
  }
  bed.dev.received.length = 0
  bed.prod.received.length = 0
})

describe('the full proxy', () => {
  it('answers the proxy read with type, endpointList and, withPolicies, the policy lists', async () => {
    const plain = await call('GET', 'Pets/full', bed.frank)
    expect(plain.status, JSON.stringify(plain.body)).toBe(200)
    const proxy = plain.body.resultList[0]
    expect(plain.body.resultCount).toBe(1)
    expect(proxy).toMatchObject({ name: 'Pets', type: 'REST', apiType: 'REST', soapToRest: false, creationType: 'OPEN_API', endpointCount: 3 })
    expect(proxy.endpointList.map((e: { httpMethod: string; endpoint: string }) => `${e.httpMethod} ${e.endpoint}`).sort()).toEqual(['GET /pets', 'GET /pets/{petId}', 'POST /pets'])
    expect(proxy.requestPolicyList).toBeUndefined()
    const withPolicies = (await call('GET', 'Pets/full?withPolicies=true', bed.frank)).body.resultList[0]
    expect(withPolicies.requestPolicyList).toEqual([{ type: 'policy-script', name: 'tenant-script', description: 'adds the tenant', active: true }])
    expect(withPolicies.responsePolicyList).toEqual([])
    expect(withPolicies.endpointList[0].requestPolicyList).toEqual([])
    const gql = await bed.svc.graphql('{ apiProxyFull(projectName: "payments", apiProxyName: "Pets", withPolicies: true) }', {}, bed.frank)
    expect(gql.body.data.apiProxyFull.requestPolicyList).toEqual(withPolicies.requestPolicyList)
  })

  it('refuses outsiders, unknown proxies and a bad withPolicies', async () => {
    await expectRefused(() => call('GET', 'Pets/full', bed.bob), /API_MANAGEMENT/)
    await expectRefused(() => call('GET', 'Nope/full', bed.frank), /Nope/)
    await expectRefused(() => call('GET', 'Pets/full?withPolicies=yes', bed.frank), /^withPolicies: must be true or false/)
  })
})

describe('get-api-proxy: the newest page (endpointList, withPolicies, resultList)', () => {
  it('answers the fields at the top level and again as resultList[0], with the methods; withPolicies adds their policy lists', async () => {
    const plain = await call('GET', 'Pets/', bed.frank)
    expect(plain.status, JSON.stringify(plain.body)).toBe(200)
    expect(plain.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 1, name: 'Pets', apiType: 'REST', endpointCount: 3 })
    const { status: _status, success: _success, resultList, resultCount: _count, ...fields } = plain.body
    expect(resultList).toEqual([fields])
    expect(fields.endpointList.map((e: { httpMethod: string; endpoint: string }) => `${e.httpMethod} ${e.endpoint}`).sort()).toEqual(['GET /pets', 'GET /pets/{petId}', 'POST /pets'])
    for (const e of fields.endpointList) expect(e).toMatchObject({ id: expect.any(String), endpoint: expect.any(String), active: true, httpMethod: expect.any(String), backendResourceUrl: expect.any(String), backendHttpMethod: expect.any(String) })
    expect(fields.endpointList[0].requestPolicyList).toBeUndefined()
    const withPolicies = await call('GET', 'Pets/?withPolicies=true', bed.frank)
    expect(withPolicies.status).toBe(200)
    expect(withPolicies.body.resultList[0].endpointList).toEqual(withPolicies.body.endpointList)
    for (const e of withPolicies.body.endpointList) expect(e).toMatchObject({ requestPolicyList: [], responsePolicyList: [], errorPolicyList: [] })
    // the list-methods page answers the same methods
    expect(withPolicies.body.endpointList).toEqual((await call('GET', 'Pets/methods/?withPolicies=true', bed.frank)).body.resultList)
    expect((await call('GET', 'Pets/?withPolicies=false', bed.frank)).body.endpointList).toEqual(fields.endpointList)
  })

  it('refuses a bad withPolicies, outsiders and unknown proxies', async () => {
    await expectRefused(() => call('GET', 'Pets/?withPolicies=yes', bed.frank), /^withPolicies: must be true or false/)
    await expectRefused(() => call('GET', 'Pets/', bed.bob), /API_MANAGEMENT/)
    await expectRefused(() => call('GET', 'Nope/', bed.frank), /Nope/)
  })
})

describe('the environment variables a proxy uses', () => {
  it('lists the variables named as ${NAME} in its policies and settings (names case-insensitive), not the others', async () => {
    const res = await call('GET', 'Pets/environment-variables/', bed.root)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.resultList.map((v: { name: string }) => v.name)).toEqual(['REGION', 'TENANT_ID'])
    expect(res.body.resultList[1]).toMatchObject({ name: 'TENANT_ID', global: true, globalValue: 'acme', projectName: 'payments' })
    expect((await call('GET', 'MyAPI/environment-variables/', bed.root)).body).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
    const gql = await bed.svc.graphql('{ apiProxyEnvironmentVariables(projectName: "payments", apiProxyName: "Pets") }', {}, bed.root)
    expect(gql.body.data.apiProxyEnvironmentVariables.map((v: { name: string }) => v.name)).toEqual(['REGION', 'TENANT_ID'])
  })

  it('refuses a caller without API_MANAGEMENT, and one who may not read the variables', async () => {
    await expectRefused(() => call('GET', 'Pets/environment-variables/', bed.bob), /API_MANAGEMENT/)
    await expectRefused(() => call('GET', 'Pets/environment-variables/', bed.frank), /PROJECT_MANAGEMENT/)
  })
})

describe("the proxy's specification", () => {
  it('reads the document the proxy was built from', async () => {
    const res = await call('GET', 'Pets/spec/', bed.frank)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id: 'Pets', projectId: 'payments', apiProxyId: 'Pets', apiProxyRevision: expect.any(Number), specCreationType: 'OPEN_API', importedContentOfBackendApi: SPEC_TEXT, soapSchemaList: [] })
    // a proxy built without a document has none
    expect((await call('GET', 'MyAPI/spec/', bed.frank)).body).toMatchObject({ apiProxyId: 'MyAPI', importedContentOfBackendApi: null })
  })

  it('replaces it: the endpoints follow the document (the kept ones keep their ids), a new revision, nothing pushed, one audit event', async () => {
    const before = (await call('GET', 'Pets/spec/', bed.frank)).body
    const kept = await bed.svc.deps.prisma.gatewayEndpoint.findFirstOrThrow({ where: { apiProxy: { name: 'Pets' }, method: 'GET', path: '/pets' } })
    const audits = await bed.svc.deps.prisma.auditEvent.count()
    const res = await call('PUT', 'Pets/spec/', bed.erin, { ...before, specCreationType: 'OPEN_API', importedContentOfBackendApi: PETSTORE_V2_YAML.replace('swagger: "2.0"', 'openapi: 3.0.0') })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ apiProxyRevision: before.apiProxyRevision + 1, importedContentOfBackendApi: expect.stringContaining('deletePet') })
    const endpoints = await bed.svc.deps.prisma.gatewayEndpoint.findMany({ where: { apiProxy: { name: 'Pets' } } })
    expect(endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(['DELETE /pets/{petId}', 'GET /pets'])
    expect(endpoints.find((e) => e.path === '/pets')!.id).toBe(kept.id)
    expect(pushes()).toBe(0)
    expect(await bed.svc.deps.prisma.auditEvent.count()).toBe(audits + 1)
    const detail = (await call('GET', 'Pets/', bed.frank)).body
    expect(detail.deploymentList.find((d: { environmentName: string }) => d.environmentName === 'production')).toMatchObject({ deployed: true, redeployRequired: true })
    const gql = await bed.svc.graphql(`mutation($input: JSON!) { replaceApiProxySpec(projectName: "payments", apiProxyName: "Pets", input: $input) }`, { input: { importedContentOfBackendApi: SPEC_TEXT } }, bed.erin)
    expect(gql.body.errors).toBeUndefined()
    expect(gql.body.data.replaceApiProxySpec.importedContentOfBackendApi).toBe(SPEC_TEXT)
  })

  it('refuses, writing and pushing nothing', async () => {
    const current = (await call('GET', 'Pets/spec/', bed.frank)).body
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.frank, { importedContentOfBackendApi: SPEC_TEXT }), /API_MANAGEMENT/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.bob, { nonsense: 1 }), /API_MANAGEMENT/)
    await expectRefused(() => call('PUT', 'Nope/spec/', bed.erin, { importedContentOfBackendApi: SPEC_TEXT }), /Nope/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, {}), /^importedContentOfBackendApi: is required/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, { importedContentOfBackendApi: '{"hello": "world"}' }), /^importedContentOfBackendApi/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, { importedContentOfBackendApi: SPEC_TEXT, colour: 'red' }), /colour/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, { importedContentOfBackendApi: SPEC_TEXT, specCreationType: 'SWAGGER' }), /^specCreationType: API proxy 'Pets' was created as OPEN_API/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, { importedContentOfBackendApi: SPEC_TEXT, apiProxyId: 'MyAPI' }), /^apiProxyId: 'MyAPI' is not API proxy 'Pets'/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, { importedContentOfBackendApi: SPEC_TEXT, apiProxyRevision: current.apiProxyRevision - 1 }), new RegExp(`^apiProxyRevision: API proxy 'Pets' is at revision ${current.apiProxyRevision}`))
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, { importedContentOfBackendApi: SPEC_TEXT, soapSchemaList: [{ schemaNo: 1 }] }), /^soapSchemaList: SOAP schemas apply to WSDL proxies/)
    await expectRefused(() => call('PUT', 'MyAPI/spec/', bed.erin, { importedContentOfBackendApi: SPEC_TEXT }), /only proxies built from an OpenAPI or Swagger document/)
    await expectRefused(() => call('PUT', 'Pets/spec/', bed.erin, [SPEC_TEXT]), /must be a JSON object/)
  })
})

describe('the specification travels with the proxy', () => {
  it('an export package carries it and the import as a new proxy keeps it (the proxies without one export as before)', async () => {
    const exported = await bed.svc.http('/apiops/projects/payments/apiProxies/Pets/export/', { headers: { authorization: `Bearer ${bed.gina}` } })
    expect(exported.status).toBe(200)
    const form = new FormData()
    form.append('apiProxyExportFile', new Blob([Buffer.from(await exported.arrayBuffer())]), 'apiProxyExportFile.zip')
    const imported = await call('POST', 'import/', bed.gina, form)
    expect(imported.body).toMatchObject({ status: 'SUCCESS', apiProxyName: 'Pets-1' })
    const copy = await call('GET', 'Pets-1/spec/', bed.frank)
    expect(copy.body).toMatchObject({ apiProxyId: 'Pets-1', specCreationType: 'OPEN_API', importedContentOfBackendApi: SPEC_TEXT })
  })
})
