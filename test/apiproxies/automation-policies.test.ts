import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { automationBootstrap, legacy, PETSTORE } from './automation-proxy-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// Policies on API proxy pipelines (vendor 05-policies/crud, issue 13 bullet 5), legacy envelope of spec §7.1.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE and DEPLOY_UNDEPLOY
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const policyRows = () => bed.svc.deps.prisma.apiProxyPolicy.findMany({ orderBy: [{ pipeline: 'asc' }, { position: 'asc' }], select: { name: true, pipeline: true, position: true, endpointId: true, config: true } })

const THROTTLING = {
  type: 'policy-api-based-throttling',
  description: 'API throttling policy - 100 requests per minute',
  active: true,
  targetVariableForIdentity: { type: 'HEADER', headerName: 'X-API-Key' },
  messageCountForInterval: 100,
  throttlingInterval: 'ONE_MINUTE',
  intervalPeriodLength: 1,
  intervalWindowType: 'FIXED',
  cacheConnectionTimeoutInSeconds: 3,
  cacheErrorHandlingType: 'FAIL',
  showRateLimitStatisticsInResponseHeader: true,
  detailList: [{ targetValue: 'VIP', regexExpression: false, messageCountForInterval: 1000, intervalPeriodLength: 1, quotaInterval: 'ONE_MINUTE' }],
  policyCondition: {
    conditionRuleList: [{ conditionCriteria: 'AND', firstVariable: { type: 'HEADER', headerName: 'X-User-Type' }, variableDataType: 'STRING', valueComparisonOperator: 'EQ', secondValueSource: 'VALUE', secondValue: 'VIP' }],
  },
}
const BLACK_IP = { type: 'policy-black-ip', description: 'Block IPs for VIP users', active: true, ipList: ['192.168.1.100'] }
const SCRIPT = { type: 'policy-script', description: 'Response logging', active: true, scriptLanguage: 'GROOVY', scriptBody: "log.info('Response: ' + response.statusCode)" }

const meta = (extra: Record<string, unknown> = {}) => ({ targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false, ...extra })

const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp) =>
  expectLegacyRefusal(write, message, { state: async () => [await policyRows(), await proxyRevision()], pushes })
const proxyRevision = async () => (await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'MyAPI' } })).revision

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/api/users'] }, deploy: true, deployTargetEnvironmentNameList: ['dev'] }))
  form.append('specFile', new Blob([JSON.stringify({ ...PETSTORE, paths: { ...PETSTORE.paths, '/api/users': { get: { operationId: 'listUsers' } } } })]), 'openapi.json')
  const created = await call('POST', 'file/', bed.gina, form)
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  bed.dev.received.length = 0 // the creation's own push
})

describe('add (POST …/policies/{policyName}/)', () => {
  it("replays the page's full example: stored as given, deployed where listed, deploymentResult in the page's shape", async () => {
    const res = await call('POST', 'MyAPI/policies/throttling-policy/', bed.gina, { operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: true, deployTargetEnvironmentNameList: ['dev'], order: 1 }, policy: THROTTLING })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true,
      deploymentResult: { success: true, message: expect.any(String), responseTime: expect.any(Number), detailList: [{ envName: 'dev', success: true, responseTime: expect.any(Number), detail: 'Acknowledged' }] },
    })
    const [row] = await policyRows()
    expect(row).toMatchObject({ name: 'throttling-policy', pipeline: 'REQUEST', position: 1, endpointId: null })
    expect(row!.config).toEqual(THROTTLING)
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY', name: 'MyAPI' })
    expect((bed.dev.received[0]!.config.policies as any).request).toEqual([{ ...THROTTLING, name: 'throttling-policy' }])
    expect(bed.prod.received).toHaveLength(0)
  })

  it('adds at an order, at the end when order is absent or past the end, and to one endpoint (example 2)', async () => {
    expect((await call('POST', 'MyAPI/policies/conditional-policy/', bed.erin, { operationMetadata: meta({ order: 1 }), policy: BLACK_IP })).body).toEqual({ status: 'SUCCESS', success: true })
    await call('POST', 'MyAPI/policies/last-policy/', bed.erin, { operationMetadata: meta({ order: 99 }), policy: { ...SCRIPT } })
    await call('POST', 'MyAPI/policies/endpoint-throttling/', bed.erin, {
      operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/api/users', targetEndpointHTTPMethod: 'GET', targetPipeline: 'REQUEST', deploy: false, order: 2 },
      policy: { ...THROTTLING, description: 'Endpoint-specific throttling', messageCountForInterval: 50 },
    })
    const list = await call('GET', 'MyAPI/policies/', bed.frank)
    expect(list.body.status).toBe('SUCCESS')
    expect(list.body.resultCount).toBe(1)
    const proxy = list.body.resultList[0]
    expect(proxy).toMatchObject({ name: 'MyAPI', type: 'REST', relativePath: '/api/users', soapToRest: false, responsePolicyList: [], errorPolicyList: [] })
    expect(proxy.requestPolicyList.map((p: any) => [p.name, p.order])).toEqual([['conditional-policy', 1], ['throttling-policy', 2], ['last-policy', 3]])
    expect(proxy.requestPolicyList[0]).toEqual({ name: 'conditional-policy', type: 'policy-black-ip', description: 'Block IPs for VIP users', active: true, order: 1 })
    const users = proxy.endpointList.find((e: any) => e.endpoint === '/api/users')
    expect(users).toMatchObject({ httpMethod: 'GET', active: true, requestPolicyList: [{ name: 'endpoint-throttling', type: 'policy-api-based-throttling', order: 1 }] })
    expect(pushes()).toBe(0)
  })

  it('with deploy defaulting to true, redeploys where the proxy runs; a caller without DEPLOY_UNDEPLOY saves without deploying', async () => {
    const res = await call('POST', 'MyAPI/policies/default-deploy/', bed.gina, { operationMetadata: { targetScope: 'ALL', targetPipeline: 'ERROR' }, policy: SCRIPT })
    expect(res.body.deploymentResult.detailList.map((d: any) => d.envName)).toEqual(['dev'])
    expect(bed.dev.received).toHaveLength(1)
    const saved = await call('POST', 'MyAPI/policies/saved-only/', bed.erin, { operationMetadata: { targetScope: 'ALL', targetPipeline: 'ERROR' }, policy: SCRIPT })
    expect(saved.body.deploymentResult).toMatchObject({ success: false, detailList: [{ envName: 'dev', success: false }] })
    expect(saved.body.deploymentResult.message).toMatch(/DEPLOY_UNDEPLOY/)
    expect(bed.dev.received).toHaveLength(1)
  })

  it('refuses every cause the page lists; nothing is stored or pushed', async () => {
    await expectRefused(() => call('POST', 'MyAPI/policies/THROTTLING-policy/', bed.gina, { operationMetadata: meta({ deploy: true }), policy: THROTTLING }), /A policy named 'throttling-policy' already exists in API proxy 'MyAPI'/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: { targetScope: 'ENDPOINT', targetPipeline: 'REQUEST' }, policy: THROTTLING }), /^operationMetadata.targetEndpoint: is required when targetScope is ENDPOINT/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/nowhere', targetEndpointHTTPMethod: 'GET', targetPipeline: 'REQUEST' }, policy: THROTTLING }), /^operationMetadata.targetEndpoint: endpoint GET \/nowhere not found in API proxy 'MyAPI'/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta(), policy: { ...THROTTLING, type: 'throttling' } }), /^policy.type: must be a policy type/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta(), policy: { description: 'no type' } }), /^policy.type:/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta(), policy: { ...THROTTLING, active: 'yes' } }), /^policy.active:/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta(), policy: { ...THROTTLING, policyCondition: { conditionRuleList: 'AND' } } }), /^policy.policyCondition.conditionRuleList:/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: { ...meta(), targetPipeline: 'AFTER' }, policy: THROTTLING }), /^operationMetadata.targetPipeline: must be one of REQUEST, RESPONSE, ERROR/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta({ order: 0 }), policy: THROTTLING }), /^operationMetadata.order: must be at least 1/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta({ order: 1e300 }), policy: THROTTLING }), /^operationMetadata.order:/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.gina, { operationMetadata: meta({ deploy: true, deployTargetEnvironmentNameList: ['production'] }), policy: THROTTLING }), /environment 'production' not found in project 'payments'/)
    let deep: any = { leaf: true }
    // deeper than the policy's own 32 levels, within the platform's 64 for any JSON body
    for (let i = 0; i < 40; i++) deep = { deep }
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta(), policy: { ...THROTTLING, deep } }), /^policy: nests deeper than 32 levels/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { operationMetadata: meta(), policy: { ...THROTTLING, note: 'a\u0000b' } }), /^policy(\.note)?: must not contain (the )?NUL/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.erin, { policy: THROTTLING }), /^operationMetadata:/)
    await expectRefused(() => call('POST', 'ghost/policies/p1/', bed.erin, { operationMetadata: meta(), policy: THROTTLING }), /API proxy 'ghost' not found/)
    await expectRefused(() => call('POST', 'MyAPI/policies/p1/', bed.frank, { operationMetadata: meta(), policy: THROTTLING }), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => legacy(bed.svc, 'POST', 'nowhere/apiProxies/MyAPI/policies/p1/', bed.erin, { operationMetadata: meta(), policy: THROTTLING }), /Project 'nowhere' not found/)
    const anonymous = await call('POST', 'MyAPI/policies/p1/', null, { operationMetadata: meta(), policy: THROTTLING })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.status).toBe('FAILURE')
  })
})

describe('update (PUT …/policies/{policyName}/)', () => {
  it("replays example 1: the configuration is replaced and deployed to the listed environment", async () => {
    const updated = { ...THROTTLING, description: 'Updated throttling policy - increased limit', messageCountForInterval: 200 }
    const res = await call('PUT', 'MyAPI/policies/throttling-policy/', bed.gina, { operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: true, deployTargetEnvironmentNameList: ['prod'], order: 1 }, policy: updated })
    expect(res.body.deploymentResult.detailList).toEqual([{ envName: 'prod', success: true, responseTime: expect.any(Number), detail: 'Acknowledged' }])
    const list = (await call('GET', 'MyAPI/policies/', bed.frank)).body.resultList[0]
    expect(list.requestPolicyList.map((p: any) => p.name)).toEqual(['throttling-policy', 'conditional-policy', 'last-policy'])
    expect((bed.prod.received[0]!.config.policies as any).request[0]).toMatchObject({ name: 'throttling-policy', messageCountForInterval: 200 })
  })

  it('moves a policy (example 2: order; example 3: to an endpoint; example 4: to another pipeline) keeping orders dense', async () => {
    await call('PUT', 'MyAPI/policies/throttling-policy/', bed.erin, { operationMetadata: meta({ order: 3 }), policy: THROTTLING })
    let list = (await call('GET', 'MyAPI/policies/', bed.frank)).body.resultList[0]
    expect(list.requestPolicyList.map((p: any) => [p.name, p.order])).toEqual([['conditional-policy', 1], ['last-policy', 2], ['throttling-policy', 3]])
    await call('PUT', 'MyAPI/policies/throttling-policy/', bed.erin, { operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/api/users', targetEndpointHTTPMethod: 'GET', targetPipeline: 'REQUEST', deploy: false, order: 1 }, policy: THROTTLING })
    await call('PUT', 'MyAPI/policies/last-policy/', bed.erin, { operationMetadata: meta({ targetPipeline: 'RESPONSE' }), policy: SCRIPT })
    list = (await call('GET', 'MyAPI/policies/', bed.frank)).body.resultList[0]
    expect(list.requestPolicyList.map((p: any) => [p.name, p.order])).toEqual([['conditional-policy', 1]])
    expect(list.responsePolicyList.map((p: any) => [p.name, p.order])).toEqual([['last-policy', 1]])
    expect(list.endpointList.find((e: any) => e.endpoint === '/api/users').requestPolicyList.map((p: any) => [p.name, p.order])).toEqual([['throttling-policy', 1], ['endpoint-throttling', 2]])
  })

  it('refuses a missing policy and a type change', async () => {
    await expectRefused(() => call('PUT', 'MyAPI/policies/my-policy/', bed.erin, { operationMetadata: meta(), policy: THROTTLING }), /A policy named 'my-policy' does not exist in API proxy 'MyAPI'/)
    await expectRefused(() => call('PUT', 'MyAPI/policies/throttling-policy/', bed.erin, { operationMetadata: meta(), policy: SCRIPT }), /^policy.type: policy 'throttling-policy' is a policy-api-based-throttling; the type can not change/)
    await expectRefused(() => call('PUT', 'MyAPI/policies/throttling-policy/', bed.frank, { operationMetadata: meta(), policy: THROTTLING }), /lacks permission API_MANAGEMENT MANAGE/)
  })
})

describe('delete (DELETE …/policies/{policyName}/)', () => {
  it('refuses a policy that is not in the named scope and pipeline, or does not exist', async () => {
    await expectRefused(() => call('DELETE', 'MyAPI/policies/last-policy/', bed.erin, { operationMetadata: meta() }), /Policy 'last-policy' is not in the REQUEST pipeline of all endpoints/)
    await expectRefused(() => call('DELETE', 'MyAPI/policies/test-policy/', bed.erin, { operationMetadata: meta() }), /A policy named 'test-policy' does not exist/)
    await expectRefused(() => call('DELETE', 'MyAPI/policies/last-policy/', bed.erin, { operationMetadata: { targetScope: 'ALL' } }), /^operationMetadata.targetPipeline:/)
    await expectRefused(() => call('DELETE', 'MyAPI/policies/last-policy/', bed.frank, { operationMetadata: meta({ targetPipeline: 'RESPONSE' }) }), /lacks permission API_MANAGEMENT MANAGE/)
  })

  it('replays examples 2 and 4: from one endpoint, and from the response pipeline with deployment', async () => {
    const fromEndpoint = await call('DELETE', 'MyAPI/policies/endpoint-throttling/', bed.erin, { operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/api/users', targetEndpointHTTPMethod: 'GET', targetPipeline: 'REQUEST', deploy: false } })
    expect(fromEndpoint.body).toEqual({ status: 'SUCCESS', success: true })
    const res = await call('DELETE', 'MyAPI/policies/last-policy/', bed.gina, { operationMetadata: { targetScope: 'ALL', targetPipeline: 'RESPONSE', deploy: true, deployTargetEnvironmentNameList: ['dev'] } })
    expect(res.body.deploymentResult).toMatchObject({ success: true, detailList: [{ envName: 'dev', success: true }] })
    expect((bed.dev.received.at(-1)!.config.policies as any).response).toEqual([])
    const names = (await policyRows()).map((r) => r.name)
    expect(names).not.toContain('last-policy')
    expect(names).not.toContain('endpoint-throttling')
    // the policy name is matched case-insensitively
    expect((await call('DELETE', 'MyAPI/policies/CONDITIONAL-POLICY/', bed.erin, { operationMetadata: meta() })).body).toEqual({ status: 'SUCCESS', success: true })
  })

  it('a re-parse keeps the policies of endpoints that stay; deleting the proxy deletes its policies', async () => {
    const form = new FormData()
    form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyCreationType: 'OPEN_API', reParse: true }))
    form.append('specFile', new Blob([JSON.stringify({ openapi: '3.0.0', paths: { '/api/users': { get: { operationId: 'listUsers' } } } })]), 'openapi.json')
    expect((await call('PUT', 'file/', bed.erin, form)).status).toBe(200)
    const users = (await call('GET', 'MyAPI/policies/', bed.frank)).body.resultList[0].endpointList
    expect(users).toEqual([expect.objectContaining({ endpoint: '/api/users', requestPolicyList: [expect.objectContaining({ name: 'throttling-policy' })] })])
    expect((await call('DELETE', 'MyAPI/', bed.erin)).status).toBe(200)
    expect(await bed.svc.deps.prisma.apiProxyPolicy.count()).toBe(0)
    expect((await call('GET', 'MyAPI/policies/', bed.frank)).body).toEqual({ status: 'FAILURE', resultMessage: "API proxy 'MyAPI' not found" })
  })
})

describe('GraphQL door (same services)', () => {
  it('adds a policy and lists the pipelines; refuses a viewer', async () => {
    await legacy(bed.svc, 'POST', 'payments/apiProxies/url/', bed.erin, { apiProxyName: 'gql-api', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/gql-api'] } })
    const added = await bed.svc.graphql('mutation($m: JSON!, $p: JSON!) { addApiProxyPolicy(projectName: "payments", apiProxyName: "gql-api", policyName: "block", operationMetadata: $m, policy: $p) { deploymentResult { success } } }',
      { m: meta(), p: BLACK_IP }, bed.erin)
    expect(added.body).toEqual({ data: { addApiProxyPolicy: { deploymentResult: null } } })
    const list = await bed.svc.graphql('query { apiProxyPolicies(projectName: "payments", apiProxyName: "gql-api") { name requestPolicyList { name type description active order } errorPolicyList { name } } }', {}, bed.frank)
    expect(list.body.data.apiProxyPolicies).toEqual({ name: 'gql-api', requestPolicyList: [{ name: 'block', type: 'policy-black-ip', description: 'Block IPs for VIP users', active: true, order: 1 }], errorPolicyList: [] })
    expect((await call('GET', 'gql-api/policies/', bed.frank)).body.resultList[0].requestPolicyList).toHaveLength(1)
    const refused = await bed.svc.graphql('mutation($m: JSON!) { deleteApiProxyPolicy(projectName: "payments", apiProxyName: "gql-api", policyName: "block", operationMetadata: $m) { deploymentResult { success } } }', { m: meta() }, bed.frank)
    expect(refused.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await bed.svc.deps.prisma.apiProxyPolicy.count({ where: { apiProxy: { name: 'gql-api' } } })).toBe(1)
  })
})
