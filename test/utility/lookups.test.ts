import { beforeAll, describe, expect, it } from 'vitest'
import { CRUD_EMAIL } from '../connections/examples.js'
import { useTestbed } from '../support/testbed.js'
import { PLATFORM_TOKENS, platformBootstrap } from './support.js'

// The /apiops/utility name lookups (vendor openapi.yaml, tag Utility): by id and in batches, ids as our answers show
// them, only what the caller may see (an object in a project the caller cannot see is answered like an unknown id).

const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: platformBootstrap, tokens: PLATFORM_TOKENS })
const db = () => bed.svc.deps.prisma

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await bed.svc.http(`/apiops/utility/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}
const list = (resultList: unknown[]) => ({ status: 'SUCCESS', success: true, resultList, resultCount: resultList.length })

let ids: { proxy: string; group: string; payments: string; other: string; dev: string; prod: string; connection: string }

beforeAll(async () => {
  const created = await bed.svc.http('/apiops/projects/payments/connections/my-email-connection/', {
    method: 'POST', headers: { authorization: `Bearer ${bed.root}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...CRUD_EMAIL, deployToWorker: false }),
  })
  if (created.status !== 200) throw new Error(await created.text())
  // ids as our answers show them: the GraphQL reads' id fields
  const seen = (await bed.svc.graphql('{ projects { items { id name } } apiProxies(projectName: "payments") { items { id name } } apiProxyGroups(projectName: "payments") { id name } }', {}, bed.root)).body
  const find = (rows: { id: string; name: string }[], name: string) => rows.find((r) => r.name === name)!.id
  const envs = await db().environment.findMany()
  ids = {
    proxy: find(seen.data.apiProxies.items, 'orders-api'),
    group: find(seen.data.apiProxyGroups, 'retail'),
    payments: find(seen.data.projects.items, 'payments'),
    other: find(seen.data.projects.items, 'other'),
    dev: envs.find((e) => e.name === 'dev')!.id,
    prod: envs.find((e) => e.name === 'prod')!.id,
    connection: (await db().connection.findFirstOrThrow({ where: { name: 'my-email-connection' } })).id,
  }
})

describe('GET /apiops/utility/{kind}/{id}', () => {
  it('answers each kind\'s fields for an object the caller may see', async () => {
    expect(await call('GET', `apiProxies/${ids.proxy}`, bed.frank)).toEqual({ status: 200, body: list([{ name: 'orders-api', description: null }]) })
    expect(await call('GET', `proxyGroups/${ids.group}`, bed.frank)).toEqual({ status: 200, body: list([{ id: ids.group, name: 'retail' }]) })
    expect(await call('GET', `projects/${ids.payments}`, bed.frank)).toEqual({ status: 200, body: list([{ name: 'payments', description: null }]) })
    expect(await call('GET', `connections/${ids.connection}`, bed.root)).toEqual({ status: 200, body: list([{ id: ids.connection, name: 'my-email-connection', description: 'Email connection for sending notifications' }]) })
    const full = await call('GET', `connections/${ids.connection}/full`, bed.root)
    expect(full.body.resultList).toEqual([expect.objectContaining({ type: 'email', name: 'my-email-connection', projectName: 'payments', host: 'smtp.gmail.com', password: null, passwordSet: true })])
    expect(JSON.stringify(full.body)).not.toContain('app-password')
    const env = await call('GET', `environments/${ids.dev}`, bed.frank)
    expect(env.body.resultList).toEqual([{ id: ids.dev, name: 'dev', description: null, type: 'PRODUCTION', status: expect.any(String), accessUrl: null, deployed: expect.any(Boolean), redeployRequired: expect.any(Boolean) }])
  })

  it('answers an unknown id, and one of an object the caller may not see, alike: no entry', async () => {
    const none = { status: 200, body: list([]) }
    expect(await call('GET', 'apiProxies/no-such-id', bed.frank)).toEqual(none)
    // olivia holds everything in `other`, nothing in payments: payments' objects are as unknown to her
    expect(await call('GET', `apiProxies/${ids.proxy}`, bed.olivia)).toEqual(none)
    expect(await call('GET', `proxyGroups/${ids.group}`, bed.olivia)).toEqual(none)
    expect(await call('GET', `projects/${ids.payments}`, bed.olivia)).toEqual(none)
    expect(await call('GET', `connections/${ids.connection}`, bed.olivia)).toEqual(none)
    expect(await call('GET', `connections/${ids.connection}/full`, bed.olivia)).toEqual(none)
    expect(await call('GET', `environments/${ids.prod}`, bed.olivia)).toEqual(none) // prod serves payments only
    // a member of payments without VIEW on the category: carol (IDENTITY VIEW) sees no API proxy nor connection
    expect(await call('GET', `apiProxies/${ids.proxy}`, bed.carol)).toEqual(none)
    expect(await call('GET', `connections/${ids.connection}`, bed.carol)).toEqual(none)
    expect(await call('GET', `projects/${ids.other}`, bed.olivia)).toEqual({ status: 200, body: list([{ name: 'other', description: null }]) })
    expect(await call('GET', `environments/${ids.dev}`, bed.olivia)).toMatchObject({ status: 200, body: { resultCount: 1 } }) // dev serves other too
  })
})

describe('POST /apiops/utility/{kind}/batch-names', () => {
  it('answers id and name of each visible id, in the order asked, once each; unknown and invisible ids left out', async () => {
    expect(await call('POST', 'apiProxies/batch-names', bed.frank, ['nope', ids.proxy, ids.proxy])).toEqual({ status: 200, body: list([{ id: ids.proxy, name: 'orders-api' }]) })
    expect(await call('POST', 'projects/batch-names', bed.root, [ids.other, ids.payments])).toEqual({ status: 200, body: list([{ id: ids.other, name: 'other' }, { id: ids.payments, name: 'payments' }]) })
    expect(await call('POST', 'projects/batch-names', bed.olivia, [ids.other, ids.payments])).toEqual({ status: 200, body: list([{ id: ids.other, name: 'other' }]) })
    expect(await call('POST', 'environments/batch-names', bed.olivia, [ids.dev, ids.prod])).toEqual({ status: 200, body: list([{ id: ids.dev, name: 'dev' }]) })
    expect(await call('POST', 'proxyGroups/batch-names', bed.olivia, [ids.group])).toEqual({ status: 200, body: list([]) })
    expect(await call('POST', 'connections/batch-names', bed.root, [ids.connection])).toEqual({ status: 200, body: list([{ id: ids.connection, name: 'my-email-connection' }]) })
    expect(await call('POST', 'connections/batch-names', bed.olivia, [ids.connection])).toEqual({ status: 200, body: list([]) })
  })

  it('refuses a body that is not a JSON array of ids, naming the entry', async () => {
    const refused = (resultMessage: string) => ({ status: 400, body: { status: 'FAILURE', resultMessage } })
    expect(await call('POST', 'apiProxies/batch-names', bed.frank, { ids: [ids.proxy] })).toEqual(refused('must be a JSON array of ids'))
    expect(await call('POST', 'apiProxies/batch-names', bed.frank, [ids.proxy, ' '])).toEqual(refused('[1]: must not be blank'))
    expect(await call('POST', 'apiProxies/batch-names', bed.frank, [3])).toEqual(refused('[0]: must be a string id'))
    expect(await call('POST', 'apiProxies/batch-names', bed.frank, Array.from({ length: 1001 }, (_, i) => `id-${i}`))).toEqual(refused('must hold at most 1000 ids'))
  })

  it('has GraphQL twins answering the same', async () => {
    const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) => (await bed.svc.graphql(query, variables, token)).body as any
    const out = await gql(bed.olivia, `query($ids: [String!]!, $id: String!) { utilityNames(kind: "projects", ids: $ids) { id name } hidden: utilityObject(kind: "apiProxies", id: $id) }`, { ids: [ids.payments, ids.other], id: ids.proxy })
    expect(out.data).toEqual({ utilityNames: [{ id: ids.other, name: 'other' }], hidden: null })
    const seen = await gql(bed.frank, 'query($id: String!) { utilityObject(kind: "apiProxies", id: $id) }', { id: ids.proxy })
    expect(seen.data.utilityObject).toEqual({ name: 'orders-api', description: null })
    const bad = await gql(bed.frank, '{ utilityNames(kind: "db2apisX", ids: []) { id } }')
    expect(bad.errors[0].message).toMatch(/^kind: must be one of apiProxies, /)
  })
})
