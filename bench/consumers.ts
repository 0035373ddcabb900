// Consumer list at scale (issue 3): 100,000 consumers in one project, then the median latency of
// GET /apiops/projects/{p}/consumers with a search term, page 0 and page 2,000 (size 20), beside the
// bare Prisma query (the same findMany + count) measured in the same run against the same database.
// Runs the service in process on PGlite, and on PostgreSQL when BENCH_DATABASE_URL is set.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../src/config.js'
import { consumerWhere } from '../src/modules/identity/consumers.js'
import { consumerInclude } from '../src/modules/identity/views.js'
import { withScratchDatabase } from './scratch-database.js'
import { createLogger } from '../src/platform/http/logger.js'
import { mintPublicKey } from '../src/platform/keys.js'
import { startService, type RunningService } from '../src/service.js'
import { medianOf, ms } from './measure.js'

const CONSUMERS = 100_000
const BATCH = 10_000
const SAMPLES = 30
const SIZE = 20
const SEARCH = 'consumer' // every username is consumer-NNNNNN, so page 2,000 exists
const PROJECT = 'bench-consumers'
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }



async function seed(svc: RunningService): Promise<string> {
  const prisma = svc.deps.prisma
  const { id: projectId } = await prisma.project.findUniqueOrThrow({ where: { name: PROJECT } })
  const t0 = performance.now()
  // Batched multi-row inserts from arrays: on PGlite this is about 2.5x faster than createMany (whose per-row
  // parameters dominate there); the rows are the same either way.
  for (let start = 0; start < CONSUMERS; start += BATCH) {
    const numbers = Array.from({ length: Math.min(BATCH, CONSUMERS - start) }, (_, k) => start + k + 1)
    const padded = numbers.map((n) => String(n).padStart(6, '0'))
    await prisma.$executeRaw`
      INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "fullName", enabled, "updatedAt")
      SELECT gen_random_uuid(), ${projectId}, u, k, f, e, now()
      FROM unnest(${padded.map((n) => `consumer-${n}`)}::text[], ${padded.map(() => mintPublicKey('csm'))}::text[],
                  ${padded.map((n) => `Consumer ${n}`)}::text[], ${numbers.map((n) => n % 10 !== 1)}::boolean[]) AS t(u, k, f, e)`
  }
  await prisma.$executeRawUnsafe('ANALYZE "Credential"') // planner statistics, as a settled database has them
  console.log(`seeded ${CONSUMERS.toLocaleString('en')} consumers in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  return projectId
}

async function measure(label: string, env: Record<string, string>) {
  console.log(`\n== consumer list, ${label} ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-consumers-'))
  const bootstrapFile = path.join(dir, 'bootstrap.json')
  fs.writeFileSync(bootstrapFile, JSON.stringify({ users: [USER], projects: [{ name: PROJECT }] }))
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), GATEWAY_BOOTSTRAP: bootstrapFile, GATEWAY_SECRET_KEY: KEY, ...env,
  })
  const svc = await startService(config, createLogger('warn'))
  try {
    const projectId = await seed(svc)
    const tokenRes = await fetch(`${svc.url}/apiops/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: USER.username, client_secret: USER.password }),
    })
    const { access_token: token } = (await tokenRes.json()) as { access_token: string }
    // with the search term (the case of the issue), and without one for comparison
    const cases = [0, 2_000].flatMap((page) => [
      { page, search: SEARCH as string | undefined },
      { page, search: undefined },
    ])
    // all HTTP samples first, then all bare ones: an idle keep-alive socket is never reused after a long pause
    const http: number[] = []
    for (const { page, search } of cases) {
      const url = `${svc.url}/apiops/projects/${PROJECT}/consumers?page=${page}&size=${SIZE}${search ? `&search=${search}` : ''}`
      const body = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: unknown[]; totalElements: number }
      if (body.items.length !== SIZE || body.totalElements !== CONSUMERS) throw new Error(`unexpected answer: ${JSON.stringify(body).slice(0, 200)}`)
      http.push(await medianOf(SAMPLES, () => fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer())))
    }
    for (const [i, { page, search }] of cases.entries()) {
      const where = consumerWhere(projectId, { search })
      const bare = await medianOf(SAMPLES, () =>
        Promise.all([
          svc.deps.prisma.credential.findMany({ where, include: consumerInclude, orderBy: [{ username: 'asc' }], skip: page * SIZE, take: SIZE }),
          svc.deps.prisma.credential.count({ where }),
        ]),
      )
      console.log(
        `page ${String(page).padStart(5)}, ${(search ? `search=${search}` : 'no search').padEnd(15)}: GET median ${ms(http[i])} | ` +
          `bare Prisma findMany+count ${ms(bare)} | HTTP+service overhead ${ms(http[i] - bare)} (n=${SAMPLES}, size ${SIZE})`,
      )
    }
  } finally {
    await svc.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchConsumerList(): Promise<void> {
  await measure('embedded (PGlite)', {})
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (!pgUrl) return
  await withScratchDatabase(pgUrl, 'gw_bench_consumers', (url) => measure('PostgreSQL', { DATABASE_URL: url }))
}
