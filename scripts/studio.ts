// npm run studio: Prisma Studio on the service's data.
// DATABASE_URL set: Studio connects to that server. Unset: the embedded PGlite under
// ${DATA_DIR:-./data}/pglite is served over the PostgreSQL wire protocol on 127.0.0.1 for Studio.
// The service must be stopped for the embedded database (one process per data directory).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { PGLiteSocketServer } from '@electric-sql/pglite-socket'
import { lockDataDir, pgliteExtensions } from '../src/platform/db/database.js'

const port = process.env.STUDIO_PORT ?? '5555'
const prismaCli = createRequire(import.meta.url).resolve('prisma/build/index.js')
const cleanups: (() => Promise<void> | void)[] = []

async function embeddedUrl(): Promise<string> {
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data')
  const dir = path.join(dataDir, 'pglite')
  if (!fs.existsSync(path.join(dir, 'PG_VERSION')))
    throw new Error(`No embedded database in ${dir}: start the service once (npm start) to create it, or set DATA_DIR`)
  cleanups.push(lockDataDir(dataDir)) // throws, naming the pid, while the service runs
  const db = new PGlite(dir, { extensions: pgliteExtensions })
  try {
    await db.waitReady
  } catch (e) {
    throw new Error(`Cannot open ${dir} (is the service still running? stop it first): ${(e as Error).message}`, { cause: e })
  }
  cleanups.push(() => db.close())
  // Studio opens several connections; the server queues their queries onto the one PGlite session.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 20 })
  await server.start()
  cleanups.push(() => server.stop())
  // PGlite accepts any user; Studio's driver needs one named, and plain TCP (no TLS).
  return `postgresql://postgres@${server.getServerConn()}/postgres?sslmode=disable`
}

let stopping = false
async function shutdown(code: number) {
  if (stopping) return
  stopping = true
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => {})
  process.exit(code)
}

try {
  const url = process.env.DATABASE_URL || (await embeddedUrl())
  const studio = spawn(process.execPath, [prismaCli, 'studio', '--url', url, '--browser', 'none', '--port', port], {
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  cleanups.push(() => { if (studio.exitCode === null) studio.kill('SIGTERM') }) // runs first
  console.log(`Prisma Studio: http://localhost:${port} (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PGlite'}); Ctrl+C to stop`)
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(0))
  studio.on('exit', (code) => void shutdown(code ?? 0))
} catch (e) {
  console.error((e as Error).message)
  await shutdown(1)
}
