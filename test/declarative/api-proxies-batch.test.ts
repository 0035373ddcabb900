import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { declarativeDoors } from './support.js'

// Issue 29 §7: an apply writes the new API proxies of a file together (the API_PROXY adapter's writeMany: the
// checks of each proxy's write for the batch, then one INSERT of the proxies, one of their endpoints and one of their
// policies). What it writes is what the one-by-one write writes; every refused proxy is named with its path and
// reason, and nothing is written.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const { call, plan, apply } = declarativeDoors(bed)

const script = (body: string) => ({ type: 'policy-script', executionType: 'SYNC', scriptLanguage: 'GROOVY', scriptBody: body, active: true })
const proxy = (name: string, extra: object = {}) => ({
  name, description: `the ${name} proxy`, relativePath: `/${name}`,
  endpoints: [{ method: 'GET', path: '/items' }, { method: 'POST', path: '/items' }, { method: 'GET', path: '/items/{id}', description: 'one item' }],
  ...extra,
})
const PROXIES = [
  proxy('batch-a', {
    policies: [
      { name: 'all-script', pipeline: 'REQUEST', order: 1, endpoint: null, policy: script('b') },
      { name: 'items-script', pipeline: 'RESPONSE', order: 1, endpoint: { version: '', method: 'GET', path: '/items' }, policy: script('a') },
    ],
  }),
  proxy('batch-b'),
  proxy('batch-c', { endpoints: [] }),
  proxy('batch-d', { relativePath: null }),
]
const doc = (project: string, apiProxies: object[]) => ({ formatVersion: 1, project, namespace: 'proxies-team', apiProxies })
const stored = async (project: string) => {
  const dump = await call('GET', `/apiops/projects/${project}/declarative-state?collections=apiProxies`)
  expect(dump.status, JSON.stringify(dump.body)).toBe(200)
  return dump.body.apiProxies.filter((p: any) => p.name.startsWith('batch-')).map(({ managedBy: _m, ...p }: any) => p)
}
const counts = async () => {
  const db = bed.svc.deps.prisma
  return { proxies: await db.apiProxy.count(), endpoints: await db.gatewayEndpoint.count(), policies: await db.apiProxyPolicy.count(), audit: await db.auditEvent.count({ where: { declarativePlanId: { not: null } } }) }
}

describe('API proxies written as a batch', { timeout: 180_000 }, () => {
  it('writes a file\'s new proxies together, as the one-by-one write does; the file then plans to 0 changes', async () => {
    const batch = await plan(doc('payments', PROXIES), 'sync')
    expect(batch.body.summary, JSON.stringify(batch.body)).toEqual({ create: 4, update: 0, delete: 0 })
    const applied = await apply(batch.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    // the same proxies one plan each (a batch of one: the adapter's write) into another project
    for (const p of PROXIES) {
      const one = await plan(doc('other', [p]), 'apply', 'other')
      expect(one.body.summary, JSON.stringify(one.body)).toEqual({ create: 1, update: 0, delete: 0 })
      expect((await apply(one.body.id, 'other')).status).toBe(200)
    }
    const [batched, single] = [await stored('payments'), await stored('other')]
    expect(batched.map((p: any) => p.name)).toEqual(['batch-a', 'batch-b', 'batch-c', 'batch-d'])
    expect(batched).toEqual(single)
    expect(batched[0]).toMatchObject({ relativePath: '/batch-a', description: 'the batch-a proxy' })
    expect(batched[0].endpoints.map((e: any) => `${e.method} ${e.path}`)).toEqual(['GET /items', 'POST /items', 'GET /items/{id}'])
    expect(batched[0].policies).toEqual([
      expect.objectContaining({ name: 'all-script', pipeline: 'REQUEST', order: 1, endpoint: null, policy: expect.objectContaining({ type: 'policy-script', scriptBody: 'b' }) }),
      expect.objectContaining({ name: 'items-script', pipeline: 'RESPONSE', order: 1, endpoint: { version: '', method: 'GET', path: '/items' } }),
    ])
    const rows = await bed.svc.deps.prisma.apiProxy.findMany({ where: { name: { startsWith: 'batch-' }, project: { name: 'payments' } }, orderBy: { name: 'asc' } })
    expect(rows.map((r) => [r.name, r.kind, r.revision])).toEqual([['batch-a', 'REST', 1], ['batch-b', 'REST', 1], ['batch-c', 'REST', 1], ['batch-d', 'REST', 1]])
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: batch.body.id }, select: { objectName: true, declarativeAction: true }, orderBy: { objectName: 'asc' } })
    expect(audit).toEqual(PROXIES.map((p) => ({ objectName: p.name, declarativeAction: 'create' })))
    const again = await plan(doc('payments', PROXIES), 'sync')
    expect(again.body.summary, JSON.stringify(again.body.changes)).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('refuses every bad proxy of a batch by its path and reason, with an update among them, and writes nothing', async () => {
    const before = await counts()
    const p = await plan(doc('payments', [
      ...PROXIES.slice(0, 3).map((x, i) => (i === 1 ? { ...x, description: 'changed' } : x)),
      proxy('batch-ok'),
      proxy('batch-path-taken', { relativePath: '/batch-a' }),
      proxy('batch-twin-1', { relativePath: '/twin' }),
      proxy('batch-twin-2', { relativePath: '/twin' }),
      proxy('batch-bad-endpoint', { endpoints: [{ method: 'FETCH', path: '/x' }] }),
      proxy('batch-bad-policy', { policies: [{ name: 'p', pipeline: 'REQUEST', order: 1, endpoint: { version: '', method: 'GET', path: '/nowhere' }, policy: script('c') }] }),
      proxy('BATCH-D', { relativePath: '/upper' }),
    ]), 'sync')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.summary, JSON.stringify(p.body.changes.filter((c: any) => c.action === 'update'))).toEqual({ create: 7, update: 1, delete: 1 })
    const refused = await apply(p.body.id)
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'declarativeApplyRefused' } })
    expect(refused.body.params.errors.map((e: any) => [e.name, e.path, e.reason])).toEqual([
      ['batch-bad-endpoint', 'apiProxies[7].API_PROXY/batch-bad-endpoint', 'malformedRequest'],
      ['batch-bad-policy', 'apiProxies[8].API_PROXY/batch-bad-policy', 'malformedRequest'],
      ['batch-path-taken', 'apiProxies[4].API_PROXY/batch-path-taken', 'relativePathAlreadyUsed'],
      ['batch-twin-2', 'apiProxies[6].API_PROXY/batch-twin-2', 'relativePathAlreadyUsed'],
      ['BATCH-D', 'apiProxies[9]', 'nameAlreadyExists'],
    ])
    const messages = Object.fromEntries(refused.body.params.errors.map((e: any) => [e.name, e.message]))
    expect(messages['batch-bad-endpoint']).toMatch(/endpoints\[0\]/)
    expect(messages['batch-bad-policy']).toMatch(/policies\[0\]\.endpoint: GET \/nowhere is not an endpoint of the package/)
    expect(messages['batch-path-taken']).toMatch(/relative path '\/batch-a' is already that of API proxy 'batch-a'/)
    expect(messages['batch-twin-2']).toMatch(/relative path '\/twin' is already that of API proxy 'batch-twin-1'/)
    expect(messages['BATCH-D']).toBe("API proxy 'batch-d' already exists")
    expect(await counts()).toEqual(before)
    expect((await stored('payments')).find((x: any) => x.name === 'batch-b').description).toBe('the batch-b proxy')
  })
})
