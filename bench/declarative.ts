// Declarative configuration (issue 29 §7), as ratios within one run: a sync of N credentials, A applications (each
// the application of N/A of the credentials, its consumers) and P API proxies with E endpoints each into an empty
// project against the bootstrap file's apply of the same content (applyBootstrap, timed alone; the bootstrap file
// cannot carry endpoints, so its proxies have none and the sync's endpoints are extra work on the sync's side), a
// no-change plan against a dump of the same project, a second sync (must write nothing: no audit event, no push), and
// the process's memory during the plan (RSS and JS heap sampled every 10 ms, idle taken after a full collection).
// Runs the service in process (PGlite in process too), and on PostgreSQL with BENCH_DATABASE_URL
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
import v8 from 'node:v8'
import vm from 'node:vm'
import { loadConfig } from '../src/config.js'
import { createLogger } from '../src/platform/http/logger.js'
import { startService, type RunningService } from '../src/service.js'
import { applyBootstrap, parseBootstrap } from '../src/bootstrap/apply.js'
import { withScratchDatabase } from './scratch-database.js'

const FULL = process.env.DECLARATIVE_BENCH_SIZE === 'full'
const N = Number(process.env.DECLARATIVE_BENCH_CREDENTIALS ?? (FULL ? 10_000 : 1_000))
const A = Number(process.env.DECLARATIVE_BENCH_APPLICATIONS ?? (FULL ? 1_000 : 100))
const P = Number(process.env.DECLARATIVE_BENCH_PROXIES ?? (FULL ? 200 : 20))
const E = Number(process.env.DECLARATIVE_BENCH_ENDPOINTS ?? 10)
const R = Math.max(1, Number(process.env.DECLARATIVE_BENCH_REPEATS ?? 3))
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
const rssMb = () => process.memoryUsage().rss / (1024 * 1024)
const heapMb = () => process.memoryUsage().heapUsed / (1024 * 1024)
v8.setFlagsFromString('--expose-gc')
/** A full collection, so that idle and retained memory are not garbage left from before. */
const collect = vm.runInNewContext('gc') as () => void

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

async function start(dir: string, name: string, withContent: boolean, env: Record<string, string>) {
  const file = path.join(dir, `${name}.json`)
  fs.writeFileSync(file, JSON.stringify(bootstrap(withContent)))
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, name), GATEWAY_BOOTSTRAP: file, GATEWAY_SECRET_KEY: KEY, ...env })
  const svc = await startService(config, createLogger('warn'))
  return { svc }
}

async function call(svc: RunningService, token: string, pathname: string, init: { method?: string; json?: unknown } = {}) {
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

async function tokenOf(svc: RunningService) {
  const res = await fetch(`${svc.url}/apiops/auth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: USER.username, client_secret: USER.password }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

const seconds = (t0: number) => (performance.now() - t0) / 1000
const sortedOf = (xs: number[]) => xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
const medianOf = (xs: number[]) => sortedOf(xs)[Math.floor((sortedOf(xs).length - 1) / 2)] ?? Number.NaN
const minOf = (xs: number[]) => sortedOf(xs)[0] ?? Number.NaN
const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')

/** The peak of RSS and JS heap while `work` runs, sampled every 10 ms (the service runs in this process). */
async function peakMemory<T>(work: () => Promise<T>): Promise<{ result: T; rss: number; heap: number }> {
  let rss = rssMb()
  let heap = heapMb()
  const sample = () => {
    rss = Math.max(rss, rssMb())
    heap = Math.max(heap, heapMb())
  }
  const timer = setInterval(sample, 10)
  try {
    const result = await work()
    sample()
    return { result, rss, heap }
  } finally {
    clearInterval(timer)
  }
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
        const file = parseBootstrap(JSON.stringify(bootstrap(true, r)))
        const t0 = performance.now()
        try {
          await applyBootstrap(svc.deps, file)
          boot.push(seconds(t0))
        } catch (err) {
          // shown, not hidden: the sync is still measured
          boot.push(Number.NaN)
          console.log(`run ${r + 1}: the bootstrap apply failed after ${seconds(t0).toFixed(1)} s: ${String((err as Error).message).split('\n').filter(Boolean).slice(-1)[0]}`)
        }
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
      const outbox = () => svc.deps.prisma.deliveryOutbox.count()
      let idleRss = 0
      let idleHeap = 0
      let peakRss = 0
      let peakHeap = 0
      let retainedHeap = 0
      let planId = ''
      let changes = -1
      for (let r = 0; r < R; r++) {
        dumps.push((await call(svc, token, `/apiops/projects/${last}/declarative-state`)).seconds)
        await new Promise((res) => setTimeout(res, 200))
        collect()
        if (r === 0) (idleRss = rssMb(), idleHeap = heapMb())
        const measured = await peakMemory(() => call(svc, token, `/apiops/projects/${last}/declarative-plans`, { method: 'POST', json: { mode: 'sync', document: doc } }))
        collect()
        retainedHeap = Math.max(retainedHeap, heapMb())
        const noChange = measured.result
        peakRss = Math.max(peakRss, measured.rss) // the peak over the plans (garbage between them included)
        peakHeap = Math.max(peakHeap, measured.heap)
        plans.push(noChange.seconds)
        planId = noChange.json.id
        changes = noChange.json.changes.length
        if (changes) console.log(`no-change plan: ${changes} changes, e.g. ${JSON.stringify(noChange.json.changes[0]).slice(0, 400)}`)
      }
      console.log(`no-change plan (${changes} changes) vs dump: fastest ${minOf(plans).toFixed(2)} s / ${minOf(dumps).toFixed(2)} s = ${(minOf(plans) / minOf(dumps)).toFixed(2)}×, median ${medianOf(plans).toFixed(2)} s / ${medianOf(dumps).toFixed(2)} s = ${(medianOf(plans) / medianOf(dumps)).toFixed(2)}× (target ≤ 1.5×)`)
      const auditBefore = await audits()
      const outboxBefore = await outbox()
      const second = await call(svc, token, `/apiops/projects/${last}/declarative-plans/${planId}/apply`, { method: 'POST' })
      console.log(`second sync: applied ${second.json.applied}, ${second.json.pushes.length} pushes, ${(await audits()) - auditBefore} audit events, ${(await outbox()) - outboxBefore} outbox rows (target: none)`)
      console.log(`memory during the ${objects.toLocaleString('en')}-object no-change plans (peak over ${R}, sampled every 10 ms): RSS ${idleRss.toFixed(0)} MB → ${peakRss.toFixed(0)} MB (+${(peakRss - idleRss).toFixed(0)} MB; target ≤ 100 MB over idle), JS heap ${idleHeap.toFixed(0)} MB → ${peakHeap.toFixed(0)} MB (+${(peakHeap - idleHeap).toFixed(0)} MB, garbage included), ${retainedHeap.toFixed(0)} MB after a collection; load average ${loadAverage()}`)
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
    await withScratchDatabase(pgUrl, 'gw_bench_decl', (url) => measure('PostgreSQL', () => ({ DATABASE_URL: url })))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchDeclarative()
  process.exit(0)
}
