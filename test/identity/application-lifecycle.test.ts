// Application suspend and resume (spec §3.4, §4.10) over REST and GraphQL, with what the gateway receives.
import crypto from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { insertApiClient } from '../../src/modules/identity/api-clients.js'
import { insertApplication } from '../../src/modules/identity/applications.js'
import { insertCredential } from '../../src/modules/credentials/service.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  for (const [user, pw] of [['root', 's3cret-root'], ['alice', 'alice-pass-1'], ['bob', 'bob-pass-1'], ['carol', 'carol-pass-1']]) {
    tokens[user] = await svc.tokenFor(user, pw)
  }
})
beforeEach(() => {
  worker.status = 200
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}`

const action = (project: string, key: string, verb: string, token = tokens.alice) =>
  svc.http(`/apiops/projects/${project}/applications/${key}/actions/${verb}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })

/** An application of `payments` owning credentials (enabled as given) and one ACTIVE API client. */
async function seedApplication(opts: { enabled?: boolean[]; appStatus?: 'ACTIVE' | 'SUSPENDED' | 'PENDING_DELETION' | 'ARCHIVED'; project?: string } = {}) {
  const { prisma, keyring } = svc.deps
  const project = await prisma.project.findUniqueOrThrow({ where: { name: opts.project ?? 'payments' } })
  const usernames: string[] = []
  for (const enabled of opts.enabled ?? [true, true, false]) {
    const username = unique('cred')
    await insertCredential(prisma, keyring, project.id, { username, password: `${username}-pw`, enabled })
    usernames.push(username)
  }
  const app = await insertApplication(prisma, project.id, { name: unique('app'), appStatus: opts.appStatus ?? 'ACTIVE', consumers: usernames })
  const client = await insertApiClient(prisma, project.id, { name: unique('client'), clientId: unique('cid'), operationalState: 'ACTIVE', applicationName: app.name })
  return { app, client, usernames }
}

const credentialRows = (usernames: string[]) =>
  Promise.all(usernames.map((username) => svc.deps.prisma.credential.findUniqueOrThrow({ where: { username } })))
const appRow = (id: string) => svc.deps.prisma.application.findUniqueOrThrow({ where: { id } })
const pushesOf = (kind: string) => worker.received.filter((m) => m.kind === kind)

describe('POST …/applications/{applicationKey}/actions/suspend', () => {
  it('disables and undeploys exactly the enabled owned credentials, re-pushes the API clients as suspended, bumps lifecycleRevision', async () => {
    const { app, client, usernames } = await seedApplication({ enabled: [true, true, false] })
    const res = await action('payments', app.applicationKey, 'suspend')
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toEqual({
      applicationKey: app.applicationKey,
      name: app.name,
      referenceId: null,
      applicationKind: 'INTERNAL',
      appStatus: 'SUSPENDED',
      description: null,
      organizationCode: null,
      created: app.createdAt.toISOString(),
      lifecycleRevision: app.lifecycleRevision + 1,
    })

    const [a, b, c] = await credentialRows(usernames)
    expect([a, b].map((r) => [r.enabled, r.suspendedByApplication])).toEqual([[false, true], [false, true]])
    expect([c.enabled, c.suspendedByApplication]).toEqual([false, false]) // was already disabled: not recorded
    expect(a.applicationId).toBe(app.id) // records kept

    const creds = pushesOf('CREDENTIAL')
    expect(creds.map((m) => [m.action, m.name]).sort()).toEqual([['UNDEPLOY', a.username], ['UNDEPLOY', b.username]].sort())
    const clients = pushesOf('API_CLIENT')
    expect(clients).toHaveLength(1)
    expect(clients[0]).toMatchObject({ action: 'DEPLOY', project: 'payments', name: client.clientId, config: { operationalState: 'ACTIVE', effectiveState: 'SUSPENDED' } })
    expect((await svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { id: client.id } })).operationalState).toBe('ACTIVE')
    expect(await svc.deps.prisma.apiClientRuntime.findUnique({ where: { apiClientId: client.id } })).toMatchObject({ state: 'IN_SYNC' })
  })

  it('repeats safely: the current view, nothing pushed, no bump', async () => {
    const { app } = await seedApplication()
    const first = await jsonOf(await action('payments', app.applicationKey, 'suspend'))
    worker.received.length = 0
    const again = await action('payments', app.applicationKey, 'suspend')
    expect(again.status).toBe(200)
    expect(await jsonOf(again)).toEqual(first)
    expect(worker.received).toEqual([])
    expect((await appRow(app.id)).lifecycleRevision).toBe(app.lifecycleRevision + 1)
  })

  it('keeps the save when a worker fails the push', async () => {
    const { app, usernames } = await seedApplication({ enabled: [true] })
    worker.status = 500
    const res = await action('payments', app.applicationKey, 'suspend')
    expect(res.status).toBe(200)
    expect((await appRow(app.id)).appStatus).toBe('SUSPENDED')
    expect((await credentialRows(usernames))[0].enabled).toBe(false)
    expect(pushesOf('CREDENTIAL')).toHaveLength(1)
  })

  it('pushes for a caller with IDENTITY MANAGE but no DEPLOY_UNDEPLOY: the suspension must reach the gateway', async () => {
    const { app, usernames } = await seedApplication({ enabled: [true] })
    expect((await action('payments', app.applicationKey, 'suspend', tokens.bob)).status).toBe(200)
    expect(pushesOf('CREDENTIAL').map((m) => [m.action, m.name])).toEqual([['UNDEPLOY', usernames[0]]])
  })
})

describe('POST …/applications/{applicationKey}/actions/resume', () => {
  it('re-enables and redeploys the credentials suspend disabled; a credential revoked meanwhile stays revoked', async () => {
    const { app, client, usernames } = await seedApplication({ enabled: [true, true, true, false] })
    await action('payments', app.applicationKey, 'suspend')
    const revoked = await svc.graphql(
      'mutation ($p: String!, $u: String!) { revokeCredential(projectName: $p, username: $u) { credential { enabled revokedAt } deploymentResult { success } } }',
      { p: 'payments', u: usernames[0] },
      tokens.alice,
    )
    expect(revoked.body.errors).toBeUndefined()
    expect(revoked.body.data.revokeCredential.credential).toMatchObject({ enabled: false, revokedAt: expect.any(String) })
    worker.received.length = 0

    const res = await action('payments', app.applicationKey, 'resume')
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toMatchObject({ appStatus: 'ACTIVE', lifecycleRevision: app.lifecycleRevision + 2 })
    const [gone, b, c, neverOn] = await credentialRows(usernames)
    expect([gone.enabled, gone.revokedAt, gone.suspendedByApplication]).toEqual([false, expect.any(Date), false])
    expect([b.enabled, c.enabled, neverOn.enabled]).toEqual([true, true, false])
    expect([b, c, neverOn].every((r) => !r.suspendedByApplication)).toBe(true)

    const creds = pushesOf('CREDENTIAL')
    expect(creds.map((m) => [m.action, m.name]).sort()).toEqual([['DEPLOY', b.username], ['DEPLOY', c.username]].sort())
    expect(creds.every((m) => m.config.trafficAllowed === true)).toBe(true)
    expect(pushesOf('API_CLIENT')).toEqual([expect.objectContaining({ name: client.clientId, config: expect.objectContaining({ effectiveState: 'ACTIVE' }) })])

    // a revoked credential cannot be enabled by hand either
    const enable = await svc.graphql(
      'mutation ($p: String!, $u: String!) { updateCredential(projectName: $p, username: $u, input: { enabled: true }) { credential { enabled } } }',
      { p: 'payments', u: usernames[0] },
      tokens.alice,
    )
    expect(enable.body.errors?.[0].extensions).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'credentialRevoked' } })
  })

  it('leaves a credential an administrator disabled or enabled while suspended as it was left', async () => {
    const { app, usernames } = await seedApplication({ enabled: [true, true, true] })
    await action('payments', app.applicationKey, 'suspend')
    const update = (username: string, enabled: boolean) =>
      svc.graphql(
        'mutation ($p: String!, $u: String!, $e: Boolean) { updateCredential(projectName: $p, username: $u, input: { enabled: $e }) { credential { enabled } } }',
        { p: 'payments', u: username, e: enabled },
        tokens.alice,
      )
    expect((await update(usernames[0], false)).body.errors).toBeUndefined() // already disabled by suspend: now disabled by hand
    expect((await update(usernames[1], true)).body.errors).toBeUndefined()
    worker.received.length = 0

    expect((await action('payments', app.applicationKey, 'resume')).status).toBe(200)
    const [keptOff, keptOn, resumed] = await credentialRows(usernames)
    expect([keptOff.enabled, keptOn.enabled, resumed.enabled]).toEqual([false, true, true])
    expect(pushesOf('CREDENTIAL').map((m) => [m.action, m.name])).toEqual([['DEPLOY', resumed.username]])
  })

  it('on an active application answers the current view and does nothing', async () => {
    const { app } = await seedApplication()
    const res = await action('payments', app.applicationKey, 'resume')
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toMatchObject({ appStatus: 'ACTIVE', lifecycleRevision: app.lifecycleRevision })
    expect(worker.received).toEqual([])
  })
})

describe('refusals', () => {
  it.each(['PENDING_DELETION', 'ARCHIVED'] as const)('a %s application is neither suspended nor resumed, and nothing changes', async (appStatus) => {
    const { app, usernames } = await seedApplication({ appStatus, enabled: [true] })
    for (const verb of ['suspend', 'resume']) {
      const res = await action('payments', app.applicationKey, verb)
      expect(res.status).toBe(409)
      expect(await jsonOf(res)).toEqual({
        errorKey: 'lifecycleConflict',
        message: expect.any(String),
        params: { reason: 'application.terminal', appStatus },
        correlationId: expect.any(String),
      })
    }
    expect(await appRow(app.id)).toEqual(app)
    expect((await credentialRows(usernames))[0]).toMatchObject({ enabled: true, suspendedByApplication: false })
    expect(worker.received).toEqual([])
  })

  it('scope and permission: admin project, unknown or out-of-scope project, unknown or foreign key, VIEW only', async () => {
    const { app } = await seedApplication({ enabled: [true] })
    const foreign = await seedApplication({ enabled: [], project: 'other' })
    const cases: [string, string, string, number, string, Record<string, unknown>][] = [
      ['admin', app.applicationKey, tokens.root, 400, 'malformedRequest', { reason: 'platformScopeNotSupported' }],
      ['nowhere', app.applicationKey, tokens.alice, 404, 'resourceNotFound', { project: 'nowhere' }],
      ['other', foreign.app.applicationKey, tokens.alice, 404, 'resourceNotFound', { project: 'other' }],
      ['payments', 'app_unknown', tokens.alice, 404, 'resourceNotFound', { application: 'app_unknown' }],
      ['payments', foreign.app.applicationKey, tokens.alice, 404, 'resourceNotFound', { application: foreign.app.applicationKey }],
      ['payments', app.applicationKey, tokens.carol, 403, 'permissionDenied', { category: 'IDENTITY', level: 'MANAGE' }],
    ]
    for (const [project, key, token, status, errorKey, params] of cases) {
      for (const verb of ['suspend', 'resume']) {
        const res = await action(project, key, verb, token)
        expect(res.status, `${verb} ${project}/${key}`).toBe(status)
        expect(await jsonOf(res)).toEqual({ errorKey, message: expect.any(String), params, correlationId: expect.any(String) })
      }
    }
    expect((await svc.http(`/apiops/projects/payments/applications/${app.applicationKey}/actions/suspend`, { method: 'POST' })).status).toBe(401)
    expect(await appRow(app.id)).toEqual(app)
    expect(worker.received).toEqual([])
  })
})

describe('GraphQL suspendApplication / resumeApplication', () => {
  const fields = 'applicationKey name appStatus lifecycleRevision organizationCode created applicationKind'
  it('answer the same view as REST and the same errors', async () => {
    const { app } = await seedApplication({ enabled: [true] })
    const run = (verb: string, token: string) =>
      svc.graphql(`mutation ($p: String!, $k: String!) { ${verb}Application(projectName: $p, applicationKey: $k) { ${fields} } }`, { p: 'payments', k: app.applicationKey }, token)
    const suspended = await run('suspend', tokens.alice)
    expect(suspended.body.errors).toBeUndefined()
    expect(suspended.body.data.suspendApplication).toEqual({
      applicationKey: app.applicationKey, name: app.name, appStatus: 'SUSPENDED', lifecycleRevision: app.lifecycleRevision + 1,
      organizationCode: null, created: app.createdAt.toISOString(), applicationKind: 'INTERNAL',
    })
    expect(pushesOf('CREDENTIAL')).toHaveLength(1)
    const resumed = await run('resume', tokens.alice)
    expect(resumed.body.data.resumeApplication).toMatchObject({ appStatus: 'ACTIVE', lifecycleRevision: app.lifecycleRevision + 2 })
    const denied = await run('suspend', tokens.carol)
    expect(denied.body.errors?.[0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
  })
})
