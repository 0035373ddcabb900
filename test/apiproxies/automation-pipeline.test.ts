import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { jsonOfFile, unzip } from '../support/zip-fixtures.js'
import { PETSTORE, specForm } from './automation-proxy-support.js'

// Issue 13's client-level test: one whole pipeline driven over HTTP as an automation client (a plain member
// token, no administrator) would, step by step, on the /apiops doors only. The prod worker refuses every push,
// so the pipeline also shows how a failing environment is reported and recorded.

let svc: TestService
let dev: FakeWorker
let prod: FakeWorker
let ci: string // the pipeline's token

const SRC = 'pipeline-src'
const DST = 'pipeline-dst'
const PROXY = 'petstore'
const SECRETS = ['Pipeline-pw-1', 'Pipeline-pw-2', 'pipeline-secret-value']
const received = () => [...dev.received, ...prod.received]

/** One call as the client makes it; every answer is checked for secrets and parsed (JSON) or kept as bytes. */
async function send(method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${ci}` }
  let payload: RequestInit['body']
  if (body instanceof FormData) payload = body
  else if (body !== undefined) {
    headers['content-type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const res = await svc.http(path, { method, headers, body: payload })
  const bytes = Buffer.from(await res.arrayBuffer())
  for (const secret of SECRETS) expect(bytes.includes(secret), `${method} ${path} answered a secret`).toBe(false)
  const isJson = res.headers.get('content-type')?.startsWith('application/json') ?? false
  return { status: res.status, headers: res.headers, bytes, body: isJson ? JSON.parse(bytes.toString('utf8')) : undefined }
}

/** A 200 SUCCESS answer (the body is printed otherwise). */
async function ok(method: string, path: string, body?: unknown) {
  const res = await send(method, path, body)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body?.status, JSON.stringify(res.body)).toBe('SUCCESS')
  return res.body
}

const envResults = (devOk: boolean, prodOk: boolean) => [
  { environmentName: 'dev', success: devOk, message: expect.any(String) },
  { environmentName: 'prod', success: prodOk, message: expect.any(String) },
]

beforeAll(async () => {
  ;[dev, prod] = await Promise.all([FakeWorker.start(), FakeWorker.start()])
  prod.status = 500 // prod's worker fails every push of the pipeline until it is repaired
  const all = ['API_MANAGEMENT', 'IDENTITY', 'PROJECT_MANAGEMENT'].flatMap((category) =>
    ['VIEW', 'MANAGE', 'DEPLOY_UNDEPLOY', 'EXPORT_IMPORT'].map((level) => ({ category, level })),
  )
  svc = await startTestService({
    env: {},
    bootstrap: {
      environments: [
        { name: 'dev', workerUrls: [dev.url], type: 'TEST', description: 'Development' },
        { name: 'prod', workerUrls: [prod.url], type: 'PRODUCTION', description: 'Production' },
      ],
      users: [{ username: 'ci', password: 'ci-pass-1' }],
      projects: [
        { name: SRC, environments: ['dev', 'prod'], members: [{ username: 'ci', permissions: all }] },
        { name: DST, environments: ['dev'], members: [{ username: 'ci', permissions: all }] },
      ],
    },
  })
  ci = await svc.tokenFor('ci', 'ci-pass-1')
})
afterAll(async () => {
  await svc?.close()
  await Promise.all([dev?.stop(), prod?.stop()])
})

describe('one automation pipeline over /apiops', () => {
  let exported: Buffer

  it('1. creates the project\'s environment variables (one secret) and an IP group', async () => {
    const plain = await ok('POST', `/apiops/projects/${SRC}/environmentVariables/BACKEND_URL/`, { name: 'BACKEND_URL', global: true, globalValue: 'https://backend.example.com', globalVisible: true })
    expect(plain).toEqual({ status: 'SUCCESS', success: true, deploymentResult: { success: false, message: expect.any(String), environmentResults: envResults(true, false) } })
    const secret = await ok('POST', `/apiops/projects/${SRC}/environmentVariables/DB_PASSWORD/`, { name: 'DB_PASSWORD', global: true, globalValue: 'pipeline-secret-value', globalVisible: false })
    expect(secret.deploymentResult.environmentResults).toEqual(envResults(true, false))
    // the worker that answered got the value (the gateway needs it); the answer never did
    expect(dev.received.map((p) => `${p.action} ${p.kind} ${p.name}`)).toEqual(['DEPLOY ENVIRONMENT_VARIABLE BACKEND_URL', 'DEPLOY ENVIRONMENT_VARIABLE DB_PASSWORD'])
    expect(dev.received[1]!.config).toEqual({ name: 'DB_PASSWORD', secret: true, value: 'pipeline-secret-value' })
    const list = await ok('GET', `/apiops/projects/${SRC}/environmentVariables/`)
    expect(list.resultList.map((v: any) => [v.name, v.globalValue])).toEqual([['BACKEND_URL', 'https://backend.example.com'], ['DB_PASSWORD', null]])

    expect(await ok('POST', `/apiops/projects/${SRC}/ipGroups/`, { name: 'partners', description: 'Partner networks' })).toEqual({ status: 'SUCCESS', success: true })
    expect(await ok('POST', `/apiops/projects/${SRC}/ipGroups/partners/ips/`, { ipList: ['192.0.2.10', '198.51.100.0/24'] })).toEqual({ status: 'SUCCESS', success: true })
    const group = await svc.deps.prisma.storedObject.findFirstOrThrow({ where: { type: 'IP_GROUP', name: 'partners', project: { name: SRC } } })
    expect(group.content).toEqual({ ips: ['192.0.2.10', '198.51.100.0/24'], description: 'Partner networks' })
  })

  it('2. creates the API proxy from an OpenAPI file (multipart …/apiProxies/file/)', async () => {
    dev.received.length = prod.received.length = 0
    const metadata = {
      apiProxyName: PROXY,
      apiProxyDescription: 'Petstore for partners',
      apiProxyCreationType: 'OPEN_API',
      clientRoute: { relativePathList: ['/petstore'] },
      routingInfo: { routingAddressList: [{ address: 'https://backend.example.com', weight: 100 }] },
      deploy: false,
    }
    const created = await ok('POST', `/apiops/projects/${SRC}/apiProxies/file/`, specForm(metadata, { text: JSON.stringify(PETSTORE), name: 'openapi.json' }))
    expect(created).toEqual({ status: 'SUCCESS', success: true })
    expect(received()).toEqual([])
    const detail = await ok('GET', `/apiops/projects/${SRC}/apiProxies/${PROXY}/`)
    expect(detail).toMatchObject({ name: PROXY, creationType: 'OPEN_API', endpointCount: 3, deploymentList: [{ environmentName: 'dev', deployed: false }, { environmentName: 'prod', deployed: false }] })
    const list = await ok('GET', `/apiops/projects/${SRC}/apiProxies/`)
    expect(list).toMatchObject({ resultCount: 1, resultList: [{ name: PROXY, description: 'Petstore for partners', relativePath: '/petstore' }] })
  })

  it('3. adds a policy and deploys the proxy to dev and prod: dev acknowledges, prod fails', async () => {
    const policy = { type: 'policy-black-ip', description: 'Block a known abuser', active: true, ipList: ['203.0.113.7'] }
    const res = await ok('POST', `/apiops/projects/${SRC}/apiProxies/${PROXY}/policies/block-abuser/`, {
      operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: true, deployTargetEnvironmentNameList: ['dev', 'prod'] },
      policy,
    })
    expect(res).toEqual({
      status: 'SUCCESS', success: true,
      deploymentResult: {
        success: false,
        message: expect.any(String),
        responseTime: expect.any(Number),
        detailList: [
          { envName: 'dev', podName: new URL(dev.url).host, podIp: '127.0.0.1', success: true, responseTime: expect.any(Number), detail: 'Acknowledged' },
          { envName: 'prod', podName: new URL(prod.url).host, podIp: '127.0.0.1', success: false, responseTime: expect.any(Number), detail: expect.stringMatching(/500/) },
        ],
      },
    })
    // the worker that succeeded holds the whole proxy with its policy and the document's endpoints
    expect(dev.received).toHaveLength(1)
    expect(dev.received[0]).toMatchObject({ action: 'DEPLOY', project: SRC, kind: 'API_PROXY', name: PROXY })
    expect((dev.received[0]!.config.policies as any).request).toEqual([{ ...policy, name: 'block-abuser' }])
    expect((dev.received[0]!.config.endpoints as unknown[]).length).toBe(3)
    expect(prod.received).toEqual([expect.objectContaining({ action: 'DEPLOY', kind: 'API_PROXY', name: PROXY })]) // sent, refused

    const policies = await ok('GET', `/apiops/projects/${SRC}/apiProxies/${PROXY}/policies/`)
    expect(policies.resultList[0].requestPolicyList).toEqual([expect.objectContaining({ name: 'block-abuser', type: 'policy-black-ip', active: true, order: 1 })])
    const detail = await ok('GET', `/apiops/projects/${SRC}/apiProxies/${PROXY}/`)
    expect(detail.deploymentList).toEqual([
      expect.objectContaining({ environmentName: 'dev', deployed: true, redeployRequired: false }),
      expect.objectContaining({ environmentName: 'prod', deployed: false }),
    ])
  })

  it('4. the environments endpoint shows prod as failed: not deployed, redeploy required', async () => {
    const res = await ok('GET', `/apiops/environments/${SRC}`)
    expect(res).toMatchObject({ success: true, resultCount: 2 })
    expect(res.resultList).toEqual([
      { id: expect.any(String), name: 'dev', description: 'Development', type: 'TEST', accessUrl: null, status: 'PUBLISHED', deployed: true, redeployRequired: false },
      { id: expect.any(String), name: 'prod', description: 'Production', type: 'PRODUCTION', accessUrl: null, status: 'UNPUBLISHED', deployed: false, redeployRequired: true },
    ])
  })

  it('5. creates a credential, grants it the proxy and changes its password; no answer shows a password', async () => {
    dev.received.length = prod.received.length = 0
    const base = `/apiops/projects/${SRC}/credentials`
    const created = await ok('POST', `${base}/`, { email: 'partner@example.com', fullName: 'Partner App', username: 'partner-app', password: 'Pipeline-pw-1', ipList: ['198.51.100.0/24'] })
    expect(created).toEqual({ status: 'SUCCESS', success: true, deploymentResult: { success: false, message: expect.any(String), environmentResults: envResults(true, false) } })
    const consumerKey = (await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'partner-app' } })).consumerKey

    const granted = await ok('PUT', `${base}/partner-app/access/`, { credentialAccessList: [{ name: PROXY, type: 'API_PROXY' }] })
    expect(granted.deploymentResult.environmentResults).toEqual(envResults(true, false))
    expect(await ok('GET', `${base}/partner-app/access/`)).toMatchObject({ resultList: [{ name: PROXY, type: 'API_PROXY' }] })
    // the grant is an entitlement, visible on the Common Contract view
    const entitlements = await send('GET', `/apiops/projects/${SRC}/consumers/${consumerKey}/entitlements`)
    expect(entitlements.status).toBe(200)
    expect(JSON.stringify(entitlements.body)).toContain(PROXY)

    const changed = await ok('PATCH', `${base}/partner-app/`, { password: 'Pipeline-pw-2' })
    expect(changed).toEqual({ status: 'SUCCESS', success: true, deploymentResult: { success: false, message: expect.any(String), environmentResults: envResults(true, false) } })
    const row = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'partner-app' } })
    expect(svc.deps.keyring.decrypt(row.passwordCipher!)).toBe('Pipeline-pw-2')
    const list = await ok('GET', `${base}/`)
    expect(list.resultList).toEqual([expect.objectContaining({ username: 'partner-app', password: null, ipList: ['198.51.100.0/24'] })])

    // dev received the credential three times (create, grant, password), the last one carrying the access
    expect(dev.received.map((p) => `${p.action} ${p.kind} ${p.name}`)).toEqual(Array(3).fill('DEPLOY CREDENTIAL partner-app'))
    expect(dev.received[2]!.config).toMatchObject({ username: 'partner-app', consumerKey, access: [{ name: PROXY, type: 'API_PROXY' }] })
  })

  it('6. exports the proxy as a ZIP and imports it into another project', async () => {
    const res = await send('GET', `/apiops/projects/${SRC}/apiProxies/${PROXY}/export/`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('apiProxyExportFile.zip')
    exported = res.bytes
    const files = unzip(exported)
    expect([...files.keys()].sort()).toEqual([`${PROXY}.json`, 'service-transfer-manifest.json'])
    const object = jsonOfFile(files, `${PROXY}.json`)
    expect(object).toMatchObject({ type: 'API_PROXY', name: PROXY, data: { relativePath: '/petstore' } })
    expect(object.data.policies.map((p: any) => p.name)).toEqual(['block-abuser'])

    dev.received.length = prod.received.length = 0
    const form = new FormData()
    form.append('apiProxyExportFile', new Blob([new Uint8Array(exported)], { type: 'application/zip' }), 'apiProxyExportFile.zip')
    expect(await ok('POST', `/apiops/projects/${DST}/apiProxies/import/`, form)).toEqual({ status: 'SUCCESS', success: true, apiProxyName: PROXY, advisories: [] })
    expect(received()).toEqual([]) // an import without deploy pushes nothing
    const copy = await ok('GET', `/apiops/projects/${DST}/apiProxies/${PROXY}/`)
    expect(copy).toMatchObject({ name: PROXY, creationType: 'OPEN_API', endpointCount: 3, deploymentList: [{ environmentName: 'dev', deployed: false }] })
    const copiedPolicies = await ok('GET', `/apiops/projects/${DST}/apiProxies/${PROXY}/policies/`)
    expect(copiedPolicies.resultList[0].requestPolicyList.map((p: any) => p.name)).toEqual(['block-abuser'])
  })

  it('7. once prod is repaired, redeploys there, then undeploys and deletes the proxy', async () => {
    prod.status = 200
    dev.received.length = prod.received.length = 0
    const path = `/apiops/projects/${SRC}/apiProxies/${PROXY}`
    const redeployed = await ok('POST', `${path}/environments/prod/`)
    expect(redeployed.deploymentResult).toMatchObject({ success: true })
    expect(prod.received).toEqual([expect.objectContaining({ action: 'DEPLOY', kind: 'API_PROXY', name: PROXY })])
    const afterRepair = await ok('GET', `/apiops/environments/${SRC}`)
    expect(afterRepair.resultList[1]).toMatchObject({ name: 'prod', deployed: true })

    dev.received.length = prod.received.length = 0
    const undeployed = await ok('DELETE', `${path}/environments/dev/`)
    expect(undeployed.deploymentResult).toMatchObject({ success: true })
    expect(dev.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', project: SRC, kind: 'API_PROXY', name: PROXY })])
    expect(prod.received).toEqual([])

    dev.received.length = 0
    const deleted = await ok('DELETE', `${path}/`)
    expect(deleted).toMatchObject({ success: true, deploymentResult: { success: true } })
    // it still ran in prod only: the delete undeploys it there
    expect(prod.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', project: SRC, kind: 'API_PROXY', name: PROXY })])
    expect(dev.received).toEqual([])
    expect(await ok('GET', `/apiops/projects/${SRC}/apiProxies/`)).toMatchObject({ resultList: [], resultCount: 0 })
    const gone = await send('GET', `${path}/`)
    expect(gone.status).toBe(400)
    expect(gone.body).toEqual({ status: 'FAILURE', resultMessage: `API proxy '${PROXY}' not found` })
    // the copy in the other project is untouched
    expect(await ok('GET', `/apiops/projects/${DST}/apiProxies/`)).toMatchObject({ resultCount: 1 })
  })

  it('8. the audit trail holds every write of the pipeline, with the failed pushes marked', async () => {
    const res = await send('GET', `/apiops/projects/${SRC}/audit-events?size=200&sort=at,asc`)
    expect(res.status).toBe(200)
    // the bootstrap's own events come first; the pipeline's are the REST ones, each naming its object
    const events: string[] = res.body.items.filter((e: any) => e.surface !== 'BOOTSTRAP').map((e: any) => `${e.actor} ${e.surface} ${e.operation} ${e.objectName} ${e.outcome}`)
    const P = 'ci REST_APIOPS'
    expect(events).toEqual([
      `${P} POST /apiops/projects/:projectName/environmentVariables/:name/ BACKEND_URL DEPLOY_FAILED`,
      `${P} POST /apiops/projects/:projectName/environmentVariables/:name/ DB_PASSWORD DEPLOY_FAILED`,
      `${P} POST /apiops/projects/:projectName/ipGroups/ partners SUCCEEDED`,
      `${P} POST /apiops/projects/:projectName/ipGroups/:ipGroupName/ips/ partners SUCCEEDED`,
      `${P} POST /apiops/projects/:projectName/apiProxies/file/ ${PROXY} SUCCEEDED`,
      `${P} POST /apiops/projects/:projectName/apiProxies/:apiProxyName/policies/:policyName/ block-abuser DEPLOY_FAILED`,
      `${P} POST /apiops/projects/:projectName/credentials/ partner-app DEPLOY_FAILED`,
      `${P} PUT /apiops/projects/:projectName/credentials/:username/access/ partner-app DEPLOY_FAILED`,
      `${P} PATCH /apiops/projects/:projectName/credentials/:username/ partner-app DEPLOY_FAILED`,
      `${P} POST /apiops/projects/:projectName/apiProxies/:apiProxyName/environments/:environmentName/ ${PROXY} SUCCEEDED`,
      `${P} DELETE /apiops/projects/:projectName/apiProxies/:apiProxyName/environments/:environmentName/ ${PROXY} SUCCEEDED`,
      `${P} DELETE /apiops/projects/:projectName/apiProxies/:apiProxyName/ ${PROXY} SUCCEEDED`,
    ])
    const imported = await send('GET', `/apiops/projects/${DST}/audit-events?size=200`)
    const importEvents = imported.body.items.filter((e: any) => e.surface !== 'BOOTSTRAP')
    expect(importEvents.map((e: any) => `${e.actor} ${e.operation} ${e.objectType} ${e.objectName} ${e.outcome}`)).toEqual([`ci POST /apiops/projects/:projectName/apiProxies/import/ API_PROXY ${PROXY} SUCCEEDED`])
    // names and outcomes only: no secret reached the trail
    const stored = JSON.stringify(await svc.deps.prisma.auditEvent.findMany(), (_key, value) => (typeof value === 'bigint' ? String(value) : value))
    for (const secret of SECRETS) expect(stored).not.toContain(secret)
  })
})
