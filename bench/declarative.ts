// Declarative configuration (issue 29 §7), as ratios within one run: a sync of N credentials, A applications (each
// the application of N/A of the credentials, its consumers) and P API proxies with E endpoints each into an empty
// project against the bootstrap file's apply of the same content (applyBootstrap, timed alone; the bootstrap file
// cannot carry endpoints, so its proxies have none and the sync's endpoints are extra work on the sync's side), a
// no-change plan against a dump of the same project, a second sync (must write nothing: no audit event, no push), and
// the service's memory during the plan. The service runs as its own process (bench/declarative-service.ts: node with
// the start script's flags), so its memory holds none of the bench's copies of the file: its peak RSS is the kernel's
// (VmHWM, reset at idle), its peak JS heap V8's own record of the heap before each collection (GCProfiler), idle taken
// after two full collections. PGlite runs in that process; PostgreSQL with BENCH_DATABASE_URL
// (DECLARATIVE_BENCH_ONLY=pglite|postgres runs one).
// Size: DECLARATIVE_BENCH_SIZE=full is §7's 10,000 credentials, 1,000 applications and 200 proxies with 10 endpoints
// each; the default (short, for `npm run bench` on the shared 2-core machine) is a tenth of it. Each figure may be
// set alone: DECLARATIVE_BENCH_CREDENTIALS / _APPLICATIONS / _PROXIES / _ENDPOINTS.
// Each pair is measured DECLARATIVE_BENCH_REPEATS times (default 3), interleaved (bootstrap r, then sync r, each into
// a project of its own), so that load on the machine hits both sides alike; the ratio is given of the fastest runs
// and of the medians, with the load average.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fork, type ChildProcess } from 'node:child_process'
import { startFlags } from './measure.js'
import { withScratchDatabase } from './scratch-database.js'

const FULL = process.env.DECLARATIVE_BENCH_SIZE === 'full'
const N = Number(process.env.DECLARATIVE_BENCH_CREDENTIALS ?? (FULL ? 10_000 : 1_000))
const A = Number(process.env.DECLARATIVE_BENCH_APPLICATIONS ?? (FULL ? 1_000 : 100))
const P = Number(process.env.DECLARATIVE_BENCH_PROXIES ?? (FULL ? 200 : 20))
const E = Number(process.env.DECLARATIVE_BENCH_ENDPOINTS ?? 10)
const R = Math.max(1, Number(process.env.DECLARATIVE_BENCH_REPEATS ?? 3))
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }

const username = (prefix: string, i: number) => `${prefix}decl-${String(i).padStart(5, '0')}`
const perApplication = A ? Math.floor(N / A) : 0

/** The content of project `name`, its usernames prefixed so that each run's stay unique in the installation. */
export const content = (prefix: string) => ({
  credentials: Array.from({ length: N }, (_, i) => ({ username: username(prefix, i), password: `pw-${i}`, fullName: `Consumer ${i}`, email: `c${i}@example.test`, enabled: true })),
  applications: Array.from({ length: A }, (_, i) => ({
    name: `app-${String(i).padStart(4, '0')}`, description: `Application ${i}`,
    consumers: Array.from({ length: perApplication }, (_, j) => username(prefix, i * perApplication + j)),
  })),
  apiProxies: Array.from({ length: P }, (_, i) => ({ name: `proxy-${String(i).padStart(3, '0')}`, kind: 'REST' })),
})

/** E endpoints as a file states them (method and path); the server fills the other fields. */
const endpointsOf = () => Array.from({ length: E }, (_, i) => ({ method: i % 2 ? 'POST' : 'GET', path: `/items-${i}/{id}` }))

/** The service's bootstrap (empty sync targets), or the file whose apply is timed: run r's project with content. */
function bootstrap(withContent: boolean, run = 0) {
  return {
    environments: [{ name: 'dev', workerUrls: [] }],
    users: [USER],
    projects: withContent
      ? [{ name: `decl-boot-${run}`, environments: ['dev'], ...content(`b${run}-`) }]
      : Array.from({ length: R }, (_, r) => ({ name: `decl-target-${r}`, environments: ['dev'] })),
  }
}

interface Service { url: string; pid: number; ask<T>(op: string, extra?: Record<string, unknown>): Promise<T>; stop(): Promise<void> }

/** The service in its own process (bench/declarative-service.ts), spoken to over IPC. */
async function start(dir: string, name: string, withContent: boolean, env: Record<string, string>): Promise<{ svc: Service }> {
  const file = path.join(dir, `${name}.json`)
  fs.writeFileSync(file, JSON.stringify(bootstrap(withContent)))
  const { env: startEnv, flags } = startFlags()
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'declarative-service.ts'), [], {
    // DECLARATIVE_BENCH_NODE_ARGS: more node flags for the service (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof)
    execArgv: ['--import', 'tsx', ...flags, ...(process.env.DECLARATIVE_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [])],
    env: { PATH: process.env.PATH ?? '', ...startEnv, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, name), GATEWAY_BOOTSTRAP: file, GATEWAY_SECRET_KEY: KEY, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const waiting = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>()
  let next = 0
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}`)))
    child.on('message', (m: { url?: string; id?: number; value?: unknown; error?: string }) => {
      if (m.url) return resolve(m.url)
      const w = waiting.get(m.id!)
      waiting.delete(m.id!)
      if (m.error) w?.reject(new Error(m.error))
      else w?.resolve(m.value)
    })
  })
  const ask = <T>(op: string, extra: Record<string, unknown> = {}) => new Promise<T>((resolve, reject) => {
    const id = next++
    waiting.set(id, { resolve, reject })
    child.send({ id, op, ...extra })
  })
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r))
    await ask('stop').catch(() => undefined)
    await exited
  }
  return { svc: { url, pid: child.pid!, ask, stop } }
}

/** The service process's resident set now and at its peak since the last reset (the kernel's counters, in MB). */
function rssOf(pid: number) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}
/** Resets the process's peak RSS to its current RSS (proc(5), clear_refs: 5). */
const resetPeakRss = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5')

async function call(svc: Service, token: string, pathname: string, init: { method?: string; json?: unknown } = {}) {
  const t0 = performance.now()
  const res = await fetch(svc.url + pathname, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : undefined,
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${pathname}: HTTP ${res.status} ${text.slice(0, 300)}`)
  return { json: JSON.parse(text), seconds: (performance.now() - t0) / 1000 }
}

async function tokenOf(svc: Service) {
  const res = await fetch(`${svc.url}/apiops/auth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: USER.username, client_secret: USER.password }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

const sortedOf = (xs: number[]) => xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
const medianOf = (xs: number[]) => sortedOf(xs)[Math.floor((sortedOf(xs).length - 1) / 2)] ?? Number.NaN
const minOf = (xs: number[]) => sortedOf(xs)[0] ?? Number.NaN
const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')

/** The service's peak RSS and JS heap over idle while `work` runs (idle after two full collections). */
async function peakMemory<T>(svc: Service, work: () => Promise<T>): Promise<{ result: T; idleRss: number; idleHeap: number; rss: number; heap: number; collections: number }> {
  const idle = await svc.ask<{ heap: number }>('idle')
  resetPeakRss(svc.pid)
  const idleRss = rssOf(svc.pid).rss
  const result = await work()
  const peak = await svc.ask<{ heap: number; collections: number }>('peak')
  return { result, idleRss, idleHeap: idle.heap, rss: rssOf(svc.pid).peak, heap: peak.heap, collections: peak.collections }
}

/**
 * The state file of run r's sync: the bootstrap's content (passwords included: both sides seal them) under target's
 * name and usernames, and E endpoints per proxy (stated by method and path, as a person writes them).
 */
export function syncDocument(prefix: string, target: string): Record<string, unknown> {
  const c = content(prefix)
  return { formatVersion: 1, project: target, environments: ['dev'], ...c, apiProxies: c.apiProxies.map((p) => ({ ...p, endpoints: endpointsOf() })) }
}

async function measure(label: string, env: (name: string) => Promise<Record<string, string>> | Record<string, string>) {
  const objects = N + A + P
  console.log(`\n== declarative sync of ${N.toLocaleString('en')} credentials, ${A.toLocaleString('en')} applications and ${P} API proxies with ${E} endpoints each, ${label}, ${R} interleaved runs (load average ${loadAverage()}) ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-declarative-'))
  try {
    const { svc } = await start(dir, 'bench', false, await env('bench'))
    try {
      const token = await tokenOf(svc)
      const boot: number[] = []
      const sync: number[] = []
      const plans: number[] = []
      const dumps: number[] = []
      let doc: Record<string, unknown> = {}
      for (let r = 0; r < R; r++) {
        // the bootstrap file's apply of the same content, timed alone (start-up noise left out)
        const file = path.join(dir, `content-${r}.json`)
        fs.writeFileSync(file, JSON.stringify(bootstrap(true, r)))
        const applied = await svc.ask<{ seconds: number; error?: string }>('bootstrap', { file })
        // a failure is shown, not hidden: the sync is still measured
        boot.push(applied.error ? Number.NaN : applied.seconds)
        if (applied.error) console.log(`run ${r + 1}: the bootstrap apply failed after ${applied.seconds.toFixed(1)} s: ${applied.error}`)
        const target = `decl-target-${r}`
        doc = syncDocument(`t${r}-`, target)
        const plan = await call(svc, token, `/apiops/projects/${target}/declarative-plans`, { method: 'POST', json: { mode: 'sync', document: doc } })
        const apply = await call(svc, token, `/apiops/projects/${target}/declarative-plans/${plan.json.id}/apply`, { method: 'POST' })
        if (apply.json.summary.create !== objects) throw new Error(`run ${r}: ${apply.json.summary.create} created, expected ${objects}`)
        sync.push(plan.seconds + apply.seconds)
        console.log(`run ${r + 1}: bootstrap apply ${boot[r]!.toFixed(2)} s; sync plan ${plan.seconds.toFixed(2)} s + apply ${apply.seconds.toFixed(2)} s = ${sync[r]!.toFixed(2)} s → ${(sync[r]! / boot[r]!).toFixed(2)}× (load ${loadAverage()})`)
      }
      console.log(`sync into an empty project vs the bootstrap apply: fastest ${minOf(sync).toFixed(2)} s / ${minOf(boot).toFixed(2)} s = ${(minOf(sync) / minOf(boot)).toFixed(2)}×, median ${medianOf(sync).toFixed(2)} s / ${medianOf(boot).toFixed(2)} s = ${(medianOf(sync) / medianOf(boot)).toFixed(2)}× (target ≤ 3×)`)
      const last = `decl-target-${R - 1}`
      const audits = async () => (await call(svc, token, `/apiops/projects/${last}/audit-events?size=1`)).json.totalElements as number
      const outbox = () => svc.ask<number>('outbox')
      const memory: Awaited<ReturnType<typeof peakMemory>>[] = []
      let planId = ''
      let changes = -1
      const instrumented: number[] = []
      for (let r = 0; r < R; r++) {
        // timed as the dump is, with nothing else in the service: the memory run below starts from two full
        // collections and records every collection, which the dump's timing does not pay
        dumps.push((await call(svc, token, `/apiops/projects/${last}/declarative-state`)).seconds)
        plans.push((await call(svc, token, `/apiops/projects/${last}/declarative-plans`, { method: 'POST', json: { mode: 'sync', document: doc } })).seconds)
        const measured = await peakMemory(svc, () => call(svc, token, `/apiops/projects/${last}/declarative-plans`, { method: 'POST', json: { mode: 'sync', document: doc } }))
        memory.push(measured)
        const noChange = measured.result as Awaited<ReturnType<typeof call>>
        instrumented.push(noChange.seconds)
        planId = noChange.json.id
        changes = noChange.json.changes.length
        if (changes) console.log(`no-change plan: ${changes} changes, e.g. ${JSON.stringify(noChange.json.changes[0]).slice(0, 400)}`)
      }
      console.log(`no-change plan (${changes} changes) vs dump: fastest ${minOf(plans).toFixed(2)} s / ${minOf(dumps).toFixed(2)} s = ${(minOf(plans) / minOf(dumps)).toFixed(2)}×, median ${medianOf(plans).toFixed(2)} s / ${medianOf(dumps).toFixed(2)} s = ${(medianOf(plans) / medianOf(dumps)).toFixed(2)}× (target ≤ 1.5×); the same plans timed during the memory runs (after two full collections, the collector profiled): fastest ${minOf(instrumented).toFixed(2)} s, median ${medianOf(instrumented).toFixed(2)} s`)
      const auditBefore = await audits()
      const outboxBefore = await outbox()
      const second = await call(svc, token, `/apiops/projects/${last}/declarative-plans/${planId}/apply`, { method: 'POST' })
      console.log(`second sync: applied ${second.json.applied}, ${second.json.pushes.length} pushes, ${(await audits()) - auditBefore} audit events, ${(await outbox()) - outboxBefore} outbox rows (target: none)`)
      const over = memory.map((m) => `RSS ${m.idleRss.toFixed(0)} → ${m.rss.toFixed(0)} MB (+${(m.rss - m.idleRss).toFixed(0)}), JS heap ${m.idleHeap.toFixed(0)} → ${m.heap.toFixed(0)} MB (+${(m.heap - m.idleHeap).toFixed(0)}, ${m.collections} collections)`)
      const worst = (f: (m: (typeof memory)[number]) => number) => Math.max(...memory.map(f)).toFixed(0)
      console.log(`memory of the service process during the ${objects.toLocaleString('en')}-object no-change plans, over idle: peak RSS +${worst((m) => m.rss - m.idleRss)} MB, peak JS heap +${worst((m) => m.heap - m.idleHeap)} MB (target ≤ 100 MB over idle); each: ${over.join('; ')}; load average ${loadAverage()}`)
    } finally {
      await svc.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Both databases (PostgreSQL when BENCH_DATABASE_URL is set); DECLARATIVE_BENCH_ONLY=pglite or postgres runs one. */
export async function benchDeclarative() {
  const only = process.env.DECLARATIVE_BENCH_ONLY
  if (only !== 'postgres') await measure('PGlite', () => ({}))
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (pgUrl && only !== 'pglite') {
    await withScratchDatabase(pgUrl, process.env.DECLARATIVE_BENCH_DB_PREFIX ?? 'gw_bench_decl', (url) => measure('PostgreSQL', () => ({ DATABASE_URL: url })))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchDeclarative()
  process.exit(0)
}
