import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf } from '../support/http.js'
import { jsonOfFile, legacyExport, unzip } from '../support/zip-fixtures.js'
import { startAutomationEnv, type AutomationEnv } from '../projects/automation-support.js'

// Vendor folder 11-ip-groups: IP groups are the project's IP_GROUP stored objects (bootstrap, export, GraphQL).
let env: AutomationEnv
const BASE = '/apiops/projects/MyProject/ipGroups'
const SUCCESS = { status: 'SUCCESS', success: true }

const group = (name: string, project = 'MyProject') =>
  env.svc.deps.prisma.storedObject.findFirst({ where: { type: 'IP_GROUP', name, project: { name: project } } })
const snapshot = async () => JSON.stringify(await env.svc.deps.prisma.storedObject.findMany({ where: { type: 'IP_GROUP' }, orderBy: { id: 'asc' } }))

async function refusedWithoutEffect(call: () => Promise<Response>, status: number, message: RegExp) {
  const before = await snapshot()
  const res = await call()
  expect(res.status).toBe(status)
  expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
  expect(await snapshot()).toBe(before)
  expect(env.pushes()).toBe(0)
}

beforeAll(async () => {
  env = await startAutomationEnv()
})
afterEach(() => env.resetWorkers())
afterAll(async () => {
  await env?.close()
})

describe('POST …/ipGroups/ (create)', () => {
  it('creates the page\'s examples as empty groups, stored as IP_GROUP objects', async () => {
    const res = await env.call('manager', 'POST', `${BASE}/`, { name: 'AllowedIPs', description: 'Allowed IP addresses for API access' })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual(SUCCESS)
    expect((await env.call('manager', 'POST', BASE, { name: 'BlockedIPs' })).status).toBe(200)
    expect((await group('AllowedIPs'))?.content).toEqual({ ips: [], description: 'Allowed IP addresses for API access' })
    expect((await group('BlockedIPs'))?.content).toEqual({ ips: [] })
    expect(env.pushes()).toBe(0)
  })

  it('refuses an empty name and a name taken in the project (the bootstrap\'s group too)', async () => {
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/`, { description: 'no name' }), 400, /^name: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/`, { name: '  ' }), 400, /^name: must not be blank/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/`, { name: 'AllowedIPs' }), 400, /An IP Group with same name \(AllowedIPs\) already exists in project!/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/`, { name: 'office-ips' }), 400, /already exists/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/`, { name: 'x\u0000y' }), 400, /^name: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/`, { name: 12 }), 400, /^name: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/`, { name: 'N', description: 'a\u0000' }), 400, /^description: must not contain (the )?NUL/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/A%00/ips/`, { ipList: ['1.2.3.4'] }), 400, /^ipGroupName: /)
    await refusedWithoutEffect(() => env.call('manager', 'DELETE', `${BASE}/A%00/`), 400, /^ipGroupName: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', '/apiops/projects/My%00Project/ipGroups/', { name: 'N' }), 400, /^projectName: must not contain the NUL character/)
  })

  it('refuses callers without PROJECT_MANAGEMENT MANAGE (or IP_GROUP MANAGE), outside the project, or without a token', async () => {
    await refusedWithoutEffect(() => env.call('viewer', 'POST', `${BASE}/`, { name: 'Denied' }), 400, /lacks permission PROJECT_MANAGEMENT MANAGE/)
    await refusedWithoutEffect(() => env.call('identity', 'POST', `${BASE}/`, { name: 'Denied' }), 400, /lacks permission PROJECT_MANAGEMENT MANAGE/)
    await refusedWithoutEffect(() => env.call('outsider', 'POST', `${BASE}/`, { name: 'Denied' }), 400, /Project 'MyProject' not found/)
    await refusedWithoutEffect(() => env.call('manager', 'POST', '/apiops/projects/NoSuch/ipGroups/', { name: 'Denied' }), 400, /Project 'NoSuch' not found/)
    await refusedWithoutEffect(() => env.svc.http(`${BASE}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"Denied"}' }), 401, /.+/)
    // the type's own category is accepted too
    expect((await env.call('ipadmin', 'POST', `${BASE}/`, { name: 'ByIpAdmin' })).status).toBe(200)
  })
})

describe('IPs of a group', () => {
  it('adds the page\'s examples; duplicates are ignored', async () => {
    for (const ipList of [['192.168.1.100'], ['192.168.1.100', '192.168.1.101', '10.0.0.50'], ['192.168.1.100', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']]) {
      const res = await env.call('manager', 'POST', `${BASE}/AllowedIPs/ips/`, { ipList })
      expect(res.status).toBe(200)
      expect(await jsonOf(res)).toEqual(SUCCESS)
    }
    expect((await group('AllowedIPs'))?.content).toMatchObject({
      ips: ['192.168.1.100', '192.168.1.101', '10.0.0.50', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
      description: 'Allowed IP addresses for API access',
    })
  })

  it('removes listed IPs, ignoring ones not in the group', async () => {
    const res = await env.call('manager', 'DELETE', `${BASE}/AllowedIPs/ips/`, { ipList: ['192.168.1.100', '10.0.0.0/8', '1.2.3.4'] })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual(SUCCESS)
    expect(((await group('AllowedIPs'))?.content as any).ips).toEqual(['192.168.1.101', '10.0.0.50', '172.16.0.0/12', '192.168.0.0/16'])
  })

  it('replaces the whole list (the page\'s example), and an empty list empties the group', async () => {
    expect(await jsonOf(await env.call('manager', 'PUT', `${BASE}/AllowedIPs/ips/`, { ipList: ['192.168.1.100', '10.0.0.0/8'] }))).toEqual(SUCCESS)
    expect(((await group('AllowedIPs'))?.content as any).ips).toEqual(['192.168.1.100', '10.0.0.0/8'])
    expect((await env.call('manager', 'PUT', `${BASE}/BlockedIPs/ips`, { ipList: ['2001:db8::/32'] })).status).toBe(200)
    expect((await env.call('manager', 'PUT', `${BASE}/BlockedIPs/ips/`, { ipList: [] })).status).toBe(200)
    expect(((await group('BlockedIPs'))?.content as any).ips).toEqual([])
  })

  it('refuses a missing or empty ipList, an invalid IP or CIDR and an unknown group, changing nothing', async () => {
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/AllowedIPs/ips/`, {}), 400, /^ipList: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/AllowedIPs/ips/`, { ipList: [] }), 400, /^ipList: must not be empty/)
    await refusedWithoutEffect(() => env.call('manager', 'DELETE', `${BASE}/AllowedIPs/ips/`, { ipList: [] }), 400, /^ipList: must not be empty/)
    await refusedWithoutEffect(() => env.call('manager', 'PUT', `${BASE}/AllowedIPs/ips/`, { ipList: null }), 400, /^ipList: /)
    for (const bad of ['999.1.1.1', '10.0.0.0/33', '10.0.0.0/-1', 'example.com', '2001:db8::/129', '10.0.0.1/8/8', '']) {
      await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/AllowedIPs/ips/`, { ipList: ['192.168.7.7', bad] }), 400, /^ipList\[1\]: /)
    }
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/AllowedIPs/ips/`, { ipList: [1e308] }), 400, /^ipList\[0\]: /)
    await refusedWithoutEffect(() => env.call('manager', 'POST', `${BASE}/NoGroup/ips/`, { ipList: ['1.2.3.4'] }), 400, /IP Group \(NoGroup\) is not found!/)
    await refusedWithoutEffect(() => env.call('viewer', 'PUT', `${BASE}/AllowedIPs/ips/`, { ipList: ['1.2.3.4'] }), 400, /lacks permission/)
  })
})

describe('PUT and DELETE …/ipGroups/{ipGroupName}/', () => {
  it('updates the description only; the name must match the path', async () => {
    const res = await env.call('manager', 'PUT', `${BASE}/AllowedIPs/`, { name: 'AllowedIPs', description: 'Updated description for allowed IP addresses' })
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual(SUCCESS)
    expect((await group('AllowedIPs'))?.content).toEqual({ ips: ['192.168.1.100', '10.0.0.0/8'], description: 'Updated description for allowed IP addresses' })
    await refusedWithoutEffect(() => env.call('manager', 'PUT', `${BASE}/AllowedIPs/`, { description: 'x' }), 400, /^name: /)
    await refusedWithoutEffect(() => env.call('manager', 'PUT', `${BASE}/AllowedIPs/`, { name: 'Other', description: 'x' }), 400, /cannot be changed/)
    await refusedWithoutEffect(() => env.call('manager', 'PUT', `${BASE}/Missing/`, { name: 'Missing' }), 400, /IP Group \(Missing\) is not found!/)
  })

  it('deletes a group with its IPs; an unknown group is refused', async () => {
    const res = await env.call('manager', 'DELETE', `${BASE}/BlockedIPs/`)
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual(SUCCESS)
    expect(await group('BlockedIPs')).toBeNull()
    await refusedWithoutEffect(() => env.call('manager', 'DELETE', `${BASE}/BlockedIPs/`), 400, /IP Group \(BlockedIPs\) is not found!/)
    await refusedWithoutEffect(() => env.call('viewer', 'DELETE', `${BASE}/AllowedIPs/`), 400, /lacks permission/)
  })
})

describe('GET …/ipGroups/ and …/ipGroups/{ipGroupName}/ (api-reference/ip-groups/crud/list-ip-groups, get-ip-group)', () => {
  it('reads a group as the page shows it (name, description, ipList in resultList), and lists the project\'s groups by name', async () => {
    const one = await env.call('viewer', 'GET', `${BASE}/AllowedIPs/`)
    expect(one.status).toBe(200)
    expect(await jsonOf(one)).toEqual({
      status: 'SUCCESS', success: true, resultCount: 1,
      resultList: [{ name: 'AllowedIPs', description: 'Updated description for allowed IP addresses', ipList: ['192.168.1.100', '10.0.0.0/8'] }],
    })
    const all = await jsonOf(await env.call('viewer', 'GET', `${BASE}/`))
    expect(all.status).toBe('SUCCESS')
    expect(all.resultList.map((g: any) => g.name)).toEqual([...all.resultList.map((g: any) => g.name)].sort())
    expect(all.resultList).toContainEqual({ name: 'AllowedIPs', description: 'Updated description for allowed IP addresses', ipList: ['192.168.1.100', '10.0.0.0/8'] })
    expect(all.resultCount).toBe(all.resultList.length)
    // a group without a description reads null
    expect(all.resultList).toContainEqual(expect.objectContaining({ name: 'office-ips', description: null }))
  })

  it('refuses an unknown group, a caller without PROJECT_MANAGEMENT VIEW, an outsider and a missing token; nothing is written', async () => {
    await refusedWithoutEffect(() => env.call('viewer', 'GET', `${BASE}/NoGroup/`), 400, /IP Group \(NoGroup\) is not found!/)
    await refusedWithoutEffect(() => env.call('viewer', 'GET', `${BASE}/A%00/`), 400, /^ipGroupName: /)
    await refusedWithoutEffect(() => env.call('identity', 'GET', `${BASE}/AllowedIPs/`), 400, /lacks permission PROJECT_MANAGEMENT VIEW/)
    await refusedWithoutEffect(() => env.call('identity', 'GET', `${BASE}/`), 400, /lacks permission PROJECT_MANAGEMENT VIEW/)
    await refusedWithoutEffect(() => env.call('outsider', 'GET', `${BASE}/AllowedIPs/`), 400, /Project 'MyProject' not found/)
    const anonymous = await env.svc.http(`${BASE}/AllowedIPs/`)
    expect(anonymous.status).toBe(401)
  })
})

describe('the same objects everywhere', () => {
  it('export, GraphQL and the audit trail see the groups written here', async () => {
    const { res, bytes } = await legacyExport(env.svc, env.tokens.root, 'MyProject', 'IP_GROUP', { names: ['AllowedIPs'] })
    expect(res.status).toBe(200)
    expect(jsonOfFile(unzip(bytes), 'AllowedIPs.json')).toMatchObject({ type: 'IP_GROUP', name: 'AllowedIPs', data: { ips: ['192.168.1.100', '10.0.0.0/8'] } })
    const gql = await env.svc.graphql('query($p: String!) { storedObject(projectName: $p, type: "IP_GROUP", name: "AllowedIPs") { name content } }', { p: 'MyProject' }, env.tokens.root)
    expect(gql.body.data?.storedObject).toEqual({ name: 'AllowedIPs', content: { ips: ['192.168.1.100', '10.0.0.0/8'], description: 'Updated description for allowed IP addresses' } })
    const audit = await jsonOf(await env.call('root', 'GET', '/apiops/projects/MyProject/audit-events?objectType=ipGroups&size=200'))
    const ops = audit.items.map((e: any) => `${e.operation} ${e.objectName}`)
    expect(ops).toEqual(expect.arrayContaining([
      'POST /apiops/projects/:projectName/ipGroups/ AllowedIPs',
      'POST /apiops/projects/:projectName/ipGroups/:ipGroupName/ips/ AllowedIPs',
      'DELETE /apiops/projects/:projectName/ipGroups/:ipGroupName/ BlockedIPs',
    ]))
    expect(ops.some((o: string) => o.includes('Denied'))).toBe(false)
  })
})

describe('GraphQL (same service)', () => {
  it('creates a group, adds and removes IPs and lists it, as REST does', async () => {
    const run = (query: string, user = 'manager') => env.svc.graphql(query, {}, env.tokens[user])
    expect((await run('mutation { createIpGroup(projectName: "MyProject", name: "GqlIPs", description: "via graphql") { name ipList } }')).body.data.createIpGroup).toEqual({ name: 'GqlIPs', ipList: [] })
    expect((await run('mutation { addIpGroupIps(projectName: "MyProject", name: "GqlIPs", ipList: ["10.1.0.0/16", "10.1.0.0/16", "::1"]) { ipList } }')).body.data.addIpGroupIps).toEqual({ ipList: ['10.1.0.0/16', '::1'] })
    expect((await run('mutation { removeIpGroupIps(projectName: "MyProject", name: "GqlIPs", ipList: ["::1"]) { ipList } }')).body.data.removeIpGroupIps).toEqual({ ipList: ['10.1.0.0/16'] })
    const list = (await run('query { ipGroups(projectName: "MyProject") { name description ipList } }', 'viewer')).body.data.ipGroups
    expect(list).toEqual(expect.arrayContaining([{ name: 'GqlIPs', description: 'via graphql', ipList: ['10.1.0.0/16'] }, { name: 'office-ips', description: null, ipList: ['10.0.0.0/8'] }]))
    expect((await group('GqlIPs'))?.content).toEqual({ ips: ['10.1.0.0/16'], description: 'via graphql' })
  })

  it('refuses an invalid IP and a viewer, changing nothing', async () => {
    const before = await snapshot()
    const bad = await env.svc.graphql('mutation { addIpGroupIps(projectName: "MyProject", name: "GqlIPs", ipList: ["300.0.0.1"]) { ipList } }', {}, env.tokens.manager)
    expect(bad.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^ipList\[0\]: must be an IP address/), extensions: { errorKey: 'malformedRequest' } })
    const denied = await env.svc.graphql('mutation { deleteIpGroup(projectName: "MyProject", name: "GqlIPs") }', {}, env.tokens.viewer)
    expect(denied.body.errors?.[0].extensions.errorKey).toBe('permissionDenied')
    expect(await snapshot()).toBe(before)
  })
})
