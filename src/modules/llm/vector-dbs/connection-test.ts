import net from 'node:net'
import tls from 'node:tls'
import pg from 'pg'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import { authHeaders } from '../providers/auth-headers.js'
import { aiAccess, effectiveName, pathName, requireObjectBody } from '../common.js'
import { DEFAULT_CONNECT_TIMEOUT_MS, parseVectorDbBody, type TransportInput } from './service.js'

/**
 * The answer of a connection test, in the deployment-result shape: success and message always; what was
 * reached and how long it took. A failed test is a result, never an error of the call.
 */
export interface ConnectionTestResult {
  success: boolean
  message: string
  /** the vendor page's fields: always apimanager (the test runs here, not on a worker), and the message */
  envName: 'apimanager'
  detail: string
  responseTime: number
  /** whether the store answered at all (HTTP status received / TCP + login done) */
  reachable: boolean
  /** HTTP status for the http family */
  statusCode: number | null
  /** pgvector extension version for the jdbc family, when installed */
  extensionVersion: string | null
}

const result = (started: number, fields: Partial<ConnectionTestResult> & Pick<ConnectionTestResult, 'success' | 'message'>): ConnectionTestResult => ({
  reachable: false, statusCode: null, extensionVersion: null, ...fields, envName: 'apimanager', detail: fields.message, responseTime: Date.now() - started,
})

async function testHttp(t: Extract<TransportInput, { family: 'http' }>): Promise<ConnectionTestResult> {
  const started = Date.now()
  try {
    const res = await fetch(t.endpoint, { method: 'GET', headers: authHeaders(t.authScheme ?? 'BEARER', t.authHeaderName, t.apiKey) ?? {}, redirect: 'manual', signal: AbortSignal.timeout(DEFAULT_CONNECT_TIMEOUT_MS) })
    await res.arrayBuffer().catch(() => undefined)
    const ok = res.status < 400
    return result(started, {
      success: ok, reachable: true, statusCode: res.status,
      message: ok ? `Reached ${t.endpoint} (HTTP ${res.status})` : `${t.endpoint} answered HTTP ${res.status}${res.status === 401 || res.status === 403 ? ' (credentials refused)' : ''}`,
    })
  } catch (err) {
    const e = err as Error
    const why = e.name === 'TimeoutError' ? `no answer within ${DEFAULT_CONNECT_TIMEOUT_MS} ms` : ((e.cause as Error | undefined)?.message ?? e.message)
    return result(started, { success: false, message: `${t.endpoint} unreachable: ${why}` })
  }
}

/**
 * jdbc:postgresql://host:port/db?… → a pg connection config, or why it cannot be tested. Only the supplied
 * values are used: pg would fill a missing password from PGPASSWORD or ~/.pgpass and a missing user or
 * database from PGUSER/PGDATABASE, handing this service's own credentials to whatever host the URL names.
 */
function postgresTarget(t: Extract<TransportInput, { family: 'jdbc' }>): { config: pg.ClientConfig } | { refused: string } {
  const m = /^jdbc:(postgresql|pgvector):(.*)$/i.exec(t.jdbcUrl.trim())
  if (!m) return { refused: 'Only PostgreSQL JDBC URLs (jdbc:postgresql://…) can be tested; other drivers are not available here' }
  let url: URL
  try {
    url = new URL(`postgresql:${m[2]}`)
  } catch {
    return { refused: `jdbcUrl is not a valid PostgreSQL JDBC URL: ${t.jdbcUrl}` }
  }
  const q = url.searchParams
  const user = t.username?.trim() || q.get('user')?.trim()
  if (!user) return { refused: 'A user name is needed: set username or user= in jdbcUrl' }
  // a blank password stays blank (sent as such), never filled from anywhere
  const password = t.password ?? q.get('password') ?? ''
  const ssl = q.get('ssl') === 'true' || ['require', 'verify-ca', 'verify-full'].includes(q.get('sslmode') ?? '')
  return {
    config: {
      host: url.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
      port: url.port ? Number(url.port) : 5432,
      // as libpq: without a database name, the user's database
      database: decodeURIComponent(url.pathname.replace(/^\//, '')) || user,
      user,
      password: async () => password,
      ssl: ssl ? { rejectUnauthorized: q.get('sslmode') === 'verify-full' } : false,
      connectionTimeoutMillis: t.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    },
  }
}

async function testJdbc(t: Extract<TransportInput, { family: 'jdbc' }>): Promise<ConnectionTestResult> {
  const started = Date.now()
  const target = postgresTarget(t)
  if ('refused' in target) return result(started, { success: false, message: target.refused })
  const { config } = target
  const client = new pg.Client(config)
  client.on('error', () => undefined)
  try {
    await client.connect()
    // a server that cannot answer in time must not hold the call forever
    await client.query(`SET statement_timeout = ${Math.max(1, Math.floor(config.connectionTimeoutMillis ?? DEFAULT_CONNECT_TIMEOUT_MS))}`)
    const installed = await client.query<{ extversion: string }>(`SELECT extversion FROM pg_extension WHERE extname = 'vector'`)
    if (installed.rows[0]) {
      return result(started, { success: true, reachable: true, extensionVersion: installed.rows[0].extversion, message: `Connected; pgvector ${installed.rows[0].extversion} is installed` })
    }
    const available = await client.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'vector'`)
    return result(started, {
      success: false, reachable: true,
      message: available.rowCount
        ? `Connected, but the pgvector extension is missing in database '${config.database ?? ''}': run CREATE EXTENSION vector`
        : `Connected, but the pgvector extension is missing: it is not installed on this server`,
    })
  } catch (err) {
    return result(started, { success: false, message: `Connection failed: ${(err as Error).message}` })
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** RESP encoding of one command. */
const resp = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`

/**
 * The redis family: a real connection (TLS for rediss://), AUTH with exactly the supplied login when a
 * password is given (nothing is filled from storage), then PING; RediSearch is not probed.
 */
async function testRedis(t: Extract<TransportInput, { family: 'redis' }>): Promise<ConnectionTestResult> {
  const started = Date.now()
  const bare = !/^rediss?:\/\//i.test(t.uri)
  const url = new URL(bare ? `redis://${t.uri}` : t.uri)
  const secure = url.protocol === 'rediss:'
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = url.port ? Number(url.port) : 6379
  const username = t.username?.trim() || decodeURIComponent(url.username) || null
  const password = t.password ?? (url.password ? decodeURIComponent(url.password) : null)
  const timeout = t.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS
  const commands = [...(password ? [username ? resp('AUTH', username, password) : resp('AUTH', password)] : []), resp('PING')]
  return new Promise((resolve) => {
    let answered = ''
    let connected = false
    const socket: net.Socket = secure ? tls.connect({ host, port, servername: host }) : net.connect({ host, port })
    const finish = (r: ConnectionTestResult) => {
      socket.destroy()
      resolve(r)
    }
    socket.setTimeout(timeout, () => finish(result(started, { success: false, reachable: connected, message: `${host}:${port}: no answer within ${timeout} ms` })))
    socket.on('error', (err) => finish(result(started, { success: false, reachable: connected, message: `Connection failed: ${err.message}` })))
    socket.once(secure ? 'secureConnect' : 'connect', () => {
      connected = true
      socket.write(commands.join(''))
    })
    socket.on('data', (chunk) => {
      answered += chunk.toString('utf8')
      const lines = answered.split('\r\n').filter((l) => l !== '')
      const error = lines.find((l) => l.startsWith('-'))
      if (error) finish(result(started, { success: false, reachable: true, message: `Redis refused: ${error.slice(1)}` }))
      else if (lines.length >= commands.length) finish(result(started, { success: true, reachable: true, message: `Reached ${host}:${port} (PONG)` }))
    })
  })
}

/**
 * POST …/vector-dbs/{name}/test-connection/ (spec §2.11): tests exactly the supplied values, never loading
 * the stored connection, and a blank secret stays blank. The vector store need not exist.
 */
export async function testVectorDbConnection(deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown): Promise<ConnectionTestResult> {
  await aiAccess(deps, actor, projectName, 'MANAGE')
  const name = pathName(rawPathName)
  const body = requireObjectBody(raw)
  effectiveName(body.name, name, false)
  const input = parseVectorDbBody(body)
  const t = input.transport
  return t.family === 'jdbc' ? testJdbc(t) : t.family === 'redis' ? testRedis(t) : testHttp(t)
}
