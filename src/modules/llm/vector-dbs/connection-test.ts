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
  responseTime: number
  /** whether the store answered at all (HTTP status received / TCP + login done) */
  reachable: boolean
  /** HTTP status for the http family */
  statusCode: number | null
  /** pgvector extension version for the jdbc family, when installed */
  extensionVersion: string | null
}

const result = (started: number, fields: Partial<ConnectionTestResult> & Pick<ConnectionTestResult, 'success' | 'message'>): ConnectionTestResult => ({
  reachable: false, statusCode: null, extensionVersion: null, ...fields, responseTime: Date.now() - started,
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
  return input.transport.family === 'jdbc' ? testJdbc(input.transport) : testHttp(input.transport)
}
