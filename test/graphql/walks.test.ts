import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { graphqlStatements } from '../support/statements.js'

// The parent → child walks an admin page takes (issue 30 §1): each relation batched per request, so a page's SQL
// statements are the same for 10 rows as for 100, and no statement reads a relation whose keys are all null.
// Rows are seeded straight into the database (a hundred of each through the API would take minutes); the walk's
// answer for one of them is compared with the REST door's answer for the same rows.

const bed = useTestbed({ tokens: { root: 's3cret-root', carol: 'carol-pass-1' } })
const db = () => bed.svc.deps.prisma
const key = (prefix: string) => `${prefix}_${crypto.randomBytes(6).toString('hex')}`

async function gql(query: string, variables: Record<string, unknown>, token = bed.root) {
  const { body } = await bed.svc.graphql(query, variables, token)
  if (body.errors) throw new Error(JSON.stringify(body.errors))
  return body.data
}

async function freshProject(prefix: string) {
  const name = `${prefix}-${crypto.randomBytes(3).toString('hex')}`
  await gql('mutation ($p: String!) { createProject(input: { name: $p }) { name } }', { p: name })
  return (await db().project.findUniqueOrThrow({ where: { name } }))
}

const BLACK_IP = { type: 'policy-black-ip', description: 'Block an address', active: true, ipList: ['192.168.1.100'] }

/** `count` REST proxies, each with two endpoints, a REQUEST and a RESPONSE policy of its own and a policy on its first endpoint. */
async function seedProxies(count: number) {
  const project = await freshProject(`walk${count}`)
  for (let i = 0; i < count; i++) {
    const proxy = await db().apiProxy.create({ data: { projectId: project.id, name: `proxy-${String(i).padStart(3, '0')}`, kind: 'REST', creationType: 'REVERSE_PROXY', relativePath: `/p${i}` } })
    const endpoint = (method: string, path: string) => ({
      apiProxyId: proxy.id, method, path, pathKey: path, operationId: `${method.toLowerCase()}${path.replace(/\W/g, '_')}`, kind: 'REST',
      parameters: [], responses: [], consumes: [], produces: [], rewriteRules: [], policies: [], backendPath: path, backendMethod: method,
    })
    const first = await db().gatewayEndpoint.create({ data: endpoint('GET', '/orders') })
    await db().gatewayEndpoint.create({ data: endpoint('POST', '/orders') })
    const policy = (name: string, pipeline: string, position: number, endpointId: string | null) => ({
      apiProxyId: proxy.id, name, nameKey: name, pipeline, position, endpointId, type: BLACK_IP.type, description: BLACK_IP.description, active: true, config: { ...BLACK_IP },
    })
    await db().apiProxyPolicy.createMany({ data: [policy('block-late', 'RESPONSE', 1, null), policy('block-early', 'REQUEST', 1, null), policy('block-orders', 'REQUEST', 1, first.id)] })
  }
  return project.name
}

const PROXY_PAGE = `query ($p: String!, $size: Int) { apiProxies(projectName: $p, size: $size) { items {
  name groups
  policies { name pipeline order type active config }
  endpoints { id endpoint httpMethod active backendResourceUrl backendHttpMethod version operationId policies { name pipeline order } }
} } }`

describe('ApiProxy.endpoints, ApiProxy.policies and ApiProxyEndpoint.policies', () => {
  it('walk a page of proxies in the same statements for 10 proxies as for 100', async () => {
    const [ten, hundred] = [await seedProxies(10), await seedProxies(100)]
    const small = await graphqlStatements(bed.svc, PROXY_PAGE, { p: ten, size: 10 }, bed.root)
    const large = await graphqlStatements(bed.svc, PROXY_PAGE, { p: hundred, size: 100 }, bed.root)
    expect(large.data.apiProxies.items).toHaveLength(100)
    expect(large.statements.length).toBe(small.statements.length)
    expect(large.statements.filter((s) => /IN \(NULL\)/i.test(s))).toEqual([])

    const last = large.data.apiProxies.items[99]
    expect(last.name).toBe('proxy-099')
    expect(last.policies).toEqual([
      { name: 'block-early', pipeline: 'REQUEST', order: 1, type: 'policy-black-ip', active: true, config: { ...BLACK_IP, name: 'block-early' } },
      { name: 'block-late', pipeline: 'RESPONSE', order: 1, type: 'policy-black-ip', active: true, config: { ...BLACK_IP, name: 'block-late' } },
    ])
    expect(last.endpoints.map((e: any) => [e.httpMethod, e.endpoint, e.policies])).toEqual([
      ['GET', '/orders', [{ name: 'block-orders', pipeline: 'REQUEST', order: 1 }]],
      ['POST', '/orders', []],
    ])

    // the same rows as the REST door shows them
    const auth = { authorization: `Bearer ${bed.root}` }
    const rest: any = await (await bed.svc.http(`/apiops/projects/${hundred}/apiProxies/proxy-099/endpoints/`, { headers: auth })).json()
    expect(last.endpoints.map(({ policies: _p, ...e }: any) => e)).toEqual(rest.resultList.map(({ description: _d, ...e }: any) => e))
    const policies: any = await (await bed.svc.http(`/apiops/projects/${hundred}/apiProxies/proxy-099/policies/`, { headers: auth })).json()
    const listed = policies.resultList[0]
    expect(listed.requestPolicyList.map((p: any) => p.name)).toEqual(['block-early'])
    expect(listed.responsePolicyList.map((p: any) => p.name)).toEqual(['block-late'])
    expect(listed.endpointList.find((e: any) => e.httpMethod === 'GET').requestPolicyList.map((p: any) => p.name)).toEqual(['block-orders'])
  })

  it('are only reached through a proxy the caller may view', async () => {
    // carol is a member of payments with IDENTITY VIEW only, and no member of the fresh project
    const denied = await bed.svc.graphql(PROXY_PAGE, { p: 'payments', size: 10 }, bed.carol)
    expect(denied.body.errors?.[0]?.extensions).toMatchObject({ errorKey: 'permissionDenied', params: { category: 'API_MANAGEMENT', level: 'VIEW' } })
    expect(denied.body.data).toBeNull()
    const hidden = await bed.svc.graphql(PROXY_PAGE, { p: await seedProxies(1), size: 10 }, bed.carol)
    expect(hidden.body.errors?.[0]?.extensions).toMatchObject({ errorKey: 'resourceNotFound' })
    expect(hidden.body.data).toBeNull()
  })
})

/** `count` applications, each with a consumer and an API client; no organization, entitlement or limit assignment. */
async function seedApplications(count: number) {
  const project = await freshProject(`apps${count}`)
  for (let i = 0; i < count; i++) {
    const app = await db().application.create({ data: { projectId: project.id, applicationKey: key('app'), name: `app-${String(i).padStart(3, '0')}` } })
    const consumer = await db().credential.create({ data: { projectId: project.id, username: `${project.name}-c${i}`, consumerKey: key('csm'), applicationId: app.id } })
    await db().apiClient.create({ data: { projectId: project.id, apiClientKey: key('acl'), clientId: `${project.name}-k${i}`, name: `client-${i}`, applicationId: app.id, credentialId: consumer.id } })
  }
  return project.name
}

const APPLICATION_PAGE = `query ($p: String!, $size: Int) { applications(projectName: $p, size: $size) { items {
  name organizationCode
  consumers { username organizationCode }
  apiClients { clientId applicationName credentialUsername }
  entitlements { entitlementKey subjectKey }
  limitAssignments { bindingKey subjectKey }
} } }`

describe('an applications page', () => {
  it('reads no relation whose keys are all null, in the same statements for 10 applications as for 100', async () => {
    const [ten, hundred] = [await seedApplications(10), await seedApplications(100)]
    const small = await graphqlStatements(bed.svc, APPLICATION_PAGE, { p: ten, size: 10 }, bed.root)
    const large = await graphqlStatements(bed.svc, APPLICATION_PAGE, { p: hundred, size: 100 }, bed.root)
    expect(large.statements.filter((s) => /IN \(NULL\)/i.test(s))).toEqual([])
    expect(large.statements.length).toBe(small.statements.length)
    const items = large.data.applications.items
    expect(items).toHaveLength(100)
    expect(items[42]).toEqual({
      name: 'app-042', organizationCode: null, consumers: [{ username: `${hundred}-c42`, organizationCode: null }],
      apiClients: [{ clientId: `${hundred}-k42`, applicationName: 'app-042', credentialUsername: `${hundred}-c42` }], entitlements: [], limitAssignments: [],
    })
  })

  it('reads the subjects of entitlements only for the keys the rows have', async () => {
    const name = await seedApplications(3)
    const project = await db().project.findUniqueOrThrow({ where: { name } })
    await gql('mutation ($p: String!) { createApiProxy(projectName: $p, input: { name: "orders" }) { name } }', { p: name })
    await gql('mutation ($p: String!) { createEntitlement(projectName: $p, input: { subjectType: APPLICATION, subjectKey: "app-001", targetType: API_PROXY, targetRef: "orders" }) { entitlementKey } }'.replace(/APPLICATION|API_PROXY(?=,)/g, (m) => `"${m}"`), { p: name })
    const { data, statements } = await graphqlStatements(bed.svc, APPLICATION_PAGE, { p: name, size: 10 }, bed.root)
    expect(data.applications.items[1].entitlements).toEqual([{ entitlementKey: expect.any(String), subjectKey: 'app-001' }])
    expect(statements.filter((s) => /IN \(NULL\)/i.test(s))).toEqual([])
    expect(project.name).toBe(name)
  })
})
