// Declarative configuration (issue 29 §7), as ratios within one run: a sync of N credentials and P API proxies into an
// empty project against the bootstrap file's apply of the same content (applyBootstrap, timed alone),
// a no-change plan against a dump of the same project, a second sync (must write nothing: no audit event), and the
// process's RSS growth during the plan. Runs the service in process on PGlite, and on PostgreSQL with
// BENCH_DATABASE_URL. N and P default to 1,000 and 20 (DECLARATIVE_BENCH_CREDENTIALS / _PROXIES), below §7's
// 10,000 + 200 on the shared 2-core machine.
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
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
const rssMb = () => process.memoryUsage().rss / (1024 * 1024)

function bootstrap(withContent: boolean) {
  const content = withContent
    ? {
        credentials: Array.from({ length: N }, (_, i) => ({ username: `decl-${String(i).padStart(5, '0')}`, password: `pw-${i}`, fullName: `Consumer ${i}`, email: `c${i}@example.test`, enabled: true })),
        apiProxies: Array.from({ length: P }, (_, i) => ({ name: `proxy-${String(i).padStart(3, '0')}`, kind: 'REST' })),
      }
    : {}
  return {
    environments: [{ name: 'dev', workerUrls: [] }],
    users: [USER],
    projects: [{ name: 'decl-boot', environments: ['dev'], ...content }, { name: 'decl-target', environments: ['dev'] }],
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

async function measure(label: string, env: (name: string) => Promise<Record<string, string>> | Record<string, string>) {
  console.log(`\n== declarative sync of ${N.toLocaleString('en')} credentials and ${P} API proxies, ${label} ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-declarative-'))
  try {
    const { svc } = await start(dir, 'bench', false, await env('bench'))
    try {
      // the bootstrap file's apply of the same content, timed alone (start-up noise left out)
      const t0 = performance.now()
      await applyBootstrap(svc.deps, parseBootstrap(JSON.stringify(bootstrap(true))))
      const bootstrapSeconds = (performance.now() - t0) / 1000
      const token = await tokenOf(svc)
      const dump = await call(svc, token, '/apiops/projects/decl-boot/declarative-state')
      const doc = { ...dump.json, project: 'decl-target', credentials: dump.json.credentials.map((c: { username: string }) => ({ ...c, username: `t-${c.username}` })) }
      const plan = await call(svc, token, '/apiops/projects/decl-target/declarative-plans', { method: 'POST', json: { mode: 'sync', document: doc } })
      const apply = await call(svc, token, `/apiops/projects/decl-target/declarative-plans/${plan.json.id}/apply`, { method: 'POST' })
      const syncSeconds = plan.seconds + apply.seconds
      console.log(`bootstrap apply of the same content: ${bootstrapSeconds.toFixed(2)} s`)
      console.log(`sync into an empty project: plan ${plan.seconds.toFixed(2)} s + apply ${apply.seconds.toFixed(2)} s = ${syncSeconds.toFixed(2)} s (${apply.json.summary.create} created) → ${(syncSeconds / bootstrapSeconds).toFixed(2)}× the bootstrap (target ≤ 3×)`)
      const audits = async () => (await call(svc, token, '/apiops/projects/decl-target/audit-events?size=1')).json.totalElements as number
      const auditBefore = await audits()
      const targetDump = await call(svc, token, '/apiops/projects/decl-target/declarative-state')
      const rssBefore = rssMb()
      const noChange = await call(svc, token, '/apiops/projects/decl-target/declarative-plans', { method: 'POST', json: { mode: 'sync', document: doc } })
      const rssAfter = rssMb()
      console.log(`no-change plan ${noChange.seconds.toFixed(2)} s (${noChange.json.changes.length} changes) vs dump ${targetDump.seconds.toFixed(2)} s → ${(noChange.seconds / targetDump.seconds).toFixed(2)}× (target ≤ 1.5×)`)
      const second = await call(svc, token, `/apiops/projects/decl-target/declarative-plans/${noChange.json.id}/apply`, { method: 'POST' })
      console.log(`second sync: applied ${second.json.applied}, ${second.json.pushes.length} pushes, ${(await audits()) - auditBefore} audit events (target: none)`)
      console.log(`RSS during the ${N + P}-object plan: ${rssBefore.toFixed(0)} MB → ${rssAfter.toFixed(0)} MB (+${(rssAfter - rssBefore).toFixed(0)} MB; target ≤ 100 MB over idle)`)
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
