import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { jsonOfFile, unzip } from '../support/zip-fixtures.js'
import { automationBootstrap, legacy } from './automation-proxy-support.js'

// Policy secrets are write-only (issue 17 Rules; docs/policy-catalogue.md "Secrets"): sealed in the store, shown as
// `<field>Set` by REST and GraphQL, pushed in clear to the workers, kept by an update that leaves them out, sealed on
// the next write when stored in clear before; in an export package they travel per secretHandling like the settings'
// secrets (test/apiproxies/proxy-package-secrets.test.ts): here NONE, which leaves them out and names them.

let svc: TestService
let dev: FakeWorker
let gina: string // API_MANAGEMENT MANAGE, DEPLOY_UNDEPLOY, EXPORT_IMPORT and PROJECT_MANAGEMENT VIEW (payments); MANAGE, EXPORT_IMPORT (other)
let frank: string // API_MANAGEMENT VIEW

const CLEAR = 'ws-clear-pass-7'
const NESTED = 'nested-clear-pass-8'
const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(svc, method, `payments/apiProxies/${path}`, token, body)
const meta = (extra: Record<string, unknown> = {}) => ({ targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: true, deployTargetEnvironmentNameList: ['dev'], ...extra })
const wsUser = (extra: Record<string, unknown> = {}) => ({ type: 'policy-ws-security-username', username: 'soap-user', passwordType: 'PasswordText', ...extra })
const apiAuth = (list: Record<string, unknown>[]) => ({ type: 'policy-api-authentication', authType: 'BASIC', sendType: 'HEADER', usernameFieldName: 'X-Username', passwordFieldName: 'X-Password', apiAuthCondExpressionList: list })
const row = (name: string, proxy = 'SecretAPI', project = 'payments') => svc.deps.prisma.apiProxyPolicy.findFirstOrThrow({ where: { name, apiProxy: { name: proxy, project: { name: project } } } })
const pushedPolicy = (name: string) => (dev.received.at(-1)!.config.policies as any).request.find((p: any) => p.name === name)
const gqlPolicies = async (proxy = 'SecretAPI', project = 'payments') => {
  const res = await svc.graphql(`query { apiProxyPolicies(projectName: "${project}", apiProxyName: "${proxy}") { requestPolicyList { name config } } }`, {}, frank)
  expect(res.body.errors).toBeUndefined()
  return res.body.data.apiProxyPolicies.requestPolicyList as { name: string; config: any }[]
}
const configOf = async (name: string, proxy?: string, project?: string) => (await gqlPolicies(proxy, project)).find((p) => p.name === name)!.config

beforeAll(async () => {
  dev = await FakeWorker.start()
  const doc = automationBootstrap({ dev: [dev.url], prod: [] })
  doc.projects[0]!.members!.find((m) => m.username === 'gina')!.permissions!.push({ category: 'PROJECT_MANAGEMENT', level: 'VIEW' }) // to name environment variables
  doc.projects[1]!.members = [{ username: 'gina', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'EXPORT_IMPORT' }] }]
  doc.projects[1]!.members.push({ username: 'frank', permissions: [{ category: 'API_MANAGEMENT', level: 'VIEW' }] })
  svc = await startTestService({ bootstrap: doc, env: { DEPLOY_TIMEOUT_MS: '10000' } })
  const { id: projectId } = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
  await svc.deps.prisma.environmentVariable.create({ data: { projectId, name: 'BACKEND_PASSWORD', nameKey: 'backend_password', global: true, globalValue: 'x' } })
  ;[gina, frank] = await Promise.all([svc.tokenFor('gina', 'gina-pass-1'), svc.tokenFor('frank', 'frank-pass-1')])
  const created = await call('POST', 'url/', gina, { apiProxyName: 'SecretAPI', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/secret-api'] }, deploy: true, deployTargetEnvironmentNameList: ['dev'] })
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
})
afterAll(async () => {
  await svc?.close()
  await dev?.stop()
})

describe('policy secrets', () => {
  it('are stored sealed, shown as <field>Set, and pushed in clear to the worker', async () => {
    const res = await call('POST', 'SecretAPI/policies/ws-user/', gina, { operationMetadata: meta(), policy: wsUser({ password: CLEAR }) })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const stored = (await row('ws-user')).config as any
    expect(stored.password).toMatch(/^v1\./)
    expect(JSON.stringify(stored)).not.toContain(CLEAR)
    expect(svc.deps.keyring.decrypt(stored.password)).toBe(CLEAR)
    expect(pushedPolicy('ws-user')).toMatchObject({ username: 'soap-user', password: CLEAR })

    const ok = await call('POST', 'SecretAPI/policies/api-auth/', gina, { operationMetadata: meta(), policy: apiAuth([{ username: 'a', password: NESTED }, { username: 'b', password: '${BACKEND_PASSWORD}' }]) })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const list = ((await row('api-auth')).config as any).apiAuthCondExpressionList
    expect(list[0].password).toMatch(/^v1\./)
    expect(list[1].password).toBe('${BACKEND_PASSWORD}') // a reference is not a secret: stored as is
    expect(pushedPolicy('api-auth').apiAuthCondExpressionList).toEqual([{ username: 'a', password: NESTED }, { username: 'b', password: '${BACKEND_PASSWORD}' }])

    // never shown: GraphQL answers the flag, REST reads carry neither the clear value nor the ciphertext
    expect(await configOf('ws-user')).toEqual(expect.objectContaining({ username: 'soap-user', passwordSet: true }))
    expect(await configOf('ws-user')).not.toHaveProperty('password')
    expect((await configOf('api-auth')).apiAuthCondExpressionList).toEqual([{ username: 'a', passwordSet: true }, { username: 'b', password: '${BACKEND_PASSWORD}' }])
    const reads = [await call('GET', 'SecretAPI/policies/', frank), await call('GET', 'SecretAPI/', frank), await svc.graphql('query { apiProxyPolicies(projectName: "payments", apiProxyName: "SecretAPI") { requestPolicyList { config } } }', {}, frank)]
    for (const read of reads) {
      const text = JSON.stringify(read.body)
      expect(text).not.toContain(CLEAR)
      expect(text).not.toContain(NESTED)
      expect(text).not.toContain(stored.password)
    }
  })

  it('an update without the secret keeps the stored one; with one, replaces it', async () => {
    const before = ((await row('ws-user')).config as any).password
    const kept = await call('PUT', 'SecretAPI/policies/ws-user/', gina, { operationMetadata: meta(), policy: wsUser({ username: 'soap-user-2' }) })
    expect(kept.status, JSON.stringify(kept.body)).toBe(200)
    expect(((await row('ws-user')).config as any)).toMatchObject({ username: 'soap-user-2', password: before })
    expect(pushedPolicy('ws-user')).toMatchObject({ username: 'soap-user-2', password: CLEAR })
    // the nested list keeps the secret of the entry at the same position
    const nested = await call('PUT', 'SecretAPI/policies/api-auth/', gina, { operationMetadata: meta(), policy: apiAuth([{ username: 'a2' }, { username: 'b', password: '${BACKEND_PASSWORD}' }]) })
    expect(nested.status, JSON.stringify(nested.body)).toBe(200)
    expect(pushedPolicy('api-auth').apiAuthCondExpressionList[0]).toEqual({ username: 'a2', password: NESTED })

    const replaced = await call('PUT', 'SecretAPI/policies/ws-user/', gina, { operationMetadata: meta(), policy: wsUser({ password: 'new-pass-9' }) })
    expect(replaced.status).toBe(200)
    expect(((await row('ws-user')).config as any).password).not.toBe(before)
    expect(pushedPolicy('ws-user').password).toBe('new-pass-9')
    // an add needs it (required by the type); nothing to keep there
    const missing = await call('POST', 'SecretAPI/policies/ws-user-2/', gina, { operationMetadata: meta(), policy: wsUser() })
    expect(missing.status).toBe(400)
    expect(missing.body.resultMessage).toMatch(/^policy\.password: /)
    // GraphQL writes go through the same service
    const gql = await svc.graphql('mutation($m: JSON!, $p: JSON!) { updateApiProxyPolicy(projectName: "payments", apiProxyName: "SecretAPI", policyName: "ws-user", operationMetadata: $m, policy: $p) { deploymentResult { success } } }',
      { m: meta(), p: wsUser({ username: 'gql-user' }) }, gina)
    expect(gql.body.errors).toBeUndefined()
    expect(pushedPolicy('ws-user')).toMatchObject({ username: 'gql-user', password: 'new-pass-9' })
  })

  it('a policy stored in clear before is shown as set, pushed as is, and sealed on its next write', async () => {
    const proxy = await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'SecretAPI' } })
    const position = (await svc.deps.prisma.apiProxyPolicy.count({ where: { apiProxyId: proxy.id, endpointId: null, pipeline: 'REQUEST' } })) + 1
    await svc.deps.prisma.apiProxyPolicy.create({
      data: { apiProxyId: proxy.id, endpointId: null, pipeline: 'REQUEST', position, name: 'old-ws', nameKey: 'old-ws', type: 'policy-ws-security-username', description: null, active: true, config: { ...wsUser({ password: 'old-clear-pass' }), active: true } },
    })
    expect(await configOf('old-ws')).toMatchObject({ passwordSet: true })
    expect(JSON.stringify(await configOf('old-ws'))).not.toContain('old-clear-pass')
    const deployed = await call('POST', 'SecretAPI/environments/dev/', gina)
    expect(deployed.status).toBe(200)
    expect(pushedPolicy('old-ws').password).toBe('old-clear-pass')
    const written = await call('PUT', 'SecretAPI/policies/old-ws/', gina, { operationMetadata: meta(), policy: wsUser({ description: 'touched' }) })
    expect(written.status, JSON.stringify(written.body)).toBe(200)
    const sealed = ((await row('old-ws')).config as any).password
    expect(sealed).toMatch(/^v1\./)
    expect(svc.deps.keyring.decrypt(sealed)).toBe('old-clear-pass')
    expect(pushedPolicy('old-ws').password).toBe('old-clear-pass')
  })
})

describe('policy secrets in export packages', () => {
  let exported: Buffer

  it('secretHandling NONE: the export carries neither the clear value nor the ciphertext; it names the secret', async () => {
    const res = await svc.http('/apiops/projects/payments/apiProxies/SecretAPI/export/?secretHandling=NONE', { headers: { authorization: `Bearer ${gina}` } })
    expect(res.status).toBe(200)
    exported = Buffer.from(await res.arrayBuffer())
    const files = unzip(exported)
    const text = [...files.values()].map((b) => b.toString('utf8')).join('\n')
    const sealed = ((await row('ws-user')).config as any).password
    for (const s of ['new-pass-9', NESTED, 'old-clear-pass', sealed, ((await row('old-ws')).config as any).password]) expect(text).not.toContain(s)
    const object = jsonOfFile(files, 'SecretAPI.json')
    expect(jsonOfFile(files, 'service-transfer-manifest.json').secretHandling).toBe('NONE')
    expect(object.secrets).toMatchObject({ 'policies/ws-user/password': { handling: 'NONE' }, 'policies/api-auth/apiAuthCondExpressionList[0].password': { handling: 'NONE' } })
    const wsPolicy = object.data.policies.find((p: any) => p.name === 'ws-user').policy
    expect(wsPolicy).not.toHaveProperty('password')
    expect(object.data.policies.find((p: any) => p.name === 'api-auth').policy.apiAuthCondExpressionList[1].password).toBe('${BACKEND_PASSWORD}')
  })

  it('an import into another project creates the policies without the secrets, and says so', async () => {
    const form = new FormData()
    form.append('apiProxyExportFile', new Blob([new Uint8Array(exported)], { type: 'application/zip' }), 'apiProxyExportFile.zip')
    const res = await legacy(svc, 'POST', 'other/apiProxies/import/', gina, form)
    expect(res.body).toEqual({
      status: 'SUCCESS', success: true,
      apiProxyName: 'SecretAPI',
      advisories: [{ level: 'WARNING', key: 'transfer.secretNotCarried', params: { object: 'API_PROXY/SecretAPI', fields: expect.arrayContaining(['policies/ws-user/password', 'policies/api-auth/apiAuthCondExpressionList[0].password']) } }],
    })
    expect(((await row('ws-user', 'SecretAPI', 'other')).config as any)).not.toHaveProperty('password')
    const copy = await configOf('ws-user', 'SecretAPI', 'other')
    expect(copy).toMatchObject({ username: 'gql-user' })
    expect(copy.password).toBeUndefined()
    expect(copy.passwordSet ?? false).toBe(false)
  })

  it('an import that overrides the proxy keeps the target\'s secrets', async () => {
    const before = ((await row('ws-user')).config as any).password
    const form = new FormData()
    form.append('metadata', JSON.stringify({ deploy: true, deployTargetEnvironmentNameList: ['dev'] }))
    form.append('apiProxyExportFile', new Blob([new Uint8Array(exported)], { type: 'application/zip' }), 'apiProxyExportFile.zip')
    const res = await call('PUT', 'SecretAPI/import/', gina, form)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.advisories).toEqual([expect.objectContaining({ key: 'transfer.secretNotCarried' })])
    expect(((await row('ws-user')).config as any).password).toBe(before)
    expect(pushedPolicy('ws-user').password).toBe('new-pass-9')
    expect(pushedPolicy('api-auth').apiAuthCondExpressionList[0].password).toBe(NESTED)
  })
})
