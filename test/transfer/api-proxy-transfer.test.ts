import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { automationBootstrap, legacy, PETSTORE } from '../apiproxies/automation-proxy-support.js'
import { startTestService, type TestService } from '../support/app.js'
import { importPackage, importRun, jsonOfFile, postJson, preflight, transferExport, unzip } from '../support/zip-fixtures.js'

// API proxies travel through the transfer endpoints as API_PROXY objects (docs/transfer.md), in the portable form
// of their own export page (endpoints, policies, settings), every secret per secretHandling: here from project
// `payments` to project `other` of one installation.

let svc: TestService
let gina: string // payments: MANAGE, DEPLOY_UNDEPLOY, EXPORT_IMPORT; other: MANAGE, EXPORT_IMPORT
let frank: string // payments: VIEW only

const NTLM = 'ntlm-transfer-pass-1'
const WS = 'ws-transfer-pass-2'
const SELECTION = { formatVersion: 1, type: 'API_PROXY', names: ['MyAPI'] }
const call = (method: string, path: string, body?: unknown) => legacy(svc, method, `payments/apiProxies/${path}`, gina, body)

/** The proxy as the transfer carries it from a project (its portable data and secret keys). */
async function portableIn(project: string) {
  const { bytes } = await transferExport(svc, gina, project, { ...SELECTION, secretHandling: 'NONE' })
  const object = jsonOfFile(unzip(bytes), 'MyAPI.json')
  return { data: object.data, secrets: Object.keys(object.secrets).sort() }
}
async function secretsIn(project: string) {
  const proxy = await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'MyAPI', project: { name: project } }, include: { policies: true } })
  const open = (v: unknown) => (typeof v === 'string' ? svc.deps.keyring.decrypt(v) : null)
  return { ntlm: open((proxy.settings as any).ntlm?.password), ws: open((proxy.policies.find((p) => p.name === 'ws-user')!.config as any).password), revision: proxy.revision }
}
const snapshot = async () => JSON.stringify(await svc.deps.prisma.apiProxy.findMany({ orderBy: [{ projectId: 'asc' }, { name: 'asc' }], include: { endpoints: { orderBy: { path: 'asc' } }, policies: { orderBy: { name: 'asc' } } } }))

beforeAll(async () => {
  const doc = automationBootstrap({ dev: [], prod: [] })
  // the keys a proxy names travel beside it with withDependencies: that needs EXPORT_IMPORT on certificates too
  const certificates = [{ category: 'CERTIFICATE', level: 'MANAGE' }, { category: 'CERTIFICATE', level: 'EXPORT_IMPORT' }]
  doc.projects[0]!.members!.find((m) => m.username === 'gina')!.permissions!.push(...certificates)
  doc.projects[1]!.members = [{ username: 'gina', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'EXPORT_IMPORT' }, ...certificates] }]
  svc = await startTestService({ bootstrap: doc })
  ;[gina, frank] = await Promise.all([svc.tokenFor('gina', 'gina-pass-1'), svc.tokenFor('frank', 'frank-pass-1')])
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyDescription: 'Pets', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/my-api'] }, routingInfo: { routingAddressList: [{ address: 'https://backend.example.com' }] } }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  const steps = [
    await call('POST', 'file/', form),
    await call('PATCH', 'MyAPI/settings/ntlm/', { enabled: true, domain: 'CORP', username: 'svc', password: NTLM }),
    await call('PATCH', 'MyAPI/settings/circuit-breaker/', { circuitBreakerEnabled: true, errorWindow: 90 }),
    await call('POST', 'MyAPI/policies/ws-user/', { operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false }, policy: { type: 'policy-ws-security-username', username: 'soap-user', passwordType: 'PasswordText', password: WS } }),
    await call('POST', 'MyAPI/policies/pets-script/', { operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/pets', targetEndpointHTTPMethod: 'GET', targetPipeline: 'RESPONSE', deploy: false }, policy: { type: 'policy-script', executionType: 'SYNC', scriptLanguage: 'GROOVY', scriptBody: 'x' } }),
  ]
  for (const step of steps) if (step.status !== 200) throw new Error(JSON.stringify(step.body))
})
afterAll(async () => {
  await svc?.close()
})

describe('API_PROXY through the transfer endpoints', () => {
  it('preview and run package the proxy with its secrets apart (default CIPHERTEXT_VERBATIM)', async () => {
    const { preview, bytes } = await transferExport(svc, gina, 'payments', SELECTION)
    expect(preview).toMatchObject({ type: 'API_PROXY', objects: [{ type: 'API_PROXY', kind: null, name: 'MyAPI' }], dependencies: [], secretHandling: 'CIPHERTEXT_VERBATIM', advisories: [] })
    const object = jsonOfFile(unzip(bytes), 'MyAPI.json')
    expect(object).toMatchObject({ type: 'API_PROXY', kind: null, name: 'MyAPI', role: 'SELECTED', data: { kind: 'REST', description: 'Pets', relativePath: '/my-api' } })
    expect(object.data.endpoints).toHaveLength(3)
    expect(object.data.policies.map((p: any) => p.name).sort()).toEqual(['pets-script', 'ws-user'])
    expect(object.secrets).toEqual({
      'policies/ws-user/password': { handling: 'CIPHERTEXT_VERBATIM', value: expect.stringMatching(/^v1\./) },
      'settings/ntlm.password': { handling: 'CIPHERTEXT_VERBATIM', value: expect.stringMatching(/^v1\./) },
    })
    const text = [...unzip(bytes).values()].map((b) => b.toString('utf8')).join('\n')
    for (const clear of [NTLM, WS]) expect(text).not.toContain(clear)
  })

  it('an export without EXPORT_IMPORT is refused', async () => {
    const res = await postJson(svc, frank, '/apiops/projects/payments/transfer-export-previews', SELECTION)
    expect(res.res.status).toBe(403)
  })

  it('preflight and NEW import into another project: the same proxy, secrets restored, nothing deployed', async () => {
    const { bytes } = await transferExport(svc, gina, 'payments', SELECTION)
    const pre = await preflight(svc, gina, 'other', 'API_PROXY', bytes)
    expect(pre.status).toBe(200)
    expect(pre.body).toMatchObject({ type: 'API_PROXY', detectedType: 'API_PROXY', objects: [{ type: 'API_PROXY', name: 'MyAPI' }], dependencies: [], replaceTargets: [], blockers: [], advisories: [] })
    const run = await importRun(svc, gina, 'other', bytes, { formatVersion: 1, type: 'API_PROXY', preflightDigest: pre.body.preflightDigest })
    expect(run.status, JSON.stringify(run.body)).toBe(200)
    expect(run.body).toMatchObject({ imported: [{ type: 'API_PROXY', kind: null, name: 'MyAPI' }], advisories: [], unresolvedReferences: [] })
    expect(await portableIn('other')).toEqual(await portableIn('payments'))
    expect(await secretsIn('other')).toEqual({ ntlm: NTLM, ws: WS, revision: 1 })
    expect(await svc.deps.prisma.apiProxyDeployment.count()).toBe(0)
  })

  it('NEW refuses a name already taken in the target, nothing written', async () => {
    const { bytes } = await transferExport(svc, gina, 'payments', SELECTION)
    const before = await snapshot()
    const pre = await preflight(svc, gina, 'other', 'API_PROXY', bytes)
    expect(pre.body.replaceTargets).toEqual(['MyAPI'])
    const run = await importRun(svc, gina, 'other', bytes, { formatVersion: 1, type: 'API_PROXY', preflightDigest: pre.body.preflightDigest })
    expect(run.status).toBe(400)
    expect(run.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'importNameCollision', names: ['MyAPI'] } })
    expect(await snapshot()).toBe(before)
  })

  it('REPLACE with secretHandling NONE: the source\'s changes land, the target keeps its secrets, the advisory names them', async () => {
    expect((await call('PATCH', 'MyAPI/settings/circuit-breaker/', { errorWindow: 30 })).status).toBe(200)
    const { bytes } = await transferExport(svc, gina, 'payments', { ...SELECTION, secretHandling: 'NONE' })
    const imported = await importPackage(svc, gina, 'other', 'API_PROXY', bytes, { conflictPolicy: 'REPLACE' })
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    expect(imported.preflight.advisories).toEqual([{ level: 'WARNING', key: 'transfer.secretNotCarried', params: { object: 'API_PROXY/MyAPI', fields: ['policies/ws-user/password', 'settings/ntlm.password'] } }])
    expect(imported.body.advisories).toEqual(imported.preflight.advisories)
    expect((await portableIn('other')).data.settings.circuitBreaker).toMatchObject({ errorWindow: 30 })
    expect(await secretsIn('other')).toEqual({ ntlm: NTLM, ws: WS, revision: 2 })
  })

  it('the legacy export door and withDependencies (nothing to carry) work for the type too', async () => {
    const res = await svc.http('/apiops/projects/payments/export-import/API_PROXY/export/?withDependencies=true&secretHandling=DECRYPTED_FOR_EXPORT', {
      method: 'POST', headers: { authorization: `Bearer ${gina}`, 'content-type': 'application/json' }, body: JSON.stringify({ names: ['MyAPI'] }),
    })
    expect(res.status).toBe(200)
    const files = unzip(Buffer.from(await res.arrayBuffer()))
    expect(jsonOfFile(files, 'service-transfer-manifest.json').objects).toEqual([expect.objectContaining({ type: 'API_PROXY', name: 'MyAPI', role: 'SELECTED' })])
    expect(jsonOfFile(files, 'MyAPI.json').secrets['settings/ntlm.password']).toEqual({ handling: 'DECRYPTED_FOR_EXPORT', value: NTLM })
  })

  it('declares the keys its policies and mTLS settings name; withDependencies carries them, written before the proxy', async () => {
    const payments = await svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'payments' } })
    await svc.deps.prisma.storedObject.createMany({
      data: ['secure-client-ks:KEY_STORE', 'secure-backend-ca:CERTIFICATE', 'callout-cert:CERTIFICATE'].map((entry) => {
        const [name, kind] = entry.split(':')
        return { projectId: payments.id, type: 'CERTIFICATE', kind: kind!, name: name!, content: {} }
      }),
    })
    const form = new FormData()
    form.append('metadata', JSON.stringify({ apiProxyName: 'SecureAPI', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/secure-api'] }, routingInfo: { routingAddressList: [{ address: 'https://secure.example.com' }] } }))
    form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
    const steps = [
      await call('POST', 'file/', form),
      await call('PATCH', 'SecureAPI/settings/mtls/', { enabled: true, keyStoreId: 'secure-client-ks', trustStoreId: 'secure-backend-ca' }),
      await call('POST', 'SecureAPI/policies/callout/', {
        operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false },
        policy: { type: 'policy-api-call', callType: 'ONE_WAY', httpMethod: 'GET', url: 'https://api.example.com/', certificateEnabled: true, certificateId: 'callout-cert' },
      }),
    ]
    for (const step of steps) expect(step.status, JSON.stringify(step.body)).toBe(200)

    const declared = [
      { type: 'CERTIFICATE', kind: null, name: 'secure-backend-ca' },
      { type: 'CERTIFICATE', kind: 'CERTIFICATE', name: 'callout-cert' },
      { type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'secure-client-ks' },
    ]
    const alone = await transferExport(svc, gina, 'payments', { formatVersion: 1, type: 'API_PROXY', names: ['SecureAPI'] })
    expect(alone.preview.dependencies).toEqual([])
    expect(jsonOfFile(unzip(alone.bytes), 'SecureAPI.json').dependencies).toEqual(declared)

    const { preview, bytes } = await transferExport(svc, gina, 'payments', { formatVersion: 1, type: 'API_PROXY', names: ['SecureAPI'], withDependencies: true })
    expect(preview.dependencies.map((d: any) => `${d.kind}/${d.name}`).sort()).toEqual(['CERTIFICATE/callout-cert', 'CERTIFICATE/secure-backend-ca', 'KEY_STORE/secure-client-ks'])
    const pre = await preflight(svc, gina, 'other', 'API_PROXY', bytes)
    expect(pre.body).toMatchObject({ blockers: [], replaceTargets: [] })
    const run = await importRun(svc, gina, 'other', bytes, { formatVersion: 1, type: 'API_PROXY', preflightDigest: pre.body.preflightDigest })
    expect(run.status, JSON.stringify(run.body)).toBe(200)
    const other = await svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'other' } })
    const keys = await svc.deps.prisma.storedObject.findMany({ where: { projectId: other.id, type: 'CERTIFICATE' }, select: { kind: true, name: true }, orderBy: { name: 'asc' } })
    expect(keys).toEqual([{ kind: 'CERTIFICATE', name: 'callout-cert' }, { kind: 'CERTIFICATE', name: 'secure-backend-ca' }, { kind: 'KEY_STORE', name: 'secure-client-ks' }])
    const copy = await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { projectId: other.id, name: 'SecureAPI' } })
    expect((copy.settings as any).mtls).toMatchObject({ keyStoreName: 'secure-client-ks', trustStoreName: 'secure-backend-ca' })
  })
})
