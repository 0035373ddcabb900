import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CRUD_EMAIL } from '../connections/examples.js'
import { startConnectionEnv, type ConnectionEnv } from '../connections/support.js'
import { startTestService } from '../support/app.js'

// Event webhooks (issue 18 §4): a webhook connection subscribes to event types; matching events are delivered through
// the outbox, signed (HMAC-SHA256 over `${timestamp}.${body}`), retried with the outbox's backoff; a delivery log per
// connection over REST and GraphQL. The receiver is a real HTTP server on loopback that checks every signature.

const SECRET = 'whsec-test-0123456789abcdef'
const P = '/apiops/projects/MyProject/connections'

interface Received { eventId: string; eventType: string; attempt: string; signatureValid: boolean; answered: number; body: any }

/** Answers 500 to the first request of each event id and 200 after; verifies every signature. */
async function startReceiver() {
  const received: Received[] = []
  const seen = new Set<string>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const timestamp = String(req.headers['x-gateway-timestamp'] ?? '')
      const expected = `sha256=${crypto.createHmac('sha256', SECRET).update(`${timestamp}.${raw}`).digest('hex')}`
      const given = String(req.headers['x-gateway-signature'] ?? '')
      const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300
      const signatureValid = fresh && given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))
      const eventId = String(req.headers['x-gateway-event-id'] ?? '')
      const answered = seen.has(eventId) ? 200 : 500
      seen.add(eventId)
      received.push({ eventId, eventType: String(req.headers['x-gateway-event-type']), attempt: String(req.headers['x-gateway-delivery-attempt']), signatureValid, answered, body: JSON.parse(raw) })
      res.writeHead(answered, { 'content-type': 'text/plain' }).end(answered === 200 ? 'ok' : 'not yet')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

let env: ConnectionEnv
let receiver: Awaited<ReturnType<typeof startReceiver>>

const webhook = (name: string, url: string) => ({ type: 'webhook', name, httpMethod: 'POST', fullUrl: url, deployToWorker: false })
const createHook = async (user: string, name: string) => {
  const r = await env.json(user, 'POST', `${P}/${name}/`, webhook(name, receiver.url))
  expect(r.status, JSON.stringify(r.body)).toBe(200)
}
const subscriptionRow = async (name: string) => {
  const conn = await env.svc.deps.prisma.webhookConnection.findUniqueOrThrow({ where: { name } })
  return env.svc.deps.prisma.webhookEventSubscription.findUnique({ where: { connectionId: conn.id } })
}

beforeAll(async () => {
  receiver = await startReceiver()
  env = await startConnectionEnv({ OUTBOX_POLL_INTERVAL_MS: '50' })
  await createHook('pm', 'hook')
})
afterAll(async () => {
  await env?.close()
  await receiver?.stop()
})

describe('event webhooks (issue 18 §4)', () => {
  it('subscribes with a write-only signing secret that no read returns', async () => {
    const put = await env.json('pm', 'PUT', `${P}/hook/events/`, { eventTypes: ['audit.CONNECTION', 'deployment.failed', 'audit.CONNECTION'], signingSecret: SECRET })
    expect(put.status, JSON.stringify(put.body)).toBe(200)
    expect(put.body).toMatchObject({ status: 'SUCCESS', connectionName: 'hook', eventTypes: ['audit.CONNECTION', 'deployment.failed'], signingSecretSet: true })
    const reads = [
      put.body,
      (await env.json('viewer', 'GET', `${P}/hook/events/`)).body,
      (await env.json('viewer', 'GET', `${P}/hook/`)).body,
      (await env.svc.graphql('query { webhookEventSubscription(projectName: "MyProject", connectionName: "hook") { connectionName eventTypes signingSecretSet } }', {}, env.tokens.viewer)).body,
      (await env.svc.graphql('query { connection(projectName: "MyProject", name: "hook") { config } }', {}, env.tokens.viewer)).body,
    ]
    for (const body of reads) expect(JSON.stringify(body)).not.toContain(SECRET)
    expect(reads[1]).toMatchObject({ eventTypes: ['audit.CONNECTION', 'deployment.failed'], signingSecretSet: true })
    expect(reads[3].data.webhookEventSubscription).toEqual({ connectionName: 'hook', eventTypes: ['audit.CONNECTION', 'deployment.failed'], signingSecretSet: true })
    // stored sealed, not in the clear
    expect((await subscriptionRow('hook'))!.signingSecret).not.toContain(SECRET)
  })

  it('delivers a signed event, retries it after a 500 with the same event id, and logs attempts 2 and DELIVERED', async () => {
    await createHook('pm', 'second-hook') // an audited CONNECTION write: an event of a subscribed type
    const first = await until('the first attempt', () => receiver.received.find((r) => r.body.data?.objectName === 'second-hook'))
    const eventId = first.eventId
    expect(first).toMatchObject({ eventType: 'audit.CONNECTION', answered: 500, signatureValid: true, attempt: '1' })
    expect(first.body).toMatchObject({ id: eventId, type: 'audit.CONNECTION', projectName: 'MyProject', connectionName: 'hook', data: { objectType: 'CONNECTION', category: 'CONNECTION', actor: 'pm' } })
    const retried = await until('the retried delivery', () => receiver.received.find((r) => r.eventId === eventId && r.answered === 200))
    expect(retried).toMatchObject({ eventType: 'audit.CONNECTION', signatureValid: true, attempt: '2' })
    expect(retried.body).toEqual(first.body)

    const item = await until('the log to say DELIVERED', async () => {
      const page = await env.json('viewer', 'GET', `${P}/hook/deliveries/?size=200`)
      expect(page.status).toBe(200)
      const found = page.body.items.find((d: any) => d.eventId === eventId)
      return found?.status === 'DELIVERED' && found
    })
    expect(item).toMatchObject({ eventType: 'audit.CONNECTION', status: 'DELIVERED', attempts: 2, lastError: 'HTTP 500', lastStatusCode: 200, nextAttemptAt: null })
    expect(item.deliveredAt).toEqual(expect.any(String))
    expect(receiver.received.filter((r) => r.eventId === eventId)).toHaveLength(2)

    const gql = await env.svc.graphql(
      'query($p: String!, $c: String!) { webhookDeliveries(projectName: $p, connectionName: $c, size: 200) { totalElements items { eventId eventType status attempts lastError } } }',
      { p: 'MyProject', c: 'hook' },
      env.tokens.viewer,
    )
    expect(gql.body.errors).toBeUndefined()
    expect(gql.body.data.webhookDeliveries.items).toContainEqual({ eventId, eventType: 'audit.CONNECTION', status: 'DELIVERED', attempts: 2, lastError: 'HTTP 500' })
    expect(receiver.received.every((r) => r.signatureValid)).toBe(true)
  })

  it('sends a deployment.failed event for the environment that did not acknowledge a push, not for the one that did', async () => {
    env.workers.production.status = 500
    try {
      const r = await env.json('pm', 'POST', `${P}/deployed-hook/`, { ...webhook('deployed-hook', receiver.url), deployToWorker: true })
      expect(r.status).toBe(200)
      expect(r.body.deploymentResult.success).toBe(false)
      const failure = await until('the deployment failure event', () => receiver.received.find((x) => x.eventType === 'deployment.failed' && x.answered === 200 && x.body.data.name === 'deployed-hook'))
      expect(failure.signatureValid).toBe(true)
      expect(failure.body.data).toMatchObject({ projectName: 'MyProject', environmentName: 'production', kind: 'CONNECTION', name: 'deployed-hook', action: 'DEPLOY', acknowledged: false })
      await new Promise((resolve) => setTimeout(resolve, 300))
      const rows = await env.svc.deps.prisma.webhookDelivery.findMany({ where: { eventType: 'deployment.failed' } })
      expect(rows.map((d) => (d.payload as any).data.environmentName)).toEqual(['production'])
    } finally {
      env.workers.production.status = 200
    }
  })

  it('sends bulkRun.finished once a bulk run of the project reaches a terminal status', async () => {
    const put = await env.json('pm', 'PUT', `${P}/hook/events/`, { eventTypes: ['audit.CONNECTION', 'deployment.failed', 'bulkRun.finished'] })
    expect(put.body).toMatchObject({ eventTypes: ['audit.CONNECTION', 'deployment.failed', 'bulkRun.finished'], signingSecretSet: true })
    const prisma = env.svc.deps.prisma
    const project = await prisma.project.findUniqueOrThrow({ where: { name: 'MyProject' } })
    // the run's row as the runner writes it: the bus announces every change, only the terminal one is an event
    await prisma.limitBulkRun.create({ data: { runId: 'run-webhook-1', projectId: project.id, activeProjectId: project.id, kind: 'ASSIGN', runStatus: 'RUNNING', trigger: 'API', triggeredBy: 'pm' } })
    await prisma.limitBulkRun.update({ where: { runId: 'run-webhook-1' }, data: { runStatus: 'SUCCESS', activeProjectId: null, processedCount: 3, createdCount: 3, finishedAt: new Date() } })
    const got = await until('the bulk run event', () => receiver.received.find((r) => r.eventType === 'bulkRun.finished' && r.answered === 200))
    expect(got.signatureValid).toBe(true)
    expect(got.eventId).toBe('bulkRun-run-webhook-1')
    expect(got.body.data).toMatchObject({ runId: 'run-webhook-1', projectName: 'MyProject', runStatus: 'SUCCESS', processedCount: 3, createdCount: 3 })
    expect(await prisma.webhookDelivery.count({ where: { eventType: 'bulkRun.finished' } })).toBe(1)
  })

  it('does not deliver events of a type the connection does not subscribe to', async () => {
    const credential = await env.json('root', 'POST', '/apiops/projects/MyProject/credentials/', { username: 'not-sent', password: 'Pw-123456', fullName: 'Not Sent', email: 'not-sent@example.test' })
    expect(credential.status, JSON.stringify(credential.body)).toBe(200)
    const audit = await until('the credential audit event', () => env.svc.deps.prisma.auditEvent.findFirst({ where: { objectName: 'not-sent' } }))
    expect(audit.objectType).toBe('credentials')
    // a subscribed event after it: once it has arrived, the credential event has been heard too
    await createHook('pm', 'marker-hook')
    await until('the marker event', () => receiver.received.find((r) => r.body.data?.objectName === 'marker-hook'))
    await new Promise((r) => setTimeout(r, 300))
    expect(await env.svc.deps.prisma.webhookDelivery.count({ where: { eventId: `audit-${audit.id}` } })).toBe(0)
    expect(new Set(receiver.received.map((r) => r.eventType))).toEqual(new Set(['audit.CONNECTION', 'deployment.failed', 'bulkRun.finished']))
  })

  it('refuses an unknown event type, a missing or short secret and unknown fields with a 400 naming them, writing nothing', async () => {
    const before = JSON.stringify(await subscriptionRow('hook'))
    const unknown = await env.json('pm', 'PUT', `${P}/hook/events/`, { eventTypes: ['audit.CONNECTION', 'nope.happened'], signingSecret: 'another-secret-0123456789' })
    expect(unknown.status).toBe(400)
    expect(unknown.body.status).toBe('FAILURE')
    expect(unknown.body.resultMessage).toContain('eventTypes[1]')
    expect(unknown.body.resultMessage).toContain("'nope.happened'")
    const category = await env.json('pm', 'PUT', `${P}/hook/events/`, { eventTypes: ['audit.NO_SUCH_CATEGORY'] })
    expect(category.status).toBe(400)
    expect(category.body.resultMessage).toContain('audit.NO_SUCH_CATEGORY')
    const short = await env.json('pm', 'PUT', `${P}/hook/events/`, { eventTypes: ['deployment.failed'], signingSecret: 'short' })
    expect(short.status).toBe(400)
    expect(short.body.resultMessage).toMatch(/^signingSecret: /)
    const extra = await env.json('pm', 'PUT', `${P}/hook/events/`, { eventTypes: [], secret: 'x' })
    expect(extra.status).toBe(400)
    expect(extra.body.resultMessage).toBe('secret: unknown field')
    const notList = await env.json('pm', 'PUT', `${P}/hook/events/`, { eventTypes: 'deployment.failed' })
    expect(notList.status).toBe(400)
    expect(notList.body.resultMessage).toMatch(/^eventTypes: /)
    expect(JSON.stringify(await subscriptionRow('hook'))).toBe(before)

    // the first subscription of a connection needs a secret
    await createHook('pm', 'no-secret-hook')
    const missing = await env.json('pm', 'PUT', `${P}/no-secret-hook/events/`, { eventTypes: ['bulkRun.finished'] })
    expect(missing.status).toBe(400)
    expect(missing.body.resultMessage).toMatch(/^signingSecret: is required/)
    expect(await subscriptionRow('no-secret-hook')).toBeNull()

    // only webhook connections receive events
    const email = await env.json('pm', 'POST', `${P}/${CRUD_EMAIL.name}/`, { ...CRUD_EMAIL, deployToWorker: false })
    expect(email.status, JSON.stringify(email.body)).toBe(200)
    const other = await env.json('pm', 'PUT', `${P}/${CRUD_EMAIL.name}/events/`, { eventTypes: ['bulkRun.finished'], signingSecret: SECRET })
    expect(other.status).toBe(400)
    expect(other.body.resultMessage).toMatch(/^type: only webhook connections/)

    const gql = await env.svc.graphql(
      'mutation { setWebhookEventSubscription(projectName: "MyProject", connectionName: "hook", eventTypes: ["deployment.exploded"]) { eventTypes } }',
      {},
      env.tokens.pm,
    )
    expect(gql.body.errors?.[0]?.message).toContain("'deployment.exploded'")
    expect(JSON.stringify(await subscriptionRow('hook'))).toBe(before)
  })

  it('checks the permissions of the connection itself (and audit types need PROJECT_MANAGEMENT VIEW)', async () => {
    const before = JSON.stringify(await subscriptionRow('hook'))
    const viewer = await env.json('viewer', 'PUT', `${P}/hook/events/`, { eventTypes: ['deployment.failed'] })
    expect(viewer.status).toBe(400)
    expect(viewer.body.resultMessage).toContain('lacks permission CONNECTION MANAGE')
    const identity = await env.json('identity', 'GET', `${P}/hook/events/`)
    expect(identity.status).toBe(400)
    expect((await env.json('identity', 'GET', `${P}/hook/deliveries/`)).status).toBe(403)
    expect((await env.json('outsider', 'GET', `${P}/hook/deliveries/`)).status).toBe(404)
    expect((await env.json('outsider', 'GET', '/apiops/projects/Other/connections/hook/deliveries/')).status).toBe(404)
    // CONNECTION MANAGE without PROJECT_MANAGEMENT: no audit events, deployment failures are fine
    const audit = await env.json('manager', 'PUT', `${P}/hook/events/`, { eventTypes: ['audit.*'] })
    expect(audit.status).toBe(400)
    expect(audit.body.resultMessage).toContain('PROJECT_MANAGEMENT VIEW')
    expect(JSON.stringify(await subscriptionRow('hook'))).toBe(before)
    const gql = await env.svc.graphql('query { webhookDeliveries(projectName: "MyProject", connectionName: "hook") { totalElements } }', {}, env.tokens.identity)
    expect(gql.body.errors?.[0]?.extensions?.errorKey ?? gql.body.errors?.[0]?.message).toBeDefined()
    expect(gql.body.data ?? null).toBeNull()

    const ok = await env.json('manager', 'PUT', `${P}/no-secret-hook/events/`, { eventTypes: ['deployment.failed'], signingSecret: SECRET })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ eventTypes: ['deployment.failed'], signingSecretSet: true })
    // an empty list unsubscribes and forgets the secret
    const off = await env.json('manager', 'PUT', `${P}/no-secret-hook/events/`, { eventTypes: [] })
    expect(off.body).toMatchObject({ eventTypes: [], signingSecretSet: false })
    expect(await subscriptionRow('no-secret-hook')).toBeNull()
  })

  it('turns a burst of audit events (one apply auditing 60 objects, heard together) into one delivery each, set-based', async () => {
    await createHook('pm', 'burst-hook')
    expect((await env.json('pm', 'PUT', `${P}/burst-hook/events/`, { eventTypes: ['audit.*'], signingSecret: SECRET })).status).toBe(200)
    const credentials = Array.from({ length: 60 }, (_, i) => ({ username: `burst-${String(i).padStart(2, '0')}`, fullName: `Burst ${i}` }))
    const plan = await env.json('root', 'POST', '/apiops/projects/MyProject/declarative-plans', { document: { formatVersion: 1, project: 'MyProject', credentials } })
    expect(plan.status, JSON.stringify(plan.body)).toBe(200)
    expect((await env.json('root', 'POST', `/apiops/projects/MyProject/declarative-plans/${plan.body.id}/apply`)).status).toBe(200)
    const audits = await env.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: plan.body.id }, select: { id: true, objectName: true } })
    expect(audits).toHaveLength(60)
    const ids = audits.map((a) => `audit-${a.id}`)
    const rows = await until('a delivery per audit event', async () => {
      const found = await env.svc.deps.prisma.webhookDelivery.findMany({ where: { eventId: { in: ids } }, include: { connection: { select: { name: true } } } })
      return found.length >= 60 && found
    })
    await new Promise((r) => setTimeout(r, 300))
    // exactly one per event, for the connection that subscribes to every audit event and for no other
    expect(await env.svc.deps.prisma.webhookDelivery.count({ where: { eventId: { in: ids } } })).toBe(60)
    expect(new Set(rows.map((r) => r.connection.name))).toEqual(new Set(['burst-hook']))
    expect(new Set(rows.map((r) => r.eventId))).toEqual(new Set(ids))
    const byEvent = new Map(audits.map((a) => [`audit-${a.id}`, a.objectName]))
    for (const r of rows) expect(r.payload).toMatchObject({ id: r.eventId, projectName: 'MyProject', connectionName: 'burst-hook', data: { objectName: byEvent.get(r.eventId) } })
    // each has its outbox row
    expect(await env.svc.deps.prisma.deliveryOutbox.count({ where: { subject: { in: rows.map((r) => `webhookDelivery:${r.id}`) } } })).toBe(60)
    expect((await env.json('pm', 'PUT', `${P}/burst-hook/events/`, { eventTypes: [] })).status).toBe(200)
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('event webhooks across instances on one PostgreSQL', () => {
  it('writes one delivery per connection and event although both instances hear it', async () => {
    // listening once started: both instances hear every event from here on, and both try to write its deliveries
    const second = await startTestService({ db: env.svc.db, env: { OUTBOX_POLL_INTERVAL_MS: '50' } })
    try {
      const name = 'heard-by-both'
      await createHook('pm', name)
      const got = await until('the delivered event', () => receiver.received.find((r) => r.body.data?.objectName === name && r.answered === 200))
      await new Promise((r) => setTimeout(r, 500))
      expect(await env.svc.deps.prisma.webhookDelivery.count({ where: { eventId: got.eventId } })).toBe(1)
      expect(receiver.received.filter((r) => r.eventId === got.eventId)).toHaveLength(2) // the 500, then the 200
    } finally {
      await second.close()
    }
  })
})
