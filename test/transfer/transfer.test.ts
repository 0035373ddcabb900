// Transfer of consumers and applications to another organization (spec §4.10 transfer effects, §7.4)
// over REST and GraphQL: every refusal changes nothing, a success re-links everything and redeploys.
import crypto from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { insertCredential } from '../../src/modules/credentials/service.js'
import { insertApiClient } from '../../src/modules/identity/api-clients.js'
import { insertApplication } from '../../src/modules/identity/applications.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

let svc: TestService
let worker: FakeWorker
let projectId: string
const tokens: Record<string, string> = {}

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  for (const [user, pw] of [['root', 's3cret-root'], ['alice', 'alice-pass-1'], ['carol', 'carol-pass-1']]) tokens[user] = await svc.tokenFor(user, pw)
  projectId = (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })).id
})
beforeEach(() => {
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}`
const prisma = () => svc.deps.prisma

const transfer = (kind: 'consumers' | 'applications', key: string, body: unknown, opts: { project?: string; token?: string } = {}) =>
  svc.http(`/apiops/projects/${opts.project ?? 'payments'}/${kind}/${key}/actions/transfer-organization`, {
    method: 'POST',
    headers: { authorization: `Bearer ${opts.token ?? tokens.alice}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })

async function org(state: 'ACTIVE' | 'DELETE_IN_PROGRESS' | 'TOMBSTONED' = 'ACTIVE', suspended = false) {
  return prisma().organization.create({ data: { projectId, code: unique('org'), name: 'Test org', state, suspended } })
}

async function consumer(opts: { organizationCode?: string; syncManaged?: boolean; enabled?: boolean } = {}) {
  const username = unique('csm')
  const row = await insertCredential(prisma(), svc.deps.keyring, projectId, { username, password: `${username}-pw`, ...opts })
  // one live and one revoked API client, one entitlement
  const live = await insertApiClient(prisma(), projectId, { name: unique('cl'), clientId: unique('cid'), operationalState: 'ACTIVE', credentialUsername: username })
  const revoked = await insertApiClient(prisma(), projectId, { name: unique('cl'), clientId: unique('cid'), operationalState: 'REVOKED', credentialUsername: username })
  await prisma().entitlement.create({
    data: { entitlementKey: unique('ent'), projectId, subjectType: 'CONSUMER', credentialId: row.id, targetType: 'API_PROXY', targetRef: 'orders-api', assignedBy: 'test', organizationId: row.organizationId },
  })
  return { ...row, live, revoked }
}

async function application(opts: { organizationCode?: string; appStatus?: 'ACTIVE' | 'SUSPENDED' | 'PENDING_DELETION' | 'ARCHIVED'; consumers?: { username: string }[] } = {}) {
  const app = await insertApplication(prisma(), projectId, {
    name: unique('app'), organizationCode: opts.organizationCode, appStatus: opts.appStatus, consumers: (opts.consumers ?? []).map((c) => c.username),
  })
  const client = await insertApiClient(prisma(), projectId, { name: unique('cl'), clientId: unique('cid'), operationalState: 'ACTIVE', applicationName: app.name })
  await prisma().entitlement.create({
    data: { entitlementKey: unique('ent'), projectId, subjectType: 'APPLICATION', applicationId: app.id, targetType: 'API_PRODUCT', targetRef: 'retail', assignedBy: 'test', organizationId: app.organizationId },
  })
  const sub = await svc.graphql(
    'mutation ($p: String!, $a: String!, $n: String!) { createProductSubscription(projectName: $p, applicationName: $a, productName: $n) { productName status applicationName organizationCode } }',
    { p: 'payments', a: app.name, n: unique('product') },
    tokens.alice,
  )
  expect(sub.body.errors).toBeUndefined()
  expect(sub.body.data.createProductSubscription).toMatchObject({ status: 'APPROVED', applicationName: app.name, organizationCode: opts.organizationCode ?? null })
  return { ...app, client }
}

/** Every row a transfer may touch, to prove a refusal changed nothing. */
const snapshot = () =>
  Promise.all([
    prisma().credential.findMany({ orderBy: { id: 'asc' } }),
    prisma().application.findMany({ orderBy: { id: 'asc' } }),
    prisma().apiClient.findMany({ orderBy: { id: 'asc' } }),
    prisma().entitlement.findMany({ orderBy: { id: 'asc' } }),
    prisma().productSubscription.findMany({ orderBy: { id: 'asc' } }),
    prisma().apiClientRuntime.findMany({ orderBy: { apiClientId: 'asc' } }),
  ])

async function expectRefused(res: Response, status: number, errorKey: string, params: Record<string, unknown>, before: unknown) {
  expect(res.status).toBe(status)
  expect(await jsonOf(res)).toEqual({ errorKey, message: expect.any(String), params, correlationId: expect.any(String) })
  expect(await snapshot()).toEqual(before)
  expect(worker.received).toEqual([])
}

describe('transfer refusals: nothing changes, nothing is pushed', () => {
  it('blank or missing organizationCode is 400 malformedRequest, checked first of the transfer\'s own refusals', async () => {
    const from = await org()
    const c = await consumer({ organizationCode: from.code })
    const before = await snapshot()
    const malformed = { field: 'organizationCode' }
    for (const body of [undefined, {}, { organizationCode: '' }, { organizationCode: '   ' }, { organizationCode: null }, [], 'not json']) {
      const params = body === 'not json' ? { reason: 'bodyNotJson' } : body === undefined ? { reason: 'bodyRequired' } : malformed
      await expectRefused(await transfer('consumers', c.consumerKey, body), 400, 'malformedRequest', params, before)
      await expectRefused(await transfer('applications', 'app_whatever', body), 400, 'malformedRequest', params, before)
    }
    // before the key and the organization are looked at; access is decided before any of it (issue 28 §6): a caller
    // outside the project or without IDENTITY MANAGE learns nothing of the body's rules
    await expectRefused(await transfer('consumers', c.consumerKey, {}, { token: tokens.carol }), 403, 'permissionDenied', { category: 'IDENTITY', level: 'MANAGE' }, before)
    await expectRefused(await transfer('consumers', 'csm_unknown', {}, { project: 'nowhere' }), 404, 'resourceNotFound', { project: 'nowhere' }, before)
  })

  it('unknown organization (or one of another project) is 404 with params.organization', async () => {
    const c = await consumer()
    const otherProject = (await prisma().project.findUniqueOrThrow({ where: { name: 'other' } })).id
    const foreign = await prisma().organization.create({ data: { projectId: otherProject, code: unique('org'), name: 'Elsewhere' } })
    const before = await snapshot()
    for (const code of ['no-such-org', foreign.code]) {
      await expectRefused(await transfer('consumers', c.consumerKey, { organizationCode: code }), 404, 'resourceNotFound', { organization: code }, before)
    }
  })

  it('every lifecycleConflict reason of §7.4, for consumers and applications', async () => {
    const from = await org()
    const deleting = await org('DELETE_IN_PROGRESS')
    const target = await org()
    const synced = await consumer({ organizationCode: from.code, syncManaged: true })
    const plain = await consumer({ organizationCode: from.code })
    const inDeletingOrg = await consumer({ organizationCode: deleting.code })
    const ownedByArchived = await consumer({ organizationCode: from.code })
    const archived = await application({ organizationCode: from.code, appStatus: 'ARCHIVED', consumers: [ownedByArchived] })
    const pending = await application({ organizationCode: from.code, appStatus: 'PENDING_DELETION' })
    const ownerOfSynced = await application({ organizationCode: from.code, consumers: [synced] })
    const appInDeletingOrg = await application({ organizationCode: deleting.code })
    const plainApp = await application({ organizationCode: from.code })
    const before = await snapshot()
    worker.received.length = 0

    const cases: ['consumers' | 'applications', string, string, string, Record<string, unknown>][] = [
      ['consumers', plain.consumerKey, from.code, 'transfer.sameOrganization', { organization: from.code }],
      ['applications', plainApp.applicationKey, from.code, 'transfer.sameOrganization', { organization: from.code }],
      ['consumers', synced.consumerKey, target.code, 'transfer.syncManaged', {}],
      ['applications', ownerOfSynced.applicationKey, target.code, 'transfer.syncManaged', { consumer: synced.consumerKey }],
      ['consumers', ownedByArchived.consumerKey, target.code, 'transfer.applicationTerminal', { appStatus: 'ARCHIVED' }],
      ['applications', archived.applicationKey, target.code, 'transfer.applicationTerminal', { appStatus: 'ARCHIVED' }],
      ['applications', pending.applicationKey, target.code, 'transfer.applicationTerminal', { appStatus: 'PENDING_DELETION' }],
      ['consumers', inDeletingOrg.consumerKey, target.code, 'deleteInProgress', { organization: deleting.code }],
      ['applications', appInDeletingOrg.applicationKey, target.code, 'deleteInProgress', { organization: deleting.code }],
      ['consumers', plain.consumerKey, deleting.code, 'transfer.organizationDeleteInProgress', { organization: deleting.code }],
      ['applications', plainApp.applicationKey, deleting.code, 'transfer.organizationDeleteInProgress', { organization: deleting.code }],
      ['consumers', plain.consumerKey, 'gone', 'transfer.targetOrganizationTombstoned', { organization: 'gone' }],
      ['applications', plainApp.applicationKey, 'gone', 'transfer.targetOrganizationTombstoned', { organization: 'gone' }],
    ]
    for (const [kind, key, code, reason, params] of cases) {
      await expectRefused(await transfer(kind, key, { organizationCode: code }), 409, 'lifecycleConflict', { reason, ...params }, before)
    }
  })

  it('scope and permission: admin project, unknown or out-of-scope project, unknown or foreign key, VIEW only', async () => {
    const target = await org()
    const c = await consumer()
    const app = await application()
    const otherProject = (await prisma().project.findUniqueOrThrow({ where: { name: 'other' } })).id
    const foreign = await insertCredential(prisma(), svc.deps.keyring, otherProject, { username: unique('csm') })
    const before = await snapshot()
    const body = { organizationCode: target.code }
    await expectRefused(await transfer('consumers', c.consumerKey, body, { project: 'admin', token: tokens.root }), 400, 'malformedRequest', { reason: 'platformScopeNotSupported' }, before)
    await expectRefused(await transfer('applications', app.applicationKey, body, { project: 'nowhere' }), 404, 'resourceNotFound', { project: 'nowhere' }, before)
    await expectRefused(await transfer('consumers', foreign.consumerKey, body, { project: 'other' }), 404, 'resourceNotFound', { project: 'other' }, before)
    await expectRefused(await transfer('consumers', 'csm_unknown', body), 404, 'resourceNotFound', { consumer: 'csm_unknown' }, before)
    await expectRefused(await transfer('consumers', foreign.consumerKey, body), 404, 'resourceNotFound', { consumer: foreign.consumerKey }, before)
    await expectRefused(await transfer('applications', 'app_unknown', body), 404, 'resourceNotFound', { application: 'app_unknown' }, before)
    for (const [kind, key] of [['consumers', c.consumerKey], ['applications', app.applicationKey]] as const) {
      await expectRefused(await transfer(kind, key, body, { token: tokens.carol }), 403, 'permissionDenied', { category: 'IDENTITY', level: 'MANAGE' }, before)
    }
  })
})

describe('transfer success', () => {
  it('moves a consumer with its API clients and entitlements, redeploys it and re-pushes its live clients', async () => {
    const [from, to] = [await org(), await org()]
    const c = await consumer({ organizationCode: from.code })
    const bystander = await consumer({ organizationCode: from.code })
    const res = await transfer('consumers', c.consumerKey, { organizationCode: to.code })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({
      consumerKey: c.consumerKey, username: c.username, fullName: null, email: null, description: null, enabled: true, organizationCode: to.code, expireDate: null,
    })

    const stored = await prisma().credential.findUniqueOrThrow({ where: { id: c.id } })
    expect([stored.organizationId, stored.revision]).toEqual([to.id, c.revision + 1])
    expect((await prisma().apiClient.findMany({ where: { credentialId: c.id } })).map((r) => r.organizationId)).toEqual([to.id, to.id])
    expect((await prisma().entitlement.findMany({ where: { credentialId: c.id } })).map((r) => r.organizationId)).toEqual([to.id])
    expect((await prisma().credential.findUniqueOrThrow({ where: { id: bystander.id } })).organizationId).toBe(from.id)
    expect((await prisma().entitlement.findMany({ where: { credentialId: bystander.id } })).map((r) => r.organizationId)).toEqual([from.id])

    expect(worker.received.map((m) => [m.kind, m.action, m.name]).sort()).toEqual([['API_CLIENT', 'DEPLOY', c.live.clientId], ['CREDENTIAL', 'DEPLOY', c.username]])
    const cred = worker.received.find((m) => m.kind === 'CREDENTIAL')!
    expect(cred.config).toMatchObject({ organizationCode: to.code, trafficAllowed: true, consumerKey: c.consumerKey })
    expect(worker.received.find((m) => m.kind === 'API_CLIENT')!.config).toMatchObject({ organizationCode: to.code, effectiveState: 'ACTIVE' })

    // not idempotent: the same move again is refused
    const again = await transfer('consumers', c.consumerKey, { organizationCode: to.code })
    expect(again.status).toBe(409)
    expect((await jsonOf(again)).params.reason).toBe('transfer.sameOrganization')
  })

  it('moves an application with its owned consumers, their clients and entitlements, its own clients, entitlements and subscriptions', async () => {
    const [from, to] = [await org(), await org()]
    const owned = await consumer({ organizationCode: from.code })
    const ownedOff = await consumer({ organizationCode: from.code, enabled: false })
    const outsider = await consumer({ organizationCode: from.code })
    const app = await application({ organizationCode: from.code, consumers: [owned, ownedOff] })
    const res = await transfer('applications', app.applicationKey, { organizationCode: to.code })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({
      applicationKey: app.applicationKey, name: app.name, referenceId: null, applicationKind: 'INTERNAL', appStatus: 'ACTIVE', description: null,
      organizationCode: to.code, created: app.createdAt.toISOString(), lifecycleRevision: app.lifecycleRevision,
    })

    const ownedIds = [owned.id, ownedOff.id]
    expect((await prisma().application.findUniqueOrThrow({ where: { id: app.id } })).organizationId).toBe(to.id)
    expect((await prisma().credential.findMany({ where: { id: { in: ownedIds } } })).map((r) => r.organizationId)).toEqual([to.id, to.id])
    const clients = await prisma().apiClient.findMany({ where: { OR: [{ applicationId: app.id }, { credentialId: { in: ownedIds } }] } })
    expect(clients).toHaveLength(5)
    expect(clients.every((r) => r.organizationId === to.id)).toBe(true)
    const entitlements = await prisma().entitlement.findMany({ where: { OR: [{ applicationId: app.id }, { credentialId: { in: ownedIds } }] } })
    expect(entitlements.map((r) => r.organizationId)).toEqual([to.id, to.id, to.id])
    expect((await prisma().productSubscription.findMany({ where: { applicationId: app.id } })).map((r) => r.organizationId)).toEqual([to.id])
    expect((await prisma().credential.findUniqueOrThrow({ where: { id: outsider.id } })).organizationId).toBe(from.id)
    expect((await prisma().apiClient.findUniqueOrThrow({ where: { id: outsider.live.id } })).organizationId).toBe(from.id)

    expect(worker.received.map((m) => [m.kind, m.action, m.name]).sort()).toEqual(
      [
        ['CREDENTIAL', 'DEPLOY', owned.username],
        ['CREDENTIAL', 'UNDEPLOY', ownedOff.username], // disabled: the gateway must not hold it
        ['API_CLIENT', 'DEPLOY', owned.live.clientId],
        ['API_CLIENT', 'DEPLOY', ownedOff.live.clientId],
        ['API_CLIENT', 'DEPLOY', app.client.clientId],
      ].sort(),
    )
    expect(worker.received.filter((m) => m.action === 'DEPLOY').every((m) => m.config.organizationCode === to.code)).toBe(true)
  })

  it('into a suspended organization: the pushed configs stop the owner\'s traffic right away', async () => {
    const from = await org()
    const c = await consumer({ organizationCode: from.code })
    expect((await transfer('consumers', c.consumerKey, { organizationCode: 'frozen' })).status).toBe(200)
    expect(worker.received.find((m) => m.kind === 'CREDENTIAL')!.config).toMatchObject({ organizationCode: 'frozen', enabled: true, trafficAllowed: false })
    expect(worker.received.find((m) => m.kind === 'API_CLIENT')!.config).toMatchObject({ organizationCode: 'frozen', operationalState: 'ACTIVE', effectiveState: 'SUSPENDED' })

    worker.received.length = 0
    const owned = await consumer({ organizationCode: from.code })
    const app = await application({ organizationCode: from.code, consumers: [owned] })
    expect((await transfer('applications', app.applicationKey, { organizationCode: 'frozen' })).status).toBe(200)
    const creds = worker.received.filter((m) => m.kind === 'CREDENTIAL')
    const clients = worker.received.filter((m) => m.kind === 'API_CLIENT')
    expect(creds.map((m) => m.config.trafficAllowed)).toEqual([false])
    expect(clients).toHaveLength(2)
    expect(clients.every((m) => m.config.effectiveState === 'SUSPENDED' && m.config.organizationCode === 'frozen')).toBe(true)
  })
})

describe('GraphQL transferConsumer / transferApplication', () => {
  it('answer the same views and the same refusals as REST', async () => {
    const to = await org()
    const c = await consumer()
    const app = await application()
    const moveConsumer = await svc.graphql(
      'mutation ($p: String!, $k: String!, $o: String!) { transferConsumer(projectName: $p, consumerKey: $k, organizationCode: $o) { consumerKey username enabled organizationCode } }',
      { p: 'payments', k: c.consumerKey, o: to.code },
      tokens.alice,
    )
    expect(moveConsumer.body.errors).toBeUndefined()
    expect(moveConsumer.body.data.transferConsumer).toEqual({ consumerKey: c.consumerKey, username: c.username, enabled: true, organizationCode: to.code })

    const moveApp = (o: string) =>
      svc.graphql(
        'mutation ($p: String!, $k: String!, $o: String!) { transferApplication(projectName: $p, applicationKey: $k, organizationCode: $o) { applicationKey organizationCode lifecycleRevision } }',
        { p: 'payments', k: app.applicationKey, o },
        tokens.alice,
      )
    expect((await moveApp(to.code)).body.data.transferApplication).toEqual({ applicationKey: app.applicationKey, organizationCode: to.code, lifecycleRevision: app.lifecycleRevision })
    expect((await moveApp(to.code)).body.errors?.[0].extensions).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'transfer.sameOrganization' } })
    expect((await moveApp(' ')).body.errors?.[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'organizationCode' } })
  })
})
