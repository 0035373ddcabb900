import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CredentialDocument, CredentialTokenSettingsDocument, ResetCredentialTokenDocument } from '../generated/graphql.js'
import { jsonOf } from '../support/http.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'

const AFTER_RESET = {
  grantType: 'PASSWORD',
  tokenNeverExpires: true,
  tokenExpiresInAmount: null,
  tokenExpiresInUnit: null,
  refreshTokenAllowed: null,
  refreshTokenCount: null,
  refreshTokenExpiresInAmount: null,
  refreshTokenExpiresInUnit: null,
  allowUrlParameters: false,
  managedFromThisPolicy: true,
  jwtSignatureAlgorithm: 'RS256',
  deletePrevious: false,
  enumPolicyAuthenticationType: 'SECRET_MANAGER',
}
const CUSTOM = { grantType: 'CLIENT_CREDENTIALS', tokenNeverExpires: false, tokenExpiresInAmount: 2, tokenExpiresInUnit: 'HOURS', allowUrlParameters: true }

let svc: TestService
let devA: FakeWorker
let devB: FakeWorker
const tokens: Record<string, string> = {}

const reset = (project: string, username: string, token: string) =>
  svc.http(`/apiops/projects/${project}/credentials/${username}/token/`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })

async function storedCredential(username: string) {
  return svc.deps.prisma.credential.findUniqueOrThrow({ where: { username } })
}

/** A credential with custom token settings, so a reset is visible. */
async function customCredential(username: string, project = 'payments') {
  const projectRow = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: project } })
  await svc.deps.prisma.credential.create({
    data: { username, consumerKey: `csm_${username}`, projectId: projectRow.id, tokenSettings: CUSTOM, passwordCipher: svc.deps.keyring.encrypt(`${username}-secret`) },
  })
}

beforeAll(async () => {
  devA = await FakeWorker.start()
  devB = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [devA.url, devB.url] }), env: { DEPLOY_TIMEOUT_MS: '3000' } })
  for (const [user, pw] of [['root', 's3cret-root'], ['alice', 'alice-pass-1'], ['bob', 'bob-pass-1'], ['carol', 'carol-pass-1']]) {
    tokens[user] = await svc.tokenFor(user, pw)
  }
})
afterEach(() => {
  devA.status = devB.status = 200
  devA.delayMs = devB.delayMs = 0
  devA.received.length = devB.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await devA?.stop()
  await devB?.stop()
})

describe('DELETE /apiops/projects/{projectName}/credentials/{username}/token/ (spec §4.2, §2.3)', () => {
  it('resets the token settings, saves, pushes to every environment and reports each', async () => {
    await customCredential('reset-ok')
    const before = await storedCredential('reset-ok')
    const res = await reset('payments', 'reset-ok', tokens.alice)
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({
      status: 'SUCCESS', success: true,
      deploymentResult: {
        success: true,
        message: expect.any(String),
        environmentResults: [
          { environmentName: 'dev', success: true, message: expect.any(String) },
          { environmentName: 'prod', success: true, message: expect.any(String) },
        ],
      },
    })
    const after = await storedCredential('reset-ok')
    expect(after.tokenSettings).toEqual(AFTER_RESET)
    expect(after.revision).toBe(before.revision + 1)
    for (const worker of [devA, devB]) {
      expect(worker.received).toHaveLength(1)
      expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'CREDENTIAL', name: 'reset-ok', revision: after.revision })
      expect(worker.received[0].config).toMatchObject({ username: 'reset-ok', consumerKey: 'csm_reset-ok', tokenSettings: AFTER_RESET, password: 'reset-ok-secret' })
    }
  })

  it('keeps the reset saved and reports the failing environment when a worker answers 500', async () => {
    await customCredential('reset-partial')
    devB.status = 500
    const res = await reset('payments', 'reset-partial', tokens.alice)
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.status).toBe('SUCCESS')
    expect(body.deploymentResult.success).toBe(false)
    const dev = body.deploymentResult.environmentResults.find((e: any) => e.environmentName === 'dev')
    const prod = body.deploymentResult.environmentResults.find((e: any) => e.environmentName === 'prod')
    expect(dev).toEqual({ environmentName: 'dev', success: false, message: expect.stringContaining('500') })
    expect(prod.success).toBe(true)
    expect((await storedCredential('reset-partial')).tokenSettings).toEqual(AFTER_RESET)
    expect(devA.received).toHaveLength(1)
  })

  it('reports a worker that does not answer in time as failed', async () => {
    await customCredential('reset-slow')
    devA.delayMs = 4500
    const body = await jsonOf(await reset('payments', 'reset-slow', tokens.alice))
    const dev = body.deploymentResult.environmentResults.find((e: any) => e.environmentName === 'dev')
    expect(dev.success).toBe(false)
    expect(dev.message).toMatch(/within 3000 ms/)
    expect((await storedCredential('reset-slow')).tokenSettings).toEqual(AFTER_RESET)
  })

  it('saves but does not deploy without IDENTITY DEPLOY_UNDEPLOY, and says so', async () => {
    await customCredential('reset-nodeploy')
    const res = await reset('payments', 'reset-nodeploy', tokens.bob)
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.status).toBe('SUCCESS')
    expect(body.deploymentResult.success).toBe(false)
    expect(body.deploymentResult.message).toMatch(/not deployed.*IDENTITY DEPLOY_UNDEPLOY/i)
    expect(body.deploymentResult.environmentResults.map((e: any) => e.success)).toEqual([false, false])
    expect((await storedCredential('reset-nodeploy')).tokenSettings).toEqual(AFTER_RESET)
    expect(devA.received).toHaveLength(0)
    expect(devB.received).toHaveLength(0)
  })

  it.each([
    ['unknown credential', 'payments', 'no-such-credential', 'alice', /Credential 'no-such-credential' not found/],
    ['credential of another project', 'other', 'shop-frontend', 'root', /Credential 'shop-frontend' not found/],
    ['unknown project', 'no-such-project', 'shop-frontend', 'alice', /Project 'no-such-project' not found/],
    ['project out of the caller\'s scope', 'other', 'shop-frontend', 'alice', /Project 'other' not found/],
    ['missing IDENTITY MANAGE', 'payments', 'shop-frontend', 'carol', /lacks permission IDENTITY MANAGE/],
  ])('answers 400 with a message for %s and changes nothing', async (_case, project, username, user, message) => {
    const before = await svc.deps.prisma.credential.findMany({ orderBy: { username: 'asc' } })
    const res = await reset(project, username, tokens[user])
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    expect(await svc.deps.prisma.credential.findMany({ orderBy: { username: 'asc' } })).toEqual(before)
    expect(devA.received).toHaveLength(0)
  })

  it('answers 401 without a token and changes nothing', async () => {
    const res = await svc.http('/apiops/projects/payments/credentials/shop-frontend/token/', { method: 'DELETE' })
    expect(res.status).toBe(401)
    expect((await storedCredential('shop-frontend')).tokenSettings).toBeNull()
  })

  it('ignores a body and works without the trailing slash too', async () => {
    await customCredential('reset-noslash')
    const res = await svc.http('/apiops/projects/payments/credentials/reset-noslash/token', { method: 'DELETE', headers: { authorization: `Bearer ${tokens.alice}` } })
    expect(res.status).toBe(200)
  })
})

describe('the same reset through GraphQL', () => {
  it('resets, deploys and returns the deployment result', async () => {
    await customCredential('gql-reset')
    devB.status = 503
    const res = await svc.op(ResetCredentialTokenDocument, { projectName: 'payments', username: 'gql-reset' }, tokens.alice)
    expect(res.errors).toBeUndefined()
    const result = res.data!.resetCredentialToken
    expect(result.credential.tokenSettings).toMatchObject({ grantType: 'PASSWORD', tokenNeverExpires: true, enumPolicyAuthenticationType: 'SECRET_MANAGER' })
    expect(result.deploymentResult.success).toBe(false)
    expect(result.deploymentResult.environmentResults.find((e) => e.environmentName === 'dev')?.message).toMatch(/503/)
    const settings = await svc.op(CredentialTokenSettingsDocument, { projectName: 'payments', username: 'gql-reset' }, tokens.carol)
    expect(settings.data!.credentialTokenSettings).toEqual(AFTER_RESET)
  })

  it('saves without deploying for a caller without DEPLOY_UNDEPLOY', async () => {
    await customCredential('gql-nodeploy')
    const res = await svc.op(ResetCredentialTokenDocument, { projectName: 'payments', username: 'gql-nodeploy' }, tokens.bob)
    expect(res.data!.resetCredentialToken.deploymentResult.success).toBe(false)
    expect(devA.received).toHaveLength(0)
  })

  it.each([
    ['unknown credential', 'payments', 'nope', 'alice', 'resourceNotFound'],
    ['unknown project', 'nowhere', 'shop-frontend', 'alice', 'resourceNotFound'],
    ['out of scope', 'other', 'shop-frontend', 'alice', 'resourceNotFound'],
    ['missing permission', 'payments', 'shop-frontend', 'carol', 'permissionDenied'],
  ])('refuses %s with errorKey %s and changes nothing', async (_case, projectName, username, user, errorKey) => {
    const before = await svc.deps.prisma.credential.findMany({ orderBy: { username: 'asc' } })
    const res = await svc.op(ResetCredentialTokenDocument, { projectName, username }, tokens[user])
    expect(res.data).toBeNull()
    expect(res.errors?.[0].extensions.errorKey).toBe(errorKey)
    expect(await svc.deps.prisma.credential.findMany({ orderBy: { username: 'asc' } })).toEqual(before)
  })

  it('reads a credential with a presence flag for its password, never the password', async () => {
    const res = await svc.op(CredentialDocument, { projectName: 'payments', username: 'shop-frontend' }, tokens.carol)
    expect(res.data!.credential).toMatchObject({ username: 'shop-frontend', passwordSet: true, organizationCode: 'acme', applicationName: 'checkout' })
    expect(res.data!.credential.consumerKey).toMatch(/^csm_/)
    expect(JSON.stringify(res)).not.toContain('pw-1')
  })

  it('requires a token', async () => {
    const res = await svc.op(ResetCredentialTokenDocument, { projectName: 'payments', username: 'shop-frontend' })
    expect(res.errors?.[0].extensions.code).toBe('UNAUTHENTICATED')
  })
})
