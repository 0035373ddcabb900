// Page cost against the installation's size (issue 19 §3–4): seeds N consumers set-based (one INSERT … SELECT
// generate_series), then measures GET /healthz, consumer page 0 and a contains search at 1 and at 8 concurrent
// connections, the cases interleaved round by round so a busier or quieter machine weighs on each alike. Prints
// p50s, each over the /healthz floor of the same run, and page-0 throughput (requests/s) at 8 connections.
// The console's own GraphQL operation for the consumers page (ConsoleConsumers, issue 30 §4) is measured in the same
// rounds: page 0 and the search through /graphql against the REST list.
// The service runs as `npm start` runs it, in a process of its own (bench/scale.ts's start); this process is only the
// load client. The data is seeded beside the first start (PostgreSQL directly, PGlite through the service's embedded
// wire server), then the service restarts on it. PGlite, and PostgreSQL when BENCH_DATABASE_URL is set.
// Alone: `npx tsx bench/lists.ts` (BENCH_LIST_ROWS=n, BENCH_SKIP_PGLITE=1, BENCH_ROUNDS=n).
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { ensureBuilt } from '../test/support/process.js'
import { withScratchDatabase } from './scratch-database.js'
import { bearer, median, ms, resentCount, retried } from './measure.js'
import { startMeasuredService, stopService } from './scale.js'
import { ConsoleConsumersDocument } from '../console/src/gql/graphql.js'

const ROWS = Number(process.env.BENCH_LIST_ROWS ?? 100_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12)
const SIZE = 20
const SEARCH = 'zephyr'
const NEEDLE_EVERY = 500
const PROJECT = 'bench-lists'
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }

async function seed(client: pg.Client): Promise<void> {
  const { rows: [project] } = await client.query<{ id: string }>('SELECT id FROM "Project" WHERE name = $1', [PROJECT])
  const t0 = performance.now()
  // set-based: one statement, no row crosses the wire (the consumer key only needs to be unique here)
  await client.query(`
    INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "fullName", enabled, "updatedAt")
    SELECT gen_random_uuid(), $1, 'consumer-' || lpad(n::text, 6, '0'), 'csm_' || md5(n::text || $2),
           'Consumer ' || lpad(n::text, 6, '0') || CASE WHEN n % ${NEEDLE_EVERY} = 7 THEN ' Zephyrine' ELSE '' END,
           n % 10 <> 1, now()
    FROM generate_series(1, ${ROWS}) AS n`, [project!.id, KEY])
  await client.query('VACUUM ANALYZE "Credential"')
  console.log(`seeded ${ROWS.toLocaleString('en')} consumers in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
}

/** p50 per case and throughput (requests/s of the case's own rounds) at `clients` concurrent connections. */
async function interleaved<K extends string>(cases: Record<K, () => Promise<unknown>>, clients: number) {
  const names = Object.keys(cases) as K[]
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>
  const wall = Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>
  for (const n of names) await Promise.all(Array.from({ length: clients }, cases[n])) // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const n of names) {
      const w0 = performance.now()
      await Promise.all(Array.from({ length: clients }, async () => {
        const t0 = performance.now()
        await cases[n]()
        times[n].push(performance.now() - t0)
      }))
      wall[n] += performance.now() - w0
    }
  }
  return Object.fromEntries(names.map((n) => [n, { p50: median(times[n]), rps: (ROUNDS * clients * 1000) / wall[n] }])) as Record<K, { p50: number; rps: number }>
}

export interface ListFigures { [clients: number]: { healthz: number; page0: number; search: number; page0Rps: number; gqlPage0: number; gqlSearch: number } }

async function measure(label: string, env: Record<string, string>, connect: (wire: string | undefined) => Promise<pg.Client>): Promise<ListFigures> {
  console.log(`\n== lists, ${label}, ${ROWS.toLocaleString('en')} consumers ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-lists-'))
  const bootstrapFile = path.join(dir, 'bootstrap.json')
  fs.writeFileSync(bootstrapFile, JSON.stringify({ users: [USER], projects: [{ name: PROJECT }] }))
  const restart = { DATA_DIR: path.join(dir, 'data'), GATEWAY_SECRET_KEY: KEY, ...env }
  // first start: schema and bootstrap; the consumers are seeded beside it, then the measured service restarts on them
  const first = await startMeasuredService({ ...restart, GATEWAY_BOOTSTRAP: bootstrapFile, EMBEDDED_PG_PORT: '0' })
  try {
    const client = await connect(first.wire)
    try {
      await seed(client)
    } finally {
      await client.end()
    }
  } finally {
    await stopService(first.proc)
  }
  const svc = await startMeasuredService(restart)
  const out: ListFigures = {}
  try {
    const headers = await bearer(svc.url, USER)
    const list = (search?: string) => `${svc.url}/apiops/projects/${PROJECT}/consumers?page=0&size=${SIZE}${search ? `&search=${search}` : ''}`
    for (const [url, expected] of [[list(), ROWS], [list(SEARCH), Math.floor((ROWS + NEEDLE_EVERY - 7) / NEEDLE_EVERY)]] as const) {
      const body = (await (await fetch(url, { headers })).json()) as { items: unknown[]; totalElements: number }
      if (body.totalElements !== expected) throw new Error(`unexpected answer: ${JSON.stringify(body).slice(0, 200)}`)
    }
    const consolePage = (search?: string) => JSON.stringify({ query: ConsoleConsumersDocument.toString(), variables: { projectName: PROJECT, page: 0, size: SIZE, search: search ?? null } })
    for (const [body, expected] of [[consolePage(), ROWS], [consolePage(SEARCH), Math.floor((ROWS + NEEDLE_EVERY - 7) / NEEDLE_EVERY)]] as const) {
      const answer = (await (await fetch(`${svc.url}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })).json()) as { data?: { consumers: { totalElements: number } } }
      if (answer.data?.consumers.totalElements !== expected) throw new Error(`unexpected GraphQL answer: ${JSON.stringify(answer).slice(0, 200)}`)
    }
    const get = (url: string, auth = true) => () => retried(() => fetch(url, auth ? { headers } : {}).then((r) => r.arrayBuffer()))
    const post = (body: string) => () => retried(() => fetch(`${svc.url}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }).then((r) => r.arrayBuffer()))
    for (const clients of [1, 8]) {
      const t = await interleaved({
        healthz: get(`${svc.url}/healthz`, false), page0: get(list()), search: get(list(SEARCH)), gqlPage0: post(consolePage()), gqlSearch: post(consolePage(SEARCH)),
      }, clients)
      out[clients] = { healthz: t.healthz.p50, page0: t.page0.p50, search: t.search.p50, page0Rps: t.page0.rps, gqlPage0: t.gqlPage0.p50, gqlSearch: t.gqlSearch.p50 }
      const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`
      console.log(`${clients} conn: /healthz p50 ${ms(t.healthz.p50)} | page 0 p50 ${ms(t.page0.p50)} = ${x(t.page0.p50, t.healthz.p50)} floor, ` +
        `${t.page0.rps.toFixed(1)} req/s | search p50 ${ms(t.search.p50)} = ${x(t.search.p50, t.page0.p50)} page 0`)
      console.log(`${clients} conn, the console's GraphQL page (ConsoleConsumers): page 0 p50 ${ms(t.gqlPage0.p50)} = ${x(t.gqlPage0.p50, t.page0.p50)} REST, ` +
        `${t.gqlPage0.rps.toFixed(1)} req/s | search p50 ${ms(t.gqlSearch.p50)} = ${x(t.gqlSearch.p50, t.search.p50)} REST`)
    }
    if (resentCount()) console.log(`(${resentCount()} requests sent again after a kept-alive socket closed)`)
  } finally {
    await stopService(svc.proc)
    fs.rmSync(dir, { recursive: true, force: true })
  }
  return out
}

export async function benchLists(): Promise<void> {
  ensureBuilt()
  const pglite = process.env.BENCH_SKIP_PGLITE === '1' ? undefined : await measure('embedded (PGlite)', {}, async (wire) => {
    const [host, port] = wire!.split(':')
    const client = new pg.Client({ host, port: Number(port), user: 'postgres', database: 'postgres', options: '-c default_transaction_read_only=off' })
    await client.connect()
    return client
  })
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (!pgUrl) return
  const onPg = await withScratchDatabase(pgUrl, 'gw_bench_lists', (url) => measure('PostgreSQL', { DATABASE_URL: url }, async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    return client
  }))
  if (pglite) console.log(`PGlite / PostgreSQL page-0 throughput at 8 connections: ${((100 * pglite[8]!.page0Rps) / onPg[8]!.page0Rps).toFixed(0)} %`)
}

// `npx tsx bench/lists.ts` runs this benchmark alone
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchLists()
  process.exit(0)
}
