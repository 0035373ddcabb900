import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker, type ReceivedDeployment } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { bulkClient, customRate, seedConsumers } from '../limits/limit-bulk-helpers.js'

// Batched pushes (RUNTIME.md §4.1) from bulk runs: each chunk reaches a worker as one POST /deployments/batch;
// a worker that answers 404 to the batch path gets the same messages as single pushes in the same order; a failed
// batch stays in the retry outbox as one row per chunk and environment, which delivers it again as a batch.

let svc: TestService
let alice: string
let batching: FakeWorker
let legacy: FakeWorker

beforeAll(async () => {
  ;[batching, legacy] = await Promise.all([FakeWorker.start(), FakeWorker.start()])
  legacy.batchStatus = 404
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [batching.url], prod: [legacy.url] }), env: { OUTBOX_POLL_INTERVAL_MS: '50' } })
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => {
  await svc?.close()
  await Promise.all([batching?.stop(), legacy?.stop()])
})

const assignmentPushes = (messages: ReceivedDeployment[]) => messages.filter((m) => m.kind === 'LIMIT_ASSIGNMENT')
const subjectKeys = (messages: ReceivedDeployment[]) => messages.map((m) => (m.config.subject as { key: string }).key)
const undelivered = () => svc.deps.prisma.deliveryOutbox.count({ where: { deliveredAt: null } })

async function untilOutboxEmpty() {
  for (let i = 0; i < 400 && (await undelivered()) > 0; i++) await new Promise((r) => setTimeout(r, 50))
  return undelivered()
}

describe('bulk runs push batches (RUNTIME.md §4.1)', () => {
  it('sends each chunk as one batch of at most 500 messages in subject order; a 404 worker gets the same messages one by one in the same order', async () => {
    const names = await seedConsumers(svc.deps.prisma, 'payments', 'batch', 450)
    const requestsBefore = { batching: batching.requests, legacy: legacy.requests }
    const bulk = bulkClient(svc.http, alice)
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'BATCH-' }, content: customRate() })
    const done = await bulk.finished(run.body.runId)
    expect(done).toMatchObject({ runStatus: 'SUCCESS', createdCount: 450, deploymentState: 'IN_SYNC' })

    // three chunks of 200, 200 and 50 subjects: three batches, acknowledged
    const batches = batching.batches.filter((b) => assignmentPushes(b.messages).length)
    expect(batches.map((b) => [b.status, b.messages.length])).toEqual([[200, 200], [200, 200], [200, 50]])
    expect(batching.requests - requestsBefore.batching).toBe(3)
    const viaBatches = batches.flatMap((b) => b.messages)
    expect(subjectKeys(viaBatches)).toEqual(names)
    expect(viaBatches.every((m) => m.action === 'DEPLOY' && m.project === 'payments' && m.revision >= 1)).toBe(true)

    // the legacy worker was asked once for a batch, answered 404, and was remembered: then single pushes only
    expect(legacy.batches.map((b) => b.status)).toEqual([404])
    expect(legacy.requests - requestsBefore.legacy).toBe(1 + 450)
    expect(assignmentPushes(legacy.received)).toEqual(viaBatches)
    expect(await undelivered()).toBe(0)
  })

  it('a failed batch: the outbox retries it as one batch and it is delivered; the other chunks are unaffected', async () => {
    const names = await seedConsumers(svc.deps.prisma, 'payments', 'failing', 300)
    batching.batchStatusOnce = [503]
    const batchesBefore = batching.batches.length
    const bulk = bulkClient(svc.http, alice)
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'FAILING-' }, content: customRate(7) })
    const done = await bulk.finished(run.body.runId)
    expect(done).toMatchObject({ runStatus: 'SUCCESS', createdCount: 300, deploymentState: 'DEGRADED' })

    expect(await untilOutboxEmpty()).toBe(0)
    const sent = batching.batches.slice(batchesBefore).filter((b) => assignmentPushes(b.messages).length)
    // the first chunk's batch failed and came again as one batch (the retry, perhaps while the second chunk was
    // sent), each message exactly as first sent; the second chunk's batch was acknowledged at once
    expect(sent[0].status).toBe(503)
    expect(subjectKeys(sent[0].messages)).toEqual(names.slice(0, 200))
    const rest = sent.slice(1)
    expect(rest.map((b) => [b.status, b.messages.length]).sort()).toEqual([[200, 100], [200, 200]])
    expect(rest.find((b) => b.messages.length === 200)!.messages).toEqual(sent[0].messages)
    expect(subjectKeys(rest.find((b) => b.messages.length === 100)!.messages)).toEqual(names.slice(200))
    // one outbox row per chunk and environment: the failed chunk's row for dev, delivered on its second attempt
    const rows = await svc.deps.prisma.deliveryOutbox.findMany({ where: { subject: { startsWith: `limitBulkChunk:${run.body.runId}:` }, environmentName: 'dev' }, orderBy: { subject: 'asc' } })
    expect(rows.map((r) => r.subject).sort()).toEqual([`limitBulkChunk:${run.body.runId}:0`, `limitBulkChunk:${run.body.runId}:200`])
    const retried = rows.find((r) => r.subject.endsWith(':0'))!
    expect(retried).toMatchObject({ attempts: 2 })
    expect(retried.deliveredAt).not.toBeNull()
    // the row holds the chunk's messages without the DEPLOYs' config, which the retry compiled again (as sent above)
    expect((retried.message as { messages: unknown[] }).messages).toEqual(sent[0].messages.map((m) => ({ ...m, config: null })))
    // the 404 worker took every message one by one, none retried
    expect(subjectKeys(assignmentPushes(legacy.received)).slice(-300)).toEqual(names)
  })

  it('a chunk batch retried by the outbox leaves out an assignment that moved on since (ended: its UNDEPLOY is never overtaken)', async () => {
    const names = await seedConsumers(svc.deps.prisma, 'payments', 'moved', 2)
    batching.status = 503
    try {
      const bulk = bulkClient(svc.http, alice)
      const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'MOVED-' }, content: customRate(9) })
      expect(await bulk.finished(run.body.runId)).toMatchObject({ runStatus: 'SUCCESS', createdCount: 2, deploymentState: 'DEGRADED' })
      const rows = await svc.deps.prisma.limitAssignment.findMany({ where: { bulkRunId: run.body.runId }, orderBy: { bindingKey: 'asc' } })
      // ended while the chunk's batch waits in the outbox: its UNDEPLOY (revision 2) fails too and waits beside it
      const ended = await bulk.call('POST', `/limit-assignments/${rows[0].bindingKey}/actions/end`, {})
      expect(ended.status).toBe(200)
      const receivedBefore = batching.received.length
      batching.status = 200
      expect(await untilOutboxEmpty()).toBe(0)
      const since = assignmentPushes(batching.received.slice(receivedBefore))
      // the ended assignment: only its UNDEPLOY; the other one's DEPLOY from the chunk's batch, compiled as it is now
      expect(since.filter((m) => m.name === rows[0].bindingKey).map((m) => [m.action, m.revision])).toEqual([['UNDEPLOY', rows[0].runtimeRevision + 1]])
      const deployed = since.filter((m) => m.name === rows[1].bindingKey)
      expect(deployed.map((m) => [m.action, m.revision])).toEqual([['DEPLOY', rows[1].runtimeRevision]])
      expect(names).toContain(subjectKeys(deployed)[0])
    } finally {
      batching.status = 200
    }
  })
})
