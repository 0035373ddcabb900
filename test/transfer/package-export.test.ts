import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256Hex } from '../../src/platform/hashing/canonical.js'
import { startTestService, type TestService } from '../support/app.js'
import { TransferExportPreviewDocument, TransferExportRunDocument, TransferObjectTypesDocument } from '../generated/graphql.js'
import { b64, jsonOfFile, legacyExport, postJson, transferBootstrap, unzip } from '../support/zip-fixtures.js'

let svc: TestService
let root: string
let alice: string
let erin: string
let frank: string
let bob: string

beforeAll(async () => {
  svc = await startTestService({ bootstrap: transferBootstrap() })
  root = await svc.tokenFor('root', 's3cret-root')
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  erin = await svc.tokenFor('erin', 'erin-pass-1')
  frank = await svc.tokenFor('frank', 'frank-pass-1')
  bob = await svc.tokenFor('bob', 'bob-pass-1')
})
afterAll(async () => {
  await svc?.close()
})

const preview = (token: string, body: unknown, project = 'payments') => postJson(svc, token, `/apiops/projects/${project}/transfer-export-previews`, body)
const run = (token: string, body: unknown, query = '', headers: Record<string, string> = {}) =>
  postJson(svc, token, `/apiops/projects/payments/transfer-export-runs${query}`, body, headers)

describe('the type registry', () => {
  it('lists every exportable type with its category, kinds, secret fields, scope and owning module', async () => {
    const { data, errors } = await svc.op(TransferObjectTypesDocument, {}, alice)
    expect(errors).toBeUndefined()
    const byType = Object.fromEntries(data!.transferObjectTypes.map((t) => [t.type, t]))
    expect(Object.keys(byType).sort()).toEqual([
      'AI_BUDGET', 'AI_PROXY', 'API_CREATOR', 'API_PROXY', 'API_PROXY_GROUP', 'APPLICATION', 'CERTIFICATE', 'CONNECTION', 'CREDENTIAL', 'ENVIRONMENT_VARIABLE', 'GLOBAL_POLICY', 'IDENTITY_SERVICE', 'IP_GROUP', 'KNOWLEDGE_BASE', 'LIMIT_ASSIGNMENT', 'LIMIT_PLAN', 'LLM_PROVIDER', 'RLCL', 'WEBHOOK_CONNECTION',
    ])
    expect(byType.CERTIFICATE).toEqual({ type: 'CERTIFICATE', category: 'CERTIFICATE', kinds: ['CERTIFICATE', 'KEY_STORE', 'CRYPTO_KEY_INFO', 'JWK'], secretFields: ['privateKey', 'secretKey', 'password', 'keyPassword', 'privateJwk', 'file'], scope: 'PROJECT', source: 'stored-objects' })
    expect(byType.CREDENTIAL).toMatchObject({ kinds: null, secretFields: ['password'], source: 'credentials' })
    expect(byType.APPLICATION).toMatchObject({ category: 'IDENTITY', kinds: null, secretFields: ['apiClients/<clientId>/clientSecret'], scope: 'PROJECT', source: 'identity' })
    expect(byType.ENVIRONMENT_VARIABLE).toMatchObject({ category: 'PROJECT_MANAGEMENT', secretFields: ['globalValue', 'environments/<environment>/value'], source: 'envvars' })
    expect(byType.WEBHOOK_CONNECTION).toMatchObject({ scope: 'INSTALLATION', source: 'webhooks' })
    expect(byType.CONNECTION).toMatchObject({ category: 'CONNECTION', kinds: null, scope: 'PROJECT', source: 'connections', secretFields: expect.arrayContaining(['password', 'connectionFactoryPassword']) })
    expect(byType.LLM_PROVIDER).toMatchObject({ source: 'llm', scope: 'PROJECT' })
    expect(byType.KNOWLEDGE_BASE).toMatchObject({ source: 'llm' })
    expect(byType.API_PROXY).toEqual({
      type: 'API_PROXY', category: 'API_MANAGEMENT', kinds: null, scope: 'PROJECT', source: 'apiproxies',
      secretFields: ['settings/apiKeys.secretKey', 'settings/ntlm.password', 'settings/proxyServer.proxyPassword', 'policies/<policy>/<field path>'],
    })
    expect(byType.RLCL).toEqual({ type: 'RLCL', category: 'API_MANAGEMENT', kinds: null, secretFields: [], scope: 'PROJECT', source: 'rlcl' })
    expect(byType.IDENTITY_SERVICE.kinds).toEqual(['LDAP', 'ACTIVE_DIRECTORY', 'OIDC', 'SAML', 'DATABASE'])
    expect(byType.API_CREATOR).toMatchObject({ kinds: ['OPENAPI', 'WSDL', 'GRPC_PROTO', 'GRAPHQL_SDL', 'DB2API', 'MOCKAPI', 'SCRIPT2API'], source: 'creators' })
  })
})

describe('legacy export (spec §4.3)', () => {
  it('packages one object with a manifest of SHA-256 fingerprints, named <name>.zip', async () => {
    const { res, bytes } = await legacyExport(svc, alice, 'payments', 'ip_group', { names: ['office-ips'] })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/octet-stream')
    expect(res.headers.get('content-disposition')).toContain('filename="office-ips.zip"')
    const files = unzip(bytes)
    expect([...files.keys()].sort()).toEqual(['office-ips.json', 'service-transfer-manifest.json'])
    const manifest = jsonOfFile(files, 'service-transfer-manifest.json')
    expect(manifest).toMatchObject({
      manifestFormat: 1, checksumAlgorithm: 'SHA-256', formatVersion: 1, type: 'IP_GROUP', kind: null, withDependencies: false,
      sourceProject: 'payments', exportedBy: 'alice', notWritten: [],
      objects: [{ type: 'IP_GROUP', kind: null, name: 'office-ips', role: 'SELECTED', file: 'office-ips.json' }],
    })
    expect(manifest.files).toEqual([{ name: 'office-ips.json', sha256: sha256Hex(files.get('office-ips.json')!), size: files.get('office-ips.json')!.length }])
    const object = jsonOfFile(files, 'office-ips.json')
    expect(object).toEqual({ formatVersion: 1, role: 'SELECTED', type: 'IP_GROUP', kind: null, name: 'office-ips', data: { ips: ['10.0.0.0/8'] }, secrets: {}, dependencies: [] })
    expect(JSON.stringify(object)).not.toMatch(/"id"|createdAt|updatedAt|revision/)
  })

  it('several objects give <type>-export.zip; with dependencies every referenced object is carried', async () => {
    const many = await legacyExport(svc, alice, 'payments', 'IP_GROUP', { names: ['office-ips', 'partner-ips'] })
    expect(many.res.headers.get('content-disposition')).toContain('filename="IP_GROUP-export.zip"')

    const { res, bytes } = await legacyExport(svc, alice, 'payments', 'GLOBAL_POLICY', { names: ['block-bad'] }, { withDependencies: true })
    expect(res.status).toBe(200)
    const files = unzip(bytes)
    expect([...files.keys()].sort()).toEqual(['block-bad.json', 'dependencies/IP_GROUP/office-ips.json', 'dependencies/IP_GROUP/partner-ips.json', 'service-transfer-manifest.json'])
    expect(jsonOfFile(files, 'block-bad.json').dependencies).toEqual([{ type: 'IP_GROUP', kind: null, name: 'office-ips' }, { type: 'IP_GROUP', kind: null, name: 'partner-ips' }])
    expect(jsonOfFile(files, 'dependencies/IP_GROUP/office-ips.json').role).toBe('DEPENDENCY')

    // transitive: IDENTITY_SERVICE → CERTIFICATE/CERTIFICATE api-cert (kind-qualified folder)
    const ldap = unzip((await legacyExport(svc, root, 'payments', 'IDENTITY_SERVICE', { names: ['corp-ldap'] }, { withDependencies: true })).bytes)
    expect(ldap.has('dependencies/CERTIFICATE/CERTIFICATE/api-cert.json')).toBe(true)
  })

  it('secrets travel as re-sealed ciphertext by default, in clear only when asked, or not at all', async () => {
    const verbatim = unzip((await legacyExport(svc, alice, 'payments', 'IDENTITY_SERVICE', { names: ['corp-ldap'] })).bytes)
    const sealed = jsonOfFile(verbatim, 'corp-ldap.json')
    expect(sealed.kind).toBe('LDAP')
    expect(sealed.data).toEqual({ url: 'ldap://ldap.example.test', certificateName: 'api-cert' })
    expect(sealed.secrets.bindPassword.handling).toBe('CIPHERTEXT_VERBATIM')
    expect(sealed.secrets.bindPassword.value).toMatch(/^v1\./)
    expect([...verbatim.values()].some((b) => b.toString().includes('ldap-secret-1'))).toBe(false)
    expect(jsonOfFile(verbatim, 'service-transfer-manifest.json').criticalFeatures).toEqual(['secrets.ciphertextVerbatim'])

    const clear = unzip((await legacyExport(svc, alice, 'payments', 'IDENTITY_SERVICE', { names: ['corp-ldap'] }, { secretHandling: 'DECRYPTED_FOR_EXPORT' })).bytes)
    expect(jsonOfFile(clear, 'corp-ldap.json').secrets).toEqual({ bindPassword: { handling: 'DECRYPTED_FOR_EXPORT', value: 'ldap-secret-1' } })
    const none = unzip((await legacyExport(svc, alice, 'payments', 'IDENTITY_SERVICE', { names: ['corp-ldap'] }, { secretHandling: 'NONE' })).bytes)
    expect(jsonOfFile(none, 'corp-ldap.json').secrets).toEqual({ bindPassword: { handling: 'NONE' } })
    expect(jsonOfFile(none, 'service-transfer-manifest.json').criticalFeatures).toEqual([])
  })

  it('an encrypted package is encrypted whole: no object name or content shows', async () => {
    const { res, bytes } = await legacyExport(svc, alice, 'payments', 'IDENTITY_SERVICE', { names: ['corp-ldap'] }, { encrypt: true, passphrase: 'correct horse', withDependencies: true })
    expect(res.status).toBe(200)
    const files = unzip(bytes)
    expect([...files.keys()].sort()).toEqual(['service-transfer-encryption.json', 'service-transfer-package.bin'])
    for (const visible of ['corp-ldap', 'api-cert', 'ldap-secret-1', 'PRIVATE-KEY-1', 'IDENTITY_SERVICE']) expect(bytes.includes(Buffer.from(visible))).toBe(false)
    expect(jsonOfFile(files, 'service-transfer-encryption.json')).toMatchObject({ format: 1, cipher: 'AES-256-GCM', kdf: { name: 'scrypt', N: 32768, r: 8, p: 1 } })
  })

  describe('every 400 cause of §7.1, with nothing streamed', () => {
    const refused = async (token: string, type: string, body: unknown, opts: Parameters<typeof legacyExport>[5] = {}) => {
      const { res, bytes } = await legacyExport(svc, token, 'payments', type, body, opts)
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toContain('application/json')
      const json = JSON.parse(bytes.toString())
      expect(json.status).toBe('FAILURE')
      return json.resultMessage as string
    }

    it('unknown name fails the whole call', async () => {
      expect(await refused(alice, 'IP_GROUP', { names: ['office-ips', 'nope'] })).toContain("'nope' not found")
    })
    it('empty or missing names', async () => {
      expect(await refused(alice, 'IP_GROUP', { names: [] })).toContain('names is required')
      expect(await refused(alice, 'IP_GROUP', {})).toContain('names is required')
    })
    it('a name shared by several kinds needs kind; with kind it exports', async () => {
      expect(await refused(alice, 'CERTIFICATE', { names: ['api-cert'] })).toMatch(/several kinds.*set kind/)
      const ok = await legacyExport(svc, alice, 'payments', 'CERTIFICATE', { names: ['api-cert'], kind: 'KEY_STORE' })
      expect(ok.res.status).toBe(200)
      expect(jsonOfFile(unzip(ok.bytes), 'api-cert.json').kind).toBe('KEY_STORE')
    })
    it('names clashing after sanitising', async () => {
      expect(await refused(alice, 'IP_GROUP', { names: ['lab:one', 'lab*one'] })).toMatch(/lab_one\.json; rename/)
    })
    it('unknown kind lists the supported kinds', async () => {
      expect(await refused(alice, 'CERTIFICATE', { names: ['api-cert'], kind: 'PEM' })).toContain('supported kinds: CERTIFICATE, KEY_STORE, CRYPTO_KEY_INFO, JWK')
    })
    it('unknown type lists the supported types', async () => {
      const message = await refused(alice, 'NOT_A_TYPE', { names: ['x'] })
      expect(message).toContain("Unknown object type 'NOT_A_TYPE'")
      for (const t of ['LLM_PROVIDER', 'KNOWLEDGE_BASE', 'CREDENTIAL', 'IP_GROUP', 'CERTIFICATE', 'GLOBAL_POLICY', 'API_CREATOR', 'IDENTITY_SERVICE', 'WEBHOOK_CONNECTION']) {
        expect(message).toContain(t)
      }
    })
    it('lacking EXPORT_IMPORT on the type, or on a dependency\'s category', async () => {
      expect(await refused(frank, 'IP_GROUP', { names: ['office-ips'] })).toContain('lacks permission IP_GROUP EXPORT_IMPORT')
      // erin may export the policy alone, not the IP groups it carries along
      expect((await legacyExport(svc, erin, 'payments', 'GLOBAL_POLICY', { names: ['block-bad'] })).res.status).toBe(200)
      expect(await refused(erin, 'GLOBAL_POLICY', { names: ['block-bad'] }, { withDependencies: true })).toContain('IP_GROUP EXPORT_IMPORT')
    })
    it('encrypt without passphrase', async () => {
      expect(await refused(alice, 'IP_GROUP', { names: ['office-ips'] }, { encrypt: true })).toContain('X-Service-Package-Passphrase')
    })
    it('a name resolving to the manifest file name', async () => {
      expect(await refused(alice, 'IP_GROUP', { names: ['service-transfer-manifest'] })).toContain('reserved file name service-transfer-manifest.json')
      // a plain package holding the encryption header's file name would read as an encrypted one on import
      const payments = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
      await svc.deps.prisma.storedObject.create({ data: { projectId: payments.id, type: 'IP_GROUP', name: 'Service-Transfer-Encryption', content: { ips: [] } } })
      try {
        expect(await refused(alice, 'IP_GROUP', { names: ['Service-Transfer-Encryption'] })).toContain('reserved file name service-transfer-encryption.json')
      } finally {
        await svc.deps.prisma.storedObject.deleteMany({ where: { projectId: payments.id, type: 'IP_GROUP', name: 'Service-Transfer-Encryption' } })
      }
    })
    it('unknown project and missing token', async () => {
      const unknown = await legacyExport(svc, alice, 'nowhere', 'IP_GROUP', { names: ['office-ips'] })
      expect(unknown.res.status).toBe(400)
      const anonymous = await svc.http('/apiops/projects/payments/export-import/IP_GROUP/export/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"names":["office-ips"]}' })
      expect(anonymous.status).toBe(401)
    })
  })
})

describe('transfer export (spec §4.4)', () => {
  const selection = { formatVersion: 1, type: 'GLOBAL_POLICY', names: ['block-bad'], withDependencies: true }

  it('previews objects, dependencies, secret handling and a digest, and the run streams that selection', async () => {
    const p = await preview(alice, selection)
    expect(p.res.status).toBe(200)
    expect(p.body).toEqual({
      formatVersion: 1, type: 'GLOBAL_POLICY', withDependencies: true,
      objects: [{ name: 'block-bad', kind: null, type: 'GLOBAL_POLICY' }],
      dependencies: [
        { type: 'IP_GROUP', kind: null, name: 'office-ips', secret: false },
        { type: 'IP_GROUP', kind: null, name: 'partner-ips', secret: false },
      ],
      secretHandling: 'CIPHERTEXT_VERBATIM', advisories: [], exportDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    })
    const r = await run(alice, { ...selection, expectedExportDigest: p.body.exportDigest })
    expect(r.res.status).toBe(200)
    expect(r.res.headers.get('content-disposition')).toContain('filename="block-bad.zip"')
    expect(jsonOfFile(unzip(r.bytes), 'service-transfer-manifest.json').exportDigest).toBe(p.body.exportDigest)
  })

  it('the digest is stable across previews and name order, and drifts after a change: 409 with nothing streamed', async () => {
    const a = await preview(alice, { ...selection, names: ['block-bad'] })
    const b = await preview(alice, selection)
    expect(a.body.exportDigest).toBe(b.body.exportDigest)
    const two = await preview(alice, { formatVersion: 1, type: 'IP_GROUP', names: ['office-ips', 'partner-ips'] })
    const swapped = await preview(alice, { formatVersion: 1, type: 'IP_GROUP', names: ['partner-ips', 'office-ips'] })
    expect(two.body.exportDigest).toBe(swapped.body.exportDigest)

    // a dependency changes: the digest of the selection changes
    const project = await svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
    await svc.deps.prisma.storedObject.update({
      where: { projectId_type_kind_name: { projectId: project.id, type: 'IP_GROUP', kind: '', name: 'partner-ips' } },
      data: { content: { ips: ['192.168.0.0/16', '172.16.0.0/12'] } },
    })
    const after = await preview(alice, selection)
    expect(after.body.exportDigest).not.toBe(a.body.exportDigest)
    const stale = await run(alice, { ...selection, expectedExportDigest: a.body.exportDigest })
    expect(stale.res.status).toBe(409)
    expect(stale.res.headers.get('content-type')).toContain('application/json')
    expect(stale.body).toMatchObject({ errorKey: 'dependencyConflict', params: { reason: 'transfer.exportDigestMismatch', currentExportDigest: after.body.exportDigest } })
    expect(stale.body.correlationId).toBeTruthy()
  })

  it('runs encrypted with the passphrase header, and refuses encrypt without one', async () => {
    const p = await preview(alice, { formatVersion: 1, type: 'IP_GROUP', names: ['office-ips'] })
    const body = { formatVersion: 1, type: 'IP_GROUP', names: ['office-ips'], expectedExportDigest: p.body.exportDigest }
    const missing = await run(alice, body, '?encrypt=true')
    expect(missing.res.status).toBe(400)
    expect(missing.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'packagePassphraseRequired' } })
    const ok = await run(alice, body, '?encrypt=true', { 'X-Service-Package-Passphrase': b64('pässphrase') })
    expect(ok.res.status).toBe(200)
    expect([...unzip(ok.bytes).keys()].sort()).toEqual(['service-transfer-encryption.json', 'service-transfer-package.bin'])
  })

  it('refuses with Common Contract errors', async () => {
    const cases: [string, unknown, number, Record<string, unknown>][] = [
      [alice, { ...selection, formatVersion: 2 }, 400, { errorKey: 'malformedRequest', params: { reason: 'transfer.formatVersionUnsupported' } }],
      [alice, { formatVersion: 1, type: 'NOPE', names: ['x'] }, 400, { errorKey: 'malformedRequest', params: { reason: 'unknownType', field: 'type' } }],
      [alice, { ...selection, include: 'all' }, 400, { errorKey: 'malformedRequest', params: { field: 'include' } }],
      [alice, { formatVersion: 1, type: 'IP_GROUP', names: [] }, 400, { errorKey: 'malformedRequest', params: { reason: 'namesRequired', field: 'names' } }],
      [alice, { formatVersion: 1, type: 'IP_GROUP', names: ['nope'] }, 404, { errorKey: 'resourceNotFound', params: { type: 'IP_GROUP', name: 'nope' } }],
      [alice, { formatVersion: 1, type: 'CERTIFICATE', names: ['api-cert'] }, 400, { errorKey: 'malformedRequest', params: { reason: 'nameAmbiguous', kinds: ['CERTIFICATE', 'KEY_STORE'] } }],
      [frank, { formatVersion: 1, type: 'IP_GROUP', names: ['office-ips'] }, 403, { errorKey: 'permissionDenied' }],
      [erin, selection, 403, { errorKey: 'permissionDenied', params: { category: 'IP_GROUP', object: 'IP_GROUP/office-ips' } }],
      [alice, { formatVersion: 1, type: 'WEBHOOK_CONNECTION', names: ['x'] }, 403, { errorKey: 'permissionDenied', params: { reason: 'systemAdminRequired' } }],
    ]
    for (const [token, body, status, expected] of cases) {
      const r = await preview(token, body)
      expect(r.res.status, JSON.stringify(body)).toBe(status)
      expect(r.body).toMatchObject(expected)
    }
    // out of scope is 404, the platform project is refused
    expect((await preview(bob, selection, 'other')).res.status).toBe(404)
    const platform = await preview(root, selection, 'admin')
    expect(platform.res.status).toBe(400)
    expect(platform.body.params.reason).toBe('platformScopeNotSupported')
    // expectedExportDigest is required on a run
    const noDigest = await run(alice, selection)
    expect(noDigest.res.status).toBe(400)
    expect(noDigest.body.params.field).toBe('expectedExportDigest')
  })

  it('GraphQL: preview, then a run returning the package inline (base64)', async () => {
    const input = { formatVersion: 1, type: 'IP_GROUP', names: ['office-ips'] }
    const p = await svc.op(TransferExportPreviewDocument, { projectName: 'payments', input }, alice)
    expect(p.errors).toBeUndefined()
    const digest = p.data!.transferExportPreview.exportDigest
    const r = await svc.op(TransferExportRunDocument, { projectName: 'payments', input: { ...input, expectedExportDigest: digest } }, alice)
    expect(r.errors).toBeUndefined()
    const pkg = r.data!.transferExportRun
    expect(pkg).toMatchObject({ fileName: 'office-ips.zip', contentType: 'application/zip', encrypted: false, exportDigest: digest, secretHandling: 'CIPHERTEXT_VERBATIM' })
    const bytes = Buffer.from(pkg.contentBase64, 'base64')
    expect(pkg.sha256).toBe(sha256Hex(bytes))
    expect(pkg.sizeBytes).toBe(bytes.length)
    expect(jsonOfFile(unzip(bytes), 'office-ips.json').name).toBe('office-ips')
    const stale = await svc.op(TransferExportRunDocument, { projectName: 'payments', input: { ...input, expectedExportDigest: 'sha256:0' } }, alice)
    expect(stale.errors?.[0].extensions).toMatchObject({ errorKey: 'dependencyConflict', params: { reason: 'transfer.exportDigestMismatch' } })
  })
})
