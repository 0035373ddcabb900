import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf } from '../support/http.js'
import { startAutomationEnv, type AutomationEnv } from '../projects/automation-support.js'

// Vendor folder 10-environment-variables, in our legacy envelope (spec §7.1).
let env: AutomationEnv
const BASE = '/apiops/projects/MyProject/environmentVariables'

const GLOBAL_EXAMPLE = { name: 'API_KEY', description: 'API Key for external service', global: true, globalValue: 'secret-api-key-12345', globalVisible: false, environmentValueList: null }
const PER_ENV_EXAMPLE = {
  name: 'API_BASE_URL',
  description: 'Base URL for API calls',
  global: false,
  globalValue: null,
  globalVisible: true,
  environmentValueList: [
    { environmentName: 'production', value: 'https://api.production.example.com', visible: true },
    { environmentName: 'staging', value: 'https://api.staging.example.com', visible: true },
    { environmentName: 'development', value: 'https://api.dev.example.com', visible: true },
  ],
}
const SECRET_EXAMPLE = {
  name: 'DATABASE_PASSWORD',
  description: 'Database password',
  global: false,
  globalValue: null,
  globalVisible: true,
  environmentValueList: [
    { environmentName: 'production', value: 'prod-secret-password', visible: false },
    { environmentName: 'staging', value: 'staging-secret-password', visible: false },
  ],
}

const deploymentResultShape = (names: string[], success = true) => ({
  success,
  message: expect.any(String),
  environmentResults: names.map((environmentName) => ({ environmentName, success, message: expect.any(String) })),
})
const ALL_ENVS = ['development', 'production', 'staging']

const variableRows = () => env.svc.deps.prisma.environmentVariable.count()
const lastPush = (worker: 'production' | 'staging' | 'development') => env.workers[worker].received.at(-1)

async function expectRefused(res: Response, status: number, message: RegExp) {
  expect(res.status).toBe(status)
  expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
}

/** A refused call changes no row and pushes nothing. */
async function refusedWithoutEffect(call: () => Promise<Response>, status: number, message: RegExp) {
  const before = JSON.stringify(await env.svc.deps.prisma.environmentVariable.findMany({ orderBy: { id: 'asc' } }))
  env.resetWorkers()
  await expectRefused(await call(), status, message)
  expect(JSON.stringify(await env.svc.deps.prisma.environmentVariable.findMany({ orderBy: { id: 'asc' } }))).toBe(before)
  expect(env.pushes()).toBe(0)
}

beforeAll(async () => {
  env = await startAutomationEnv()
})
afterEach(() => env.resetWorkers())
afterAll(async () => {
  await env?.close()
})

describe('POST …/environmentVariables/{name}/ (create)', () => {
  it('creates the page\'s global secret example, deploys it everywhere and never shows the value again', async () => {
    const res = await env.call('manager', 'POST', `${BASE}/API_KEY/`, GLOBAL_EXAMPLE)
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({ status: 'SUCCESS', success: true, deploymentResult: deploymentResultShape(ALL_ENVS) })
    for (const w of ['production', 'staging', 'development'] as const) {
      expect(lastPush(w)).toMatchObject({ action: 'DEPLOY', project: 'MyProject', kind: 'ENVIRONMENT_VARIABLE', name: 'API_KEY', revision: 1, config: { name: 'API_KEY', secret: true, value: 'secret-api-key-12345' } })
    }
    const row = await env.svc.deps.prisma.environmentVariable.findFirstOrThrow({ where: { name: 'API_KEY' } })
    expect(row.globalValue).toBeNull()
    expect(row.globalValueCipher).not.toContain('secret-api-key-12345')
    expect(env.svc.deps.keyring.decrypt(row.globalValueCipher!)).toBe('secret-api-key-12345')
    const read = await jsonOf(await env.call('viewer', 'GET', `${BASE}/API_KEY/`))
    expect(read.resultList[0]).toMatchObject({ name: 'API_KEY', global: true, globalValue: null, globalVisible: false, globalValueSet: true, environmentValueList: null })
    expect(JSON.stringify(read)).not.toContain('secret-api-key')
  })

  it('creates the environment-specific example; each environment gets only its own value', async () => {
    const res = await env.call('manager', 'POST', `${BASE}/API_BASE_URL/`, PER_ENV_EXAMPLE)
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).deploymentResult).toEqual(deploymentResultShape(ALL_ENVS))
    expect(lastPush('production')?.config).toEqual({ name: 'API_BASE_URL', secret: false, value: 'https://api.production.example.com' })
    expect(lastPush('staging')?.config).toEqual({ name: 'API_BASE_URL', secret: false, value: 'https://api.staging.example.com' })
    expect(lastPush('development')?.config).toEqual({ name: 'API_BASE_URL', secret: false, value: 'https://api.dev.example.com' })
  })

  it('creates the secret per-environment example: values sealed, masked on read, undeployed where absent', async () => {
    const res = await env.call('manager', 'POST', `${BASE}/DATABASE_PASSWORD/`, SECRET_EXAMPLE)
    expect(res.status).toBe(200)
    expect(lastPush('staging')).toMatchObject({ action: 'DEPLOY', config: { secret: true, value: 'staging-secret-password' } })
    expect(lastPush('development')).toMatchObject({ action: 'UNDEPLOY', name: 'DATABASE_PASSWORD' })
    const stored = JSON.stringify(await env.svc.deps.prisma.environmentVariable.findFirstOrThrow({ where: { name: 'DATABASE_PASSWORD' } }))
    expect(stored).not.toContain('secret-password')
    const read = await jsonOf(await env.call('viewer', 'GET', `${BASE}/DATABASE_PASSWORD`))
    expect(read.resultList[0].environmentValueList).toEqual([
      { environmentName: 'production', value: null, visible: false, valueSet: true },
      { environmentName: 'staging', value: null, visible: false, valueSet: true },
    ])
  })

  it('refuses every cause the page lists, in the legacy envelope, writing and pushing nothing', async () => {
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/X/`, { ...GLOBAL_EXAMPLE, name: '' }), 400, /^name: must not be blank/)
    await refusedWithoutEffect(
      () => env.call('manager', 'POST', `${BASE}/API_KEY/`, { ...PER_ENV_EXAMPLE }),
      400,
      /Environment variable name in path \(API_KEY\) does not match name in body \(API_BASE_URL\)!/,
    )
    // names are matched case-insensitively (page note), so a differently cased name is the same variable
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/api_key/`, { ...GLOBAL_EXAMPLE, name: 'api_key' }), 400, /Environment variable \(name: api_key\) already exists!/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/G/`, { name: 'G', global: true }), 400, /^globalValue: is required when global is true/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/E/`, { name: 'E', global: false }), 400, /^environmentValueList: must hold at least one/)
    await refusedWithoutEffect(
      () => env.call('manager', 'POST', `${BASE}/E/`, { name: 'E', environmentValueList: [{ environmentName: 'unused', value: 'v', visible: true }] }),
      400,
      /^environmentValueList\[0\]\.environmentName: 'unused' is not an environment of project 'MyProject'/,
    )
    await refusedWithoutEffect(
      () => env.call('manager', 'POST', `${BASE}/E/`, { name: 'E', environmentValueList: [{ environmentName: 'staging', value: 'a' }, { environmentName: 'staging', value: 'b' }] }),
      400,
      /environmentValueList\[1\]\.environmentName: 'staging' is listed twice/,
    )
  })

  it('answers hostile input with a 400 naming the field, never a 500', async () => {
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/N/`, { name: 'N\u0000', global: true, globalValue: 'v' }), 400, /^name: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/N/`, { name: 'N', global: 'yes', globalValue: 'v' }), 400, /^global: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/N/`, { name: 'N', global: true, globalValue: 1e308 }), 400, /^globalValue: /)
    let deep: unknown = 'x'
    for (let i = 0; i < 2000; i++) deep = { d: deep }
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/N/`, { name: 'N', global: true, globalValue: deep }), 400, /^globalValue(\.d)*: nested deeper than 64 levels/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/N/`, [1, 2]), 400, /.+/)
    // NUL bytes cannot be stored: refused as input, on every door, before the database sees them
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/N/`, { name: 'N', global: true, globalValue: 'a\u0000b' }), 400, /^globalValue: must not contain (the )?NUL/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/N/`, { name: 'N', description: '\u0000', global: true, globalValue: 'v' }), 400, /^description: must not contain (the )?NUL/)
    await refusedWithoutEffect(
      () => env.call('manager', 'POST', `${BASE}/N/`, { name: 'N', environmentValueList: [{ environmentName: 'staging', value: '\u0000', visible: true }] }),
      400,
      /^environmentValueList\[0\]\.value: must not contain (the )?NUL/,
    )
    await refusedWithoutEffect(() => env.call('manager', 'PUT', `${BASE}/A%00B/`, { name: 'AB', global: true, globalValue: 'v' }), 400, /^name: /)
    await refusedWithoutEffect(() => env.call('manager', 'DELETE', `${BASE}/A%00B/`), 400, /^name: /)
    await expectRefused(await env.call('manager', 'GET', `${BASE}/A%00B/`), 400, /^name: /)
    await expectRefused(await env.call('manager', 'GET', '/apiops/projects/My%00Project/environmentVariables/'), 400, /^projectName: must not contain the NUL character/)
    await expectRefused(await env.call('manager', 'GET', '/apiops/environments/My%00Project'), 400, /^projectName: must not contain the NUL character/)
  })

  it('refuses callers without PROJECT_MANAGEMENT MANAGE, outside the project or without a token', async () => {
    const body = { name: 'DENIED', global: true, globalValue: 'v' }
    await refusedWithoutEffect(() => env.call('viewer', 'POST', `${BASE}/DENIED/`, body), 400, /lacks permission PROJECT_MANAGEMENT MANAGE/)
    await refusedWithoutEffect(() => env.call('identity', 'POST', `${BASE}/DENIED/`, body), 400, /lacks permission PROJECT_MANAGEMENT MANAGE/)
    await refusedWithoutEffect(() => env.call('outsider', 'POST', `${BASE}/DENIED/`, body), 400, /Project 'MyProject' not found/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', '/apiops/projects/NoSuch/environmentVariables/DENIED/', body), 400, /Project 'NoSuch' not found/)
    await refusedWithoutEffect(() => env.svc.http(`${BASE}/DENIED/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), 401, /.+/)
  })

  it('saves without DEPLOY_UNDEPLOY but pushes nothing, and says so', async () => {
    const res = await env.call('saver', 'POST', `${BASE}/SAVED_ONLY/`, { name: 'SAVED_ONLY', global: true, globalValue: 'v' })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({ status: 'SUCCESS', success: true, deploymentResult: deploymentResultShape(ALL_ENVS, false) })
    expect(env.pushes()).toBe(0)
    expect(await env.svc.deps.prisma.environmentVariable.count({ where: { name: 'SAVED_ONLY' } })).toBe(1)
  })

  it('reports a failing environment without undoing the save', async () => {
    env.workers.staging.status = 503
    const res = await jsonOf(await env.call('manager', 'POST', `${BASE}/PARTIAL/`, { name: 'PARTIAL', global: true, globalValue: 'v' }))
    expect(res.deploymentResult.success).toBe(false)
    expect(res.deploymentResult.environmentResults.find((r: any) => r.environmentName === 'staging')).toMatchObject({ success: false, message: expect.stringContaining('503') })
    expect(res.deploymentResult.environmentResults.find((r: any) => r.environmentName === 'production')).toMatchObject({ success: true })
    expect(await env.svc.deps.prisma.environmentVariable.count({ where: { name: 'PARTIAL' } })).toBe(1)
  })
})

describe('GET …/environmentVariables/ and …/{name}/', () => {
  it('lists with the page\'s fields, secret values null', async () => {
    const res = await env.call('viewer', 'GET', `${BASE}/`)
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: body.resultList.length })
    const apiBase = body.resultList.find((v: any) => v.name === 'API_BASE_URL')
    expect(apiBase).toEqual({
      projectId: 'MyProject',
      projectName: 'MyProject',
      name: 'API_BASE_URL',
      description: 'Base URL for API calls',
      global: false,
      globalValue: null,
      globalVisible: true,
      globalValueSet: false,
      environmentValueList: PER_ENV_EXAMPLE.environmentValueList.map((v) => ({ ...v, valueSet: true })),
    })
    expect(JSON.stringify(body)).not.toMatch(/secret-api-key|secret-password/)
  })

  it('gets one by name, case-insensitively, with or without the trailing slash', async () => {
    for (const path of [`${BASE}/API_BASE_URL/`, `${BASE}/api_base_url`]) {
      const body = await jsonOf(await env.call('viewer', 'GET', path))
      expect(body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 1, resultList: [{ name: 'API_BASE_URL' }] })
    }
  })

  it('refuses an unknown variable, a caller without PROJECT_MANAGEMENT VIEW and a non-member', async () => {
    await expectRefused(await env.call('viewer', 'GET', `${BASE}/NOPE/`), 400, /Environment variable \(name: NOPE\) was not found!/)
    await expectRefused(await env.call('identity', 'GET', `${BASE}/`), 400, /lacks permission PROJECT_MANAGEMENT VIEW/)
    await expectRefused(await env.call('outsider', 'GET', `${BASE}/`), 400, /Project 'MyProject' not found/)
    await expectRefused(await env.svc.http(`${BASE}/`), 401, /.+/)
  })

  it('lists every project\'s variables in the admin project', async () => {
    await env.call('outsider', 'POST', '/apiops/projects/Other/environmentVariables/OTHER_VAR/', { name: 'OTHER_VAR', global: true, globalValue: 'o' })
    const body = await jsonOf(await env.call('root', 'GET', '/apiops/projects/admin/environmentVariables/'))
    expect(body.resultList.map((v: any) => `${v.projectName}/${v.name}`)).toEqual(expect.arrayContaining(['MyProject/API_KEY', 'Other/OTHER_VAR']))
    const mine = await jsonOf(await env.call('manager', 'GET', `${BASE}/`))
    expect(mine.resultList.every((v: any) => v.projectName === 'MyProject')).toBe(true)
  })
})

describe('PUT …/environmentVariables/{name}/ (update)', () => {
  it('replays the page\'s example: production keeps a new value, the others are undeployed', async () => {
    const res = await env.call('manager', 'PUT', `${BASE}/API_BASE_URL/`, {
      name: 'API_BASE_URL',
      description: 'Updated base URL',
      global: false,
      environmentValueList: [{ environmentName: 'production', value: 'https://new-api.production.example.com', visible: true }],
    })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({ status: 'SUCCESS', success: true, deploymentResult: deploymentResultShape(ALL_ENVS) })
    expect(lastPush('production')).toMatchObject({ action: 'DEPLOY', revision: 2, config: { value: 'https://new-api.production.example.com' } })
    expect(lastPush('staging')).toMatchObject({ action: 'UNDEPLOY', name: 'API_BASE_URL', revision: 2 })
    const read = await jsonOf(await env.call('viewer', 'GET', `${BASE}/API_BASE_URL/`))
    expect(read.resultList[0]).toMatchObject({ description: 'Updated base URL', environmentValueList: [{ environmentName: 'production', value: 'https://new-api.production.example.com' }] })
  })

  it('keeps a secret value the client leaves null (reads never return it)', async () => {
    const res = await env.call('manager', 'PUT', `${BASE}/DATABASE_PASSWORD/`, {
      ...SECRET_EXAMPLE,
      description: 'rotated prod only',
      environmentValueList: [
        { environmentName: 'production', value: 'prod-rotated', visible: false },
        { environmentName: 'staging', value: null, visible: false },
      ],
    })
    expect(res.status).toBe(200)
    expect(lastPush('production')?.config).toMatchObject({ value: 'prod-rotated', secret: true })
    expect(lastPush('staging')?.config).toMatchObject({ value: 'staging-secret-password', secret: true })
    // a visible value has nothing to keep
    await refusedWithoutEffect(
      () => env.call('manager', 'PUT', `${BASE}/DATABASE_PASSWORD/`, { name: 'DATABASE_PASSWORD', environmentValueList: [{ environmentName: 'staging', value: null, visible: true }] }),
      400,
      /^environmentValueList\[0\]\.value: is required/,
    )
  })

  it('renames: the old name is undeployed, the new one deployed and the old one is gone', async () => {
    const res = await env.call('manager', 'PUT', `${BASE}/PARTIAL/`, { name: 'RENAMED', global: true, globalValue: 'v2' })
    expect(res.status).toBe(200)
    const names = env.workers.production.received.map((m) => `${m.action} ${m.name}`)
    expect(names).toEqual(['UNDEPLOY PARTIAL', 'DEPLOY RENAMED'])
    await expectRefused(await env.call('viewer', 'GET', `${BASE}/PARTIAL/`), 400, /was not found/)
    await refusedWithoutEffect(() => env.call('manager', 'PUT', `${BASE}/RENAMED/`, { name: 'API_KEY', global: true, globalValue: 'x' }), 400, /Environment variable \(name: API_KEY\) already exists!/)
  })

  it('refuses an unknown variable and callers without MANAGE, writing and pushing nothing', async () => {
    await refusedWithoutEffect(() => env.call('manager', 'PUT', `${BASE}/NOPE/`, { name: 'NOPE', global: true, globalValue: 'x' }), 400, /Environment variable \(name: NOPE\) was not found!/)
    await refusedWithoutEffect(() => env.call('viewer', 'PUT', `${BASE}/API_KEY/`, { ...GLOBAL_EXAMPLE, globalValue: 'stolen' }), 400, /lacks permission PROJECT_MANAGEMENT MANAGE/)
  })
})

describe('DELETE …/environmentVariables/{name}/', () => {
  it('deletes and undeploys everywhere, answering with the deployment result', async () => {
    const before = await variableRows()
    const res = await env.call('manager', 'DELETE', `${BASE}/API_BASE_URL/`)
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({ status: 'SUCCESS', success: true, deploymentResult: deploymentResultShape(ALL_ENVS) })
    for (const w of ['production', 'staging', 'development'] as const) expect(lastPush(w)).toMatchObject({ action: 'UNDEPLOY', name: 'API_BASE_URL' })
    expect(await variableRows()).toBe(before - 1)
    await expectRefused(await env.call('viewer', 'GET', `${BASE}/API_BASE_URL/`), 400, /Environment variable \(name: API_BASE_URL\) was not found!/)
  })

  it('refuses an unknown variable and callers without MANAGE', async () => {
    await refusedWithoutEffect(() => env.call('manager', 'DELETE', `${BASE}/API_BASE_URL/`), 400, /Environment variable \(name: API_BASE_URL\) was not found!/)
    await refusedWithoutEffect(() => env.call('viewer', 'DELETE', `${BASE}/API_KEY/`), 400, /lacks permission PROJECT_MANAGEMENT MANAGE/)
  })
})

describe('audit trail', () => {
  it('records each successful write with the variable\'s name, never a value', async () => {
    const body = await jsonOf(await env.call('root', 'GET', '/apiops/projects/MyProject/audit-events?objectType=environmentVariables&size=200'))
    const ops = body.items.map((e: any) => `${e.operation} ${e.objectName}`)
    expect(ops).toEqual(expect.arrayContaining([
      'POST /apiops/projects/:projectName/environmentVariables/:name/ API_KEY',
      'PUT /apiops/projects/:projectName/environmentVariables/:name/ API_BASE_URL',
      'DELETE /apiops/projects/:projectName/environmentVariables/:name/ API_BASE_URL',
    ]))
    expect(ops.filter((o: string) => o.includes('DENIED'))).toEqual([])
    expect(JSON.stringify(body)).not.toMatch(/secret-api-key|secret-password/)
  })
})

describe('GraphQL (same service)', () => {
  const FIELDS = 'projectName name global globalValue globalVisible globalValueSet environmentValueList { environmentName value visible valueSet }'
  it('creates, reads, updates and deletes, secrets write-only, pushing like REST', async () => {
    const created = await env.svc.graphql(
      `mutation($p: String!, $i: EnvironmentVariableInput!) { createEnvironmentVariable(projectName: $p, input: $i) { environmentVariable { ${FIELDS} } deploymentResult { success environmentResults { environmentName success } } } }`,
      { p: 'MyProject', i: { name: 'GQL_SECRET', environmentValueList: [{ environmentName: 'production', value: 'gql-hidden' }] } },
      env.tokens.manager,
    )
    expect(created.body.errors).toBeUndefined()
    expect(created.body.data.createEnvironmentVariable).toEqual({
      environmentVariable: { projectName: 'MyProject', name: 'GQL_SECRET', global: false, globalValue: null, globalVisible: true, globalValueSet: false, environmentValueList: [{ environmentName: 'production', value: null, visible: false, valueSet: true }] },
      deploymentResult: { success: true, environmentResults: ALL_ENVS.map((environmentName) => ({ environmentName, success: true })) },
    })
    expect(lastPush('production')?.config).toEqual({ name: 'GQL_SECRET', secret: true, value: 'gql-hidden' })
    const read = await env.svc.graphql(`query { environmentVariables(projectName: "MyProject") { ${FIELDS} } }`, {}, env.tokens.viewer)
    expect(read.body.data.environmentVariables.map((v: any) => v.name)).toContain('GQL_SECRET')
    expect(JSON.stringify(read.body)).not.toMatch(/gql-hidden|secret-api-key|secret-password/)
    const updated = await env.svc.graphql(
      `mutation { updateEnvironmentVariable(projectName: "MyProject", name: "gql_secret", input: { name: "GQL_SECRET", global: true, globalValue: "now-global", globalVisible: true }) { environmentVariable { globalValue } } }`,
      {},
      env.tokens.manager,
    )
    expect(updated.body.data.updateEnvironmentVariable.environmentVariable.globalValue).toBe('now-global')
    const deleted = await env.svc.graphql('mutation { deleteEnvironmentVariable(projectName: "MyProject", name: "GQL_SECRET") { success } }', {}, env.tokens.manager)
    expect(deleted.body.data.deleteEnvironmentVariable).toEqual({ success: true })
  })

  it('refuses a viewer\'s mutation with permissionDenied, writing and pushing nothing', async () => {
    const before = await variableRows()
    env.resetWorkers()
    const res = await env.svc.graphql('mutation { createEnvironmentVariable(projectName: "MyProject", input: { name: "GQL_DENIED", global: true, globalValue: "x" }) { deploymentResult { success } } }', {}, env.tokens.viewer)
    expect(res.body.errors?.[0].extensions.errorKey).toBe('permissionDenied')
    expect(await variableRows()).toBe(before)
    expect(env.pushes()).toBe(0)
  })
})
