// Issue 20: an oversized multipart upload gets its 413 (or the documented 400) in the route's envelope, read by
// the client, then a graceful close (Connection: close, the rest discarded within bounds); nothing is written.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { routeTables } from '../../src/routes.js'
import { multipartLimits } from '../../src/platform/http/router.js'
import { REQUEST_LIMITS } from '../../src/platform/http/input-guards.js'
import { GRAPHQL_UPLOAD_LIMITS } from '../../src/platform/graphql/upload.js'
import type { RouteDef } from '../../src/platform/http/routes.js'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { multipartParts, multipartType, streamUpload, type StreamedAnswer } from '../support/streaming-upload.js'
import { databaseDigest } from '../support/database-digest.js'

const MiB = 1024 * 1024
let svc: TestService
let root: string
let digestBefore: Record<string, string>

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  digestBefore = await databaseDigest(svc)
})
afterAll(async () => svc?.close())

type MultipartRoute = RouteDef & { body: { kind: 'multipart'; files: string[]; maxFileBytes: number } }
/** every multipart route of the REST door, from the route tables: a new one is covered without a change here */
const multipartRoutes = routeTables.filter((r): r is MultipartRoute => r.body?.kind === 'multipart')
const urlOf = (route: RouteDef) => route.path.replace(/:projectName/g, 'payments').replace(/:(\w+)/g, 'limit-probe')
const auth = () => ({ authorization: `Bearer ${root}` })

/** The refusal in the route's envelope: legacy FAILURE naming the limit, or Common Contract malformedRequest. */
function expectRefusal(route: RouteDef, answer: StreamedAnswer, status: number, message: RegExp, params: Record<string, unknown>) {
  const label = `${route.method.toUpperCase()} ${route.path}`
  expect(answer.status, label).toBe(status)
  expect(answer.headers.connection, label).toBe('close')
  if (route.style === 'legacy') {
    expect(answer.body, label).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
  } else {
    expect(answer.body, label).toEqual({ errorKey: 'malformedRequest', message: expect.stringMatching(message), params, correlationId: expect.any(String) })
  }
}

/**
 * Within the lingering bound the client meets no reset while it still sends (Node's client itself stops sending
 * once it has read a `Connection: close` answer); beyond the bound, a cut comes only after the answer was read.
 */
function expectGracefulClose(answer: StreamedAnswer, total: number) {
  if (total <= REQUEST_LIMITS.lingerBytes) {
    expect(answer.clientError).toBeUndefined()
  } else if (answer.clientError) {
    expect(answer.answeredBeforeError).toBe(true)
  }
}

const send = (route: RouteDef, parts: (Buffer | number)[], extra: { declareLength?: boolean; contentLength?: number } = {}) =>
  streamUpload(svc.url, urlOf(route), { method: route.method.toUpperCase(), headers: { ...auth(), 'content-type': multipartType(), 'idempotency-key': 'limits' }, parts, ...extra })
const totalOf = (parts: (Buffer | number)[]) => parts.reduce<number>((n, p) => n + (typeof p === 'number' ? p : p.length), 0)

describe('every multipart route of the REST door', () => {
  it('finds the multipart routes in the route tables', () => {
    expect(multipartRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining(['post /apiops/projects/:projectName/knowledge-bases/:kbName/documents/', 'post /apiops/projects/:projectName/apiProxies/file/', 'put /apiops/settings/geolocation/mmdb']),
    )
  })

  for (const route of multipartRoutes) {
    const limits = multipartLimits(route.body)
    const fileName = route.body.files[0]!

    it(`${route.method.toUpperCase()} ${route.path}: a body declared over ${limits.maxBodyBytes} bytes gets 413 bodyTooLarge before it is read`, async () => {
      const parts = multipartParts([{ name: fileName, fileName: 'big.bin', content: limits.maxBodyBytes + 16 * MiB }])
      const answer = await send(route, parts, { declareLength: true })
      expectRefusal(route, answer, 413, new RegExp(`^Request body is larger than ${limits.maxBodyBytes} bytes$`), { reason: 'bodyTooLarge', limitBytes: limits.maxBodyBytes })
      expectGracefulClose(answer, totalOf(parts))
    })

    it(`${route.method.toUpperCase()} ${route.path}: a file part over ${route.body.maxFileBytes} bytes, sent chunked, gets 413 fileTooLarge`, async () => {
      const parts = multipartParts([{ name: fileName, fileName: 'big.bin', content: route.body.maxFileBytes + 8 * MiB }])
      const answer = await send(route, parts)
      expectRefusal(route, answer, 413, new RegExp(`^Part '${fileName}' is larger than ${route.body.maxFileBytes} bytes$`), { field: fileName, reason: 'fileTooLarge', limitBytes: route.body.maxFileBytes })
      expectGracefulClose(answer, totalOf(parts))
    })

    it(`${route.method.toUpperCase()} ${route.path}: a text part of 4 MiB gets 400 fieldTooLong without waiting for its end`, async () => {
      const parts = multipartParts([{ name: 'metadata', content: 4 * MiB }])
      const answer = await send(route, parts)
      expectRefusal(route, answer, 400, /is longer than 65536 bytes$/, { reason: 'fieldTooLong', limitBytes: REQUEST_LIMITS.multipartFieldBytes })
      expectGracefulClose(answer, totalOf(parts))
    })

    // a whole body over its bound without Content-Length takes more than all file parts at their bound: sent
    // where that stays small (the geolocation and package routes would need hundreds of MiB in memory)
    if (route.body.maxFileBytes <= 16 * MiB) {
      it(`${route.method.toUpperCase()} ${route.path}: file parts within their bound but over ${limits.maxBodyBytes} bytes together, sent chunked, get 413 bodyTooLarge`, async () => {
        // the whole-body bound has a fixed overhead over the files' bounds: enough file parts (at most the parser's
        // 5) to pass it, topped up with text fields within their own bound where small files cannot
        const fileSize = route.body.maxFileBytes - 1024
        const fileCount = Math.min(5, Math.floor(limits.maxBodyBytes / fileSize) + 1)
        const fieldSize = 60 * 1024
        const fieldCount = Math.max(0, Math.ceil((limits.maxBodyBytes + 1 - fileCount * fileSize) / fieldSize))
        const parts = multipartParts([
          ...Array.from({ length: fileCount }, (_, i) => ({ name: `part${i}`, fileName: `p${i}.bin`, content: fileSize })),
          ...Array.from({ length: fieldCount }, (_, i) => ({ name: `field${i}`, content: fieldSize })),
        ])
        const answer = await send(route, parts)
        expectRefusal(route, answer, 413, new RegExp(`^Request body is larger than ${limits.maxBodyBytes} bytes$`), { reason: 'bodyTooLarge', limitBytes: limits.maxBodyBytes })
        expectGracefulClose(answer, totalOf(parts))
      })
    }
  }
})

describe('a client that writes its whole body before reading', () => {
  it('reads the 413 after sending 16 MiB to the knowledge-base documents route, asking to close the connection', async () => {
    const boundary = 'raw-boundary'
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`)
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
    const size = 16 * MiB
    const socket = net.connect(svc.port, '127.0.0.1')
    socket.setTimeout(20_000, () => socket.destroy(new Error('no answer within 20 s')))
    const received: Buffer[] = []
    socket.on('data', (c: Buffer) => received.push(c))
    const ended = new Promise<string | null>((resolve) => {
      socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
      socket.on('close', () => resolve(null))
    })
    socket.write(
      `POST /apiops/projects/payments/knowledge-bases/kb/documents/ HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${root}\r\nConnection: close\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    )
    const chunk = Buffer.alloc(64 * 1024, 'x')
    const frame = (b: Buffer) => Buffer.concat([Buffer.from(`${b.length.toString(16)}\r\n`), b, Buffer.from('\r\n')])
    socket.write(frame(head))
    for (let sent = 0; sent < size; sent += chunk.length) if (!socket.write(frame(chunk))) await new Promise((r) => socket.once('drain', r))
    socket.write(frame(tail))
    socket.write('0\r\n\r\n')
    expect(await ended).toBeNull()
    const text = Buffer.concat(received).toString('utf8')
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expect(text.toLowerCase()).toContain('connection: close')
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ status: 'FAILURE', resultMessage: `Part 'file' is larger than ${10 * MiB} bytes` })
  })
})

describe('GraphQL multipart uploads (/graphql)', () => {
  const gql = (operations: unknown, files: { field: string; path: string; size: number }[], extra: { declareLength?: boolean; operationsText?: string } = {}) => {
    const map = Object.fromEntries(files.map((f) => [f.field, [f.path]]))
    const parts = multipartParts([
      { name: 'operations', content: extra.operationsText ?? JSON.stringify(operations) },
      { name: 'map', content: JSON.stringify(map) },
      ...files.map((f) => ({ name: f.field, fileName: `${f.field}.bin`, content: f.size })),
    ])
    return streamUpload(svc.url, '/graphql', { method: 'POST', headers: { ...auth(), 'content-type': multipartType(), 'apollo-require-preflight': 'true' }, parts, declareLength: extra.declareLength })
  }
  const refusalOf = (answer: StreamedAnswer) => answer.body.errors?.[0]?.extensions

  it('refuses a 16 MiB document upload (bound 10 MiB) with 413 fileTooLarge, read by the client', async () => {
    const query = 'mutation ($f: Upload) { uploadKnowledgeDocument(projectName: "payments", knowledgeBase: "kb", file: $f) { document { id } } }'
    const answer = await gql({ query, variables: { f: null } }, [{ field: '0', path: 'variables.f', size: 16 * MiB }])
    expect(answer.status, JSON.stringify(answer.body)).toBe(413)
    expect(answer.headers.connection).toBe('close')
    expect(refusalOf(answer)).toMatchObject({ code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params: { field: 'file', reason: 'fileTooLarge', limitBytes: 10 * MiB } })
    expect(answer.clientError).toBeUndefined()
  })

  it(`refuses a package upload over ${GRAPHQL_UPLOAD_LIMITS.maxFileBytes} bytes with 413 fileTooLarge`, async () => {
    const query = 'mutation ($f: Upload!) { transferImportPreflight(projectName: "payments", type: "credential", exportFile: $f) { type } }'
    const answer = await gql({ query, variables: { f: null } }, [{ field: '0', path: 'variables.f', size: GRAPHQL_UPLOAD_LIMITS.maxFileBytes + 4 * MiB }])
    expect(answer.status).toBe(413)
    expect(answer.headers.connection).toBe('close')
    expect(refusalOf(answer)).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'exportFile', reason: 'fileTooLarge', limitBytes: GRAPHQL_UPLOAD_LIMITS.maxFileBytes } })
    expect(answer.clientError).toBeUndefined()
  })

  it('refuses an operations field over 1 MiB with 413 in the GraphQL error format', async () => {
    const answer = await gql(null, [], { operationsText: `{"query":"${'x'.repeat(4 * MiB)}"}` })
    expect(answer.status).toBe(413)
    expect(answer.headers.connection).toBe('close')
    expect(refusalOf(answer)).toMatchObject({ code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params: { reason: 'bodyTooLarge' }, correlationId: expect.any(String) })
    expect(answer.clientError).toBeUndefined()
  })

  it('refuses a body declared over all files at their bound with 413 before reading it', async () => {
    const limit = GRAPHQL_UPLOAD_LIMITS.maxFiles * GRAPHQL_UPLOAD_LIMITS.maxFileBytes + REQUEST_LIMITS.multipartOverheadBytes
    const query = 'mutation ($f: Upload) { uploadKnowledgeDocument(projectName: "payments", knowledgeBase: "kb", file: $f) { document { id } } }'
    const answer = await gql({ query, variables: { f: null } }, [{ field: '0', path: 'variables.f', size: limit + MiB }], { declareLength: true })
    expect(answer.status).toBe(413)
    expect(answer.headers.connection).toBe('close')
    expect(refusalOf(answer)).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'bodyTooLarge', limitBytes: limit } })
  })
})

describe('after every refusal', () => {
  it('nothing was written, and the service still answers', async () => {
    expect(await databaseDigest(svc)).toEqual(digestBefore)
    expect((await svc.http('/healthz')).status).toBe(200)
  })
})
