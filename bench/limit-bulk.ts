// Bulk limit assignment at scale (issue 5): 50,000 consumers in one project, one bulk ASSIGN run over all of them
// through the API (preview, run, poll until finished), with its wall time and the process's peak RSS; beside it,
// measured in the same run against the same database, a raw batched INSERT of the same assignment rows (same
// columns and values) for 50,000 other consumers. Runs the service in process on PGlite, and on PostgreSQL when
// BENCH_DATABASE_URL is set.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { loadConfig } from '../src/config.js'
import { contentColumns, liveScopeKeyOf, validateAssignmentContent } from '../src/modules/limits/assignments/service.js'
import { createLogger } from '../src/platform/http/logger.js'
import { mintPublicKey } from '../src/platform/keys.js'
import { startService, type RunningService } from '../src/service.js'
import { withScratchDatabase } from './scratch-database.js'

const CONSUMERS = 50_000
const SEED_BATCH = 10_000
const INSERT_BATCH = 10_000
const PROJECT = 'bench-bulk'
const RAW_PROJECT = 'bench-bulk-raw'
const KEY = crypto.randomBytes(32).toString('base64')
const USER = { username: 'bench-admin', password: 'bench-password-1', role: 'ADMIN' }
const CONTENT = { family: 'REQUEST_RATE', mode: 'CUSTOM', customRuleSpec: { requestRate: { windows: [{ permittedMessageCount: 1000, interval: 'ONE_MINUTE' }] } } }

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`

async function seedConsumers(svc: RunningService, projectName: string): Promise<{ projectId: string; ids: string[] }> {
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

/** The same rows a bulk run writes (content columns, live scope key, source BULK, ACTIVE), in batched INSERTs. */
async function rawInsert(svc: RunningService, projectId: string, subjectIds: string[]): Promise<number> {
  const prisma = svc.deps.prisma
  const content = validateAssignmentContent(CONTENT, { subjectType: 'CONSUMER', bulk: true })
  const c = contentColumns(content, null)
  const t0 = performance.now()
  for (let start = 0; start < subjectIds.length; start += INSERT_BATCH) {
    const ids = subjectIds.slice(start, start + INSERT_BATCH)
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

async function measure(label: string, env: Record<string, string>) {
  console.log(`\n== bulk limit assignment over ${CONSUMERS.toLocaleString('en')} consumers, ${label} ==`)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-bench-bulk-'))
  const bootstrapFile = path.join(dir, 'bootstrap.json')
  fs.writeFileSync(bootstrapFile, JSON.stringify({ environments: [{ name: 'dev', workerUrls: [] }], users: [USER], projects: [{ name: PROJECT, environments: ['dev'] }, { name: RAW_PROJECT }] }))
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), GATEWAY_BOOTSTRAP: bootstrapFile, GATEWAY_SECRET_KEY: KEY, ...env,
  })
  const svc = await startService(config, createLogger('warn'))
  try {
    const t0 = performance.now()
    await seedConsumers(svc, PROJECT)
    const raw = await seedConsumers(svc, RAW_PROJECT)
    console.log(`seeded 2 × ${CONSUMERS.toLocaleString('en')} consumers in ${seconds(performance.now() - t0)}`)
    const tokenRes = await fetch(`${svc.url}/apiops/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: USER.username, client_secret: USER.password }),
    })
    const { access_token: token } = (await tokenRes.json()) as { access_token: string }
    const base = `/apiops/projects/${PROJECT}`
    const body = { selector: { subjectType: 'CONSUMER' }, content: CONTENT }

    global.gc?.()
    const rssBefore = process.memoryUsage().rss
    let peakRss = rssBefore
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50)
    const started = performance.now()
    const preview = await api(svc, token, 'POST', `${base}/limit-assignment-previews`, body)
    const previewMs = performance.now() - started
    const receipt = await api(svc, token, 'POST', `${base}/limit-assignment-runs`, { ...body, previewFingerprint: preview.selectorFingerprint, expectedCount: preview.expectedCount }, { 'idempotency-key': crypto.randomUUID() })
    let run: any
    do {
      await new Promise((r) => setTimeout(r, 200))
      run = await api(svc, token, 'GET', `${base}/limit-assignment-runs/${receipt.runId}`)
    } while (run.runStatus === 'QUEUED' || run.runStatus === 'RUNNING')
    const wallMs = performance.now() - started
    clearInterval(sampler)
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
    if (run.runStatus !== 'SUCCESS' || run.createdCount !== CONSUMERS) throw new Error(`unexpected run: ${JSON.stringify(run).slice(0, 400)}`)

    const rawMs = await rawInsert(svc, raw.projectId, raw.ids)
    const rawCount = await svc.deps.prisma.limitAssignment.count({ where: { bulkRunId: 'raw' } })
    if (rawCount !== CONSUMERS) throw new Error(`raw insert wrote ${rawCount} rows`)

    console.log(`preview (${preview.expectedCount.toLocaleString('en')} subjects): ${seconds(previewMs)}`)
    console.log(`bulk ASSIGN run, wall time from preview to SUCCESS: ${seconds(wallMs)} (run itself, running → finished: ${seconds(run.durationMs)}; ${Math.round(CONSUMERS / (wallMs / 1000)).toLocaleString('en')} subjects/s)`)
    console.log(`peak RSS of the process during the run: ${mib(peakRss)} (before: ${mib(rssBefore)}, +${mib(peakRss - rssBefore)})`)
    console.log(`raw batched INSERT of the same ${CONSUMERS.toLocaleString('en')} assignment rows (${INSERT_BATCH.toLocaleString('en')} per statement): ${seconds(rawMs)} → the run costs ${(wallMs / rawMs).toFixed(1)}× the raw insert`)
  } finally {
    await svc.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchLimitBulk(): Promise<void> {
  await measure('embedded (PGlite)', {})
  const pgUrl = process.env.BENCH_DATABASE_URL
  if (!pgUrl) return
  await withScratchDatabase(pgUrl, 'gw_bench_bulk', (url) => measure('PostgreSQL', { DATABASE_URL: url }))
}

// `tsx bench/limit-bulk.ts` runs this benchmark alone
if (import.meta.url === `file://${process.argv[1]}`) {
  await benchLimitBulk()
  process.exit(0)
}
