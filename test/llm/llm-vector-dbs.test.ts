import net from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectFailure, expectNoSecrets, legacyClient, startLlmService } from './llm-helpers.js'
import type { TestService } from '../support/app.js'
import { FakeEmbeddings } from '../support/fake-embeddings.js'
import { FakeWorker } from '../support/fake-worker.js'

// Vector store connections and their connection test (spec §2.11, §4.5); knowledge bases: llm-knowledge.test.ts
const VDB = '/apiops/projects/payments/vector-dbs'

// every response body of this file is scanned for these at the end
const VDB_KEY = 'SEEDED-vector-api-key-8888'
const VDB_PASSWORD = 'SEEDED-vector-password-9999'
/** the service's own database password in its environment: a connection test must never send it anywhere */
const SERVICE_PGPASSWORD = 'SEEDED-service-pgpassword-1010'

let svc: TestService
let worker: FakeWorker
/** stands in for an http vector store: a real loopback server that records requests and can demand a key */
let emb: FakeEmbeddings
/** a real PostgreSQL wire endpoint (without pgvector) for the jdbc family */
let pglite: PGlite
let pgServer: PGLiteSocketServer
let closedPort: number
let alice: string
let viewer: string
const { bodies, get, post, put } = legacyClient(() => svc, () => alice)

const httpVdb = (over: Record<string, unknown> = {}, transport: Record<string, unknown> = {}) => ({
  _class: 'vector-db', name: 'qdrant-1', dbType: 'QDRANT', defaultCollectionName: 'docs', embeddingDimension: 8, distanceMetric: 'COSINE',
  transport: { family: 'http', endpoint: `${emb.url}/qdrant`, authScheme: 'API_KEY_HEADER', authHeaderName: 'api-key', apiKey: VDB_KEY, ...transport },
  ...over,
})
const jdbcVdb = (over: Record<string, unknown> = {}, transport: Record<string, unknown> = {}) => ({
  _class: 'vector-db', name: 'pg-1', dbType: 'PGVECTOR', embeddingDimension: 8,
  transport: { family: 'jdbc', jdbcUrl: `jdbc:postgresql://${pgServer.getServerConn()}/postgres?sslmode=disable`, username: 'postgres', password: VDB_PASSWORD, connectTimeoutMs: 5000, ...transport },
  ...over,
})

/**
 * A PostgreSQL server (wire protocol) that asks for a cleartext password, records the login it was offered
 * and refuses it: what a hostile host named in a jdbcUrl would see.
 */
async function startPasswordProbe() {
  const seen: { user?: string; database?: string; password: string }[] = []
  const server = net.createServer((socket) => {
    let buf = Buffer.alloc(0)
    let startup: Record<string, string> | null = null
    socket.on('error', () => undefined)
    socket.on('data', (data) => {
      buf = Buffer.concat([buf, data])
      for (;;) {
        if (!startup) {
          if (buf.length < 8 || buf.length < buf.readInt32BE(0)) return
          const length = buf.readInt32BE(0)
          const code = buf.readInt32BE(4)
          const params = buf.subarray(8, length).toString('utf8').split('\0')
          buf = buf.subarray(length)
          if (code === 80877103) { socket.write('N'); continue } // SSLRequest: no TLS here
          startup = {}
          for (let i = 0; i + 1 < params.length; i += 2) if (params[i]) startup[params[i]] = params[i + 1]
          const askPassword = Buffer.alloc(9)
          askPassword.write('R', 0)
          askPassword.writeInt32BE(8, 1)
          askPassword.writeInt32BE(3, 5) // AuthenticationCleartextPassword
          socket.write(askPassword)
          continue
        }
        if (buf.length < 5 || buf.length < buf.readInt32BE(1) + 1) return
        const length = buf.readInt32BE(1)
        if (buf[0] === 0x70) { // PasswordMessage
          seen.push({ user: startup.user, database: startup.database, password: buf.subarray(5, length + 1).toString('utf8').replace(/\0$/, '') })
          const fields = Buffer.from('SFATAL\0C28P01\0Mpassword authentication failed\0\0')
          const error = Buffer.alloc(5)
          error.write('E', 0)
          error.writeInt32BE(4 + fields.length, 1)
          socket.end(Buffer.concat([error, fields]))
        }
        buf = buf.subarray(length + 1)
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as net.AddressInfo).port, seen, close: () => new Promise((r) => server.close(r)) }
}

beforeAll(async () => {
  worker = await FakeWorker.start()
  emb = await FakeEmbeddings.start()
  pglite = new PGlite()
  await pglite.waitReady
  pgServer = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0 })
  await pgServer.start()
  // a port nothing listens on: bind, read, release
  const probe = net.createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  closedPort = (probe.address() as net.AddressInfo).port
  await new Promise((r) => probe.close(r))
  svc = await startLlmService(worker.url)
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  viewer = await svc.tokenFor('vic', 'vic-pass-1')
})
afterEach(() => {
  worker.status = 200
  worker.received.length = 0
  emb.reset()
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
  await emb?.stop()
  await pgServer?.stop()
  await pglite?.close()
})

describe('vector store connections', () => {
  it('lists none, then creates an http store with its secret sealed and pushed', async () => {
    expect((await get(VDB + '/')).body).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
    const res = await post(`${VDB}/qdrant-1/`, httpVdb())
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(true)
    const view = (await get(`${VDB}/qdrant-1/`)).body.resultList[0]
    expect(view).toMatchObject({
      _class: 'vector-db', name: 'qdrant-1', dbType: 'QDRANT', defaultCollectionName: 'docs', embeddingDimension: 8, distanceMetric: 'COSINE',
      transport: { family: 'http', endpoint: `${emb.url}/qdrant`, authScheme: 'API_KEY_HEADER', authHeaderName: 'api-key', apiVersion: null, apiKeySet: true },
    })
    expect(view.transport).not.toHaveProperty('apiKey')
    const row = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'qdrant-1' } })
    expect(svc.deps.keyring.decrypt(row!.apiKeyCipher!)).toBe(VDB_KEY)
    expect(JSON.stringify(row!.transport)).not.toContain(VDB_KEY)
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'VECTOR_DB', name: 'qdrant-1' })
    expect((worker.received[0].config.transport as any).apiKey).toBe(VDB_KEY)
  })

  it('creates a jdbc store with a sealed password and a default connect timeout', async () => {
    const res = await post(`${VDB}/pg-1/`, jdbcVdb({}, { connectTimeoutMs: undefined }))
    expect(res.status).toBe(200)
    expect(res.body.resultList[0].transport).toEqual({
      family: 'jdbc', jdbcUrl: expect.stringMatching(/^jdbc:postgresql:/), username: 'postgres', connectTimeoutMs: 10000, passwordSet: true,
    })
  })

  it('keeps a stored secret on update when it is blank, rotates it otherwise, and drops it when the family changes', async () => {
    const before = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'pg-1' } })
    expect((await put(`${VDB}/pg-1/`, jdbcVdb({ name: '' }, { password: '' }))).status).toBe(200)
    expect((await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'pg-1' } }))!.passwordCipher).toBe(before!.passwordCipher)
    expect((await put(`${VDB}/pg-1/`, jdbcVdb({}, { password: 'not-seeded-new' }))).status).toBe(200)
    const rotated = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'pg-1' } })
    expect(svc.deps.keyring.decrypt(rotated!.passwordCipher!)).toBe('not-seeded-new')
    // switching to the http family does not carry the jdbc password over
    expect((await put(`${VDB}/pg-1/`, httpVdb({ name: 'pg-1' }, { apiKey: '' }))).status).toBe(200)
    const switched = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'pg-1' } })
    expect(switched).toMatchObject({ transportFamily: 'http', passwordCipher: null, apiKeyCipher: null })
    await put(`${VDB}/pg-1/`, jdbcVdb({}, { password: VDB_PASSWORD }))
  })

  it('refuses bad bodies naming the field, and writes nothing', async () => {
    const before = await svc.deps.prisma.vectorDb.count()
    const cases: [unknown, RegExp][] = [
      [{ ...httpVdb({ name: 'v2' }), _class: undefined }, /_class is required/],
      [httpVdb({ name: 'v2', _class: 'llm' }), /_class 'llm' is not supported/],
      [httpVdb({ name: 'v2', dbType: undefined }), /^dbType: is required, one of PGVECTOR, QDRANT/],
      [httpVdb({ name: 'v2', dbType: 'REDIS' }), /^dbType: is required, one of/],
      [httpVdb({ name: 'v2', transport: undefined }), /^transport: is required/],
      [httpVdb({ name: 'v2', transport: { family: 'grpc', endpoint: 'x' } }), /^transport\.family: family must be one of jdbc, http/],
      [httpVdb({ name: 'v2' }, { endpoint: 'ftp://x' }), /^transport\.endpoint: must be an http\(s\) URL/],
      [jdbcVdb({ name: 'v2' }, { jdbcUrl: 'postgresql://x' }), /^transport\.jdbcUrl: must be a JDBC URL/],
      [jdbcVdb({ name: 'v2' }, { jdbcUrl: undefined }), /^transport\.jdbcUrl: is required/],
      [httpVdb({ name: 'v2', embeddingDimension: 0 }), /^embeddingDimension: must be at least 1/],
      [httpVdb({ name: 'v2' }, { authHeaderName: 'X Api Key' }), /^transport\.authHeaderName: must be an HTTP header name/],
      [httpVdb({ name: 'v2', extra: true }), /^extra: unknown field/],
      [httpVdb({ name: 'other' }), /name 'other' does not match the name in the path 'v2'/],
      [httpVdb({ name: undefined }), /name is required/],
    ]
    for (const [body, message] of cases) expectFailure(await post(`${VDB}/v2/`, body), message)
    expectFailure(await put(`${VDB}/v3/`, httpVdb({ name: 'v3' })), /Vector store 'v3' not found in project 'payments'/)
    expectFailure(await post(`${VDB}/v2/`, httpVdb({ name: 'v2' }), viewer), /lacks permission AI_DEVELOPMENT MANAGE/)
    expect(await svc.deps.prisma.vectorDb.count()).toBe(before)
    expect(worker.received).toHaveLength(0)
  })
})

describe('POST …/vector-dbs/{name}/test-connection/', () => {
  const testConn = (name: string, body: unknown, token = alice) => post(`${VDB}/${name}/test-connection/`, body, token)

  it('http: makes a real request with the supplied auth and reports reachability and status', async () => {
    emb.requiredAuthorization = 'Bearer right-key'
    const ok = await testConn('qdrant-1', httpVdb({}, { authScheme: 'BEARER', authHeaderName: null, apiKey: 'right-key' }))
    expect(ok.status).toBe(200)
    expect(ok.body.status).toBe('SUCCESS')
    expect(ok.body.deploymentResult).toMatchObject({ success: true, reachable: true, statusCode: 200, message: expect.stringMatching(/Reached .* \(HTTP 200\)/), responseTime: expect.any(Number) })
    expect(emb.received.at(-1)).toMatchObject({ method: 'GET', url: '/qdrant' })
    const refused = await testConn('qdrant-1', httpVdb({}, { authScheme: 'BEARER', authHeaderName: null, apiKey: 'wrong-key' }))
    expect(refused.status).toBe(200)
    expect(refused.body.deploymentResult).toMatchObject({ success: false, reachable: true, statusCode: 401, message: expect.stringMatching(/HTTP 401 \(credentials refused\)/) })
  })

  it('http: sends the key in the named header for API_KEY_HEADER, and a bearer token in the named header for BEARER', async () => {
    await testConn('qdrant-1', httpVdb())
    expect(emb.received.at(-1)!.headers['api-key']).toBe(VDB_KEY)
    await testConn('qdrant-1', httpVdb({}, { authScheme: 'BEARER', authHeaderName: 'X-Token', apiKey: 'bearer-in-named-header' }))
    expect(emb.received.at(-1)!.headers).toMatchObject({ 'x-token': 'Bearer bearer-in-named-header' })
    expect(emb.received.at(-1)!.headers.authorization).toBeUndefined()
  })

  it('does not fill a blank secret from the stored connection', async () => {
    const res = await testConn('qdrant-1', httpVdb({}, { apiKey: '' }))
    expect(res.body.deploymentResult.success).toBe(true)
    expect(emb.received.at(-1)!.headers['api-key']).toBeUndefined()
    emb.requiredAuthorization = `Bearer ${VDB_KEY}`
    const noKey = await testConn('qdrant-1', httpVdb({}, { authScheme: 'BEARER', authHeaderName: null, apiKey: null }))
    expect(noKey.body.deploymentResult).toMatchObject({ success: false, statusCode: 401 })
  })

  it('http: reports an unreachable endpoint as a failed result, not an error', async () => {
    const res = await testConn('qdrant-1', httpVdb({}, { endpoint: `http://127.0.0.1:${closedPort}/` }))
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: false, reachable: false, statusCode: null, message: expect.stringMatching(/unreachable/) })
  })

  it('jdbc: opens a real PostgreSQL connection and reports the missing pgvector extension as a failure', async () => {
    const res = await testConn('pg-1', jdbcVdb())
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: false, reachable: true, extensionVersion: null, message: expect.stringMatching(/pgvector extension is missing/) })
  })

  it("jdbc: offers only the supplied login: a blank or omitted password stays blank, never the stored one nor the service's PGPASSWORD", async () => {
    const probe = await startPasswordProbe()
    const saved = process.env.PGPASSWORD
    process.env.PGPASSWORD = SERVICE_PGPASSWORD
    try {
      const jdbcUrl = `jdbc:postgresql://127.0.0.1:${probe.port}/vectors`
      const supplied = await testConn('pg-1', jdbcVdb({}, { jdbcUrl, username: 'kb', password: 'supplied-pw' }))
      expect(supplied.status).toBe(200)
      expect(supplied.body.deploymentResult).toMatchObject({ success: false, message: expect.stringMatching(/^Connection failed: password authentication failed/) })
      await testConn('pg-1', jdbcVdb({}, { jdbcUrl, username: 'kb', password: '' }))
      await testConn('pg-1', jdbcVdb({}, { jdbcUrl: `${jdbcUrl}?user=kb2`, username: null, password: undefined }))
      expect(probe.seen).toEqual([
        { user: 'kb', database: 'vectors', password: 'supplied-pw' },
        { user: 'kb', database: 'vectors', password: '' },
        { user: 'kb2', database: 'vectors', password: '' },
      ])
      // no user name supplied: refused before any connection (the service's own user is not offered either)
      const noUser = await testConn('pg-1', jdbcVdb({}, { jdbcUrl, username: '  ' }))
      expect(noUser.body.deploymentResult).toMatchObject({ success: false, reachable: false, message: 'A user name is needed: set username or user= in jdbcUrl' })
      expect(probe.seen).toHaveLength(3)
    } finally {
      if (saved === undefined) delete process.env.PGPASSWORD
      else process.env.PGPASSWORD = saved
      await probe.close()
    }
  })

  it('jdbc: reports a refused connection, an unsupported driver and a malformed URL as failed results', async () => {
    const refused = await testConn('pg-1', jdbcVdb({}, { jdbcUrl: `jdbc:postgresql://127.0.0.1:${closedPort}/x`, connectTimeoutMs: 2000 }))
    expect(refused.status).toBe(200)
    expect(refused.body.deploymentResult).toMatchObject({ success: false, reachable: false, message: expect.stringMatching(/^Connection failed/) })
    const mysql = await testConn('pg-1', jdbcVdb({}, { jdbcUrl: 'jdbc:mysql://127.0.0.1:3306/x' }))
    expect(mysql.body.deploymentResult).toMatchObject({ success: false, message: expect.stringMatching(/Only PostgreSQL JDBC URLs/) })
    const broken = await testConn('pg-1', jdbcVdb({}, { jdbcUrl: 'jdbc:postgresql://[bad' }))
    expect(broken.status).toBe(200)
    expect(broken.body.deploymentResult.success).toBe(false)
  })

  it('needs no stored connection, stores nothing, and pushes nothing', async () => {
    const before = await svc.deps.prisma.vectorDb.count()
    const res = await testConn('not-stored', httpVdb({ name: 'not-stored' }))
    expect(res.body.deploymentResult.success).toBe(true)
    expect(await svc.deps.prisma.vectorDb.count()).toBe(before)
    expect(worker.received).toHaveLength(0)
  })

  it('refuses an invalid body, a mismatching name and a caller without MANAGE with 400', async () => {
    expectFailure(await testConn('qdrant-1', httpVdb({ transport: undefined })), /^transport: is required/)
    expectFailure(await testConn('qdrant-1', { ...httpVdb(), _class: undefined }), /_class is required/)
    expectFailure(await testConn('qdrant-1', httpVdb({ dbType: undefined })), /^dbType: is required/)
    expectFailure(await testConn('qdrant-1', httpVdb({ name: 'zzz' })), /does not match/)
    expectFailure(await testConn('qdrant-1', httpVdb(), viewer), /lacks permission AI_DEVELOPMENT MANAGE/)
    expect(emb.received).toHaveLength(0)
  })
})

describe('secrets never leave the service', () => {
  it('no response body of this file carried a seeded secret', () => expectNoSecrets(bodies, [VDB_KEY, VDB_PASSWORD, SERVICE_PGPASSWORD], 20))
})
