// Start-up and idle memory of the real `npm start` command (package.json scripts.start, run as npm would
// run it, minus npm itself): first start with a 20,000-credential bootstrap, restart on that data with the same
// file, restart with a tiny file, first start and restart on a database holding only the tiny file, and the
// resident memory of the process tree once idle; CPU time beside each wall time.
import { spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ensureBuilt } from '../test/support/process.js'
import { withScratchDatabase } from './scratch-database.js'
import { ms } from './measure.js'

const repo = path.resolve(import.meta.dirname, '..')
const KEY = crypto.randomBytes(32).toString('base64')
const CREDENTIALS = Number(process.env.BENCH_BOOTSTRAP_CREDENTIALS ?? 20_000)

const tinyBootstrap = {
  environments: [{ name: 'dev', workerUrls: [] }],
  users: [{ username: 'bench', password: 'bench-password-1', role: 'ADMIN' }],
  projects: [{ name: 'bench', environments: ['dev'], credentials: [{ username: 'bench-cred', password: 'x' }] }],
}

/** The tiny file plus `n` credentials in a second project. */
function largeBootstrap(n: number) {
  const credentials = Array.from({ length: n }, (_, i) => ({ username: `consumer-${i}`, password: `pw-${i}`, fullName: `Consumer ${i}` }))
  return { ...tinyBootstrap, projects: [...tinyBootstrap.projects, { name: 'fleet', environments: ['dev'], credentials }] }
}

function startCommand(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: { start: string } }
  return pkg.scripts.start
}

/** A process and all its descendants (tsx, for one, runs the service in a child). */
function treePids(root: number): Set<number> {
  const parents = new Map<number, number>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([root])
  for (let grew = true; grew; ) {
    grew = false
    for (const [pid, ppid] of parents) if (tree.has(ppid) && !tree.has(pid)) (tree.add(pid), (grew = true))
  }
  return tree
}

/** Resident memory of a process and all its descendants. */
function treeRssBytes(root: number): number {
  const tree = treePids(root)
  let total = 0
  for (const pid of tree) {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
      total += Number(kb ?? 0) * 1024
    } catch {
      // gone meanwhile
    }
  }
  return total
}

interface Started { child: ChildProcess; readyMs: number; cpuMs: number; exited: Promise<number | null> }

/**
 * CPU time (user + system) the process tree has used so far, including its children that have exited (the
 * embedded database's first start runs initdb in one): wall times on a loaded machine mislead, this does not.
 */
function treeCpuMs(root: number): number {
  let ticks = 0
  for (const pid of treePids(root)) {
    try {
      const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
      const stat = text.slice(text.lastIndexOf(')') + 2).split(' ')
      ticks += Number(stat[11]) + Number(stat[12]) + Number(stat[13]) + Number(stat[14]) // utime, stime, cutime, cstime
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / 100 // USER_HZ
}

/** Spawns the start command and polls /healthz until it answers 200. */
async function startAndWait(env: Record<string, string>): Promise<Started> {
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const t0 = performance.now()
  const child = spawn('sh', ['-c', `exec ${startCommand()}`], {
    cwd: repo,
    env: { PATH: `${path.join(repo, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (d) => (err += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let gone = false
  void exited.then(() => (gone = true))
  for (;;) {
    if (gone) throw new Error(`service exited before ready: ${err}`)
    const status = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0)
    if (status === 200) break
    await new Promise((r) => setTimeout(r, 10))
  }
  return { child, readyMs: performance.now() - t0, cpuMs: treeCpuMs(child.pid!), exited }
}

async function stop(s: Started) {
  s.child.kill('SIGTERM')
  await s.exited
}

/** RSS once the process has been idle for a moment (the collector runs after start-up's garbage). */
async function idleRss(s: Started) {
  await new Promise((r) => setTimeout(r, 3000))
  return treeRssBytes(s.child.pid!)
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0).padStart(6)} MB`

/** `bigEnv` and `tinyEnv` name two separate databases (DATABASE_URL, or DATA_DIR for PGlite). */
async function runOn(label: string, bigEnv: Record<string, string>, tinyEnv: Record<string, string>, dir: string) {
  console.log(`\n== start-up and memory, ${label} (${startCommand()}) ==`)
  const big = path.join(dir, 'large.json')
  const tiny = path.join(dir, 'tiny.json')
  fs.writeFileSync(big, JSON.stringify(largeBootstrap(CREDENTIALS)))
  fs.writeFileSync(tiny, JSON.stringify(tinyBootstrap))

  // a database with only the tiny file: the idle floor
  const tinyFirst = await startAndWait({ ...tinyEnv, GATEWAY_BOOTSTRAP: tiny })
  const tinyFirstRss = await idleRss(tinyFirst)
  await stop(tinyFirst)
  const tinyRestart = await startAndWait({ ...tinyEnv, GATEWAY_BOOTSTRAP: tiny })
  const tinyRss = await idleRss(tinyRestart)
  await stop(tinyRestart)

  const first = await startAndWait({ ...bigEnv, GATEWAY_BOOTSTRAP: big })
  const firstRss = await idleRss(first)
  await stop(first)
  const restart = await startAndWait({ ...bigEnv, GATEWAY_BOOTSTRAP: big })
  const restartRss = await idleRss(restart)
  await stop(restart)
  const restartTiny = await startAndWait({ ...bigEnv, GATEWAY_BOOTSTRAP: tiny })
  await stop(restartTiny)

  const line = (label: string, s: Started) => console.log(`${label.padEnd(54)} ${ms(s.readyMs)} (CPU ${ms(s.cpuMs).trim()})`)
  line(`first start, ${CREDENTIALS}-credential bootstrap:`, first)
  line('restart on that data, same bootstrap re-applied:', restart)
  line('restart on that data, tiny bootstrap:', restartTiny)
  line('restart on tiny data, tiny bootstrap:', tinyRestart)
  line('first start on new data, tiny bootstrap:', tinyFirst)
  console.log(`idle RSS after start, tiny bootstrap:                  ${mb(tinyRss)}`)
  console.log(`idle RSS after first start, tiny bootstrap:            ${mb(tinyFirstRss)} (+${mb(tinyFirstRss - tinyRss).trim()})`)
  console.log(`idle RSS after first start, ${CREDENTIALS}-credential bootstrap: ${mb(firstRss)} (+${mb(firstRss - tinyRss).trim()})`)
  console.log(`idle RSS after restart, ${CREDENTIALS}-credential bootstrap:     ${mb(restartRss)} (+${mb(restartRss - tinyRss).trim()})`)
}

/** Both databases (PostgreSQL when BENCH_DATABASE_URL is set). */
export async function benchStartup() {
  ensureBuilt()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-startup-'))
  try {
    if (process.env.BENCH_STARTUP_ONLY !== 'postgres') await runOn('embedded (PGlite)', { DATA_DIR: path.join(dir, 'big-data') }, { DATA_DIR: path.join(dir, 'tiny-data') }, dir)
    const pgUrl = process.env.BENCH_DATABASE_URL
    if (pgUrl) {
      await withScratchDatabase(pgUrl, 'gw_bench_start', (url) =>
        withScratchDatabase(pgUrl, 'gw_bench_tiny', (tinyUrl) =>
          runOn('PostgreSQL', { DATABASE_URL: url, GATEWAY_SECRET_KEY: KEY, DATA_DIR: path.join(dir, 'pg-big') }, { DATABASE_URL: tinyUrl, GATEWAY_SECRET_KEY: KEY, DATA_DIR: path.join(dir, 'pg-tiny') }, dir),
        ),
      )
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchStartup()
  process.exit(0)
}
