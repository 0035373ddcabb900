// Lists that stay flat (issue 12, target 2): 100,000 consumers in one project, then with 8 concurrent
// clients the p50 of GET /apiops/projects/{p}/consumers page 0, the last page and a contains search
// (~200 matches), the GraphQL twin of page 0 and the /healthz floor, plus the bare database doing the same
// rows (the list's own query functions, no HTTP) — all in the same run, so the ratios are what matter.
// Runs the service in process on PGlite, and on PostgreSQL when BENCH_DATABASE_URL is set.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../src/config.js'
import { consumerPage, consumerWhere } from '../src/modules/identity/consumers/service.js'
import { parsePaging } from '../src/platform/envelopes/paging.js'
import { CONSUMER_SORT } from '../src/modules/identity/consumers/service.js'
import { withScratchDatabase } from './scratch-database.js'
import { createLogger } from '../src/platform/http/logger.js'
import { mintPublicKey } from '../src/platform/keys.js'
import { startService, type RunningService } from '../src/service.js'
import { bearer, median, ms, resentCount, retried } from './measure.js'

const CONSUMERS = 100_000
const BATCH = 10_000
const SIZE = 20
const LAST_PAGE = Math.ceil(CONSUMERS / SIZE) - 1
const CLIENTS = 8
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 96) // per case, spread over the clients (BENCH_REQUESTS)
const NEEDLE_EVERY = 500 // 200 consumers carry the search word in their full name
const SEARCH = 'zephyr'
const PROJECT = 'bench-consumers'
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }

async function seed(svc: RunningService): Promise<string> {
  const prisma = svc.deps.prisma
  const { id: projectId } = await prisma.project.findUniqueOrThrow({ where: { name: PROJECT } })
  const t0 = performance.now()
  // Batched multi-row inserts from arrays: on PGlite about 2.5x faster than createMany; the rows are the same.
  for (let start = 0; start < CONSUMERS; start += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, CONSUMERS - start) }, (_, k) => start + k + 1)
    const padded = numbers.map((n) => String(n).padStart(6, '0'))
    await prisma.$executeRaw`
      INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "fullName", enabled, "updatedAt")
      SELECT gen_random_uuid(), ${projectId}, u, k, f, e, now()
      FROM unnest(${padded.map((n) => `consumer-${n}`)}::text[], ${padded.map(() => mintPublicKey('csm'))}::text[],
                  ${numbers.map((n, i) => `Consumer ${padded[i]}${n % NEEDLE_EVERY === 7 ? ' Zephyrine' : ''}`)}::text[],
                  ${numbers.map((n) => n % 10 !== 1)}::boolean[]) AS t(u, k, f, e)`
  }
  // planner statistics and the visibility map, as a settled database has them (autovacuum does this in production)
  await prisma.$executeRawUnsafe('VACUUM ANALYZE "Credential"')
  console.log(`seeded ${CONSUMERS.toLocaleString('en')} consumers in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return projectId
}

/**
 * p50 latency of each case, the cases interleaved: round after round, each case in turn runs CLIENTS calls at
 * once, so a machine that gets busier or quieter during the run weighs on every case alike (ratios hold).
 */
async function p50s<K extends string>(cases: Record<K, () => Promise<unknown>>, rounds = Math.ceil(REQUESTS / CLIENTS)): Promise<Record<K, number>> {
  const names = Object.keys(cases) as K[]
  const times = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>
  for (const n of names) await Promise.all(Array.from({ length: CLIENTS }, cases[n])) // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const n of names) {
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          const t0 = performance.now()
          await cases[n]()
          times[n].push(performance.now() - t0)
        }),
      )
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(times[n])])) as Record<K, number>
}


const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`

async function measure(label: string, env: Record<string, string>) {
  console.log(`\n== consumer list, ${label}, ${CONSUMERS.toLocaleString('en')} consumers, ${CLIENTS} clients ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-consumers-'))
  const bootstrapFile = path.join(dir, 'bootstrap.json')
  fs.writeFileSync(bootstrapFile, JSON.stringify({ users: [USER], projects: [{ name: PROJECT }] }))
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), GATEWAY_BOOTSTRAP: bootstrapFile, GATEWAY_SECRET_KEY: KEY, ...env,
  })
  const svc = await startService(config, createLogger('warn'))
  try {
    const projectId = await seed(svc)
    const headers = await bearer(svc.url, USER)
    const restUrl = (page: number, search?: string) =>
      `${svc.url}/apiops/projects/${PROJECT}/consumers?page=${page}&size=${SIZE}${search ? `&search=${search}` : ''}`
    const cases = { first: restUrl(0), last: restUrl(LAST_PAGE), search: restUrl(0, SEARCH) }
    for (const [name, url] of Object.entries(cases)) {
      const body = (await (await fetch(url, { headers })).json()) as { items: unknown[]; totalElements: number }
      const expected = name === 'search' ? CONSUMERS / NEEDLE_EVERY : CONSUMERS
      if (body.items.length !== SIZE || body.totalElements !== expected) throw new Error(`unexpected answer: ${JSON.stringify(body).slice(0, 200)}`)
    }
    const gqlBody = JSON.stringify({
      query: `query($p: String!) { consumers(projectName: $p, page: 0, size: ${SIZE}) {
        totalElements items { consumerKey username fullName email description enabled organizationCode expireDate trafficLogDisabled } } }`,
      variables: { p: PROJECT },
    })
    const graphql = () =>
      retried(() => fetch(`${svc.url}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: gqlBody }).then((r) => r.json()))
    const gqlCheck = (await graphql()) as { data?: { consumers: { items: unknown[] } } }
    if (gqlCheck.data?.consumers.items.length !== SIZE) throw new Error(`unexpected GraphQL answer: ${JSON.stringify(gqlCheck).slice(0, 200)}`)

    const get = (url: string) => () => retried(() => fetch(url, { headers }).then((r) => r.arrayBuffer()))
    // the database doing the same rows bare: the list's own page queries and count, no HTTP, no JSON
    const bare = (page: number, search?: string) => {
      const request = parsePaging({ page, size: SIZE }, CONSUMER_SORT)
      const where = consumerWhere(projectId, { search })
      return () => consumerPage(svc.deps.prisma, where, request, Boolean(search))
    }
    const t = await p50s({
      healthz: get(`${svc.url}/healthz`), first: get(cases.first), last: get(cases.last), search: get(cases.search), gql: graphql,
      bareFirst: bare(0), bareLast: bare(LAST_PAGE), bareSearch: bare(0, SEARCH),
    })
    const { healthz, first, last, search, gql, bareFirst, bareLast, bareSearch } = t
    console.log(`GET /healthz (floor)                 p50 ${ms(healthz)}`)
    console.log(`REST page 0                          p50 ${ms(first)}   over /healthz ${ms(first - healthz)}   bare db ${ms(bareFirst)}`)
    console.log(`REST last page (${LAST_PAGE})            p50 ${ms(last)}   last / page 0 ${ratio(last, first)}   bare db ${ms(bareLast)} (${ratio(bareLast, bareFirst)})`)
    console.log(`REST search '${SEARCH}' (${CONSUMERS / NEEDLE_EVERY} matches)  p50 ${ms(search)}   search / page 0 ${ratio(search, first)}   bare db ${ms(bareSearch)} (${ratio(bareSearch, bareFirst)})`)
    if (resentCount()) console.log(`(${resentCount()} requests sent again after a kept-alive socket closed)`)
    console.log(`GraphQL consumers page 0             p50 ${ms(gql)}   over /healthz ${ms(gql - healthz)}   GraphQL / REST ${ratio(gql, first)}`)
  } finally {
    await svc.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchConsumerList(): Promise<void> {
  if (process.env.BENCH_SKIP_PGLITE !== '1') await measure('embedded (PGlite)', {})
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (!pgUrl) return
  await withScratchDatabase(pgUrl, 'gw_bench_consumers', (url) => measure('PostgreSQL', { DATABASE_URL: url }))
}

// `npx tsx bench/consumers.ts` runs this benchmark alone
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchConsumerList()
  process.exit(0)
}
