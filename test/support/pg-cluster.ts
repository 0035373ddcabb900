// A PostgreSQL cluster of the test's own, on a spare port, that the test may restart and stop (fault tests).
// initdb and the server run as the postgres user when the suite runs as root (CI does), as PostgreSQL requires.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** The newest PostgreSQL's bin directory under /usr/lib/postgresql, or null when none is installed. */
export function postgresBinDir(): string | null {
  const base = '/usr/lib/postgresql'
  if (!fs.existsSync(base)) return null
  const versions = fs.readdirSync(base).filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a))
  return versions.length ? path.join(base, versions[0], 'bin') : null
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface PgCluster {
  /** postgresql:// URL of a database of its own, created at start */
  url: string
  port: number
  /** `pg_ctl restart -m fast`: every connection is terminated, the server refuses connections while it restarts */
  restart(): Promise<void>
  stop(): Promise<void>
  start(): Promise<void>
  /** stops the server and removes its files */
  destroy(): Promise<void>
}

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`

export async function startPgCluster(bin: string): Promise<PgCluster> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-pgcluster-'))
  fs.chmodSync(root, 0o755)
  const data = path.join(root, 'data')
  fs.mkdirSync(data, { mode: 0o700 })
  const asRoot = process.getuid?.() === 0
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    fs.chownSync(root, Number(stdout), Number(gid))
    fs.chownSync(data, Number(stdout), Number(gid))
  }
  const sh = (cmd: string) => (asRoot ? run('su', ['postgres', '-s', '/bin/sh', '-c', cmd]) : run('sh', ['-c', cmd]))
  const port = await freePort()
  await sh(`${quote(path.join(bin, 'initdb'))} -D ${quote(data)} -A trust -U postgres -E UTF8 --no-sync >/dev/null`)
  const options = `-p ${port} -k ${data} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`
  const pgCtl = (args: string) => sh(`${quote(path.join(bin, 'pg_ctl'))} -D ${quote(data)} -l ${quote(path.join(root, 'server.log'))} -w ${args}`)
  await pgCtl(`-o ${quote(options)} start`)
  const admin = `postgresql://postgres@127.0.0.1:${port}/postgres`
  const { adminQuery } = await import('./global-setup.js')
  await adminQuery(admin, 'CREATE DATABASE gw_faults')
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/gw_faults`,
    port,
    restart: async () => void (await pgCtl('-m fast restart')),
    stop: async () => void (await pgCtl('-m fast stop')),
    start: async () => void (await pgCtl(`-o ${quote(options)} start`)),
    destroy: async () => {
      await pgCtl('-m immediate stop').catch(() => undefined)
      fs.rmSync(root, { recursive: true, force: true })
    },
  }
}
