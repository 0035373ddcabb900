import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { compileCustomRule } from '../../src/modules/limits/assignments/compile.js'
import { legacy, specForm } from '../apiproxies/automation-proxy-support.js'
import { rlclBootstrap } from './support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import vendorExamples from '../openapi/vendor-examples.json' with { type: 'json' }

// The newest vendor pages of api-reference/rlcl (issue 32 §0): create-rlcl's identity sources (VARIABLE,
// AUTH_RESOLVED, which forces executionOrder), target audiences and general quotas; and the credentials, endpoints
// and condition pages' examples, each sent as the page has it to an existing RLCL.

/** rlclBootstrap plus the credentials the pages' examples name (api-user, premium-user). */
function bootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = rlclBootstrap(workers)
  const payments = doc.projects[0]!
  type Cred = NonNullable<typeof payments.credentials>[number]
  payments.credentials!.push({ username: 'api-user', password: 'pw-5' } as Cred, { username: 'premium-user', password: 'pw-6' } as Cred)
  return doc
}
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1' } })

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/rlcl/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const snapshot = async () => {
  const p = bed.svc.deps.prisma
  return JSON.stringify([
    await p.rlcl.findMany({ orderBy: { name: 'asc' }, omit: { updatedAt: true } }),
    await p.rlclCredential.findMany({ orderBy: [{ rlclId: 'asc' }, { credentialId: 'asc' }] }),
    await p.rlclEndpoint.findMany({ orderBy: [{ rlclId: 'asc' }, { position: 'asc' }] }),
    await p.auditEvent.count({ where: { outcome: 'SUCCEEDED' } }),
  ])
}
const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp | string) => expectLegacyRefusal(write, message, { state: snapshot, pushes })
const get = async (name: string) => {
  const res = await call('GET', `${name}/`, bed.frank)
  expect(res.status).toBe(200)
  return res.body.resultList[0]
}
/** The page's example (api-reference/rlcl/<page>.mdx #index), deep-copied. */
const pageExample = (page: string, index: number): any =>
  structuredClone((vendorExamples as VendorExample[]).find((e) => e.page === `api-reference/rlcl/${page}.mdx` && e.index === index)!.body)
const audits = (objectName: string) => bed.svc.deps.prisma.auditEvent.findMany({ where: { objectName }, orderBy: { id: 'asc' } })
const lastPush = () => bed.dev.received.at(-1)!

/** MyAPI with the endpoints the endpoint pages name: GET /users and POST /orders. */
const MY_API = {
  openapi: '3.0.3',
  info: { title: 'MyAPI', version: '1.0.0' },
  paths: { '/users': { get: { operationId: 'listUsers' } }, '/orders': { post: { operationId: 'createOrder' } } },
}

beforeAll(async () => {
  const meta = { apiProxyName: 'MyAPI', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/my-api'] }, deploy: false }
  const res = await legacy(bed.svc, 'POST', 'payments/apiProxies/file/', bed.erin, specForm(meta, { text: JSON.stringify(MY_API), name: 'openapi.json' }))
  expect(res.status).toBe(200)
  bed.dev.received.length = 0
  bed.prod.received.length = 0
})

describe('create-rlcl.mdx: identity source, target audience, general quota', () => {
  it('#0 and #1 read with the defaults of the new fields (VARIABLE, no audience, BLOCK)', async () => {
    for (const index of [0, 1]) expect((await call('POST', '', bed.erin, pageExample('crud/create-rlcl', index))).body).toEqual({ status: 'SUCCESS', success: true })
    expect(await get('PremiumUserRLCL')).toMatchObject({
      executionOrder: 'BEFORE_API_PROXY', identitySource: 'VARIABLE', targetAudienceRuleList: [], outOfTargetAction: 'BLOCK', generalQuotaMode: 'TOTAL',
      generalQuotaPermittedMessageCount: null, generalQuotaTimeIntervalPeriodLength: null, generalQuotaTimeInterval: null,
    })
    expect(await get('IPBasedRLCL')).toMatchObject({ identitySource: 'VARIABLE', targetVariable: { name: 'clientIp', type: 'CONTEXT_VALUES', contextValue: 'REQUEST_REMOTE_ADDRESS' } })
  })

  it('#2 (VARIABLE, audience rules, GENERAL_QUOTA PER_IDENTITY): stored, read back as the get page shows, the quota compiled and pushed, audited', async () => {
    bed.dev.received.length = 0
    const res = await call('POST', '', bed.erin, pageExample('crud/create-rlcl', 2))
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await get('TargetedRLCL')).toMatchObject({
      name: 'TargetedRLCL', enabled: true, identitySource: 'VARIABLE', executionOrder: 'BEFORE_API_PROXY', showRateLimitStatisticsInResponseHeader: true,
      targetVariable: { name: 'clientApiKey', type: 'HEADER', headerName: 'X-API-Key' },
      targetAudienceRuleList: [{ operator: 'STARTS_WITH', value: 'premium-' }, { operator: 'EQ', value: 'vip-customer' }],
      outOfTargetAction: 'GENERAL_QUOTA', generalQuotaMode: 'PER_IDENTITY', generalQuotaPermittedMessageCount: 100, generalQuotaTimeIntervalPeriodLength: 1,
      generalQuotaTimeInterval: 'ONE_MINUTE', credentialNameList: [], endpointRateLimitList: [], condition: null,
    })
    expect(lastPush()).toMatchObject({
      action: 'DEPLOY', kind: 'RLCL', name: 'TargetedRLCL', revision: 1,
      config: {
        identitySource: 'VARIABLE', outOfTargetAction: 'GENERAL_QUOTA', generalQuotaMode: 'PER_IDENTITY',
        generalQuotaRules: compileCustomRule({ requestRate: { windows: [{ permittedMessageCount: 100, interval: 'ONE_MINUTE', periodLength: 1, windowType: 'FIXED' }] } }),
      },
    })
    expect(bed.prod.received.at(-1)).toMatchObject({ kind: 'RLCL', name: 'TargetedRLCL' })
    expect(await audits('TargetedRLCL')).toEqual([expect.objectContaining({ operation: expect.stringMatching(/^POST /), outcome: 'SUCCEEDED' })])
  })

  it('AUTH_RESOLVED forces executionOrder AFTER_API_METHOD and ignores targetVariable (create and update, REST and GraphQL)', async () => {
    const body = { ...pageExample('crud/create-rlcl', 2), name: 'AuthRLCL', identitySource: 'AUTH_RESOLVED', outOfTargetAction: 'BLOCK' }
    expect((await call('POST', '', bed.erin, body)).status).toBe(200)
    expect(await get('AuthRLCL')).toMatchObject({ identitySource: 'AUTH_RESOLVED', executionOrder: 'AFTER_API_METHOD', targetVariable: null, outOfTargetAction: 'BLOCK', generalQuotaPermittedMessageCount: null })
    expect(lastPush().config).toMatchObject({ executionOrder: 'AFTER_API_METHOD', targetVariable: null, generalQuotaRules: null })
    expect((await call('PUT', 'AuthRLCL/', bed.erin, { ...body, executionOrder: 'BEFORE_PROXY_GROUP' })).status).toBe(200)
    expect((await get('AuthRLCL')).executionOrder).toBe('AFTER_API_METHOD')
    // back to VARIABLE: the order sent is kept again
    expect((await call('PUT', 'AuthRLCL/', bed.erin, { ...body, identitySource: 'VARIABLE', executionOrder: 'BEFORE_PROXY_GROUP' })).status).toBe(200)
    expect(await get('AuthRLCL')).toMatchObject({ executionOrder: 'BEFORE_PROXY_GROUP', targetVariable: { name: 'clientApiKey' } })
    const gql = await bed.svc.graphql(
      'mutation($input: JSON!) { createRlcl(projectName: "payments", input: $input) { name identitySource executionOrder targetVariable outOfTargetAction generalQuotaTimeInterval } }',
      { input: { ...pageExample('crud/create-rlcl', 2), name: 'GqlAuthRLCL', identitySource: 'AUTH_RESOLVED' } }, bed.erin,
    )
    expect(gql.body.errors).toBeUndefined()
    expect(gql.body.data.createRlcl).toEqual({ name: 'GqlAuthRLCL', identitySource: 'AUTH_RESOLVED', executionOrder: 'AFTER_API_METHOD', targetVariable: null, outOfTargetAction: 'GENERAL_QUOTA', generalQuotaTimeInterval: 'ONE_MINUTE' })
  })

  it("the page's refusals: the general quota's count, period and interval, the audience rules, the enums; nothing written or pushed", async () => {
    const base = { ...pageExample('crud/create-rlcl', 2), name: 'Refused' }
    await expectRefused(() => call('POST', '', bed.erin, { ...base, generalQuotaPermittedMessageCount: 0 }), 'generalQuotaPermittedMessageCount must be greater than 0 when outOfTargetAction is GENERAL_QUOTA!')
    await expectRefused(() => call('POST', '', bed.erin, { ...base, generalQuotaPermittedMessageCount: undefined }), 'generalQuotaPermittedMessageCount must be greater than 0 when outOfTargetAction is GENERAL_QUOTA!')
    await expectRefused(() => call('POST', '', bed.erin, { ...base, generalQuotaTimeIntervalPeriodLength: -1 }), 'generalQuotaTimeIntervalPeriodLength must be greater than 0 when outOfTargetAction is GENERAL_QUOTA!')
    await expectRefused(() => call('POST', '', bed.erin, { ...base, generalQuotaTimeInterval: null }), 'generalQuotaTimeInterval is required when outOfTargetAction is GENERAL_QUOTA!')
    await expectRefused(() => call('POST', '', bed.erin, { ...base, generalQuotaTimeInterval: 'ONE_WEEK' }), /^generalQuotaTimeInterval: must be one of ONE_SECOND, ONE_MINUTE/)
    await expectRefused(() => call('POST', '', bed.erin, { ...base, targetAudienceRuleList: [{ value: 'x' }] }), /^targetAudienceRuleList\[0\]\.operator: is required, one of EQ, NE/)
    await expectRefused(() => call('POST', '', bed.erin, { ...base, targetAudienceRuleList: [{ operator: 'EQ', value: ' ' }] }), /^targetAudienceRuleList\[0\]\.value: must not be blank/)
    await expectRefused(() => call('POST', '', bed.erin, { ...base, identitySource: 'TOKEN' }), /^identitySource: must be one of VARIABLE, AUTH_RESOLVED/)
    await expectRefused(() => call('POST', '', bed.erin, { ...base, outOfTargetAction: 'THROTTLE' }), /^outOfTargetAction: must be one of BLOCK, GENERAL_QUOTA/)
    await expectRefused(() => call('POST', '', bed.erin, { ...base, generalQuotaMode: 'EACH' }), /^generalQuotaMode: must be one of TOTAL, PER_IDENTITY/)
    await expectRefused(() => call('PUT', 'TargetedRLCL/', bed.erin, { ...pageExample('crud/create-rlcl', 2), generalQuotaPermittedMessageCount: 0 }), 'generalQuotaPermittedMessageCount must be greater than 0 when outOfTargetAction is GENERAL_QUOTA!')
  })
})

describe('the credentials, endpoints and condition pages against an existing RLCL (TargetedRLCL)', () => {
  it('add-credentials #0 and #1: the credentials bound, read back, pushed, audited', async () => {
    bed.dev.received.length = 0
    expect((await call('POST', 'TargetedRLCL/credentials/', bed.erin, pageExample('credentials/add-credentials', 0))).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('POST', 'TargetedRLCL/credentials/', bed.erin, pageExample('credentials/add-credentials', 1))).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await get('TargetedRLCL')).credentialNameList).toEqual(['api-user', 'api-user-1', 'api-user-2', 'premium-user'])
    expect(bed.dev.received.map((m) => [m.kind, m.name, m.revision])).toEqual([['RLCL', 'TargetedRLCL', 2], ['RLCL', 'TargetedRLCL', 3]])
    expect(lastPush().config.credentialNameList).toEqual(['api-user', 'api-user-1', 'api-user-2', 'premium-user'])
  })

  it('add-endpoints #0, #1, #2: entries by endpoint (with its endpointId) and for ALL, each rate compiled', async () => {
    for (const index of [0, 1, 2]) {
      const res = await call('POST', 'TargetedRLCL/endpoints/', bed.erin, pageExample('endpoints/add-endpoints', index))
      expect(res.body, `#${index}`).toEqual({ status: 'SUCCESS', success: true })
    }
    const users = await bed.svc.deps.prisma.gatewayEndpoint.findFirstOrThrow({ where: { apiProxy: { name: 'MyAPI' }, path: '/users', method: 'GET' } })
    const orders = await bed.svc.deps.prisma.gatewayEndpoint.findFirstOrThrow({ where: { apiProxy: { name: 'MyAPI' }, path: '/orders', method: 'POST' } })
    expect((await get('TargetedRLCL')).endpointRateLimitList).toEqual([
      expect.objectContaining({ apiProxyName: 'MyAPI', endpointId: users.id, endpointName: '/users', endpointHTTPMethod: 'GET', permittedMessageCount: 100, timeInterval: 'ONE_MINUTE' }),
      expect.objectContaining({ apiProxyName: 'MyAPI', endpointId: orders.id, endpointName: '/orders', endpointHTTPMethod: 'POST', permittedMessageCount: 50, timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true }),
      expect.objectContaining({ apiProxyName: 'MyAPI', endpointId: null, endpointName: 'ALL', endpointHTTPMethod: 'ALL', permittedMessageCount: 200, timeInterval: 'ONE_HOUR' }),
    ])
    expect((lastPush().config.endpoints as unknown[]).length).toBe(3)
    expect((await audits('TargetedRLCL')).filter((a) => /endpoints/.test(a.operation))).toHaveLength(3)
  })

  it('add-condition #0, update-condition #0 and #1, then add-condition #1 after a delete: stored in the current vocabulary and pushed', async () => {
    expect((await call('POST', 'TargetedRLCL/condition/', bed.erin, pageExample('condition/add-condition', 0))).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await get('TargetedRLCL')).condition).toEqual(pageExample('condition/add-condition', 0))
    expect((await call('PUT', 'TargetedRLCL/condition/', bed.erin, pageExample('condition/update-condition', 0))).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('PUT', 'TargetedRLCL/condition/', bed.erin, pageExample('condition/update-condition', 1))).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await get('TargetedRLCL')).condition).toEqual(pageExample('condition/update-condition', 1))
    expect((await call('DELETE', 'TargetedRLCL/condition/', bed.erin)).status).toBe(200)
    expect((await call('POST', 'TargetedRLCL/condition/', bed.erin, pageExample('condition/add-condition', 1))).body).toEqual({ status: 'SUCCESS', success: true })
    expect(lastPush().config.condition).toEqual(pageExample('condition/add-condition', 1))
    // the identity fields stay through these writes
    expect(await get('TargetedRLCL')).toMatchObject({ identitySource: 'VARIABLE', outOfTargetAction: 'GENERAL_QUOTA', generalQuotaMode: 'PER_IDENTITY' })
  })

  it('refuses an unknown credential, an unknown endpoint and a second condition; nothing written or pushed', async () => {
    await expectRefused(() => call('POST', 'TargetedRLCL/credentials/', bed.erin, { credentialNameList: ['nobody'] }), 'Credential with name (nobody) is not found in project!')
    await expectRefused(() => call('POST', 'TargetedRLCL/endpoints/', bed.erin, { endpointRateLimitList: [{ ...pageExample('endpoints/add-endpoints', 0).endpointRateLimitList[0], endpointName: '/nothing' }] }), /^API Endpoint with name \(\/nothing\) and method type \(GET\) is not found in API Proxy!/)
    await expectRefused(() => call('POST', 'TargetedRLCL/condition/', bed.erin, pageExample('condition/add-condition', 0)), /condition/i)
  })
})
