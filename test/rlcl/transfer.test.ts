import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { legacy } from '../apiproxies/automation-proxy-support.js'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { importPackage, jsonOfFile, transferExport, unzip } from '../support/zip-fixtures.js'
import { createPetstore, rlclBootstrap } from './support.js'

// RLCLs travel in transfer packages as RLCL objects: fields, condition, credentials by username and endpoint
// entries by proxy + endpoint, the credentials and API proxies as dependencies. Credential usernames are unique across an
// installation, so an RLCL bound to credentials can only land where those usernames exist: the target is the
// `payments` project of a second installation (its own database and workers) holding the same credentials
// and proxy. An import writes through the RLCL service's rules and pushes as RLCL writes do.

interface Side { svc: TestService; dev: FakeWorker; prod: FakeWorker; gina: string; root: string }
let source: Side
let target: Side

async function start(extraCredentials: string[], extraProxy: string | null): Promise<Side> {
  const [dev, prod] = await Promise.all([FakeWorker.start(), FakeWorker.start()])
  const doc = rlclBootstrap({ dev: [dev.url], prod: [prod.url] })
  type Cred = NonNullable<(typeof doc.projects)[number]['credentials']>[number]
  for (const username of extraCredentials) doc.projects[0]!.credentials!.push({ username, password: `${username}-pw-1` } as Cred)
  const svc = await startTestService({ bootstrap: doc })
  const [gina, root, erin] = await Promise.all([svc.tokenFor('gina', 'gina-pass-1'), svc.tokenFor('root', 's3cret-root'), svc.tokenFor('erin', 'erin-pass-1')])
  await createPetstore(svc, erin, 'MyAPI')
  if (extraProxy) await createPetstore(svc, erin, extraProxy)
  return { svc, dev, prod, gina, root }
}

const call = (side: Side, method: string, path: string, body?: unknown) => legacy(side.svc, method, `payments/rlcl/${path}`, side.root, body)
async function ok(res: Promise<{ status: number; body: any }>) {
  const r = await res
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return r.body
}
/** The RLCL as GET answers it, without the ids of its installation (its own, its entries' endpointId). */
const view = async (side: Side, name: string) => {
  const { id: _id, ...rest } = (await ok(call(side, 'GET', `${name}/`))).resultList[0]
  return { ...rest, endpointRateLimitList: rest.endpointRateLimitList.map(({ endpointId: _e, ...entry }: any) => entry) }
}
const pushed = (side: Side) => [...side.dev.received, ...side.prod.received]
const snapshot = async (side: Side) => {
  const p = side.svc.deps.prisma
  return JSON.stringify([
    await p.rlcl.findMany({ orderBy: { name: 'asc' }, omit: { updatedAt: true } }),
    await p.rlclCredential.findMany({ orderBy: [{ rlclId: 'asc' }, { credentialId: 'asc' }] }),
    await p.rlclEndpoint.findMany({ orderBy: [{ rlclId: 'asc' }, { position: 'asc' }] }),
    await p.credential.findMany({ orderBy: { username: 'asc' }, select: { username: true, projectId: true } }),
  ])
}

const RLCL = { name: 'PremiumUserRLCL', description: 'Rate limit for premium users', enabled: true, executionOrder: 'LAST', cacheConnectionTimeoutInSeconds: 5, cacheErrorHandlingType: 'CONTINUE', timeIntervalWindowType: 'SLIDING', showRateLimitStatisticsInResponseHeader: true, targetVariable: { name: 'client.ip', type: 'CONTEXT', dataType: 'STRING' } }
const entry = (apiProxyName: string, endpointName: string, endpointHTTPMethod: string, permittedMessageCount: number) => ({
  apiProxyName, endpointName, endpointHTTPMethod, permittedMessageCount, timeIntervalPeriodLength: 1, timeInterval: 'ONE_MINUTE',
  cacheConnectionTimeoutInSeconds: 3, cacheErrorHandlingType: 'FAIL', timeIntervalWindowType: 'FIXED', showRateLimitStatisticsInResponseHeader: false, enabled: true,
})
// the add-condition page's example at 319c71d (the current vocabulary; test/rlcl/rlcl.test.ts covers the earlier words)
const CONDITION = { conditionRuleList: [{ conditionCriteria: 'VALUE', firstVariable: { name: 'userTypeHeader', type: 'HEADER', headerName: 'X-User-Type' }, variableDataType: 'STRING', valueComparisonOperator: 'EQ', secondValueSource: 'VALUE', secondValue: 'PREMIUM' }] }

beforeAll(async () => {
  // the source alone holds the credential `source-only` and the proxy `SourceOnlyAPI`
  source = await start(['source-only'], 'SourceOnlyAPI')
  target = await start([], null)
  await ok(call(source, 'POST', '', RLCL))
  await ok(call(source, 'POST', 'PremiumUserRLCL/credentials/', { credentialNameList: ['api-user-1', 'api-user-2'] }))
  await ok(call(source, 'POST', 'PremiumUserRLCL/endpoints/', { endpointRateLimitList: [entry('MyAPI', '/pets', 'GET', 100), { ...entry('MyAPI', 'ALL', 'ALL', 1000), targetIdentityValue: 'tenant-a' }] }))
  await ok(call(source, 'POST', 'PremiumUserRLCL/condition/', CONDITION))
}, 120_000)
afterEach(() => {
  for (const side of [source, target]) {
    side.dev.received.length = 0
    side.prod.received.length = 0
  }
})
afterAll(async () => {
  for (const side of [source, target]) {
    await side?.svc.close()
    await Promise.all([side?.dev.stop(), side?.prod.stop()])
  }
})

describe('an RLCL through export and import', () => {
  it('is packaged with its condition, credentials and endpoint entries, the credentials and API proxies as dependencies', async () => {
    const { bytes } = await transferExport(source.svc, source.gina, 'payments', { formatVersion: 1, type: 'RLCL', names: ['PremiumUserRLCL'] })
    const files = unzip(bytes)
    const object = jsonOfFile(files, 'PremiumUserRLCL.json')
    const expected = await view(source, 'PremiumUserRLCL')
    const { name: _name, ...data } = expected
    expect(object).toMatchObject({ type: 'RLCL', kind: null, name: 'PremiumUserRLCL', role: 'SELECTED', data, secrets: {} })
    expect(object.data.credentialNameList).toEqual(['api-user-1', 'api-user-2'])
    expect(object.data.endpointRateLimitList.map((e: any) => [e.apiProxyName, e.endpointName, e.endpointHTTPMethod, e.permittedMessageCount])).toEqual([['MyAPI', '/pets', 'GET', 100], ['MyAPI', 'ALL', 'ALL', 1000]])
    expect(object.data.condition).toEqual(CONDITION)
    expect(object.dependencies).toEqual([{ type: 'CREDENTIAL', kind: null, name: 'api-user-1' }, { type: 'CREDENTIAL', kind: null, name: 'api-user-2' }, { type: 'API_PROXY', kind: null, name: 'MyAPI' }])
  })

  it('NEW: arrives as it left, is resolved against the target credentials, proxy and endpoints, and is pushed', async () => {
    const { bytes } = await transferExport(source.svc, source.gina, 'payments', { formatVersion: 1, type: 'RLCL', names: ['PremiumUserRLCL'] })
    const imported = await importPackage(target.svc, target.gina, 'payments', 'RLCL', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body.imported).toEqual([{ type: 'RLCL', kind: null, name: 'PremiumUserRLCL' }])
    expect(imported.body.advisories).toEqual([])
    // without withDependencies the proxy is not packaged: it is found by name in the target
    expect(imported.preflight.dependencies.map((d: any) => [d.type, d.name, d.resolvedByName])).toEqual([['CREDENTIAL', 'api-user-1', true], ['CREDENTIAL', 'api-user-2', true], ['API_PROXY', 'MyAPI', true]])
    expect(await view(target, 'PremiumUserRLCL')).toEqual(await view(source, 'PremiumUserRLCL'))

    // the target's own rows: its credentials and endpoints, not the source's ids
    const stored = await target.svc.deps.prisma.rlcl.findFirstOrThrow({ where: { name: 'PremiumUserRLCL' }, include: { credentials: { include: { credential: true } }, endpoints: { include: { endpoint: true, apiProxy: true } } } })
    expect(stored.revision).toBe(1)
    expect(stored.credentials.every((c) => c.credential.projectId === stored.projectId)).toBe(true)
    expect(stored.endpoints.every((e) => e.apiProxy.projectId === stored.projectId)).toBe(true)

    for (const worker of [target.dev, target.prod]) {
      expect(worker.received.map((m: any) => [m.action, m.kind, m.name, m.revision])).toEqual([['DEPLOY', 'RLCL', 'PremiumUserRLCL', 1]])
      expect(worker.received[0]).toMatchObject({
        project: 'payments',
        config: { name: 'PremiumUserRLCL', credentialNameList: ['api-user-1', 'api-user-2'], condition: CONDITION, endpoints: [{ endpointName: '/pets', endpointHTTPMethod: 'GET' }, { endpointName: 'ALL', targetIdentityValue: 'tenant-a' }] },
      })
      expect((worker.received[0] as any).config.endpoints[0].rules).toBeTruthy()
    }
    expect(pushed(source)).toEqual([])
  })

  it('REPLACE: the target RLCL becomes the packaged one (fields, credentials, entries, condition), revision bumped, pushed again', async () => {
    await ok(call(source, 'PUT', 'PremiumUserRLCL/', { ...RLCL, description: 'now stricter', enabled: false }))
    await ok(call(source, 'PUT', 'PremiumUserRLCL/credentials/', { credentialNameList: ['api-user-2'] }))
    await ok(call(source, 'PUT', 'PremiumUserRLCL/endpoints/', { endpointRateLimitList: [entry('MyAPI', '/pets/{petId}', 'GET', 7), entry('MyAPI', '/pets', 'POST', 3)] }))
    await ok(call(source, 'DELETE', 'PremiumUserRLCL/condition/'))
    const { bytes } = await transferExport(source.svc, source.gina, 'payments', { formatVersion: 1, type: 'RLCL', names: ['PremiumUserRLCL'] })

    const replaced = await importPackage(target.svc, target.gina, 'payments', 'RLCL', bytes, { conflictPolicy: 'REPLACE' })
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    const after = await view(target, 'PremiumUserRLCL')
    expect(after).toEqual(await view(source, 'PremiumUserRLCL'))
    expect(after).toMatchObject({ description: 'now stricter', enabled: false, condition: null, credentialNameList: ['api-user-2'] })
    expect(after.endpointRateLimitList.map((e: any) => [e.endpointName, e.endpointHTTPMethod, e.permittedMessageCount])).toEqual([['/pets/{petId}', 'GET', 7], ['/pets', 'POST', 3]])
    const stored = await target.svc.deps.prisma.rlcl.findFirstOrThrow({ where: { name: 'PremiumUserRLCL' } })
    expect(stored.revision).toBeGreaterThan(1)
    for (const worker of [target.dev, target.prod]) {
      expect(worker.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'RLCL', name: 'PremiumUserRLCL', revision: stored.revision, config: { description: 'now stricter', condition: null, credentialNameList: ['api-user-2'] } })
    }
  })

  it.each([
    ['a credential', { credentialNameList: ['source-only'] }, { credential: 'source-only' }, 'Credential with name (source-only) is not found in project!'],
    ['an API proxy', { endpointRateLimitList: [entry('SourceOnlyAPI', '/pets', 'GET', 5)] }, { apiProxy: 'SourceOnlyAPI' }, 'API Proxy with name (SourceOnlyAPI) is not found in project!'],
  ])('a package whose RLCL names %s missing on the target is refused, nothing written, nothing pushed', async (_what, change, params, message) => {
    const name = `Lonely${Object.keys(params)[0]}`
    await ok(call(source, 'POST', '', { ...RLCL, name }))
    await ok(call(source, 'POST', `${name}/${'credentialNameList' in change ? 'credentials' : 'endpoints'}/`, change))
    const { bytes } = await transferExport(source.svc, source.gina, 'payments', { formatVersion: 1, type: 'RLCL', names: [name] })
    const before = await snapshot(target)
    const refused = await importPackage(target.svc, target.gina, 'payments', 'RLCL', bytes)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'rlclReferenceMissing', rlcl: name, ...params } })
    expect(JSON.stringify(refused.body)).toContain(message)
    expect(await snapshot(target)).toBe(before)
    expect(pushed(target)).toEqual([])
  })

  it('withDependencies carries the credential along: the same package then imports, credential first', async () => {
    const { bytes } = await transferExport(source.svc, source.root, 'payments', { formatVersion: 1, type: 'RLCL', names: ['Lonelycredential'], withDependencies: true })
    const manifest = jsonOfFile(unzip(bytes), 'service-transfer-manifest.json')
    expect(manifest.objects.map((o: any) => [o.role, o.type, o.name])).toEqual(expect.arrayContaining([['SELECTED', 'RLCL', 'Lonelycredential'], ['DEPENDENCY', 'CREDENTIAL', 'source-only']]))
    const imported = await importPackage(target.svc, target.root, 'payments', 'RLCL', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.body.imported).toEqual([{ type: 'RLCL', kind: null, name: 'Lonelycredential' }, { type: 'CREDENTIAL', kind: null, name: 'source-only' }])
    expect((await view(target, 'Lonelycredential')).credentialNameList).toEqual(['source-only'])
    expect(pushed(target).filter((m: any) => m.kind === 'RLCL').map((m: any) => m.name)).toEqual(['Lonelycredential', 'Lonelycredential'])
  })

  it('withDependencies carries the API proxy along: written before the RLCL, which then finds its endpoints', async () => {
    const { bytes } = await transferExport(source.svc, source.gina, 'payments', { formatVersion: 1, type: 'RLCL', names: ['LonelyapiProxy'], withDependencies: true })
    const manifest = jsonOfFile(unzip(bytes), 'service-transfer-manifest.json')
    expect(manifest.objects.map((o: any) => [o.role, o.type, o.name])).toEqual(expect.arrayContaining([['SELECTED', 'RLCL', 'LonelyapiProxy'], ['DEPENDENCY', 'API_PROXY', 'SourceOnlyAPI']]))
    const imported = await importPackage(target.svc, target.gina, 'payments', 'RLCL', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.preflight.dependencies).toEqual([expect.objectContaining({ type: 'API_PROXY', name: 'SourceOnlyAPI', resolvedByName: false })])
    expect(imported.body.imported).toEqual([{ type: 'RLCL', kind: null, name: 'LonelyapiProxy' }, { type: 'API_PROXY', kind: null, name: 'SourceOnlyAPI' }])
    expect(imported.body.advisories).toEqual([])
    const proxy = await target.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'SourceOnlyAPI', project: { name: 'payments' } }, include: { endpoints: true } })
    expect(proxy.endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(['GET /pets', 'GET /pets/{petId}', 'POST /pets'])
    expect((await view(target, 'LonelyapiProxy')).endpointRateLimitList.map((e: any) => [e.apiProxyName, e.endpointName, e.endpointHTTPMethod])).toEqual([['SourceOnlyAPI', '/pets', 'GET']])
  })
})
