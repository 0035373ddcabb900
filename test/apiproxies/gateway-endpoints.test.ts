import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { GatewayEndpointVersionsDocument } from '../generated/graphql.js'
import { apiManagersBootstrap } from './ai-proxies-support.js'

// Gateway endpoints under API proxies (spec §2.18) and path versions deployed side by side (§9.6): GraphQL only.

// erin: API_MANAGEMENT MANAGE in payments; frank: API_MANAGEMENT VIEW in payments; alice: no API_MANAGEMENT
const bed = useTestbed({ workers: ['dev'], bootstrap: (workers) => apiManagersBootstrap(workers, [['users-api', 'REST'], ['billing-soap', 'SOAP'], ['inventory-grpc', 'GRPC'], ['chat-ai', 'AI']]), tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', alice: 'alice-pass-1' } })

const ENDPOINT = `apiProxyName version method path fullPath operationId description kind
  parameters { name in required description schema } requestBody { required contentType description schema }
  responses { statusCode description contentType schema } consumes produces backendPath backendMethod
  rewriteRules { pattern replacement } policies { name type phase enabled config }
  routing { loadBalancing timeoutMs targets { url weight role enabled } failover { maxAttempts retryOnStatus retryOnConnectFailure } } enabled`
const CREATE = `mutation($p: String!, $i: GatewayEndpointInput!) { createGatewayEndpoint(projectName: "payments", apiProxyName: $p, input: $i) {
  endpoint { ${ENDPOINT} } deploymentResult { success environmentResults { environmentName success message } } } }`
const UPDATE = `mutation($p: String!, $op: String!, $v: String, $i: GatewayEndpointUpdateInput!) { updateGatewayEndpoint(projectName: "payments", apiProxyName: $p, operationId: $op, version: $v, input: $i) {
  endpoint { ${ENDPOINT} } deploymentResult { success } } }`
const DELETE = `mutation($p: String!, $op: String!, $v: String) { deleteGatewayEndpoint(projectName: "payments", apiProxyName: $p, operationId: $op, version: $v) { version deploymentResult { success } } }`
const GET = `query($p: String!, $op: String!, $v: String) { gatewayEndpoint(projectName: "payments", apiProxyName: $p, operationId: $op, version: $v) { ${ENDPOINT} } }`
const LIST = `query($p: String!, $v: String) { gatewayEndpoints(projectName: "payments", apiProxyName: $p, version: $v, size: 100) { totalElements items { version method path operationId } } }`
const VERSIONS = `query($p: String!) { gatewayEndpointVersions(projectName: "payments", apiProxyName: $p) { version basePath deployName revision deprecated endpointCount } }`
const COPY = `mutation($p: String!, $from: String, $to: String!) { copyGatewayEndpointVersion(projectName: "payments", apiProxyName: $p, fromVersion: $from, toVersion: $to) { version deploymentResult { success } } }`
const DEPRECATE = `mutation($p: String!, $v: String, $d: Boolean!) { setGatewayEndpointVersionDeprecated(projectName: "payments", apiProxyName: $p, version: $v, deprecated: $d) { version deploymentResult { success } } }`
const RETIRE = `mutation($p: String!, $v: String) { deleteGatewayEndpointVersion(projectName: "payments", apiProxyName: $p, version: $v) { version deploymentResult { success } } }`

const gql = (query: string, variables: Record<string, unknown>, token = bed.erin) => bed.svc.graphql(query, variables, token).then((r) => r.body)
const create = (proxy: string, input: Record<string, unknown>, token = bed.erin) => gql(CREATE, { p: proxy, i: input }, token)
const endpointCount = () => bed.svc.deps.prisma.gatewayEndpoint.count()

/** A refused write: the error names the key (and field), nothing is stored and nothing is pushed. */
async function expectRefused(write: Promise<{ errors?: any[] }>, errorKey: string, message: string | RegExp, params: Record<string, unknown> = {}) {
  const before = await endpointCount()
  const pushes = bed.dev.received.length
  const body = await write
  expect(body.errors, 'expected an error').toBeDefined()
  expect(body.errors![0].message).toMatch(message)
  expect(body.errors![0].extensions).toMatchObject({ errorKey, params })
  expect(await endpointCount()).toBe(before)
  expect(bed.dev.received.length).toBe(pushes)
}

describe('gateway endpoints', () => {
  it('creates an endpoint with every field and deploys its version', async () => {
    const body = await create('orders-api', {
      version: 'v1',
      method: 'GET',
      path: '/orders/{orderId}/',
      operationId: 'getOrder',
      description: 'Read one order',
      parameters: [
        { name: 'expand', in: 'QUERY', schema: { type: 'boolean' } },
        { name: 'X-Tenant', in: 'HEADER', required: true },
      ],
      responses: [
        { statusCode: '200', description: 'the order', contentType: 'application/json', schema: { type: 'object' } },
        { statusCode: '404' },
        { statusCode: '5XX' },
      ],
      produces: ['application/json'],
      backendPath: '/internal/orders/{orderId}',
      rewriteRules: [{ pattern: '^/orders/(.*)$', replacement: '/internal/orders/$1' }],
      policies: [
        { name: 'jwt', type: 'SECURITY', config: { issuer: 'https://idp.example.test' } },
        { name: 'per-client', type: 'RATE_LIMIT', config: { limit: 100, windowSeconds: 60 } },
      ],
      routing: {
        loadBalancing: 'WEIGHTED',
        targets: [
          { url: 'https://orders-1.example.test', weight: 3 },
          { url: 'https://orders-2.example.test', weight: 1 },
          { url: 'https://orders-dr.example.test', role: 'FAILOVER' },
        ],
      },
    })
    expect(body.errors).toBeUndefined()
    const { endpoint, deploymentResult } = body.data.createGatewayEndpoint
    expect(deploymentResult.success).toBe(true)
    expect(endpoint).toMatchObject({
      apiProxyName: 'orders-api', version: 'v1', method: 'GET', path: '/orders/{orderId}', fullPath: '/v1/orders/{orderId}', operationId: 'getOrder',
      kind: 'REST', backendPath: '/internal/orders/{orderId}', backendMethod: 'GET', consumes: [], produces: ['application/json'], enabled: true, requestBody: null,
    })
    expect(endpoint.parameters).toEqual([
      { name: 'expand', in: 'QUERY', required: false, description: null, schema: { type: 'boolean' } },
      { name: 'X-Tenant', in: 'HEADER', required: true, description: null, schema: { type: 'string' } },
      { name: 'orderId', in: 'PATH', required: true, description: null, schema: { type: 'string' } },
    ])
    expect(endpoint.policies[1]).toEqual({ name: 'per-client', type: 'RATE_LIMIT', phase: 'REQUEST', enabled: true, config: { limit: 100, windowSeconds: 60 } })
    expect(endpoint.routing).toEqual({
      loadBalancing: 'WEIGHTED', timeoutMs: 30000,
      targets: [
        { url: 'https://orders-1.example.test', weight: 3, role: 'PRIMARY', enabled: true },
        { url: 'https://orders-2.example.test', weight: 1, role: 'PRIMARY', enabled: true },
        { url: 'https://orders-dr.example.test', weight: 1, role: 'FAILOVER', enabled: true },
      ],
      failover: { maxAttempts: 2, retryOnStatus: [502, 503, 504], retryOnConnectFailure: true },
    })
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({
      action: 'DEPLOY', project: 'payments', kind: 'API_PROXY_VERSION', name: 'orders-api/v1', revision: 1,
      config: { apiProxy: 'orders-api', version: 'v1', basePath: '/v1', deprecated: false, endpoints: [{ operationId: 'getOrder', method: 'GET', fullPath: '/v1/orders/{orderId}' }] },
    })
  })

  it('generates an operation id when none is given, and keeps SOAP, gRPC and WebSocket rules', async () => {
    const gen = await create('orders-api', { version: 'v1', method: 'POST', path: '/orders', requestBody: { required: true, schema: { type: 'object' } } })
    expect(gen.data.createGatewayEndpoint.endpoint).toMatchObject({ operationId: 'post_orders', requestBody: { required: true, contentType: 'application/json' } })
    const ws = await create('orders-api', { version: 'v1', method: 'GET', path: '/orders/stream', kind: 'WEBSOCKET', routing: { targets: [{ url: 'wss://stream.example.test' }] } })
    expect(ws.data.createGatewayEndpoint.endpoint).toMatchObject({ kind: 'WEBSOCKET', operationId: 'get_orders_stream' })
    const soap = await create('billing-soap', { method: 'POST', path: '/BillingService', operationId: 'Invoice', consumes: ['text/xml; charset=utf-8'] })
    expect(soap.data.createGatewayEndpoint.endpoint).toMatchObject({ kind: 'SOAP', version: '', fullPath: '/BillingService' })
    const grpc = await create('inventory-grpc', { method: 'POST', path: '/inventory.v1.Stock/Reserve' })
    expect(grpc.data.createGatewayEndpoint.endpoint).toMatchObject({ kind: 'GRPC', operationId: 'post_inventory_v1_Stock_Reserve' })
    expect(bed.dev.received.map((r) => r.name)).toEqual(['orders-api/v1', 'orders-api/v1', 'billing-soap', 'inventory-grpc'])
  })

  it('refuses a method + path already served in the version, whatever the variable names or ALL', async () => {
    await expectRefused(create('orders-api', { version: 'v1', method: 'GET', path: '/orders/{orderId}', operationId: 'again' }), 'endpointAlreadyExists',
      "GET /v1/orders/{orderId} collides with endpoint 'getOrder' (GET /v1/orders/{orderId})", { field: 'path', conflictsWith: 'getOrder' })
    await expectRefused(create('orders-api', { version: 'v1', method: 'GET', path: '/orders/{id}', operationId: 'again' }), 'endpointAlreadyExists', /collides with endpoint 'getOrder'/)
    await expectRefused(create('orders-api', { version: 'v1', method: 'ALL', path: '/orders/{x}', operationId: 'any' }), 'endpointAlreadyExists', /^ALL \/v1\/orders\/\{x\} collides/)
    const all = await create('orders-api', { version: 'v1', method: 'ALL', path: '/legacy/{rest}', operationId: 'legacyAll' })
    expect(all.errors).toBeUndefined()
    await expectRefused(create('orders-api', { version: 'v1', method: 'DELETE', path: '/legacy/{id}', operationId: 'legacyDelete' }), 'endpointAlreadyExists', /collides with endpoint 'legacyAll' \(ALL/)
  })

  it('refuses a taken operation id in the version but accepts it in another version', async () => {
    await expectRefused(create('orders-api', { version: 'v1', method: 'PUT', path: '/orders/{id}', operationId: 'getOrder' }), 'operationIdAlreadyExists',
      "operationId 'getOrder' is already used by GET /v1/orders/{orderId} in version 'v1'", { field: 'operationId', operationId: 'getOrder', version: 'v1' })
    const other = await create('users-api', { method: 'GET', path: '/users', operationId: 'getOrder' })
    expect(other.errors).toBeUndefined()
    const v9 = await create('orders-api', { version: 'v9', method: 'GET', path: '/orders/{orderId}', operationId: 'getOrder' })
    expect(v9.errors).toBeUndefined()
    expect(v9.data.createGatewayEndpoint.endpoint.fullPath).toBe('/v9/orders/{orderId}')
  })

  it('names the field of every invalid value; nothing is written', async () => {
    const bad = (over: Record<string, unknown>) => create('users-api', { method: 'GET', path: '/things', operationId: 'things', ...over })
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [{ method: 'FETCH' }, 'method', /^method: must be one of GET, POST/],
      [{ path: 'things' }, 'path', "path: must start with '/'"],
      [{ path: '/a//b' }, 'path', 'path: must not contain an empty segment (//)'],
      [{ path: '/a b' }, 'path', /^path: contains a character not allowed/],
      [{ path: '/a/{id' }, 'path', 'path: has an unbalanced { or }'],
      [{ path: '/a/{1x}' }, 'path', /^path: template variable '\{1x\}' must start/],
      [{ path: '/a/{id}/b/{id}' }, 'path', "path: template variable '{id}' appears twice"],
      [{ version: 'v 1' }, 'version', /^version: must be 1 to 32 letters/],
      [{ operationId: '9lives' }, 'operationId', /^operationId: must start with a letter/],
      [{ description: 'x'.repeat(1001) }, 'description', 'description: must be at most 1000 characters'],
      [{ kind: 'GRAPHQL' }, 'kind', /^kind: must be one of REST, SOAP, GRPC, WEBSOCKET/],
      [{ kind: 'SOAP' }, 'kind', 'kind: a REST proxy carries REST or WEBSOCKET endpoints, not SOAP'],
      [{ parameters: [{ name: 'id', in: 'PATH' }] }, 'parameters[0].name', "parameters[0].name: path parameter 'id' does not appear in the path template /things"],
      [{ parameters: [{ name: 'q', in: 'BODY' }] }, 'parameters[0].in', /^parameters\[0\]\.in: must be one of QUERY, PATH, HEADER/],
      [{ parameters: [{ name: 'X-A', in: 'HEADER' }, { name: 'x-a', in: 'HEADER' }] }, 'parameters[1].name', "parameters[1].name: HEADER parameter 'x-a' is declared twice"],
      [{ responses: [{ statusCode: '700' }] }, 'responses[0].statusCode', /^responses\[0\]\.statusCode: must be an HTTP status/],
      [{ responses: [{ statusCode: '200' }, { statusCode: '200' }] }, 'responses[1].statusCode', 'responses[1].statusCode: status 200 is described twice'],
      [{ produces: ['json'] }, 'produces[0]', 'produces[0]: must be a media type such as application/json'],
      [{ backendPath: '/x/{id}' }, 'backendPath', "backendPath: template variable '{id}' is not in the client path /things"],
      [{ backendMethod: 'ALL' }, 'backendMethod', 'backendMethod: ALL forwards the client method and needs method ALL'],
      [{ rewriteRules: [{ pattern: '([a-z', replacement: '' }] }, 'rewriteRules[0].pattern', /^rewriteRules\[0\]\.pattern: is not a valid regular expression/],
      [{ policies: [{ name: 'rl', type: 'RATE_LIMIT', config: { limit: 0 } }] }, 'policies[0].config.limit', 'policies[0].config.limit: is required for RATE_LIMIT and must be an integer of at least 1'],
      [{ policies: [{ name: 'p', type: 'SECURITY' }, { name: 'P', type: 'VALIDATION' }] }, 'policies[1].name', "policies[1].name: policy 'P' is attached twice"],
      [{ policies: [{ name: 'p', type: 'CACHE' }] }, 'policies[0].type', /^policies\[0\]\.type: must be one of SECURITY, RATE_LIMIT, TRANSFORMATION, VALIDATION/],
      [{ routing: { targets: [] } }, 'routing.targets', 'routing.targets: must list at least one target'],
      [{ routing: { targets: [{ url: 'https://a.example.test', role: 'FAILOVER' }] } }, 'routing.targets', 'routing.targets: at least one enabled PRIMARY target is needed'],
      [{ routing: { targets: [{ url: 'ws://a.example.test' }] } }, 'routing.targets[0].url', 'routing.targets[0].url: REST targets use http, https'],
      [{ routing: { targets: [{ url: 'https://a.example.test' }, { url: 'https://a.example.test' }] } }, 'routing.targets[1].url', 'routing.targets[1].url: https://a.example.test is listed twice'],
      [{ routing: { targets: [{ url: 'nope' }] } }, 'routing.targets[0].url', 'routing.targets[0].url: must be an absolute URL'],
      [{ routing: { targets: [{ url: 'https://a.example.test', weight: 0 }] } }, 'routing.targets[0].weight', 'routing.targets[0].weight: must be at least 1'],
      [{ routing: { targets: [{ url: 'https://a.example.test' }], failover: { retryOnStatus: [404] } } }, 'routing.failover.retryOnStatus[0]', 'routing.failover.retryOnStatus[0]: must be an HTTP status 500..599'],
    ]
    for (const [over, field, message] of cases) await expectRefused(bad(over), 'malformedRequest', message, { field })
  })

  it('refuses literal secrets in target URLs and policy configs (they would be echoed on read); variable references are kept', async () => {
    const URL_PASSWORD = 'url-pw-4d1f9'
    const POLICY_KEY = 'policy-key-93be2'
    const bad = (over: Record<string, unknown>) => create('users-api', { method: 'GET', path: '/secrets', operationId: 'secrets', ...over })
    const replies: unknown[] = []
    const recorded = (write: Promise<{ errors?: any[] }>) => write.then((body) => (replies.push(body), body))
    await expectRefused(recorded(bad({ routing: { targets: [{ url: `https://svc:${URL_PASSWORD}@a.example.test` }] } })), 'malformedRequest',
      'routing.targets[0].url: must not carry a user name or password: set credentials through auth', { field: 'routing.targets[0].url' })
    await expectRefused(recorded(bad({ policies: [{ name: 'key', type: 'SECURITY', config: { header: 'X-Key', apiKey: POLICY_KEY } }] })), 'malformedRequest',
      /^policies\[0\]\.config\.apiKey: carries a literal secret/, { field: 'policies[0].config.apiKey' })
    await expectRefused(recorded(bad({ policies: [{ name: 'oauth', type: 'SECURITY', config: { clients: [{ id: 'a', clientSecret: POLICY_KEY }] } }] })), 'malformedRequest',
      /^policies\[0\]\.config\.clients\[0\]\.clientSecret: carries a literal secret/, { field: 'policies[0].config.clients[0].clientSecret' })
    for (const reply of replies) {
      expect(JSON.stringify(reply)).not.toContain(URL_PASSWORD)
      expect(JSON.stringify(reply)).not.toContain(POLICY_KEY)
    }
    const ok = await create('users-api', {
      method: 'GET', path: '/secrets', operationId: 'secrets',
      policies: [{ name: 'key', type: 'SECURITY', config: { header: 'X-Key', apiKey: '${vault.users-api-key}', tokenHeaderName: 'X-Token' } }],
    })
    expect(ok.errors).toBeUndefined()
    expect(ok.data.createGatewayEndpoint.endpoint.policies[0].config).toEqual({ header: 'X-Key', apiKey: '${vault.users-api-key}', tokenHeaderName: 'X-Token' })
    await gql(DELETE, { p: 'users-api', op: 'secrets' })
  })

  it('keeps each kind to its methods and paths, and refuses endpoints on AI proxies', async () => {
    await expectRefused(create('billing-soap', { method: 'GET', path: '/Billing' }), 'malformedRequest', 'method: SOAP endpoints use POST', { field: 'method' })
    await expectRefused(create('inventory-grpc', { method: 'POST', path: '/reserve' }), 'malformedRequest', 'path: a gRPC endpoint path is /<package.Service>/<Method>', { field: 'path' })
    await expectRefused(create('inventory-grpc', { method: 'POST', path: '/a.B/C', backendMethod: 'PUT' }), 'malformedRequest', 'backendMethod: GRPC endpoints call the backend with the client method (POST)')
    await expectRefused(create('orders-api', { method: 'POST', path: '/ws', kind: 'WEBSOCKET' }), 'malformedRequest', 'method: WebSocket endpoints open with GET')
    await expectRefused(create('chat-ai', { method: 'POST', path: '/chat' }), 'malformedRequest', "API proxy 'chat-ai' is an AI proxy; gateway endpoints belong to REST, SOAP, GRPC and WEBSOCKET proxies")
    await expectRefused(create('ghost-api', { method: 'GET', path: '/x' }), 'resourceNotFound', "API proxy 'ghost-api' not found", { apiProxy: 'ghost-api' })
  })

  it('needs API_MANAGEMENT MANAGE to write and VIEW to read', async () => {
    await expectRefused(create('orders-api', { method: 'GET', path: '/frank' }, bed.frank), 'permissionDenied', "User lacks permission API_MANAGEMENT MANAGE in project 'payments'")
    await expectRefused(create('orders-api', { method: 'GET', path: '/alice' }, bed.alice), 'permissionDenied', /API_MANAGEMENT MANAGE/)
    const read = await gql(GET, { p: 'orders-api', op: 'getOrder', v: 'v1' }, bed.frank)
    expect(read.data.gatewayEndpoint.fullPath).toBe('/v1/orders/{orderId}')
    const denied = await gql(LIST, { p: 'orders-api' }, bed.alice)
    expect(denied.errors![0].extensions.errorKey).toBe('permissionDenied')
    const missing = await gql(GET, { p: 'orders-api', op: 'getOrder', v: 'v3' }, bed.frank)
    expect(missing.errors![0]).toMatchObject({ message: "Endpoint 'getOrder' not found in version 'v3' of API proxy 'orders-api'", extensions: { errorKey: 'resourceNotFound', params: { operationId: 'getOrder', version: 'v3' } } })
    const badVersion = await gql(LIST, { p: 'orders-api', v: '/v1' }, bed.frank)
    expect(badVersion.errors![0]).toMatchObject({ extensions: { errorKey: 'malformedRequest', params: { field: 'version' } } })
    const nowhere = await gql(`{ gatewayEndpointVersions(projectName: "nowhere", apiProxyName: "orders-api") { version } }`, {}, bed.frank)
    expect(nowhere.errors![0]).toMatchObject({ message: "Project 'nowhere' not found", extensions: { errorKey: 'resourceNotFound' } })
    const anon = await bed.svc.graphql(`{ gatewayEndpointVersions(projectName: "payments", apiProxyName: "orders-api") { version } }`)
    expect(anon.body.errors![0].extensions.errorKey).toBe('unauthorized')
  })

  it('updates partially: absent fields keep, a new path carries its backend path and path parameters along', async () => {
    const res = await gql(UPDATE, { p: 'orders-api', op: 'post_orders', v: 'v1', i: { description: 'Create an order', parameters: [{ name: 'note', in: 'QUERY', schema: { type: ['string', 'null'], default: null } }] } })
    expect(res.errors).toBeUndefined()
    expect(res.data.updateGatewayEndpoint.endpoint).toMatchObject({ description: 'Create an order', path: '/orders', requestBody: { required: true } })
    // JSON values are kept exactly as sent, nulls included
    expect(res.data.updateGatewayEndpoint.endpoint.parameters).toEqual([{ name: 'note', in: 'QUERY', required: false, description: null, schema: { type: ['string', 'null'], default: null } }])
    expect(bed.dev.received[0]).toMatchObject({ name: 'orders-api/v1', revision: 5 })

    await gql(CREATE, { p: 'users-api', i: { method: 'GET', path: '/users/{id}', operationId: 'getUser' } })
    const moved = await gql(UPDATE, { p: 'users-api', op: 'getUser', i: { path: '/people/{personId}' } })
    expect(moved.errors).toBeUndefined()
    expect(moved.data.updateGatewayEndpoint.endpoint).toMatchObject({
      path: '/people/{personId}', backendPath: '/people/{personId}', parameters: [{ name: 'personId', in: 'PATH', required: true }],
    })
    await expectRefused(gql(UPDATE, { p: 'orders-api', op: 'post_orders', v: 'v1', i: { method: 'GET', path: '/orders/{o}' } }), 'endpointAlreadyExists', /collides with endpoint 'getOrder'/)
    await expectRefused(gql(UPDATE, { p: 'orders-api', op: 'post_orders', v: 'v1', i: { operationId: 'getOrder' } }), 'operationIdAlreadyExists', /operationId 'getOrder' is already used/)
    await expectRefused(gql(UPDATE, { p: 'orders-api', op: 'nope', v: 'v1', i: { description: 'x' } }), 'resourceNotFound', "Endpoint 'nope' not found in version 'v1' of API proxy 'orders-api'")
    await expectRefused(gql(UPDATE, { p: 'orders-api', op: 'post_orders', v: 'v1', i: {} }), 'malformedRequest', 'Nothing to update: the body names no field')
    const unchanged = await gql(GET, { p: 'orders-api', op: 'post_orders', v: 'v1' })
    expect(unchanged.data.gatewayEndpoint).toMatchObject({ method: 'POST', path: '/orders', operationId: 'post_orders' })
  })

  it('reports a failing environment but keeps the save', async () => {
    bed.dev.status = 500
    const body = await create('users-api', { method: 'DELETE', path: '/people/{personId}', operationId: 'deletePerson' })
    expect(body.data.createGatewayEndpoint.deploymentResult).toMatchObject({ success: false, environmentResults: expect.arrayContaining([expect.objectContaining({ environmentName: 'dev', success: false })]) })
    expect((await gql(GET, { p: 'users-api', op: 'deletePerson' })).data.gatewayEndpoint.method).toBe('DELETE')
  })
})

describe('path versions side by side', () => {
  it('copies a version, deploys it beside the old one and changes one without touching the other', async () => {
    const before = (await gql(LIST, { p: 'orders-api', v: 'v1' })).data.gatewayEndpoints.totalElements
    const copy = await gql(COPY, { p: 'orders-api', from: 'v1', to: 'v2' })
    expect(copy.errors).toBeUndefined()
    expect(copy.data.copyGatewayEndpointVersion).toMatchObject({ version: 'v2', deploymentResult: { success: true } })
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY_VERSION', name: 'orders-api/v2', revision: 1, config: { basePath: '/v2' } })
    expect((bed.dev.received[0]!.config as any).endpoints).toHaveLength(before)

    const changed = await gql(UPDATE, { p: 'orders-api', op: 'getOrder', v: 'v2', i: { backendPath: '/v2/orders/{orderId}', description: 'v2 read' } })
    expect(changed.data.updateGatewayEndpoint.endpoint).toMatchObject({ fullPath: '/v2/orders/{orderId}', backendPath: '/v2/orders/{orderId}' })
    expect(bed.dev.received.map((r) => r.name)).toEqual(['orders-api/v2', 'orders-api/v2'])
    const v1 = await gql(GET, { p: 'orders-api', op: 'getOrder', v: 'v1' })
    expect(v1.data.gatewayEndpoint).toMatchObject({ description: 'Read one order', backendPath: '/internal/orders/{orderId}' })

    const versions = await bed.svc.op(GatewayEndpointVersionsDocument, { projectName: 'payments', apiProxyName: 'orders-api' }, bed.erin)
    expect(versions.data!.gatewayEndpointVersions.map(({ createdAt: _c, updatedAt: _u, ...v }) => v)).toEqual([
      { version: 'v1', basePath: '/v1', deployName: 'orders-api/v1', revision: 5, deprecated: false, endpointCount: before },
      { version: 'v2', basePath: '/v2', deployName: 'orders-api/v2', revision: 2, deprecated: false, endpointCount: before },
      { version: 'v9', basePath: '/v9', deployName: 'orders-api/v9', revision: 1, deprecated: false, endpointCount: 1 },
    ])
    const all = await gql(LIST, { p: 'orders-api' })
    expect(all.data.gatewayEndpoints.totalElements).toBe(2 * before + 1)
    const found = await gql(`{ gatewayEndpoints(projectName: "payments", apiProxyName: "orders-api", search: "ORDERS/{", sort: ["version,desc"]) { totalElements items { version operationId } } }`, {})
    expect(found.data.gatewayEndpoints.items).toEqual([
      { version: 'v9', operationId: 'getOrder' }, { version: 'v2', operationId: 'getOrder' }, { version: 'v1', operationId: 'getOrder' },
    ])
    const proxies = await gql(`{ apiProxies(projectName: "payments", size: 50) { items { name endpointVersions { version endpointCount } } } }`, {}, bed.frank)
    const byName = Object.fromEntries(proxies.data.apiProxies.items.map((p: any) => [p.name, p.endpointVersions]))
    expect(byName['orders-api']).toEqual([{ version: 'v1', endpointCount: before }, { version: 'v2', endpointCount: before }, { version: 'v9', endpointCount: 1 }])
    expect(byName['billing-soap']).toEqual([{ version: '', endpointCount: 1 }])
    expect(byName['chat-ai']).toEqual([])
  })

  it('refuses copying onto an existing version, from a missing one, or onto itself', async () => {
    await expectRefused(gql(COPY, { p: 'orders-api', from: 'v1', to: 'v2' }), 'versionAlreadyExists', "Version 'v2' of API proxy 'orders-api' already exists", { field: 'toVersion' })
    await expectRefused(gql(COPY, { p: 'orders-api', from: 'v7', to: 'v8' }), 'resourceNotFound', "API proxy 'orders-api' has no endpoints in version 'v7'")
    await expectRefused(gql(COPY, { p: 'orders-api', from: 'v1', to: 'v1' }), 'malformedRequest', 'toVersion: must differ from fromVersion')
    await expectRefused(gql(COPY, { p: 'orders-api', from: 'v1', to: '' }), 'malformedRequest', 'toVersion: must not be empty')
    await expectRefused(gql(COPY, { p: 'chat-ai', from: 'v1', to: 'v3' }), 'malformedRequest', /is an AI proxy/)
  })

  it('deprecates a version (it keeps serving) and retires another; the rest keep running', async () => {
    const dep = await gql(DEPRECATE, { p: 'orders-api', v: 'v1', d: true })
    expect(dep.data.setGatewayEndpointVersionDeprecated.deploymentResult.success).toBe(true)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', name: 'orders-api/v1', revision: 6, config: { deprecated: true } })
    await expectRefused(gql(DEPRECATE, { p: 'orders-api', v: 'v5', d: true }), 'resourceNotFound', "API proxy 'orders-api' has no version 'v5'")

    bed.dev.received.length = 0
    const retired = await gql(RETIRE, { p: 'orders-api', v: 'v9' })
    expect(retired.data.deleteGatewayEndpointVersion).toMatchObject({ version: 'v9', deploymentResult: { success: true } })
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'API_PROXY_VERSION', name: 'orders-api/v9' })])
    const versions = (await gql(VERSIONS, { p: 'orders-api' })).data.gatewayEndpointVersions.map((v: any) => [v.version, v.deprecated])
    expect(versions).toEqual([['v1', true], ['v2', false]])
    await expectRefused(gql(RETIRE, { p: 'orders-api', v: 'v9' }), 'resourceNotFound', "API proxy 'orders-api' has no endpoints in version 'v9'")
  })

  it('deleting the last endpoint of a version undeploys it', async () => {
    const del = await gql(DELETE, { p: 'inventory-grpc', op: 'post_inventory_v1_Stock_Reserve' })
    expect(del.data.deleteGatewayEndpoint).toMatchObject({ version: '', deploymentResult: { success: true } })
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', name: 'inventory-grpc' })])
    expect((await gql(VERSIONS, { p: 'inventory-grpc' })).data.gatewayEndpointVersions).toEqual([])
    await expectRefused(gql(DELETE, { p: 'inventory-grpc', op: 'post_inventory_v1_Stock_Reserve' }), 'resourceNotFound', "Endpoint 'post_inventory_v1_Stock_Reserve' not found in the unversioned endpoints of API proxy 'inventory-grpc'")
    await expectRefused(gql(DELETE, { p: 'orders-api', op: 'getOrder', v: 'v1' }, bed.frank), 'permissionDenied', /API_MANAGEMENT MANAGE/)
  })

  it('deleting the proxy deletes its endpoints and undeploys every version', async () => {
    const res = await gql(`mutation { deleteApiProxy(projectName: "payments", name: "orders-api") }`, {})
    expect(res.data.deleteApiProxy).toBe(true)
    expect(bed.dev.received.map((r) => [r.action, r.kind, r.name]).sort()).toEqual([
      ['UNDEPLOY', 'API_PROXY_VERSION', 'orders-api/v1'],
      ['UNDEPLOY', 'API_PROXY_VERSION', 'orders-api/v2'],
    ])
    const proxy = await bed.svc.deps.prisma.apiProxy.findFirst({ where: { name: 'orders-api' } })
    expect(proxy).toBeNull()
    expect(await bed.svc.deps.prisma.apiEndpointVersion.count({ where: { version: { in: ['v1', 'v2'] } } })).toBe(0)
  })
})
