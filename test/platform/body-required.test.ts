// Issue 11 §2: a Common Contract write that takes a JSON body answers a call without one 400 malformedRequest,
// params.reason bodyRequired, before any field rule and before its Idempotency-Key is claimed.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routeTables } from '../../src/routes.js'
import { bodyRequired, type RouteDef } from '../../src/platform/http/routes.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'
import { customRate } from '../limits/limit-bulk-helpers.js'

let svc: TestService
let root: string

/** Keys of real objects: the manager surface finds a key-scoped route's project from its object before the body. */
const KEYS: Record<string, string> = {}

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  KEYS.apiClientKey = (await svc.deps.prisma.apiClient.findFirstOrThrow({ where: { clientId: 'checkout-web-id' } })).apiClientKey
  const created = await svc.http('/api/limit-defaults', {
    method: 'POST',
    headers: { authorization: `Bearer ${root}`, 'content-type': 'application/json' },
    body: JSON.stringify({ owner: { type: 'PROJECT', projectId: 'payments' }, content: customRate() }),
  })
  expect(created.status).toBe(201)
  KEYS.defaultKey = ((await created.json()) as { defaultKey: string }).defaultKey
})
afterAll(async () => svc?.close())

const takesJsonBody = routeTables.filter((r) => r.style === 'common' && r.body?.kind === 'json' && bodyRequired(r))
const urlOf = (route: RouteDef) => route.path.replace(/:(\w+)/g, (_m, name: string) => (name === 'projectName' ? 'payments' : KEYS[name] ?? `key-${name}`))
const headers = (extra: Record<string, string> = {}) => ({ authorization: `Bearer ${root}`, 'idempotency-key': 'body-required-key', 'x-correlation-id': 'cid-body', ...extra })

/** A request with no body at all: neither Content-Length nor Transfer-Encoding (fetch always sends one). */
function withoutBody(route: RouteDef): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(svc.url + urlOf(route), { method: route.method.toUpperCase(), headers: headers() }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
    })
    req.on('error', reject)
    req.end()
  })
}

const send = async (route: RouteDef, init: { headers?: Record<string, string>; body?: string }) => {
  const res = await svc.http(urlOf(route), { method: route.method.toUpperCase(), headers: headers(init.headers), body: init.body })
  return { status: res.status, body: await jsonOf(res) }
}

const nothingWritten = async () => ({
  claims: await svc.deps.prisma.idempotencyClaim.count(),
  audit: await svc.deps.prisma.auditEvent.count(),
  plans: await svc.deps.prisma.limitPlan.count(),
  assignments: await svc.deps.prisma.limitAssignment.count(),
})

const BODY_REQUIRED = { errorKey: 'malformedRequest', message: 'Request body is required', params: { reason: 'bodyRequired' }, correlationId: 'cid-body' }

describe('bodyRequired on every Common Contract write that takes a JSON body', () => {
  it('covers the writes the issue names, on both surfaces', () => {
    const declared = new Set(takesJsonBody.map((r) => `${r.method} ${r.path}`))
    const named = [
      'post /apiops/projects/:projectName/limit-plans', 'put /apiops/projects/:projectName/limit-plans/:planKey',
      'post /apiops/projects/:projectName/limit-plans/:planKey/draft-revisions', 'put /apiops/projects/:projectName/limit-plans/:planKey/draft-revisions/:revision',
      'post /api/limit-plans', 'put /api/limit-plans/:planKey', 'post /api/limit-plans/:planKey/draft-revisions', 'put /api/limit-plans/:planKey/draft-revisions/:revision',
      'post /apiops/projects/:projectName/limit-assignments', 'put /apiops/projects/:projectName/limit-assignments/:bindingKey',
      'post /apiops/projects/:projectName/limit-assignments/actions/validate',
      'post /api/limit-bindings', 'put /api/limit-bindings/:bindingKey', 'post /api/limit-bindings/validate',
      'post /apiops/projects/:projectName/limit-assignment-previews', 'post /apiops/projects/:projectName/limit-assignment-runs',
      'post /api/limit-assignment-previews', 'post /api/limit-assignment-runs',
      'post /apiops/projects/:projectName/transfer-export-previews', 'post /apiops/projects/:projectName/transfer-export-runs',
      'post /apiops/projects/:projectName/consumers/:consumerKey/actions/transfer-organization',
      'post /apiops/projects/:projectName/applications/:applicationKey/actions/transfer-organization',
    ]
    expect(named.filter((n) => !declared.has(n))).toEqual([])
  })

  const cases: [string, (route: RouteDef) => Promise<{ status: number; body: any }>][] = [
    ['no body at all', withoutBody],
    ['an empty JSON body', (route) => send(route, { headers: { 'content-type': 'application/json' }, body: '' })],
    ['Content-Length: 0', (route) => send(route, { headers: { 'content-type': 'application/json', 'content-length': '0' } })],
    ['only white space', (route) => send(route, { headers: { 'content-type': 'application/json' }, body: ' \n ' })],
  ]
  for (const [label, call] of cases) {
    it(`answers ${label} with 400 malformedRequest, reason bodyRequired, claiming and writing nothing`, async () => {
      const before = await nothingWritten()
      for (const route of takesJsonBody) {
        const res = await call(route)
        expect({ route: `${route.method} ${route.path}`, ...res }).toEqual({ route: `${route.method} ${route.path}`, status: 400, body: BODY_REQUIRED })
      }
      expect(await nothingWritten()).toEqual(before)
    })
  }

  it('keeps a body that is not JSON a malformedRequest of its own (not bodyRequired)', async () => {
    for (const route of takesJsonBody) {
      const res = await send(route, { headers: { 'content-type': 'application/json' }, body: '{"name":' })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'bodyNotJson' } })
    }
  })

  it('lets a route with an optional body (publish, activate, end) go on without one', async () => {
    const optional = routeTables.filter((r) => r.style === 'common' && r.body?.kind === 'json' && !bodyRequired(r))
    expect(optional.map((r) => `${r.method} ${r.path}`)).toContain('post /api/limit-bindings/:bindingKey/activate')
    for (const route of optional) {
      const res = await withoutBody(route)
      expect(res.body.params?.reason, `${route.method} ${route.path}`).not.toBe('bodyRequired')
    }
  })

  it('documents the body as required in the OpenAPI document', async () => {
    const doc = (await jsonOf(await svc.http('/apiops/openapi.json'))) as { paths: Record<string, Record<string, { requestBody?: { required: boolean } }>> }
    for (const route of routeTables.filter((r) => r.body)) {
      expect(doc.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method].requestBody?.required, route.path).toBe(bodyRequired(route))
    }
  })
})
