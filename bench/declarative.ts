// Declarative configuration (issue 29 §7), as ratios within one run: a sync of N credentials and P API proxies into an
// empty project against the bootstrap file's apply of the same content (applyBootstrap, timed alone),
// a no-change plan against a dump of the same project, a second sync (must write nothing: no audit event), and the
// process's RSS growth during the plan. Runs the service in process on PGlite, and on PostgreSQL with
// BENCH_DATABASE_URL. N and P default to 1,000 and 20 (DECLARATIVE_BENCH_CREDENTIALS / _PROXIES), below §7's
// 10,000 + 200 on the shared 2-core machine. Each pair is measured DECLARATIVE_BENCH_REPEATS times (default 3),
// interleaved (bootstrap r, then sync r, each into a project of its own), so that load on the machine hits both
// sides alike; the ratio is given of the fastest runs and of the medians, with the load average.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../src/config.js'
import { createLogger } from '../src/platform/http/logger.js'
import { startService, type RunningService } from '../src/service.js'
import { applyBootstrap, parseBootstrap } from '../src/bootstrap/apply.js'
import { withScratchDatabase } from './scratch-database.js'

const N = Number(process.env.DECLARATIVE_BENCH_CREDENTIALS ?? 1_000)
const P = Number(process.env.DECLARATIVE_BENCH_PROXIES ?? 20)
const R = Math.max(1, Number(process.env.DECLARATIVE_BENCH_REPEATS ?? 3))
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
const rssMb = () => process.memoryUsage().rss / (1024 * 1024)

/** The content of project `name`, its usernames prefixed so that each run's stay unique in the installation. */
const content = (prefix: string) => ({
  credentials: Array.from({ length: N }, (_, i) => ({ username: `${prefix}decl-${String(i).padStart(5, '0')}`, password: `pw-${i}`, fullName: `Consumer ${i}`, email: `c${i}@example.test`, enabled: true })),
  apiProxies: Array.from({ length: P }, (_, i) => ({ name: `proxy-${String(i).padStart(3, '0')}`, kind: 'REST' })),
})

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
const sortedOf = (xs: number[]) => [...xs].sort((a, b) => a - b)
const medianOf = (xs: number[]) => sortedOf(xs)[Math.floor((xs.length - 1) / 2)]!
const minOf = (xs: number[]) => sortedOf(xs)[0]!
const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')

async function measure(label: string, env: (name: string) => Promise<Record<string, string>> | Record<string, string>) {
  console.log(`\n== declarative sync of ${N.toLocaleString('en')} credentials and ${P} API proxies, ${label}, ${R} interleaved runs (load average ${loadAverage()}) ==`)
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
        const t0 = performance.now()
        await applyBootstrap(svc.deps, parseBootstrap(JSON.stringify(bootstrap(true, r))))
        boot.push(seconds(t0))
        const dump = await call(svc, token, `/apiops/projects/decl-boot-${r}/declarative-state`)
        const target = `decl-target-${r}`
        doc = { ...dump.json, project: target, credentials: dump.json.credentials.map((c: { username: string }) => ({ ...c, username: `t${c.username.slice(1)}` })) }
        const plan = await call(svc, token, `/apiops/projects/${target}/declarative-plans`, { method: 'POST', json: { mode: 'sync', document: doc } })
        const apply = await call(svc, token, `/apiops/projects/${target}/declarative-plans/${plan.json.id}/apply`, { method: 'POST' })
        if (apply.json.summary.create !== N + P) throw new Error(`run ${r}: ${apply.json.summary.create} created, expected ${N + P}`)
        sync.push(plan.seconds + apply.seconds)
        console.log(`run ${r + 1}: bootstrap apply ${boot[r]!.toFixed(2)} s; sync plan ${plan.seconds.toFixed(2)} s + apply ${apply.seconds.toFixed(2)} s = ${sync[r]!.toFixed(2)} s → ${(sync[r]! / boot[r]!).toFixed(2)}× (load ${loadAverage()})`)
      }
      console.log(`sync into an empty project vs the bootstrap apply: fastest ${minOf(sync).toFixed(2)} s / ${minOf(boot).toFixed(2)} s = ${(minOf(sync) / minOf(boot)).toFixed(2)}×, median ${medianOf(sync).toFixed(2)} s / ${medianOf(boot).toFixed(2)} s = ${(medianOf(sync) / medianOf(boot)).toFixed(2)}× (target ≤ 3×)`)
      const last = `decl-target-${R - 1}`
      const audits = async () => (await call(svc, token, `/apiops/projects/${last}/audit-events?size=1`)).json.totalElements as number
      const auditBefore = await audits()
      let rssBefore = 0
      let rssAfter = 0
      let planId = ''
      let changes = -1
      for (let r = 0; r < R; r++) {
        dumps.push((await call(svc, token, `/apiops/projects/${last}/declarative-state`)).seconds)
        if (r === 0) rssBefore = rssMb()
        const noChange = await call(svc, token, `/apiops/projects/${last}/declarative-plans`, { method: 'POST', json: { mode: 'sync', document: doc } })
        rssAfter = Math.max(rssAfter, rssBefore, rssMb()) // the peak over the plans (a collection in between can make it lower)
        plans.push(noChange.seconds)
        planId = noChange.json.id
        changes = noChange.json.changes.length
      }
      console.log(`no-change plan (${changes} changes) vs dump: fastest ${minOf(plans).toFixed(2)} s / ${minOf(dumps).toFixed(2)} s = ${(minOf(plans) / minOf(dumps)).toFixed(2)}×, median ${medianOf(plans).toFixed(2)} s / ${medianOf(dumps).toFixed(2)} s = ${(medianOf(plans) / medianOf(dumps)).toFixed(2)}× (target ≤ 1.5×)`)
      const second = await call(svc, token, `/apiops/projects/${last}/declarative-plans/${planId}/apply`, { method: 'POST' })
      console.log(`second sync: applied ${second.json.applied}, ${second.json.pushes.length} pushes, ${(await audits()) - auditBefore} audit events (target: none)`)
      console.log(`RSS during the ${N + P}-object plans: ${rssBefore.toFixed(0)} MB → peak ${rssAfter.toFixed(0)} MB (+${(rssAfter - rssBefore).toFixed(0)} MB; target ≤ 100 MB over idle); load average ${loadAverage()}`)
    } finally {
      await svc.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchDeclarative() {
  await measure('PGlite', () => ({}))
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (pgUrl) {
    await withScratchDatabase(pgUrl, 'gw_bench_decl', (url) => measure('PostgreSQL', () => ({ DATABASE_URL: url })))
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchDeclarative()
  process.exit(0)
}
