// Where the PostgreSQL time of a declarative dump, plan and apply goes: every pg.Client query timed and grouped by
// statement, and EXPLAIN (ANALYZE, BUFFERS) of the first statement over 300 ms. The content is bench/declarative.ts's
// (DECLARATIVE_BENCH_SIZE=full for §7's size, or DECLARATIVE_BENCH_CREDENTIALS / _APPLICATIONS / _PROXIES /
// _ENDPOINTS). Not part of npm run bench:
//   DECLARATIVE_BENCH_SIZE=full PG=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/declarative-profile.ts
// (add `node --cpu-prof --import tsx` instead of tsx for the JavaScript side). docs/declarative.md "Speed" says what
// it found.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import inspector from 'node:inspector/promises'
import pg from 'pg'
import { loadConfig } from '../src/config.js'
import { createLogger } from '../src/platform/http/logger.js'
import { startService } from '../src/service.js'
import { PrismaClient } from '../src/generated/prisma/client.js'
import { applyBootstrap, parseBootstrap } from '../src/bootstrap/apply.js'
import { withScratchDatabase } from './scratch-database.js'
import { content, syncDocument } from './declarative.js'

const stats = new Map<string, { n: number; ms: number }>()
let on = false
let slow: { text: string; values: unknown[] } | null = null
const orig = pg.Client.prototype.query as any
;(pg.Client.prototype as any).query = function (this: any, ...args: any[]) {
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text ?? '?'
  const t0 = performance.now()
  const cb = typeof args[args.length - 1] === 'function' ? args.length - 1 : -1
  const record = () => {
      const ms = performance.now() - t0
      if (ms > 300 && !slow && on) slow = { text: String(text), values: Array.isArray(args[1]) ? args[1] : args[0]?.values }
      if (!on) return
      const key = String(text).replace(/\$\d+/g, '$').replace(/\s+/g, ' ').replace(/(\$, ?)+\$/g, '$…').slice(0, 160)
      const s = stats.get(key) ?? { n: 0, ms: 0 }
      s.n++; s.ms += ms
      stats.set(key, s)
  }
  if (cb >= 0) { const f = args[cb]; args[cb] = (...a: any[]) => { record(); return f(...a) } }
  const r = orig.apply(this, args)
  if (r && typeof r.then === 'function') r.then(record, () => undefined)
  return r
}
// DECLARATIVE_PROFILE_PRISMA=1: each Prisma call's wall time (its JavaScript and its statement), by model and action
const calls = new Map<string, { n: number; ms: number }>()
if (process.env.DECLARATIVE_PROFILE_PRISMA) {
  const request = (PrismaClient.prototype as any)._request
  ;(PrismaClient.prototype as any)._request = function (this: any, params: any) {
    const t0 = performance.now()
    const sql = params.args?.strings?.join('$') ?? params.args?.[0] ?? ''
    const at = process.env.DECLARATIVE_PROFILE_PRISMA === 'callers' ? params.callsite?.getLocation?.() : null
    const where = at ? ` ← ${String(at.fileName).split('/src/').pop()}:${at.lineNumber}` : ''
    const key = (params.model ? `${params.model}.${params.action}` : `${params.action} ${String(sql).replace(/\s+/g, ' ').trim().slice(0, 90)}`) + where
    const done = () => { if (!on) return; const c = calls.get(key) ?? { n: 0, ms: 0 }; c.n++; c.ms += performance.now() - t0; calls.set(key, c) }
    const r = request.call(this, params)
    r.then(done, done)
    return r
  }
}
// DECLARATIVE_PROFILE_CPU=dir: CPU profiles of this process (the service's JavaScript) during the apply, the target's
// dump and the no-change plan, one file each
// DECLARATIVE_PROFILE_HEAP=dir: sampled allocations instead (garbage included), one .heapprofile each
async function profiled<T>(label: string, work: () => Promise<T>): Promise<T> {
  const heapDir = process.env.DECLARATIVE_PROFILE_HEAP
  if (heapDir) {
    const session = new inspector.Session()
    session.connect()
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as any)
    try { return await work() } finally {
      const { profile } = await session.post('HeapProfiler.stopSampling')
      fs.mkdirSync(heapDir, { recursive: true }); fs.writeFileSync(path.join(heapDir, `${label.replace(/\W+/g, '-')}.heapprofile`), JSON.stringify(profile))
      session.disconnect()
    }
  }
  const dir = process.env.DECLARATIVE_PROFILE_CPU
  if (!dir) return work()
  const session = new inspector.Session()
  session.connect(); await session.post('Profiler.enable'); await session.post('Profiler.start')
  try { return await work() } finally {
    const { profile } = await session.post('Profiler.stop')
    fs.mkdirSync(dir, { recursive: true }); fs.writeFileSync(path.join(dir, `${label.replace(/\W+/g, '-')}.cpuprofile`), JSON.stringify(profile))
    session.disconnect()
  }
}
const dump = (label: string) => {
  if (calls.size) {
    console.log(`\n-- ${label}: Prisma calls (wall, with their JavaScript)`)
    for (const [k, c] of [...calls.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 20)) console.log(`${c.ms.toFixed(0).padStart(7)} ms ${String(c.n).padStart(6)}× ${k}`)
    calls.clear()
  }
  const rows = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)
  console.log(`\n-- ${label}: ${[...stats.values()].reduce((a, s) => a + s.n, 0)} statements, ${[...stats.values()].reduce((a, s) => a + s.ms, 0).toFixed(0)} ms`)
  for (const [k, s] of rows) console.log(`${s.ms.toFixed(0).padStart(7)} ms ${String(s.n).padStart(6)}× ${k}`)
  stats.clear()
}
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
const boot = (withContent: boolean) => ({ environments: [{ name: 'dev', workerUrls: [] }], users: [USER], projects: [{ name: 'decl-boot', environments: ['dev'], ...(withContent ? content('b-') : {}) }, { name: 'decl-target', environments: ['dev'] }] })
await withScratchDatabase(process.env.PG ?? 'postgresql://postgres@127.0.0.1:5432/postgres', process.env.DECLARATIVE_BENCH_DB_PREFIX ?? 'gw_prof', async (url) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-prof-'))
  const file = path.join(dir, 'b.json'); fs.writeFileSync(file, JSON.stringify(boot(false)))
  const svc = await startService(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: dir, GATEWAY_BOOTSTRAP: file, GATEWAY_SECRET_KEY: crypto.randomBytes(32).toString('base64'), DATABASE_URL: url }), createLogger('warn'))
  on = true
  let t = performance.now()
  await applyBootstrap(svc.deps, parseBootstrap(JSON.stringify(boot(true))))
  console.log('bootstrap', (performance.now() - t).toFixed(0)); dump('bootstrap')
  const tok = ((await (await fetch(`${svc.url}/apiops/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: USER.username, client_secret: USER.password }) })).json()) as any).access_token
  const call = async (p: string, json?: unknown) => { const r = await fetch(svc.url + p, { method: json ? 'POST' : 'GET', headers: { authorization: `Bearer ${tok}`, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined }); const x = await r.json() as any; if (r.status !== 200) throw new Error(JSON.stringify(x).slice(0, 300)); return x }
  stats.clear()
  t = performance.now(); await call('/apiops/projects/decl-boot/declarative-state'); console.log('dump', (performance.now() - t).toFixed(0)); dump('dump')
  const doc = syncDocument('t-', 'decl-target')
  t = performance.now(); const plan = await call('/apiops/projects/decl-target/declarative-plans', { mode: 'sync', document: doc }); console.log('plan', (performance.now() - t).toFixed(0)); dump('plan')
  t = performance.now(); await profiled('apply', () => call(`/apiops/projects/decl-target/declarative-plans/${plan.id}/apply`, {})); console.log('apply', (performance.now() - t).toFixed(0)); dump('apply')
  await new Promise((r) => setTimeout(r, 2000)); dump('after apply (2 s)')
  t = performance.now(); await profiled('dump', () => call('/apiops/projects/decl-target/declarative-state')); console.log('dump target', (performance.now() - t).toFixed(0)); dump('dump target')
  t = performance.now(); const again = await profiled('no-change plan', () => call('/apiops/projects/decl-target/declarative-plans', { mode: 'sync', document: doc })); console.log('no-change plan', (performance.now() - t).toFixed(0), `(${again.changes.length} changes)`); dump('no-change plan')
  t = performance.now(); await call(`/apiops/projects/decl-target/declarative-plans/${again.id}/apply`, {}); console.log('second sync', (performance.now() - t).toFixed(0)); dump('second sync')
  if (slow) {
    const c = new pg.Client({ connectionString: url }); await c.connect()
    console.log(slow.text.slice(0, 600))
    const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${slow.text}`, slow.values as any[])
    console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n'))
    const st = await c.query(`select relname, n_live_tup, last_analyze, last_autoanalyze from pg_stat_user_tables where relname = 'Credential'`)
    console.log(st.rows)
    const pc = await c.query(`select reltuples, relpages from pg_class where relname = 'Credential'`); console.log(pc.rows)
    await c.end()
  }
  await svc.stop()
  fs.rmSync(dir, { recursive: true, force: true })
})
process.exit(0)
