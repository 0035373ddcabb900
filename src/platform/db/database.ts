// Opens the service database: a PostgreSQL server when a URL is given, else PGlite under DATA_DIR.
// Either way the committed migrations are applied before the client is handed out.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PrismaPg } from '@prisma/adapter-pg'
import pg from 'pg'
import { PrismaPGlite } from 'pglite-prisma-adapter'
import { PrismaClient } from '../../generated/prisma/client.js'
import { auditedAdapter } from '../audit/audited-adapter.js'
import { runMigrations } from './migrate.js'
import { observedStatements } from './statement-log.js'
import { retryingReads } from './read-retry.js'
import { pgliteExtensions } from './pglite-extensions.js'
import { openEmbeddedThread, type EmbeddedThread } from './pglite-thread.js'
import type { MaintenanceClient } from './embedded-maintenance.js'

export { pgliteExtensions }

export type DatabaseKind = 'embedded' | 'postgres'

export interface Database {
  prisma: PrismaClient
  kind: DatabaseKind
  /** where the embedded database is served over the PostgreSQL wire protocol, when asked (embeddedPg) */
  wire?: { host: string; port: number }
  /** LISTEN on a channel (live events, issue 18 §3); the returned function stops listening */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /** the embedded database only: reopened in a new thread to drop the memory a large job grew (pglite-thread.ts) */
  reopen?(): Promise<boolean>
  /** the embedded database only: its client for vacuum and analyze passes (embedded-maintenance.ts) */
  maintenance?: MaintenanceClient
  close(): Promise<void>
}

/**
 * PostgreSQL: one dedicated session per listener (a pooled connection would drop its LISTEN). A lost session (the
 * database restarted, the connection was cut) is opened again with a growing pause, so live events survive a blink;
 * notifications sent while no session listened are not replayed (subscribers read rows, not a log).
 */
async function listenOnServer(config: pg.ClientConfig, channel: string, onPayload: (payload: string) => void) {
  let closed = false
  let client: pg.Client | undefined
  let pauseMs = 250
  const open = async () => {
    const c = new pg.Client(config)
    c.on('error', () => undefined) // followed by 'end', which reopens
    c.on('notification', (n) => n.channel === channel && n.payload !== undefined && onPayload(n.payload))
    c.once('end', () => {
      if (!closed && client === c) reopen()
    })
    try {
      await c.connect()
      await c.query(`LISTEN "${channel.replace(/"/g, '""')}"`)
    } catch (err) {
      await c.end().catch(() => undefined)
      throw err
    }
    client = c
    pauseMs = 250
  }
  const reopen = () => {
    client = undefined
    setTimeout(() => {
      if (closed) return
      open().catch(() => {
        pauseMs = Math.min(pauseMs * 2, 5000)
        reopen()
      })
    }, pauseMs).unref()
  }
  await open()
  return async () => {
    closed = true
    await client?.end().catch(() => undefined)
  }
}

/**
 * PostgreSQL settings of the service's embedded database, after PGlite's own start parameters (a later `-c` wins).
 * shared_buffers: PGlite's WebAssembly build zero-fills its whole shared memory segment at every start (Emscripten's
 * anonymous mmap), so PostgreSQL's 128 MB default cost ≈ 120 MB of resident memory and ≈ 0.3 s CPU at each start,
 * used or not. 64 MB still holds the working set of a 100,000-consumer list and its trigram search (at 32 MB the
 * search read its index pages back through the file system at every request, twice the time); the data files
 * stay in the OS page cache behind it.
 */
export const pgliteStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=64MB']

/** pgliteStartParams with another shared_buffers (EMBEDDED_PG_SHARED_BUFFERS_MB; the test suite's small databases: 16) */
export const pgliteStartParamsWith = (sharedBuffersMb: number) => [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`]

export const defaultMigrationsDir = path.resolve(import.meta.dirname, '../../../prisma/migrations')

/**
 * Discrete pg fields from a postgresql:// URL. PrismaPg given a connectionString lets it override
 * `database` (breaks its shadow DB), so everything here builds pools from fields instead.
 */
export function pgConnectionConfig(url: string): pg.ClientConfig {
  const u = new URL(url)
  if (u.protocol !== 'postgresql:' && u.protocol !== 'postgres:') throw new Error(`DATABASE_URL must be postgresql://…, got ${u.protocol}`)
  const q = u.searchParams
  const sslmode = q.get('sslmode')
  return {
    host: q.get('host') ?? (decodeURIComponent(u.hostname) || undefined), // ?host=/var/run/postgresql for a unix socket
    port: u.port ? Number(u.port) : undefined,
    // libpq falls back to the OS user; pg only to $USER, which containers often lack.
    user: decodeURIComponent(u.username) || process.env.PGUSER || os.userInfo().username,
    password: decodeURIComponent(u.password) || undefined,
    database: decodeURIComponent(u.pathname.slice(1)) || undefined,
    ssl:
      sslmode === 'verify-full' || sslmode === 'verify-ca' ? true
      : sslmode === 'require' || sslmode === 'prefer' ? { rejectUnauthorized: false }
      : undefined,
    application_name: q.get('application_name') ?? undefined,
  }
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string; migrationsDir?: string; embeddedPg?: { host: string; port: number }; sharedBuffersMb?: number }): Promise<Database> {
  const migrationsDir = opts.migrationsDir ?? defaultMigrationsDir
  if (opts.databaseUrl) {
    const config = pgConnectionConfig(opts.databaseUrl)
    // A dedicated client: the migration advisory lock belongs to one session, not to a pool.
    const client = new pg.Client(config)
    await client.connect()
    try {
      await runMigrations(client, migrationsDir)
    } finally {
      await client.end()
    }
    // A session the server ends (a restart or failover: 57P01) emits 'error' on its client. PrismaPg listens while a
    // client is idle or in a transaction, but not while it is checked out between a commit and its release: an
    // 'error' event without a listener ends the process (seen under load in test/platform/db-outage.test.ts). So
    // every client listens from its first connection; the pool still drops a broken client when it is released.
    const pool = new pg.Pool(config)
    pool.on('connect', (client) => client.on('error', () => undefined))
    // PrismaPg ends the pool on $disconnect (disposeExternalPool)
    const prisma = new PrismaClient({ adapter: observedStatements(auditedAdapter(retryingReads(new PrismaPg(pool, { disposeExternalPool: true })))) })
    return { prisma, kind: 'postgres', listen: (channel, onPayload) => listenOnServer(config, channel, onPayload), close: () => prisma.$disconnect() }
  }

  fs.mkdirSync(opts.dataDir, { recursive: true })
  const unlock = lockDataDir(opts.dataDir)
  const pgdata = path.join(opts.dataDir, 'pglite')
  let embedded: EmbeddedThread
  try {
    if (!fs.existsSync(pgdata) || fs.readdirSync(pgdata).length === 0) await initDataDir(pgdata)
    embedded = await openEmbeddedThread({ pgdata, migrationsDir, startParams: opts.sharedBuffersMb === undefined ? pgliteStartParams : pgliteStartParamsWith(opts.sharedBuffersMb), wire: opts.embeddedPg })
  } catch (e) {
    unlock()
    throw e
  }
  const wire = embedded.wire
  // npm run studio finds a running service's server here (EMBEDDED_PG_PORT may be 0: any free port)
  if (wire) fs.writeFileSync(wireFile(opts.dataDir), `${wire.host}:${wire.port}`)
  const prisma = new PrismaClient({ adapter: observedStatements(auditedAdapter(new PrismaPGlite(embedded.client))) })
  return {
    prisma,
    kind: 'embedded',
    wire,
    // PGlite delivers the notifications of its one session (the writes Prisma makes) to these callbacks
    listen: (channel, onPayload) => embedded.listen(channel, onPayload),
    reopen: () => embedded.reopen(),
    maintenance: embedded.client,
    close: async () => {
      if (wire) fs.rmSync(wireFile(opts.dataDir), { force: true })
      await prisma.$disconnect()
      await embedded.close()
      unlock()
    },
  }
}

// Run by `node -e` in a child process: PGlite's CommonJS build (same package, same version) initialises the directory.
const INITDB_SCRIPT = `
const { PGlite } = require(process.env.GW_PGLITE_MAIN)
const db = new PGlite(process.env.GW_PGDATA)
db.waitReady.then(() => db.close()).catch((e) => { console.error(e); process.exit(1) })
`

/**
 * Creates a new PostgreSQL data directory (initdb) in a separate, short-lived Node process. initdb runs a second
 * PostgreSQL with its own WebAssembly heap and compiles much of the engine; in the service's process the memory it
 * touched stayed resident until the next restart (≈ 850 MB peak, ≈ 100 MB more idle RSS than a restart), in a child
 * it goes back to the OS when the child exits. The child writes a sibling directory that is renamed into place only
 * when complete, so an interrupted first start leaves no half-made data directory. The caller holds the data
 * directory's lock and calls this only for a missing or empty directory. Where the package can't be resolved for a child (a bundle without node_modules), PGlite's own
 * in-process initdb runs instead, as before.
 */
async function initDataDir(pgdata: string): Promise<void> {
  let main: string
  try {
    main = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  } catch {
    return
  }
  const parent = path.dirname(pgdata)
  const prefix = `${path.basename(pgdata)}.initdb-`
  for (const stale of fs.readdirSync(parent).filter((n) => n.startsWith(prefix))) fs.rmSync(path.join(parent, stale), { recursive: true, force: true })
  const scratch = path.join(parent, `${prefix}${process.pid}`)
  try {
    await new Promise<void>((resolve, reject) => {
      execFile(
        process.execPath,
        ['--max-semi-space-size=2', '--wasm-lazy-compilation', '-e', INITDB_SCRIPT],
        { env: { PATH: process.env.PATH ?? '', GW_PGLITE_MAIN: main, GW_PGDATA: scratch }, maxBuffer: 16 * 1024 * 1024 },
        (err, _stdout, stderr) => (err ? reject(new Error(`Initialising the embedded database in ${pgdata} failed: ${stderr.trim() || err.message}`)) : resolve()),
      )
    })
    fs.rmSync(pgdata, { recursive: true, force: true }) // missing or empty (see the caller)
    fs.renameSync(scratch, pgdata)
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

/** host:port of the running service's wire server, written while it listens */
export const wireFile = (dataDir: string) => path.resolve(dataDir, 'pglite.wire')

const heldLocks = new Set<string>()

/**
 * PGlite has no lock of its own, and two processes on one data directory corrupt it. The lock is
 * a file holding the owner's pid; one whose process is gone (crash, kill -9) is taken over.
 * Returns the release function. Also used by scripts/studio.ts.
 */
export function lockDataDir(dataDir: string): () => void {
  const file = path.resolve(dataDir, 'pglite.lock')
  if (heldLocks.has(file)) throw new Error(`The embedded database in ${dataDir} is already open in this process`)
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' })
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e
      const pid = Number(fs.readFileSync(file, 'utf8'))
      if (pid && pid !== process.pid && processAlive(pid))
        throw new Error(`The embedded database in ${dataDir} is in use by process ${pid}; stop that process first (${file})`)
      fs.rmSync(file, { force: true })
    }
  }
  heldLocks.add(file)
  return () => {
    if (heldLocks.delete(file)) fs.rmSync(file, { force: true })
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}
