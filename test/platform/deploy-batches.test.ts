// Batched pushes (RUNTIME.md §4.1) from the writes that deploy many objects at once, besides bulk runs
// (test/platform/deploy-batches-bulk.test.ts): a plan publish recompiling its assignments, an application resume
// re-enabling its credentials, a transfer import. Each reaches a batch-taking worker as one batch in order.
import crypto from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { insertCredential } from '../../src/modules/credentials/service.js'
import { insertApplication } from '../../src/modules/identity/applications.js'
import { bulkClient, seedConsumers } from '../limits/limit-bulk-helpers.js'
import { caller, key, limitsBootstrap, rateSpec } from '../limits/limit-plans-helpers.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { importPackage, transferExport } from '../support/zip-fixtures.js'

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}
let call: ReturnType<typeof caller>

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: limitsBootstrap(sampleBootstrap({ dev: [worker.url] })) })
  for (const [user, pw] of [['root', 's3cret-root'], ['alice', 'alice-pass-1']]) tokens[user] = await svc.tokenFor(user, pw)
  call = caller(svc, tokens)
})
beforeEach(() => {
  worker.received.length = 0
  worker.batches.length = 0
  worker.requests = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}`

/** n credentials in `payments` (enabled as given), in name order */
async function seedCredentials(n: number, enabled = true): Promise<{ ids: string[]; usernames: string[] }> {
  const project = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
  const prefix = unique('cred')
  const usernames = Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(3, '0')}`)
  const ids: string[] = []
  for (const username of usernames) ids.push((await insertCredential(svc.deps.prisma, svc.deps.keyring, project.id, { username, password: `${username}-pw`, enabled })).id)
  return { ids, usernames }
}

describe('writes that deploy many objects send batches', () => {
  it('plan publish: every ACTIVE assignment referencing the plan is recompiled and pushed in one batch', async () => {
    const plan = (await call('POST', '/apiops/projects/payments/limit-plans', 'alice', { family: 'REQUEST_RATE', name: unique('Batch plan'), initialRuleSpec: rateSpec(10) }, { 'idempotency-key': key() })).body
    expect((await call('POST', `/apiops/projects/payments/limit-plans/${plan.planKey}/revisions/1/actions/publish`, 'alice', {})).status).toBe(200)
    await seedConsumers(svc.deps.prisma, 'payments', 'planned', 260)
    const bulk = bulkClient(svc.http, tokens.alice)
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'PLANNED-' }, content: { family: 'REQUEST_RATE', mode: 'PLAN', planKeys: [plan.planKey] } })
    expect(await bulk.finished(run.body.runId)).toMatchObject({ runStatus: 'SUCCESS', createdCount: 260 })
    const bindingKeys = (await svc.deps.prisma.limitAssignment.findMany({ where: { bulkRunId: run.body.runId }, select: { bindingKey: true }, orderBy: { bindingKey: 'asc' } })).map((r) => r.bindingKey)

    worker.received.length = 0
    worker.batches.length = 0
    worker.requests = 0
    await call('POST', `/apiops/projects/payments/limit-plans/${plan.planKey}/draft-revisions`, 'alice', { ruleSpec: rateSpec(77) })
    expect((await call('POST', `/apiops/projects/payments/limit-plans/${plan.planKey}/revisions/2/actions/publish`, 'alice')).status).toBe(200)
    expect(worker.requests).toBe(1)
    expect(worker.batches).toHaveLength(1)
    const [batch] = worker.batches
    expect(batch.status).toBe(200)
    expect(batch.messages.map((m) => m.name)).toEqual(bindingKeys)
    for (const m of batch.messages) {
      expect(m).toMatchObject({ action: 'DEPLOY', kind: 'LIMIT_ASSIGNMENT', project: 'payments', revision: 2, config: { rules: [{ planKey: plan.planKey, revision: 2, ruleSpec: rateSpec(77) }] } })
    }
    expect(await svc.deps.prisma.deliveryOutbox.count({ where: { deliveredAt: null } })).toBe(0)
  })

  it('plan publish to a worker that fails the batch: every message is handed to the retry outbox', async () => {
    const plan = (await call('POST', '/apiops/projects/payments/limit-plans', 'alice', { family: 'REQUEST_RATE', name: unique('Failing plan'), initialRuleSpec: rateSpec(10) }, { 'idempotency-key': key() })).body
    expect((await call('POST', `/apiops/projects/payments/limit-plans/${plan.planKey}/revisions/1/actions/publish`, 'alice', {})).status).toBe(200)
    await seedConsumers(svc.deps.prisma, 'payments', 'refused', 30)
    const bulk = bulkClient(svc.http, tokens.alice)
    const { run } = await bulk.previewAndRun({ selector: { subjectType: 'CONSUMER', search: 'REFUSED-' }, content: { family: 'REQUEST_RATE', mode: 'PLAN', planKeys: [plan.planKey] } })
    expect(await bulk.finished(run.body.runId)).toMatchObject({ runStatus: 'SUCCESS', createdCount: 30 })
    await call('POST', `/apiops/projects/payments/limit-plans/${plan.planKey}/draft-revisions`, 'alice', { ruleSpec: rateSpec(5) })
    worker.batchStatusOnce = [500]
    worker.batches.length = 0
    expect((await call('POST', `/apiops/projects/payments/limit-plans/${plan.planKey}/revisions/2/actions/publish`, 'alice')).status).toBe(200)
    expect(worker.batches.map((b) => [b.status, b.messages.length])).toEqual([[500, 30]])
    const rows = await svc.deps.prisma.deliveryOutbox.findMany({ where: { deliveredAt: null }, orderBy: { subject: 'asc' } })
    expect(rows.map((r) => r.subject)).toEqual(worker.batches[0].messages.map((m) => `limitAssignment:${m.name}:2`).sort())
    expect(rows.every((r) => r.environmentName === 'dev' && r.workerUrls[0] === worker.url)).toBe(true)
    // the retry outbox delivers them (one pass; the service polls on its own as well)
    await svc.deps.prisma.deliveryOutbox.updateMany({ where: { deliveredAt: null }, data: { nextAttemptAt: new Date(0) } })
    for (let i = 0; i < 200 && (await svc.deps.prisma.deliveryOutbox.count({ where: { deliveredAt: null } })) > 0; i++) await new Promise((r) => setTimeout(r, 50))
    expect(await svc.deps.prisma.deliveryOutbox.count({ where: { deliveredAt: null } })).toBe(0)
  })

  it('application resume: the re-enabled credentials are redeployed in one batch, in order', async () => {
    const { usernames } = await seedCredentials(40)
    const app = await insertApplication(svc.deps.prisma, (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })).id, { name: unique('app'), appStatus: 'ACTIVE', consumers: usernames })
    const act = (verb: string) => call('POST', `/apiops/projects/payments/applications/${app.applicationKey}/actions/${verb}`, 'alice')
    expect((await act('suspend')).status).toBe(200)
    expect(worker.batches.map((b) => b.messages.map((m) => [m.action, m.name]))).toEqual([usernames.map((u) => ['UNDEPLOY', u])])
    worker.batches.length = 0
    worker.requests = 0
    expect((await act('resume')).status).toBe(200)
    expect(worker.requests).toBe(1)
    expect(worker.batches).toHaveLength(1)
    expect(worker.batches[0].messages.map((m) => [m.kind, m.action, m.name])).toEqual(usernames.map((u) => ['CREDENTIAL', 'DEPLOY', u]))
    expect(worker.batches[0].messages.every((m) => m.project === 'payments' && m.config.enabled === true)).toBe(true)
  })

  it('transfer import: the imported credentials reach the worker in one batch', async () => {
    const { ids, usernames } = await seedCredentials(25)
    const { bytes } = await transferExport(svc, tokens.alice, 'payments', { formatVersion: 1, type: 'CREDENTIAL', names: usernames })
    await svc.deps.prisma.credential.deleteMany({ where: { id: { in: ids } } })
    worker.received.length = 0
    worker.batches.length = 0
    worker.requests = 0
    const imported = await importPackage(svc, tokens.root, 'other', 'CREDENTIAL', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body.advisories.filter((a: { key: string }) => a.key === 'deployRequired')).toEqual([])
    expect(worker.requests).toBe(1)
    expect(worker.batches).toHaveLength(1)
    expect(worker.batches[0].messages.map((m) => [m.kind, m.action, m.project, m.name])).toEqual(usernames.map((u) => ['CREDENTIAL', 'DEPLOY', 'other', u]))
  })

  it('transfer import to a worker that fails the batch: every credential is reported deployRequired', async () => {
    const { ids, usernames } = await seedCredentials(5)
    const { bytes } = await transferExport(svc, tokens.alice, 'payments', { formatVersion: 1, type: 'CREDENTIAL', names: usernames })
    await svc.deps.prisma.credential.deleteMany({ where: { id: { in: ids } } })
    worker.batchStatusOnce = [503]
    const imported = await importPackage(svc, tokens.root, 'other', 'CREDENTIAL', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body.advisories).toContainEqual({ level: 'WARNING', key: 'deployRequired', params: { type: 'CREDENTIAL', names: usernames, reason: 'an environment did not acknowledge' } })
    expect(worker.batches.map((b) => [b.status, b.messages.length])).toEqual([[503, 5]])
  })
})
