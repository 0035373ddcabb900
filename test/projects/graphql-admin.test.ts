// The GraphQL admin surface of the directory entities: environments, projects, members, organizations,
// applications, API clients, API proxies and (read-only) stored objects.
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'

let svc: TestService
let worker: FakeWorker
let root: string
let alice: string
let carol: string

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  ;[root, alice, carol] = await Promise.all([
    svc.tokenFor('root', 's3cret-root'),
    svc.tokenFor('alice', 'alice-pass-1'),
    svc.tokenFor('carol', 'carol-pass-1'),
  ])
})

afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}`

/** The data of a successful operation. */
async function ok<T = any>(token: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const { status, body } = await svc.graphql<T>(query, variables, token)
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined()
  expect(status).toBe(200)
  return body.data as T
}

/** The extensions (errorKey, params) of the first error of a refused operation. */
async function refused(token: string, query: string, variables?: Record<string, unknown>) {
  const { body } = await svc.graphql(query, variables, token)
  expect(body.errors, JSON.stringify(body)).toBeDefined()
  return body.errors![0].extensions as { errorKey: string; params: Record<string, unknown> }
}

describe('environments', () => {
  const read = 'query ($name: String!) { environment(name: $name) { name workerUrls } }'

  it('are created, re-pointed and deleted by a system administrator', async () => {
    const name = unique('env')
    const created = await ok(root, 'mutation ($input: EnvironmentInput!) { createEnvironment(input: $input) { name workerUrls createdAt } }', {
      input: { name, workerUrls: ['http://127.0.0.1:9911'] },
    })
    expect(created.createEnvironment).toMatchObject({ name, workerUrls: ['http://127.0.0.1:9911'] })
    const listed = await ok(root, '{ environments(size: 200) { totalElements items { name } } }')
    expect(listed.environments.items.map((e: any) => e.name)).toEqual(expect.arrayContaining(['dev', 'prod', name]))

    await ok(root, 'mutation ($name: String!, $urls: [String!]!) { setEnvironmentWorkerUrls(name: $name, workerUrls: $urls) { name } }', {
      name,
      urls: ['http://127.0.0.1:9912', 'https://gw.example.test'],
    })
    expect((await ok(root, read, { name })).environment.workerUrls).toEqual(['http://127.0.0.1:9912', 'https://gw.example.test'])

    expect((await ok(root, 'mutation ($name: String!) { deleteEnvironment(name: $name) }', { name })).deleteEnvironment).toBe(true)
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')
  })

  it('are for system administrators only', async () => {
    const name = unique('env')
    const create = 'mutation ($name: String!) { createEnvironment(input: { name: $name }) { name } }'
    expect((await refused(alice, create, { name })).errorKey).toBe('permissionDenied')
    expect((await refused(alice, '{ environments { totalElements } }')).errorKey).toBe('permissionDenied')
    expect((await refused(alice, 'mutation { deleteEnvironment(name: "dev") }')).errorKey).toBe('permissionDenied')
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')
  })

  it('refuse a bad worker URL by field and write nothing', async () => {
    const name = unique('env')
    const error = await refused(root, 'mutation ($name: String!) { createEnvironment(input: { name: $name, workerUrls: ["ftp://x"] }) { name } }', { name })
    expect(error).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'workerUrls[0]' } })
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')
    expect((await refused(root, 'mutation { setEnvironmentWorkerUrls(name: "nowhere", workerUrls: []) { name } }')).errorKey).toBe('resourceNotFound')
  })
})

describe('projects and members', () => {
  const read = 'query ($name: String!) { project(name: $name) { name description environments { name } members { username permissions { category level } } } }'

  it('are created, re-targeted, given members and deleted by a system administrator', async () => {
    const name = unique('proj')
    const created = await ok(root, 'mutation ($input: ProjectInput!) { createProject(input: $input) { name description createdAt environments { name } } }', {
      input: { name, description: 'made by the test', environments: ['dev'] },
    })
    expect(created.createProject).toMatchObject({ name, description: 'made by the test', environments: [{ name: 'dev' }] })

    await ok(root, 'mutation ($p: String!) { setProjectEnvironments(projectName: $p, environments: ["prod", "dev"]) { name } }', { p: name })
    const member = await ok(root, 'mutation ($p: String!, $perms: [PermissionInput!]!) { setMemberPermissions(projectName: $p, username: "carol", permissions: $perms) { username permissions { category level } } }', {
      p: name,
      perms: [{ category: 'IDENTITY', level: 'VIEW' }, { category: 'IP_GROUP', level: 'MANAGE' }, { category: 'IDENTITY', level: 'VIEW' }],
    })
    expect(member.setMemberPermissions).toEqual({
      username: 'carol',
      permissions: [{ category: 'IDENTITY', level: 'VIEW' }, { category: 'IP_GROUP', level: 'MANAGE' }],
    })
    expect((await ok(root, read, { name })).project).toMatchObject({
      environments: [{ name: 'dev' }, { name: 'prod' }],
      members: [{ username: 'carol', permissions: [{ category: 'IDENTITY', level: 'VIEW' }, { category: 'IP_GROUP', level: 'MANAGE' }] }],
    })
    // carol now sees the project among hers
    const hers = await ok(carol, '{ projects(size: 200) { items { name } } }')
    expect(hers.projects.items.map((p: any) => p.name)).toContain(name)

    await ok(root, 'mutation ($p: String!) { removeMember(projectName: $p, username: "carol") }', { p: name })
    expect((await ok(root, read, { name })).project.members).toEqual([])
    expect((await refused(carol, read, { name })).errorKey).toBe('resourceNotFound')

    expect((await ok(root, 'mutation ($name: String!) { deleteProject(name: $name) }', { name })).deleteProject).toBe(true)
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')
  })

  it('show each user the projects it is a member of', async () => {
    const all = await ok(root, '{ projects(size: 200) { totalElements items { name } } }')
    expect(all.projects.items.map((p: any) => p.name)).toEqual(expect.arrayContaining(['admin', 'other', 'payments']))
    const hers = await ok(carol, '{ projects(size: 200) { items { name } } }')
    expect(hers.projects.items.map((p: any) => p.name)).toContain('payments')
    expect(hers.projects.items.map((p: any) => p.name)).not.toContain('other')
    expect((await refused(carol, '{ project(name: "other") { name } }')).errorKey).toBe('resourceNotFound')
  })

  it('refuse the platform project, non-administrators and unknown names', async () => {
    expect(await refused(root, 'mutation { deleteProject(name: "admin") }')).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'platformProject' } })
    const name = unique('proj')
    expect((await refused(alice, 'mutation ($name: String!) { createProject(input: { name: $name }) { name } }', { name })).errorKey).toBe('permissionDenied')
    expect((await refused(alice, 'mutation { deleteProject(name: "other") }')).errorKey).toBe('permissionDenied')
    expect((await refused(alice, 'mutation { setProjectEnvironments(projectName: "payments", environments: []) { name } }')).errorKey).toBe('permissionDenied')
    expect((await refused(alice, 'mutation { setMemberPermissions(projectName: "payments", username: "alice", permissions: []) { username } }')).errorKey).toBe('permissionDenied')
    expect((await refused(alice, 'mutation { removeMember(projectName: "payments", username: "carol") }')).errorKey).toBe('permissionDenied')
    expect((await refused(root, 'mutation { deleteProject(name: "no-such-project") }')).errorKey).toBe('resourceNotFound')
    expect((await refused(root, 'mutation { removeMember(projectName: "other", username: "carol") }')).errorKey).toBe('resourceNotFound')
    expect((await refused(root, 'mutation { setMemberPermissions(projectName: "other", username: "nobody", permissions: []) { username } }')).errorKey).toBe('resourceNotFound')
  })

  it('refuse invalid input by field and write nothing', async () => {
    const name = unique('proj')
    const unknownEnv = await refused(root, 'mutation ($name: String!) { createProject(input: { name: $name, environments: ["nowhere"] }) { name } }', { name })
    expect(unknownEnv).toMatchObject({ errorKey: 'resourceNotFound', params: { environment: 'nowhere' } })
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')

    expect(await refused(root, 'mutation { createProject(input: { name: "a/b" }) { name } }')).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'name' } })
    expect((await refused(root, read, { name: 'a/b' })).errorKey).toBe('resourceNotFound')

    const badLevel = await refused(root, 'mutation { setMemberPermissions(projectName: "other", username: "carol", permissions: [{ category: "IDENTITY", level: "OWN" }]) { username } }')
    expect(badLevel).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'permissions[0].level' } })
    expect((await ok(root, '{ project(name: "other") { members { username } } }')).project.members).toEqual([])

    const badEnv = await refused(root, 'mutation { setProjectEnvironments(projectName: "other", environments: [" "]) { name } }')
    expect(badEnv).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'environments[0]' } })
    expect((await ok(root, '{ project(name: "other") { environments { name } } }')).project.environments).toEqual([{ name: 'dev' }])
  })

  it('guard each relation by the permission of its area', async () => {
    const { body } = await svc.graphql('{ project(name: "payments") { name organizations { code } apiProxies { name } members { username } } }', undefined, carol)
    expect(body.data?.project.organizations.map((o: any) => o.code)).toEqual(expect.arrayContaining(['acme', 'acme-eu']))
    expect(body.data?.project.apiProxies).toBeNull()
    expect(body.data?.project.members).toBeNull()
    const denied = body.errors!.map((e: any) => [e.path.join('.'), e.extensions.errorKey]).sort()
    expect(denied).toEqual([['project.apiProxies', 'permissionDenied'], ['project.members', 'permissionDenied']])
  })
})

describe('organizations', () => {
  const read = 'query ($code: String!) { organization(projectName: "payments", code: $code) { code name state suspended parentCode children { code } } }'
  const create = 'mutation ($input: OrganizationInput!) { createOrganization(projectName: "payments", input: $input) { code name state suspended parentCode } }'
  const update = 'mutation ($code: String!, $input: OrganizationUpdateInput!) { updateOrganization(projectName: "payments", code: $code, input: $input) { code name state suspended parentCode } }'
  const remove = 'mutation ($code: String!) { deleteOrganization(projectName: "payments", code: $code) }'

  it('are created, updated, suspended and deleted', async () => {
    const parent = unique('org')
    const child = unique('org')
    expect((await ok(root, create, { input: { code: parent, name: 'Parent' } })).createOrganization).toEqual({ code: parent, name: 'Parent', state: 'ACTIVE', suspended: false, parentCode: null })
    await ok(alice, create, { input: { code: child, name: 'Child', parentCode: parent } })
    expect((await ok(root, read, { code: parent })).organization.children).toEqual([{ code: child }])

    await ok(root, update, { code: child, input: { state: 'TOMBSTONED', suspended: true } })
    // fields left out keep their value
    expect((await ok(root, update, { code: child, input: { name: 'Child renamed' } })).updateOrganization).toEqual({
      code: child, name: 'Child renamed', state: 'TOMBSTONED', suspended: true, parentCode: parent,
    })
    expect((await ok(root, update, { code: child, input: { parentCode: '' } })).updateOrganization.parentCode).toBeNull()
    await ok(root, update, { code: child, input: { parentCode: parent } })

    expect((await refused(root, remove, { code: parent })).errorKey).toBe('lifecycleConflict')
    await ok(root, remove, { code: child })
    await ok(root, remove, { code: parent })
    expect((await refused(root, read, { code: parent })).errorKey).toBe('resourceNotFound')
    const listed = await ok(carol, '{ organizations(projectName: "payments", size: 200) { items { code } } }')
    expect(listed.organizations.items.map((o: any) => o.code)).not.toContain(parent)
  })

  it('refuse writes without IDENTITY MANAGE, unknown codes and invalid input', async () => {
    const code = unique('org')
    expect((await refused(carol, create, { input: { code, name: 'Nope' } })).errorKey).toBe('permissionDenied')
    expect((await refused(carol, update, { code: 'acme', input: { suspended: true } })).errorKey).toBe('permissionDenied')
    expect((await refused(carol, remove, { code: 'gone' })).errorKey).toBe('permissionDenied')
    expect((await ok(carol, read, { code: 'acme' })).organization.suspended).toBe(false)

    expect((await refused(root, update, { code: 'no-such-org', input: { name: 'x' } })).errorKey).toBe('resourceNotFound')
    expect((await refused(root, create, { input: { code, name: 'Orphan', parentCode: 'no-such-org' } })).errorKey).toBe('resourceNotFound')
    expect(await refused(root, create, { input: { code, name: 'Bad', state: 'SLEEPING' } })).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'state' } })
    expect(await refused(root, update, { code: 'acme-eu', input: { parentCode: 'acme-eu' } })).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'parentCode' } })
    expect((await refused(root, read, { code })).errorKey).toBe('resourceNotFound')
    expect((await ok(root, read, { code: 'acme-eu' })).organization.parentCode).toBe('acme')
  })
})

describe('applications and API clients', () => {
  const appFields = 'name applicationKey applicationKind appStatus referenceId description organizationCode lifecycleRevision trafficLogDisabled created consumers { username } apiClients { clientId }'
  const read = `query ($name: String!) { application(projectName: "payments", name: $name) { ${appFields} } }`
  const create = `mutation ($input: ApplicationInput!) { createApplication(projectName: "payments", input: $input) { ${appFields} } }`
  const update = `mutation ($name: String!, $input: ApplicationUpdateInput!) { updateApplication(projectName: "payments", name: $name, input: $input) { ${appFields} } }`

  async function credential(username: string) {
    await ok(root, 'mutation ($u: String!) { createCredential(projectName: "payments", input: { username: $u }) { credential { username } } }', { u: username })
  }

  it('are created, updated and deleted with their consumers and API clients', async () => {
    const [name, renamed, consumer] = [unique('app'), unique('app'), unique('cred')]
    await credential(consumer)
    const created = (await ok(alice, create, { input: { name, organizationCode: 'acme', consumers: [consumer], referenceId: 'ref-1' } })).createApplication
    expect(created).toMatchObject({
      name, applicationKind: 'INTERNAL', appStatus: 'ACTIVE', referenceId: 'ref-1', organizationCode: 'acme',
      lifecycleRevision: 1, consumers: [{ username: consumer }], apiClients: [],
    })
    expect(created.applicationKey).toMatch(/\S/)

    const clientId = unique('client')
    const client = await ok(root, 'mutation ($input: ApiClientInput!) { createApiClient(projectName: "payments", input: $input) { apiClientKey clientId name operationalState readiness version applicationName credentialUsername } }', {
      input: { name: 'web', clientId, operationalState: 'ACTIVE', applicationName: name },
    })
    expect(client.createApiClient).toMatchObject({ clientId, name: 'web', operationalState: 'ACTIVE', readiness: 'PENDING_SECRET', version: 1, applicationName: name, credentialUsername: null })
    const apiClientKey = client.createApiClient.apiClientKey

    // fields left out keep their value: kind, consumers, organization
    const updated = (await ok(root, update, { name, input: { name: renamed, description: 'renamed', applicationKind: 'PORTAL' } })).updateApplication
    expect(updated).toMatchObject({
      name: renamed, description: 'renamed', applicationKind: 'PORTAL', organizationCode: 'acme',
      applicationKey: created.applicationKey, consumers: [{ username: consumer }], apiClients: [{ clientId }],
    })
    expect((await ok(root, update, { name: renamed, input: { consumers: [], organizationCode: '' } })).updateApplication).toMatchObject({ consumers: [], organizationCode: null, applicationKind: 'PORTAL' })
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')

    const listed = await ok(carol, '{ apiClients(projectName: "payments", size: 200) { items { apiClientKey clientId } } }')
    expect(listed.apiClients.items).toContainEqual({ apiClientKey, clientId })
    await ok(root, 'mutation ($k: String!) { deleteApiClient(projectName: "payments", apiClientKey: $k) }', { k: apiClientKey })
    expect((await refused(root, 'query ($k: String!) { apiClient(projectName: "payments", apiClientKey: $k) { name } }', { k: apiClientKey })).errorKey).toBe('resourceNotFound')

    await ok(root, 'mutation ($n: String!) { deleteApplication(projectName: "payments", name: $n) }', { n: renamed })
    expect((await refused(root, read, { name: renamed })).errorKey).toBe('resourceNotFound')
    const apps = await ok(carol, '{ applications(projectName: "payments", size: 200) { items { name } } }')
    expect(apps.applications.items.map((a: any) => a.name)).toContain('checkout')
    expect(apps.applications.items.map((a: any) => a.name)).not.toContain(renamed)
  })

  it('refuse writes without IDENTITY MANAGE and unknown names', async () => {
    const name = unique('app')
    expect((await refused(carol, create, { input: { name } })).errorKey).toBe('permissionDenied')
    expect((await refused(carol, update, { name: 'checkout', input: { description: 'hijacked' } })).errorKey).toBe('permissionDenied')
    expect((await refused(carol, 'mutation { deleteApplication(projectName: "payments", name: "checkout") }')).errorKey).toBe('permissionDenied')
    expect((await refused(carol, 'mutation { createApiClient(projectName: "payments", input: { name: "x", clientId: "carol-x" }) { name } }')).errorKey).toBe('permissionDenied')
    expect((await ok(carol, read, { name: 'checkout' })).application.description).toBeNull()

    expect((await refused(root, update, { name: 'no-such-app', input: { description: 'x' } })).errorKey).toBe('resourceNotFound')
    expect((await refused(root, 'mutation { deleteApiClient(projectName: "payments", apiClientKey: "acl_nope") }')).errorKey).toBe('resourceNotFound')
    expect((await refused(root, 'mutation { deleteApplication(projectName: "nowhere", name: "checkout") }')).errorKey).toBe('resourceNotFound')
    // an unknown consumer refuses the whole write
    expect(await refused(root, create, { input: { name, consumers: ['no-such-credential'] } })).toMatchObject({ errorKey: 'resourceNotFound', params: { credential: 'no-such-credential' } })
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')
    expect((await refused(root, update, { name: 'checkout', input: { consumers: ['no-such-credential'] } })).errorKey).toBe('resourceNotFound')
    expect((await ok(root, read, { name: 'checkout' })).application.consumers).toEqual([{ username: 'shop-frontend' }])
  })

  it('refuse invalid input by field and write nothing', async () => {
    const name = unique('app')
    expect(await refused(root, create, { input: { name, applicationKind: 'EXTERNAL' } })).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'applicationKind' } })
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')

    const clientId = unique('client')
    const bad = await refused(root, 'mutation ($c: String!) { createApiClient(projectName: "payments", input: { name: "x", clientId: $c, readiness: "SOON" }) { name } }', { c: clientId })
    expect(bad).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'readiness' } })
    const clients = await ok(root, '{ apiClients(projectName: "payments", size: 200) { items { clientId } } }')
    expect(clients.apiClients.items.map((c: any) => c.clientId)).not.toContain(clientId)
  })

  it('expose no secret of an API client', async () => {
    const type = await ok(root, '{ __type(name: "ApiClient") { fields { name } } }')
    expect(type.__type.fields.map((f: any) => f.name).filter((n: string) => /secret|password|hash/i.test(n))).toEqual([])
  })
})

describe('API proxies', () => {
  const read = 'query ($name: String!) { apiProxy(projectName: "payments", name: $name) { name kind groups } }'

  it('are created, regrouped and deleted', async () => {
    const name = unique('proxy')
    const created = await ok(root, 'mutation ($n: String!) { createApiProxy(projectName: "payments", input: { name: $n, kind: "GRPC", groups: ["retail", "b2b"] }) { name kind groups } }', { n: name })
    expect(created.createApiProxy).toEqual({ name, kind: 'GRPC', groups: ['b2b', 'retail'] })
    await ok(root, 'mutation ($n: String!) { setApiProxyGroups(projectName: "payments", name: $n, groups: ["partners"]) { name } }', { n: name })
    expect((await ok(root, read, { name })).apiProxy).toEqual({ name, kind: 'GRPC', groups: ['partners'] })
    const listed = await ok(root, '{ apiProxies(projectName: "payments", size: 200) { items { name groups } } }')
    expect(listed.apiProxies.items).toContainEqual({ name: 'orders-api', groups: ['retail'] })
    await ok(root, 'mutation ($n: String!) { deleteApiProxy(projectName: "payments", name: $n) }', { n: name })
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')
  })

  it('need API_MANAGEMENT, known names and valid input', async () => {
    const name = unique('proxy')
    expect((await refused(alice, 'mutation ($n: String!) { createApiProxy(projectName: "payments", input: { name: $n }) { name } }', { n: name })).errorKey).toBe('permissionDenied')
    expect((await refused(carol, '{ apiProxies(projectName: "payments") { totalElements } }')).errorKey).toBe('permissionDenied')
    expect((await refused(root, 'mutation { setApiProxyGroups(projectName: "payments", name: "no-such-proxy", groups: []) { name } }')).errorKey).toBe('resourceNotFound')
    expect(await refused(root, 'mutation ($n: String!) { createApiProxy(projectName: "payments", input: { name: $n, kind: "FTP" }) { name } }', { n: name })).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'kind' } })
    expect((await refused(root, read, { name })).errorKey).toBe('resourceNotFound')
  })
})

describe('stored objects', () => {
  const list = 'query ($type: String) { storedObjects(projectName: "payments", type: $type, size: 200) { totalElements items { type kind name content } } }'

  it('are listed, filtered by type and read by natural key', async () => {
    const all = await ok(root, list)
    expect(all.storedObjects.items).toEqual(expect.arrayContaining([
      { type: 'IP_GROUP', kind: null, name: 'office-ips', content: { ips: ['10.0.0.0/8'] } },
      { type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'edge-ks', content: { alias: 'edge' } },
    ]))
    const ipGroups = await ok(root, list, { type: 'IP_GROUP' })
    expect(ipGroups.storedObjects.items.map((o: any) => o.type)).toEqual(['IP_GROUP'])
    const one = await ok(root, '{ storedObject(projectName: "payments", type: "CERTIFICATE", kind: "KEY_STORE", name: "edge-ks") { name kind content revision } }')
    expect(one.storedObject).toEqual({ name: 'edge-ks', kind: 'KEY_STORE', content: { alias: 'edge' }, revision: 1 })
  })

  it('show only the types the caller may view, and refuse bad keys', async () => {
    expect((await ok(carol, list)).storedObjects.totalElements).toBe(0)
    expect((await refused(carol, list, { type: 'IP_GROUP' })).errorKey).toBe('permissionDenied')
    expect(await refused(root, list, { type: 'NOPE' })).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'type' } })
    expect(await refused(root, '{ storedObject(projectName: "payments", type: "CERTIFICATE", name: "edge-ks") { name } }')).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'kind' } })
    expect((await refused(root, '{ storedObject(projectName: "payments", type: "IP_GROUP", name: "no-such-group") { name } }')).errorKey).toBe('resourceNotFound')
  })
})

describe('relations', () => {
  /** Seeds a project with `count` organizations under one root, each with an application, its consumer and an API client. */
  async function seedTree(count: number) {
    const project = unique('tree')
    await ok(root, 'mutation ($p: String!) { createProject(input: { name: $p }) { name } }', { p: project })
    // One request of aliased mutations seeds the tree; mutations run one after another.
    const seed = ['mutation ($p: String!) {', 'org: createOrganization(projectName: $p, input: { code: "root-org", name: "Root" }) { code }']
    for (let i = 0; i < count; i++) {
      seed.push(
        `o${i}: createOrganization(projectName: $p, input: { code: "org-${i}", name: "Org ${i}", parentCode: "root-org" }) { code }`,
        `c${i}: createCredential(projectName: $p, input: { username: "${project}-c${i}" }) { credential { username } }`,
        `a${i}: createApplication(projectName: $p, input: { name: "app-${i}", organizationCode: "org-${i}", consumers: ["${project}-c${i}"] }) { name }`,
        `k${i}: createApiClient(projectName: $p, input: { name: "client-${i}", clientId: "${project}-k${i}", applicationName: "app-${i}" }) { clientId }`,
      )
    }
    seed.push('}')
    await ok(root, seed.join('\n'), { p: project })
    return project
  }

  const tree = `
    name
    organizations { code parentCode children { code } }
    credentials { username applicationName }
    applications { name organizationCode consumers { username organizationCode } apiClients { clientId applicationName } }
    apiProxies { name groups }
    members { username }
    environments { name }`

  /** Prisma reads issued while `run` runs: spies that pass every call through to the real client. */
  async function countReads(run: () => Promise<unknown>) {
    const prisma = svc.deps.prisma as unknown as Record<string, Record<string, (...args: unknown[]) => unknown>>
    const models = ['project', 'projectEnvironment', 'membership', 'organization', 'credential', 'application', 'apiClient', 'apiProxy', 'environment']
    const spies = models.flatMap((m) => ['findMany', 'findFirst', 'findUnique', 'findUniqueOrThrow', 'count'].map((op) => vi.spyOn(prisma[m], op)))
    try {
      await run()
      return spies.reduce((n, spy) => n + spy.mock.calls.length, 0)
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
  }

  it('load a project tree with a bounded number of queries whatever the row count', async () => {
    const [small, bulk] = [await seedTree(2), await seedTree(30)]
    let bulkTree: any
    const smallReads = await countReads(() => ok(root, `query ($p: String!) { project(name: $p) { ${tree} } }`, { p: small }))
    const bulkReads = await countReads(async () => (bulkTree = (await ok(root, `query ($p: String!) { project(name: $p) { ${tree} } }`, { p: bulk })).project))
    expect(bulkReads).toBe(smallReads)
    expect(bulkReads).toBeLessThan(20)

    expect(bulkTree.organizations).toHaveLength(31)
    expect(bulkTree.organizations.find((o: any) => o.code === 'root-org').children).toHaveLength(30)
    expect(bulkTree.credentials).toHaveLength(30)
    expect(bulkTree.applications).toHaveLength(30)
    for (let i = 0; i < 30; i++) {
      expect(bulkTree.applications.find((a: any) => a.name === `app-${i}`)).toEqual({
        name: `app-${i}`,
        organizationCode: `org-${i}`,
        consumers: [{ username: `${bulk}-c${i}`, organizationCode: null }],
        apiClients: [{ clientId: `${bulk}-k${i}`, applicationName: `app-${i}` }],
      })
    }
  })

  it('batch the same relations across every project of a list', async () => {
    const before = await countReads(() => ok(root, `{ projects(size: 200) { items { ${tree} } } }`))
    await seedTree(5)
    let listed: any
    const after = await countReads(async () => (listed = await ok(root, `{ projects(size: 200) { items { ${tree} } } }`)))
    expect(after).toBe(before)
    const payments = listed.projects.items.find((p: any) => p.name === 'payments')
    expect(payments.applications.find((a: any) => a.name === 'checkout').consumers).toEqual([{ username: 'shop-frontend', organizationCode: 'acme' }])
    expect(payments.apiProxies).toContainEqual({ name: 'orders-api', groups: ['retail'] })
  })
})
