import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker, type ReceivedDeployment } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { bulkClient, customRate, seedConsumers } from '../limits/limit-bulk-helpers.js'

// Batched pushes (RUNTIME.md §4.1) from bulk runs: each chunk reaches a worker as one POST /deployments/batch;
// a worker that answers 404 to the batch path gets the same messages as single pushes in the same order; a failed
// batch hands every one of its messages to the retry outbox, which delivers them.

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

  it('a failed batch: every message of it is retried by the outbox and delivered; the other chunks are unaffected', async () => {
    const names = await seedConsumers(svc.deps.prisma, 'payments', 'failing', 300)
    batching.batchStatusOnce = [503]
    const batchesBefore = batching.batches.length
    const receivedBefore = batching.received.length
    const bulk = bulkClient(svc.http, alice)
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'FAILING-' }, content: customRate(7) })
    const done = await bulk.finished(run.body.runId)
    expect(done).toMatchObject({ runStatus: 'SUCCESS', createdCount: 300, deploymentState: 'DEGRADED' })

    const sent = batching.batches.slice(batchesBefore)
    expect(sent.map((b) => [b.status, b.messages.length])).toEqual([[503, 200], [200, 100]])
    expect(await untilOutboxEmpty()).toBe(0)
    // the 200 messages of the failed batch came again as single pushes (retries, perhaps while the next chunk was
    // sent), each exactly as first sent; the 100 of the acknowledged batch came in it
    const since = assignmentPushes(batching.received.slice(receivedBefore))
    expect(since.slice(0, 200)).toEqual(sent[0].messages)
    const firstSent = new Map(sent[0].messages.map((m) => [m.name, m]))
    const retried = since.slice(200).filter((m) => firstSent.has(m.name))
    expect([...new Set(subjectKeys(retried))].sort()).toEqual(names.slice(0, 200))
    for (const m of retried) expect(m).toEqual(firstSent.get(m.name))
    expect(since.slice(200).filter((m) => !firstSent.has(m.name))).toEqual(sent[1].messages)
    expect(subjectKeys(sent[1].messages)).toEqual(names.slice(200))
    const rows = await svc.deps.prisma.deliveryOutbox.findMany({ where: { subject: { in: retried.map((m) => `limitAssignment:${m.name}:${m.revision}`) }, environmentName: 'dev' } })
    expect(rows).toHaveLength(200)
    expect(rows.every((r) => r.deliveredAt !== null && r.attempts >= 2)).toBe(true)
    // the 404 worker took every message one by one, none retried
    expect(subjectKeys(assignmentPushes(legacy.received)).slice(-300)).toEqual(names)
  })
})
