// Search, audit trail, GraphQL and memory against the installation's size (issue 31), measured from outside: the
// service runs as `npm start` runs it, in a process of its own; this process is the load client (8 keep-alive
// connections) and seeds the data set-based through the database (PostgreSQL directly; PGlite through the service's
// embedded wire server). Cases are interleaved round by round so a busier or quieter machine weighs on each alike;
// compare the ratios of one run, not absolute figures across runs.
// Alone: `npx tsx bench/scale.ts` (BENCH_SCALE_ROWS=n consumers, default 200,000; BENCH_SCALE_EVENTS=n audit events,
// default 1,000,000; PGlite: BENCH_SCALE_PGLITE_ROWS, default the same, BENCH_SCALE_PGLITE_EVENTS, default 200,000;
// BENCH_SKIP_PGLITE=1; BENCH_ROUNDS=n; BENCH_DATABASE_URL for PostgreSQL;
// BENCH_SCALE_MILLION=1 seeds 1,000,000 consumers on PostgreSQL; BENCH_SCALE_CASES=healthz,page0,gqlPage,search1,gqlSearch1 runs only
// those cases; BENCH_CPU_PROF=dir runs the measured service unbundled with `--cpu-prof`, its profile written there;
// BENCH_SCALE_KEEP_DB=name keeps each size's PostgreSQL database (`name_<consumers>`) for the next run: seeded once, a
// later run with the same sizes skips the seeding and starts on it, the previous run's bulk assignments deleted first;
// BENCH_SCALE_ROW_COSTS=0 measures only the bare floor after the bulk run, not the assignment row's parts).
// The measured start is a restart on the seeded data without a bootstrap file (the first start applied it).
// The case `bulk` (last, after the load) is a bulk ASSIGN run over every consumer (issue 31 §4): preview, run, poll,
// until the worker (a thread of this process, on loopback) received every push; its time beside a bare-table
// INSERT … SELECT of as many rows, the service's peak RSS over its idle RSS, and where a row's microseconds go
// (bench/row-costs.ts).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { ensureBuilt, spawnService, type ServiceProcess } from '../test/support/process.js'
import { withScratchDatabase } from './scratch-database.js'
import { pgConnectionConfig } from '../src/platform/db/database.js'
import { bearer, median, ms, startFlags } from './measure.js'
import { countingWorker } from './limit-bulk.js'
import { printRowCosts, rowCosts } from './row-costs.js'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)
const CLIENTS = 8
const PROJECT = 'bench-scale'
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
let KEY = crypto.randomBytes(32).toString('base64')

/** CPU time (user + system, every thread) the service's node process used so far, ms: start-up's own work, whatever the load. */
function cpuMs(proc: ServiceProcess): number {
  const fields = fs.readFileSync(`/proc/${proc.child.pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

async function start(env: Record<string, string>, nodeArgs?: string[]): Promise<{ proc: ServiceProcess; url: string; readyMs: number; readyCpuMs: number; wire?: string }> {
  const t0 = performance.now()
  const proc = spawnService({ LOG_LEVEL: 'info', GATEWAY_SECRET_KEY: KEY, ...env }, { compiled: true, nodeArgs })
  const url = await proc.listening
  while ((await fetch(`${url}/healthz`)).status !== 200) await new Promise((r) => setTimeout(r, 10))
  const wire = /embedded database served on ([\d.]+:\d+)/.exec(proc.output())?.[1]
  return { proc, url, readyMs: performance.now() - t0, readyCpuMs: cpuMs(proc), wire }
}

async function stop(proc: ServiceProcess) {
  proc.child.kill('SIGTERM')
  await proc.exited
}

/**
 * The service as `npm start` runs it, in a process of its own, ready (/healthz 200); `env` is all its environment
 * (GATEWAY_SECRET_KEY included). For other benches (bench/lists.ts): the measured service, the bench only its client.
 */
export const startMeasuredService = (env: Record<string, string>) => start(env)
export const stopService = stop

/** Resident set of the service's node process (the start script execs node, so the child is it), MB. */
function rssMb(proc: ServiceProcess): number {
  const status = fs.readFileSync(`/proc/${proc.child.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}

/** Consumers with a word in 1 % ('Zephyrine') and another in 10 % ('Quillon') of the full names; applications alike. */
async function seed(client: pg.Client, consumers: number, events: number) {
  const t0 = performance.now()
  const { rows: [project] } = await client.query<{ id: string }>('SELECT id FROM "Project" WHERE name = $1', [PROJECT])
  await client.query(`
    INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "fullName", enabled, "updatedAt")
    SELECT gen_random_uuid(), $1, 'consumer-' || lpad(n::text, 7, '0'), 'csm_' || md5(n::text || $2),
           'Consumer ' || lpad(n::text, 7, '0') || CASE WHEN n % 100 = 7 THEN ' Zephyrine' WHEN n % 10 = 3 THEN ' Quillon' ELSE '' END,
           n % 10 <> 1, now()
    FROM generate_series(1, ${consumers}) AS n`, [project!.id, KEY])
  const apps = Math.max(1000, Math.floor(consumers / 10))
  await client.query(`
    INSERT INTO "Application" (id, "projectId", "applicationKey", name, "updatedAt")
    SELECT gen_random_uuid(), $1, 'app_' || md5(n::text || $2),
           'app-' || lpad(n::text, 7, '0') || CASE WHEN n % 100 = 7 THEN '-zephyrine' WHEN n % 10 = 3 THEN '-quillon' ELSE '' END, now()
    FROM generate_series(1, ${apps}) AS n`, [project!.id, KEY])
  // the trail: steady writes over the retention, one in five installation-level. History, so the event bus's NOTIFY is
  // off while it is written: a million events at once (one notification each, before they were grouped per
  // statement) kept the running service busy and growing past 1.8 GB for minutes, and a live service would still
  // hand a million ids to its subscribers; the counters' statement-level trigger stays on.
  await client.query('ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_notify_ins"')
  await client.query(`
    INSERT INTO "AuditEvent" (at, surface, actor, "projectName", operation, "objectType", "objectName", outcome, "httpStatus", "correlationId")
    SELECT now() - make_interval(secs => n * (360.0 * 86400 / ${events})), 'REST_APIOPS', 'user-' || (n % 10), CASE WHEN n % 5 = 0 THEN NULL ELSE $1 END,
           'POST /apiops/projects/:projectName/consumers/' || (n % 7), 'consumers', 'c-' || n, 'SUCCEEDED', 200, 'corr-' || n
    FROM generate_series(1, ${events}) n`, [PROJECT])
  await client.query('ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_notify_ins"')
  if (process.env.BENCH_SCALE_NO_VACUUM !== '1') {
    await client.query('VACUUM ANALYZE "Credential"')
    await client.query('VACUUM ANALYZE "Application"')
    await client.query('VACUUM ANALYZE "AuditEvent"')
  }
  // what BENCH_SCALE_KEEP_DB checks before reusing the database, and the key its secrets were written with
  await client.query('CREATE TABLE bench_scale_seed AS SELECT $1::integer AS consumers, $2::integer AS events, $3::text AS key', [consumers, events, KEY])
  console.log(`seeded ${consumers.toLocaleString('en')} consumers, ${apps.toLocaleString('en')} applications, ${events.toLocaleString('en')} audit events in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

/**
 * A kept database (BENCH_SCALE_KEEP_DB) back to its seeded state: the previous run's bulk assignments, runs, deployment
 * records and undelivered pushes deleted (statement-level counters move with them), the environment's worker this run's.
 */
async function forgetBulkRuns(client: pg.Client, workerUrl: string | undefined) {
  const t0 = performance.now()
  const { rows: [project] } = await client.query<{ id: string }>('SELECT id FROM "Project" WHERE name = $1', [PROJECT])
  const { rowCount } = await client.query('DELETE FROM "LimitAssignment" WHERE "projectId" = $1', [project!.id])
  await client.query('DELETE FROM "LimitBulkRun" WHERE "projectId" = $1', [project!.id])
  await client.query('DELETE FROM "DeploymentRecord" WHERE "projectName" = $1', [PROJECT])
  await client.query('DELETE FROM "DeliveryOutbox"')
  if (workerUrl) {
    const { rowCount: workers } = await client.query(`UPDATE "Environment" SET "workerUrls" = ARRAY[$1] WHERE name = 'dev'`, [workerUrl])
    // a database seeded by a run without the bulk case has no environment: its bulk run would push nothing
    if (!workers) console.log('kept database: seeded without an environment (a run without the bulk case), so the bulk run pushes nothing: seed it again under another BENCH_SCALE_KEEP_DB')
  }
  if (rowCount) await client.query('VACUUM ANALYZE "LimitAssignment", "LimitBulkRunSubject", "DeploymentRecord"')
  console.log(`kept database: ${(rowCount ?? 0).toLocaleString('en')} assignments of earlier runs deleted in ${ms(performance.now() - t0)}`)
}

/**
 * BENCH_SCALE_KEEP_DB: the database `name` on the server, kept afterwards. Seeded with these sizes (its
 * bench_scale_seed row and consumer count match): fn gets its key; otherwise it is created anew and fn seeds it.
 */
async function withKeptDatabase<T>(serverUrl: string, name: string, consumers: number, events: number, fn: (url: string, kept?: { key: string }) => Promise<T>): Promise<T> {
  const admin = new pg.Client(pgConnectionConfig(serverUrl))
  await admin.connect()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  let kept: { key: string } | undefined
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
    if (rowCount) {
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      try {
        const { rows: [seeded] } = await client.query<{ consumers: number; events: number; key: string; n: string }>(`
          SELECT s.*, (SELECT count(*) FROM "Credential" c JOIN "Project" p ON p.id = c."projectId" WHERE p.name = $1) AS n
            FROM bench_scale_seed s`, [PROJECT]).catch(() => ({ rows: [] as never[] }))
        if (seeded && seeded.consumers === consumers && seeded.events === events && Number(seeded.n) === consumers) kept = { key: seeded.key }
      } finally {
        await client.end()
      }
      if (!kept) await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`)
    }
    if (!kept) await admin.query(`CREATE DATABASE "${name}"`)
    console.log(`BENCH_SCALE_KEEP_DB: ${kept ? 'reusing' : 'seeding'} database ${name}`)
  } finally {
    await admin.end()
  }
  return fn(url.toString(), kept)
}

/** p50 per case over ROUNDS rounds of CLIENTS concurrent requests, the cases interleaved. */
/**
 * p50 per case over ROUNDS rounds of CLIENTS concurrent requests, the cases interleaved round by round; with `cpu`
 * (the service's CPU time so far, ms) also the service's CPU per request of each case (its rounds' CPU over their
 * requests: what a case costs the service, whatever else the machine runs; 10 ms ticks, so many rounds are needed).
 */
async function interleaved<K extends string>(cases: Record<K, () => Promise<unknown>>, cpu?: () => number) {
  const names = Object.keys(cases) as K[]
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>
  const spent = Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>
  for (const n of names) await Promise.all(Array.from({ length: CLIENTS }, cases[n])) // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) {
      const before = cpu?.() ?? 0
      await Promise.all(Array.from({ length: CLIENTS }, async () => {
        const t0 = performance.now()
        await cases[n]()
        times[n].push(performance.now() - t0)
      }))
      spent[n] += (cpu?.() ?? 0) - before
    }
  }
  const p50 = Object.fromEntries(names.map((n) => [n, median(times[n])])) as Record<K, number>
  const cpuPerRequest = Object.fromEntries(names.map((n) => [n, spent[n] / (ROUNDS * CLIENTS)])) as Record<K, number>
  return { p50, cpuPerRequest }
}

async function measure(label: string, env: Record<string, string>, seedWith: (wire: string | undefined) => Promise<pg.Client>, consumers: number, events: number, kept?: { key: string }) {
  console.log(`\n== scale (issue 31), ${label}, ${consumers.toLocaleString('en')} consumers ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-scale-'))
  const bootstrapFile = path.join(dir, 'bootstrap.json')
  const only = process.env.BENCH_SCALE_CASES?.split(',')
  const bulk = !only || only.includes('bulk')
  const worker = bulk ? await countingWorker() : null
  fs.writeFileSync(bootstrapFile, JSON.stringify({
    environments: worker ? [{ name: 'dev', workerUrls: [worker.url] }] : [],
    users: [USER], projects: [{ name: PROJECT, environments: worker ? ['dev'] : [] }],
  }))
  const base = { DATA_DIR: path.join(dir, 'data'), GATEWAY_BOOTSTRAP: bootstrapFile, ...env }
  // the measured restart: the data present, no bootstrap file (PGlite's data directory is the first start's)
  const restart = { DATA_DIR: base.DATA_DIR, ...env }
  try {
    if (kept) {
      // a kept database seeded with these sizes: the last run's bulk assignments go, the worker is this run's
      KEY = kept.key
      const client = await seedWith(undefined)
      try {
        await forgetBulkRuns(client, worker?.url)
      } finally {
        await client.end()
      }
      // an unmeasured start first, as the seeding start before a fresh run's restart: migrations added since, caches
      const first = await start(restart)
      await stop(first.proc)
    } else {
      // first start: schema and bootstrap; the data is seeded beside the running service, then it restarts on it
      const first = await start({ ...base, EMBEDDED_PG_PORT: '0' })
      try {
        const client = await seedWith(first.wire)
        try {
          await seed(client, consumers, events)
        } finally {
          await client.end()
        }
      } finally {
        const t0 = performance.now()
        await stop(first.proc)
        console.log(`stopped the seeding start in ${ms(performance.now() - t0)}`)
      }
    }
    const prof = process.env.BENCH_CPU_PROF
    // profiled: the unbundled build (dist/main.js, names as in the sources), as the start script's node flags run it
    // the bulk case reads the database beside the service afterwards (PGlite: through the embedded wire server)
    // BENCH_NODE_ARGS: node flags for the measured service (e.g. `--trace-gc`), run like BENCH_CPU_PROF on dist/main.js
    const extra = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []
    // node run directly (not the start script): its flags and environment read from it, so the run is npm start's
    const script = startFlags()
    const nodeArgs = prof ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(prof)}`, ...script.flags, ...extra, 'dist/main.js']
      : extra.length ? [...script.flags, ...extra, 'dist/main.js'] : undefined
    // BENCH_SCALE_NO_VACUUM=1: the seed is neither vacuumed nor analyzed; PGlite's own maintenance pass (every 2 s here)
    // runs before the load, as an installation would have it (PostgreSQL: whatever its autovacuum has done by then)
    const noVacuum = process.env.BENCH_SCALE_NO_VACUUM === '1'
    const maintained: Record<string, string> = noVacuum ? { EMBEDDED_MAINTENANCE_INTERVAL_SECONDS: '2' } : {}
    const svc = await start({ ...(nodeArgs ? script.env : {}), ...(bulk ? { ...restart, EMBEDDED_PG_PORT: '0' } : restart), ...maintained }, nodeArgs)
    if (noVacuum && !env.DATABASE_URL) {
      const t0 = performance.now()
      // the consumers' table (done by the seeding start's own pass when the seeding outlasted its interval)
      const passes = () => svc.proc.output().split('\n').filter((l) => l.includes('embedded database maintained'))
      while (!passes().some((l) => l.includes('"Credential"')) && performance.now() - t0 < 120_000) await new Promise((r) => setTimeout(r, 200))
      console.log(`maintenance passes in the first ${ms(performance.now() - t0)}:`)
      for (const l of passes()) console.log(`  ${JSON.stringify((JSON.parse(l) as { tables: unknown }).tables)}`)
    }
    await new Promise((r) => setTimeout(r, 2000))
    const idle = rssMb(svc.proc)
    console.log(`restart with the data to a ready /healthz: ${ms(svc.readyMs)} (CPU time of the service to ready ${ms(svc.readyCpuMs)}, load average ${os.loadavg()[0].toFixed(1)}); idle RSS after start ${idle.toFixed(0)} MB`)
    try {
      const headers = await bearer(svc.url, USER)
      const rest = (p: string) => () => fetch(`${svc.url}${p}`, { headers }).then(async (r) => {
        if (r.status !== 200) throw new Error(`${p}: ${r.status} ${await r.text()}`)
        return r.arrayBuffer()
      })
      const gql = (query: string, variables: object) => () => fetch(`${svc.url}/graphql`, {
        method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }),
      }).then(async (r) => {
        const body = await r.text()
        if (r.status !== 200 || body.includes('"errors"')) throw new Error(`graphql: ${r.status} ${body.slice(0, 300)}`)
        return body
      })
      const consumersPath = `/apiops/projects/${PROJECT}/consumers?page=0&size=20`
      const apps = `/apiops/projects/${PROJECT}/applications?page=0&size=20`
      const subjects = `/api/limit-assignment-subjects/search?projectId=${PROJECT}&subjectType=CONSUMER&page=0&size=20`
      const trail = `/apiops/projects/${PROJECT}/audit-events?page=0&size=20`
      const week = new Date(Date.now() - 7 * 86_400_000).toISOString()
      const consumerFields = 'username fullName consumerKey enabled description email expireDate organizationCode trafficLogDisabled id'
      const gqlPage = `query($p: String!) { consumers(projectName: $p, page: 0, size: 20) { totalElements totalPages page size sort items { ${consumerFields} } } }`
      const gqlSearch = `query($p: String!, $s: String) { consumers(projectName: $p, page: 0, size: 20, search: $s) { totalElements totalPages page size sort items { ${consumerFields} } } }`
      // totals exact: the searches' answers against count(*) of the seeded words
      const check = async (p: string, expected: number) => {
        const body = (await (await fetch(`${svc.url}${p}`, { headers })).json()) as { totalElements: number }
        if (body.totalElements !== expected) throw new Error(`${p}: totalElements ${body.totalElements}, expected ${expected}`)
      }
      const words = (n: number, every: number, rest: number) => Math.floor((n - rest) / every) + 1
      await check(`${consumersPath}&search=zephyr`, words(consumers, 100, 7))
      await check(`${consumersPath}&search=quillon`, words(consumers, 10, 3))
      await check(`${trail}&user=user-3`, Math.floor((events - 3) / 10) + 1)
      const cases = {
        healthz: () => fetch(`${svc.url}/healthz`).then((r) => r.arrayBuffer()),
        page0: rest(consumersPath),
        search1: rest(`${consumersPath}&search=zephyr`),
        search10: rest(`${consumersPath}&search=quillon`),
        appPage0: rest(apps),
        appSearch1: rest(`${apps}&search=zephyr`),
        appSearch10: rest(`${apps}&search=quillon`),
        subjects0: rest(subjects),
        subjects1: rest(`${subjects}&search=zephyr`),
        subjects10: rest(`${subjects}&search=quillon`),
        trail0: rest(trail),
        trailDeep: rest(trail.replace('page=0', 'page=20000')),
        trailUser: rest(`${trail}&user=user-3`),
        trailWeek: rest(`${trail}&from=${encodeURIComponent(week)}`),
        gqlPage: gql(gqlPage, { p: PROJECT }),
        gqlSearch1: gql(gqlSearch, { p: PROJECT, s: 'zephyr' }),
      }
      const chosen = only ? Object.fromEntries(Object.entries(cases).filter(([n]) => only.includes(n))) as typeof cases : cases
      const measured = Object.keys(chosen).length ? await interleaved(chosen, () => cpuMs(svc.proc)) : undefined
      const t = measured?.p50 ?? ({} as Record<keyof typeof cases, number>)
      const c = measured?.cpuPerRequest ?? ({} as Record<keyof typeof cases, number>)
      const x = (a: number | undefined, b: number | undefined) => (a && b ? `${(a / b).toFixed(2)}×` : '—')
      for (const [name, p50] of Object.entries(t) as [keyof typeof cases, number][]) console.log(`  ${name.padEnd(12)} p50 ${ms(p50)}`)
      console.log(`consumer search / page 0 (${CLIENTS} conn): 1 % ${x(t.search1, t.page0)}, 10 % ${x(t.search10, t.page0)}`)
      console.log(`application search / its page 0: 1 % ${x(t.appSearch1, t.appPage0)}, 10 % ${x(t.appSearch10, t.appPage0)}`)
      console.log(`subject picker search / its page 0: 1 % ${x(t.subjects1, t.subjects0)}, 10 % ${x(t.subjects10, t.subjects0)}`)
      console.log(`audit trail (${events.toLocaleString('en')} events) / consumer page 0: page 0 ${x(t.trail0, t.page0)}, page 20,000 ${x(t.trailDeep, t.page0)}, ` +
        `user filter ${x(t.trailUser, t.page0)}, last 7 days ${x(t.trailWeek, t.page0)}`)
      console.log(`GraphQL consumers page / REST page: ${x(t.gqlPage, t.page0)}, GraphQL search 1 % / REST search 1 %: ${x(t.gqlSearch1, t.search1)} (/healthz / REST page ${x(t.healthz, t.page0)}, load average ${os.loadavg()[0].toFixed(1)})`)
      if (c.gqlPage && c.page0) {
        console.log(`service CPU per request: REST page ${c.page0.toFixed(2)} ms, GraphQL page ${c.gqlPage.toFixed(2)} ms (${x(c.gqlPage, c.page0)})` +
          (c.gqlSearch1 && c.search1 ? `; REST search 1 % ${c.search1.toFixed(2)} ms, GraphQL search 1 % ${c.gqlSearch1.toFixed(2)} ms (${x(c.gqlSearch1, c.search1)})` : ''))
      }
      console.log(`RSS after the load: ${rssMb(svc.proc).toFixed(0)} MB (idle after start ${idle.toFixed(0)} MB)`)
      if (worker) await bulkRun(svc, headers, worker, idle, () => seedWith(svc.wire), consumers)
    } finally {
      if (process.env.BENCH_SERVICE_LOG) fs.writeFileSync(process.env.BENCH_SERVICE_LOG, svc.proc.output())
      await stop(svc.proc)
    }
  } finally {
    await worker?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const BULK_CONTENT = { family: 'REQUEST_RATE', mode: 'CUSTOM', customRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 1000, interval: 'ONE_MINUTE' }] } } }

/**
 * One bulk ASSIGN run over every consumer, from outside: the preview, the run request, polls every 25 ms until it
 * finished and the worker received every push; the service's RSS sampled every 50 ms from the preview on. Then, on the
 * same database, the bare floor and where a row's microseconds go (row-costs.ts).
 */
async function bulkRun(svc: { proc: ServiceProcess; url: string }, headers: Record<string, string>, worker: Awaited<ReturnType<typeof countingWorker>>, idle: number, connect: () => Promise<pg.Client>, consumers: number) {
  const call = async (method: string, p: string, body?: unknown, extra: Record<string, string> = {}) => {
    const res = await fetch(`${svc.url}${p}`, { method, headers: { ...headers, 'content-type': 'application/json', ...extra }, body: body === undefined ? undefined : JSON.stringify(body) })
    const json = (await res.json()) as any
    if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`)
    return json
  }
  const base = `/apiops/projects/${PROJECT}`
  const body = { selector: { subjectType: 'CONSUMER' }, content: BULK_CONTENT }
  let peak = rssMb(svc.proc)
  const sampler = setInterval(() => { try { peak = Math.max(peak, rssMb(svc.proc)) } catch { /* exited */ } }, 50)
  const load0 = os.loadavg()[0]
  const t0 = performance.now()
  const preview = await call('POST', `${base}/limit-assignment-previews`, body)
  const previewMs = performance.now() - t0
  const messagesBefore = worker.counts.messages
  const t1 = performance.now()
  const receipt = await call('POST', `${base}/limit-assignment-runs`, { ...body, previewFingerprint: preview.selectorFingerprint, expectedCount: preview.expectedCount }, { 'idempotency-key': crypto.randomUUID() })
  let run: any
  // BENCH_HEAP_SNAPSHOT_AT=0.5 (with BENCH_NODE_ARGS=--heapsnapshot-signal=SIGUSR2): a heap snapshot once that share is processed
  const snapshotAt = Number(process.env.BENCH_HEAP_SNAPSHOT_AT ?? 0)
  let snapped = !snapshotAt
  do {
    await new Promise((r) => setTimeout(r, 25))
    run = await call('GET', `${base}/limit-assignment-runs/${receipt.runId}`)
    if (!snapped && run.processedCount >= consumers * snapshotAt) {
      snapped = true
      console.log(`heap snapshot requested at ${run.processedCount} processed, RSS ${rssMb(svc.proc).toFixed(0)} MB`)
      svc.proc.child.kill('SIGUSR2')
    }
  } while (run.runStatus === 'QUEUED' || run.runStatus === 'RUNNING')
  const finishedMs = performance.now() - t1
  while (worker.counts.messages - messagesBefore < consumers && performance.now() - t1 < finishedMs + 60_000) await new Promise((r) => setTimeout(r, 5))
  const runMs = performance.now() - t1
  clearInterval(sampler)
  const load1 = os.loadavg()[0]
  if (run.runStatus !== 'SUCCESS' || run.createdCount !== consumers) throw new Error(`unexpected run: ${JSON.stringify(run).slice(0, 400)}`)
  const pushed = worker.counts.messages - messagesBefore
  const client = await connect()
  try {
    const { rows: [{ id }] } = await client.query<{ id: string }>('SELECT id FROM "LimitBulkRun" WHERE "runId" = $1', [receipt.runId])
    // every part is an INSERT … SELECT of all the rows: best of 3 up to 50,000, one run above
    const costs = await rowCosts(client, PROJECT, id, consumers > 50_000 ? 1 : 3, process.env.BENCH_SCALE_ROW_COSTS !== '0')
    const bareMs = (costs.bare * costs.rows) / 1000
    console.log(`bulk ASSIGN run over ${consumers.toLocaleString('en')} consumers (preview ${ms(previewMs)}): run request to SUCCESS ${ms(finishedMs)}, ` +
      `to every push received ${ms(runMs)} (${pushed.toLocaleString('en')} messages; ${Math.round(consumers / (runMs / 1000)).toLocaleString('en')} subjects/s)`)
    console.log(`bulk run / bare-table INSERT … SELECT of ${costs.rows.toLocaleString('en')} rows (${ms(bareMs)}): ${(runMs / bareMs).toFixed(1)}× ` +
      `(same-table floor ${Number.isNaN(costs.sameTable) ? 'not measured' : `${ms((costs.sameTable * costs.rows) / 1000)}, ${(costs.sameTable / costs.bare).toFixed(1)}× bare`}; load average ${load0.toFixed(1)} → ${load1.toFixed(1)})`)
    console.log(`service RSS during the bulk run: peak ${peak.toFixed(0)} MB, idle after start ${idle.toFixed(0)} MB (+${(peak - idle).toFixed(0)} MB)`)
    if (!Number.isNaN(costs.sameTable)) for (const l of printRowCosts(costs, runMs)) console.log(l)
  } finally {
    await client.end()
  }
}

export async function benchScale(): Promise<void> {
  ensureBuilt()
  const rows = Number(process.env.BENCH_SCALE_ROWS ?? 200_000)
  const events = Number(process.env.BENCH_SCALE_EVENTS ?? 1_000_000)
  if (process.env.BENCH_SKIP_PGLITE !== '1') {
    await measure('embedded (PGlite)', {}, async (wire) => {
      const [host, port] = wire!.split(':')
      const client = new pg.Client({ host, port: Number(port), user: 'postgres', database: 'postgres', options: '-c default_transaction_read_only=off' })
      await client.connect()
      return client
    }, Number(process.env.BENCH_SCALE_PGLITE_ROWS ?? rows), Number(process.env.BENCH_SCALE_PGLITE_EVENTS ?? 200_000))
  }
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (!pgUrl) return
  const sizes = process.env.BENCH_SCALE_MILLION === '1' ? [rows, 1_000_000] : [rows]
  const keep = process.env.BENCH_SCALE_KEEP_DB
  for (const size of sizes) {
    const run = (url: string, kept?: { key: string }) => measure('PostgreSQL', { DATABASE_URL: url }, async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      return client
    }, size, events, kept)
    if (keep) await withKeptDatabase(pgUrl, `${keep}_${size}`, size, events, run)
    else await withScratchDatabase(pgUrl, 'gw_bench_scale', run)
  }
}

// `npx tsx bench/scale.ts` runs this benchmark alone
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchScale()
  process.exit(0)
}
