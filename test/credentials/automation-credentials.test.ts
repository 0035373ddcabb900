import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { jsonOf } from '../support/http.js'
import { importPackage, jsonOfFile, transferExport, unzip } from '../support/zip-fixtures.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'

// The credential endpoints of the vendor pages 07-credentials (crud, access) over /apiops, in the legacy
// envelope of spec §7.1; their GraphQL twins; roles and ipList.

let svc: TestService
let devA: FakeWorker
let devB: FakeWorker
const tokens: Record<string, string> = {}
const PASSWORD = 'SecurePassword123!'
const NEW_PASSWORD = 'NewSecurePassword123!'
const BASE = '/apiops/projects/payments/credentials'

function call(method: string, path: string, token: string | undefined, body?: unknown) {
  return svc.http(path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
}

/** The answer, with the assertion that no password we ever sent appears in it. */
async function answer(res: Response) {
  const text = await res.text()
  for (const secret of [PASSWORD, NEW_PASSWORD, 'Other-pw-1', 'gql-pw-1', 'gql-pw-2']) expect(text).not.toContain(secret)
  return { status: res.status, body: JSON.parse(text) }
}

/** Everything a credential write may touch: credentials with their roles and entitlements, and the catalogue. */
async function snapshot() {
  const db = svc.deps.prisma
  return {
    credentials: await db.credential.findMany({ orderBy: { username: 'asc' }, include: { roleGrants: true, entitlements: { orderBy: { entitlementKey: 'asc' } } } }),
    roles: await db.credentialRole.findMany({ orderBy: [{ projectId: 'asc' }, { name: 'asc' }] }),
  }
}

const pushes = () => [...devA.received, ...devB.received]
const stored = (username: string) => svc.deps.prisma.credential.findUnique({ where: { username }, include: { roleGrants: { include: { role: true } } } })
const decryptedPassword = async (username: string) => svc.deps.keyring.decrypt((await stored(username))!.passwordCipher!)

const deployedEverywhere = (message = expect.any(String)) => ({
  status: 'SUCCESS',
  success: true,
  deploymentResult: {
    success: true,
    message,
    environmentResults: [
      { environmentName: 'dev', success: true, message: expect.any(String) },
      { environmentName: 'prod', success: true, message: expect.any(String) },
    ],
  },
})

/** The page's "Full JSON Body Example"s of create-credential. */
const CREATE_EXAMPLES = {
  basic: { email: 'user@example.com', fullName: 'John Doe', description: 'API user credential', username: 'api-user', password: PASSWORD, roleNameList: ['API_USER'], enabled: true, ipList: [], expireDate: null },
  restricted: {
    email: 'restricted@example.com', fullName: 'Restricted User', description: 'Credential with IP restrictions', username: 'restricted-user', password: PASSWORD,
    roleNameList: ['API_USER', 'DEVELOPER'], enabled: true, ipList: ['192.168.1.100', '10.0.0.0/8', '172.16.0.0/12'], expireDate: null,
  },
  expiring: { email: 'temporary@example.com', fullName: 'Temporary User', description: 'Temporary credential with expiration', username: 'temp-user', password: PASSWORD, roleNameList: ['API_USER'], enabled: true, ipList: [], expireDate: '2024-12-31T23:59:59.000Z' },
  disabled: { email: 'disabled@example.com', fullName: 'Disabled User', description: 'Disabled credential', username: 'disabled-user', password: PASSWORD, roleNameList: ['API_USER'], enabled: false, ipList: [], expireDate: null },
}

async function createRole(name: string, project = 'payments') {
  const res = await svc.graphql('mutation ($p: String!, $n: String!) { createCredentialRole(projectName: $p, input: { name: $n }) { name } }', { p: project, n: name }, tokens.root)
  expect(res.body.errors).toBeUndefined()
}

/** A credential made through the page's create, for tests that need one of their own. */
async function credential(username: string, extra: Record<string, unknown> = {}) {
  const res = await call('POST', `${BASE}/`, tokens.alice, { ...CREATE_EXAMPLES.basic, username, email: `${username}@example.com`, ...extra })
  expect(res.status, await res.clone().text()).toBe(200)
  devA.received.length = devB.received.length = 0
}

beforeAll(async () => {
  devA = await FakeWorker.start()
  devB = await FakeWorker.start()
  const bootstrap = sampleBootstrap({ dev: [devA.url, devB.url] })
  bootstrap.projects[0].apiProxies!.push({ name: 'MyAPI', groups: ['MyAPIGroup'], kind: 'REST' }, { name: 'PaymentAPI', groups: [], kind: 'REST' })
  svc = await startTestService({ bootstrap })
  for (const [user, pw] of [['root', 's3cret-root'], ['alice', 'alice-pass-1'], ['bob', 'bob-pass-1'], ['carol', 'carol-pass-1']]) tokens[user] = await svc.tokenFor(user, pw)
  for (const role of ['API_USER', 'DEVELOPER', 'ADMIN']) await createRole(role)
  const other = await call('POST', '/apiops/projects/other/credentials/', tokens.root, { email: 'o@example.com', fullName: 'Other', username: 'other-user', password: 'Other-pw-1' })
  expect(other.status).toBe(200)
  devA.received.length = devB.received.length = 0
})
afterEach(() => {
  devA.status = devB.status = 200
  devA.received.length = devB.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await devA?.stop()
  await devB?.stop()
})

describe('POST /apiops/projects/{projectName}/credentials/ (create-credential)', () => {
  it.each(Object.entries(CREATE_EXAMPLES))('replays the page example "%s": saved, deployed to every environment, password sealed', async (_name, example) => {
    const res = await answer(await call('POST', `${BASE}/`, tokens.alice, example))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(deployedEverywhere())
    const row = (await stored(example.username))!
    expect(row.consumerKey).toMatch(/^csm_/)
    expect(row.passwordFormat).toBe('SEALED')
    expect(row.passwordCipher).not.toContain(PASSWORD)
    expect(svc.deps.keyring.decrypt(row.passwordCipher!)).toBe(PASSWORD)
    expect(row.roleGrants.map((g) => g.role.name).sort()).toEqual([...example.roleNameList].sort())
    expect(row.ipList).toEqual(example.ipList)
    expect(row.enabled).toBe(example.enabled)
    expect(row.expireDate?.toISOString() ?? null).toBe(example.expireDate)
    for (const worker of [devA, devB]) {
      expect(worker.received).toHaveLength(1)
      expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'CREDENTIAL', name: example.username, revision: row.revision })
      expect(worker.received[0].config).toMatchObject({
        username: example.username, consumerKey: row.consumerKey, enabled: example.enabled, roleNameList: [...example.roleNameList].sort(), ipList: example.ipList, access: [], expireDate: example.expireDate,
      })
    }
  })

  it('also takes the page\'s cURL example without description (optional fields default)', async () => {
    const res = await answer(await call('POST', `${BASE}`, tokens.alice, { email: 'min@example.com', fullName: 'Min', username: 'min-user', password: PASSWORD }))
    expect(res.body).toEqual(deployedEverywhere())
    const row = (await stored('min-user'))!
    expect(row).toMatchObject({ enabled: true, ipList: [], description: null, expireDate: null })
    expect(row.roleGrants).toEqual([])
  })

  it.each([
    ['username missing', { username: undefined }, /^username: is required/],
    ['username blank', { username: '  ' }, /^username: must not be blank/],
    ['password missing', { password: undefined }, /^password: is required/],
    ['password empty', { password: '' }, /^password: must not be empty/],
    ['full name missing', { fullName: undefined }, /^fullName: is required/],
    ['full name empty', { fullName: '' }, /^fullName: must not be empty/],
    ['email missing', { email: undefined }, /^email: is required/],
    ['email invalid', { email: 'not-an-email' }, /^email: must be a valid email address/],
    ['unknown role', { roleNameList: ['API_USER', 'NO_SUCH_ROLE'] }, /^roleNameList: unknown role 'NO_SUCH_ROLE'/],
    ['role listed twice', { roleNameList: ['API_USER', 'API_USER'] }, /^roleNameList: role 'API_USER' is listed twice/],
    ['ipList entry no IP', { ipList: ['192.168.1.100', 'example.com'] }, /^ipList\[1\]: must be an IP address or CIDR range/],
    ['ipList prefix too long', { ipList: ['10.0.0.0/33'] }, /^ipList\[0\]: must be an IP address or CIDR range/],
    ['expireDate not ISO 8601', { expireDate: '31/12/2024' }, /^expireDate: must be an ISO 8601 date-time/],
    ['enabled of the wrong type', { enabled: 'yes' }, /^enabled:/],
    ['full name with a NUL byte', { fullName: 'a\u0000b' }, /^fullName: must not contain (the )?NUL/],
    ['username already taken', { username: 'shop-frontend' }, /Credential username 'shop-frontend' is already taken/],
  ])('refuses %s with 400 naming the field; nothing written or pushed', async (_case, change, message) => {
    const before = await snapshot()
    const res = await answer(await call('POST', `${BASE}/`, tokens.alice, { ...CREATE_EXAMPLES.basic, username: 'refused-user', ...change }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    expect(await snapshot()).toEqual(before)
    expect(pushes()).toHaveLength(0)
  })

  it.each([
    ['unknown project', '/apiops/projects/no-such-project/credentials/', 'alice', 400, /Project 'no-such-project' not found/],
    ['project out of the caller\'s scope', '/apiops/projects/other/credentials/', 'alice', 400, /Project 'other' not found/],
    ['missing IDENTITY MANAGE', `${BASE}/`, 'carol', 400, /lacks permission IDENTITY MANAGE/],
  ])('refuses %s with %s; nothing written or pushed', async (_case, path, user, status, message) => {
    const before = await snapshot()
    const res = await answer(await call('POST', path, tokens[user], { ...CREATE_EXAMPLES.basic, username: 'refused-user' }))
    expect(res.status).toBe(status)
    expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    expect(await snapshot()).toEqual(before)
    expect(pushes()).toHaveLength(0)
  })

  it('answers 401 without a token and writes nothing', async () => {
    const before = await snapshot()
    const res = await call('POST', `${BASE}/`, undefined, { ...CREATE_EXAMPLES.basic, username: 'refused-user' })
    expect(res.status).toBe(401)
    expect((await jsonOf(res)).status).toBe('FAILURE')
    expect(await snapshot()).toEqual(before)
  })

  it('refuses a body that is not JSON, and none at all, with 400', async () => {
    expect((await call('POST', `${BASE}/`, tokens.alice, '{"username": ')).status).toBe(400)
    const res = await call('POST', `${BASE}/`, tokens.alice)
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: expect.any(String) })
  })

  it('saves without deploying for a caller with IDENTITY MANAGE but not DEPLOY_UNDEPLOY, and says so per environment', async () => {
    const res = await answer(await call('POST', `${BASE}/`, tokens.bob, { ...CREATE_EXAMPLES.basic, username: 'bob-made' }))
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('SUCCESS')
    expect(res.body.success).toBe(true)
    expect(res.body.deploymentResult.success).toBe(false)
    expect(res.body.deploymentResult.environmentResults).toEqual([
      { environmentName: 'dev', success: false, message: expect.stringMatching(/^Not deployed: .*IDENTITY DEPLOY_UNDEPLOY/) },
      { environmentName: 'prod', success: false, message: expect.stringMatching(/^Not deployed: /) },
    ])
    expect(await stored('bob-made')).not.toBeNull()
    expect(pushes()).toHaveLength(0)
  })

  it('reports an environment whose worker fails, keeping the credential saved', async () => {
    devB.status = 500
    const res = await answer(await call('POST', `${BASE}/`, tokens.alice, { ...CREATE_EXAMPLES.basic, username: 'half-deployed' }))
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(false)
    expect(res.body.deploymentResult.environmentResults[0]).toEqual({ environmentName: 'dev', success: false, message: expect.stringContaining('500') })
    expect(await stored('half-deployed')).not.toBeNull()
  })

  it('is audited once per successful write, by the door, with the username; a refusal leaves no event', async () => {
    const events = (name: string) => svc.deps.prisma.auditEvent.findMany({ where: { objectName: name }, orderBy: { id: 'asc' } })
    await call('POST', `${BASE}/`, tokens.alice, { ...CREATE_EXAMPLES.basic, username: 'audited-user' })
    await call('PATCH', `${BASE}/audited-user/`, tokens.alice, { password: NEW_PASSWORD })
    await call('PATCH', `${BASE}/audited-user/`, tokens.carol, { password: NEW_PASSWORD })
    expect((await events('audited-user')).map((e) => [e.surface, e.actor, e.projectName, e.operation, e.objectType, e.outcome])).toEqual([
      ['REST_APIOPS', 'alice', 'payments', 'POST /apiops/projects/:projectName/credentials/', 'credentials', 'SUCCEEDED'],
      ['REST_APIOPS', 'alice', 'payments', 'PATCH /apiops/projects/:projectName/credentials/:username/', 'credentials', 'SUCCEEDED'],
    ])
  })

  it('ignores a consumerKey in the body: the key is minted', async () => {
    await call('POST', `${BASE}/`, tokens.alice, { ...CREATE_EXAMPLES.basic, username: 'key-try', consumerKey: 'csm_chosen' })
    expect((await stored('key-try'))!.consumerKey).not.toBe('csm_chosen')
  })
})

describe('GET /apiops/projects/{projectName}/credentials/ (list-credentials)', () => {
  it('lists the project\'s credentials with the page\'s fields, password always null, no consumerKey', async () => {
    await credential('listed-user', { roleNameList: ['DEVELOPER', 'API_USER'], ipList: ['192.168.1.100', '10.0.0.0/8'], expireDate: '2024-12-31T23:59:59.000Z', description: 'API user credential' })
    const res = await answer(await call('GET', `${BASE}/`, tokens.carol))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: res.body.resultList.length })
    const item = res.body.resultList.find((c: any) => c.username === 'listed-user')
    expect(item).toEqual({
      email: 'listed-user@example.com', fullName: 'John Doe', description: 'API user credential', username: 'listed-user', password: null,
      roleNameList: ['API_USER', 'DEVELOPER'], enabled: true, ipList: ['192.168.1.100', '10.0.0.0/8'], expireDate: '2024-12-31T23:59:59.000Z', tokenSettings: null,
    })
    const bootstrapped = res.body.resultList.find((c: any) => c.username === 'shop-frontend')
    expect(bootstrapped).toMatchObject({ password: null, roleNameList: [], ipList: [], expireDate: null })
    expect(JSON.stringify(res.body)).not.toContain('pw-1')
    expect(JSON.stringify(res.body)).not.toContain('consumerKey')
    expect(res.body.resultList.map((c: any) => c.username)).not.toContain('other-user')
    expect(pushes()).toHaveLength(0)
  })

  it.each([
    ['unknown project', '/apiops/projects/nowhere/credentials/', 'alice', /Project 'nowhere' not found/],
    ['a project out of the caller\'s scope', '/apiops/projects/other/credentials/', 'alice', /Project 'other' not found/],
  ])('refuses %s with 400', async (_case, path, user, message) => {
    const res = await answer(await call('GET', path, tokens[user]))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
  })

  it('answers 401 without a token', async () => {
    expect((await call('GET', `${BASE}/`, undefined)).status).toBe(401)
  })

  it('answers a NUL byte in the project name with a 400 naming the parameter, not a 500', async () => {
    const res = await answer(await call('GET', '/apiops/projects/pay%00ments/credentials/', tokens.alice))
    expect(res).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: 'projectName: must not contain the NUL character' } })
  })
})

describe('PUT /apiops/projects/{projectName}/credentials/ (update-credential)', () => {
  const UPDATE_EXAMPLE = {
    email: 'updated@example.com', fullName: 'Updated User', description: 'Updated credential description', username: 'upd-user', password: NEW_PASSWORD,
    roleNameList: ['API_USER', 'DEVELOPER'], enabled: true, ipList: ['192.168.1.100'], expireDate: '2025-12-31T23:59:59.000Z',
  }

  it('replays the page example: the body\'s username picks the record, every field replaced, redeployed', async () => {
    await credential('upd-user')
    const before = (await stored('upd-user'))!
    const res = await answer(await call('PUT', `${BASE}/`, tokens.alice, UPDATE_EXAMPLE))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(deployedEverywhere())
    const after = (await stored('upd-user'))!
    expect(after).toMatchObject({ email: 'updated@example.com', fullName: 'Updated User', description: 'Updated credential description', ipList: ['192.168.1.100'], consumerKey: before.consumerKey, revision: before.revision + 1 })
    expect(after.expireDate?.toISOString()).toBe('2025-12-31T23:59:59.000Z')
    expect(after.roleGrants.map((g) => g.role.name).sort()).toEqual(['API_USER', 'DEVELOPER'])
    expect(await decryptedPassword('upd-user')).toBe(NEW_PASSWORD)
    expect(devA.received[0]).toMatchObject({ action: 'DEPLOY', name: 'upd-user', revision: after.revision, config: { password: NEW_PASSWORD, ipList: ['192.168.1.100'], roleNameList: ['API_USER', 'DEVELOPER'] } })
  })

  it('keeps the stored password when the body sends it null (as a list read returns it) and clears what is sent null', async () => {
    await credential('upd-keep', { ipList: ['10.0.0.0/8'] })
    const res = await answer(await call('PUT', `${BASE}`, tokens.alice, { ...UPDATE_EXAMPLE, username: 'upd-keep', password: null, roleNameList: [], ipList: null, expireDate: null, description: null }))
    expect(res.status).toBe(200)
    const after = (await stored('upd-keep'))!
    expect(await decryptedPassword('upd-keep')).toBe(PASSWORD)
    expect(after).toMatchObject({ ipList: [], expireDate: null, description: null, roleGrants: [] })
  })

  it('leaves enabled as it is when the body omits it (a disabled credential stays disabled)', async () => {
    await credential('upd-disabled', { enabled: false })
    const { enabled: _omitted, ...body } = { ...UPDATE_EXAMPLE, username: 'upd-disabled' }
    expect((await call('PUT', `${BASE}/`, tokens.alice, body)).status).toBe(200)
    expect((await stored('upd-disabled'))!.enabled).toBe(false)
  })

  it.each([
    ['unknown credential', { username: 'no-such-user' }, /Credential 'no-such-user' not found in project 'payments'/],
    ['credential of another project', { username: 'other-user' }, /Credential 'other-user' not found in project 'payments'/],
    ['unknown role', { roleNameList: ['GHOST'] }, /^roleNameList: unknown role 'GHOST'/],
    ['full name missing', { fullName: undefined }, /^fullName: is required/],
    ['email missing', { email: undefined }, /^email: is required/],
    ['empty password', { password: '' }, /^password: must not be empty/],
    ['invalid IP', { ipList: ['300.1.1.1'] }, /^ipList\[0\]: must be an IP address or CIDR range/],
  ])('refuses %s with 400; nothing written or pushed', async (_case, change, message) => {
    await credential(`upd-${_case.replaceAll(' ', '-')}`)
    const before = await snapshot()
    const res = await answer(await call('PUT', `${BASE}/`, tokens.alice, { ...UPDATE_EXAMPLE, username: `upd-${_case.replaceAll(' ', '-')}`, ...change }))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    expect(await snapshot()).toEqual(before)
    expect(pushes()).toHaveLength(0)
  })

  it('refuses a viewer with 400 and saves without deploying for a manager without DEPLOY_UNDEPLOY', async () => {
    await credential('upd-perm')
    const before = await snapshot()
    const refused = await answer(await call('PUT', `${BASE}/`, tokens.carol, { ...UPDATE_EXAMPLE, username: 'upd-perm' }))
    expect(refused).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: expect.stringMatching(/lacks permission IDENTITY MANAGE/) } })
    expect(await snapshot()).toEqual(before)
    const saved = await answer(await call('PUT', `${BASE}/`, tokens.bob, { ...UPDATE_EXAMPLE, username: 'upd-perm' }))
    expect(saved.body.deploymentResult.success).toBe(false)
    expect((await stored('upd-perm'))!.email).toBe('updated@example.com')
    expect(pushes()).toHaveLength(0)
  })
})

describe('PATCH /apiops/projects/{projectName}/credentials/{username}/ (change-credential-password)', () => {
  it('replays the page example: only the password changes, sealed, redeployed, never echoed', async () => {
    await credential('pw-user')
    const before = (await stored('pw-user'))!
    const res = await answer(await call('PATCH', `${BASE}/pw-user/`, tokens.alice, { password: NEW_PASSWORD, fullName: 'ignored' }))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(deployedEverywhere())
    const after = (await stored('pw-user'))!
    expect(await decryptedPassword('pw-user')).toBe(NEW_PASSWORD)
    expect(after).toMatchObject({ fullName: before.fullName, email: before.email, revision: before.revision + 1, passwordFormat: 'SEALED' })
    expect(devB.received[0]).toMatchObject({ action: 'DEPLOY', name: 'pw-user', config: { password: NEW_PASSWORD } })
  })

  it('replaces a reference password with a sealed one', async () => {
    await credential('pw-ref')
    await svc.deps.prisma.credential.update({ where: { username: 'pw-ref' }, data: { passwordCipher: '${vault.pw}', passwordFormat: 'REFERENCE' } })
    expect((await call('PATCH', `${BASE}/pw-ref`, tokens.alice, { password: 'Other-pw-1' })).status).toBe(200)
    expect((await stored('pw-ref'))!.passwordFormat).toBe('SEALED')
    expect(await decryptedPassword('pw-ref')).toBe('Other-pw-1')
  })

  it.each([
    ['empty password', 'pw-user', { password: '' }, 'alice', /^password: must not be empty/],
    ['missing password', 'pw-user', {}, 'alice', /^password: is required/],
    ['password of the wrong type', 'pw-user', { password: 12 }, 'alice', /^password:/],
    ['unknown credential', 'api-ghost', { password: NEW_PASSWORD }, 'alice', /Credential 'api-ghost' not found in project 'payments'/],
    ['missing IDENTITY MANAGE', 'pw-user', { password: NEW_PASSWORD }, 'carol', /lacks permission IDENTITY MANAGE/],
  ])('refuses %s with 400; nothing written or pushed', async (_case, username, body, user, message) => {
    const before = await snapshot()
    const res = await answer(await call('PATCH', `${BASE}/${username}/`, tokens[user], body))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    expect(await snapshot()).toEqual(before)
    expect(pushes()).toHaveLength(0)
  })

  it('saves without deploying for a manager without DEPLOY_UNDEPLOY', async () => {
    await credential('pw-bob')
    const res = await answer(await call('PATCH', `${BASE}/pw-bob/`, tokens.bob, { password: NEW_PASSWORD }))
    expect(res.body.deploymentResult.environmentResults.every((e: any) => !e.success && e.message.startsWith('Not deployed: '))).toBe(true)
    expect(await decryptedPassword('pw-bob')).toBe(NEW_PASSWORD)
    expect(pushes()).toHaveLength(0)
  })
})

describe('DELETE /apiops/projects/{projectName}/credentials/{username}/ (delete-credential)', () => {
  it('replays the page example: deleted with its access grants, undeployed from every environment', async () => {
    await credential('del-user')
    expect((await call('PUT', `${BASE}/del-user/access/`, tokens.alice, { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY' }] })).status).toBe(200)
    const row = (await stored('del-user'))!
    devA.received.length = devB.received.length = 0
    const res = await answer(await call('DELETE', `${BASE}/del-user/`, tokens.alice))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(deployedEverywhere(expect.stringMatching(/^Undeployed/)))
    expect(await stored('del-user')).toBeNull()
    expect(await svc.deps.prisma.entitlement.count({ where: { credentialId: row.id } })).toBe(0)
    for (const worker of [devA, devB]) expect(worker.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'CREDENTIAL', name: 'del-user', config: { consumerKey: row.consumerKey } })])
  })

  it.each([
    ['unknown credential', 'api-ghost', 'alice', /Credential 'api-ghost' not found in project 'payments'/],
    ['missing IDENTITY MANAGE', 'shop-frontend', 'carol', /lacks permission IDENTITY MANAGE/],
    ['a NUL byte in the name', 'a%00b', 'alice', /^username: must not contain the NUL character/],
  ])('refuses %s with 400; nothing deleted or pushed', async (_case, username, user, message) => {
    const before = await snapshot()
    const res = await answer(await call('DELETE', `${BASE}/${username}/`, tokens[user]))
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    expect(await snapshot()).toEqual(before)
    expect(pushes()).toHaveLength(0)
  })

  it('deletes without undeploying for a manager without DEPLOY_UNDEPLOY, and says so', async () => {
    await credential('del-bob')
    const res = await answer(await call('DELETE', `${BASE}/del-bob`, tokens.bob))
    expect(res.body.deploymentResult.success).toBe(false)
    expect(await stored('del-bob')).toBeNull()
    expect(pushes()).toHaveLength(0)
  })
})

describe('credential access: PUT, GET and DELETE …/credentials/{username}/access/ (vendor 07-credentials/access)', () => {
  const access = (username: string) => `${BASE}/${username}/access/`
  const GRANT_ONE = { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY' }] }
  const GRANT_MANY = { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY' }, { name: 'PaymentAPI', type: 'API_PROXY' }, { name: 'MyAPIGroup', type: 'API_PROXY_GROUP' }] }

  it('replays grant example 1, then example 2 less the item already granted; the list shows them; each is a Common Contract entitlement', async () => {
    await credential('acc-user')
    const one = await answer(await call('PUT', access('acc-user'), tokens.alice, GRANT_ONE))
    expect(one.status).toBe(200)
    expect(one.body).toEqual(deployedEverywhere())
    expect(devA.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'CREDENTIAL', name: 'acc-user', config: { access: [{ name: 'MyAPI', type: 'API_PROXY' }] } })
    devA.received.length = devB.received.length = 0

    const many = await answer(await call('PUT', access('acc-user'), tokens.alice, { credentialAccessList: GRANT_MANY.credentialAccessList.slice(1) }))
    expect(many.body).toEqual(deployedEverywhere())
    const expected = [{ name: 'MyAPI', type: 'API_PROXY' }, { name: 'PaymentAPI', type: 'API_PROXY' }, { name: 'MyAPIGroup', type: 'API_PROXY_GROUP' }]
    expect(devB.received[0].config.access).toEqual(expected)

    const listed = await answer(await call('GET', access('acc-user'), tokens.carol))
    expect(listed).toEqual({ status: 200, body: { status: 'SUCCESS', success: true, resultList: expected, resultCount: 3 } })

    const { consumerKey } = (await stored('acc-user'))!
    const entitlements = await jsonOf(await call('GET', `/apiops/projects/payments/consumers/${consumerKey}/entitlements`, tokens.carol))
    expect(entitlements.map((e: any) => [e.subjectType, e.subjectKey, e.targetType, e.targetRef, e.status, e.assignedBy]).sort()).toEqual([
      ['CONSUMER', 'acc-user', 'API_PROXY', 'MyAPI', 'ACTIVE', 'alice'],
      ['CONSUMER', 'acc-user', 'API_PROXY', 'PaymentAPI', 'ACTIVE', 'alice'],
      ['CONSUMER', 'acc-user', 'API_PROXY_GROUP', 'MyAPIGroup', 'ACTIVE', 'alice'],
    ])
  })

  it('replays revoke example 2: the entitlements end (kept as history), the credential is redeployed without them', async () => {
    await credential('rev-user')
    await call('PUT', access('rev-user'), tokens.alice, GRANT_MANY)
    devA.received.length = devB.received.length = 0
    const res = await answer(await call('DELETE', access('rev-user'), tokens.alice, { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY' }, { name: 'MyAPIGroup', type: 'API_PROXY_GROUP' }] }))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(deployedEverywhere())
    expect(devA.received[0].config.access).toEqual([{ name: 'PaymentAPI', type: 'API_PROXY' }])
    expect((await answer(await call('GET', access('rev-user'), tokens.alice))).body.resultList).toEqual([{ name: 'PaymentAPI', type: 'API_PROXY' }])
    const { consumerKey } = (await stored('rev-user'))!
    const entitlements = await jsonOf(await call('GET', `/apiops/projects/payments/consumers/${consumerKey}/entitlements`, tokens.alice))
    const ended = entitlements.filter((e: any) => e.status === 'ENDED')
    expect(ended.map((e: any) => e.targetRef).sort()).toEqual(['MyAPI', 'MyAPIGroup'])
    expect(ended[0]).toMatchObject({ endedBy: 'alice', endedAt: expect.any(String) })
    // revoke example 1 on what was revoked already is refused: the access does not exist any more
    const again = await answer(await call('DELETE', access('rev-user'), tokens.alice, GRANT_ONE))
    expect(again).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: "Credential 'rev-user' has no access to API proxy 'MyAPI'" } })
    // and granting it again works (a new entitlement)
    expect((await call('PUT', access('rev-user'), tokens.alice, GRANT_ONE)).status).toBe(200)
  })

  it('replays grant example 3: each access with its expireTime, read back on the list, the entitlement (validUntil) and the gateway', async () => {
    await credential('exp-user')
    const grant = { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY', expireTime: '2024-12-31T23:59:59.000Z' }, { name: 'MyAPIGroup', type: 'API_PROXY_GROUP', expireTime: '2025-06-30T23:59:59.000Z' }, { name: 'PaymentAPI', type: 'API_PROXY', expireTime: null }] }
    devA.received.length = devB.received.length = 0
    expect((await answer(await call('PUT', access('exp-user'), tokens.alice, grant))).body).toEqual(deployedEverywhere())
    const expected = [{ name: 'MyAPI', type: 'API_PROXY', expireTime: '2024-12-31T23:59:59.000Z' }, { name: 'PaymentAPI', type: 'API_PROXY' }, { name: 'MyAPIGroup', type: 'API_PROXY_GROUP', expireTime: '2025-06-30T23:59:59.000Z' }]
    expect((await answer(await call('GET', access('exp-user'), tokens.carol))).body.resultList).toEqual(expected)
    expect(devA.received[0].config.access).toEqual(expected)
    const { consumerKey } = (await stored('exp-user'))!
    const entitlements = await jsonOf(await call('GET', `/apiops/projects/payments/consumers/${consumerKey}/entitlements`, tokens.carol))
    expect(entitlements.map((e: any) => [e.targetRef, e.validUntil]).sort()).toEqual([['MyAPI', '2024-12-31T23:59:59.000Z'], ['MyAPIGroup', '2025-06-30T23:59:59.000Z'], ['PaymentAPI', null]])
  })

  it('lists an empty access list as []', async () => {
    await credential('acc-empty')
    expect((await answer(await call('GET', access('acc-empty'), tokens.alice))).body).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
  })

  describe('refusals write nothing and push nothing', () => {
    beforeAll(async () => {
      await credential('acc-held')
      await call('PUT', access('acc-held'), tokens.alice, GRANT_ONE)
      devA.received.length = devB.received.length = 0
    })

    it.each([
      ['PUT', 'empty access object name', { credentialAccessList: [{ name: '', type: 'API_PROXY' }] }, /^credentialAccessList\[0\]\.name: must not be blank/],
      ['PUT', 'access object name missing', { credentialAccessList: [{ type: 'API_PROXY' }] }, /^credentialAccessList\[0\]\.name: is required/],
      ['PUT', 'access object type missing', { credentialAccessList: [{ name: 'MyAPI' }] }, /^credentialAccessList\[0\]\.type: is required/],
      ['PUT', 'invalid access type', { credentialAccessList: [{ name: 'MyAPI', type: 'API_PRODUCT' }] }, /^credentialAccessList\[0\]\.type: must be API_PROXY or API_PROXY_GROUP/],
      ['PUT', 'empty access list', { credentialAccessList: [] }, /^credentialAccessList: must list at least one/],
      ['PUT', 'expireTime not a date-time', { credentialAccessList: [{ name: 'PaymentAPI', type: 'API_PROXY', expireTime: 'next year' }] }, /^credentialAccessList\[0\]\.expireTime: must be an ISO 8601 date-time/],
      ['PUT', 'body without the list (a bare array)', [{ name: 'MyAPI', type: 'API_PROXY' }], /credentialAccessList|expected object/],
      ['PUT', 'unknown API proxy', { credentialAccessList: [{ name: 'PaymentAPI', type: 'API_PROXY' }, { name: 'NoSuchAPI', type: 'API_PROXY' }] }, /^API proxy 'NoSuchAPI' not found in project 'payments'/],
      ['PUT', 'unknown API proxy group', { credentialAccessList: [{ name: 'NoSuchGroup', type: 'API_PROXY_GROUP' }] }, /^API proxy group 'NoSuchGroup' not found in project 'payments'/],
      ['PUT', 'a proxy name given as a group', { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY_GROUP' }] }, /^API proxy group 'MyAPI' not found/],
      ['PUT', 'access already granted', { credentialAccessList: [{ name: 'PaymentAPI', type: 'API_PROXY' }, { name: 'MyAPI', type: 'API_PROXY' }] }, /^Credential 'acc-held' already has access to API proxy 'MyAPI'/],
      ['PUT', 'item listed twice', { credentialAccessList: [{ name: 'PaymentAPI', type: 'API_PROXY' }, { name: 'PaymentAPI', type: 'API_PROXY' }] }, /^credentialAccessList\[1\]: API proxy 'PaymentAPI' is listed twice/],
      ['DELETE', 'empty access object name', { credentialAccessList: [{ name: '', type: 'API_PROXY' }] }, /^credentialAccessList\[0\]\.name: must not be blank/],
      ['DELETE', 'unknown API proxy', { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY' }, { name: 'NoSuchAPI', type: 'API_PROXY' }] }, /^API proxy 'NoSuchAPI' not found in project 'payments'/],
      ['DELETE', 'access not granted', { credentialAccessList: [{ name: 'MyAPI', type: 'API_PROXY' }, { name: 'MyAPIGroup', type: 'API_PROXY_GROUP' }] }, /^Credential 'acc-held' has no access to API proxy group 'MyAPIGroup'/],
    ])('%s refuses %s with 400', async (method, _case, body, message) => {
      const before = await snapshot()
      const res = await answer(await call(method, access('acc-held'), tokens.alice, body))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
      expect(await snapshot()).toEqual(before)
      expect(pushes()).toHaveLength(0)
    })

    it.each([
      ['PUT', 'unknown credential', 'api-ghost', 'alice', /Credential 'api-ghost' not found in project 'payments'/],
      ['DELETE', 'unknown credential', 'api-ghost', 'alice', /Credential 'api-ghost' not found in project 'payments'/],
      ['GET', 'unknown credential', 'api-ghost', 'alice', /Credential 'api-ghost' not found in project 'payments'/],
      ['PUT', 'missing IDENTITY MANAGE', 'acc-held', 'carol', /lacks permission IDENTITY MANAGE/],
      ['DELETE', 'missing IDENTITY MANAGE', 'acc-held', 'carol', /lacks permission IDENTITY MANAGE/],
    ])('%s refuses %s with 400', async (method, _case, username, user, message) => {
      const before = await snapshot()
      const res = await answer(await call(method, access(username), tokens[user], method === 'GET' ? undefined : { credentialAccessList: [{ name: 'PaymentAPI', type: 'API_PROXY' }] }))
      expect(res.status).toBe(400)
      expect(res.body).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
      expect(await snapshot()).toEqual(before)
      expect(pushes()).toHaveLength(0)
    })

    it('refuses the unknown project and the missing token', async () => {
      const res = await answer(await call('PUT', '/apiops/projects/nowhere/credentials/acc-held/access/', tokens.alice, GRANT_ONE))
      expect(res).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: "Project 'nowhere' not found" } })
      expect((await call('PUT', access('acc-held'), undefined, GRANT_ONE)).status).toBe(401)
      expect(pushes()).toHaveLength(0)
    })
  })

  it('grants and revokes without deploying for a manager without DEPLOY_UNDEPLOY, and says so', async () => {
    await credential('acc-bob')
    const granted = await answer(await call('PUT', access('acc-bob'), tokens.bob, GRANT_ONE))
    expect(granted.body.success).toBe(true)
    expect(granted.body.deploymentResult.success).toBe(false)
    expect(granted.body.deploymentResult.environmentResults.map((e: any) => e.message)).toEqual([expect.stringMatching(/^Not deployed: /), expect.stringMatching(/^Not deployed: /)])
    expect((await answer(await call('GET', access('acc-bob'), tokens.bob))).body.resultList).toEqual([{ name: 'MyAPI', type: 'API_PROXY' }])
    const revoked = await answer(await call('DELETE', access('acc-bob'), tokens.bob, GRANT_ONE))
    expect(revoked.body.deploymentResult.success).toBe(false)
    expect(pushes()).toHaveLength(0)
  })
})

describe('the same credential operations through GraphQL', () => {
  const gql = async (query: string, variables: Record<string, unknown>, user: string) => {
    const res = await svc.graphql(query, variables, tokens[user])
    const text = JSON.stringify(res.body)
    for (const secret of [PASSWORD, NEW_PASSWORD, 'gql-pw-1', 'gql-pw-2']) expect(text).not.toContain(secret)
    return res.body
  }
  const CREATE = `mutation ($p: String!, $input: CredentialInput!) { createCredential(projectName: $p, input: $input) {
    credential { username consumerKey passwordSet roleNameList ipList accessList { name type } } deploymentResult { success environmentResults { environmentName success } } } }`

  it('creates with roles and ipList, changes the password, grants and revokes access; reads show them, never the password', async () => {
    const created = await gql(CREATE, { p: 'payments', input: { username: 'gql-user', password: 'gql-pw-1', roleNameList: ['DEVELOPER'], ipList: ['2001:db8::/32'] } }, 'alice')
    expect(created.errors).toBeUndefined()
    expect(created.data.createCredential.credential).toMatchObject({ username: 'gql-user', passwordSet: true, roleNameList: ['DEVELOPER'], ipList: ['2001:db8::/32'], accessList: [] })
    expect(created.data.createCredential.deploymentResult.success).toBe(true)

    const changed = await gql('mutation { changeCredentialPassword(projectName: "payments", username: "gql-user", password: "gql-pw-2") { deploymentResult { success } } }', {}, 'alice')
    expect(changed.data.changeCredentialPassword.deploymentResult.success).toBe(true)
    expect(await decryptedPassword('gql-user')).toBe('gql-pw-2')

    const granted = await gql('mutation { grantCredentialAccess(projectName: "payments", username: "gql-user", access: [{ name: "MyAPIGroup", type: "API_PROXY_GROUP" }]) { credential { accessList { name type } } } }', {}, 'alice')
    expect(granted.data.grantCredentialAccess.credential.accessList).toEqual([{ name: 'MyAPIGroup', type: 'API_PROXY_GROUP' }])
    const read = await gql('{ credentialAccess(projectName: "payments", username: "gql-user") { name type } credentials(projectName: "payments") { username roleNameList accessList { name } } }', {}, 'carol')
    expect(read.data.credentialAccess).toEqual([{ name: 'MyAPIGroup', type: 'API_PROXY_GROUP' }])
    expect(read.data.credentials.find((c: any) => c.username === 'gql-user')).toEqual({ username: 'gql-user', roleNameList: ['DEVELOPER'], accessList: [{ name: 'MyAPIGroup' }] })
    const revoked = await gql('mutation { revokeCredentialAccess(projectName: "payments", username: "gql-user", access: [{ name: "MyAPIGroup", type: "API_PROXY_GROUP" }]) { credential { accessList { name } } } }', {}, 'alice')
    expect(revoked.data.revokeCredentialAccess.credential.accessList).toEqual([])

    const updated = await gql('mutation { updateCredential(projectName: "payments", username: "gql-user", input: { roleNameList: ["API_USER", "ADMIN"] }) { credential { roleNameList ipList enabled } } }', {}, 'alice')
    expect(updated.data.updateCredential.credential).toEqual({ roleNameList: ['ADMIN', 'API_USER'], ipList: ['2001:db8::/32'], enabled: true })
  })

  it('refuses an unknown role, a bad address and a viewer, writing nothing', async () => {
    const before = await snapshot()
    const unknownRole = await gql(CREATE, { p: 'payments', input: { username: 'gql-refused', roleNameList: ['GHOST'] } }, 'alice')
    expect(unknownRole.errors?.[0]).toMatchObject({ message: "roleNameList: unknown role 'GHOST'", extensions: { errorKey: 'malformedRequest' } })
    const badIp = await gql(CREATE, { p: 'payments', input: { username: 'gql-refused', ipList: ['10.0.0.0/40'] } }, 'alice')
    expect(badIp.errors?.[0].message).toMatch(/^ipList\[0\]: must be an IP address or CIDR range/)
    const viewer = await gql('mutation { changeCredentialPassword(projectName: "payments", username: "shop-frontend", password: "gql-pw-1") { deploymentResult { success } } }', {}, 'carol')
    expect(viewer.errors?.[0].extensions.errorKey).toBe('permissionDenied')
    expect(await snapshot()).toEqual(before)
    expect(pushes()).toHaveLength(0)
  })
})

describe('credential roles (project catalogue, GraphQL)', () => {
  const LIST = 'query ($p: String!) { credentialRoles(projectName: $p) { name description } }'

  it('creates, lists and deletes roles per project; a role held by a credential stays', async () => {
    const created = await svc.graphql('mutation { createCredentialRole(projectName: "other", input: { name: "AUDITOR", description: "reads only" }) { name description createdAt } }', {}, tokens.root)
    expect(created.body.data.createCredentialRole).toMatchObject({ name: 'AUDITOR', description: 'reads only' })
    expect((await svc.graphql(LIST, { p: 'other' }, tokens.root)).body.data.credentialRoles).toEqual([{ name: 'AUDITOR', description: 'reads only' }])
    expect((await svc.graphql(LIST, { p: 'payments' }, tokens.carol)).body.data.credentialRoles.map((r: any) => r.name)).toEqual(['ADMIN', 'API_USER', 'DEVELOPER'])
    // the other project's role is unknown in payments
    const res = await answer(await call('POST', `${BASE}/`, tokens.alice, { ...CREATE_EXAMPLES.basic, username: 'role-cross', roleNameList: ['AUDITOR'] }))
    expect(res.body.resultMessage).toBe("roleNameList: unknown role 'AUDITOR'")

    const duplicate = await svc.graphql('mutation { createCredentialRole(projectName: "other", input: { name: "AUDITOR" }) { name } }', {}, tokens.root)
    expect(duplicate.body.errors?.[0].message).toBe("Credential role 'AUDITOR' already exists")

    await credential('role-holder', { roleNameList: ['ADMIN'] })
    const held = await svc.graphql('mutation { deleteCredentialRole(projectName: "payments", name: "ADMIN") { name } }', {}, tokens.alice)
    expect(held.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Credential role 'ADMIN' is held by \d+ credential\(s\)$/), extensions: { errorKey: 'lifecycleConflict' } })
    expect(await svc.deps.prisma.credentialRole.count({ where: { name: 'ADMIN' } })).toBe(1)
    const removed = await svc.graphql('mutation { deleteCredentialRole(projectName: "other", name: "AUDITOR") { name } }', {}, tokens.root)
    expect(removed.body.data.deleteCredentialRole.name).toBe('AUDITOR')
    expect((await svc.graphql(LIST, { p: 'other' }, tokens.root)).body.data.credentialRoles).toEqual([])
  })

  it('needs IDENTITY MANAGE to change the catalogue and refuses bad names', async () => {
    const before = await snapshot()
    const viewer = await svc.graphql('mutation { createCredentialRole(projectName: "payments", input: { name: "X" }) { name } }', {}, tokens.carol)
    expect(viewer.body.errors?.[0].extensions.errorKey).toBe('permissionDenied')
    const slash = await svc.graphql('mutation { createCredentialRole(projectName: "payments", input: { name: "a/b" }) { name } }', {}, tokens.alice)
    expect(slash.body.errors?.[0].message).toMatch(/^name: must not contain/)
    const unknown = await svc.graphql('mutation { deleteCredentialRole(projectName: "payments", name: "NOPE") { name } }', {}, tokens.alice)
    expect(unknown.body.errors?.[0].extensions.errorKey).toBe('resourceNotFound')
    expect(await snapshot()).toEqual(before)
  })
})

describe('export and transfer carry ipList and roleNameList', () => {
  it('exports them; an import resolves roles by name in the target project and reports the missing ones', async () => {
    await credential('xfer-user', { roleNameList: ['API_USER', 'DEVELOPER'], ipList: ['10.0.0.0/8', '::1'] })
    const { bytes } = await transferExport(svc, tokens.root, 'payments', { formatVersion: 1, type: 'CREDENTIAL', names: ['xfer-user'] })
    expect(jsonOfFile(unzip(bytes), 'xfer-user.json').data).toMatchObject({ ipList: ['10.0.0.0/8', '::1'], roleNameList: ['API_USER', 'DEVELOPER'] })
    await createRole('DEVELOPER', 'other')
    await call('DELETE', `${BASE}/xfer-user/`, tokens.alice)
    const moved = await importPackage(svc, tokens.root, 'other', 'CREDENTIAL', bytes)
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(moved.body.advisories).toEqual([{ level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: 'CREDENTIAL/xfer-user', type: 'CREDENTIAL_ROLE', name: 'API_USER' } }])
    const copy = (await stored('xfer-user'))!
    expect(copy.ipList).toEqual(['10.0.0.0/8', '::1'])
    expect(copy.roleGrants.map((g) => g.role.name)).toEqual(['DEVELOPER'])
    expect(devA.received.find((m) => m.name === 'xfer-user' && m.project === 'other' && m.action === 'DEPLOY')?.config).toMatchObject({ ipList: ['10.0.0.0/8', '::1'], roleNameList: ['DEVELOPER'] })
  })
})
