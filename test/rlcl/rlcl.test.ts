import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { compileCustomRule } from '../../src/modules/limits/assignments/compile.js'
import { legacy } from '../apiproxies/automation-proxy-support.js'
import { createPetstore, rlclBootstrap } from './support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// Rate-limit control lists (vendor 02-api-reference/12-rlcl, issue 17 §4): every page's examples replayed, every
// refusal with its message and nothing written; each entry's rate is the limits engine's request-rate rule spec.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; alice: no API_MANAGEMENT; ana: ANALYZER; root: ADMIN
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: rlclBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', alice: 'alice-pass-1', ana: 'ana-pass-1', root: 's3cret-root' } })

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/rlcl/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const snapshot = async () => {
  const p = bed.svc.deps.prisma
  return JSON.stringify([
    await p.rlcl.findMany({ orderBy: { name: 'asc' }, omit: { updatedAt: true } }),
    await p.rlclCredential.findMany({ orderBy: [{ rlclId: 'asc' }, { credentialId: 'asc' }] }),
    await p.rlclEndpoint.findMany({ orderBy: [{ rlclId: 'asc' }, { position: 'asc' }] }),
  ])
}

const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp | string, status = 400) =>
  expectLegacyRefusal(write, message, { state: snapshot, pushes }, status)

const BASIC = { name: 'PremiumUserRLCL', description: 'Rate limit for premium users', enabled: true, executionOrder: 'FIRST', cacheConnectionTimeoutInSeconds: 3, cacheErrorHandlingType: 'FAIL', timeIntervalWindowType: 'FIXED', showRateLimitStatisticsInResponseHeader: false, targetVariable: null }
const IP_BASED = { name: 'IPBasedRLCL', description: 'Rate limit based on IP address', enabled: true, executionOrder: 'FIRST', cacheConnectionTimeoutInSeconds: 5, cacheErrorHandlingType: 'CONTINUE', timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true, targetVariable: { name: 'client.ip', type: 'CONTEXT', dataType: 'STRING' } }
const entry = (endpointName: string, endpointHTTPMethod: string, extra: Record<string, unknown> = {}) => ({
  apiProxyName: 'MyAPI', endpointName, endpointHTTPMethod, permittedMessageCount: 100, timeIntervalPeriodLength: 1, timeInterval: 'ONE_MINUTE',
  cacheConnectionTimeoutInSeconds: 3, cacheErrorHandlingType: 'FAIL', timeIntervalWindowType: 'FIXED', showRateLimitStatisticsInResponseHeader: false, enabled: true, ...extra,
})
// the condition pages' examples as they read since 2025-11-17 (6924e25, b9d5441; at 319c71d)
const USER_TYPE = { conditionCriteria: 'VALUE', firstVariable: { name: 'userTypeHeader', type: 'HEADER', headerName: 'X-User-Type' }, variableDataType: 'STRING', valueComparisonOperator: 'EQ', secondValueSource: 'VALUE', secondValue: 'PREMIUM' }
const CONDITION = { conditionRuleList: [USER_TYPE] }
const COMPLEX = {
  conditionRuleList: [{
    conditionCriteria: 'OR',
    conditionRuleList: [
      USER_TYPE,
      { conditionCriteria: 'VALUE', firstVariable: { name: 'apiVersionHeader', type: 'HEADER', headerName: 'X-API-Version' }, variableDataType: 'STRING', valueComparisonOperator: 'EQ', secondValueSource: 'VALUE', secondValue: 'v2' },
    ],
  }],
}
/** the same examples in the earlier pages' words (before 6924e25) */
const EARLIER = (rule: Record<string, unknown>) => ({ ...rule, conditionCriteria: 'AND', valueComparisonOperator: 'EQUALS', secondValueSource: 'STATIC' })
const get = async (name: string) => {
  const res = await call('GET', `${name}/`, bed.frank)
  expect(res.status).toBe(200)
  return res.body.resultList[0]
}

beforeAll(async () => {
  await createPetstore(bed.svc, bed.erin, 'MyAPI')
})

describe('crud', () => {
  it('replays both create examples: an empty RLCL, pushed to every environment of the project', async () => {
    expect((await call('POST', '', bed.erin, BASIC)).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('POST', '', bed.erin, IP_BASED)).body).toEqual({ status: 'SUCCESS', success: true })
    expect(await get('PremiumUserRLCL')).toEqual({
      id: expect.any(String), ...BASIC, condition: null, credentialNameList: [], endpointRateLimitList: [],
      // the newest page's fields (rlcl-newest.test.ts), their defaults
      identitySource: 'VARIABLE', targetAudienceRuleList: [], outOfTargetAction: 'BLOCK', generalQuotaMode: 'TOTAL',
      generalQuotaPermittedMessageCount: null, generalQuotaTimeIntervalPeriodLength: null, generalQuotaTimeInterval: null,
    })
    expect(await get('IPBasedRLCL')).toMatchObject({ targetVariable: IP_BASED.targetVariable, timeIntervalWindowType: 'SLIDING' })
    for (const worker of [bed.dev, bed.prod]) {
      expect(worker.received.map((m) => [m.action, m.kind, m.name, m.project])).toEqual([['DEPLOY', 'RLCL', 'PremiumUserRLCL', 'payments'], ['DEPLOY', 'RLCL', 'IPBasedRLCL', 'payments']])
    }
    const list = await call('GET', '', bed.frank)
    expect(list.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 2 })
  })

  it("accepts the newest page's executionOrder positions (api-reference/rlcl/crud, issue 32 §0) and reads them back; FIRST and LAST stay accepted", async () => {
    const newest = { ...BASIC, name: 'NewestRLCL', executionOrder: 'BEFORE_API_PROXY' }
    const res = await call('POST', '', bed.erin, newest)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await get('NewestRLCL')).toMatchObject({ executionOrder: 'BEFORE_API_PROXY' })
    for (const executionOrder of ['BEFORE_PROXY_GROUP', 'AFTER_PROXY_GROUP', 'AFTER_API_PROXY', 'BEFORE_API_METHOD', 'AFTER_API_METHOD', 'LAST', 'FIRST']) {
      const updated = await call('PUT', 'NewestRLCL/', bed.erin, { ...newest, executionOrder })
      expect(updated.status, `${executionOrder}: ${JSON.stringify(updated.body)}`).toBe(200)
      expect((await get('NewestRLCL')).executionOrder).toBe(executionOrder)
    }
    await expect((await call('DELETE', 'NewestRLCL/', bed.erin)).status).toBe(200)
  })

  it('fills the defaults of the page when only the name is sent', async () => {
    expect((await call('POST', '', bed.erin, { name: 'Defaults' })).status).toBe(200)
    expect(await get('Defaults')).toMatchObject({ enabled: true, executionOrder: 'FIRST', cacheConnectionTimeoutInSeconds: 3, cacheErrorHandlingType: 'FAIL', timeIntervalWindowType: 'FIXED', showRateLimitStatisticsInResponseHeader: false, targetVariable: null })
  })

  it('refuses an empty name, a taken one, a bad field, a broken target variable, and callers without API_MANAGEMENT MANAGE', async () => {
    await expectRefused(() => call('POST', '', bed.erin, { description: 'x' }), 'name value can not be empty!')
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: '' }), 'name value can not be empty!')
    await expectRefused(() => call('POST', '', bed.erin, BASIC), 'An RLCL with same name (PremiumUserRLCL) already exists in project!')
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: 'premiumuserrlcl' }), 'An RLCL with same name (PremiumUserRLCL) already exists in project!')
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: 'X', executionOrder: 'MIDDLE' }), /^executionOrder: /)
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: 'X', cacheConnectionTimeoutInSeconds: 0 }), /^cacheConnectionTimeoutInSeconds: /)
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: 'X', colour: 'red' }), 'colour: unknown field')
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: 'X', targetVariable: { name: 'q', type: 'PARAMETER', paramType: 'QUERY' } }), 'targetVariable.paramName: is required when type is PARAMETER')
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: 'X', targetVariable: { name: 't', type: 'CONTEXT_VALUES', contextValue: 'DATETIME_HOUR' } }), 'targetVariable.zoneId: is required when contextValue is a date/time value')
    await expectRefused(() => call('POST', '', bed.erin, { ...BASIC, name: 'X', targetVariable: { name: 't', type: 'XML' } }), /^targetVariable.type: /)
    await expectRefused(() => call('POST', '', bed.frank, { ...BASIC, name: 'X' }), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => call('POST', '', bed.alice, { ...BASIC, name: 'X' }), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => call('POST', '', bed.ana, { ...BASIC, name: 'X' }), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => legacy(bed.svc, 'POST', 'nowhere/rlcl/', bed.erin, { ...BASIC, name: 'X' }), "Project 'nowhere' not found")
    const res = await call('POST', '', null, { ...BASIC, name: 'X' })
    expect(res.status).toBe(401)
    expect(res.body.status).toBe('FAILURE')
  })

  it('updates every field but the name, keeping credentials and endpoints', async () => {
    await call('POST', 'PremiumUserRLCL/credentials/', bed.erin, { credentialNameList: ['api-user-1'] })
    const res = await call('PUT', 'PremiumUserRLCL/', bed.erin, { ...BASIC, description: 'Updated rate limit for premium users', cacheConnectionTimeoutInSeconds: 5, cacheErrorHandlingType: 'CONTINUE', timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true })
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await get('PremiumUserRLCL')).toMatchObject({ description: 'Updated rate limit for premium users', cacheConnectionTimeoutInSeconds: 5, cacheErrorHandlingType: 'CONTINUE', timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true, credentialNameList: ['api-user-1'] })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'RLCL', name: 'PremiumUserRLCL', config: { credentialNameList: ['api-user-1'] } })
  })

  it('refuses an update of an unknown RLCL, a renaming one, an empty name and a reader', async () => {
    await expectRefused(() => call('PUT', 'Ghost/', bed.erin, { ...BASIC, name: 'Ghost' }), 'RLCL (Ghost) is not found!')
    await expectRefused(() => call('PUT', 'PremiumUserRLCL/', bed.erin, { ...BASIC, name: 'Other' }), /^name \(Other\) must match the RLCL name in the path \(PremiumUserRLCL\)/)
    await expectRefused(() => call('PUT', 'PremiumUserRLCL/', bed.erin, { description: 'x' }), 'name value can not be empty!')
    await expectRefused(() => call('PUT', 'PremiumUserRLCL/', bed.erin, { ...BASIC, timeIntervalWindowType: 'ROLLING' }), /^timeIntervalWindowType: /)
    await expectRefused(() => call('PUT', 'PremiumUserRLCL/', bed.ana, BASIC), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => call('GET', 'Ghost/', bed.frank), 'RLCL (Ghost) is not found!')
    await expectRefused(() => call('GET', '', bed.alice), /lacks permission API_MANAGEMENT VIEW/)
  })
})

describe('credentials', () => {
  it('adds (duplicates ignored), replaces and removes (names not in the list ignored)', async () => {
    expect((await call('POST', 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: ['api-user-1', 'api-user-2', 'api-user-1'] })).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('POST', 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: ['api-user-2', 'shop-frontend'] })).status).toBe(200)
    expect((await get('IPBasedRLCL')).credentialNameList).toEqual(['api-user-1', 'api-user-2', 'shop-frontend'])
    expect((await call('PUT', 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: ['shop-frontend', 'api-user-2'] })).status).toBe(200)
    expect((await get('IPBasedRLCL')).credentialNameList).toEqual(['api-user-2', 'shop-frontend'])
    expect((await call('DELETE', 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: ['api-user-2', 'api-user-1', 'nobody'] })).status).toBe(200)
    expect((await get('IPBasedRLCL')).credentialNameList).toEqual(['shop-frontend'])
  })

  it('refuses an empty list, an unknown credential (nothing added), an unknown RLCL and a reader', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      await expectRefused(() => call(method, 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: [] }), 'credentialNameList value can not be empty!')
      await expectRefused(() => call(method, 'IPBasedRLCL/credentials/', bed.erin, {}), 'credentialNameList value can not be empty!')
      await expectRefused(() => call(method, 'Ghost/credentials/', bed.erin, { credentialNameList: ['api-user-1'] }), 'RLCL (Ghost) is not found!')
      await expectRefused(() => call(method, 'IPBasedRLCL/credentials/', bed.frank, { credentialNameList: ['api-user-1'] }), /lacks permission API_MANAGEMENT MANAGE/)
    }
    await expectRefused(() => call('POST', 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: ['api-user-1', 'api-user'] }), 'Credential with name (api-user) is not found in project!')
    await expectRefused(() => call('PUT', 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: ['api-user'] }), 'Credential with name (api-user) is not found in project!')
    await expectRefused(() => call('POST', 'IPBasedRLCL/credentials/', bed.erin, { credentialNameList: [''] }), /^credentialNameList\[0\]: must not be blank/)
  })
})

describe('endpoints', () => {
  it('replays the add examples (single, multiple, ALL); the rate is the limits engine rule spec and compiles like a CUSTOM assignment', async () => {
    expect((await call('POST', 'PremiumUserRLCL/endpoints/', bed.erin, { endpointRateLimitList: [entry('/pets', 'GET')] })).body).toEqual({ status: 'SUCCESS', success: true })
    const multiple = [entry('/pets', 'GET'), entry('/pets', 'POST', { permittedMessageCount: 50, timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true })]
    expect((await call('POST', 'PremiumUserRLCL/endpoints/', bed.erin, { endpointRateLimitList: multiple })).status).toBe(200)
    expect((await call('POST', 'PremiumUserRLCL/endpoints/', bed.erin, { endpointRateLimitList: [entry('ALL', 'ALL', { permittedMessageCount: 200, timeInterval: 'ONE_HOUR' })] })).status).toBe(200)
    const view = await get('PremiumUserRLCL')
    expect(view.endpointRateLimitList).toEqual([
      { ...entry('/pets', 'GET'), targetVariable: null, targetIdentityValue: null, endpointId: expect.any(String) },
      { ...entry('/pets', 'POST', { permittedMessageCount: 50, timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true }), targetVariable: null, targetIdentityValue: null, endpointId: expect.any(String) },
      { ...entry('ALL', 'ALL', { permittedMessageCount: 200, timeInterval: 'ONE_HOUR' }), targetVariable: null, targetIdentityValue: null, endpointId: null },
    ])
    const rows = await bed.svc.deps.prisma.rlclEndpoint.findMany({ orderBy: { position: 'asc' }, where: { rlcl: { name: 'PremiumUserRLCL' } } })
    expect(rows[1]!.ruleSpec).toEqual({ requestRate: { windows: [{ permittedMessageCount: 50, interval: 'ONE_MINUTE', periodLength: 1, windowType: 'SLIDING' }] } })
    expect(rows[2]!.endpointId).toBeNull()
    const message = bed.dev.received.at(-1)!
    expect(message).toMatchObject({ action: 'DEPLOY', kind: 'RLCL', name: 'PremiumUserRLCL' })
    const endpoints = (message.config as any).endpoints
    expect(endpoints).toHaveLength(3)
    expect(endpoints[1]).toMatchObject({ apiProxyName: 'MyAPI', endpointName: '/pets', endpointHTTPMethod: 'POST', rules: compileCustomRule(rows[1]!.ruleSpec) })
  })

  it('compileCustomRule (limits) is the one runtime form of a custom spec', () => {
    const spec = { requestRate: { windows: [{ permittedMessageCount: 5, interval: 'ONE_SECOND' }] } }
    expect(compileCustomRule(spec)).toEqual([{ planKey: null, revision: null, ruleSpec: spec }])
  })

  it('replaces all entries, and removes matching ones (unknown ones ignored)', async () => {
    expect((await call('PUT', 'PremiumUserRLCL/endpoints/', bed.erin, { endpointRateLimitList: [entry('/pets', 'GET', { permittedMessageCount: 200, timeInterval: 'ONE_HOUR' }), entry('/pets/{petId}', 'GET')] })).status).toBe(200)
    expect((await get('PremiumUserRLCL')).endpointRateLimitList.map((e: any) => [e.endpointHTTPMethod, e.endpointName, e.permittedMessageCount])).toEqual([['GET', '/pets', 200], ['GET', '/pets/{petId}', 100]])
    expect((await call('DELETE', 'PremiumUserRLCL/endpoints/', bed.erin, { endpointRateLimitList: [{ apiProxyName: 'MyAPI', endpointName: '/pets', endpointHTTPMethod: 'GET' }, { apiProxyName: 'Nope', endpointName: '/x', endpointHTTPMethod: 'GET' }, { apiProxyName: 'MyAPI', endpointName: '/none', endpointHTTPMethod: 'PUT' }] })).status).toBe(200)
    expect((await get('PremiumUserRLCL')).endpointRateLimitList.map((e: any) => e.endpointName)).toEqual(['/pets/{petId}'])
  })

  it('refuses empty lists, unknown proxies and endpoints, half-ALL entries and rates the limits engine refuses (nothing written)', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      await expectRefused(() => call(method, 'PremiumUserRLCL/endpoints/', bed.erin, { endpointRateLimitList: [] }), 'endpointRateLimitList value can not be empty!')
      await expectRefused(() => call(method, 'Ghost/endpoints/', bed.erin, { endpointRateLimitList: [entry('/pets', 'GET')] }), 'RLCL (Ghost) is not found!')
      await expectRefused(() => call(method, 'PremiumUserRLCL/endpoints/', bed.ana, { endpointRateLimitList: [entry('/pets', 'GET')] }), /lacks permission API_MANAGEMENT MANAGE/)
    }
    const add = (e: unknown) => call('POST', 'PremiumUserRLCL/endpoints/', bed.erin, { endpointRateLimitList: [entry('/pets', 'POST'), e] })
    await expectRefused(() => add({ ...entry('/pets', 'GET'), apiProxyName: 'Ghost' }), 'API Proxy with name (Ghost) is not found in project!')
    await expectRefused(() => add(entry('/users', 'GET')), 'API Endpoint with name (/users) and method type (GET) is not found in API Proxy!')
    await expectRefused(() => add(entry('/pets', 'ALL')), /^endpointRateLimitList\[1\]: endpointName and endpointHTTPMethod must both be ALL/)
    await expectRefused(() => add({ ...entry('/pets', 'GET'), endpointHTTPMethod: undefined }), 'endpointRateLimitList[1].endpointHTTPMethod: is required unless endpointName is ALL')
    await expectRefused(() => add(entry('/pets', 'FETCH')), /^endpointRateLimitList\[1\]\.endpointHTTPMethod: /)
    // the rate goes through the limits engine's validateRuleSpec; its refusal names the page's field
    await expectRefused(() => add(entry('/pets', 'GET', { permittedMessageCount: 0 })), /^endpointRateLimitList\[1\]\.permittedMessageCount: /)
    await expectRefused(() => add(entry('/pets', 'GET', { timeIntervalPeriodLength: 0 })), /^endpointRateLimitList\[1\]\.timeIntervalPeriodLength: /)
    await expectRefused(() => add(entry('/pets', 'GET', { timeInterval: 'ONE_WEEK' })), /^endpointRateLimitList\[1\]\.timeInterval: /)
    await expectRefused(() => add({ ...entry('/pets', 'GET'), cacheErrorHandlingType: undefined }), /^endpointRateLimitList\[1\]\.cacheErrorHandlingType: /)
    await expectRefused(() => add(entry('/pets', 'GET', { targetVariable: { name: 'b', type: 'BODY', messageContentType: 'JSON' } })), 'endpointRateLimitList[1].targetVariable.jsonPathValue: is required when messageContentType is JSON')
  })
})

describe('condition', () => {
  it('replays add (simple and complex), update and delete', async () => {
    expect((await call('POST', 'PremiumUserRLCL/condition/', bed.erin, CONDITION)).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await get('PremiumUserRLCL')).condition).toEqual(CONDITION)
    expect((await call('POST', 'IPBasedRLCL/condition/', bed.erin, COMPLEX)).status).toBe(200)
    expect((await get('IPBasedRLCL')).condition).toEqual(COMPLEX)
    const vip = { conditionRuleList: [{ ...USER_TYPE, secondValue: 'VIP' }] }
    expect((await call('PUT', 'PremiumUserRLCL/condition/', bed.erin, vip)).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await get('PremiumUserRLCL')).condition).toEqual(vip)
    expect(bed.dev.received.at(-1)).toMatchObject({ kind: 'RLCL', name: 'PremiumUserRLCL', config: { condition: vip } })
    expect((await call('DELETE', 'IPBasedRLCL/condition/', bed.erin)).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await get('IPBasedRLCL')).condition).toBeNull()
  })

  it('takes every word of the current vocabulary, and nested NOT, AND and OR', async () => {
    const rule = (operator: string, extra: Record<string, unknown> = {}) => ({ ...USER_TYPE, valueComparisonOperator: operator, ...extra })
    const all = {
      conditionRuleList: [{
        conditionCriteria: 'AND',
        conditionRuleList: [
          ...['LT', 'LE', 'GT', 'GE', 'EQ', 'NE'].map((op) => rule(op, { variableDataType: 'NUMERIC', secondValue: '10' })),
          ...['STARTS_WITH', 'ENDS_WITH', 'CONTAINS', 'NOT_CONTAINS', 'IN', 'NOT_IN'].map((op) => rule(op)),
          ...['IS_EMPTY', 'IS_NOT_EMPTY', 'IS_EXISTS', 'IS_NOT_EXISTS'].map((op) => ({ conditionCriteria: 'VALUE', firstVariable: USER_TYPE.firstVariable, variableDataType: 'STRING', valueComparisonOperator: op })),
          rule('GE', { variableDataType: 'DATE', dateFormat: 'yyyy-MM-dd', secondValueSource: 'VARIABLE', secondValue: undefined, secondVariable: { name: 'since', type: 'HEADER', headerName: 'X-Since' } }),
          { conditionCriteria: 'NOT', conditionRuleList: [rule('EQ', { secondValue: 'BLOCKED' })] },
          { ...rule('EQ', { secondValue: 'GUEST' }), conditionCriteria: 'NOT' },
        ],
      }],
    }
    const expected = JSON.parse(JSON.stringify(all)) // as sent (undefined fields are not sent)
    const res = await call('PUT', 'PremiumUserRLCL/condition/', bed.erin, all)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await get('PremiumUserRLCL')).condition).toEqual(expected)
    const gql = await bed.svc.graphql('query { rlcl(projectName: "payments", name: "PremiumUserRLCL") { condition } }', {}, bed.frank)
    expect(gql.body.data.rlcl.condition).toEqual(expected)
  })

  it("accepts the earlier pages' words (EQUALS, STATIC, NUMBER, AND on a comparison …) and answers, stores and pushes the current ones", async () => {
    const earlier = {
      conditionRuleList: [{
        conditionCriteria: 'OR',
        conditionRuleList: [
          EARLIER(USER_TYPE),
          { ...EARLIER(USER_TYPE), valueComparisonOperator: 'GREATER_THAN_OR_EQUAL', variableDataType: 'NUMBER', secondValue: '3' },
          { ...EARLIER(USER_TYPE), conditionCriteria: 'OR', valueComparisonOperator: 'NOT_EQUALS', variableDataType: 'BOOLEAN', secondValue: 'true' },
          { ...EARLIER(USER_TYPE), valueComparisonOperator: 'LESS_THAN' }, { ...EARLIER(USER_TYPE), valueComparisonOperator: 'LESS_THAN_OR_EQUAL' }, { ...EARLIER(USER_TYPE), valueComparisonOperator: 'GREATER_THAN' },
          { ...EARLIER(USER_TYPE), valueComparisonOperator: 'REGEX_MATCH', secondValue: '^PRE' },
        ],
      }],
    }
    const current = {
      conditionRuleList: [{
        conditionCriteria: 'OR',
        conditionRuleList: [
          USER_TYPE,
          { ...USER_TYPE, valueComparisonOperator: 'GE', variableDataType: 'NUMERIC', secondValue: '3' },
          { ...USER_TYPE, valueComparisonOperator: 'NE', variableDataType: 'STRING', secondValue: 'true' },
          { ...USER_TYPE, valueComparisonOperator: 'LT' }, { ...USER_TYPE, valueComparisonOperator: 'LE' }, { ...USER_TYPE, valueComparisonOperator: 'GT' },
          { ...USER_TYPE, valueComparisonOperator: 'REGEX_MATCH', secondValue: '^PRE' },
        ],
      }],
    }
    expect((await call('POST', 'IPBasedRLCL/condition/', bed.erin, earlier)).status).toBe(200)
    expect((await get('IPBasedRLCL')).condition).toEqual(current)
    expect((await bed.svc.deps.prisma.rlcl.findFirstOrThrow({ where: { name: 'IPBasedRLCL' } })).condition).toEqual(current.conditionRuleList)
    expect(bed.dev.received.at(-1)).toMatchObject({ kind: 'RLCL', name: 'IPBasedRLCL', config: { condition: current } })
    // a condition stored in the earlier words (before this version) reads and pushes in the current ones
    await bed.svc.deps.prisma.rlcl.update({ where: { projectId_name: { projectId: (await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })).id, name: 'IPBasedRLCL' } }, data: { condition: earlier.conditionRuleList } })
    expect((await get('IPBasedRLCL')).condition).toEqual(current)
    expect((await call('PUT', 'IPBasedRLCL/', bed.erin, { ...IP_BASED, description: 'pushed again' })).status).toBe(200)
    expect(bed.dev.received.at(-1)).toMatchObject({ kind: 'RLCL', name: 'IPBasedRLCL', config: { condition: current } })
    expect((await call('DELETE', 'IPBasedRLCL/condition/', bed.erin)).status).toBe(200)
  })

  it('refuses an empty condition, broken rules, a second add, an update without one, an unknown RLCL and a reader', async () => {
    const rule = USER_TYPE
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [] }), 'condition value can not be empty!')
    await expectRefused(() => call('PUT', 'PremiumUserRLCL/condition/', bed.erin, {}), 'condition value can not be empty!')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ ...rule, valueComparisonOperator: 'LIKE' }] }), 'conditionRuleList[0].valueComparisonOperator: must be one of LT, LE, GT, GE, EQ, NE, STARTS_WITH, ENDS_WITH, CONTAINS, NOT_CONTAINS, IS_EMPTY, IS_NOT_EMPTY, IS_EXISTS, IS_NOT_EXISTS, IN, NOT_IN, REGEX_MATCH, REGEX_NOT_MATCH')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ ...rule, secondValueSource: 'CONSTANT' }] }), 'conditionRuleList[0].secondValueSource: must be one of VALUE, VARIABLE')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ ...rule, variableDataType: 'INTEGER' }] }), 'conditionRuleList[0].variableDataType: must be one of STRING, NUMERIC, DATE')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ ...rule, secondValue: undefined }] }), 'conditionRuleList[0].secondValue: is required when secondValueSource is VALUE')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ ...EARLIER(rule), secondValue: undefined }] }), 'conditionRuleList[0].secondValue: is required when secondValueSource is VALUE')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ ...rule, secondValueSource: 'VARIABLE' }] }), 'conditionRuleList[0].secondVariable: is required when secondValueSource is VARIABLE')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ ...rule, valueComparisonOperator: 'REGEX_MATCH', secondValue: '([' }] }), 'conditionRuleList[0].secondValue: is not a valid regular expression')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ conditionCriteria: 'XOR' }] }), 'conditionRuleList[0].conditionCriteria: must be one of VALUE, NOT, AND, OR')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ conditionCriteria: 'AND' }] }), 'conditionRuleList[0].firstVariable: is required')
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ conditionCriteria: 'VALUE', conditionRuleList: [rule] }] }), /^conditionRuleList\[0\]\.conditionRuleList: must be empty when conditionCriteria is VALUE/)
    await expectRefused(() => call('POST', 'IPBasedRLCL/condition/', bed.erin, { conditionRuleList: [{ conditionCriteria: 'OR', conditionRuleList: [{ ...rule, valueComparisonOperator: 'EQUAL' }] }] }), /^conditionRuleList\[0\]\.conditionRuleList\[0\]\.valueComparisonOperator: must be one of /)
    await expectRefused(() => call('POST', 'PremiumUserRLCL/condition/', bed.erin, CONDITION), 'RLCL (PremiumUserRLCL) already has a condition; use the update endpoint to replace it')
    await expectRefused(() => call('PUT', 'IPBasedRLCL/condition/', bed.erin, CONDITION), 'RLCL (IPBasedRLCL) has no condition to update; use the add endpoint')
    for (const method of ['POST', 'PUT', 'DELETE']) {
      await expectRefused(() => call(method, 'Ghost/condition/', bed.erin, method === 'DELETE' ? undefined : CONDITION), 'RLCL (Ghost) is not found!')
      await expectRefused(() => call(method, 'PremiumUserRLCL/condition/', bed.frank, method === 'DELETE' ? undefined : CONDITION), /lacks permission API_MANAGEMENT MANAGE/)
    }
  })
})

describe('analyzer and delete', () => {
  it('lets the analyzer read every RLCL but change nothing; the administrator may write', async () => {
    const list = await call('GET', '', bed.ana)
    expect(list.status).toBe(200)
    expect(list.body.resultList.map((r: any) => r.name).sort()).toEqual(['Defaults', 'IPBasedRLCL', 'PremiumUserRLCL'])
    await expectRefused(() => call('DELETE', 'Defaults/', bed.ana), /lacks permission API_MANAGEMENT MANAGE/)
    expect((await call('POST', '', bed.root, { name: 'ByRoot' })).status).toBe(200)
  })

  it('deletes an RLCL with everything it holds and undeploys it; an unknown one is refused', async () => {
    expect((await call('DELETE', 'PremiumUserRLCL/', bed.erin)).body).toEqual({ status: 'SUCCESS', success: true })
    expect(await bed.svc.deps.prisma.rlcl.findFirst({ where: { name: 'PremiumUserRLCL' } })).toBeNull()
    expect(await bed.svc.deps.prisma.rlclEndpoint.count({ where: { rlcl: { name: 'PremiumUserRLCL' } } })).toBe(0)
    for (const worker of [bed.dev, bed.prod]) expect(worker.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'RLCL', name: 'PremiumUserRLCL' })
    await expectRefused(() => call('DELETE', 'PremiumUserRLCL/', bed.erin), 'RLCL (PremiumUserRLCL) is not found!')
    await expectRefused(() => call('DELETE', 'IPBasedRLCL/', bed.frank), /lacks permission API_MANAGEMENT MANAGE/)
  })
})

describe('GraphQL twins', () => {
  const RLCL_FIELDS = 'name description enabled timeIntervalWindowType credentialNameList endpointRateLimitList condition'
  const gql = async (query: string, variables: Record<string, unknown>, token: string) => (await bed.svc.graphql(query, variables, token)).body

  it('writes through the same service as the pages and reads what REST reads', async () => {
    const created = await gql(`mutation($i: JSON!) { createRlcl(projectName: "payments", input: $i) { ${RLCL_FIELDS} } }`, { i: { ...BASIC, name: 'GqlRLCL' } }, bed.erin)
    expect(created.errors).toBeUndefined()
    expect(created.data.createRlcl).toMatchObject({ name: 'GqlRLCL', enabled: true, timeIntervalWindowType: 'FIXED', credentialNameList: [], endpointRateLimitList: [], condition: null })
    const creds = await gql('mutation { addRlclCredentials(projectName: "payments", name: "GqlRLCL", credentialNameList: ["api-user-1"]) { credentialNameList } }', {}, bed.erin)
    expect(creds.data.addRlclCredentials.credentialNameList).toEqual(['api-user-1'])
    const eps = await gql('mutation($l: JSON!) { addRlclEndpoints(projectName: "payments", name: "GqlRLCL", endpointRateLimitList: $l) { endpointRateLimitList } }', { l: [entry('/pets', 'GET')] }, bed.erin)
    expect(eps.errors).toBeUndefined()
    expect(eps.data.addRlclEndpoints.endpointRateLimitList).toEqual([expect.objectContaining({ apiProxyName: 'MyAPI', endpointName: '/pets', endpointHTTPMethod: 'GET', permittedMessageCount: 100 })])
    const cond = await gql('mutation($c: JSON!) { addRlclCondition(projectName: "payments", name: "GqlRLCL", conditionRuleList: $c) { condition } }', { c: CONDITION.conditionRuleList }, bed.erin)
    expect(cond.data.addRlclCondition.condition).toEqual(CONDITION)
    const read = await gql('query { rlcl(projectName: "payments", name: "GqlRLCL") { id name credentialNameList endpointRateLimitList condition } }', {}, bed.frank)
    const rest = await get('GqlRLCL')
    expect(read.data.rlcl).toEqual({ id: rest.id, name: rest.name, credentialNameList: rest.credentialNameList, endpointRateLimitList: rest.endpointRateLimitList, condition: rest.condition })
    const list = await gql('query { rlcls(projectName: "payments") { name } }', {}, bed.ana)
    expect(list.data.rlcls.map((r: any) => r.name)).toContain('GqlRLCL')
    expect(await bed.svc.deps.prisma.auditEvent.count({ where: { surface: 'GRAPHQL', operation: 'addRlclCredentials', objectName: 'GqlRLCL' } })).toBe(1)
    const removed = await gql('mutation { removeRlclCondition(projectName: "payments", name: "GqlRLCL") { condition } }', {}, bed.erin)
    expect(removed.data.removeRlclCondition.condition).toBeNull()
    expect((await gql('mutation { deleteRlcl(projectName: "payments", name: "GqlRLCL") }', {}, bed.erin)).data.deleteRlcl).toBe(true)
    expect(await bed.svc.deps.prisma.rlcl.count({ where: { name: 'GqlRLCL' } })).toBe(0)
  })

  it('refuses a reader, a caller without API_MANAGEMENT and an invalid body, writing nothing', async () => {
    const before = await snapshot()
    const denied = await gql('mutation($i: JSON!) { createRlcl(projectName: "payments", input: $i) { name } }', { i: { name: 'Nope' } }, bed.frank)
    expect(denied.errors![0].message).toMatch(/lacks permission API_MANAGEMENT MANAGE/)
    expect(denied.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    const analyzer = await gql('mutation { deleteRlcl(projectName: "payments", name: "IPBasedRLCL") }', {}, bed.ana)
    expect(analyzer.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    const blind = await gql('query { rlcls(projectName: "payments") { name } }', {}, bed.alice)
    expect(blind.errors![0].message).toMatch(/lacks permission API_MANAGEMENT VIEW/)
    const invalid = await gql('mutation($i: JSON!) { createRlcl(projectName: "payments", input: $i) { name } }', { i: { name: 'Bad', executionOrder: 'MIDDLE' } }, bed.erin)
    expect(invalid.errors![0].message).toMatch(/^executionOrder: /)
    expect(await snapshot()).toBe(before)
  })
})
