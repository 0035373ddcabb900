import { beforeEach, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'

// A credential deleted through REST or GraphQL takes the API clients it owns as a consumer with it (cascade): they are
// undeployed from the environments of the project after the commit, as a declarative sync's credential delete does.
// An environment that does not acknowledge the undeploy gets it from the retry outbox.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' }, env: { OUTBOX_POLL_INTERVAL_MS: '50' } })
const base = '/apiops/projects/payments'

async function call(method: string, pathname: string, body?: unknown) {
  const res = await bed.svc.http(pathname, { method, headers: { authorization: `Bearer ${bed.root}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined })
  return { status: res.status, body: (await res.json().catch(() => null)) as any }
}
const undeploysOf = (clientId: string) => bed.dev.received.filter((m) => m.kind === 'API_CLIENT' && m.name === clientId && m.action === 'UNDEPLOY')

/** A consumer owning one ACTIVE API client, deployed to dev. */
async function consumerWithClient(username: string, clientId: string) {
  const made = await call('POST', `${base}/credentials/`, { username, password: 'undeploy-pw-1', fullName: 'c', email: 'c@example.test', roleNameList: [] })
  expect(made.status, JSON.stringify(made.body)).toBe(200)
  const client = await call('POST', '/api/api-clients', { projectName: 'payments', name: clientId, clientId, consumerUsername: username })
  expect(client.status, JSON.stringify(client.body)).toBe(200)
  expect((await call('POST', `/api/api-clients/${client.body.apiClient.apiClientKey}/actions/activate`, {})).status).toBe(200)
  expect(bed.dev.received.some((m) => m.kind === 'API_CLIENT' && m.name === clientId && m.action === 'DEPLOY')).toBe(true)
  return (await bed.svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { clientId } })).id
}

beforeEach(() => {
  bed.dev.status = 200
})

describe('a deleted credential undeploys the API clients it owns', { timeout: 120_000 }, () => {
  it('by the REST DELETE', async () => {
    await consumerWithClient('rest-consumer', 'rest-consumer-client')
    expect(undeploysOf('rest-consumer-client')).toEqual([])
    const del = await call('DELETE', `${base}/credentials/rest-consumer/`)
    expect(del.status, JSON.stringify(del.body)).toBe(200)
    expect(undeploysOf('rest-consumer-client')).toEqual([expect.objectContaining({ project: 'payments', config: expect.objectContaining({ clientId: 'rest-consumer-client' }) })])
    expect(bed.dev.received.some((m) => m.kind === 'CREDENTIAL' && m.name === 'rest-consumer' && m.action === 'UNDEPLOY')).toBe(true)
    expect(await bed.svc.deps.prisma.apiClient.count({ where: { clientId: 'rest-consumer-client' } })).toBe(0)
  })

  it('by the GraphQL deleteCredential', async () => {
    await consumerWithClient('gql-consumer', 'gql-consumer-client')
    const res = await bed.svc.graphql('mutation { deleteCredential(projectName: "payments", username: "gql-consumer") { success } }', {}, bed.root)
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined()
    expect(undeploysOf('gql-consumer-client')).toHaveLength(1)
  })

  it('an environment that does not acknowledge the undeploy gets it from the outbox', async () => {
    const id = await consumerWithClient('retry-consumer', 'retry-consumer-client')
    bed.dev.status = 500
    const del = await call('DELETE', `${base}/credentials/retry-consumer/`)
    expect(del.status, JSON.stringify(del.body)).toBe(200)
    const rows = await bed.svc.deps.prisma.deliveryOutbox.findMany({ where: { subject: { startsWith: `apiClient:${id}:` } } })
    expect(rows).toEqual([expect.objectContaining({ environmentName: 'dev', message: expect.objectContaining({ action: 'UNDEPLOY', kind: 'API_CLIENT', name: 'retry-consumer-client' }) })])
    expect(rows[0]!.deliveredAt).toBeNull()
  })
})
