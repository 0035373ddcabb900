// Issue 11 §5: bad input refused once at the boundary, in each surface's envelope, with nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PAGE } from '../../src/platform/envelopes/paging.js'
import { REQUEST_LIMITS } from '../../src/platform/http/input-guards.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'
import { deepJson } from '../support/fuzz-inputs.js'

let svc: TestService
let root: string

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  root = await svc.tokenFor('root', 's3cret-root')
})
afterAll(async () => svc?.close())

const auth = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${root}`, ...extra })
const json = (body: string) => ({ headers: auth({ 'content-type': 'application/json' }), body })
const counts = async () => ({
  proxies: await svc.deps.prisma.apiProxy.count(),
  plans: await svc.deps.prisma.limitPlan.count(),
  audit: await svc.deps.prisma.auditEvent.count(),
  claims: await svc.deps.prisma.idempotencyClaim.count(),
  throttles: await svc.deps.prisma.authThrottle.count(),
  tokens: await svc.deps.prisma.accessToken.count(),
})

describe('NUL characters (PostgreSQL text cannot hold them)', () => {
  it('refuses one in a query parameter: Common Contract malformedRequest naming the field', async () => {
    const res = await svc.http('/apiops/projects/payments/consumers?organizationCode=a%00b', { headers: auth() })
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ errorKey: 'malformedRequest', message: 'organizationCode: must not contain the NUL character', params: { field: 'organizationCode', reason: 'nulCharacter' }, correlationId: expect.any(String) })
  })

  it('refuses one in a path segment: legacy FAILURE naming the field', async () => {
    const res = await svc.http('/apiops/projects/payments/llm-providers/a%00b/', { headers: auth() })
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: 'providerName: must not contain the NUL character' })
  })

  it('refuses one in a body string, nested fields named by their path, and writes nothing', async () => {
    const before = await counts()
    const res = await svc.http('/apiops/projects/payments/apiProxies/ai/nul-proxy/', { method: 'POST', ...json(JSON.stringify({ description: 'ok', groups: ['a', 'b\u0000'] })) })
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: 'groups[1]: must not contain the NUL character' })
    const plan = await svc.http('/apiops/projects/payments/limit-plans', {
      method: 'POST',
      headers: auth({ 'content-type': 'application/json', 'idempotency-key': 'nul-plan' }),
      body: JSON.stringify({ family: 'REQUEST_RATE', name: 'x\u0000' }),
    })
    expect(plan.status).toBe(400)
    expect((await jsonOf(plan)).params).toEqual({ field: 'name', reason: 'nulCharacter' })
    expect(await counts()).toEqual(before)
  })
})

describe('paging parameters', () => {
  for (const [path, style] of [['/apiops/projects/payments/limit-plans', 'common'], ['/api/limit-assignment-runs?projectId=payments', 'common'], ['/apiops/projects/payments/limit-assignments', 'common']] as const) {
    it(`refuses a page beyond ${MAX_PAGE} or a size beyond any integer on ${path}`, async () => {
      for (const [param, value] of [['page', '99999999999999999999'], ['page', String(MAX_PAGE + 1)], ['size', '99999999999999999999'], ['page', '1e3'], ['page', '-1']]) {
        const res = await svc.http(`${path}${path.includes('?') ? '&' : '?'}${param}=${value}`, { headers: auth() })
        expect(res.status, `${param}=${value}`).toBe(400)
        expect(style).toBe('common')
        expect((await jsonOf(res)).params, `${param}=${value}`).toEqual({ field: param })
      }
      const last = await jsonOf(await svc.http(`${path}${path.includes('?') ? '&' : '?'}page=${MAX_PAGE}&size=500`, { headers: auth() }))
      expect([last.page, last.size, last.items]).toEqual([MAX_PAGE, 200, []])
    })
  }
})

describe('JSON nesting', () => {
  it(`refuses a body nested deeper than ${REQUEST_LIMITS.jsonDepth} levels, naming where, and writes nothing`, async () => {
    const before = await counts()
    const res = await svc.http('/apiops/projects/payments/apiProxies/a2a/deep-proxy/', { method: 'POST', ...json(`{"routing":${deepJson(5000)}}`) })
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).resultMessage).toMatch(/^routing(\.a)+: nested deeper than 64 levels$/)
    const common = await svc.http('/apiops/projects/payments/transfer-export-previews', { method: 'POST', ...json(`{"names":[${deepJson(5000)}]}`) })
    expect(common.status).toBe(400)
    expect((await jsonOf(common)).params).toMatchObject({ reason: 'nestingTooDeep', maxDepth: 64 })
    // 64 levels are fine as far as the guard goes (the module then judges the content)
    const fine = await svc.http('/apiops/projects/payments/transfer-export-previews', { method: 'POST', ...json(`{"x":${deepJson(62)}}`) })
    expect((await jsonOf(fine)).params?.reason).not.toBe('nestingTooDeep')
    expect(await counts()).toEqual(before)
  })
})

describe('body sizes', () => {
  it('answers 413 in the Common Contract and legacy envelopes to a JSON body over the limit, writing nothing', async () => {
    const before = await counts()
    const big = JSON.stringify({ description: 'x'.repeat(REQUEST_LIMITS.jsonBodyBytes) })
    const legacy = await svc.http('/apiops/projects/payments/apiProxies/ai/big-proxy/', { method: 'POST', ...json(big) })
    expect(legacy.status).toBe(413)
    expect(await jsonOf(legacy)).toEqual({ status: 'FAILURE', resultMessage: `Request body is larger than ${REQUEST_LIMITS.jsonBodyBytes} bytes` })
    const common = await svc.http('/apiops/projects/payments/limit-plans', { method: 'POST', headers: auth({ 'content-type': 'application/json', 'idempotency-key': 'big' }), body: big })
    expect(common.status).toBe(413)
    expect(await jsonOf(common)).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'bodyTooLarge', limitBytes: REQUEST_LIMITS.jsonBodyBytes } })
    expect(await counts()).toEqual(before)
  })
})

describe('token endpoint form', () => {
  const token = (fields: Record<string, string>) =>
    svc.http('/apiops/auth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })

  it('answers a 1 MB field with invalid_request 400, and a NUL in a field too; nothing recorded', async () => {
    const before = await counts()
    for (const fields of [
      { grant_type: 'client_credentials', client_id: 'root', client_secret: 'x'.repeat(1024 * 1024) },
      { grant_type: 'client_credentials', client_id: 'x'.repeat(1024 * 1024), client_secret: 's3cret-root' },
      { grant_type: 'client_credentials', client_id: 'ro\u0000ot', client_secret: 's3cret-root' },
    ]) {
      const res = await token(fields)
      expect(res.status).toBe(400)
      expect(await jsonOf(res)).toEqual({ error: 'invalid_request', error_description: expect.stringMatching(/^client_(id|secret): /) })
    }
    expect(await counts()).toEqual(before)
  })

  it('answers a body over the form limit with 413 invalid_request', async () => {
    const res = await token({ grant_type: 'client_credentials', client_id: 'root', client_secret: 'x'.repeat(REQUEST_LIMITS.formBodyBytes) })
    expect(res.status).toBe(413)
    expect((await jsonOf(res)).error).toBe('invalid_request')
  })
})

describe('GraphQL door', () => {
  const gql = (body: string, headers: Record<string, string> = {}) =>
    svc.http('/graphql', { method: 'POST', headers: auth({ 'content-type': 'application/json', 'x-correlation-id': 'gql-guard', ...headers }), body })
  const refusal = (params: Record<string, unknown>) => ({
    errors: [{ message: expect.any(String), extensions: { code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params, correlationId: 'gql-guard' } }],
  })

  it('refuses a NUL in a variable, naming it, before running anything', async () => {
    const res = await gql(JSON.stringify({ query: 'query($p: String!) { credential(projectName: $p, username: "x") { username } }', variables: { p: 'pay\u0000' } }))
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual(refusal({ field: 'variables.p', reason: 'nulCharacter' }))
  })

  it('refuses a NUL in an inline string argument', async () => {
    const res = await gql(JSON.stringify({ query: '{ credential(projectName: "pay\\u0000", username: "x") { username } }' }))
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).errors[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'nulCharacter' } })
  })

  it('refuses variables nested deeper than the limit, and an inline value nested as deep', async () => {
    const res = await gql(`{"query":"query($v: JSON) { __typename }","variables":{"v":${deepJson(5000)}}}`)
    expect(res.status).toBe(400)
    expect((await jsonOf(res)).errors[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'nestingTooDeep' } })
    const literal = `{ credential(projectName: ${'['.repeat(100)}"p"${']'.repeat(100)}, username: "x") { username } }`
    const deepLiteral = await gql(JSON.stringify({ query: literal }))
    expect(deepLiteral.status).toBe(400)
    expect((await jsonOf(deepLiteral)).errors.map((e: any) => e.extensions.errorKey)).toContain('malformedRequest')
  })

  it('answers a body that is not JSON 400 and one over the limit 413, in the GraphQL error format', async () => {
    const bad = await gql('{"query":')
    expect(bad.status).toBe(400)
    expect(await jsonOf(bad)).toEqual(refusal({ reason: 'bodyNotJson' }))
    const big = await gql(JSON.stringify({ query: '{ __typename }', variables: { x: 'x'.repeat(REQUEST_LIMITS.jsonBodyBytes) } }))
    expect(big.status).toBe(413)
    expect(await jsonOf(big)).toEqual(refusal({ reason: 'bodyTooLarge', limitBytes: REQUEST_LIMITS.jsonBodyBytes }))
  })
})
