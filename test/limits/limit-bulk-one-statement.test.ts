// The one-statement chunk (issue 19 §5, src/modules/limits/bulk/fast-chunk.ts): once the run's message is compiled
// (after its first chunk), a chunk of fresh subjects is one statement; any chunk it cannot take whole — a subject
// deleted or renamed since PREPARE, a scope already bound, a row the database refuses or silently drops — writes
// nothing there and goes the transaction's way, subject by subject. Each chunk below is made to leave the one
// statement differently; the run must come out as exact as a run of transactions: counts, ledger, issues, pushes,
// outbox. The worker holds its answers (FakeWorker.hold) so the test changes subjects at a chunk boundary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assignmentInclude, compileAssignment, liveScopeKeyOf, liveScopeKeysOf, validateAssignmentContent } from '../../src/modules/limits/assignments/service.js'
import { REF_COLUMN } from '../../src/modules/limits/assignments/subjects.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker, type ReceivedDeployment } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { bulkClient, customRate, seedConsumers } from './limit-bulk-helpers.js'

let svc: TestService
let worker: FakeWorker
let alice: string

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }), env: { DEPLOY_TIMEOUT_MS: '600000' } })
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const prisma = () => svc.deps.prisma
const keyOf = (m: ReceivedDeployment) => (m.config.subject as { key: string }).key

/**
 * Starts a run over the consumers matching `search` with the worker holding its answers, calls `whileHeld` once the
 * first chunk's pushes are held (a chunk boundary the run cannot pass), then lets the worker answer.
 */
async function runWhileHeld(bulk: ReturnType<typeof bulkClient>, search: string, whileHeld: (runId: string) => Promise<void>): Promise<string> {
  worker.hold()
  try {
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search }, content: customRate() })
    const runId: string = run.body.runId
    await worker.holding()
    await whileHeld(runId)
    return runId
  } finally {
    worker.release()
  }
}

describe('bulk chunks as one statement', () => {
  it('a chunk it cannot take whole goes subject by subject: refused, deleted, renamed, bound and dropped subjects, exact counts', async () => {
    const names = await seedConsumers(prisma(), 'payments', 'fastchunk', 800)
    const bulk = bulkClient(svc.http, alice)
    // one-0450 already has a live assignment on the scope (chunk 3)
    const first = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', subjectKeys: ['fastchunk-0450'] }, content: customRate() })
    expect(await bulk.finished(first.run.body.runId)).toMatchObject({ runStatus: 'SUCCESS', createdCount: 1 })
    const idOf = async (username: string) => (await prisma().credential.findUniqueOrThrow({ where: { username } })).id
    const [refused, dropped] = [await idOf('fastchunk-0250'), await idOf('fastchunk-0700')]
    // chunk 2: the database refuses one row (the statement fails as a whole); chunk 4: it silently drops one row
    // (the statement creates fewer rows than the chunk has subjects)
    await prisma().$executeRawUnsafe(`CREATE FUNCTION one_statement_guard() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF NEW."credentialId" = '${refused}' THEN RAISE EXCEPTION 'refused'; END IF;
      IF NEW."credentialId" = '${dropped}' THEN RETURN NULL; END IF;
      RETURN NEW; END $$`)
    await prisma().$executeRawUnsafe(`CREATE TRIGGER one_statement_guard BEFORE INSERT ON "LimitAssignment" FOR EACH ROW EXECUTE FUNCTION one_statement_guard()`)
    const received = worker.received.length
    const runId = await runWhileHeld(bulk, 'fastchunk-', async (runId) => {
      // the first chunk's pushes are held: the run writes at most its second chunk, then waits
      expect((await bulk.get(runId)).body.processedCount).toBeLessThanOrEqual(400)
      // chunk 3: one subject deleted and one renamed since PREPARE
      await prisma().credential.delete({ where: { username: 'fastchunk-0401' } })
      await prisma().credential.update({ where: { username: 'fastchunk-0402' }, data: { username: 'renamed-0402' } })
    })
    const done = await bulk.finished(runId)
    await prisma().$executeRawUnsafe('DROP TRIGGER one_statement_guard ON "LimitAssignment"')
    await prisma().$executeRawUnsafe('DROP FUNCTION one_statement_guard()')

    expect(done).toMatchObject({
      runStatus: 'PARTIAL', actualCount: 800, processedCount: 800, createdCount: 796, skippedCount: 1, failedCount: 3, replacedCount: 0, issueCount: 4,
      deploymentState: 'IN_SYNC',
    })
    const issues = (await bulk.issues(runId, '?size=10')).body.items
    expect(issues.map((i: { subjectName: string; outcome: string; messageKey: string }) => [i.subjectName, i.outcome, i.messageKey])).toEqual([
      ['fastchunk-0250', 'FAILED', 'limit.bulk.subjectFailed'],
      ['fastchunk-0401', 'FAILED', 'resourceNotFound'],
      ['fastchunk-0450', 'SKIPPED_EXISTING', 'limit.binding.scopeAlreadyBound'],
      ['fastchunk-0700', 'FAILED', expect.any(String)],
    ])

    // the ledger: every subject decided once, in order, with the binding key of the row that exists
    const run = await prisma().limitBulkRun.findUniqueOrThrow({ where: { runId } })
    const ledger = await prisma().limitBulkRunSubject.findMany({ where: { runId: run.id }, orderBy: { seq: 'asc' } })
    expect(ledger.map((l) => l.outcome)).toEqual(names.map((n) => (['fastchunk-0250', 'fastchunk-0401', 'fastchunk-0700'].includes(n) ? 'FAILED' : n === 'fastchunk-0450' ? 'SKIPPED_EXISTING' : 'CREATED')))
    const rows = await prisma().limitAssignment.findMany({ where: { bulkRunId: runId }, select: { bindingKey: true, status: true, credentialId: true } })
    expect(rows).toHaveLength(796)
    expect(rows.every((r) => r.status === 'ACTIVE')).toBe(true)
    const created = ledger.filter((l) => l.outcome === 'CREATED')
    expect(new Set(created.map((l) => l.bindingKey))).toEqual(new Set(rows.map((r) => r.bindingKey)))

    // every created row pushed once, in subject order, the renamed subject under its current key; one outbox row
    // per chunk, all delivered
    const pushed = worker.received.slice(received).filter((m) => m.kind === 'LIMIT_ASSIGNMENT' && m.project === 'payments')
    expect(pushed.map((m) => m.name)).toEqual(created.map((l) => l.bindingKey))
    expect(pushed.map(keyOf)).toEqual(created.map((l) => (l.subjectName === 'fastchunk-0402' ? 'renamed-0402' : l.subjectName)))
    expect(pushed.every((m) => m.action === 'DEPLOY' && m.revision === 1)).toBe(true)
    const outbox = await prisma().deliveryOutbox.findMany({ where: { subject: { startsWith: `limitBulkChunk:${runId}:` } }, orderBy: { subject: 'asc' } })
    expect(outbox.map((o) => [o.subject, o.environmentName, o.deliveredAt !== null])).toEqual(
      ['0', '200', '400', '600'].map((seq) => [`limitBulkChunk:${runId}:${seq}`, 'dev', true]))
    // a row holds its chunk's messages, DEPLOYs without their config (compiled again if the outbox delivers it)
    const stored = outbox.flatMap((o) => (o.message as unknown as { messages: ReceivedDeployment[] }).messages)
    expect(stored.map((m) => [m.action, m.name, m.revision, m.config])).toEqual(pushed.map((m) => ['DEPLOY', m.name, 1, null]))
    // every push's outcome recorded (with a later chunk's statement, one statement or transaction, or at the end)
    expect(await recordsOf(created.map((l) => l.bindingKey!))).toEqual(created.map((l) => [l.bindingKey, 'dev', 'DEPLOY', 1, true]))
  })

  it('a cancel requested while a chunk is pushed stops the run at the next chunk boundary', async () => {
    await seedConsumers(prisma(), 'payments', 'fastcancel', 800)
    const bulk = bulkClient(svc.http, alice)
    const runId = await runWhileHeld(bulk, 'fastcancel-', async (runId) => {
      expect((await bulk.cancel(runId)).status).toBe(200)
    })
    const done = await bulk.finished(runId)
    // the first chunk, and the second if it was written while the first one's pushes were held; never the third
    expect(done).toMatchObject({ runStatus: 'CANCELLED', cancelRequested: true })
    expect([200, 400]).toContain(done.processedCount)
    expect(done.createdCount).toBe(done.processedCount)
    expect(await prisma().limitAssignment.count({ where: { bulkRunId: runId } })).toBe(done.createdCount)
    // the pushes of the chunks written were recorded, the last ones when the run stopped
    const keys = (await prisma().limitAssignment.findMany({ where: { bulkRunId: runId }, select: { bindingKey: true }, orderBy: { bindingKey: 'asc' } })).map((r) => r.bindingKey)
    expect(await recordsOf(keys)).toEqual(keys.map((k) => [k, 'dev', 'DEPLOY', 1, true]))
  })

  it('the first chunk too: its pushes carry the message the assignment service compiles from each row, its batch stored without configs', async () => {
    const names = await seedConsumers(prisma(), 'payments', 'fastfirst', 250)
    const bulk = bulkClient(svc.http, alice)
    const batches = worker.batches.length
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'fastfirst-' }, content: customRate(42) })
    const done = await bulk.finished(run.body.runId)
    expect(done).toMatchObject({ runStatus: 'SUCCESS', createdCount: 250, processedCount: 250, deploymentState: 'IN_SYNC' })
    // two chunks, two batches, in subject order
    const sent = worker.batches.slice(batches).filter((b) => b.messages[0]?.project === 'payments')
    expect(sent.map((b) => [b.status, b.messages.length])).toEqual([[200, 200], [200, 50]])
    const pushed = sent.flatMap((b) => b.messages)
    expect(pushed.map(keyOf)).toEqual(names)
    const rows = await prisma().limitAssignment.findMany({ where: { bulkRunId: run.body.runId }, include: assignmentInclude })
    const byKey = new Map(rows.map((r) => [r.bindingKey, r]))
    for (const m of pushed) {
      const row = byKey.get(m.name)!
      expect([m.action, m.kind, m.revision]).toEqual(['DEPLOY', 'LIMIT_ASSIGNMENT', row.runtimeRevision])
      expect(m.config).toEqual(JSON.parse(JSON.stringify(await compileAssignment(prisma(), row))))
    }
    const outbox = await prisma().deliveryOutbox.findMany({ where: { subject: { startsWith: `limitBulkChunk:${run.body.runId}:` } }, orderBy: { subject: 'asc' } })
    expect(outbox.map((o) => [o.subject, o.deliveredAt !== null])).toEqual([[`limitBulkChunk:${run.body.runId}:0`, true], [`limitBulkChunk:${run.body.runId}:200`, true]])
    const stored = outbox.flatMap((o) => (o.message as unknown as { messages: ReceivedDeployment[] }).messages)
    expect(stored).toEqual(pushed.map((m) => ({ ...m, config: null })))
  })

  it('a worker that refuses the batches: every outcome recorded as not acknowledged at once, the run DEGRADED', async () => {
    const names = await seedConsumers(prisma(), 'payments', 'fastrefused', 450)
    const bulk = bulkClient(svc.http, alice)
    // refused until the records are read: the outbox retries the batches and would record them acknowledged
    worker.batchStatus = 500
    try {
      const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'fastrefused-' }, content: customRate() })
      const done = await bulk.finished(run.body.runId)
      expect(done).toMatchObject({ runStatus: 'SUCCESS', createdCount: 450, deploymentState: 'DEGRADED' })
      const ledger = await prisma().limitBulkRunSubject.findMany({ where: { run: { runId: done.runId } }, orderBy: { seq: 'asc' } })
      expect(ledger.map((l) => l.subjectName)).toEqual(names)
      expect(await recordsOf(ledger.map((l) => l.bindingKey!))).toEqual(ledger.map((l) => [l.bindingKey, 'dev', 'DEPLOY', 1, false]))
    } finally {
      worker.batchStatus = undefined
    }
  })
})

/** The deployment records of the assignments (project payments), in the order of the keys given. */
async function recordsOf(bindingKeys: string[]) {
  const records = await prisma().deploymentRecord.findMany({ where: { projectName: 'payments', kind: 'LIMIT_ASSIGNMENT', name: { in: bindingKeys } } })
  const byKey = new Map(records.map((r) => [r.name, [r.name, r.environmentName, r.action, r.revision, r.acknowledged]]))
  expect(records).toHaveLength(bindingKeys.length)
  return bindingKeys.map((k) => byKey.get(k))
}

describe('live scope keys of many subjects', () => {
  it('are the keys liveScopeKeyOf gives, for every bulk subject type and any subject id', () => {
    const content = validateAssignmentContent(customRate(), { subjectType: 'CONSUMER', bulk: true })
    const ids = ['3f0c2b1e-0000-4000-8000-000000000001', 'with "quotes" and \\ backslash', 'ünïcode \u2028 line separator', '']
    for (const type of ['CONSUMER', 'API_CLIENT', 'APPLICATION', 'ORGANIZATION'] as const) {
      const many = liveScopeKeysOf('project-1', type, content)
      for (const id of ids) {
        const ref = { credentialId: null, applicationId: null, apiClientId: null, organizationId: null, apiProxyId: null, [REF_COLUMN[type]!]: id }
        expect(many(id)).toBe(liveScopeKeyOf('project-1', { type, key: null, ref }, content, 'lb_unused'))
      }
    }
    // the keys differ by subject and by type
    expect(new Set(ids.map(liveScopeKeysOf('project-1', 'CONSUMER', content))).size).toBe(ids.length)
    expect(liveScopeKeysOf('project-1', 'CONSUMER', content)('x')).not.toBe(liveScopeKeysOf('project-1', 'APPLICATION', content)('x'))
  })

  it('refuses a subject type without a reference column', () => {
    const content = validateAssignmentContent(customRate(), { subjectType: 'CONSUMER', bulk: true })
    expect(() => liveScopeKeysOf('project-1', 'AUDIENCE_RULE', content)).toThrow(/no reference column/)
  })
})
