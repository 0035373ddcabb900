// Graceful drain under load (issue 19 §2): SIGTERM while 16 connections are busy answers every request in flight,
// refuses new ones, gives no 5xx and exits 0; a bulk run in flight stops at its chunk boundary and hands its lease
// back at once, so another instance acts on it without waiting for the lease to lapse.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, TEST_SECRET_KEY } from '../support/app.js'
import { freshDatabase, type FreshDatabase } from '../support/database.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { ensureBuilt, spawnService as spawnAny } from '../support/process.js'
import { bulkClient, customRate, seedConsumers } from '../limits/limit-bulk-helpers.js'

// The service process runs the package's start script on the build (as `npm start`): through tsx, each start spent
// ≈ 11 s of a loaded machine transpiling the app, the bundle ≈ 4 s.
const spawnService = (env: Record<string, string>) => spawnAny(env, { compiled: true })

const CONNECTIONS = 16

function envFor(db: FreshDatabase, extra: Record<string, string> = {}) {
  return {
    DATA_DIR: db.dataDir,
    LOG_LEVEL: 'info',
    GATEWAY_SECRET_KEY: TEST_SECRET_KEY,
    DEPLOY_TIMEOUT_MS: '60000',
    ...(db.databaseUrl ? { DATABASE_URL: db.databaseUrl } : {}),
    ...extra,
  }
}

async function tokenAt(url: string, user = 'alice', password = 'alice-pass-1') {
  const res = await fetch(`${url}/apiops/auth/token`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: user, client_secret: password }),
  })
  return ((await res.json()) as { access_token: string }).access_token
}

let worker: FakeWorker
beforeAll(async () => {
  ensureBuilt()
  worker = await FakeWorker.start()
})
afterAll(async () => worker?.stop())

describe('SIGTERM under load', () => {
  it('answers all 16 requests in flight, refuses new ones, no 5xx, exits 0', async () => {
    const db = await freshDatabase()
    const bootstrap = sampleBootstrap({ dev: [worker.url] })
    for (let i = 0; i < CONNECTIONS; i++) bootstrap.projects[0].credentials!.push({ username: `drain-${i}`, password: `pw-drain-${i}` } as never)
    const file = path.join(db.dataDir, 'bootstrap.json')
    fs.writeFileSync(file, JSON.stringify(bootstrap))
    const proc = spawnService(envFor(db, { GATEWAY_BOOTSTRAP: file }))
    try {
      const url = await proc.listening
      const bearer = await tokenAt(url)
      // every connection's request is a token reset whose push the worker holds: 16 requests busy in the service
      worker.hold()
      let signalled = false
      const inFlightAtSignal: Promise<{ status: number; body: any }>[] = []
      const after: { status?: number; refused?: string }[] = []
      const loops = Array.from({ length: CONNECTIONS }, async (_, i) => {
        for (;;) {
          const sentAfterSignal = signalled
          const call = fetch(`${url}/apiops/projects/payments/credentials/drain-${i}/token/`, { method: 'DELETE', headers: { authorization: `Bearer ${bearer}` } })
            .then(async (res) => ({ status: res.status, body: await res.json() }))
          if (!sentAfterSignal) inFlightAtSignal.push(call)
          try {
            const res = await call
            if (sentAfterSignal) after.push({ status: res.status })
          } catch (err) {
            if (!sentAfterSignal) throw err
            after.push({ refused: String((err as Error).cause ?? err) })
            return
          }
        }
      })
      while (worker.received.length < CONNECTIONS) await new Promise((r) => setTimeout(r, 50))
      signalled = true
      proc.child.kill('SIGTERM')
      // the service stops listening before it lets the held pushes go: new connections are refused from here on
      for (;;) {
        const probe = await fetch(`${url}/livez`).then(() => 'answered', () => 'refused')
        if (probe === 'refused') break
        await new Promise((r) => setTimeout(r, 20))
      }
      worker.release()
      await Promise.all(loops)
      const answered = await Promise.all(inFlightAtSignal)
      expect(answered.length).toBeGreaterThanOrEqual(CONNECTIONS)
      for (const a of answered) expect(a, JSON.stringify(a.body)).toMatchObject({ status: 200, body: { status: 'SUCCESS' } })
      expect(after.filter((a) => a.status !== undefined && a.status >= 500)).toEqual([])
      expect(after.filter((a) => a.refused).length).toBe(CONNECTIONS)
      expect(await proc.exited).toBe(0)
      console.log(`[drain] ${answered.length} requests in flight at SIGTERM, all answered 200; ${after.length} sent after it: ${after.filter((a) => a.refused).length} refused, ${after.filter((a) => a.status).length} answered`)
    } finally {
      worker.release()
      proc.child.kill('SIGKILL')
      await db.cleanup()
    }
  }, 180_000)

  it('stops a bulk run at its chunk boundary and hands its lease back at once', async () => {
    const db = await freshDatabase()
    const file = path.join(db.dataDir, 'bootstrap.json')
    fs.writeFileSync(file, JSON.stringify(sampleBootstrap({ dev: [worker.url] })))
    const seeding = await startTestService({ db, env: { GATEWAY_BOOTSTRAP: file } })
    await seedConsumers(seeding.deps.prisma, 'payments', 'drained', 1200)
    await seeding.stop()
    // a lease of ten minutes: only a lease handed back lets the next instance act within this test
    const first = spawnService(envFor(db, { GATEWAY_BOOTSTRAP: file, LIMIT_BULK_LEASE_MS: '600000' }))
    let second: ReturnType<typeof spawnService> | undefined
    try {
      const url1 = await first.listening
      const bulk1 = bulkClient((p, init) => fetch(url1 + p, init), await tokenAt(url1))
      worker.hold()
      const { run } = await bulk1.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'drained-' }, content: customRate() })
      expect(run.status).toBe(202)
      const runId = run.body.runId
      await worker.holding() // the first chunk committed and its pushes wait at the worker
      first.child.kill('SIGTERM')
      worker.release()
      expect(await first.exited).toBe(0)
      expect(first.output()).toContain('bulk run interrupted: this instance is stopping')

      second = spawnService(envFor(db, { LIMIT_BULK_LEASE_MS: '600000' }))
      const url2 = await second.listening
      const bulk2 = bulkClient((p, init) => fetch(url2 + p, init), await tokenAt(url2))
      const stopped = (await bulk2.get(runId)).body
      expect(stopped).toMatchObject({ runStatus: 'INTERRUPTED', messageKey: 'limit.bulk.interrupted', messageParams: { reason: 'instanceStopped' } })
      expect(stopped.processedCount % 200).toBe(0)
      expect(stopped.processedCount).toBeGreaterThanOrEqual(200)
      expect(stopped.processedCount).toBeLessThan(1200)
      expect(stopped.createdCount).toBe(stopped.processedCount)
      // the project's slot is free at once: a new run queues and finishes on the second instance
      const again = await bulk2.previewAndRun({ selector: { subjectType: 'CONSUMER', subjectKeys: ['shop-frontend'] }, content: customRate() })
      expect(again.run.status).toBe(202)
      expect((await bulk2.finished(again.run.body.runId)).runStatus).toBe('SUCCESS')
      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
    } finally {
      worker.release()
      first.child.kill('SIGKILL')
      second?.child.kill('SIGKILL')
      await db.cleanup()
    }
  }, 240_000)
})
