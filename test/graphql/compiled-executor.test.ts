import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freshDatabase, type FreshDatabase } from '../support/database.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { startTestService, type TestService } from '../support/app.js'
import { ConfigError, loadConfig } from '../../src/config.js'

// Queries run compiled (graphql-jit, src/platform/graphql/compiled-executor.ts), mutations through graphql-js. The
// service answers a set of queries, then restarts on the same database with GRAPHQL_EXECUTOR=graphql-js and answers
// them again: the two answers must be the same, byte for byte once parsed (data, errors with their messages,
// locations, paths, errorKey, params and correlation id, HTTP status). The set: the console's consumers page and its
// search, the consumers page with every field, the ApiProxy walks (endpoints, policies, endpoint policies, JSON
// config), fragments, aliases, @skip/@include, __typename, an introspection field, a resolver's refusal inside a
// query that also answers data, and refused variables.

const CONSOLE_CONSUMERS = `query ConsoleConsumers($projectName: String!, $page: Int!, $size: Int!, $search: String) {
  consumers(projectName: $projectName, page: $page, size: $size, search: $search) {
    items { username fullName email enabled organizationCode consumerKey }
    page size totalElements totalPages
  }
}`
const ITEMS = 'username fullName consumerKey enabled description email expireDate organizationCode trafficLogDisabled id'
const PROXY_PAGE = `query ($p: String!, $size: Int) { apiProxies(projectName: $p, size: $size, sort: ["name,asc"]) { totalElements items {
  name kind relativePath revision updatedAt groups
  policies { name pipeline order type active config }
  endpoints { id endpoint httpMethod active backendResourceUrl backendHttpMethod version operationId policies { name pipeline order } }
} } }`
const PROXY_ONE = `query ($p: String!, $n: String!) { apiProxy(projectName: $p, name: $n) {
  name creationType endpointVersions { version basePath endpointCount deprecated }
  endpoints { ...ep } policies { ...pol }
} }
fragment ep on ApiProxyEndpoint { httpMethod endpoint policies { ...pol } }
fragment pol on ApiProxyPolicy { __typename name pipeline order type description active }`

const CASES: [string, string, Record<string, unknown>, string?][] = [
  ['the console page', CONSOLE_CONSUMERS, { projectName: 'payments', page: 0, size: 20 }],
  ['the console search', CONSOLE_CONSUMERS, { projectName: 'payments', page: 0, size: 20, search: 'shop' }],
  ['every consumer field', `query ($p: String!) { consumers(projectName: $p, page: 0, size: 20) { totalElements page size sort items { ${ITEMS} } } }`, { p: 'payments' }],
  ['literals, aliases, skip and include', `query ($yes: Boolean!, $no: Boolean!) { a: consumers(projectName: "payments", size: 2) { items { u: username __typename fullName @skip(if: $yes) email @include(if: $no) organizationCode @include(if: $yes) } } b: me { username role } }`, { yes: true, no: false }],
  ['the ApiProxy walks', PROXY_PAGE, { p: 'payments', size: 20 }],
  ['one ApiProxy through fragments', PROXY_ONE, { p: 'payments', n: 'proxy-001' }],
  ['an introspection field', '{ __type(name: "Consumer") { name fields { name } } }', {}],
  ['a named operation among two', 'query A { me { username } } query B { me { role } }', {}, 'B'],
  ['a project out of reach', '{ consumers(projectName: "nowhere", page: 0, size: 1) { totalElements } }', {}],
  ['a refusal beside data', '{ ok: consumers(projectName: "payments", size: 1) { size items { username } } bad: aiBudget(projectName: "nowhere", targetId: "x", targetType: "API_PROXY") { __typename } }', {}],
  ['an unknown proxy inside a fragment', PROXY_ONE, { p: 'payments', n: 'no-such-proxy' }],
  ['a variable of the wrong type', 'query ($s: Int) { consumers(projectName: "payments", size: $s) { size } }', { s: 'twenty' }],
  ['a required variable missing', CONSOLE_CONSUMERS, { projectName: 'payments', page: 0 }],
]

let db: FreshDatabase
let svc: TestService | undefined
let root: string
let carol: string

async function answers(service: TestService) {
  const out: Record<string, { status: number; body: unknown }> = {}
  for (const [name, query, variables, operationName] of CASES) {
    const res = await service.http('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${name === 'a project out of reach' ? carol : root}`, 'x-correlation-id': 'jit-cid' },
      body: JSON.stringify({ query, variables, operationName }),
    })
    out[name] = { status: res.status, body: await res.json() }
  }
  return out
}

let compiled: Awaited<ReturnType<typeof answers>>
let interpreted: Awaited<ReturnType<typeof answers>>

beforeAll(async () => {
  db = await freshDatabase()
  svc = await startTestService({ db, bootstrap: sampleBootstrap({ dev: [] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  carol = await svc.tokenFor('carol', 'carol-pass-1')
  // two proxies with endpoints, policies of their own and a policy on an endpoint, straight into the database
  const prisma = svc.deps.prisma
  const project = await prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
  const ipList = { type: 'policy-black-ip', description: 'Block an address', active: true, ipList: ['192.168.1.100'] }
  for (let i = 0; i < 2; i++) {
    const proxy = await prisma.apiProxy.create({ data: { projectId: project.id, name: `proxy-00${i}`, kind: 'REST', creationType: 'REVERSE_PROXY', relativePath: `/jit${i}` } })
    const endpoint = (method: string, path: string) => ({
      apiProxyId: proxy.id, method, path, pathKey: path, operationId: `${method.toLowerCase()}${path.replace(/\W/g, '_')}`, kind: 'REST',
      parameters: [], responses: [], consumes: [], produces: [], rewriteRules: [], policies: [], backendPath: path, backendMethod: method,
    })
    const first = await prisma.gatewayEndpoint.create({ data: endpoint('GET', '/orders') })
    await prisma.gatewayEndpoint.create({ data: endpoint('POST', '/orders') })
    const policy = (name: string, pipeline: string, endpointId: string | null) => ({
      apiProxyId: proxy.id, name, nameKey: name, pipeline, position: 1, endpointId, type: ipList.type, description: ipList.description, active: true, config: { ...ipList },
    })
    await prisma.apiProxyPolicy.createMany({ data: [policy('block-late', 'RESPONSE', null), policy('block-early', 'REQUEST', null), policy('block-orders', 'REQUEST', first.id)] })
  }
  compiled = await answers(svc)
  await svc.close()
  // the same service on the same data, every operation through graphql-js
  svc = await startTestService({ db, env: { GRAPHQL_EXECUTOR: 'graphql-js' } })
  interpreted = await answers(svc)
}, 120_000)

afterAll(async () => {
  await svc?.close()
  await db?.cleanup()
})

describe('queries through the compiled executor', () => {
  it.each(CASES.map(([name]) => [name]))('answer %s as graphql-js answers it', (name) => {
    expect(compiled[name]).toEqual(interpreted[name])
  })

  it('answer the pages and walks with their rows', () => {
    const page = (compiled['the console page'].body as any).data.consumers
    expect(page.items.length).toBeGreaterThan(1)
    expect(page.items.some((c: any) => c.organizationCode !== null)).toBe(true)
    const proxies = (compiled['the ApiProxy walks'].body as any).data.apiProxies.items.filter((p: any) => p.name.startsWith('proxy-'))
    expect(proxies.map((p: any) => [p.name, p.policies.map((x: any) => x.name), p.endpoints.map((e: any) => [e.httpMethod, e.policies.map((x: any) => x.name)])])).toEqual([
      ['proxy-000', ['block-early', 'block-late'], [['GET', ['block-orders']], ['POST', []]]],
      ['proxy-001', ['block-early', 'block-late'], [['GET', ['block-orders']], ['POST', []]]],
    ])
    expect(proxies[0].policies[0].config).toEqual({ type: 'policy-black-ip', description: 'Block an address', active: true, ipList: ['192.168.1.100'], name: 'block-early' })
  })

  it('answer a resolver error in our shape: errorKey, params, correlation id, path and location', () => {
    const out = compiled['a project out of reach']
    expect(out.status).toBe(200)
    expect(out.body).toMatchObject({ data: null, errors: [{ path: ['consumers'], locations: [{ line: 1, column: 3 }], extensions: { code: 'NOT_FOUND', errorKey: 'resourceNotFound', correlationId: 'jit-cid' } }] })
    const beside = compiled['a refusal beside data'].body as any
    expect(beside.data.ok).toEqual({ size: 1, items: [expect.objectContaining({ username: expect.any(String) })] })
    expect(beside.data.bad).toBeNull()
    expect(beside.errors, JSON.stringify(beside)).toEqual([{
      message: expect.any(String), locations: [{ line: 1, column: 79 }], path: ['bad'],
      extensions: { code: 'NOT_FOUND', errorKey: 'resourceNotFound', params: { project: 'nowhere' }, correlationId: 'jit-cid' },
    }])
    expect((compiled['an unknown proxy inside a fragment'].body as any).errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', errorKey: 'resourceNotFound', correlationId: 'jit-cid' })
  })

  it('refuse bad variables in graphql-js words, HTTP 400 and no data', () => {
    for (const name of ['a variable of the wrong type', 'a required variable missing']) {
      const out = compiled[name]
      expect(out.status).toBe(400)
      expect((out.body as any).data).toBeUndefined()
      expect((out.body as any).errors[0]).toMatchObject({ message: expect.stringMatching(/^Variable "\$/), extensions: { code: 'BAD_USER_INPUT', correlationId: 'jit-cid' } })
    }
  })
})

describe('GRAPHQL_EXECUTOR', () => {
  const base = { PORT: '0', DATA_DIR: '/nonexistent-never-opened' }
  it('defaults to compiled (unset or empty), takes graphql-js, and refuses anything else before anything is opened, naming the variable', () => {
    expect(loadConfig(base).graphqlExecutor).toBe('compiled')
    expect(loadConfig({ ...base, GRAPHQL_EXECUTOR: '' }).graphqlExecutor).toBe('compiled')
    expect(loadConfig({ ...base, GRAPHQL_EXECUTOR: 'graphql-js' }).graphqlExecutor).toBe('graphql-js')
    for (const value of ['jit', 'GRAPHQL-JS', ' ']) {
      expect(() => loadConfig({ ...base, GRAPHQL_EXECUTOR: value })).toThrow(ConfigError)
      expect(() => loadConfig({ ...base, GRAPHQL_EXECUTOR: value })).toThrow(/^Invalid environment variable GRAPHQL_EXECUTOR: /)
    }
  })
})

