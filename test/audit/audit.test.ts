import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf } from '../support/http.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'

// The audit trail (issue 7, bullet 4): every successful write on REST, GraphQL and the bootstrap is
// recorded with who, when, project, operation, object, outcome and correlation id; refused calls are not.

const PASSWORDS: Record<string, string> = { root: 's3cret-root', alice: 'alice-pass-1', bob: 'bob-pass-1', carol: 'carol-pass-1' }
/** every secret the suite handles: none may ever appear in an event */
const SECRETS = [...Object.values(PASSWORDS), 'pw-1', 'pw-2', 'm-pass', 'd-pass']

let svc: TestService
let dev: FakeWorker
const tokens: Record<string, string> = {}

const auth = (user: string) => ({ authorization: `Bearer ${tokens[user]}` })
const events = () => svc.deps.prisma.auditEvent.findMany({ orderBy: { id: 'asc' } })
const eventCount = () => svc.deps.prisma.auditEvent.count()

beforeAll(async () => {
  dev = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [dev.url] }) })
  for (const [user, pw] of Object.entries(PASSWORDS)) tokens[user] = await svc.tokenFor(user, pw)
  tokens.secretPat = tokens.root
  SECRETS.push(...Object.values(tokens))
})
afterEach(() => {
  dev.status = 200
})
afterAll(async () => {
  await svc?.close()
  await dev?.stop()
})

describe('recording', () => {
  it('records every entry the bootstrap file created, in one run with one correlation id', async () => {
    const boot = (await events()).filter((e) => e.surface === 'BOOTSTRAP')
    const created = boot.map((e) => `${e.projectName ?? '-'}/${e.objectType}/${e.objectName}`)
    expect(created).toEqual(expect.arrayContaining([
      '-/environments/dev', '-/users/root', '-/users/alice', 'payments/projects/payments', 'payments/members/alice',
      'payments/organizations/acme', 'payments/credentials/shop-frontend', 'payments/applications/checkout',
      'payments/apiClients/checkout-web-id', 'payments/apiProxies/orders-api', 'payments/objects/office-ips', 'other/projects/other',
    ]))
    expect(new Set(boot.map((e) => e.correlationId)).size).toBe(1)
    expect(boot.every((e) => e.actor === 'bootstrap' && e.operation === 'bootstrap.create' && e.outcome === 'SUCCEEDED')).toBe(true)
  })

  it('records a token issued by the token endpoint for the user it was issued to, never the password', async () => {
    const tokenEvents = (await events()).filter((e) => e.operation === 'POST /apiops/auth/token')
    expect(tokenEvents.map((e) => e.actor)).toEqual(expect.arrayContaining(['root', 'alice', 'bob', 'carol']))
    expect(tokenEvents.every((e) => e.outcome === 'SUCCEEDED' && e.httpStatus === 200)).toBe(true)
  })

  it('records a REST write with who, project, operation, object, outcome and the response correlation id', async () => {
    const res = await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: auth('alice') })
    expect(res.status).toBe(200)
    const [event] = (await events()).slice(-1)
    expect(event).toMatchObject({
      surface: 'REST_APIOPS', actor: 'alice', projectName: 'payments', operation: 'DELETE /apiops/projects/:projectName/credentials/:username/token/',
      objectType: 'credentials', objectName: 'shop-frontend', outcome: 'SUCCEEDED', httpStatus: 200,
      correlationId: res.headers.get('x-correlation-id'),
    })
    expect(Date.now() - event.at.getTime()).toBeLessThan(60_000)
  })

  it('keeps the caller correlation id when it sent one', async () => {
    const res = await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', {
      method: 'DELETE', headers: { ...auth('alice'), 'x-correlation-id': 'ci-run-42' },
    })
    expect(res.status).toBe(200)
    expect((await events()).at(-1)).toMatchObject({ correlationId: 'ci-run-42', objectName: 'shop-frontend' })
  })

  it('records a saved write whose push failed as DEPLOY_FAILED', async () => {
    dev.status = 500
    const res = await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: auth('alice') })
    expect(res.status).toBe(200)
    expect((await events()).at(-1)).toMatchObject({ objectName: 'shop-frontend', outcome: 'DEPLOY_FAILED' })
  })

  it('records nothing for refused REST writes (permission, unknown object, bad token) nor for reads', async () => {
    const before = await eventCount()
    const refused = [
      await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: auth('carol') }),
      await svc.http('/apiops/projects/payments/credentials/ghost/token/', { method: 'DELETE', headers: auth('alice') }),
      await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE', headers: { authorization: 'Bearer nope' } }),
      await svc.http('/apiops/auth/token', {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'alice', client_secret: 'wrong' }),
      }),
    ]
    expect(refused.map((r) => r.status)).toEqual([400, 400, 401, 401])
    expect((await svc.http('/apiops/projects/payments/consumers', { headers: auth('alice') })).status).toBe(200)
    expect(await eventCount()).toBe(before)
  })

  it('records nothing for a dry run that wrote nothing, and records the applied run', async () => {
    const before = await eventCount()
    const dry = await svc.http('/api/api-clients/migration/backfill?projectId=payments', { method: 'POST', headers: auth('root') })
    expect(dry.status).toBe(200)
    expect(await eventCount()).toBe(before)
    const applied = await svc.http('/api/api-clients/migration/backfill?projectId=payments&apply=true', { method: 'POST', headers: auth('root') })
    expect(applied.status).toBe(200)
    expect((await events()).at(-1)).toMatchObject({ surface: 'REST_API', actor: 'root', projectName: 'payments', operation: 'POST /api/api-clients/migration/backfill' })
  })

  it('records a GraphQL mutation by field with its object, and nothing for a refused one', async () => {
    const mutation = `mutation($p: String!, $input: OrganizationInput!) { createOrganization(projectName: $p, input: $input) { code } }`
    const before = await eventCount()
    const refused = await svc.graphql(mutation, { p: 'payments', input: { code: 'c-refused', name: 'Refused' } }, tokens.carol)
    expect(refused.body.errors?.[0].extensions.code).toBe('FORBIDDEN')
    expect(await eventCount()).toBe(before)

    const ok = await svc.graphql(mutation, { p: 'payments', input: { code: 'audited-org', name: 'Audited' } }, tokens.bob)
    expect(ok.body.errors).toBeUndefined()
    expect((await events()).at(-1)).toMatchObject({
      surface: 'GRAPHQL', actor: 'bob', projectName: 'payments', operation: 'createOrganization', objectType: 'Organization',
      objectName: 'audited-org', outcome: 'SUCCEEDED', httpStatus: null,
    })
  })

  it('records nothing for a mutation that writes nothing (a webhook connection test)', async () => {
    const created = await svc.graphql(
      `mutation($input: WebhookConnectionInput!) { createWebhookConnection(input: $input) { name } }`,
      { input: { name: 'audit-hook', environment: 'dev', method: 'POST', fullUrl: `${dev.url}/hook` } }, tokens.root,
    )
    expect(created.body.errors).toBeUndefined()
    const before = await eventCount()
    const tested = await svc.graphql(`mutation { testWebhookConnection(name: "audit-hook") { success } }`, {}, tokens.root)
    expect(tested.body.errors).toBeUndefined()
    expect(await eventCount()).toBe(before)
  })

  it('never stores a secret: no password, token or client secret in any event', async () => {
    const registered = await svc.http('/api/api-clients', {
      method: 'POST', headers: { ...auth('root'), 'content-type': 'application/json' },
      body: JSON.stringify({ projectName: 'payments', applicationName: 'checkout', name: 'audited-client' }),
    })
    expect(registered.status).toBe(200)
    const { clientSecret } = (await registered.json()) as { clientSecret: string }
    expect(clientSecret).toBeTruthy()
    SECRETS.push(clientSecret)
    expect((await events()).at(-1)).toMatchObject({ surface: 'REST_API', actor: 'root', projectName: 'payments', operation: 'POST /api/api-clients', objectType: 'api-clients', objectName: 'audited-client' })
    const all = JSON.stringify(await events(), (_k, v) => (typeof v === 'bigint' ? v.toString() : v))
    for (const s of SECRETS) expect(all).not.toContain(s)
  })
})

describe('reading', () => {
  it('pages a project trail newest first in the Common Contract envelope, with filters', async () => {
    const res = await svc.http('/apiops/projects/payments/audit-events?user=alice&objectType=credentials&size=2', { headers: auth('root') })
    const body = await jsonOf(res)
    expect(res.status).toBe(200)
    expect(body).toMatchObject({ status: 'SUCCESS', page: 0, size: 2, sort: ['at,desc'] })
    expect(body.totalElements).toBeGreaterThanOrEqual(3)
    expect(body.items).toHaveLength(2)
    expect(body.items.every((e: any) => e.actor === 'alice' && e.objectType === 'credentials' && e.projectName === 'payments')).toBe(true)
    expect(Date.parse(body.items[0].at)).toBeGreaterThanOrEqual(Date.parse(body.items[1].at))
    expect(Object.keys(body.items[0]).sort()).toEqual(
      ['actor', 'at', 'correlationId', 'httpStatus', 'id', 'objectName', 'objectType', 'operation', 'outcome', 'projectName', 'surface'],
    )
  })

  it('narrows by time range and keeps projects apart', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString()
    const none = await jsonOf(await svc.http(`/apiops/projects/payments/audit-events?from=${encodeURIComponent(future)}`, { headers: auth('root') }))
    expect(none.totalElements).toBe(0)
    const other = await jsonOf(await svc.http('/apiops/projects/other/audit-events?size=200', { headers: auth('root') }))
    expect(other.items.length).toBeGreaterThan(0)
    expect(other.items.every((e: any) => e.projectName === 'other')).toBe(true)
    const platform = await jsonOf(await svc.http('/apiops/projects/admin/audit-events?size=200', { headers: auth('root') }))
    expect(platform.items.some((e: any) => e.projectName === null && e.objectType === 'users')).toBe(true)
  })

  it('refuses bad filters, sort fields and callers with the Common Contract errors', async () => {
    const badTime = await svc.http('/apiops/projects/payments/audit-events?from=yesterday', { headers: auth('root') })
    expect(badTime.status).toBe(400)
    expect(await jsonOf(badTime)).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'from' } })
    const reversed = await svc.http('/apiops/projects/payments/audit-events?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', { headers: auth('root') })
    expect(await jsonOf(reversed)).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'from' } })
    const sort = await svc.http('/apiops/projects/payments/audit-events?sort=secret,asc', { headers: auth('root') })
    expect(sort.status).toBe(400)
    expect(await jsonOf(sort)).toMatchObject({ errorKey: 'unsupportedSortField', params: { supported: ['at', 'actor', 'operation', 'objectType', 'objectName'] } })
    const noGrant = await svc.http('/apiops/projects/payments/audit-events', { headers: auth('carol') })
    expect(noGrant.status).toBe(403)
    expect(await jsonOf(noGrant)).toMatchObject({ errorKey: 'permissionDenied', params: { category: 'PROJECT_MANAGEMENT', level: 'VIEW' } })
    const notMember = await svc.http('/apiops/projects/other/audit-events', { headers: auth('carol') })
    expect(notMember.status).toBe(404)
    expect((await svc.http('/apiops/projects/payments/audit-events')).status).toBe(401)
  })

  it('serves the installation trail to system administrators through GraphQL, with filters and paging', async () => {
    const query = `query($p: String, $u: String, $o: String, $size: Int) {
      auditEvents(projectName: $p, user: $u, objectName: $o, size: $size) { totalElements items { actor projectName operation objectName surface } } }`
    const res = await svc.graphql(query, { p: 'payments', u: 'bob', o: 'audited-org', size: 5 }, tokens.root)
    expect(res.body.errors).toBeUndefined()
    expect(res.body.data.auditEvents).toEqual({
      totalElements: 1,
      items: [{ actor: 'bob', projectName: 'payments', operation: 'createOrganization', objectName: 'audited-org', surface: 'GRAPHQL' }],
    })
    const denied = await svc.graphql(query, {}, tokens.alice)
    expect(denied.body.errors?.[0].extensions.code).toBe('FORBIDDEN')
  })
})

describe('retention', () => {
  it('purges events older than AUDIT_RETENTION_DAYS when an instance starts', async () => {
    const old = await svc.deps.prisma.auditEvent.create({
      data: { surface: 'GRAPHQL', actor: 'root', operation: 'ancient', outcome: 'SUCCEEDED', correlationId: 'c-old', at: new Date(Date.now() - 40 * 86_400_000) },
    })
    const recent = await svc.deps.prisma.auditEvent.create({
      data: { surface: 'GRAPHQL', actor: 'root', operation: 'recent', outcome: 'SUCCEEDED', correlationId: 'c-new', at: new Date(Date.now() - 10 * 86_400_000) },
    })
    // one instance at a time on an embedded database: stop the first, keep its data
    const first = svc
    await first.stop()
    svc = undefined as unknown as TestService
    const second = await startTestService({ db: first.db, env: { AUDIT_RETENTION_DAYS: '30' } })
    try {
      expect(await second.deps.prisma.auditEvent.findUnique({ where: { id: old.id } })).toBeNull()
      expect(await second.deps.prisma.auditEvent.findUnique({ where: { id: recent.id } })).not.toBeNull()
    } finally {
      await second.close()
      await first.db.cleanup()
    }
  })
})
