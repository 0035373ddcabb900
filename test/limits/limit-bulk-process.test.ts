// A bulk run whose worker process dies (SIGKILL) mid-run: the next instance to start marks it INTERRUPTED once its
// lease has lapsed, and every chunk that had committed is intact (spec §3.3, RUNTIME.md §1).
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { startTestService, TEST_SECRET_KEY } from '../support/app.js'
import { freshDatabase, type FreshDatabase } from '../support/database.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { ensureBuilt, spawnService as spawnAny } from '../support/process.js'
import { bulkClient, customRate, seedConsumers } from './limit-bulk-helpers.js'

// The service process runs the package's start script on the build (as `npm start`): through tsx, each start spent
// ≈ 11 s of a loaded machine transpiling the app, the bundle ≈ 4 s.
const spawnService = (env: Record<string, string>) => spawnAny(env, { compiled: true })

const SUBJECTS = 1200

function envFor(db: FreshDatabase, extra: Record<string, string>) {
  return {
    DATA_DIR: db.dataDir,
    LOG_LEVEL: 'info',
    GATEWAY_SECRET_KEY: TEST_SECRET_KEY,
    LIMIT_BULK_LEASE_MS: '2000',
    LIMIT_BULK_POLL_INTERVAL_MS: '200',
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    ...extra,
  }
}

async function tokenAt(url: string) {
  const res = await fetch(`${url}/apiops/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'alice', client_secret: 'alice-pass-1' }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

beforeAll(() => ensureBuilt())

const onPostgres = Boolean(process.env.TEST_DATABASE_URL)

describe('two instances on one PostgreSQL database', () => {
  it.runIf(onPostgres)('the database keeps one active run per project whichever instance is asked; either instance serves the run', async () => {
    const db = await freshDatabase()
    const bootstrap = sampleBootstrap({ dev: [] })
    const [a, b] = await Promise.all([startTestService({ db, bootstrap }), startTestService({ db, bootstrap })])
    try {
      await seedConsumers(a.deps.prisma, 'payments', 'twin', 10)
      const [ta, tb] = await Promise.all([a.tokenFor('alice', 'alice-pass-1'), b.tokenFor('alice', 'alice-pass-1')])
      const body = { selector: { subjectType: 'CONSUMER', search: 'twin-' }, content: customRate() }
      const clientA = bulkClient(a.http, ta)
      const clientB = bulkClient(b.http, tb)
      const preview = await clientA.preview(body)
      const runBody = { ...body, previewFingerprint: preview.body.selectorFingerprint }
      // different keys, same moment, two instances: exactly one run is queued
      const results = await Promise.all([clientA.run(runBody), clientB.run(runBody), clientA.run(runBody), clientB.run(runBody)])
      const accepted = results.filter((r) => r.status === 202)
      const refused = results.filter((r) => r.status !== 202)
      expect(accepted.length).toBeGreaterThanOrEqual(1)
      for (const r of refused) expect(r.body.params?.reason).toBe('limit.bulk.runAlreadyActive')
      // a run accepted later than another was queued only after that one had finished: never two active at once
      const runs = []
      for (const r of accepted) runs.push(await clientB.finished(r.body.runId))
      runs.sort((x, y) => Date.parse(x.startedAt) - Date.parse(y.startedAt))
      for (let i = 1; i < runs.length; i++) expect(Date.parse(runs[i].startedAt)).toBeGreaterThanOrEqual(Date.parse(runs[i - 1].finishedAt))
      expect(runs.map((r) => r.runStatus).every((s) => s === 'SUCCESS')).toBe(true)
      expect(await a.deps.prisma.limitAssignment.count({ where: { credential: { username: { startsWith: 'twin-' } }, status: 'ACTIVE' } })).toBe(10)
    } finally {
      await a.stop()
      await b.stop()
      await db.cleanup()
    }
  })
})

describe('a bulk run killed mid-run', () => {
  it('is INTERRUPTED by the next instance after its lease expires, with every committed chunk intact', async () => {
    const db = await freshDatabase()
    // the run waits for the delivery of a chunk's pushes before its next chunk: a worker that holds its answer keeps
    // the run RUNNING (one chunk further at most) until it is killed; the long push timeout keeps the hold from expiring
    const worker = await FakeWorker.start()
    const bootstrapFile = path.join(db.dataDir, 'bootstrap.json')
    fs.writeFileSync(bootstrapFile, JSON.stringify(sampleBootstrap({ dev: [worker.url] })))
    // seed in process, then hand the database to child processes
    const seeding = await startTestService({ db, env: { GATEWAY_BOOTSTRAP: bootstrapFile } })
    await seedConsumers(seeding.deps.prisma, 'payments', 'killed', SUBJECTS)
    await seeding.stop()

    const first = spawnService(envFor(db, { GATEWAY_BOOTSTRAP: bootstrapFile, DEPLOY_TIMEOUT_MS: '600000' }))
    let second: ReturnType<typeof spawnService> | undefined
    try {
      const url1 = await first.listening
      const bulk1 = bulkClient((p, init) => fetch(url1 + p, init), await tokenAt(url1))
      worker.hold()
      const { run } = await bulk1.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'killed-' }, content: customRate() })
      expect(run.status).toBe(202)
      const runId = run.body.runId
      // the first chunk has committed: its pushes are at the worker
      await worker.holding()
      const progress = (await bulk1.get(runId)).body
      expect(progress.runStatus).toBe('RUNNING')
      first.child.kill('SIGKILL')
      await first.exited
      worker.release()

      second = spawnService(envFor(db, {}))
      const url2 = await second.listening
      const bulk2 = bulkClient((p, init) => fetch(url2 + p, init), await tokenAt(url2))
      let after: any
      for (;;) {
        after = (await bulk2.get(runId)).body
        if (after.runStatus !== 'RUNNING') break
        await new Promise((r) => setTimeout(r, 100))
      }
      expect(after).toMatchObject({ runStatus: 'INTERRUPTED', messageKey: 'limit.bulk.interrupted', messageParams: { reason: 'leaseExpired' } })
      expect(after.finishedAt).not.toBeNull()
      expect(after.processedCount).toBeGreaterThanOrEqual(200)
      expect(after.processedCount).toBeLessThan(SUBJECTS)
      expect(after.processedCount % 200).toBe(0)
      expect(after.createdCount).toBe(after.processedCount)

      // the project's active slot is free again: a new run queues
      const again = await bulk2.previewAndRun({ selector: { subjectType: 'CONSUMER', subjectKeys: ['shop-frontend'] }, content: customRate() })
      expect(again.run.status).toBe(202)
      expect((await bulk2.finished(again.run.body.runId)).runStatus).toBe('SUCCESS')
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)

      // every committed chunk is there, nothing of a half chunk: the ledger and the assignments agree with the counts
      const check = await startTestService({ db })
      try {
        const prisma = check.deps.prisma
        const stored = await prisma.limitBulkRun.findUniqueOrThrow({ where: { runId } })
        expect(await prisma.limitAssignment.count({ where: { bulkRunId: runId, status: 'ACTIVE' } })).toBe(after.createdCount)
        expect(await prisma.limitBulkRunSubject.count({ where: { runId: stored.id, outcome: { not: null } } })).toBe(after.processedCount)
        expect(stored.cursor).toBe(after.processedCount)
        expect(stored.activeProjectId).toBeNull()
      } finally {
        await check.stop()
      }
    } finally {
      first.child.kill('SIGKILL')
      second?.child.kill('SIGKILL')
      await worker.stop()
      await db.cleanup()
    }
  }, 180_000)
})
