import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import { jsonOfFile, unzip } from '../support/zip-fixtures.js'
import { automationBootstrap, legacy } from './automation-proxy-support.js'

// The policy pages as they read at apinizer/management-api-docs 319c71d (issue 28 §3): protocol transformation
// policies are not added by hand (e02b1ca), SAML names its keystore with keyStoreName (94b8026), a script needs
// executionType, a business rule takes targetValue beside targetVal (11953a2), and every detailList entry names the
// worker (podName, podIp) that answered.

/** The prod environment has its fake worker and a second worker that is not there (a refused connection). */
const DEAD_WORKER = 'http://127.0.0.1:9/'
const bootstrap = (workers: { dev: string[]; prod: string[] }) => automationBootstrap({ dev: workers.dev, prod: [...workers.prod, DEAD_WORKER] })

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE, DEPLOY_UNDEPLOY and EXPORT_IMPORT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const policyRows = () => bed.svc.deps.prisma.apiProxyPolicy.findMany({ orderBy: [{ pipeline: 'asc' }, { position: 'asc' }], select: { name: true, type: true, pipeline: true, position: true, config: true } })
const proxyRevision = async () => (await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'PagesAPI', project: { name: 'payments' } } })).revision
const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp | string) =>
  expectLegacyRefusal(write, message, { state: async () => [await policyRows(), await proxyRevision()], pushes })
const stored = async (name: string) => (await bed.svc.deps.prisma.apiProxyPolicy.findFirstOrThrow({ where: { name, apiProxy: { project: { name: 'payments' } } } })).config as any
const pushedPolicy = (name: string) => (bed.dev.received.at(-1)!.config.policies as any).request.find((p: any) => p.name === name)

/** The pages' operationMetadata, deploying to this installation's dev environment (the pages say production). */
const META = { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: true, deployTargetEnvironmentNameList: ['dev'], order: 1 }
const NO_DEPLOY = { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false }

beforeAll(async () => {
  const created = await call('POST', 'url/', bed.gina, { apiProxyName: 'PagesAPI', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/pages'] }, deploy: false })
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  const project = (name: string) => bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name } })
  // keystores: one of payments, one of the admin project (global); both names of the SAML page
  await bed.svc.deps.prisma.storedObject.createMany({
    data: [
      { projectId: (await project('payments')).id, type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'saml-keystore', content: {} },
      { projectId: (await project('admin')).id, type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'test-keystores', content: {} },
    ],
  })
})

describe('protocol transformation policies (not added by hand)', () => {
  it.each(['policy-request-protocol-transformation', 'policy-response-protocol-transformation'])('%s: an add is a 400 naming the type; nothing is added or pushed', async (type) => {
    const policy = type === 'policy-request-protocol-transformation'
      ? { type, description: 'Transform REST requests to SOAP', active: true, policyCondition: null, errorMessageList: [] }
      : { type, description: 'Transform SOAP responses to REST', active: true, apiMethodList: [{ id: 'method-1', name: 'getUser', description: 'Get user information', active: true, httpMethod: 'GET', backendResourceUrl: '/soap/UserService', backendHttpMethod: 'POST' }], policyCondition: null, errorMessageList: [] }
    await expectRefused(
      () => call('POST', 'PagesAPI/policies/transformation/', bed.gina, { operationMetadata: META, policy }),
      `policy.type: a ${type} policy can not be added manually; it comes with the SOAP/REST transformation settings of the API proxy`,
    )
    const gql = await bed.svc.graphql('mutation($m: JSON!, $p: JSON!) { addApiProxyPolicy(projectName: "payments", apiProxyName: "PagesAPI", policyName: "transformation", operationMetadata: $m, policy: $p) { deploymentResult { success } } }', { m: NO_DEPLOY, p: policy }, bed.gina)
    expect(gql.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^policy\.type: a .* can not be added manually/), extensions: { errorKey: 'malformedRequest', params: { field: 'policy.type', reason: 'policyTypeNotAddable', type } } })
    expect(await bed.svc.deps.prisma.apiProxyPolicy.count({ where: { type } })).toBe(0)
  })

  it('one that came with a proxy (stored, or in a package) stays readable, exportable and importable', async () => {
    const proxy = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'PagesAPI' } })
    const position = (await bed.svc.deps.prisma.apiProxyPolicy.count({ where: { apiProxyId: proxy.id, endpointId: null, pipeline: 'RESPONSE' } })) + 1
    await bed.svc.deps.prisma.apiProxyPolicy.create({
      data: { apiProxyId: proxy.id, endpointId: null, pipeline: 'RESPONSE', position, name: 'soap-to-rest', nameKey: 'soap-to-rest', type: 'policy-response-protocol-transformation', description: null, active: true, config: { type: 'policy-response-protocol-transformation', active: true, apiMethodList: [{ id: 'm-1', name: 'getUser', httpMethod: 'GET', backendResourceUrl: '/soap/UserService', backendHttpMethod: 'POST' }] } },
    })
    const listed = await call('GET', 'PagesAPI/policies/', bed.frank)
    expect(listed.body.resultList[0].responsePolicyList).toContainEqual({ name: 'soap-to-rest', type: 'policy-response-protocol-transformation', active: true, order: position })
    const exported = await bed.svc.http('/apiops/projects/payments/apiProxies/PagesAPI/export/', { headers: { authorization: `Bearer ${bed.gina}` } })
    expect(exported.status).toBe(200)
    const bytes = Buffer.from(await exported.arrayBuffer())
    expect(jsonOfFile(unzip(bytes), 'PagesAPI.json').data.policies.map((p: any) => p.policy.type)).toContain('policy-response-protocol-transformation')
    const form = new FormData()
    form.append('apiProxyExportFile', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'apiProxyExportFile.zip')
    const imported = await call('POST', 'import/', bed.gina, form)
    expect(imported.body, JSON.stringify(imported.body)).toMatchObject({ status: 'SUCCESS', apiProxyName: 'PagesAPI-1' })
    expect(await bed.svc.deps.prisma.apiProxyPolicy.count({ where: { name: 'soap-to-rest', apiProxy: { name: 'PagesAPI-1' } } })).toBe(1)
    await bed.svc.deps.prisma.apiProxy.deleteMany({ where: { name: 'PagesAPI-1' } })
  })
})

describe('SAML validation: keyStoreName, in the project then globally', () => {
  const SAML = (keyStoreName: string, extra: Record<string, unknown> = {}) => ({ type: 'policy-saml-validation', description: 'Validate SAML assertions with signature verification', active: true, keyStoreName, allowUnknownSigner: false, clearSaml: false, clearSamlPath: null, ...extra })

  it("adds the page's example naming a keystore of the project, and updates it to one of the admin project", async () => {
    const added = await call('POST', 'PagesAPI/policies/saml-validation-policy/', bed.gina, { operationMetadata: META, policy: SAML('saml-keystore') })
    expect(added.body, JSON.stringify(added.body)).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    expect(await stored('saml-validation-policy')).toMatchObject({ keyStoreName: 'saml-keystore' })
    expect(pushedPolicy('saml-validation-policy')).toMatchObject({ keyStoreName: 'saml-keystore' })
    // the update example: test-keystores exists only in the admin project
    const updated = await call('PUT', 'PagesAPI/policies/saml-validation-policy/', bed.gina, {
      operationMetadata: META,
      policy: SAML('test-keystores', { description: 'Updated: SAML validation with enhanced security settings', clearSaml: true, clearSamlPath: '$.assertion' }),
    })
    expect(updated.body, JSON.stringify(updated.body)).toMatchObject({ status: 'SUCCESS' })
    expect(await stored('saml-validation-policy')).toMatchObject({ keyStoreName: 'test-keystores', clearSaml: true, clearSamlPath: '$.assertion' })
  })

  it('keyStoreId (the earlier field) is still accepted', async () => {
    const res = await call('POST', 'PagesAPI/policies/saml-by-id/', bed.erin, { operationMetadata: NO_DEPLOY, policy: { type: 'policy-saml-validation', keyStoreId: 'test-keystores' } })
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await stored('saml-by-id')).toMatchObject({ keyStoreId: 'test-keystores' })
  })

  it('an unknown keystore is a 400 naming it; no keystore at all is a 400 naming keyStoreName; nothing is written', async () => {
    await expectRefused(
      () => call('POST', 'PagesAPI/policies/saml-ghost/', bed.gina, { operationMetadata: META, policy: SAML('ghost-keystore') }),
      "policy.keyStoreName: keystore 'ghost-keystore' not found in project 'payments' nor globally",
    )
    const gql = await bed.svc.graphql('mutation($m: JSON!, $p: JSON!) { addApiProxyPolicy(projectName: "payments", apiProxyName: "PagesAPI", policyName: "saml-ghost", operationMetadata: $m, policy: $p) { deploymentResult { success } } }', { m: NO_DEPLOY, p: SAML('ghost-keystore') }, bed.gina)
    expect(gql.body.errors?.[0]?.extensions).toMatchObject({ params: { field: 'policy.keyStoreName', reason: 'referenceNotFound', referenceKind: 'keystore', name: 'ghost-keystore' } })
    await expectRefused(() => call('POST', 'PagesAPI/policies/saml-ghost/', bed.gina, { operationMetadata: META, policy: { type: 'policy-saml-validation', keyStoreId: 'ghost-id' } }), /^policy\.keyStoreId: keystore 'ghost-id' not found/)
    await expectRefused(() => call('POST', 'PagesAPI/policies/saml-ghost/', bed.gina, { operationMetadata: META, policy: { type: 'policy-saml-validation', clearSaml: false } }), /^policy\.keyStoreName: is required/)
    // a keystore of another project is not global
    const other = await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'other' } })
    await bed.svc.deps.prisma.storedObject.create({ data: { projectId: other.id, type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'other-keystore', content: {} } })
    await expectRefused(() => call('POST', 'PagesAPI/policies/saml-ghost/', bed.gina, { operationMetadata: META, policy: SAML('other-keystore') }), /^policy\.keyStoreName: keystore 'other-keystore' not found/)
  })
})

describe('script: executionType is required', () => {
  const SCRIPT = { type: 'policy-script', description: 'Add custom header to request', active: true, executionType: 'SYNC', scriptLanguage: 'GROOVY', scriptBody: "def messageContext = messageContext;\ndef request = messageContext.getRequest();\nrequest.setHeader('X-Custom-Header', 'CustomValue');\nrequest.setHeader('X-Request-Time', String.valueOf(System.currentTimeMillis()));" }

  it("the page's example is stored and pushed; without executionType it is a 400 naming the field", async () => {
    const { executionType: _sync, ...withoutType } = SCRIPT
    await expectRefused(() => call('POST', 'PagesAPI/policies/custom-script/', bed.gina, { operationMetadata: META, policy: withoutType }), /^policy\.executionType: must be one of SYNC, ASYNC/)
    await expectRefused(() => call('POST', 'PagesAPI/policies/custom-script/', bed.gina, { operationMetadata: META, policy: { ...SCRIPT, executionType: 'LATER' } }), /^policy\.executionType: must be one of SYNC, ASYNC/)
    const res = await call('POST', 'PagesAPI/policies/custom-script/', bed.gina, { operationMetadata: META, policy: SCRIPT })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await stored('custom-script')).toEqual(SCRIPT)
    expect(pushedPolicy('custom-script')).toMatchObject({ ...SCRIPT, name: 'custom-script' })
    // an update leaving it out is refused too, and keeps the stored policy
    await expectRefused(() => call('PUT', 'PagesAPI/policies/custom-script/', bed.gina, { operationMetadata: META, policy: withoutType }), /^policy\.executionType: /)
  })

  it('a script stored before the rule travels in a package, and is imported as SYNC', async () => {
    const proxy = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'PagesAPI' } })
    const position = (await bed.svc.deps.prisma.apiProxyPolicy.count({ where: { apiProxyId: proxy.id, endpointId: null, pipeline: 'ERROR' } })) + 1
    await bed.svc.deps.prisma.apiProxyPolicy.create({
      data: { apiProxyId: proxy.id, endpointId: null, pipeline: 'ERROR', position, name: 'old-script', nameKey: 'old-script', type: 'policy-script', description: null, active: true, config: { type: 'policy-script', active: true, scriptLanguage: 'GROOVY', scriptBody: 'log.info(1)' } },
    })
    const exported = await bed.svc.http('/apiops/projects/payments/apiProxies/PagesAPI/export/', { headers: { authorization: `Bearer ${bed.gina}` } })
    const bytes = Buffer.from(await exported.arrayBuffer())
    const packaged = jsonOfFile(unzip(bytes), 'PagesAPI.json').data.policies.find((p: any) => p.name === 'old-script')
    expect(packaged.policy).not.toHaveProperty('executionType')
    const form = new FormData()
    form.append('apiProxyExportFile', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'apiProxyExportFile.zip')
    const imported = await call('POST', 'import/', bed.gina, form)
    expect(imported.body, JSON.stringify(imported.body)).toMatchObject({ status: 'SUCCESS', apiProxyName: 'PagesAPI-1' })
    const copy = await bed.svc.deps.prisma.apiProxyPolicy.findFirstOrThrow({ where: { name: 'old-script', apiProxy: { name: 'PagesAPI-1' } } })
    expect(copy.config).toMatchObject({ executionType: 'SYNC', scriptLanguage: 'GROOVY' })
    await bed.svc.deps.prisma.apiProxy.deleteMany({ where: { name: 'PagesAPI-1' } })
    await bed.svc.deps.prisma.apiProxyPolicy.deleteMany({ where: { name: 'old-script' } })
  })
})

describe('business rule: targetValue (examples) and targetVal (field table)', () => {
  const ADD_HEADER = {
    type: 'policy-business-rule', description: 'Add timestamp header', active: true,
    actionList: [{ actionType: 'ADD', sourceVar: { type: 'HEADER', headerName: 'X-Source' }, targetVar: { type: 'HEADER', headerName: 'X-Timestamp' }, targetValSource: 'VALUE', targetValue: '${now}', sourceDataType: 'STRING' }],
  }
  const MASK = {
    type: 'policy-business-rule', description: 'Mask credit card number', active: true,
    actionList: [{ actionType: 'MODIFY', sourceVar: { type: 'BODY', bodyJsonPath: '$.creditCard' }, sourceDataType: 'STRING', operator: 'MASK', maskFrom: 4, maskTo: 12, targetValSource: 'VALUE', targetVal: '****-****-****', targetVar: { type: 'BODY', bodyJsonPath: '$.creditCard' } }],
  }
  const UPDATE = {
    type: 'policy-business-rule', description: 'Updated: Add timestamp and request ID headers', active: true,
    actionList: [
      ADD_HEADER.actionList[0],
      { actionType: 'ADD', sourceVar: { type: 'HEADER', headerName: 'User-Agent' }, targetVar: { type: 'HEADER', headerName: 'X-Request-ID' }, targetValSource: 'VALUE', targetValue: '${uuid}', sourceDataType: 'STRING' },
    ],
  }
  const asStored = (action: Record<string, unknown>) => {
    const { targetValue, ...rest } = action
    return { ...rest, targetVal: rest.targetVal ?? targetValue }
  }

  it("the add examples (targetValue, targetVal) and the update example are stored, pushed and read with targetVal", async () => {
    expect((await call('POST', 'PagesAPI/policies/add-header/', bed.gina, { operationMetadata: META, policy: ADD_HEADER })).status).toBe(200)
    expect(await stored('add-header')).toEqual({ ...ADD_HEADER, actionList: ADD_HEADER.actionList.map(asStored) })
    expect(pushedPolicy('add-header').actionList).toEqual([asStored(ADD_HEADER.actionList[0]!)])
    expect((await call('POST', 'PagesAPI/policies/mask-card/', bed.gina, { operationMetadata: META, policy: MASK })).status).toBe(200)
    expect(await stored('mask-card')).toEqual(MASK)
    const stop = { type: 'policy-business-rule', description: 'Stop request if unauthorized', active: true, actionList: [{ actionType: 'STOP' }] }
    expect((await call('POST', 'PagesAPI/policies/stop-flow/', bed.gina, { operationMetadata: META, policy: stop })).status).toBe(200)
    const updated = await call('PUT', 'PagesAPI/policies/add-header/', bed.gina, { operationMetadata: META, policy: UPDATE })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect((await stored('add-header')).actionList).toEqual(UPDATE.actionList.map(asStored))
    const read = await bed.svc.graphql('query { apiProxyPolicies(projectName: "payments", apiProxyName: "PagesAPI") { requestPolicyList { name config } } }', {}, bed.frank)
    const config = read.body.data.apiProxyPolicies.requestPolicyList.find((p: any) => p.name === 'add-header').config
    expect(config.actionList.map((a: any) => [a.targetVal, 'targetValue' in a])).toEqual([['${now}', false], ['${uuid}', false]])
  })

  it('targetVal wins when both are sent; a VALUE action with neither is refused naming targetVal', async () => {
    const both = { ...ADD_HEADER, actionList: [{ ...ADD_HEADER.actionList[0], targetVal: '${NOW}', targetValue: '${now}' }] }
    expect((await call('POST', 'PagesAPI/policies/both-values/', bed.erin, { operationMetadata: NO_DEPLOY, policy: both })).status).toBe(200)
    expect((await stored('both-values')).actionList[0]).toMatchObject({ targetVal: '${NOW}' })
    expect((await stored('both-values')).actionList[0]).not.toHaveProperty('targetValue')
    const { targetValue: _v, ...neither } = ADD_HEADER.actionList[0]!
    await expectRefused(() => call('POST', 'PagesAPI/policies/no-value/', bed.erin, { operationMetadata: NO_DEPLOY, policy: { ...ADD_HEADER, actionList: [neither] } }), /^policy\.actionList\[0\]\.targetVal: is required when targetValSource is VALUE/)
    await expectRefused(() => call('POST', 'PagesAPI/policies/no-value/', bed.erin, { operationMetadata: NO_DEPLOY, policy: { ...ADD_HEADER, actionList: [{ ...neither, targetValue: 42 }] } }), /^policy\.actionList\[0\]\.targetValue: must be a string/)
  })
})

describe('deploymentResult.detailList: one entry per worker, with podName and podIp', () => {
  it('names the acknowledging worker of each environment, and the one that failed', async () => {
    const dev = new URL(bed.dev.url)
    const prod = new URL(bed.prod.url)
    const res = await call('POST', 'PagesAPI/policies/size-limit/', bed.gina, {
      operationMetadata: { ...META, deployTargetEnvironmentNameList: ['dev', 'prod'] },
      policy: { type: 'policy-max-message-size', maxMessageSize: 1048576 },
    })
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: false, responseTime: expect.any(Number) })
    expect(res.body.deploymentResult.detailList).toEqual([
      { envName: 'dev', podName: dev.host, podIp: '127.0.0.1', success: true, responseTime: expect.any(Number), detail: 'Acknowledged' },
      { envName: 'prod', podName: prod.host, podIp: '127.0.0.1', success: true, responseTime: expect.any(Number), detail: 'Acknowledged' },
      { envName: 'prod', podName: '127.0.0.1:9', podIp: '127.0.0.1', success: false, responseTime: expect.any(Number), detail: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/ unreachable/) },
    ])
    // update and delete answer the same form
    const updated = await call('PUT', 'PagesAPI/policies/size-limit/', bed.gina, { operationMetadata: META, policy: { type: 'policy-max-message-size', maxMessageSize: 2048 } })
    expect(updated.body.deploymentResult.detailList).toEqual([{ envName: 'dev', podName: dev.host, podIp: '127.0.0.1', success: true, responseTime: expect.any(Number), detail: 'Acknowledged' }])
    const deleted = await call('DELETE', 'PagesAPI/policies/size-limit/', bed.gina, { operationMetadata: META })
    expect(deleted.body.deploymentResult.detailList).toEqual([{ envName: 'dev', podName: dev.host, podIp: '127.0.0.1', success: true, responseTime: expect.any(Number), detail: 'Acknowledged' }])
  })

  it('a write saved but not deployed (no DEPLOY_UNDEPLOY) has one entry per environment, with empty podName and podIp', async () => {
    const res = await call('POST', 'PagesAPI/policies/size-limit-2/', bed.erin, { operationMetadata: META, policy: { type: 'policy-max-message-size', maxMessageSize: 1024 } })
    expect(res.body.deploymentResult.detailList).toEqual([{ envName: 'dev', podName: '', podIp: '', success: false, responseTime: 0, detail: expect.stringMatching(/^Not deployed: deploying needs API_MANAGEMENT DEPLOY_UNDEPLOY/) }])
  })

  it('GraphQL deployment results list the workers of each environment', async () => {
    const res = await bed.svc.graphql(
      'mutation($m: JSON!, $p: JSON!) { addApiProxyPolicy(projectName: "payments", apiProxyName: "PagesAPI", policyName: "gql-size", operationMetadata: $m, policy: $p) { deploymentResult { environmentResults { environmentName workers { podName podIp success } } } } }',
      { m: META, p: { type: 'policy-max-message-size', maxMessageSize: 4096 } }, bed.gina,
    )
    expect(res.body.errors).toBeUndefined()
    expect(res.body.data.addApiProxyPolicy.deploymentResult.environmentResults).toEqual([{ environmentName: 'dev', workers: [{ podName: new URL(bed.dev.url).host, podIp: '127.0.0.1', success: true }] }])
  })
})
