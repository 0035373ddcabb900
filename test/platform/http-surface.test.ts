import fs from 'node:fs'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { parse, validate } from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.js'
import { routeTables } from '../../src/routes.js'
import { buildGraphqlSchema, printSchemaSdl } from '../../src/schema.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

const repo = path.resolve(import.meta.dirname, '../..')
let svc: TestService
let alice: string

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => svc?.close())

describe('probes (RUNTIME.md §2)', () => {
  it('answers /healthz 503 until the app is ready, then 200', async () => {
    const app = await createApp(svc.deps)
    await new Promise<void>((r) => app.httpServer.listen(0, '127.0.0.1', r))
    const url = `http://127.0.0.1:${(app.httpServer.address() as AddressInfo).port}/healthz`
    try {
      const before = await fetch(url)
      expect(before.status).toBe(503)
      expect(await jsonOf(before)).toEqual({ status: 'DOWN' })
      app.setReady(true)
      expect((await fetch(url)).status).toBe(200)
    } finally {
      await app.stop()
    }
  })

  it('exposes Prometheus metrics by route template and status, and deploy outcomes', async () => {
    await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: { authorization: `Bearer ${alice}` } })
    const res = await svc.http('/metrics')
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await res.text()
    expect(text).toContain('http_requests_total{method="DELETE",route="/apiops/projects/:projectName/credentials/:username/token/",status="200"} 1')
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.5",method="POST",route="\/apiops\/auth\/token",status="200"\} \d+/)
    expect(text).toMatch(/deploy_pushes_total\{outcome="acknowledged"\} 2/)
  })

  it('publishes an OpenAPI 3.1 document generated from every mounted route', async () => {
    const doc = await jsonOf(await svc.http('/apiops/openapi.json'))
    expect(doc.openapi).toBe('3.1.0')
    const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m} ${p}`))
    expect(operations.sort()).toEqual(routeTables.map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`).sort())
    const reset = doc.paths['/apiops/projects/{projectName}/credentials/{username}/token/'].delete
    expect(reset.parameters.map((p: any) => p.name)).toEqual(['projectName', 'username'])
    expect(Object.keys(reset.responses)).toEqual(['200', '400', '401'])
    const token = doc.paths['/apiops/auth/token'].post
    expect(token.security).toEqual([])
    expect(Object.keys(token.requestBody.content)).toEqual(['application/x-www-form-urlencoded'])
    expect(token.requestBody.content['application/x-www-form-urlencoded'].schema.required).toEqual(['grant_type', 'client_id', 'client_secret'])
  })
})

describe('correlation ids and unknown paths', () => {
  it('echoes a sane X-Correlation-Id and makes one up otherwise', async () => {
    const echoed = await svc.http('/healthz', { headers: { 'x-correlation-id': 'abc-123' } })
    expect(echoed.headers.get('x-correlation-id')).toBe('abc-123')
    const made = await svc.http('/healthz', { headers: { 'x-correlation-id': 'bad id with spaces' } })
    expect(made.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('answers unknown /apiops paths in the legacy style and /api paths in the Common Contract style', async () => {
    const legacy = await svc.http('/apiops/nowhere')
    expect(legacy.status).toBe(404)
    expect(await jsonOf(legacy)).toEqual({ status: 'FAILURE', resultMessage: 'No endpoint GET /apiops/nowhere' })
    const common = await svc.http('/api/nowhere', { headers: { 'x-correlation-id': 'cid-1' } })
    expect(common.status).toBe(404)
    expect(await jsonOf(common)).toEqual({ errorKey: 'resourceNotFound', message: 'No endpoint GET /api/nowhere', params: {}, correlationId: 'cid-1' })
  })

  it('renders Common Contract 401s with errorKey, params and correlationId', async () => {
    const res = await svc.http('/api/session', { headers: { 'x-correlation-id': 'cid-2' } })
    expect(res.status).toBe(401)
    expect(await jsonOf(res)).toEqual({ errorKey: 'unauthorized', message: expect.any(String), params: {}, correlationId: 'cid-2' })
  })
})

describe('GraphQL door', () => {
  it('serves the explorer from local files to a browser', async () => {
    const page = await svc.http('/graphql', { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).not.toMatch(/https?:\/\//)
    const assets = [...html.matchAll(/(?:src|href)="(\/graphql\/explorer\/[^"]+)"/g)].map((m) => m[1])
    expect(assets).toHaveLength(5) // GraphiQL, React, ReactDOM, its CSS and the graphql-ws client for subscriptions
    for (const asset of assets) expect((await svc.http(asset)).status).toBe(200)
  })

  it('refuses operations deeper than the depth limit before running them', async () => {
    let selection = 'name'
    for (let i = 0; i < 11; i++) selection = `children { ${selection} }`
    const res = await svc.graphql(`{ organizations(projectName: "payments") { items { ${selection} } } }`, {}, alice)
    expect(res.status).toBe(400)
    expect(res.body.errors?.[0].message).toMatch(/depth/i)
  })

  it('refuses operations over the cost limit', async () => {
    const fields = Array.from({ length: 1200 }, (_, i) => `a${i}: me { username role locked enabled }`).join(' ')
    const res = await svc.graphql(`{ ${fields} }`, {}, alice)
    expect(res.status).toBe(400)
    expect(res.body.errors?.[0].message).toMatch(/cost/i)
  })

  it('puts errorKey, params and the correlation id of the request in GraphQL error extensions', async () => {
    const res = await svc.http('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice}`, 'x-correlation-id': 'gql-cid' },
      body: JSON.stringify({ query: '{ credential(projectName: "payments", username: "nobody") { username } }' }),
    })
    const body = await jsonOf(res)
    expect(body.errors[0].extensions).toEqual({
      code: 'NOT_FOUND', errorKey: 'resourceNotFound', params: { credential: 'nobody' }, correlationId: 'gql-cid',
    })
  })

  it('keeps schema/schema.graphql in step with the resolvers (run npm run schema:emit)', async () => {
    expect(fs.readFileSync(path.join(repo, 'schema/schema.graphql'), 'utf8')).toBe(await printSchemaSdl())
  })

  it('keeps the named operations in schema/operations valid against the schema', async () => {
    const schema = await buildGraphqlSchema()
    const dir = path.join(repo, 'schema/operations')
    for (const file of fs.readdirSync(dir)) {
      expect(validate(schema, parse(fs.readFileSync(path.join(dir, file), 'utf8'))), file).toEqual([])
    }
  })
})
