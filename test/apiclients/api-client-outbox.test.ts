import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { backoffDelayMs, enqueueDeliveries, startOutboxDeliverer, type OutboxSettings } from '../../src/platform/deploy/outbox.js'
import type { Deployer, DeployMessage } from '../../src/platform/deploy/pusher.js'
import { startTestService, type TestService } from '../support/app.js'
import { freshDatabase } from '../support/database.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

// Revocation handed to the durable retry outbox (spec §2.6, §4.11): 202 + Location + PENDING, retried with
// backoff until acknowledged, across a restart too; the durable read; leases that keep two deliverers apart.

const FAST = { OUTBOX_POLL_INTERVAL_MS: '50' }

const bearer = (token: string, body?: unknown): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  body: body === undefined ? undefined : JSON.stringify(body),
})

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** An ACTIVE client of checkout, pushed IN_SYNC, in a service whose dev worker is given. */
async function activeClient(svc: TestService, token: string, name: string) {
  const appKey = (await svc.deps.prisma.application.findFirstOrThrow({ where: { name: 'checkout' } })).applicationKey
  const created = await jsonOf(await svc.http('/api/api-clients', { ...bearer(token, { projectName: 'payments', name, applicationKey: appKey }), method: 'POST' }))
  const key: string = created.apiClient.apiClientKey
  expect((await svc.http(`/api/api-clients/${key}/actions/activate`, bearer(token, {}))).status).toBe(200)
  return { key, id: (await svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { apiClientKey: key } })).id }
}

const revoke = (svc: TestService, token: string, key: string) => svc.http(`/api/api-clients/${key}/actions/revoke`, bearer(token, {}))
const durable = async (svc: TestService, token: string, location: string) => jsonOf(await svc.http(location, bearer(token)))

describe('revoke with an environment that does not acknowledge', () => {
  let svc: TestService
  let worker: FakeWorker
  let alice: string
  beforeAll(async () => {
    worker = await FakeWorker.start()
    svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }), env: FAST })
    alice = await svc.tokenFor('alice', 'alice-pass-1')
  })
  afterAll(async () => {
    await svc?.close()
    await worker?.stop()
  })

  it('answers 202 + Location + PENDING, keeps retrying with backoff, then records IN_SYNC under a higher revision', async () => {
    const { key, id } = await activeClient(svc, alice, 'to-revoke')
    worker.status = 500
    const res = await revoke(svc, alice, key)
    expect(res.status).toBe(202)
    const location = res.headers.get('location')!
    expect(location).toBe(`/api/api-clients/${key}/runtime-deployment`)
    const body = await jsonOf(res)
    expect(body.apiClient).toMatchObject({ apiClientKey: key, operationalState: 'REVOKED' })
    expect(body.runtimeDeployment).toEqual({
      state: 'PENDING',
      environments: [{ name: 'dev', acknowledged: false, detail: expect.stringContaining('HTTP 500') }, { name: 'prod', acknowledged: true }],
    })

    const rows = await svc.deps.prisma.deliveryOutbox.findMany({ where: { subject: { startsWith: `apiClient:${id}:` } } })
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ environmentName: 'dev', workerUrls: [worker.url], deliveredAt: null, message: { action: 'UNDEPLOY', kind: 'API_CLIENT' } })

    const pending = await durable(svc, alice, location)
    expect(pending.runtimeDeployment).toMatchObject({ state: 'PENDING', revision: expect.any(Number) })
    // retried, with growing gaps between attempts
    const retried = await until('three failed attempts', async () => {
      const row = await svc.deps.prisma.deliveryOutbox.findUniqueOrThrow({ where: { id: rows[0].id } })
      return row.attempts >= 3 && row
    })
    expect(retried.lastError).toContain('HTTP 500')
    expect(retried.deliveredAt).toBeNull()

    worker.status = 200
    const synced = await until('IN_SYNC', async () => {
      const read = await durable(svc, alice, location)
      return read.runtimeDeployment.state === 'IN_SYNC' && read
    })
    expect(synced.runtimeDeployment).toEqual({ state: 'IN_SYNC', revision: expect.any(Number), environments: [{ name: 'dev', acknowledged: true }, { name: 'prod', acknowledged: true }] })
    expect(synced.runtimeDeployment.revision).toBeGreaterThan(pending.runtimeDeployment.revision)
    expect((await svc.deps.prisma.deliveryOutbox.findUniqueOrThrow({ where: { id: rows[0].id } })).deliveredAt).not.toBeNull()
    // the retry sends the very message the synchronous push tried
    expect(worker.received.at(-1)).toEqual(rows[0].message)
  })

  it('answers GET runtime-deployment 204 for a client never pushed, and writes nothing', async () => {
    const client = await svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { clientId: 'checkout-web-id' } })
    const snapshot = async () => ({
      client: await svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { id: client.id } }),
      runtimes: await svc.deps.prisma.apiClientRuntime.count(),
      outbox: await svc.deps.prisma.deliveryOutbox.findMany({ orderBy: { id: 'asc' } }),
      secrets: await svc.deps.prisma.apiClientSecret.count(),
    })
    const before = await snapshot()
    const pushes = worker.received.length
    const res = await svc.http(`/api/api-clients/${client.apiClientKey}/runtime-deployment`, bearer(alice))
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect(await snapshot()).toEqual(before)
    expect(worker.received.length).toBe(pushes)
    const carol = await svc.tokenFor('carol', 'carol-pass-1')
    expect((await svc.http(`/api/api-clients/${client.apiClientKey}/runtime-deployment`, bearer(carol))).status).toBe(204)
    expect((await svc.http('/api/api-clients/acl_nope/runtime-deployment', bearer(alice))).status).toBe(404)
  })
})

describe('the outbox across a restart', () => {
  it('leaves the undelivered revocation to the next instance, which delivers it', async () => {
    const db = await freshDatabase()
    const worker = await FakeWorker.start()
    const bootstrap = sampleBootstrap({ dev: [worker.url] })
    try {
      const first = await startTestService({ db, bootstrap, env: FAST })
      const alice = await first.tokenFor('alice', 'alice-pass-1')
      const { key, id } = await activeClient(first, alice, 'revoked-before-restart')
      worker.status = 500
      const res = await revoke(first, alice, key)
      expect(res.status).toBe(202)
      const location = res.headers.get('location')!
      const pendingRevision = (await durable(first, alice, location)).runtimeDeployment.revision
      await first.close()

      worker.status = 200
      const second = await startTestService({ db, bootstrap, env: FAST })
      try {
        const synced = await until('IN_SYNC after restart', async () => {
          const read = await durable(second, alice, location)
          return read.runtimeDeployment.state === 'IN_SYNC' && read
        })
        expect(synced.runtimeDeployment.revision).toBeGreaterThan(pendingRevision)
        const rows = await second.deps.prisma.deliveryOutbox.findMany({ where: { subject: { startsWith: `apiClient:${id}:` } } })
        expect(rows.map((r) => r.deliveredAt !== null)).toEqual([true])
        expect(worker.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', config: { apiClientKey: key, operationalState: 'REVOKED' } })
      } finally {
        await second.close()
      }
    } finally {
      await worker.stop()
      await db.cleanup()
    }
  })
})

describe('leases and backoff', () => {
  let svc: TestService
  // the service's own deliverer stays idle here, so only the deliverers of the test claim rows
  beforeAll(async () => {
    svc = await startTestService({ env: { OUTBOX_POLL_INTERVAL_MS: '600000' } })
  })
  afterAll(async () => {
    await svc?.close()
  })

  const settings = (onDelivered: OutboxSettings['onDelivered'] = {}): OutboxSettings => ({
    pollIntervalMs: 600_000, backoffBaseMs: 100, backoffCapMs: 400, leaseMs: 30_000, batchSize: 5, onDelivered,
  })
  const message = (name: string): DeployMessage => ({ action: 'DEPLOY', project: 'p', kind: 'TEST', name, revision: 1, config: {} })

  it('doubles the delay per attempt up to the cap', () => {
    expect([1, 2, 3, 4, 5, 40].map((n) => backoffDelayMs(n, 100, 1000))).toEqual([100, 200, 400, 800, 1000, 1000])
  })

  it('never hands one row to two deliverers at once, and delivers each exactly once', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `row-${i}`)
    await enqueueDeliveries(svc.deps.prisma, names.map((name) => ({ environment: { name: 'dev', workerUrls: ['http://unused'] }, message: message(name), subject: `test:${name}` })))
    const delivered: string[] = []
    const slowDeployer: Deployer = {
      async push(envs, msg) {
        delivered.push(msg.name)
        await new Promise((r) => setTimeout(r, 30))
        return { success: true, message: 'ok', responseTimeMs: 30, environmentResults: [{ environmentName: envs[0].name, success: true, message: 'ok', responseTimeMs: 30 }] }
      },
    }
    const handled: string[] = []
    const deps = { prisma: svc.deps.prisma, deployer: slowDeployer, logger: svc.deps.logger }
    const a = startOutboxDeliverer(deps, settings({ test: async (_tx, row) => void handled.push(row.subject) }))
    const b = startOutboxDeliverer(deps, settings({ test: async (_tx, row) => void handled.push(row.subject) }))
    try {
      let total = 0
      while (total < names.length) total += (await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()])).reduce((x, y) => x + y, 0)
      expect(total).toBe(names.length)
      expect([...delivered].sort()).toEqual([...names].sort())
      expect(handled).toHaveLength(names.length)
      expect(await svc.deps.prisma.deliveryOutbox.count({ where: { subject: { startsWith: 'test:' }, deliveredAt: null } })).toBe(0)
    } finally {
      await a.stop()
      await b.stop()
    }
  })

  it('skips a row under a live lease, takes it over once the lease lapses, and backs off after a failure', async () => {
    await enqueueDeliveries(svc.deps.prisma, [{ environment: { name: 'dev', workerUrls: [] }, message: message('leased'), subject: 'lease:leased' }])
    const row = await svc.deps.prisma.deliveryOutbox.findFirstOrThrow({ where: { subject: 'lease:leased' } })
    await svc.deps.prisma.deliveryOutbox.update({ where: { id: row.id }, data: { leaseUntil: new Date(Date.now() + 60_000) } })
    let fail = true
    const deployer: Deployer = {
      async push(envs) {
        const success = !fail
        return { success, message: '', responseTimeMs: 1, environmentResults: [{ environmentName: envs[0].name, success, message: success ? 'ok' : 'HTTP 503', responseTimeMs: 1 }] }
      },
    }
    const d = startOutboxDeliverer({ prisma: svc.deps.prisma, deployer, logger: svc.deps.logger }, settings())
    try {
      expect(await d.runOnce()).toBe(0)
      expect((await svc.deps.prisma.deliveryOutbox.findUniqueOrThrow({ where: { id: row.id } })).attempts).toBe(0)

      await svc.deps.prisma.deliveryOutbox.update({ where: { id: row.id }, data: { leaseUntil: new Date(Date.now() - 1000) } })
      expect(await d.runOnce()).toBe(0)
      const failed = await svc.deps.prisma.deliveryOutbox.findUniqueOrThrow({ where: { id: row.id } })
      expect(failed).toMatchObject({ attempts: 1, leaseUntil: null, lastError: 'HTTP 503', deliveredAt: null })
      expect(failed.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 20)

      fail = false
      expect(await d.runOnce()).toBe(0) // not due yet
      await new Promise((r) => setTimeout(r, 150))
      expect(await d.runOnce()).toBe(1)
      expect(await svc.deps.prisma.deliveryOutbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ attempts: 2, lastError: null, deliveredAt: expect.any(Date) })
    } finally {
      await d.stop()
    }
  })
})
