// npm run studio [-- --write]: Prisma Studio on the service's data, read-only unless --write (issue 21).
// DATABASE_URL set: Studio connects to that server. Unset: the embedded database, through the running service's wire
// server (EMBEDDED_PG_PORT, or the address it wrote to ${DATA_DIR}/pglite.wire) when one answers, else the script
// opens ${DATA_DIR:-./data}/pglite itself and serves it on 127.0.0.1 (the service must then be stopped).
// Read-only: every Studio session starts with default_transaction_read_only=on, a startup parameter that both
// PostgreSQL and our wire server apply to the session.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import net from 'node:net'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { lockDataDir, pgliteExtensions, pgliteStartParams, wireFile } from '../src/platform/db/database.js'
import { startWireServer } from '../src/platform/db/wire-server.js'

const port = process.env.STUDIO_PORT ?? '5555'
const write = process.argv.includes('--write')
const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js')
const cleanups: (() => Promise<void> | void)[] = []
const dataDir = path.resolve(process.env.DATA_DIR ?? './data')

function answers(host: string, p: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port: p })
    s.setTimeout(2000)
    s.once('connect', () => (s.destroy(), resolve(true)))
    s.once('timeout', () => (s.destroy(), resolve(false)))
    s.once('error', () => resolve(false))
  })
}

/** The running service's wire server: EMBEDDED_PG_PORT/HOST if set, else the address it wrote in the data directory. */
async function runningService(): Promise<string | undefined> {
  const candidates: string[] = []
  if (process.env.EMBEDDED_PG_PORT && process.env.EMBEDDED_PG_PORT !== '0') candidates.push(`${process.env.EMBEDDED_PG_HOST || '127.0.0.1'}:${process.env.EMBEDDED_PG_PORT}`)
  if (fs.existsSync(wireFile(dataDir))) candidates.push(fs.readFileSync(wireFile(dataDir), 'utf8').trim())
  for (const c of candidates) {
    const i = c.lastIndexOf(':')
    if (await answers(c.slice(0, i), Number(c.slice(i + 1)))) return c
  }
  return undefined
}

async function openDataDir(): Promise<string> {
  const dir = path.join(dataDir, 'pglite')
  if (!fs.existsSync(path.join(dir, 'PG_VERSION')))
    throw new Error(`No embedded database in ${dir}: start the service once (npm start) to create it, or set DATA_DIR`)
  try {
    cleanups.push(lockDataDir(dataDir))
  } catch (e) {
    throw new Error(`${(e as Error).message}; or start the service with EMBEDDED_PG_PORT set, and Studio uses its server`, { cause: e })
  }
  const db = new PGlite(dir, { extensions: pgliteExtensions, startParams: pgliteStartParams })
  await db.waitReady
  cleanups.push(() => db.close())
  const server = await startWireServer(db, { host: '127.0.0.1', port: 0 })
  cleanups.push(() => server.close())
  return `127.0.0.1:${server.port}`
}

/** Studio's URL; its driver passes unknown query parameters on as startup parameters, i.e. session settings. */
function withSession(url: string): string {
  const u = new URL(url)
  u.searchParams.set('default_transaction_read_only', write ? 'off' : 'on')
  return u.toString()
}

let stopping = false
async function shutdown(code: number) {
  if (stopping) return
  stopping = true
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => {})
  process.exit(code)
}

try {
  let url: string
  let source: string
  if (process.env.DATABASE_URL) {
    url = process.env.DATABASE_URL
    source = 'the PostgreSQL server of DATABASE_URL'
  } else {
    const live = await runningService()
    const address = live ?? (await openDataDir())
    // PGlite accepts any user; Studio's driver needs one named, and plain TCP (no TLS).
    url = `postgresql://postgres@${address}/postgres?sslmode=disable`
    source = live
      ? `the running service's embedded database, served on ${live}`
      : `the embedded database in ${path.join(dataDir, 'pglite')}, opened by this script (no running service answered; it must stay stopped while Studio runs)`
  }
  url = withSession(url)
  const studio = spawn(process.execPath, [prismaCli, 'studio', '--url', url, '--browser', 'none', '--port', port], {
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  cleanups.push(() => { if (studio.exitCode === null) studio.kill('SIGTERM') }) // runs first
  if (write)
    console.warn(
      'WARNING: --write: edits made in Studio go straight to the tables. They bypass the service\'s validation, ' +
        'secret sealing (a secret typed in is stored in clear) and the audit trail (no audit event is recorded).',
    )
  console.log(`Prisma Studio: http://localhost:${port} on ${source}, ${write ? 'read-write' : 'read-only (npm run studio -- --write to edit)'}; Ctrl+C to stop`)
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(0))
  studio.on('exit', (code) => void shutdown(code ?? 0))
} catch (e) {
  console.error((e as Error).message)
  await shutdown(1)
}
