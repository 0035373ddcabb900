// Runs observed while they run. A run delivers a chunk's pushes while it writes the next chunk and waits for that
// delivery before going on, so a gateway worker that holds its answer (FakeWorker.hold) keeps the run RUNNING, at
// most one chunk further, until the test releases it: the test acts at a chunk boundary without racing the run.
// The push timeout is long, so that a held push does not time out however slow the machine. Nothing here asserts a duration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { freshDatabase } from '../support/database.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { bulkClient, customBudget, customRate, newKey, seedConsumers } from './limit-bulk-helpers.js'

let svc: TestService
let worker: FakeWorker
let alice: string
let root: string
const HOLDING_ENV = { DEPLOY_TIMEOUT_MS: '600000' }

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }), env: HOLDING_ENV })
  ;[alice, root] = await Promise.all([svc.tokenFor('alice', 'alice-pass-1'), svc.tokenFor('root', 's3cret-root')])
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const prisma = () => svc.deps.prisma
const license = (token: string, body?: unknown, method = body === undefined ? 'GET' : 'PUT') =>
  svc.http('/api/installation-license', { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })

/**
 * The run as it is once its first chunk has committed: the chunk's pushes wait at the worker's gate (closed by
 * hold() before the run was queued), so the run stays RUNNING, one chunk further at most, until release().
 */
async function heldAfterFirstChunk(bulk: ReturnType<typeof bulkClient>, runId: string) {
  await worker.holding()
  return (await bulk.get(runId)).body
}

describe('a run in progress', () => {
  it('is the one active run of its project; cancel stops it at a chunk boundary with the written rows kept; rollback then undoes them', async () => {
    await seedConsumers(prisma(), 'payments', 'slow', 1000)
    const bulk = bulkClient(svc.http, alice)
    worker.hold()
    try {
      const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'slow-' }, content: customRate() })
      const progress = await heldAfterFirstChunk(bulk, run.body.runId)
      expect(progress).toMatchObject({ runStatus: 'RUNNING', phase: 'APPLY', deploymentState: expect.stringMatching(/PENDING|IN_SYNC|DEGRADED/) })
      expect(progress.processedCount % 200).toBe(0)
      // the consumer's limit-assignments reflect a chunk as soon as it has committed; later subjects come later
      const assignmentsOf = async (username: string) => {
        const key = (await prisma().credential.findUniqueOrThrow({ where: { username } })).consumerKey
        const res = await svc.http(`/apiops/projects/payments/consumers/${key}/limit-assignments`, { headers: { authorization: `Bearer ${alice}` } })
        return (await res.json()) as { bulkRunId?: string }[]
      }
      expect((await assignmentsOf('slow-0001')).map((a) => a.bulkRunId)).toEqual([run.body.runId])
      expect(await assignmentsOf('slow-1000')).toEqual([])

      // a second run of the project is refused while this one runs, and its key is released
      const other = { selector: { subjectType: 'CONSUMER', subjectKeys: ['shop-frontend'] }, content: customRate() }
      const preview = await bulk.preview(other)
      const before = await prisma().limitBulkRun.count()
      const key = newKey()
      const second = await bulk.run({ ...other, previewFingerprint: preview.body.selectorFingerprint }, key)
      expect(second.status).toBe(409)
      expect(second.body).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.bulk.runAlreadyActive', activeRunId: run.body.runId } })
      expect(await prisma().limitBulkRun.count()).toBe(before)
      // another project is not blocked by it
      await prisma().credential.create({ data: { projectId: (await prisma().project.findUniqueOrThrow({ where: { name: 'other' } })).id, username: 'other-one', consumerKey: `csm_${newKey()}` } })
      const rootOther = bulkClient(svc.http, root, 'other')
      const otherRun = await rootOther.previewAndRun({ selector: { subjectType: 'CONSUMER' }, content: customRate() })
      expect(otherRun.run.status).toBe(202)

      const cancelled = await bulk.cancel(run.body.runId)
      expect(cancelled.status).toBe(200)
      expect(cancelled.body).toMatchObject({ runId: run.body.runId, cancelRequested: true })
      worker.release()
      const done = await bulk.finished(run.body.runId)
      expect(done).toMatchObject({ runStatus: 'CANCELLED', cancelRequested: true, messageKey: 'limit.bulk.cancelled' })
      expect(done.processedCount % 200).toBe(0)
      expect(done.processedCount).toBeLessThan(1000)
      expect(await prisma().limitAssignment.count({ where: { bulkRunId: run.body.runId, status: 'ACTIVE' } })).toBe(done.createdCount)
      expect(done.createdCount).toBe(done.processedCount)
      await rootOther.finished(otherRun.run.body.runId)

      // the project is free again: the released key now queues the run
      const third = await bulk.run({ ...other, previewFingerprint: preview.body.selectorFingerprint }, key)
      expect(third.status).toBe(202)
      await bulk.finished(third.body.runId)

      const rollback = await bulk.rollback(run.body.runId)
      expect(rollback.status).toBe(202)
      const undone = await bulk.finished(rollback.body.runId)
      expect(undone).toMatchObject({ runStatus: 'SUCCESS', kind: 'ROLLBACK', endedCount: done.createdCount, restoredCount: 0 })
      expect(await prisma().limitAssignment.count({ where: { bulkRunId: run.body.runId, status: 'ACTIVE' } })).toBe(0)
    } finally {
      worker.release()
    }
  })

  it('a run cancelled right after it was queued ends CANCELLED with what it wrote kept', async () => {
    await seedConsumers(prisma(), 'payments', 'queued', 600)
    const bulk = bulkClient(svc.http, alice)
    // held: the run cannot have finished before the cancel arrives
    worker.hold()
    try {
      const first = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'queued-' }, content: customRate() })
      const cancelled = await bulk.cancel(first.run.body.runId)
      expect(cancelled.status).toBe(200)
      expect(['CANCELLED', 'RUNNING']).toContain(cancelled.body.runStatus)
      worker.release()
      const done = await bulk.finished(first.run.body.runId)
      expect(done.runStatus).toBe('CANCELLED')
      expect(done.processedCount).toBeLessThan(600)
      expect(await prisma().limitAssignment.count({ where: { bulkRunId: first.run.body.runId } })).toBe(done.createdCount)
    } finally {
      worker.release()
    }
  })
})

describe('the installation licence (AI_TOKEN_BUDGET content needs AI_GATEWAY)', () => {
  it('is read and replaced by system administrators only, and an unknown module is refused', async () => {
    expect(await (await license(root)).json()).toMatchObject({ allModulesLicensed: true, source: 'DEFAULT', modules: ['API_GATEWAY', 'AI_GATEWAY', 'API_PORTAL', 'ANALYTICS'] })
    const denied = await license(alice, { modules: [] })
    expect(denied.status).toBe(403)
    expect(((await denied.json()) as any).errorKey).toBe('permissionDenied')
    const bad = await license(root, { modules: ['TELEPORTER'] })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'modules[0]' } })
    expect(await prisma().installationLicense.count()).toBe(0)
  })

  it('unlicensed subjects are counted: licenseBlocked in the preview, SKIPPED_LICENSE in the run', async () => {
    await seedConsumers(prisma(), 'payments', 'nolic', 3)
    const set = await license(root, { modules: ['API_GATEWAY'] })
    expect(await set.json()).toMatchObject({ modules: ['API_GATEWAY'], allModulesLicensed: false, source: 'API', updatedBy: 'root' })
    try {
      const bulk = bulkClient(svc.http, alice)
      const body = { selector: { subjectType: 'CONSUMER', search: 'nolic-' }, content: customBudget() }
      const { preview, run } = await bulk.previewAndRun(body)
      expect(preview.body).toMatchObject({ expectedCount: 3, licenseBlocked: 3, willCreate: 0 })
      expect(preview.body.sample[0]).toMatchObject({ outcome: 'SKIPPED_LICENSE' })
      const done = await bulk.finished(run.body.runId)
      expect(done).toMatchObject({ runStatus: 'PARTIAL', licenseSkippedCount: 3, createdCount: 0, issueCount: 3 })
      expect((await bulk.issues(run.body.runId)).body.items[0]).toMatchObject({ outcome: 'SKIPPED_LICENSE', messageKey: 'limit.bulk.moduleNotLicensed', messageParams: { module: 'AI_GATEWAY' } })
      expect(await prisma().limitAssignment.count({ where: { bulkRunId: run.body.runId } })).toBe(0)
      // request-rate content needs no module
      const rate = await bulk.previewAndRun({ ...body, content: customRate() })
      expect(rate.preview.body).toMatchObject({ licenseBlocked: 0, willCreate: 3 })
      await bulk.finished(rate.run.body.runId)
    } finally {
      await license(root, undefined, 'DELETE')
    }
  })

  it('a licence revoked mid-run ends the run LICENSE_REVOKED with every committed chunk kept', async () => {
    await seedConsumers(prisma(), 'payments', 'ai', 1000)
    const bulk = bulkClient(svc.http, alice)
    worker.hold()
    try {
      const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'ai-' }, content: customBudget() })
      const progress = await heldAfterFirstChunk(bulk, run.body.runId)
      expect(progress.runStatus).toBe('RUNNING')
      await license(root, { modules: ['API_GATEWAY', 'API_PORTAL'] })
      worker.release()
      const done = await bulk.finished(run.body.runId)
      expect(done).toMatchObject({ runStatus: 'LICENSE_REVOKED', messageKey: 'limit.bulk.licenseRevoked', messageParams: { module: 'AI_GATEWAY' } })
      expect(done.processedCount).toBeLessThan(1000)
      expect(done.processedCount % 200).toBe(0)
      expect(await prisma().limitAssignment.count({ where: { bulkRunId: run.body.runId, status: 'ACTIVE', family: 'AI_TOKEN_BUDGET' } })).toBe(done.createdCount)
      expect(done.createdCount).toBe(done.processedCount)
    } finally {
      worker.release()
      await license(root, undefined, 'DELETE')
    }
  })

  it('GraphQL: read, set and reset the licence (system administrators only)', async () => {
    const set = await svc.graphql('mutation { setInstallationLicense(modules: ["AI_GATEWAY"]) { modules allModulesLicensed source } }', {}, root)
    expect(set.body.data.setInstallationLicense).toEqual({ modules: ['AI_GATEWAY'], allModulesLicensed: false, source: 'API' })
    const denied = await svc.graphql('{ installationLicense { modules } }', {}, alice)
    expect(denied.body.errors?.[0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    const reset = await svc.graphql('mutation { resetInstallationLicense { allModulesLicensed } }', {}, root)
    expect(reset.body.data.resetInstallationLicense.allModulesLicensed).toBe(true)
  })
})

describe('the licence in the bootstrap file', () => {
  it('replaces the stored licence at start; an unknown module stops start-up naming its JSON path', async () => {
    const withLicense = await startTestService({ bootstrap: { ...sampleBootstrap({ dev: [] }), license: { modules: ['API_GATEWAY'] } } })
    try {
      const token = await withLicense.tokenFor('root', 's3cret-root')
      const res = await withLicense.http('/api/installation-license', { headers: { authorization: `Bearer ${token}` } })
      expect(await res.json()).toMatchObject({ modules: ['API_GATEWAY'], allModulesLicensed: false, source: 'BOOTSTRAP' })
    } finally {
      await withLicense.close()
    }
    await expect(startTestService({ bootstrap: { license: { modules: ['WARP_DRIVE'] } } })).rejects.toThrow(/\$\.license\.modules\[0\]/)
  })
})

describe('an instance that stops (SIGTERM) while a run works', () => {
  it('hands the run back at its chunk boundary as INTERRUPTED (instanceStopped), committed chunks kept', async () => {
    const db = await freshDatabase()
    const first = await startTestService({ db, bootstrap: sampleBootstrap({ dev: [worker.url] }), env: HOLDING_ENV })
    try {
      await seedConsumers(first.deps.prisma, 'payments', 'stop', 800)
      const bulk = bulkClient(first.http, await first.tokenFor('alice', 'alice-pass-1'))
      worker.hold()
      const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'stop-' }, content: customRate() })
      expect((await heldAfterFirstChunk(bulk, run.body.runId)).runStatus).toBe('RUNNING')
      // stop() tells the runner to stop before its first await; only then may the held run go on, to its next boundary
      const stopping = first.stop()
      worker.release()
      await stopping
      const second = await startTestService({ db })
      try {
        const stored = await second.deps.prisma.limitBulkRun.findUniqueOrThrow({ where: { runId: run.body.runId } })
        expect(stored).toMatchObject({ runStatus: 'INTERRUPTED', messageKey: 'limit.bulk.interrupted', messageParams: { reason: 'instanceStopped' }, activeProjectId: null })
        expect(stored.processedCount % 200).toBe(0)
        expect(stored.processedCount).toBeLessThan(800)
        expect(await second.deps.prisma.limitAssignment.count({ where: { bulkRunId: run.body.runId } })).toBe(stored.createdCount)
      } finally {
        await second.stop()
      }
    } finally {
      worker.release()
      await db.cleanup()
    }
  })
})
