// Issue 11 §5: every operation of the OpenAPI document, sent bad input of every kind with an administrator's
// token, answers below 500 in its surface's envelope, and the database is unchanged afterwards.
// The operations are dealt into parts, one test file each (fuzz-openapi-N.test.ts), so that the suite's two
// workers share the ~5,300 requests instead of one worker sending them all.
import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REQUEST_LIMITS } from '../../src/platform/http/input-guards.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { badRequestsOf, operationsOf, type FuzzRequest, type Operation, type Style } from '../support/fuzz-inputs.js'
import { databaseDigest } from '../support/database-digest.js'

let svc: TestService
let root: string
let operations: Operation[]

/** Defines the file's tests: part `part` (0-based) of `parts` of the operations, dealt round-robin. */
export function fuzzOperations(part: number, parts: number) {
  beforeAll(async () => {
    svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
    root = await svc.tokenFor('root', 's3cret-root')
    const all = operationsOf((await (await svc.http('/apiops/openapi.json')).json()) as Parameters<typeof operationsOf>[0])
    expect(all.length).toBeGreaterThan(150)
    operations = all.filter((_op, i) => i % parts === part)
  })
  afterAll(async () => svc?.close())
  defineTests(`part ${part + 1} of ${parts}`)
}

interface Answer { request: FuzzRequest; status: number; body: unknown; contentType: string }

async function send(request: FuzzRequest): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${root}`, 'idempotency-key': 'fuzz-key' }
  if (request.body?.contentType) headers['content-type'] = request.body.contentType
  const res = await svc.http(request.url, { method: request.op.method, headers, body: request.body?.payload })
  const text = await res.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // kept as text: the envelope check reports it
  }
  return { request, status: res.status, body, contentType: res.headers.get('content-type') ?? '' }
}

/** Sends in small parallel batches on the one instance. */
async function sendAll(requests: FuzzRequest[], parallel = 16): Promise<Answer[]> {
  const answers: Answer[] = []
  for (let i = 0; i < requests.length; i += parallel) answers.push(...(await Promise.all(requests.slice(i, i + parallel).map(send))))
  return answers
}

const inEnvelope = (style: Style, status: number, body: any): boolean => {
  if (status < 400) return true
  if (typeof body !== 'object' || body === null) return false
  if (style === 'legacy') return body.status === 'FAILURE' && typeof body.resultMessage === 'string'
  if (style === 'oauth') return typeof body.error === 'string'
  return typeof body.errorKey === 'string' && typeof body.correlationId === 'string'
}

/** The surface's envelope of an answer: an unmatched path falls to the app's 404 (legacy under /apiops). */
const expectedStyle = (a: Answer): Style => a.request.op.style

const describeAnswer = (a: Answer) => `${a.request.op.method} ${a.request.op.path} [${a.request.label}] → ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`

/** A body declared larger than the limit: refused from Content-Length before it is read. */
function sendDeclaredOversize(op: Operation): Promise<{ status: number; body: any }> {
  const url = new URL(svc.url + op.path.replace(/\{(\w+)\}/g, (_m, n: string) => (n === 'projectName' ? 'payments' : `fuzz-${n}`)))
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: op.method,
      headers: {
        authorization: `Bearer ${root}`,
        'content-type': op.body!.mediaType === 'multipart/form-data' ? 'multipart/form-data; boundary=x' : op.body!.mediaType,
        // above every limit, the largest upload's included
        'content-length': String(4 * 1024 ** 3),
      },
    })
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        req.destroy()
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') })
      })
    })
    req.on('error', (err) => (err.message.includes('socket hang up') || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)))
    req.write('{')
  })
}

const defineTests = (which: string) => describe(`bad input on every operation of the OpenAPI document (issue 11 §5), ${which}`, () => {
  it('never answers 5xx, always in the surface envelope, and writes nothing', async () => {
    expect(operations.length).toBeGreaterThan(50)
    const before = await databaseDigest(svc)
    const requests = operations.flatMap(badRequestsOf)
    const answers = await sendAll(requests)

    const serverErrors = answers.filter((a) => a.status >= 500).map(describeAnswer)
    const outOfEnvelope = answers.filter((a) => !inEnvelope(expectedStyle(a), a.status, a.body)).map(describeAnswer)
    const acceptedWrites = answers.filter((a) => a.status < 300 && a.request.op.method !== 'GET').map(describeAnswer)
    console.info(`fuzz: ${requests.length} requests over ${operations.length} operations`)
    expect(serverErrors).toEqual([])
    expect(outOfEnvelope).toEqual([])
    expect(acceptedWrites).toEqual([])
    expect(await databaseDigest(svc)).toEqual(before)
  }, 600_000)

  it('answers 413 in the envelope of its surface to a body over the limit, before reading it', async () => {
    const before = await databaseDigest(svc)
    const withBody = operations.filter((op) => op.body)
    for (const op of withBody) {
      const { status, body } = await sendDeclaredOversize(op)
      const label = `${op.method} ${op.path} → ${status} ${JSON.stringify(body)}`
      expect(status, label).toBe(413)
      expect(inEnvelope(op.style, status, body), label).toBe(true)
      if (op.style === 'common') expect(body.params, label).toMatchObject({ reason: 'bodyTooLarge' })
      if (op.body!.mediaType === 'application/json' && op.style === 'common') expect(body.params.limitBytes, label).toBe(REQUEST_LIMITS.jsonBodyBytes)
    }
    expect(await databaseDigest(svc)).toEqual(before)
  }, 300_000)
})
