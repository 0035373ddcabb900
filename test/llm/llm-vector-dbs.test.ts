import net from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { expectFailure, expectNoSecrets, legacyClient, startLlmService } from './llm-helpers.js'
import type { TestService } from '../support/app.js'
import { FakeEmbeddings } from '../support/fake-embeddings.js'
import { FakeWorker } from '../support/fake-worker.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'
import vendorExamples from '../openapi/vendor-examples.json' with { type: 'json' }

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
      family: 'jdbc', jdbcUrl: expect.stringMatching(/^jdbc:postgresql:/), username: 'postgres', connectTimeoutMs: 10000, requestTimeoutMs: null, pool: null, passwordSet: true,
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
      // spec §2.11: the eight vendor constants; ELASTICSEARCH was an early guess of ours
      [httpVdb({ name: 'v2', dbType: 'ELASTICSEARCH' }), /^dbType: is required, one of PGVECTOR, QDRANT, WEAVIATE, MILVUS, CHROMA, PINECONE, REDIS, OTHER$/],
      // the family must be the one the store type is reached with
      [httpVdb({ name: 'v2', dbType: 'PGVECTOR' }), /^transport\.family: dbType PGVECTOR is reached with the jdbc family, not http$/],
      [jdbcVdb({ name: 'v2', dbType: 'REDIS' }), /^transport\.family: dbType REDIS is reached with the redis family, not jdbc$/],
      [httpVdb({ name: 'v2', transport: { family: 'redis', uri: 'ftp://x' } , dbType: 'REDIS' }), /^transport\.uri: must be a redis:\/\/ or rediss:\/\/ URI, or host:port$/],
      [httpVdb({ name: 'v2', transport: { family: 'redis' }, dbType: 'REDIS' }), /^transport\.uri: is required/],
      [httpVdb({ name: 'v2' }, { requestTimeoutMs: 0 }), /^transport\.requestTimeoutMs: must be at least 1/],
      [jdbcVdb({ name: 'v2' }, { pool: { maximumPoolSize: 0 } }), /^transport\.pool\.maximumPoolSize: must be at least 1/],
      [jdbcVdb({ name: 'v2' }, { pool: { size: 3 } }), /^transport\.pool\.size: unknown field/],
      [httpVdb({ name: 'v2', maxBatchSize: 0 }), /^maxBatchSize: must be at least 1/],
      [httpVdb({ name: 'v2', enabled: 'yes' }), /^enabled: must be a boolean/],
      [httpVdb({ name: 'v2', transport: undefined }), /^transport: is required/],
      [httpVdb({ name: 'v2', transport: { family: 'grpc', endpoint: 'x' } }), /^transport\.family: family must be one of jdbc, http, redis/],
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

/** The newest vendor page's example body (api-reference/vector-dbs), deep-copied. */
const pageExample = (page: string, index: number): any =>
  structuredClone((vendorExamples as VendorExample[]).find((e) => e.page === `api-reference/vector-dbs/${page}.mdx` && e.index === index)!.body)

/** A Redis stand-in (RESP): AUTH with the expected login answers +OK, else -WRONGPASS; PING answers +PONG. */
async function startFakeRedis(expected: { username: string; password: string }) {
  const seen: string[][] = []
  const server = net.createServer((socket) => {
    let buf = ''
    socket.on('error', () => undefined)
    socket.on('data', (d) => {
      buf += d.toString('utf8')
      for (;;) {
        const m = /^\*(\d+)\r\n/.exec(buf)
        if (!m) return
        let rest = buf.slice(m[0].length)
        const args: string[] = []
        for (let i = 0; i < Number(m[1]); i++) {
          const h = /^\$(\d+)\r\n/.exec(rest)
          if (!h || rest.length < h[0].length + Number(h[1]) + 2) return
          args.push(rest.slice(h[0].length, h[0].length + Number(h[1])))
          rest = rest.slice(h[0].length + Number(h[1]) + 2)
        }
        buf = rest
        seen.push(args)
        if (args[0] === 'AUTH') socket.write(args[1] === expected.username && args[2] === expected.password ? '+OK\r\n' : '-WRONGPASS invalid username-password pair\r\n')
        else if (args[0] === 'PING') socket.write('+PONG\r\n')
        else socket.write('-ERR unknown command\r\n')
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as net.AddressInfo).port, seen, close: () => new Promise((r) => server.close(r)) }
}

describe("the vendor page's examples (api-reference/vector-dbs, issue 32 §0)", () => {
  const audits = (objectName: string) => svc.deps.prisma.auditEvent.findMany({ where: { objectName }, orderBy: { id: 'asc' } })

  it('create #0 (jdbc, pgvector): accepted, stored with its timeouts and pool, read back with the read page\'s fields, audited, pushed', async () => {
    const body = pageExample('create-vector-db', 0)
    const res = await post(`${VDB}/pgvector-primary/`, body)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    const view = (await get(`${VDB}/pgvector-primary/`)).body.resultList[0]
    // the read page's example (get-vector-db.mdx), field for field but the ids
    expect(view).toMatchObject({
      projectName: 'payments', name: 'pgvector-primary', description: 'Primary pgvector store for RAG', enabled: true, dbType: 'PGVECTOR', family: 'jdbc',
      connectTimeoutMs: 5000, requestTimeoutMs: 30000, jdbcUrl: 'jdbc:postgresql://db.internal:5432/vectors', jdbcUsername: 'apinizer', jdbcPasswordSet: true,
      poolMinimumIdle: 2, poolMaximumPoolSize: 5, poolConnectionTimeoutMs: 30000, poolIdleTimeoutMs: 600000, poolMaxLifetimeMs: 1800000,
      defaultCollectionName: 'documents', embeddingDimension: 1536, distanceMetric: 'COSINE', maxBatchSize: 100, builtIn: false,
      transport: { family: 'jdbc', connectTimeoutMs: 5000, requestTimeoutMs: 30000, pool: body.transport.pool, passwordSet: true },
    })
    expect(typeof view.id).toBe('string')
    expect(typeof view.projectId).toBe('string')
    // fields of the other families are omitted
    for (const f of ['endpoint', 'apiKeySet', 'apiSecretSet', 'regionCode', 'redisUri', 'redisPasswordSet']) expect(view).not.toHaveProperty(f)
    const row = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'pgvector-primary' } })
    expect(svc.deps.keyring.decrypt(row!.passwordCipher!)).toBe('s3cr3t-db-pass')
    expect(JSON.stringify(row!.transport)).not.toContain('s3cr3t-db-pass')
    expect(worker.received).toHaveLength(1)
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'VECTOR_DB', name: 'pgvector-primary', config: { maxBatchSize: 100, transport: { password: 's3cr3t-db-pass', requestTimeoutMs: 30000 } } })
    expect(await audits('pgvector-primary')).toEqual([expect.objectContaining({ operation: expect.stringMatching(/^POST /), outcome: 'SUCCEEDED', actor: 'alice' })])
  })

  it('create #1 (http, qdrant): regionCode and timeouts stored, flat http fields read', async () => {
    expect((await post(`${VDB}/qdrant-cloud/`, pageExample('create-vector-db', 1))).body.deploymentResult.success).toBe(true)
    const view = (await get(`${VDB}/qdrant-cloud/`)).body.resultList[0]
    expect(view).toMatchObject({
      family: 'http', connectTimeoutMs: 5000, requestTimeoutMs: 30000, endpoint: 'https://xyz.eu-central.aws.cloud.qdrant.io:6333', apiVersion: 'v1',
      authScheme: 'API_KEY_HEADER', authHeaderName: 'api-key', apiKeySet: true, apiSecretSet: false, regionCode: 'eu-central', maxBatchSize: 100,
    })
    for (const f of ['jdbcUrl', 'jdbcPasswordSet', 'poolMinimumIdle', 'redisUri']) expect(view).not.toHaveProperty(f)
    expect(worker.received[0].config.transport).toMatchObject({ apiKey: 'qdrant-api-key-value', apiSecret: null, regionCode: 'eu-central' })
  })

  it('create #2 (redis, REDIS): the redis family, its password sealed, flat redis fields read', async () => {
    expect((await post(`${VDB}/redis-search/`, pageExample('create-vector-db', 2))).body.deploymentResult.success).toBe(true)
    const view = (await get(`${VDB}/redis-search/`)).body.resultList[0]
    expect(view).toMatchObject({
      dbType: 'REDIS', family: 'redis', connectTimeoutMs: 5000, requestTimeoutMs: 30000, redisUri: 'rediss://redis.internal:6379', redisUsername: 'default',
      redisPasswordSet: true, defaultCollectionName: 'doc_idx', transport: { family: 'redis', uri: 'rediss://redis.internal:6379', username: 'default', passwordSet: true },
    })
    const row = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'redis-search' } })
    expect(svc.deps.keyring.decrypt(row!.passwordCipher!)).toBe('redis-auth-pass')
    expect(worker.received[0]).toMatchObject({ kind: 'VECTOR_DB', name: 'redis-search', config: { transport: { family: 'redis', password: 'redis-auth-pass' } } })
    // the list carries the same flattened fields
    expect((await get(`${VDB}/`)).body.resultList.find((v: any) => v.name === 'redis-search')).toMatchObject({ family: 'redis', redisPasswordSet: true })
  })

  it('omitted distanceMetric and maxBatchSize are filled (COSINE, 100); enabled false is kept', async () => {
    const body = pageExample('create-vector-db', 2)
    delete body.distanceMetric
    delete body.maxBatchSize
    Object.assign(body, { name: 'redis-defaults', enabled: false })
    expect((await post(`${VDB}/redis-defaults/`, body)).status).toBe(200)
    expect((await get(`${VDB}/redis-defaults/`)).body.resultList[0]).toMatchObject({ enabled: false, distanceMetric: 'COSINE', maxBatchSize: 100 })
  })

  it('update #0 keeps the stored password when blank and replaces the pool; update #1 rotates the apiKey; both pushed and audited', async () => {
    const before = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'pgvector-primary' } })
    const res = await put(`${VDB}/pgvector-primary/`, pageExample('update-vector-db', 0))
    expect(res.status).toBe(200)
    const after = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'pgvector-primary' } })
    expect(after!.passwordCipher).toBe(before!.passwordCipher)
    expect((await get(`${VDB}/pgvector-primary/`)).body.resultList[0]).toMatchObject({
      description: 'Primary pgvector store for RAG (updated)', jdbcPasswordSet: true, poolMinimumIdle: 2, poolMaximumPoolSize: 10, poolConnectionTimeoutMs: null,
    })
    expect((await put(`${VDB}/qdrant-cloud/`, pageExample('update-vector-db', 1))).status).toBe(200)
    const rotated = await svc.deps.prisma.vectorDb.findFirst({ where: { name: 'qdrant-cloud' } })
    expect(svc.deps.keyring.decrypt(rotated!.apiKeyCipher!)).toBe('new-rotated-qdrant-key')
    expect(worker.received.map((m) => m.name)).toEqual(['pgvector-primary', 'qdrant-cloud'])
    expect((await audits('qdrant-cloud')).map((a) => a.operation)).toEqual([expect.stringMatching(/^POST /), expect.stringMatching(/^PUT /)])
  })

  it('test-connection #0 and #1 are accepted as bodies (addresses pointed at local stand-ins); nothing stored or pushed', async () => {
    const before = await svc.deps.prisma.vectorDb.count()
    const jdbc = pageExample('test-vector-db-connection', 0)
    jdbc.transport.jdbcUrl = `jdbc:postgresql://127.0.0.1:${closedPort}/vectors`
    const a = await post(`${VDB}/pgvector-primary/test-connection/`, jdbc)
    expect(a.status).toBe(200)
    expect(a.body.deploymentResult).toMatchObject({ success: false, envName: 'apimanager', detail: expect.stringMatching(/^Connection failed/) })
    const http = pageExample('test-vector-db-connection', 1)
    http.transport.endpoint = `${emb.url}/qdrant`
    const b = await post(`${VDB}/qdrant-cloud/test-connection/`, http)
    expect(b.body.deploymentResult).toMatchObject({ success: true, envName: 'apimanager', detail: expect.stringMatching(/^Reached /) })
    expect(emb.received.at(-1)!.headers['api-key']).toBe('qdrant-api-key-value')
    expect(await svc.deps.prisma.vectorDb.count()).toBe(before)
    expect(worker.received).toHaveLength(0)
  })

  it('test-connection of the redis family: AUTH with the supplied login, then PING; a refused login is a failed result', async () => {
    const redis = await startFakeRedis({ username: 'default', password: 'redis-auth-pass' })
    try {
      const body = pageExample('create-vector-db', 2)
      body.transport.uri = `redis://127.0.0.1:${redis.port}`
      const ok = await post(`${VDB}/redis-search/test-connection/`, body)
      expect(ok.body.deploymentResult).toMatchObject({ success: true, reachable: true, envName: 'apimanager', message: `Reached 127.0.0.1:${redis.port} (PONG)` })
      expect(redis.seen).toEqual([['AUTH', 'default', 'redis-auth-pass'], ['PING']])
      body.transport.password = 'wrong'
      const refused = await post(`${VDB}/redis-search/test-connection/`, body)
      expect(refused.status).toBe(200)
      expect(refused.body.deploymentResult).toMatchObject({ success: false, reachable: true, message: 'Redis refused: WRONGPASS invalid username-password pair' })
      body.transport.uri = `127.0.0.1:${closedPort}`
      const closed = await post(`${VDB}/redis-search/test-connection/`, body)
      expect(closed.body.deploymentResult).toMatchObject({ success: false, reachable: false, message: expect.stringMatching(/^Connection failed/) })
    } finally {
      await redis.close()
    }
  })

  it("the pages' refusals: a name not matching the path, and an update of a store that does not exist; nothing written or pushed", async () => {
    const before = await svc.deps.prisma.vectorDb.count()
    const succeeded = () => svc.deps.prisma.auditEvent.count({ where: { outcome: 'SUCCEEDED' } })
    const auditsBefore = await succeeded()
    expectFailure(await post(`${VDB}/pgvector-2/`, pageExample('create-vector-db', 0)), /name 'pgvector-primary' does not match the name in the path 'pgvector-2'/)
    const missing = pageExample('update-vector-db', 1)
    missing.name = 'qdrant-missing'
    expectFailure(await put(`${VDB}/qdrant-missing/`, missing), /Vector store 'qdrant-missing' not found in project 'payments'/)
    expect(await svc.deps.prisma.vectorDb.count()).toBe(before)
    expect(worker.received).toHaveLength(0)
    expect(await succeeded()).toBe(auditsBefore)
  })
})

describe('secrets never leave the service', () => {
  it('no response body of this file carried a seeded secret', () => expectNoSecrets(bodies, [VDB_KEY, VDB_PASSWORD, SERVICE_PGPASSWORD], 20))
})
