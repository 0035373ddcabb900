import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'

let svc: TestService
let root: string
let alice: string
let target: http.Server
let base: string
const received: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = []

const FIELDS = `name description environment method fullUrl timeout headers { name value } enabled
  connectTimeoutSeconds responseTimeoutSeconds connectionRequestTimeoutSeconds socketTimeoutSeconds
  effectiveConnectTimeoutSeconds effectiveResponseTimeoutSeconds effectiveConnectionRequestTimeoutSeconds effectiveSocketTimeoutSeconds
  writeStallTimeoutSeconds writeStallGuardEnabled connectionsPerHost totalPoolConnections effectiveTotalPoolConnections
  trustStoreName keyStoreName serverNameVerification gzip bufferFullWaitMs
  batching { enabled maxEvents maxBytes maxDelayMs bufferCapBytes }
  retry { maxRetries waitMs maxRetryAfterSeconds retryNonIdempotent }
  collectorMode { enabled index sourcetype source host acknowledgements acknowledgementTimeoutSeconds maxAcknowledgementResends }
  circuitBreaker { enabled failureThreshold coolDownSeconds }`
const CREATE = `mutation($input: WebhookConnectionInput!) { createWebhookConnection(input: $input) { ${FIELDS} } }`
const UPDATE = `mutation($name: String!, $input: WebhookConnectionInput!) { updateWebhookConnection(name: $name, input: $input) { ${FIELDS} } }`
const GET = `query($name: String!) { webhookConnection(name: $name) { ${FIELDS} } }`
const EXISTS = `query($name: String!) { webhookConnectionNameExists(name: $name) }`
const DELETE = `mutation($name: String!) { deleteWebhookConnection(name: $name) }`
const TEST = `mutation($name: String!) { testWebhookConnection(name: $name) { success status latencyMs error } }`
const LIST = `{ webhookConnections(size: 50) { items { name } totalElements } }`

const minimal = (over: Record<string, unknown> = {}) => ({ name: 'hook-a', environment: 'dev', method: 'POST', fullUrl: `${base}/ok`, ...over })
const count = () => svc.deps.prisma.webhookConnection.count()

beforeAll(async () => {
  target = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body })
      if (req.url?.startsWith('/hang')) return // never answers
      res.statusCode = req.url?.startsWith('/fail') ? 500 : 200
      res.end('done')
    })
  })
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => {
  await svc?.close()
  target?.closeAllConnections()
  await new Promise((r) => target?.close(r))
})

describe('webhook connections', () => {
  it('applies every default and exposes the effective values', async () => {
    const { body } = await svc.graphql(CREATE, { input: minimal() }, root)
    expect(body.errors).toBeUndefined()
    expect(body.data.createWebhookConnection).toEqual({
      name: 'hook-a', description: null, environment: 'dev', method: 'POST', fullUrl: `${base}/ok`, timeout: 2, headers: [], enabled: true,
      connectTimeoutSeconds: null, responseTimeoutSeconds: null, connectionRequestTimeoutSeconds: null, socketTimeoutSeconds: null,
      effectiveConnectTimeoutSeconds: 2, effectiveResponseTimeoutSeconds: 2, effectiveConnectionRequestTimeoutSeconds: 2, effectiveSocketTimeoutSeconds: 2,
      writeStallTimeoutSeconds: 30, writeStallGuardEnabled: true, connectionsPerHost: 24, totalPoolConnections: 48, effectiveTotalPoolConnections: 48,
      trustStoreName: null, keyStoreName: null, serverNameVerification: false, gzip: false, bufferFullWaitMs: 100,
      batching: { enabled: false, maxEvents: 100, maxBytes: 1048576, maxDelayMs: 200, bufferCapBytes: 33554432 },
      retry: { maxRetries: 1, waitMs: 200, maxRetryAfterSeconds: 5, retryNonIdempotent: false },
      collectorMode: { enabled: false, index: '', sourcetype: '', source: '', host: '', acknowledgements: false, acknowledgementTimeoutSeconds: 30, maxAcknowledgementResends: 2 },
      circuitBreaker: { enabled: false, failureThreshold: 5, coolDownSeconds: 30 },
    })
    const read = await svc.graphql(GET, { name: 'hook-a' }, root)
    expect(read.body.data.webhookConnection).toEqual(body.data.createWebhookConnection)
    expect((await svc.graphql(LIST, {}, root)).body.data.webhookConnections).toEqual({ items: [{ name: 'hook-a' }], totalElements: 1 })
  })

  it('accepts a small pool, a disabled write-stall guard, blank circuit-breaker values and own timeouts', async () => {
    const { body } = await svc.graphql(CREATE, { input: minimal({
      name: 'hook b_1.x', timeout: 7, connectTimeoutSeconds: 3, writeStallTimeoutSeconds: 0, connectionsPerHost: 10, totalPoolConnections: 4,
      circuitBreaker: { enabled: true, failureThreshold: null, coolDownSeconds: 3600 },
    }) }, root)
    expect(body.errors).toBeUndefined()
    expect(body.data.createWebhookConnection).toMatchObject({
      effectiveConnectTimeoutSeconds: 3, effectiveResponseTimeoutSeconds: 7, writeStallGuardEnabled: false,
      totalPoolConnections: 4, effectiveTotalPoolConnections: 10,
      circuitBreaker: { enabled: true, failureThreshold: null, coolDownSeconds: 3600 },
    })
    await svc.graphql(DELETE, { name: 'hook b_1.x' }, root)
  })

  const refusals: [string, Record<string, unknown>, string][] = [
    ['name missing', { name: undefined }, 'name'],
    ['leading space', { name: ' hook' }, 'name'],
    ['special characters', { name: 'hook/$!' }, 'name'],
    ['description too long', { description: 'x'.repeat(1001) }, 'description'],
    ['unknown method', { method: 'CONNECT' }, 'method'],
    ['non-http URL', { fullUrl: 'ftp://example.com/x' }, 'fullUrl'],
    ['timeout 0', { timeout: 0 }, 'timeout'],
    ['header without value', { headers: [{ name: 'X-A', value: '' }] }, 'headers[0].value'],
    ['header without name', { headers: [{ name: ' ', value: 'v' }] }, 'headers[0].name'],
    ['connect timeout 0', { connectTimeoutSeconds: 0 }, 'connectTimeoutSeconds'],
    ['response timeout 0', { responseTimeoutSeconds: 0 }, 'responseTimeoutSeconds'],
    ['connection request timeout 0', { connectionRequestTimeoutSeconds: 0 }, 'connectionRequestTimeoutSeconds'],
    ['socket timeout 0', { socketTimeoutSeconds: 0 }, 'socketTimeoutSeconds'],
    ['per host 0', { connectionsPerHost: 0 }, 'connectionsPerHost'],
    ['pool 0', { totalPoolConnections: 0 }, 'totalPoolConnections'],
    ['buffer-full wait above 2000', { bufferFullWaitMs: 2001 }, 'bufferFullWaitMs'],
    ['buffer-full wait negative', { bufferFullWaitMs: -1 }, 'bufferFullWaitMs'],
    ['batching max events 0', { batching: { maxEvents: 0 } }, 'batching.maxEvents'],
    ['retries negative', { retry: { maxRetries: -1 } }, 'retry.maxRetries'],
    ['ack timeout 0', { collectorMode: { acknowledgementTimeoutSeconds: 0 } }, 'collectorMode.acknowledgementTimeoutSeconds'],
    ['failure threshold 0', { circuitBreaker: { failureThreshold: 0 } }, 'circuitBreaker.failureThreshold'],
    ['failure threshold 10001', { circuitBreaker: { failureThreshold: 10001 } }, 'circuitBreaker.failureThreshold'],
    ['cool-down 0', { circuitBreaker: { coolDownSeconds: 0 } }, 'circuitBreaker.coolDownSeconds'],
    ['cool-down 3601', { circuitBreaker: { coolDownSeconds: 3601 } }, 'circuitBreaker.coolDownSeconds'],
  ]
  it.each(refusals)('refuses %s, naming the field and writing nothing', async (_label, over, field) => {
    const before = await count()
    const { body } = await svc.graphql(CREATE, { input: minimal({ name: 'hook-bad', ...over }) }, root)
    expect(body.errors?.[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field } })
    expect(await count()).toBe(before)
  })

  it('refuses an unknown environment and a duplicate name', async () => {
    const unknownEnv = await svc.graphql(CREATE, { input: minimal({ name: 'hook-x', environment: 'nowhere' }) }, root)
    expect(unknownEnv.body.errors?.[0].extensions).toMatchObject({ errorKey: 'resourceNotFound', params: { field: 'environment' } })
    const dup = await svc.graphql(CREATE, { input: minimal() }, root)
    expect(dup.body.errors?.[0].extensions).toMatchObject({ errorKey: 'nameAlreadyExists', params: { field: 'name' } })
    expect(await count()).toBe(1)
  })

  it('answers the existence check', async () => {
    expect((await svc.graphql(EXISTS, { name: 'hook-a' }, root)).body.data.webhookConnectionNameExists).toBe(true)
    expect((await svc.graphql(EXISTS, { name: 'hook-' }, root)).body.data.webhookConnectionNameExists).toBe(false)
  })

  it('is for system administrators only', async () => {
    for (const [q, v] of [[LIST, {}], [GET, { name: 'hook-a' }], [EXISTS, { name: 'hook-a' }], [CREATE, { input: minimal({ name: 'hook-z' }) }],
      [UPDATE, { name: 'hook-a', input: { timeout: 9 } }], [DELETE, { name: 'hook-a' }], [TEST, { name: 'hook-a' }]] as const) {
      const { body } = await svc.graphql(q, v, alice)
      expect(body.errors?.[0].extensions.errorKey).toBe('permissionDenied')
    }
    expect(await count()).toBe(1)
  })

  it('updates partially: null and absent keep, bounds still apply', async () => {
    const { body } = await svc.graphql(UPDATE, { name: 'hook-a', input: { timeout: 5, description: null, retry: { maxRetries: 3 }, headers: [{ name: 'X-Token', value: 'abc' }] } }, root)
    expect(body.errors).toBeUndefined()
    expect(body.data.updateWebhookConnection).toMatchObject({
      timeout: 5, effectiveSocketTimeoutSeconds: 5, method: 'POST', fullUrl: `${base}/ok`,
      retry: { maxRetries: 3, waitMs: 200, maxRetryAfterSeconds: 5, retryNonIdempotent: false }, headers: [{ name: 'X-Token', value: 'abc' }],
    })
    const bad = await svc.graphql(UPDATE, { name: 'hook-a', input: { bufferFullWaitMs: 5000 } }, root)
    expect(bad.body.errors?.[0].extensions.params.field).toBe('bufferFullWaitMs')
    expect((await svc.graphql(GET, { name: 'hook-a' }, root)).body.data.webhookConnection.bufferFullWaitMs).toBe(100)
    const missing = await svc.graphql(UPDATE, { name: 'nope', input: { timeout: 3 } }, root)
    expect(missing.body.errors?.[0].extensions.errorKey).toBe('resourceNotFound')
  })

  it('test sends one request with the method and headers and reports 200', async () => {
    await svc.graphql(UPDATE, { name: 'hook-a', input: { method: 'PUT', headers: [{ name: 'X-Token', value: 'abc' }, { name: 'X-Other', value: 'two' }] } }, root)
    received.length = 0
    const { body } = await svc.graphql(TEST, { name: 'hook-a' }, root)
    expect(body.errors).toBeUndefined()
    expect(body.data.testWebhookConnection).toMatchObject({ success: true, status: 200, error: null })
    expect(body.data.testWebhookConnection.latencyMs).toBeGreaterThanOrEqual(0)
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({ method: 'PUT', url: '/ok', headers: { 'x-token': 'abc', 'x-other': 'two' } })
  })

  it('test reports a 500 answer', async () => {
    await svc.graphql(CREATE, { input: minimal({ name: 'hook-fail', method: 'DELETE', fullUrl: `${base}/fail?x=1` }) }, root)
    received.length = 0
    const { body } = await svc.graphql(TEST, { name: 'hook-fail' }, root)
    expect(body.data.testWebhookConnection).toMatchObject({ success: false, status: 500 })
    expect(body.data.testWebhookConnection.error).toContain('500')
    expect(received).toMatchObject([{ method: 'DELETE', url: '/fail?x=1' }])
  })

  it('test gives up on a target that never answers', async () => {
    await svc.graphql(CREATE, { input: minimal({ name: 'hook-hang', timeout: 1, fullUrl: `${base}/hang` }) }, root)
    const { body } = await svc.graphql(TEST, { name: 'hook-hang' }, root)
    expect(body.data.testWebhookConnection).toMatchObject({ success: false, status: null })
    expect(body.data.testWebhookConnection.error).toMatch(/timeout/i)
    expect(body.data.testWebhookConnection.latencyMs).toBeGreaterThanOrEqual(900)
    expect(body.data.testWebhookConnection.latencyMs).toBeLessThan(3000)
  })

  it('a disabled connection refuses the test', async () => {
    await svc.graphql(UPDATE, { name: 'hook-fail', input: { enabled: false } }, root)
    const { body } = await svc.graphql(TEST, { name: 'hook-fail' }, root)
    expect(body.errors?.[0].extensions).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'webhook.disabled' } })
  })

  it('deletes', async () => {
    expect((await svc.graphql(DELETE, { name: 'hook-a' }, root)).body.data.deleteWebhookConnection).toBe(true)
    expect((await svc.graphql(DELETE, { name: 'hook-a' }, root)).body.errors?.[0].extensions.errorKey).toBe('resourceNotFound')
    expect((await svc.graphql(EXISTS, { name: 'hook-a' }, root)).body.data.webhookConnectionNameExists).toBe(false)
  })
})
