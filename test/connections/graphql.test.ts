import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import * as ex from './examples.js'
import { udpServer } from './servers.js'
import { snapshot, startConnectionEnv, type ConnectionEnv } from './support.js'

// The GraphQL door of connections (a typed view with a JSON config), and the webhook type's two doors.
let env: ConnectionEnv
const BASE = '/apiops/projects/MyProject/connections'
const FIELDS = 'type name description deployToWorker enabled config secretFields secretsSet'
const gql = (user: string, query: string, variables: Record<string, unknown> = {}) => env.svc.graphql(query, variables, env.tokens[user])

beforeAll(async () => {
  env = await startConnectionEnv({ CONNECTION_TEST_ALLOW_PRIVATE: 'true' })
})
afterAll(async () => {
  await env?.close()
})

const CREATE = `mutation($type: String!, $name: String!, $config: JSON!, $description: String, $deployToWorker: Boolean) {
  createConnection(projectName: "MyProject", type: $type, name: $name, config: $config, description: $description, deployToWorker: $deployToWorker) {
    connection { ${FIELDS} } deploymentResult { success environmentResults { environmentName success } }
  }
}`

describe('queries and mutations', () => {
  it('createConnection: the same rules and pushes as POST; the view hides secrets', async () => {
    const { type, name, description, ...config } = ex.RABBITMQ
    const res = await gql('manager', CREATE, { type, name, description, config })
    expect(res.body.errors).toBeUndefined()
    const out = res.body.data.createConnection
    expect(out.deploymentResult).toEqual({ success: true, environmentResults: [{ environmentName: 'production', success: true }, { environmentName: 'staging', success: true }] })
    expect(out.connection).toMatchObject({ type: 'rabbitMq', name, description, deployToWorker: true, enabled: true, secretFields: ['connectionFactoryPassword'], secretsSet: ['connectionFactoryPassword'] })
    expect(out.connection.config).toMatchObject({ hostPortList: [{ host: 'rabbitmq.example.com', port: 5672 }], connectionFactoryPassword: null, connectionFactoryPasswordSet: true })
    expect(env.workers.production.received.at(-1)).toMatchObject({ kind: 'CONNECTION', name, config: { connectionFactoryPassword: 'guest' } })
    const rest = await env.json('viewer', 'GET', `${BASE}/${name}/`)
    expect(rest.body.resultList[0]).toEqual({ type, name, description, deployToWorker: true, enabled: true, ...out.connection.config })
  })

  it('connections (with and without type), connection, updateConnection (rename keeps secrets), deleteConnection', async () => {
    await gql('manager', CREATE, { type: 'syslog', name: 'gql-syslog', config: { syslogServerHostname: 'syslog.example.com' } })
    const list = await gql('viewer', '{ connections(projectName: "MyProject", type: "syslog") { name type } all: connections(projectName: "MyProject") { name } }')
    expect(list.body.data).toEqual({ connections: [{ name: 'gql-syslog', type: 'syslog' }], all: [{ name: 'gql-syslog' }, { name: 'my-rabbitmq-connection' }] })
    const upd = await gql('manager', `mutation { updateConnection(projectName: "MyProject", name: "my-rabbitmq-connection", type: "rabbitMq", newName: "rabbit-2", config: { channelExchange: "events" }) { connection { name config } } }`)
    expect(upd.body.data.updateConnection.connection).toMatchObject({ name: 'rabbit-2', config: { channelExchange: 'events', connectionFactoryPasswordSet: true } })
    const one = await gql('viewer', '{ connection(projectName: "MyProject", name: "RABBIT-2") { name secretsSet } }')
    expect(one.body.data.connection).toEqual({ name: 'rabbit-2', secretsSet: ['connectionFactoryPassword'] })
    const del = await gql('manager', 'mutation { deleteConnection(projectName: "MyProject", name: "gql-syslog") { success } }')
    expect(del.body.data.deleteConnection).toEqual({ success: true })
  })

  it('testConnection: the twin of POST …/test; writes nothing', async () => {
    const udp = await udpServer()
    try {
      await gql('manager', CREATE, { type: 'syslog', name: 'gql-udp', deployToWorker: false, config: { syslogServerHostname: '127.0.0.1', syslogPort: udp.port, syslogProtocolType: 'UDP' } })
      const before = await snapshot(env.svc)
      const res = await gql('manager', 'mutation { testConnection(projectName: "MyProject", name: "gql-udp") { success message durationMs } }')
      expect(res.body.data.testConnection).toEqual({ success: true, message: expect.stringMatching(/^Sent a test message to udp:\/\/127\.0\.0\.1:/), durationMs: expect.any(Number) })
      expect(udp.received).toHaveLength(1)
      expect(await snapshot(env.svc)).toBe(before)
    } finally {
      await udp.close()
    }
  })

  it('errors carry errorKey and params: malformedRequest naming the field, nameAlreadyExists, resourceNotFound, permissionDenied', async () => {
    const before = await snapshot(env.svc)
    const bad = await gql('manager', CREATE, { type: 'ldap', name: 'gql-ldap', config: { ...ex.LDAP, serverAddress: 'ldapx://h' } })
    expect(bad.body.errors?.[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'serverAddress' } })
    const dup = await gql('manager', CREATE, { type: 'syslog', name: 'RABBIT-2', config: { syslogServerHostname: 'h' } })
    expect(dup.body.errors?.[0].extensions).toMatchObject({ errorKey: 'nameAlreadyExists', params: { field: 'name' } })
    const missing = await gql('viewer', '{ connection(projectName: "MyProject", name: "nope") { name } }')
    expect(missing.body.errors?.[0].extensions).toMatchObject({ errorKey: 'resourceNotFound', params: { connection: 'nope' } })
    const denied = await gql('viewer', CREATE, { type: 'syslog', name: 'v', config: { syslogServerHostname: 'h' } })
    expect(denied.body.errors?.[0].extensions).toMatchObject({ errorKey: 'permissionDenied', params: { category: 'CONNECTION', level: 'MANAGE' } })
    expect(await snapshot(env.svc)).toBe(before)
  })
})

describe('webhook: one object, two doors', () => {
  const WH = `name environment method fullUrl timeout headers { name value } connectionsPerHost totalPoolConnections batching { enabled maxEvents }`

  it('created under /apiops, it is the WebhookConnection of the webhook API (and back)', async () => {
    expect((await env.json('manager', 'POST', `${BASE}/my-webhook-connection/`, ex.WEBHOOK)).status).toBe(200)
    const seen = await gql('root', `{ webhookConnection(name: "my-webhook-connection") { ${WH} } }`)
    expect(seen.body.data.webhookConnection).toEqual({
      name: 'my-webhook-connection', environment: 'production', method: 'POST', fullUrl: 'https://webhook.example.com/api/notify', timeout: 5,
      headers: [{ name: 'Content-Type', value: 'application/json' }], connectionsPerHost: 24, totalPoolConnections: 48, batching: { enabled: false, maxEvents: 100 },
    })
    // a GraphQL-only field set there survives an /apiops update, and the /apiops update shows on GraphQL
    const upd = await gql('root', 'mutation { updateWebhookConnection(name: "my-webhook-connection", input: { batching: { enabled: true, maxEvents: 7 }, timeout: 9 }) { timeout } }')
    expect(upd.body.data.updateWebhookConnection).toEqual({ timeout: 9 })
    expect((await env.json('viewer', 'GET', `${BASE}/my-webhook-connection/`)).body.resultList[0]).toMatchObject({ type: 'webhook', timeout: 9, httpMethod: 'POST' })
    expect((await env.json('manager', 'PUT', `${BASE}/my-webhook-connection/`, { type: 'webhook', httpMethod: 'PUT', environment: 'staging' })).status).toBe(200)
    expect(env.workers.staging.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'CONNECTION', name: 'my-webhook-connection', revision: 2, config: { type: 'webhook', httpMethod: 'PUT', batching: { enabled: true, maxEvents: 7 } } })
    const after = await gql('root', `{ webhookConnection(name: "my-webhook-connection") { ${WH} } }`)
    expect(after.body.data.webhookConnection).toMatchObject({ method: 'PUT', environment: 'staging', timeout: 9, batching: { enabled: true, maxEvents: 7 } })
    // deleted through GraphQL, it is gone from /apiops too
    expect((await gql('root', 'mutation { deleteWebhookConnection(name: "my-webhook-connection") }')).body.data).toEqual({ deleteWebhookConnection: true })
    expect((await env.json('viewer', 'GET', `${BASE}/my-webhook-connection/`)).status).toBe(400)
  })

  it('an installation-wide webhook (GraphQL, no project) is not a project connection, and its name stays taken', async () => {
    const created = await gql('root', 'mutation { createWebhookConnection(input: { name: "global-hook", environment: "staging", method: "GET", fullUrl: "https://example.com/h" }) { name } }')
    expect(created.body.data.createWebhookConnection).toEqual({ name: 'global-hook' })
    expect((await env.json('viewer', 'GET', `${BASE}/global-hook/`)).status).toBe(400)
    const res = await env.json('manager', 'POST', `${BASE}/global-hook/`, { ...ex.WEBHOOK, name: 'global-hook' })
    expect(res).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: 'Connection (name: global-hook) already exists!' } })
  })
})
