import crypto from 'node:crypto'
import { print } from 'graphql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import {
  ExportWebhookConnectionDocument, TransferExportPreviewDocument, TransferExportRunDocument, TransferImportPreflightDocument, TransferImportRunDocument,
} from '../generated/graphql.js'
import { fileOfJson, importPackage, importRun, jsonOfFile, legacyExport, preflight, tamper, transferBootstrap, transferExport, unzip } from '../support/zip-fixtures.js'

let svc: TestService
let worker: FakeWorker
let root: string
let alice: string

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: transferBootstrap({ dev: [worker.url] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const projectId = async (name: string) => (await svc.deps.prisma.project.findUniqueOrThrow({ where: { name } })).id

/** an opaque object's content with sealed secrets opened, as the type's module would read it */
async function stored(project: string, type: string, kind: string | null, name: string) {
  const row = await svc.deps.prisma.storedObject.findUnique({
    where: { projectId_type_kind_name: { projectId: await projectId(project), type, kind: kind ?? '', name } },
  })
  if (!row) return null
  const content = Object.fromEntries(
    Object.entries(row.content as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' && svc.deps.keyring.knows(v) ? svc.deps.keyring.decrypt(v) : v]),
  )
  return { content, raw: row.content as Record<string, unknown>, revision: row.revision }
}

const storedCount = async (project: string) => svc.deps.prisma.storedObject.count({ where: { projectId: await projectId(project) } })

interface OpaqueCase { type: string; kind: string | null; name: string; secrets: string[]; dependencies: [string, string | null, string][] }
const OPAQUE: OpaqueCase[] = [
  { type: 'IP_GROUP', kind: null, name: 'office-ips', secrets: [], dependencies: [] },
  { type: 'CERTIFICATE', kind: 'CERTIFICATE', name: 'api-cert', secrets: ['privateKey'], dependencies: [] },
  { type: 'GLOBAL_POLICY', kind: null, name: 'block-bad', secrets: [], dependencies: [['IP_GROUP', null, 'partner-ips']] },
  { type: 'API_CREATOR', kind: 'OPENAPI', name: 'orders-spec', secrets: [], dependencies: [] },
  { type: 'IDENTITY_SERVICE', kind: 'LDAP', name: 'corp-ldap', secrets: ['bindPassword'], dependencies: [] },
  // LLM_PROVIDER and KNOWLEDGE_BASE belong to modules/llm: their round trips are in test/llm/llm-transfer.test.ts
]

describe('round trips of every opaque type into the project `other`, NEW then REPLACE', () => {
  for (const c of OPAQUE) {
    it(`${c.type} ${c.name}`, async () => {
      const source = await stored('payments', c.type, c.kind, c.name)
      const { bytes } = await transferExport(svc, alice, 'payments', { formatVersion: 1, type: c.type, names: [c.name], ...(c.kind ? { kind: c.kind } : {}), withDependencies: true })

      // NEW: the object and its dependencies are created; secrets sealed at rest, equal in clear
      const first = await importPackage(svc, root, 'other', c.type, bytes)
      expect(first.preflight).toMatchObject({ type: c.type, detectedType: c.type, objects: [{ name: c.name, kind: c.kind, type: c.type }], blockers: [] })
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(first.body).toMatchObject({ formatVersion: 1, type: c.type, conflictPolicy: 'NEW', advisories: [], unresolvedReferences: [] })
      expect(first.body.imported[0]).toEqual({ name: c.name, kind: c.kind, type: c.type })
      const copy = await stored('other', c.type, c.kind, c.name)
      expect(copy!.content).toEqual(source!.content)
      for (const field of c.secrets) {
        expect(copy!.raw[field]).toMatch(/^v1\./) // sealed at rest
        expect(copy!.content[field]).toBe(source!.content[field])
      }
      for (const [type, kind, name] of c.dependencies) expect(await stored('other', type, kind, name)).not.toBeNull()

      // NEW again: the name is taken, nothing written
      const before = await storedCount('other')
      const again = await importPackage(svc, root, 'other', c.type, bytes)
      expect(again.preflight.replaceTargets).toContain(c.name)
      expect(again.status).toBe(400)
      expect(again.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'importNameCollision', names: [c.name] } })
      expect(await storedCount('other')).toBe(before)

      // REPLACE after a change in the target brings the packaged content back
      await svc.deps.prisma.storedObject.update({
        where: { projectId_type_kind_name: { projectId: await projectId('other'), type: c.type, kind: c.kind ?? '', name: c.name } },
        data: { content: { changed: true } },
      })
      const replaced = await importPackage(svc, root, 'other', c.type, bytes, { conflictPolicy: 'REPLACE' })
      expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
      expect(replaced.body.conflictPolicy).toBe('REPLACE')
      const after = await stored('other', c.type, c.kind, c.name)
      expect(after!.content).toEqual(source!.content)
      expect(after!.revision).toBe(copy!.revision + 1)
    })
  }
})

describe('certificate per-environment merge on REPLACE', () => {
  const setTargetEnvironments = async (environments: Record<string, unknown>) => {
    const where = { projectId_type_kind_name: { projectId: await projectId('other'), type: 'CERTIFICATE', kind: 'CERTIFICATE', name: 'api-cert' } }
    const current = await svc.deps.prisma.storedObject.findUniqueOrThrow({ where })
    await svc.deps.prisma.storedObject.update({ where, data: { content: { ...(current.content as object), environments } as object } })
  }
  const envsAfter = async (options: Record<string, unknown>) => {
    const { bytes } = await legacyExport(svc, alice, 'payments', 'CERTIFICATE', { names: ['api-cert'], kind: 'CERTIFICATE' })
    await setTargetEnvironments({ dev: { alias: 't-dev' }, qa: { alias: 't-qa' } })
    const r = await importPackage(svc, root, 'other', 'CERTIFICATE', bytes, { conflictPolicy: 'REPLACE', ...options })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    return (await stored('other', 'CERTIFICATE', 'CERTIFICATE', 'api-cert'))!.content.environments
  }

  it('MATCH_BY_NAME takes matching environments from the package, keeps the target\'s others, and fills or removes uncovered ones', async () => {
    if (!(await stored('other', 'CERTIFICATE', 'CERTIFICATE', 'api-cert'))) throw new Error('round trip must run first')
    // `other` has only the environment dev: the package's prod is uncovered there
    expect(await envsAfter({})).toEqual({ dev: { alias: 'd' }, qa: { alias: 't-qa' }, prod: { alias: 'p' } })
    expect(await envsAfter({ certEnvironmentUncoveredAction: 'REMOVE_FROM_TARGET' })).toEqual({ dev: { alias: 'd' }, qa: { alias: 't-qa' } })
    expect(await envsAfter({ certEnvironmentMergeMethod: 'OVERWRITE_ALL' })).toEqual({ dev: { alias: 'd' }, prod: { alias: 'p' } })
  })
})

describe('secret handling on import', () => {
  const LDAP = { type: 'IDENTITY_SERVICE', kind: 'LDAP', name: 'corp-ldap' }
  const dropLdap = async () => svc.deps.prisma.storedObject.deleteMany({ where: { ...LDAP, projectId: await projectId('other') } })

  it('NONE carries no secret: NEW leaves it unset, REPLACE keeps the target\'s, both with an advisory', async () => {
    const { bytes } = await legacyExport(svc, alice, 'payments', 'IDENTITY_SERVICE', { names: ['corp-ldap'] }, { secretHandling: 'NONE' })
    const replaced = await importPackage(svc, root, 'other', 'IDENTITY_SERVICE', bytes, { conflictPolicy: 'REPLACE' })
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    expect(replaced.body.advisories).toEqual([{ level: 'WARNING', key: 'transfer.secretNotCarried', params: { object: 'IDENTITY_SERVICE/LDAP/corp-ldap', fields: ['bindPassword'] } }])
    expect(replaced.body.unresolvedReferences).toEqual(['IDENTITY_SERVICE/LDAP/corp-ldap: secret field(s) bindPassword were not in the package; set them in the target'])
    expect((await stored('other', 'IDENTITY_SERVICE', 'LDAP', 'corp-ldap'))!.content.bindPassword).toBe('ldap-secret-1')

    await dropLdap()
    const created = await importPackage(svc, root, 'other', 'IDENTITY_SERVICE', bytes)
    expect(created.status).toBe(200)
    expect(created.body.advisories.map((a: any) => a.key)).toEqual(['transfer.secretNotCarried'])
    expect((await stored('other', 'IDENTITY_SERVICE', 'LDAP', 'corp-ldap'))!.content).toEqual({ url: 'ldap://ldap.example.test', certificateName: 'api-cert' })
  })

  it('encrypted round trip; a missing or wrong passphrase is refused with nothing written', async () => {
    await dropLdap()
    const { bytes } = await transferExport(svc, alice, 'payments', { formatVersion: 1, type: 'IDENTITY_SERVICE', names: ['corp-ldap'] }, { passphrase: 'Grüße & Co' })
    const count = await storedCount('other')

    const missing = await preflight(svc, root, 'other', 'IDENTITY_SERVICE', bytes)
    expect(missing.status).toBe(400)
    expect(missing.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'packagePassphraseRequired' } })
    const wrong = await preflight(svc, root, 'other', 'IDENTITY_SERVICE', bytes, 'Grüsse & Co')
    expect(wrong.status).toBe(400)
    expect(wrong.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'packagePassphraseIncorrect' } })
    const good = await preflight(svc, root, 'other', 'IDENTITY_SERVICE', bytes, 'Grüße & Co')
    expect(good.status).toBe(200)
    const wrongRun = await importRun(svc, root, 'other', bytes, { type: 'IDENTITY_SERVICE', preflightDigest: good.body.preflightDigest }, { passphrase: 'nope' })
    expect(wrongRun.status).toBe(400)
    expect(wrongRun.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'packagePassphraseIncorrect' } })
    expect(await storedCount('other')).toBe(count)

    const ok = await importRun(svc, root, 'other', bytes, { type: 'IDENTITY_SERVICE', preflightDigest: good.body.preflightDigest }, { passphrase: 'Grüße & Co' })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.advisories).toEqual([])
    expect((await stored('other', 'IDENTITY_SERVICE', 'LDAP', 'corp-ldap'))!.content).toEqual({ url: 'ldap://ldap.example.test', certificateName: 'api-cert', bindPassword: 'ldap-secret-1' })
  })
})

describe('credentials', () => {
  it('a username taken in another project blocks; once moved, NEW mints a new consumerKey and REPLACE keeps the target\'s', async () => {
    const original = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    const { bytes } = await transferExport(svc, alice, 'payments', { formatVersion: 1, type: 'CREDENTIAL', names: ['shop-frontend'] })
    const file = jsonOfFile(unzip(bytes), 'shop-frontend.json')
    expect(JSON.stringify(file)).not.toContain(original.consumerKey)
    expect(file.data).toMatchObject({ fullName: 'Shop Frontend', email: 'shop@example.test', organizationCode: 'acme', applicationName: 'checkout', enabled: true })

    const blocked = await importPackage(svc, root, 'other', 'CREDENTIAL', bytes)
    expect(blocked.preflight.blockers).toEqual([{ code: 'credentialUsernameTaken', entryFileName: 'shop-frontend.json', detail: expect.stringContaining('already taken') }])
    expect(blocked.status).toBe(400)
    expect(blocked.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'credentialUsernameTaken', entryFileName: 'shop-frontend.json' } })

    await svc.deps.prisma.credential.delete({ where: { id: original.id } })
    worker.received.length = 0
    const moved = await importPackage(svc, root, 'other', 'CREDENTIAL', bytes)
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    // organization and application are not exportable types: resolved by name in `other`, which has neither
    expect(moved.body.advisories).toEqual([
      { level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: 'CREDENTIAL/shop-frontend', type: 'ORGANIZATION', name: 'acme' } },
      { level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: 'CREDENTIAL/shop-frontend', type: 'APPLICATION', name: 'checkout' } },
    ])
    const copy = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' }, include: { project: true } })
    expect(copy.project.name).toBe('other')
    expect(copy.consumerKey).not.toBe(original.consumerKey)
    expect(svc.deps.keyring.decrypt(copy.passwordCipher!)).toBe('pw-1')
    expect({ fullName: copy.fullName, email: copy.email, enabled: copy.enabled }).toEqual({ fullName: 'Shop Frontend', email: 'shop@example.test', enabled: true })
    // root may deploy: the imported credential reached the environment's worker
    expect(worker.received).toEqual([expect.objectContaining({ action: 'DEPLOY', project: 'other', kind: 'CREDENTIAL', name: 'shop-frontend' })])

    await svc.deps.prisma.credential.update({ where: { id: copy.id }, data: { fullName: 'Changed' } })
    const replaced = await importPackage(svc, root, 'other', 'CREDENTIAL', bytes, { conflictPolicy: 'REPLACE' })
    expect(replaced.status).toBe(200)
    const after = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    expect(after.fullName).toBe('Shop Frontend')
    expect(after.consumerKey).toBe(copy.consumerKey)
    expect(after.revision).toBe(copy.revision + 1)

    // without DEPLOY_UNDEPLOY the import is saved, not pushed, and says so
    worker.received.length = 0
    const gina = await svc.tokenFor('gina', 'gina-pass-1')
    const saved = await importPackage(svc, gina, 'other', 'CREDENTIAL', bytes, { conflictPolicy: 'REPLACE' })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body.advisories).toContainEqual({
      level: 'WARNING', key: 'deployRequired', params: { type: 'CREDENTIAL', names: ['shop-frontend'], reason: 'IDENTITY DEPLOY_UNDEPLOY is needed to deploy' },
    })
    expect(saved.body.unresolvedReferences).toContain('deploy required for CREDENTIAL shop-frontend: IDENTITY DEPLOY_UNDEPLOY is needed to deploy')
    expect(worker.received).toEqual([])
  })

  it('a passwordReference that is not a ${variable} (a password in clear, never sealed) is refused, even acknowledged, with nothing written', async () => {
    const { bytes } = await transferExport(svc, root, 'other', { formatVersion: 1, type: 'CREDENTIAL', names: ['shop-frontend'] })
    const before = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    for (const reference of ['plain-password-1', 42, '${a}${b}']) {
      const hostile = tamper(bytes, (files) => {
        const file = jsonOfFile(files, 'shop-frontend.json')
        files.set('shop-frontend.json', fileOfJson({ ...file, data: { ...file.data, passwordReference: reference } }))
      })
      const res = await importPackage(svc, root, 'other', 'CREDENTIAL', hostile, { conflictPolicy: 'REPLACE', acknowledgeChecksumMismatch: true })
      expect(res.preflight.blockers).toContainEqual({ code: 'packageEntryInvalid', entryFileName: 'shop-frontend.json', detail: expect.stringContaining('passwordReference') })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'packageEntryInvalid', entryFileName: 'shop-frontend.json' } })
    }
    const after = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    expect({ cipher: after.passwordCipher, format: after.passwordFormat, revision: after.revision }).toEqual({ cipher: before.passwordCipher, format: before.passwordFormat, revision: before.revision })
    // a real reference is carried as it stands
    const referenced = tamper(bytes, (files) => {
      const file = jsonOfFile(files, 'shop-frontend.json')
      files.set('shop-frontend.json', fileOfJson({ ...file, data: { ...file.data, passwordReference: '${SHOP_PW}' } }))
    })
    const ok = await importPackage(svc, root, 'other', 'CREDENTIAL', referenced, { conflictPolicy: 'REPLACE', acknowledgeChecksumMismatch: true })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const stored = await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })
    expect({ cipher: stored.passwordCipher, format: stored.passwordFormat }).toEqual({ cipher: '${SHOP_PW}', format: 'REFERENCE' })
  })
})

describe('webhook connections (installation-wide) export as <date>-<name>-export.zip and import through the transfer', () => {
  const FIELDS = 'name description environment method fullUrl timeout headers { name value } trustStoreName retry { maxRetries }'
  const create = `mutation($input: WebhookConnectionInput!) { createWebhookConnection(input: $input) { name } }`
  const get = `query($name: String!) { webhookConnection(name: $name) { ${FIELDS} } }`

  it('exports with its trust store, imports NEW and REPLACE, maps environments', async () => {
    const made = await svc.graphql(create, {
      input: { name: 'audit-hook', environment: 'dev', method: 'POST', fullUrl: 'https://collector.example.test/in', timeout: 3, headers: [{ name: 'X-Team', value: 'ops' }], trustStoreName: 'hook-trust', retry: { maxRetries: 0 } },
    }, root)
    expect(made.body.errors).toBeUndefined()
    const original = (await svc.graphql(get, { name: 'audit-hook' }, root)).body.data.webhookConnection

    const denied = await svc.op(ExportWebhookConnectionDocument, { name: 'audit-hook', projectName: 'payments' }, alice)
    expect(denied.errors?.[0].extensions).toMatchObject({ errorKey: 'permissionDenied', params: { reason: 'systemAdminRequired' } })

    const exported = await svc.op(ExportWebhookConnectionDocument, { name: 'audit-hook', projectName: 'payments' }, root)
    expect(exported.errors).toBeUndefined()
    const pkg = exported.data!.exportWebhookConnection
    expect(pkg.fileName).toBe(`${new Date().toISOString().slice(0, 10)}-audit-hook-export.zip`)
    const bytes = Buffer.from(pkg.contentBase64, 'base64')
    const files = unzip(bytes)
    expect([...files.keys()].sort()).toEqual(['audit-hook.json', 'dependencies/CERTIFICATE/KEY_STORE/hook-trust.json', 'service-transfer-manifest.json'])
    const manifest = jsonOfFile(files, 'service-transfer-manifest.json')
    expect(manifest).toMatchObject({ type: 'WEBHOOK_CONNECTION', sourceProject: 'payments', exportedBy: 'root', withDependencies: true })
    expect(jsonOfFile(files, 'audit-hook.json')).toMatchObject({ data: { environment: 'dev', fullUrl: 'https://collector.example.test/in' }, dependencies: [{ type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'hook-trust' }] })

    // without a project the trust store is looked up in the platform project, which has none: named as not written
    const platform = await svc.op(ExportWebhookConnectionDocument, { name: 'audit-hook' }, root)
    const platformFiles = unzip(Buffer.from(platform.data!.exportWebhookConnection.contentBase64, 'base64'))
    expect([...platformFiles.keys()].sort()).toEqual(['audit-hook.json', 'service-transfer-manifest.json'])
    expect(jsonOfFile(platformFiles, 'service-transfer-manifest.json').notWritten).toEqual([{ type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'hook-trust', reason: 'notFound' }])

    // the download form: the REST export answers the same package as a file of the same name
    const download = await legacyExport(svc, root, 'payments', 'webhook_connection', { names: ['audit-hook'] }, { withDependencies: true })
    expect(download.res.status).toBe(200)
    expect(download.res.headers.get('content-disposition')).toContain(`filename="${pkg.fileName}"`)
    expect([...unzip(download.bytes).keys()].sort()).toEqual([...files.keys()].sort())

    // the name is installation-wide: NEW collides, REPLACE restores the packaged configuration
    const collide = await importPackage(svc, root, 'other', 'WEBHOOK_CONNECTION', bytes)
    expect(collide.preflight).toMatchObject({ replaceTargets: ['audit-hook'], packageEnvironments: ['dev'], installationEnvironments: ['dev', 'prod'] })
    expect(collide.preflight.dependencies).toEqual([{ type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'hook-trust', secret: true, resolvedByName: false, candidateNames: [] }])
    expect(collide.status).toBe(400)
    expect(collide.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'importNameCollision' } })

    await svc.graphql(`mutation { updateWebhookConnection(name: "audit-hook", input: { description: "changed", timeout: 9 }) { name } }`, {}, root)
    const replaced = await importPackage(svc, root, 'other', 'WEBHOOK_CONNECTION', bytes, { conflictPolicy: 'REPLACE' })
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200)
    expect(replaced.body.imported).toEqual([
      { name: 'audit-hook', kind: null, type: 'WEBHOOK_CONNECTION' },
      { name: 'hook-trust', kind: 'KEY_STORE', type: 'CERTIFICATE' },
    ])
    expect((await svc.graphql(get, { name: 'audit-hook' }, root)).body.data.webhookConnection).toEqual(original)
    expect((await stored('other', 'CERTIFICATE', 'KEY_STORE', 'hook-trust'))!.content).toEqual({ alias: 'trust', password: 'ks-pass-1' })

    // deleted, then imported as NEW with its environment mapped; an unknown target environment is refused
    await svc.graphql(`mutation { deleteWebhookConnection(name: "audit-hook") }`, {}, root)
    const badMap = await importPackage(svc, root, 'other', 'WEBHOOK_CONNECTION', bytes, { environmentMapping: { dev: 'staging' } })
    expect(badMap.status).toBe(400)
    expect(badMap.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'transfer.environmentUnknown', field: 'environmentMapping.dev' } })
    const mapped = await importPackage(svc, root, 'other', 'WEBHOOK_CONNECTION', bytes, { environmentMapping: { dev: 'prod' } })
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200)
    expect(mapped.body.advisories).toEqual([])
    expect((await svc.graphql(get, { name: 'audit-hook' }, root)).body.data.webhookConnection).toEqual({ ...original, environment: 'prod' })
  })
})

describe('GraphQL import (graphql-upload-minimal)', () => {
  async function upload(document: any, variables: Record<string, unknown>, bytes: Buffer, token: string) {
    const form = new FormData()
    form.append('operations', JSON.stringify({ query: print(document), variables: { ...variables, exportFile: null } }))
    form.append('map', JSON.stringify({ 0: ['variables.exportFile'] }))
    form.append('0', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'package.zip')
    const res = await svc.http('/graphql', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } })
    return (await res.json()) as any
  }

  it('preflight and run take the package as an upload', async () => {
    const { bytes } = await legacyExport(svc, alice, 'payments', 'IP_GROUP', { names: ['partner-ips'] })
    await svc.deps.prisma.storedObject.update({
      where: { projectId_type_kind_name: { projectId: await projectId('other'), type: 'IP_GROUP', kind: '', name: 'partner-ips' } },
      data: { content: { ips: [] } },
    })
    const pre = await upload(TransferImportPreflightDocument, { projectName: 'other', type: 'ip_group' }, bytes, root)
    expect(pre.errors).toBeUndefined()
    expect(pre.data.transferImportPreflight).toMatchObject({ type: 'IP_GROUP', detectedType: 'IP_GROUP', replaceTargets: ['partner-ips'], blockers: [] })
    const options = { type: 'IP_GROUP', preflightDigest: pre.data.transferImportPreflight.preflightDigest, conflictPolicy: 'REPLACE' }
    const run = await upload(TransferImportRunDocument, { projectName: 'other', options, idempotencyKey: crypto.randomUUID() }, bytes, root)
    expect(run.errors).toBeUndefined()
    expect(run.data.transferImportRun).toEqual({
      formatVersion: 1, type: 'IP_GROUP', conflictPolicy: 'REPLACE', imported: [{ name: 'partner-ips', kind: null, type: 'IP_GROUP' }], advisories: [], unresolvedReferences: [],
    })
    expect((await stored('other', 'IP_GROUP', null, 'partner-ips'))!.content).toEqual((await stored('payments', 'IP_GROUP', null, 'partner-ips'))!.content)
  })

  it('an encrypted package exported and preflighted through GraphQL takes the passphrase as an argument', async () => {
    const input = { formatVersion: 1, type: 'IP_GROUP', names: ['office-ips'] }
    const preview = await svc.op(TransferExportPreviewDocument, { projectName: 'payments', input }, alice)
    const run = await svc.op(TransferExportRunDocument, {
      projectName: 'payments', input: { ...input, expectedExportDigest: preview.data!.transferExportPreview.exportDigest, encrypt: true, passphrase: 'gql secret' },
    }, alice)
    expect(run.errors).toBeUndefined()
    expect(run.data!.transferExportRun).toMatchObject({ encrypted: true, secretHandling: 'DECRYPTED_FOR_EXPORT' })
    const bytes = Buffer.from(run.data!.transferExportRun.contentBase64, 'base64')
    const missing = await upload(TransferImportPreflightDocument, { projectName: 'other', type: 'IP_GROUP' }, bytes, root)
    expect(missing.errors[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'packagePassphraseRequired' } })
    const ok = await upload(TransferImportPreflightDocument, { projectName: 'other', type: 'IP_GROUP', passphrase: 'gql secret' }, bytes, root)
    expect(ok.errors).toBeUndefined()
    expect(ok.data.transferImportPreflight).toMatchObject({ detectedType: 'IP_GROUP', replaceTargets: ['office-ips'], blockers: [] })
  })
})
