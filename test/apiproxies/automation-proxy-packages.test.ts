import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { fileOfJson, jsonOfFile, tamper, unzip, zipOf } from '../support/zip-fixtures.js'
import { automationBootstrap, legacy, PETSTORE } from './automation-proxy-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// Export and import of one API proxy (vendor 04-api-proxies/crud export-api-proxy, import-api-proxy,
// import-api-proxy-and-override; issue 13 bullet 4), in the transfer package format.

/** the automation bootstrap where gina may also manage, export and import in the project `other` */
function ginaManagesOther(workers: { dev: string[]; prod: string[] }) {
  const doc = automationBootstrap(workers)
  doc.projects[1]!.members = [{ username: 'gina', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'EXPORT_IMPORT' }] }]
  return doc
}

// erin: API_MANAGEMENT MANAGE, no EXPORT_IMPORT; frank: VIEW; gina: MANAGE, DEPLOY_UNDEPLOY, EXPORT_IMPORT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: ginaManagesOther, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })
let exported: Buffer

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const snapshot = async () => JSON.stringify(await bed.svc.deps.prisma.apiProxy.findMany({ orderBy: { name: 'asc' }, include: { endpoints: { orderBy: { path: 'asc' } }, policies: { orderBy: { name: 'asc' } } } }))

function importForm(file: Buffer | null, fileName = 'apiProxyExportFile.zip', metadata?: unknown) {
  const form = new FormData()
  if (metadata !== undefined) form.append('metadata', typeof metadata === 'string' ? metadata : JSON.stringify(metadata))
  if (file) form.append('apiProxyExportFile', new Blob([new Uint8Array(file)], { type: 'application/zip' }), fileName)
  return form
}

const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(write, message, { state: snapshot, pushes })

const exportAs = async (name: string, token = bed.gina) => {
  const res = await bed.svc.http(`/apiops/projects/payments/apiProxies/${name}/export/`, { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) }
}

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyDescription: 'Pets', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/my-api'] }, routingInfo: { routingAddressList: [{ address: 'https://backend.example.com' }] } }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  if ((await call('POST', 'file/', bed.erin, form)).status !== 200) throw new Error('setup')
  await call('POST', 'MyAPI/policies/block/', bed.erin, { operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false }, policy: { type: 'policy-black-ip', ipList: ['10.1.1.1'] } })
  await call('POST', 'MyAPI/policies/pets-script/', bed.erin, { operationMetadata: { targetScope: 'ENDPOINT', targetEndpoint: '/pets', targetEndpointHTTPMethod: 'GET', targetPipeline: 'RESPONSE', deploy: false }, policy: { type: 'policy-script', scriptLanguage: 'GROOVY', scriptBody: 'x' } })
})

describe('export (GET …/{apiProxyName}/export/)', () => {
  it('answers a ZIP with the proxy JSON and the transfer manifest', async () => {
    const res = await exportAs('MyAPI')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-disposition')).toContain('filename="apiProxyExportFile.zip"')
    exported = res.bytes
    const files = unzip(exported)
    expect([...files.keys()].sort()).toEqual(['MyAPI.json', 'service-transfer-manifest.json'])
    const object = jsonOfFile(files, 'MyAPI.json')
    expect(object).toMatchObject({ type: 'API_PROXY', name: 'MyAPI', role: 'SELECTED', data: { kind: 'REST', description: 'Pets', relativePath: '/my-api' } })
    expect(object.data.endpoints).toHaveLength(3)
    expect(object.data.policies.map((p: any) => [p.name, p.pipeline, p.endpoint?.path ?? null])).toEqual([['block', 'REQUEST', null], ['pets-script', 'RESPONSE', '/pets']])
  })

  it('refuses a missing proxy and a caller without EXPORT_IMPORT', async () => {
    const missing = await call('GET', 'ghost/export/', bed.gina)
    expect(missing).toMatchObject({ status: 400, body: { status: 'FAILURE', resultMessage: "API proxy 'ghost' not found" } })
    expect((await call('GET', 'MyAPI/export/', bed.erin)).body.resultMessage).toMatch(/lacks permission API_MANAGEMENT EXPORT_IMPORT/)
    expect((await call('GET', 'MyAPI/export/', null)).status).toBe(401)
  })
})

describe('import (POST …/import/, PUT …/{apiProxyName}/import/)', () => {
  it('imports into another project as it was exported', async () => {
    const res = await legacy(bed.svc, 'POST', 'other/apiProxies/import/', bed.gina, importForm(exported))
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, apiProxyName: 'MyAPI', advisories: [] })
    const copy = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'MyAPI', project: { name: 'other' } }, include: { endpoints: true, policies: true } })
    expect(copy).toMatchObject({ kind: 'REST', description: 'Pets', relativePath: '/my-api', creationType: 'OPEN_API' })
    expect(copy.endpoints).toHaveLength(3)
    expect(copy.policies.map((p) => p.name).sort()).toEqual(['block', 'pets-script'])
    expect(pushes()).toBe(0)
  })

  it('without override, a taken name and relative path get a suffix; the original stays', async () => {
    const before = await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'MyAPI', project: { name: 'payments' } } })
    const res = await call('POST', 'import/', bed.gina, importForm(exported, 'MY-EXPORT.ZIP'))
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, apiProxyName: 'MyAPI-1', advisories: [] })
    expect(await bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'MyAPI-1' } })).toMatchObject({ relativePath: '/my-api-1' })
    expect(await bed.svc.deps.prisma.apiProxy.findUniqueOrThrow({ where: { id: before.id } })).toMatchObject({ revision: before.revision, relativePath: '/my-api' })
    const list = (await call('GET', 'MyAPI-1/policies/', bed.frank)).body.resultList[0]
    expect(list.requestPolicyList.map((p: any) => p.name)).toEqual(['block'])
  })

  it('with override, replaces the named proxy and deploys per metadata', async () => {
    await call('POST', 'MyAPI/policies/extra/', bed.erin, { operationMetadata: { targetScope: 'ALL', targetPipeline: 'ERROR', deploy: false }, policy: { type: 'policy-script' } })
    const metadata = { deploy: true, deployTargetEnvironmentNameList: ['dev'], routing: { algorithm: 'ROUND_ROBIN', addressList: [{ address: 'https://backend1.example.com', weight: 1 }] }, maintenanceMode: false }
    const res = await call('PUT', 'MyAPI/import/', bed.gina, importForm(exported, 'apiProxyExportFile.zip', metadata))
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true,
      deploymentResult: { success: true, message: expect.any(String), environmentResults: [{ environmentName: 'dev', success: true, message: 'Acknowledged' }] },
      advisories: [],
    })
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.prod.received).toHaveLength(0)
    const detail = (await call('GET', 'MyAPI/', bed.frank)).body
    expect(detail.routing.routingAddressList).toEqual([{ address: 'https://backend1.example.com', weight: 1, healthCheckEnabled: false, soapType: null }])
    expect((await bed.svc.deps.prisma.apiProxyPolicy.findMany({ where: { apiProxy: { name: 'MyAPI', project: { name: 'payments' } } } })).map((p) => p.name).sort()).toEqual(['block', 'pets-script'])
    // the basic form (example 1) with metadata {"deploy": false} creates a proxy that did not exist
    const basic = await call('PUT', 'Fresh/import/', bed.gina, importForm(tamper(exported, (files) => {
      const object = jsonOfFile(files, 'MyAPI.json')
      object.data.relativePath = '/fresh'
      files.set('MyAPI.json', fileOfJson(object))
    }), 'apiProxyExportFile.zip', { deploy: false }))
    expect(basic.status).toBe(400) // an edited package is refused: its fingerprint no longer matches
    expect(basic.body.resultMessage).toMatch(/^apiProxyExportFile: MyAPI.json: the file content differs from its fingerprint/)
  })

  it('refuses every cause the pages list; nothing is written or pushed', async () => {
    await expectRefused(() => call('POST', 'import/', bed.gina, importForm(null)), /^apiProxyExportFile: is required/)
    await expectRefused(() => call('POST', 'import/', bed.gina, importForm(exported, 'export.tar')), /^apiProxyExportFile: must be a ZIP file whose name ends with .zip/)
    await expectRefused(() => call('POST', 'import/', bed.gina, importForm(Buffer.from('not a zip at all, just text'), 'x.zip')), /not a ZIP package/)
    const twoObjects = tamper(exported, (files) => files.set('Other.json', files.get('MyAPI.json')!))
    await expectRefused(() => call('POST', 'import/', bed.gina, importForm(twoObjects)), /^apiProxyExportFile: Other.json: a file not listed in the manifest was added/)
    const noManifest = zipOf(new Map([...unzip(exported)].filter(([name]) => name !== 'service-transfer-manifest.json')))
    await expectRefused(() => call('POST', 'import/', bed.gina, importForm(noManifest)), /^apiProxyExportFile: service-transfer-manifest.json: the manifest is missing/)
    await expectRefused(() => call('PUT', 'MyAPI/import/', bed.gina, importForm(exported, 'a.zip', '{bad')), /^metadata: is not valid JSON/)
    await expectRefused(() => call('PUT', 'MyAPI/import/', bed.gina, importForm(exported, 'a.zip', { deploy: true, deployTargetEnvironmentNameList: ['production'] })), /environment 'production' not found/)
    await expectRefused(() => call('PUT', 'MyAPI/import/', bed.gina, importForm(exported, 'a.zip', { routing: { algorithm: 'FASTEST' } })), /^routing.algorithm: must be one of/)
    await expectRefused(() => call('PUT', 'Other/import/', bed.gina, importForm(exported, 'a.zip', {})), /relative path '\/my-api' is already that of API proxy 'MyAPI'/)
    await expectRefused(() => call('POST', 'import/', bed.erin, importForm(exported)), /lacks permission API_MANAGEMENT EXPORT_IMPORT/)
    await expectRefused(() => call('PUT', 'MyAPI/import/', bed.frank, importForm(exported, 'a.zip', {})), /lacks permission API_MANAGEMENT EXPORT_IMPORT/)
    await expectRefused(() => legacy(bed.svc, 'POST', 'nowhere/apiProxies/import/', bed.gina, importForm(exported)), /Project 'nowhere' not found/)
  })
})
