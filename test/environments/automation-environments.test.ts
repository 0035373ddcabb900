import { load as loadYaml } from 'js-yaml'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf } from '../support/http.js'
import { sampleMmdb } from '../support/mmdb-writer.js'
import { startAutomationEnv, type AutomationEnv } from '../projects/automation-support.js'

// Vendor folders 02-projects, 03-environments, 13-geolocation (enable/disable) and 16-test; openapi.yaml.
let env: AutomationEnv

beforeAll(async () => {
  env = await startAutomationEnv()
})
afterEach(() => env.resetWorkers())
afterAll(async () => {
  await env?.close()
})

async function expectRefused(res: Response, status: number, message: RegExp) {
  expect(res.status).toBe(status)
  expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
}

const statesOf = async (user: string, project: string) => {
  const body = await jsonOf(await env.call(user, 'GET', `/apiops/environments/${project}`))
  return Object.fromEntries(body.resultList.map((e: any) => [e.name, `${e.status} deployed=${e.deployed} redeploy=${e.redeployRequired}`]))
}

describe('GET /apiops/projects/', () => {
  it('lists the projects the caller can see, with the page\'s fields', async () => {
    const res = await env.call('outsider', 'GET', '/apiops/projects/')
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({ status: 'SUCCESS', success: true, resultList: [{ name: 'Other', description: 'description text' }], resultCount: 1 })
    const mine = await jsonOf(await env.call('viewer', 'GET', '/apiops/projects'))
    expect(mine.resultList).toEqual([{ name: 'MyProject', description: 'My project description' }])
    const all = await jsonOf(await env.call('root', 'GET', '/apiops/projects/'))
    expect(all.resultList.map((p: any) => p.name)).toEqual(['MyProject', 'Other', 'admin'])
    expect(all.resultCount).toBe(3)
  })

  it('refuses a missing or invalid token with 401 in the legacy envelope', async () => {
    await expectRefused(await env.svc.http('/apiops/projects/'), 401, /.+/)
    await expectRefused(await env.svc.http('/apiops/projects/', { headers: { authorization: 'Bearer nope' } }), 401, /.+/)
  })
})

describe('GET /apiops/environments/ and /apiops/environments/{projectName}', () => {
  it('shows the page\'s fields; state follows what was pushed and what changed since', async () => {
    const res = await env.call('manager', 'GET', '/apiops/environments/MyProject')
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 3 })
    expect(body.resultList[1]).toEqual({
      id: expect.stringMatching(/\S/), name: 'production', description: 'Production environment', type: 'PRODUCTION', status: 'UNPUBLISHED',
      accessUrl: 'https://api.production.example.com', deployed: false, redeployRequired: true,
    })
    // the bootstrap's IP group was never pushed: every environment misses it
    expect(await statesOf('manager', 'MyProject')).toEqual({
      development: 'UNPUBLISHED deployed=false redeploy=true', production: 'UNPUBLISHED deployed=false redeploy=true', staging: 'UNPUBLISHED deployed=false redeploy=true',
    })

    expect((await env.call('manager', 'POST', '/apiops/projects/MyProject/environmentVariables/A/', { name: 'A', global: true, globalValue: '1' })).status).toBe(200)
    expect(await statesOf('viewer', 'MyProject')).toEqual({
      development: 'PUBLISHED deployed=true redeploy=false', production: 'PUBLISHED deployed=true redeploy=false', staging: 'PUBLISHED deployed=true redeploy=false',
    })

    env.workers.staging.status = 500
    await env.call('manager', 'POST', '/apiops/projects/MyProject/environmentVariables/B/', { name: 'B', global: true, globalValue: '2' })
    expect(await statesOf('viewer', 'MyProject')).toMatchObject({ production: 'PUBLISHED deployed=true redeploy=false', staging: 'REPUBLISH_REQUIRED deployed=true redeploy=true' })

    // saved but not pushed: every environment now misses a change
    env.workers.staging.status = 200
    await env.call('saver', 'POST', '/apiops/projects/MyProject/environmentVariables/C/', { name: 'C', global: true, globalValue: '3' })
    expect(await statesOf('viewer', 'MyProject')).toMatchObject({ production: 'REPUBLISH_REQUIRED deployed=true redeploy=true' })

    // pushing C again brings production back; staging still misses B until B is pushed
    await env.call('manager', 'PUT', '/apiops/projects/MyProject/environmentVariables/C/', { name: 'C', global: true, globalValue: '3' })
    expect(await statesOf('viewer', 'MyProject')).toMatchObject({ production: 'PUBLISHED deployed=true redeploy=false', staging: 'REPUBLISH_REQUIRED deployed=true redeploy=true' })
    await env.call('manager', 'PUT', '/apiops/projects/MyProject/environmentVariables/B/', { name: 'B', global: true, globalValue: '2' })
    expect(await statesOf('viewer', 'MyProject')).toMatchObject({ staging: 'PUBLISHED deployed=true redeploy=false' })

    // Other serves staging only and never pushed anything
    expect(await statesOf('outsider', 'Other')).toEqual({ staging: 'UNPUBLISHED deployed=false redeploy=false' })
  })

  it('lists every environment for a system administrator, summed over the projects each serves', async () => {
    const res = await env.call('root', 'GET', '/apiops/environments/')
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', success: true, resultCount: 4 })
    expect(body.resultList.map((e: any) => e.name)).toEqual(['development', 'production', 'staging', 'unused'])
    expect(body.resultList[3]).toEqual({ id: expect.stringMatching(/\S/), name: 'unused', description: null, type: 'PRODUCTION', status: 'UNPUBLISHED', accessUrl: null, deployed: false, redeployRequired: false })
    expect(body.resultList[2]).toMatchObject({ name: 'staging', type: 'SANDBOX', deployed: true })
  })

  it('answers the same list at the newer page\'s path GET /apiops/projects/{projectName}/environments/ (apinizer/docs), ids included', async () => {
    const older = await jsonOf(await env.call('viewer', 'GET', '/apiops/environments/MyProject'))
    const res = await env.call('viewer', 'GET', '/apiops/projects/MyProject/environments/')
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toEqual(older)
    const ids = await env.svc.deps.prisma.environment.findMany({ where: { name: { in: ['development', 'production', 'staging'] } }, select: { id: true, name: true }, orderBy: { name: 'asc' } })
    expect(body.resultList.map((e: any) => ({ id: e.id, name: e.name }))).toEqual(ids)
    expect(body.resultCount).toBe(3)
    await expectRefused(await env.call('outsider', 'GET', '/apiops/projects/MyProject/environments/'), 400, /^Project 'MyProject' not found$/)
    await expectRefused(await env.call('manager', 'GET', '/apiops/projects/NoSuch/environments/'), 400, /^Project 'NoSuch' not found$/)
    await expectRefused(await env.svc.http('/apiops/projects/MyProject/environments/'), 401, /.+/)
  })

  it('refuses the page\'s causes: not an administrator, unknown project, not a member, no token', async () => {
    await expectRefused(await env.call('manager', 'GET', '/apiops/environments/'), 400, /Only a system administrator/)
    await expectRefused(await env.call('manager', 'GET', '/apiops/environments/NoSuch'), 400, /Project 'NoSuch' not found/)
    await expectRefused(await env.call('outsider', 'GET', '/apiops/environments/MyProject/'), 400, /Project 'MyProject' not found/)
    await expectRefused(await env.svc.http('/apiops/environments/MyProject'), 401, /.+/)
  })
})

describe('PUT /apiops/settings/geolocation/enable and /disable', () => {
  it('switches geolocation and pushes the configuration carrying the switch to every environment', async () => {
    const res = await env.call('root', 'PUT', '/apiops/settings/geolocation/disable')
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toEqual({
      status: 'SUCCESS',
      success: true,
      deploymentResult: {
        success: true,
        message: expect.any(String),
        environmentResults: ['development', 'production', 'staging', 'unused'].map((environmentName) => ({ environmentName, success: true, message: expect.any(String) })),
      },
    })
    expect(env.workers.production.received).toEqual([{ action: 'DEPLOY', project: '', kind: 'GEOLOCATION_DATABASE', name: 'geolocation.mmdb', revision: 1, config: { enabled: false } }])
    expect((await env.call('root', 'PUT', '/apiops/settings/geolocation/enable')).status).toBe(200)
    expect(env.workers.staging.received.at(-1)).toMatchObject({ revision: 2, config: { enabled: true } })
    expect(await env.svc.deps.prisma.geolocationSetting.findUnique({ where: { id: 'current' } })).toMatchObject({ enabled: true, revision: 2, updatedBy: 'root' })
  })

  it('the switch travels with the database: an upload carries it, a switch re-sends the database', async () => {
    expect((await env.call('root', 'PUT', '/apiops/settings/geolocation/disable')).status).toBe(200)
    env.resetWorkers()
    const bytes = sampleMmdb()
    const form = new FormData()
    form.append('file', new Blob([new Uint8Array(bytes)]), 'city.mmdb')
    const uploaded = await env.svc.http('/apiops/settings/geolocation/mmdb', { method: 'PUT', headers: env.auth('root'), body: form })
    expect(uploaded.status).toBe(200)
    // database revision 1 + switch revision 3
    expect(env.workers.production.received).toEqual([
      expect.objectContaining({ kind: 'GEOLOCATION_DATABASE', name: 'city.mmdb', revision: 4, config: expect.objectContaining({ enabled: false, contentBase64: bytes.toString('base64') }) }),
    ])
    expect((await env.call('root', 'PUT', '/apiops/settings/geolocation/enable')).status).toBe(200)
    expect(env.workers.production.received.at(-1)).toMatchObject({ name: 'city.mmdb', revision: 5, config: { enabled: true, fileName: 'city.mmdb', contentBase64: bytes.toString('base64') } })
  })

  it('refuses anyone but a system administrator, saving and pushing nothing', async () => {
    env.resetWorkers()
    for (const user of ['manager', 'outsider']) {
      await expectRefused(await env.call(user, 'PUT', '/apiops/settings/geolocation/disable'), 400, /Only a system administrator/)
    }
    await expectRefused(await env.svc.http('/apiops/settings/geolocation/enable', { method: 'PUT' }), 401, /.+/)
    expect(env.pushes()).toBe(0)
    expect(await env.svc.deps.prisma.geolocationSetting.findUnique({ where: { id: 'current' } })).toMatchObject({ enabled: true, revision: 4 })
    const audit = await jsonOf(await env.call('root', 'GET', '/apiops/projects/admin/audit-events?size=200'))
    const ops: string[] = audit.items.map((e: any) => `${e.operation} ${e.actor}`)
    expect(ops.filter((o) => o.startsWith('PUT /apiops/settings/geolocation/'))).toEqual(expect.arrayContaining(['PUT /apiops/settings/geolocation/disable root', 'PUT /apiops/settings/geolocation/enable root']))
    expect(ops.some((o) => o.includes('geolocation') && o.endsWith('manager'))).toBe(false)
  })
})

describe('16-test and the OpenAPI documents', () => {
  it('healthcheck answers plain OK without a token', async () => {
    const res = await env.svc.http('/apiops/test/healthcheck')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe('OK')
  })

  it('hello greets a valid token and refuses anyone else with 401', async () => {
    const res = await env.call('outsider', 'GET', '/apiops/test/hello/John')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toBe('Hello John')
    await expectRefused(await env.svc.http('/apiops/test/hello/John'), 401, /.+/)
    await expectRefused(await env.svc.http('/apiops/test/hello/John', { headers: { authorization: 'Bearer invalid' } }), 401, /.+/)
  })

  it('serves openapi.yaml as the same document as openapi.json, listing every endpoint here with its permission', async () => {
    const json = await jsonOf(await env.svc.http('/apiops/openapi.json'))
    const res = await env.svc.http('/apiops/openapi.yaml')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/)
    expect(loadYaml(await res.text())).toEqual(json)
    const expected: [string, string, RegExp][] = [
      ['/apiops/projects/', 'get', /membership/],
      ['/apiops/environments/', 'get', /system administrator/],
      ['/apiops/environments/{projectName}', 'get', /membership/],
      ['/apiops/projects/{projectName}/environmentVariables/', 'get', /PROJECT_MANAGEMENT VIEW/],
      ['/apiops/projects/{projectName}/environmentVariables/{name}/', 'get', /PROJECT_MANAGEMENT VIEW/],
      ['/apiops/projects/{projectName}/environmentVariables/{name}/', 'post', /PROJECT_MANAGEMENT MANAGE.*DEPLOY_UNDEPLOY/],
      ['/apiops/projects/{projectName}/environmentVariables/{name}/', 'put', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/projects/{projectName}/environmentVariables/{name}/', 'delete', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/projects/{projectName}/ipGroups/', 'post', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/projects/{projectName}/ipGroups/{ipGroupName}/', 'put', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/projects/{projectName}/ipGroups/{ipGroupName}/', 'delete', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/', 'post', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/', 'put', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/projects/{projectName}/ipGroups/{ipGroupName}/ips/', 'delete', /PROJECT_MANAGEMENT MANAGE/],
      ['/apiops/settings/geolocation/enable', 'put', /system administrator/],
      ['/apiops/settings/geolocation/disable', 'put', /system administrator/],
      ['/apiops/test/healthcheck', 'get', /no token/],
      ['/apiops/test/hello/{name}', 'get', /valid token/],
    ]
    for (const [path, method, permission] of expected) {
      expect(json.paths[path]?.[method]?.summary, `${method} ${path}`).toMatch(permission)
    }
    expect(json.paths['/apiops/test/healthcheck'].get.security).toEqual([])
  })
})
