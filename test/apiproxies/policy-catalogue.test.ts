import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { legacy } from './automation-proxy-support.js'
import { CASES, catalogueBootstrap, FIXTURES } from './policy-catalogue-support.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'

// The typed policy catalogue (issue 17 §3): every type of vendor 05-policies/policies accepted when valid (stored,
// pushed) and refused when not (400 naming the field, nothing stored or pushed); references by name; the published
// JSON Schemas; the GraphQL typed view; policies stored before the catalogue.

let svc: TestService
let dev: FakeWorker
let erin: string // API_MANAGEMENT MANAGE
let frank: string // API_MANAGEMENT VIEW
let gina: string // API_MANAGEMENT MANAGE and DEPLOY_UNDEPLOY
let rita: string // gina's permissions plus PROJECT_MANAGEMENT VIEW

const TYPES = Object.keys(CASES)
const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(svc, method, `payments/apiProxies/${path}`, token, body)
const meta = (extra: Record<string, unknown> = {}) => ({ targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false, ...extra })
const deployToDev = meta({ deploy: true, deployTargetEnvironmentNameList: ['dev'] })
/** A GET on /apiops outside the project paths (the policy-types catalogue). */
async function get(path: string, token: string | null) {
  const res = await svc.http(path, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  const text = await res.text()
  return { status: res.status, body: text ? JSON.parse(text) : undefined }
}
const SECRET_FIELDS = ['password', 'clientSecret', 'unPassword']
/** The policy with each literal secret replaced by "some sealed value" (v1.<key id>.…). */
const sealedLike = (value: unknown): any => {
  if (Array.isArray(value)) return value.map(sealedLike)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_FIELDS.includes(k) && typeof v === 'string' && !v.startsWith('${') ? expect.stringMatching(/^v1\./) : sealedLike(v)]))
}
const clearSecrets = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap(clearSecrets)
    : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => (SECRET_FIELDS.includes(k) && typeof v === 'string' && !v.startsWith('${') ? [v] : clearSecrets(v)))
      : []
const nameOf = (type: string) => `t-${type.slice('policy-'.length)}`
const policyRows = () => svc.deps.prisma.apiProxyPolicy.findMany({ orderBy: [{ pipeline: 'asc' }, { position: 'asc' }], select: { name: true, type: true, pipeline: true, position: true, config: true } })
const proxyRevision = async () => (await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'CatalogueAPI' } })).revision

/** A refused write: 400 in the legacy envelope, the message as given, nothing stored, no revision, no push. */
const expectRefused = (write: () => Promise<LegacyAnswer>, message: RegExp) =>
  expectLegacyRefusal(write, message, { state: async () => [await policyRows(), await proxyRevision()], pushes: () => dev.received.length })

beforeAll(async () => {
  dev = await FakeWorker.start()
  svc = await startTestService({ bootstrap: catalogueBootstrap({ dev: [dev.url], prod: [] }), env: { DEPLOY_TIMEOUT_MS: '10000' } })
  ;[erin, frank, gina, rita] = await Promise.all([svc.tokenFor('erin', 'erin-pass-1'), svc.tokenFor('frank', 'frank-pass-1'), svc.tokenFor('gina', 'gina-pass-1'), svc.tokenFor('rita', 'rita-pass-1')])
  const created = await call('POST', 'url/', gina, { apiProxyName: 'CatalogueAPI', apiProxyCreationType: 'REVERSE_PROXY', clientRoute: { relativePathList: ['/catalogue'] }, deploy: true, deployTargetEnvironmentNameList: ['dev'] })
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  // the objects the valid policies name (this suite is about the references, not about these modules)
  const { id: projectId } = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
  await svc.deps.prisma.storedObject.createMany({
    data: [
      { projectId, type: 'CERTIFICATE', kind: 'KEY_STORE', name: FIXTURES.keystore, content: {} },
      { projectId, type: 'CERTIFICATE', kind: 'CERTIFICATE', name: FIXTURES.certificate, content: {} },
      { projectId, type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO', name: FIXTURES.aesKey, content: {} },
      { projectId, type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO', name: FIXTURES.signingKey, content: {} },
      { projectId, type: 'CERTIFICATE', kind: 'JWK', name: FIXTURES.jwk, content: {} },
      { projectId, type: 'IP_GROUP', kind: '', name: FIXTURES.ipGroup, content: { ips: ['198.51.100.0/24'] } },
    ],
  })
  await svc.deps.prisma.connection.createMany({
    data: [
      { projectId, type: 'ldap', name: FIXTURES.ldap, nameKey: FIXTURES.ldap },
      { projectId, type: 'kafka', name: FIXTURES.kafka, nameKey: FIXTURES.kafka },
    ],
  })
  await svc.deps.prisma.environmentVariable.create({ data: { projectId, name: FIXTURES.variable, nameKey: FIXTURES.variable.toLowerCase(), global: true, globalValue: 'not-a-secret-here' } })
  dev.received.length = 0
})
afterEach(() => {
  dev.status = 200
})
afterAll(async () => {
  await svc?.close()
  await dev?.stop()
})

describe('every policy type of the vendor folder', () => {
  it('has a case here for each type the catalogue serves, and the catalogue serves each page', async () => {
    const res = await get('/apiops/policy-types/', frank)
    expect(res.status).toBe(200)
    expect(res.body.resultList.map((t: any) => t.type).sort()).toEqual([...TYPES].sort())
    expect(TYPES).toHaveLength(45)
  })

  it.each(TYPES)('%s: a valid policy is stored and pushed to the worker', async (type) => {
    const policy = { type, description: `catalogue case ${type}`, ...CASES[type]!.valid }
    const name = nameOf(type)
    const pushes = dev.received.length
    const res = await call('POST', `CatalogueAPI/policies/${name}/`, gina, { operationMetadata: deployToDev, policy })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true, detailList: [{ envName: 'dev', success: true }] } })
    const row = await svc.deps.prisma.apiProxyPolicy.findFirstOrThrow({ where: { name } })
    expect(row.type).toBe(type)
    // secrets (write-only) are stored sealed: the row holds everything else as given, and no clear secret
    expect(row.config).toMatchObject(sealedLike(policy))
    for (const secret of clearSecrets(policy)) expect(JSON.stringify(row.config)).not.toContain(secret)
    expect(dev.received.length).toBe(pushes + 1)
    const pushed = (dev.received.at(-1)!.config.policies as any).request.find((p: any) => p.name === name)
    expect(pushed).toMatchObject({ ...policy, name })
  })

  it.each(TYPES)('%s: an invalid policy is refused naming the field; nothing is stored or pushed', async (type) => {
    const policy = { type, ...CASES[type]!.invalid }
    await expectRefused(() => call('POST', `CatalogueAPI/policies/bad-${nameOf(type)}/`, gina, { operationMetadata: deployToDev, policy }), CASES[type]!.refused)
  })

  it('an update is validated the same way, and the type can not change', async () => {
    const name = nameOf('policy-max-message-size')
    await expectRefused(() => call('PUT', `CatalogueAPI/policies/${name}/`, gina, { operationMetadata: meta(), policy: { type: 'policy-max-message-size', maxMessageSize: -5 } }), /^policy\.maxMessageSize: must be at least 1/)
    const ok = await call('PUT', `CatalogueAPI/policies/${name}/`, gina, { operationMetadata: meta(), policy: { type: 'policy-max-message-size', maxMessageSize: 2048 } })
    expect(ok.body).toEqual({ status: 'SUCCESS', success: true })
    expect((await svc.deps.prisma.apiProxyPolicy.findFirstOrThrow({ where: { name } })).config).toMatchObject({ maxMessageSize: 2048 })
  })

  it('an unknown type is refused with the list of valid types', async () => {
    const res = await expectRefused(() => call('POST', 'CatalogueAPI/policies/mystery/', gina, { operationMetadata: meta(), policy: { type: 'policy-teleport', active: true } }), /^policy\.type: must be a policy type, one of: /)
    for (const type of TYPES) expect(res.body.resultMessage).toContain(type)
    await expectRefused(() => call('POST', 'CatalogueAPI/policies/mystery/', gina, { operationMetadata: meta(), policy: { description: 'no type' } }), /^policy\.type: must be a policy type, one of: policy-auth-basic/)
  })
})

describe('references by name', () => {
  const post = (name: string, token: string, policy: Record<string, unknown>) => call('POST', `CatalogueAPI/policies/${name}/`, token, { operationMetadata: meta(), policy })
  const ok = async (name: string, token: string, policy: Record<string, unknown>) => {
    const res = await post(name, token, policy)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await svc.deps.prisma.apiProxyPolicy.count({ where: { name } })).toBe(1)
  }

  it('a connection: a missing one is refused naming field and name, one of the wrong type too; an existing LDAP one is accepted', async () => {
    const basic = { type: 'policy-auth-basic', usernameVar: { type: 'HEADER', headerName: 'Authorization' } }
    await expectRefused(() => post('ref-conn', gina, { ...basic, connectionName: 'ghost-ldap' }), /^policy\.connectionName: connection 'ghost-ldap' not found in project 'payments'/)
    await expectRefused(() => post('ref-conn', gina, { ...basic, connectionName: FIXTURES.kafka }), /^policy\.connectionName: connection 'events-kafka' is a kafka connection; it must be one of ldap, database/)
    await ok('ref-conn', gina, { ...basic, connectionName: FIXTURES.ldap })
  })

  it('a JWK: a missing one is refused naming field and name; an existing one is accepted', async () => {
    const jose = { ...CASES['policy-jose-validation']!.valid, type: 'policy-jose-validation' }
    await expectRefused(() => post('ref-jwk', gina, { ...jose, jwkIdForValidationAndSign: 'ghost-jwk' }), /^policy\.jwkIdForValidationAndSign: JWK 'ghost-jwk' not found in project 'payments'/)
    await expectRefused(
      () => post('ref-jwk', gina, { ...jose, decrypt: true, decryptByIssuer: false, jwkIdForDecryptionAndEncryption: 'ghost-enc-jwk' }),
      /^policy\.jwkIdForDecryptionAndEncryption: JWK 'ghost-enc-jwk' not found/,
    )
    await ok('ref-jwk', gina, { ...jose, decrypt: true, decryptByIssuer: false, jwkIdForDecryptionAndEncryption: FIXTURES.jwk })
  })

  it('an IP group: a missing one is refused naming field and name; an existing one is accepted (naming one needs VIEW on IP groups)', async () => {
    await expectRefused(() => post('ref-ip', rita, { type: 'policy-white-ip', ipGroupNameList: [FIXTURES.ipGroup, 'ghost-group'] }), /^policy\.ipGroupNameList\[1\]: IP group 'ghost-group' not found in project 'payments'/)
    await expectRefused(() => post('ref-ip', gina, { type: 'policy-white-ip', ipGroupNameList: [FIXTURES.ipGroup] }), /lacks permission/)
    await ok('ref-ip', rita, { type: 'policy-white-ip', ipGroupNameList: [FIXTURES.ipGroup] })
  })

  it('certificates, keystores and crypto keys: missing ones are refused naming field and name', async () => {
    const sign = CASES['policy-digital-sign']!.valid.policyDigitalSignDefList as any[]
    await expectRefused(
      () => post('ref-cert', gina, { type: 'policy-digital-sign', policyDigitalSignDefList: [{ ...sign[0], certificateId: 'ghost-cert' }] }),
      /^policy\.policyDigitalSignDefList\[0\]\.certificateId: certificate 'ghost-cert' not found in project 'payments'/,
    )
    await expectRefused(() => post('ref-ks', gina, { type: 'policy-ws-security-decrypt', decKeyStoreName: 'ghost-keystore' }), /^policy\.decKeyStoreName: keystore 'ghost-keystore' not found/)
    await expectRefused(() => post('ref-ks', gina, { type: 'policy-saml-validation', keyStoreId: 'ghost-keystore' }), /^policy\.keyStoreId: keystore 'ghost-keystore' not found/)
    const enc = CASES['policy-encryption']!.valid.policyEncryptionDefList as any[]
    await expectRefused(() => post('ref-key', gina, { type: 'policy-encryption', policyEncryptionDefList: [{ ...enc[0], cryptoKeyInfoId: 'ghost-key' }] }), /^policy\.policyEncryptionDefList\[0\]\.cryptoKeyInfoId: crypto key 'ghost-key' not found/)
    await expectRefused(
      () => post('ref-cert', gina, { type: 'policy-api-call', callType: 'ONE_WAY', httpMethod: 'GET', url: 'https://api.example.com/', certificateEnabled: true, certificateId: 'ghost-cert' }),
      /^policy\.certificateId: certificate 'ghost-cert' not found/,
    )
    await ok('ref-cert', gina, { type: 'policy-api-call', callType: 'ONE_WAY', httpMethod: 'GET', url: 'https://api.example.com/', certificateEnabled: true, certificateId: FIXTURES.certificate })
  })

  it('an environment variable: a secret field holding ${name} must name one of the project', async () => {
    const oidc = { ...CASES['policy-oidc']!.valid, type: 'policy-oidc' }
    await expectRefused(() => post('ref-env', rita, { ...oidc, clientSecret: '${GHOST_SECRET}' }), /^policy\.clientSecret: environment variable 'GHOST_SECRET' not found in project 'payments'/)
    await expectRefused(() => post('ref-env', rita, { type: 'policy-ws-security-username', username: 'u', password: '${NOPE}', passwordType: 'PasswordText' }), /^policy\.password: environment variable 'NOPE' not found/)
    await ok('ref-env', rita, { ...oidc, clientSecret: '${OIDC_SECRET}' })
  })
})

describe('published JSON Schemas (GET /apiops/policy-types/…)', () => {
  it('lists the types with family, title and description to any signed-in user; refuses anonymous callers', async () => {
    const res = await get('/apiops/policy-types', frank)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultCount: 45 })
    expect(res.body.resultList).toContainEqual({ type: 'policy-black-ip', family: 'ip-filtering', title: 'Blocked IP List', description: expect.any(String) })
    expect((await get('/apiops/policy-types/', null)).status).toBe(401)
  })

  it("serves a type's JSON Schema; an unknown type is a 404 in the legacy envelope", async () => {
    const res = await get('/apiops/policy-types/policy-black-ip/schema', erin)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', type: 'policy-black-ip', family: 'ip-filtering' })
    expect(res.body.schema).toMatchObject({ type: 'object', properties: { type: { const: 'policy-black-ip' }, ipList: expect.any(Object), ipGroupNameList: expect.any(Object) } })
    expect(res.body.schema.required).toEqual(['type'])
    const throttling = (await get('/apiops/policy-types/policy-api-based-throttling/schema', frank)).body.schema
    expect(throttling.required).toEqual(expect.arrayContaining(['type', 'targetVariableForIdentity', 'messageCountForInterval', 'throttlingInterval']))
    expect(throttling.properties.throttlingInterval.enum).toEqual(['ONE_SECOND', 'ONE_MINUTE', 'ONE_HOUR', 'ONE_DAY'])
    for (const type of TYPES) expect((await get(`/apiops/policy-types/${type}/schema`, frank)).status).toBe(200)
    const unknown = await get('/apiops/policy-types/policy-teleport/schema', frank)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ status: 'FAILURE', resultMessage: "Policy type 'policy-teleport' not found", errorKey: 'policyTypeNotFound', params: { type: 'policy-teleport' } })
  })
})

describe('GraphQL typed view', () => {
  it('shows type, family and config of each policy, and the catalogue with its schemas', async () => {
    const list = await svc.graphql('query { apiProxyPolicies(projectName: "payments", apiProxyName: "CatalogueAPI") { requestPolicyList { name type family config } } }', {}, frank)
    expect(list.body.errors).toBeUndefined()
    const quota = list.body.data.apiProxyPolicies.requestPolicyList.find((p: any) => p.name === nameOf('policy-api-based-quota'))
    expect(quota).toEqual({ name: 't-api-based-quota', type: 'policy-api-based-quota', family: 'traffic', config: expect.objectContaining({ type: 'policy-api-based-quota', name: 't-api-based-quota', quotaInterval: 'ONE_DAY' }) })
    // secrets are write-only: literal ones answer <field>Set, ${NAME} references stay visible
    const configOf = (name: string) => list.body.data.apiProxyPolicies.requestPolicyList.find((p: any) => p.name === name).config
    expect(configOf('t-ws-security-username')).toMatchObject({ username: 'myuser', passwordSet: true })
    expect(configOf('t-ws-security-username')).not.toHaveProperty('password')
    expect(configOf('t-oidc')).toMatchObject({ clientId: 'my-client', clientSecretSet: true })
    expect(configOf('t-oidc')).not.toHaveProperty('clientSecret')
    expect(configOf('ref-env')).toMatchObject({ clientSecret: '${OIDC_SECRET}' })
    expect(configOf('t-api-authentication').apiAuthCondExpressionList).toEqual([{ username: 'api-user', passwordSet: true }])
    const types = await svc.graphql('query { apiProxyPolicyTypes { type family schema } }', {}, frank)
    expect(types.body.data.apiProxyPolicyTypes).toHaveLength(45)
    expect(types.body.data.apiProxyPolicyTypes.find((t: any) => t.type === 'policy-script')).toMatchObject({ family: 'scripting', schema: { properties: { scriptLanguage: { enum: ['GROOVY', 'JAVASCRIPT'] } } } })
  })

  it('a GraphQL write goes through the same validation', async () => {
    const res = await svc.graphql('mutation($m: JSON!, $p: JSON!) { addApiProxyPolicy(projectName: "payments", apiProxyName: "CatalogueAPI", policyName: "gql-bad", operationMetadata: $m, policy: $p) { deploymentResult { success } } }',
      { m: meta(), p: { type: 'policy-min-message-size', minMessageSize: 0 } }, gina)
    expect(res.body.errors![0].message).toMatch(/^policy\.minMessageSize: must be at least 1/)
    expect(await svc.deps.prisma.apiProxyPolicy.count({ where: { name: 'gql-bad' } })).toBe(0)
  })
})

describe('policies stored before the catalogue', () => {
  it('stay readable and deployable; their next write validates them', async () => {
    const proxy = await svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'CatalogueAPI' } })
    const position = (await svc.deps.prisma.apiProxyPolicy.count({ where: { apiProxyId: proxy.id, endpointId: null, pipeline: 'ERROR' } })) + 1
    await svc.deps.prisma.apiProxyPolicy.create({
      data: { apiProxyId: proxy.id, endpointId: null, pipeline: 'ERROR', position, name: 'legacy-block', nameKey: 'legacy-block', type: 'policy-black-ip', description: null, active: true, config: { type: 'policy-black-ip', active: true, ipList: 'not-a-list' } },
    })
    const listed = (await call('GET', 'CatalogueAPI/policies/', frank)).body.resultList[0].errorPolicyList
    expect(listed).toContainEqual({ name: 'legacy-block', type: 'policy-black-ip', active: true, order: position })
    const gql = await svc.graphql('query { apiProxyPolicies(projectName: "payments", apiProxyName: "CatalogueAPI") { errorPolicyList { name config } } }', {}, frank)
    expect(gql.body.data.apiProxyPolicies.errorPolicyList).toContainEqual({ name: 'legacy-block', config: { type: 'policy-black-ip', active: true, ipList: 'not-a-list', name: 'legacy-block' } })
    // a redeploy carries it as stored
    const deployed = await call('POST', 'CatalogueAPI/environments/dev/', gina)
    expect(deployed.status).toBe(200)
    expect((dev.received.at(-1)!.config.policies as any).error).toContainEqual(expect.objectContaining({ name: 'legacy-block', ipList: 'not-a-list' }))
    // writing it again validates it
    await expectRefused(() => call('PUT', 'CatalogueAPI/policies/legacy-block/', gina, { operationMetadata: meta({ targetPipeline: 'ERROR' }), policy: { type: 'policy-black-ip', ipList: 'not-a-list' } }), /^policy\.ipList: must be a list/)
    const fixed = await call('PUT', 'CatalogueAPI/policies/legacy-block/', gina, { operationMetadata: meta({ targetPipeline: 'ERROR' }), policy: { type: 'policy-black-ip', ipList: ['192.0.2.1'] } })
    expect(fixed.body).toEqual({ status: 'SUCCESS', success: true })
  })
})
