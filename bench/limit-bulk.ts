// Bulk limit assignment at scale (issues 5 and 12): N consumers in one project (10,000 and 50,000), one bulk ASSIGN
// run over all of them through the API (preview, run, poll until finished) with a gateway worker on loopback that
// takes batches (RUNTIME.md §4.1) and counts the HTTP requests it receives (on a thread of its own, as a real worker
// is another process); its wall time, subjects/s, the process's CPU time and peak RSS; beside it, measured in the same run against the same database, the floor: one raw
// INSERT … SELECT of the same assignment rows (same columns and values) for N other consumers, and the ratio.
// Runs the service in process on PGlite, and on PostgreSQL when BENCH_DATABASE_URL is set.
// `BENCH_BULK_SIZES=10000,50000` (default) chooses the sizes, `BENCH_BULK_ONLY=pglite|postgres` one database.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import v8 from 'node:v8'
import vm from 'node:vm'
import { Worker } from 'node:worker_threads'
import { loadConfig } from '../src/config.js'
import { contentColumns, liveScopeKeyOf, validateAssignmentContent } from '../src/modules/limits/assignments/service.js'
import { createLogger } from '../src/platform/http/logger.js'
import { mintPublicKey } from '../src/platform/keys.js'
import { startService, type RunningService } from '../src/service.js'
import { withScratchDatabase } from './scratch-database.js'

const SIZES = (process.env.BENCH_BULK_SIZES ?? '10000,50000').split(',').map(Number)
const SEED_BATCH = 10_000
const PROJECT = 'bench-bulk'
const RAW_PROJECT = 'bench-bulk-raw'
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
const CONTENT = { family: 'REQUEST_RATE', mode: 'CUSTOM', customRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 1000, interval: 'ONE_MINUTE' }] } } }

// a full GC without --expose-gc on the command line (npm run bench), to tell what the run keeps from garbage not yet collected
v8.setFlagsFromString('--expose-gc')
const fullGc = vm.runInNewContext('gc') as () => void

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`

/** The counting worker's code: an HTTP server on loopback, counts in shared memory, its URL posted back. */
const WORKER_CODE = `
const http = require('node:http')
const { parentPort, workerData } = require('node:worker_threads')
const counts = new Int32Array(workerData)
const server = http.createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    Atomics.add(counts, 0, 1)
    if (req.url === '/deployments/batch') {
      Atomics.add(counts, 1, 1)
      Atomics.add(counts, 2, JSON.parse(body).messages.length)
    } else Atomics.add(counts, 2, 1)
    res.end('{}')
  })
})
server.listen(0, '127.0.0.1', () => parentPort.postMessage('http://127.0.0.1:' + server.address().port))
parentPort.on('message', () => { server.closeAllConnections(); server.close(() => process.exit(0)) })
`

/**
 * A gateway worker that takes batches and counts what it receives, on a thread of its own: a real worker is another
 * process, so its work (reading and parsing the batches) is not charged to the service's thread, and it answers while
 * that thread is busy (with PGlite, the database runs on the service's thread).
 */
export async function countingWorker() {
  const shared = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT)
  const view = new Int32Array(shared)
  const thread = new Worker(WORKER_CODE, { eval: true, workerData: shared })
  const url = await new Promise<string>((resolve, reject) => thread.once('message', resolve).once('error', reject))
  return {
    counts: {
      get requests() { return Atomics.load(view, 0) },
      get batches() { return Atomics.load(view, 1) },
      get messages() { return Atomics.load(view, 2) },
    },
    url,
    stop: () => new Promise<void>((resolve) => { thread.once('exit', () => resolve()); thread.postMessage('stop') }),
  }
}

async function seedConsumers(svc: RunningService, projectName: string, CONSUMERS: number): Promise<{ projectId: string; ids: string[] }> {
  const prisma = svc.deps.prisma
  const { id: projectId } = await prisma.project.findUniqueOrThrow({ where: { name: projectName } })
  for (let start = 0; start < CONSUMERS; start += SEED_BATCH) {
    const names = Array.from({ length: Math.min(SEED_BATCH, CONSUMERS - start) }, (_, k) => `${projectName}-${String(start + k + 1).padStart(6, '0')}`)
    await prisma.$executeRaw`
      INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "fullName", enabled, "updatedAt")
      SELECT gen_random_uuid(), ${projectId}, u, k, u, true, now()
        FROM unnest(${names}::text[], ${names.map(() => mintPublicKey('csm'))}::text[]) AS t(u, k)`
  }
  await prisma.$executeRawUnsafe('ANALYZE "Credential"')
  const ids = (await prisma.credential.findMany({ where: { projectId }, select: { id: true }, orderBy: { username: 'asc' } })).map((c) => c.id)
  return { projectId, ids }
}

async function api(svc: RunningService, token: string, method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(svc.url + pathname, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await res.json()) as any
  if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${JSON.stringify(json)}`)
  return json
}

/** The same rows a bulk run writes (content columns, live scope key, source BULK, ACTIVE), in one INSERT … SELECT. */
async function rawInsert(svc: RunningService, projectId: string, subjectIds: string[]): Promise<number> {
  const prisma = svc.deps.prisma
  const content = validateAssignmentContent(CONTENT, { subjectType: 'CONSUMER', bulk: true })
  const c = contentColumns(content, null)
  const t0 = performance.now()
  {
    const ids = subjectIds
    const keys = ids.map(() => mintPublicKey('lb'))
    const scopeKeys = ids.map((id, i) => liveScopeKeyOf(projectId, { type: 'CONSUMER', key: null, ref: { credentialId: id, applicationId: null, apiClientId: null, organizationId: null, apiProxyId: null } }, content, keys[i]))
    await prisma.$executeRaw`
      INSERT INTO "LimitAssignment" ("id", "bindingKey", "projectId", "subjectType", "credentialId", "family", "actorScope", "targetType", "targetHttpMethods",
        "mode", "planKeys", "customRuleSpec", "cacheErrorHandlingType", "showRateLimitStatisticsInResponseHeader", "customMessageHttpStatusCode",
        "source", "status", "assignedBy", "bulkRunId", "liveScopeKey", "assignedAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, t.k, ${projectId}, 'CONSUMER', t.s, ${c.family}::"LimitFamily", ${c.actorScope}::"LimitActorScope", ${c.targetType}::"LimitTargetType",
        ${c.targetHttpMethods}::text[], ${c.mode}::"LimitContentMode", ${c.planKeys}::text[], ${JSON.stringify(c.customRuleSpec)}::jsonb, ${c.cacheErrorHandlingType},
        ${c.showRateLimitStatisticsInResponseHeader}, ${c.customMessageHttpStatusCode}, 'BULK', 'ACTIVE', 'bench', 'raw', t.l, now(), now(), now()
        FROM unnest(${keys}::text[], ${ids}::text[], ${scopeKeys}::text[]) AS t(k, s, l)`
  }
  return performance.now() - t0
}

export interface BulkFigures { label: string; consumers: number; runMs: number; cpuMs: number; rawMs: number; peakRss: number; rssBefore: number; heapBefore: number; heapAfter: number; peakHeap: number; requests: number; batches: number; messages: number }

async function measure(label: string, env: Record<string, string>, CONSUMERS: number): Promise<BulkFigures> {
  console.log(`\n== bulk limit assignment over ${CONSUMERS.toLocaleString('en')} consumers, ${label} ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-bulk-'))
  const bootstrapFile = path.join(dir, 'bootstrap.json')
  const worker = await countingWorker()
  fs.writeFileSync(bootstrapFile, JSON.stringify({ environments: [{ name: 'dev', workerUrls: [worker.url] }], users: [USER], projects: [{ name: PROJECT, environments: ['dev'] }, { name: RAW_PROJECT }] }))
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), GATEWAY_BOOTSTRAP: bootstrapFile, GATEWAY_SECRET_KEY: KEY, ...env,
  })
  const svc = await startService(config, createLogger('warn'))
  try {
    const t0 = performance.now()
    await seedConsumers(svc, PROJECT, CONSUMERS)
    const raw = await seedConsumers(svc, RAW_PROJECT, CONSUMERS)
    console.log(`seeded 2 × ${CONSUMERS.toLocaleString('en')} consumers in ${seconds(performance.now() - t0)}`)
    const tokenRes = await fetch(`${svc.url}/apiops/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: USER.username, client_secret: USER.password }),
    })
    const { access_token: token } = (await tokenRes.json()) as { access_token: string }
    const base = `/apiops/projects/${PROJECT}`
    const body = { selector: { subjectType: 'CONSUMER' }, content: CONTENT }

    fullGc()
    const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage()
    let peakRss = rssBefore
    let peakHeap = heapBefore
    // RSS every 50 ms (process.memoryUsage.rss() is cheap), the heap every 250 ms (process.memoryUsage() walks the
    // heap spaces: every 50 ms it cost the service's thread ~2% of the run)
    let ticks = 0
    const sample = (heapToo = ++ticks % 5 === 0) => {
      peakRss = Math.max(peakRss, process.memoryUsage.rss())
      if (heapToo) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)
    }
    const sampler = setInterval(sample, 50)
    const started = performance.now()
    const preview = await api(svc, token, 'POST', `${base}/limit-assignment-previews`, body)
    const previewMs = performance.now() - started
    const requestsBefore = worker.counts.requests
    const runStarted = performance.now()
    const cpuStarted = process.cpuUsage()
    const receipt = await api(svc, token, 'POST', `${base}/limit-assignment-runs`, { ...body, previewFingerprint: preview.selectorFingerprint, expectedCount: preview.expectedCount }, { 'idempotency-key': crypto.randomUUID() })
    let run: any
    do {
      await new Promise((r) => setTimeout(r, 25))
      run = await api(svc, token, 'GET', `${base}/limit-assignment-runs/${receipt.runId}`)
    } while (run.runStatus === 'QUEUED' || run.runStatus === 'RUNNING')
    const wallMs = performance.now() - started
    const runMs = performance.now() - runStarted
    const cpu = process.cpuUsage(cpuStarted)
    const cpuMs = (cpu.user + cpu.system) / 1000
    clearInterval(sampler)
    sample(true)
    fullGc()
    const heapAfter = process.memoryUsage().heapUsed
    if (run.runStatus !== 'SUCCESS' || run.createdCount !== CONSUMERS) throw new Error(`unexpected run: ${JSON.stringify(run).slice(0, 400)}`)

    const rawMs = await rawInsert(svc, raw.projectId, raw.ids)
    const rawCount = await svc.deps.prisma.limitAssignment.count({ where: { bulkRunId: 'raw' } })
    if (rawCount !== CONSUMERS) throw new Error(`raw insert wrote ${rawCount} rows`)

    const requests = worker.counts.requests - requestsBefore
    console.log(`preview (${preview.expectedCount.toLocaleString('en')} subjects): ${seconds(previewMs)}`)
    console.log(`bulk ASSIGN run, from the run request to SUCCESS: ${seconds(runMs)} (${Math.round(CONSUMERS / (runMs / 1000)).toLocaleString('en')} subjects/s; running → finished: ${seconds(run.durationMs)}; with the preview: ${seconds(wallMs)})`)
    console.log(`CPU time of this process during the run (service, bench, worker thread${label.startsWith('PostgreSQL') ? '; not the database server' : '; the database included'}): ${seconds(cpuMs)} (${(cpuMs / runMs * 100).toFixed(0)}% of one core)`)
    console.log(`HTTP requests the worker received during the run: ${requests.toLocaleString('en')} (${worker.counts.batches.toLocaleString('en')} batches, ${worker.counts.messages.toLocaleString('en')} messages)`)
    console.log(`peak RSS of the process during the run: ${mib(peakRss)} (before: ${mib(rssBefore)}, +${mib(peakRss - rssBefore)})`)
    console.log(`JS heap used: ${mib(heapBefore)} before the preview, ${mib(heapAfter)} after the run and a full GC (kept by the run: ${mib(heapAfter - heapBefore)}); peak ${mib(peakHeap)} (garbage not yet collected)`)
    console.log(`raw INSERT … SELECT of the same ${CONSUMERS.toLocaleString('en')} assignment rows (one statement): ${seconds(rawMs)} → the run costs ${(runMs / rawMs).toFixed(1)}× the raw insert`)
    return { label, consumers: CONSUMERS, runMs, cpuMs, rawMs, peakRss, rssBefore, heapBefore, heapAfter, peakHeap, requests, batches: worker.counts.batches, messages: worker.counts.messages }
  } finally {
    await svc.stop()
    await worker.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchLimitBulk(): Promise<void> {
  const figures: BulkFigures[] = []
  const only = process.env.BENCH_BULK_ONLY // 'pglite' or 'postgres': one database alone
  if (only !== 'postgres') for (const n of SIZES) figures.push(await measure('embedded (PGlite)', {}, n))
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (pgUrl && only !== 'pglite') for (const n of SIZES) figures.push(await withScratchDatabase(pgUrl, 'gw_bench_bulk', (url) => measure('PostgreSQL', { DATABASE_URL: url }, n)))
  console.log('\n== bulk ASSIGN summary ==')
  console.log('database      subjects   run        subjects/s   CPU   raw insert   run/raw   worker requests   peak RSS (+delta)   heap after GC (+kept)   peak heap')
  for (const f of figures) {
    console.log([
      f.label.startsWith('PostgreSQL') ? 'PostgreSQL' : 'PGlite', f.consumers.toLocaleString('en'), seconds(f.runMs), Math.round(f.consumers / (f.runMs / 1000)).toLocaleString('en'), seconds(f.cpuMs),
      seconds(f.rawMs), `${(f.runMs / f.rawMs).toFixed(1)}×`, f.requests.toLocaleString('en'), `${mib(f.peakRss)} (+${mib(f.peakRss - f.rssBefore)})`,
      `${mib(f.heapAfter)} (+${mib(f.heapAfter - f.heapBefore)})`, mib(f.peakHeap),
    ].join('   '))
  }
  for (const n of SIZES) {
    const lite = figures.find((f) => f.consumers === n && !f.label.startsWith('PostgreSQL'))
    const pg = figures.find((f) => f.consumers === n && f.label.startsWith('PostgreSQL'))
    if (lite && pg) console.log(`PGlite / PostgreSQL at ${n.toLocaleString('en')} subjects: ${(lite.runMs / pg.runMs).toFixed(2)}×`)
  }
}

// `tsx bench/limit-bulk.ts` runs this benchmark alone
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchLimitBulk()
  process.exit(0)
}
