import path from 'node:path'
import { z } from 'zod'
import { isLoopbackHost } from './platform/db/wire-server.js'

const intFromEnv = (fallback: number, min: number) =>
  z.preprocess((v) => (v === undefined || v === '' ? fallback : Number(v)), z.number().int().min(min))

const envSchema = z.object({
  PORT: intFromEnv(8080, 0).pipe(z.number().max(65535)),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATA_DIR: z.string().min(1).default('./data'),
  GATEWAY_BOOTSTRAP: z.string().optional().or(z.literal('').transform(() => undefined)),
  GATEWAY_SECRET_KEY: z.string().optional().or(z.literal('').transform(() => undefined)),
  /** RUNTIME.md §3.1: password of the first-run `admin`; unset: a random one in DATA_DIR/initial-admin-password */
  GATEWAY_ADMIN_PASSWORD: z.string().optional().or(z.literal('').transform(() => undefined)),
  /** Older master keys, comma-separated base64, still accepted for decryption after a rotation. */
  GATEWAY_SECRET_KEY_PREVIOUS: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEPLOY_TIMEOUT_MS: intFromEnv(5000, 1),
  AUTH_MAX_FAILURES_PER_USER: intFromEnv(10, 1),
  AUTH_MAX_FAILURES_PER_ADDRESS: intFromEnv(100, 1),
  AUTH_FAILURE_WINDOW_SECONDS: intFromEnv(900, 1),
  /** scrypt's cost for new user passwords, as log2 N (14: N = 16384, 16 MiB per hash); a stored hash keeps its own */
  PASSWORD_SCRYPT_COST: intFromEnv(14, 10).pipe(z.number().max(20)),
  /** How often the retry outbox looks for due deliveries; also its first backoff step (cap: 60 steps). */
  OUTBOX_POLL_INTERVAL_MS: intFromEnv(1000, 10),
  /** Audit events older than this are purged at start-up and hourly. */
  AUDIT_RETENTION_DAYS: intFromEnv(365, 1),
  /** specUrl fetches (API proxies from a URL): loopback and private addresses only when 'true' */
  SPEC_FETCH_ALLOW_PRIVATE: z.enum(['true', 'false', '']).default('false'),
  SPEC_FETCH_TIMEOUT_MS: intFromEnv(10_000, 1),
  /** connection tests (…/connections/{name}/test): loopback and private addresses only when 'true' */
  CONNECTION_TEST_ALLOW_PRIVATE: z.enum(['true', 'false', '']).default('false'),
  CONNECTION_TEST_TIMEOUT_MS: intFromEnv(5000, 1),
  /** serve the embedded database over the PostgreSQL wire protocol on this port (0: any free one); unset: not served */
  EMBEDDED_PG_PORT: z.preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().min(0).max(65535).optional()),
  EMBEDDED_PG_HOST: z.string().min(1).default('127.0.0.1'),
  /** the embedded database's vacuum and analyze passes (it has no autovacuum); 0: none */
  EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: intFromEnv(60, 0).pipe(z.number().max(86_400)),
  /** the embedded database's shared_buffers in MB (8–1024): zero-filled at every start, so a start costs CPU in proportion */
  EMBEDDED_PG_SHARED_BUFFERS_MB: intFromEnv(64, 8).pipe(z.number().max(1024)),
  /** GraphQL queries compiled (graphql-jit, the default) or every operation through graphql-js, as before */
  GRAPHQL_EXECUTOR: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['compiled', 'graphql-js']).default('compiled')),
})

export interface Config {
  port: number
  host: string
  databaseUrl?: string
  dataDir: string
  bootstrapFile?: string
  secretKey?: string
  adminPassword?: string
  previousSecretKeys: string[]
  logLevel: string
  deployTimeoutMs: number
  outboxPollIntervalMs: number
  /** log2 of scrypt's N for new password hashes */
  passwordScryptCost: number
  auditRetentionDays: number
  specFetch: { allowPrivateAddresses: boolean; timeoutMs: number }
  connectionTest: { allowPrivateAddresses: boolean; timeoutMs: number }
  authThrottle: { maxFailuresPerUser: number; maxFailuresPerAddress: number; windowSeconds: number }
  /** the embedded database's wire server (issue 21): loopback only */
  embeddedPg?: { host: string; port: number }
  /** how often the embedded database is vacuumed and analyzed where autovacuum would (0: never) */
  embeddedMaintenanceIntervalMs: number
  /** the embedded database's shared_buffers, MB */
  embeddedSharedBuffersMb: number
  graphqlExecutor: 'compiled' | 'graphql-js'
}

export class ConfigError extends Error {}

/** Reads the environment once; a bad value stops start-up with the variable's name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new ConfigError(`Invalid environment variable ${issue.path.join('.')}: ${issue.message}`)
  }
  const e = parsed.data
  if (e.EMBEDDED_PG_PORT !== undefined && !isLoopbackHost(e.EMBEDDED_PG_HOST))
    throw new ConfigError(`Invalid environment variable EMBEDDED_PG_HOST: ${e.EMBEDDED_PG_HOST} is not a loopback address; the embedded database is served on loopback only (127.0.0.1, ::1 or localhost)`)
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DATA_DIR),
    bootstrapFile: e.GATEWAY_BOOTSTRAP,
    secretKey: e.GATEWAY_SECRET_KEY,
    adminPassword: e.GATEWAY_ADMIN_PASSWORD,
    previousSecretKeys: (e.GATEWAY_SECRET_KEY_PREVIOUS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    logLevel: e.LOG_LEVEL,
    deployTimeoutMs: e.DEPLOY_TIMEOUT_MS,
    outboxPollIntervalMs: e.OUTBOX_POLL_INTERVAL_MS,
    passwordScryptCost: e.PASSWORD_SCRYPT_COST,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    specFetch: { allowPrivateAddresses: e.SPEC_FETCH_ALLOW_PRIVATE === 'true', timeoutMs: e.SPEC_FETCH_TIMEOUT_MS },
    connectionTest: { allowPrivateAddresses: e.CONNECTION_TEST_ALLOW_PRIVATE === 'true', timeoutMs: e.CONNECTION_TEST_TIMEOUT_MS },
    authThrottle: {
      maxFailuresPerUser: e.AUTH_MAX_FAILURES_PER_USER,
      maxFailuresPerAddress: e.AUTH_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: e.AUTH_FAILURE_WINDOW_SECONDS,
    },
    embeddedPg: e.EMBEDDED_PG_PORT === undefined ? undefined : { host: e.EMBEDDED_PG_HOST, port: e.EMBEDDED_PG_PORT },
    embeddedMaintenanceIntervalMs: e.EMBEDDED_MAINTENANCE_INTERVAL_SECONDS * 1000,
    embeddedSharedBuffersMb: e.EMBEDDED_PG_SHARED_BUFFERS_MB,
    graphqlExecutor: e.GRAPHQL_EXECUTOR,
  }
}
