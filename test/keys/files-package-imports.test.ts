import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { FILE_USERS, startFilesService } from './files-support.js'
import { client, makeCertificate, makePkcs12, rsaKeyPair } from './support.js'

// The package uploads of a key and a keystore (api-reference/keys-secrets/crud/import-key, import-keystore): the
// packages the export pages write, read back by the transfer engine (encrypted or not, detected); a taken name is
// imported as <name>-imported unless override=true; refusals write nothing.
const P = '/apiops/projects/payments'

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}
const { get, post } = client(() => svc, () => tokens.ivy!)
const pair = rsaKeyPair()
const server = makeCertificate({ cn: 'pkg.example.com', serial: '42' })
const PASSPHRASE = Buffer.from('MyStrongPassphrase').toString('base64')
let keyPackage: Buffer
let keystorePackage: Buffer
let encryptedKeystorePackage: Buffer

const rows = async () => JSON.stringify(await svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE' }, orderBy: { id: 'asc' } }))
const names = async (kind: string) => (await svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE', kind, name: { startsWith: 'My' } }, orderBy: { name: 'asc' } })).map((r) => r.name)
const form = (field: string, bytes: Buffer, fileName = 'package.zip', fields: Record<string, string> = {}) => {
  const f = new FormData()
  for (const [k, v] of Object.entries(fields)) f.append(k, v)
  f.append(field, new Blob([bytes]), fileName)
  return f
}
async function download(path: string, headers: Record<string, string> = {}) {
  const res = await svc.http(path, { headers: { authorization: `Bearer ${tokens.ivy}`, ...headers } })
  expect(res.status).toBe(200)
  return Buffer.from(await res.arrayBuffer())
}
async function upload(path: string, body: FormData, token = tokens.ivy!, headers: Record<string, string> = {}) {
  const res = await svc.http(path, { method: 'POST', body, headers: { authorization: `Bearer ${token}`, ...headers } })
  return { status: res.status, body: (await res.json()) as any }
}
/** A refused upload: 400, the message, no stored object changed, no audit event. */
async function refused(call: () => ReturnType<typeof upload>, message: RegExp | string) {
  const [before, audits] = [await rows(), await svc.deps.prisma.auditEvent.count()]
  const res = await call()
  expect(res.status, JSON.stringify(res.body)).toBe(400)
  expect(res.body.status).toBe('FAILURE')
  if (typeof message === 'string') expect(res.body.resultMessage).toBe(message)
  else expect(res.body.resultMessage).toMatch(message)
  expect(await rows()).toBe(before)
  expect(await svc.deps.prisma.auditEvent.count()).toBe(audits)
}

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startFilesService(worker.url)
  for (const [user, password] of Object.entries(FILE_USERS)) tokens[user] = await svc.tokenFor(user, password)
  const content = Buffer.from(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()).toString('base64')
  expect((await post(`${P}/keys/`, { name: 'MyKey', keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content }] })).status).toBe(200)
  const file = makePkcs12('pkg', 'pkg-pass-1', server.keys, [server.pem])
  expect((await post(`${P}/keystores/`, { name: 'MyKeystore', keyStoreEnvironmentList: [{ environmentName: 'dev', file, password: 'pkg-pass-1' }] })).status).toBe(200)
  keyPackage = await download(`${P}/keys/MyKey/export/`)
  keystorePackage = await download(`${P}/keystores/MyKeystore/export/`)
  encryptedKeystorePackage = await download(`${P}/keystores/MyKeystore/export/?encrypt=true`, { 'x-service-package-passphrase': PASSPHRASE })
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('key and keystore package imports', () => {
  it('example 1: a key package whose name is taken is imported as <name>-imported, then -imported-2; the material is the same', async () => {
    const res = await upload(`${P}/keys/import/`, form('keyExportFile', keyPackage, 'keyExportFile.zip'))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await names('CRYPTO_KEY_INFO')).toEqual(['MyKey', 'MyKey-imported'])
    const [original, copy] = [(await get(`${P}/keys/MyKey/`)).body.resultList[0], (await get(`${P}/keys/MyKey-imported/`)).body.resultList[0]]
    expect({ ...copy, id: original.id, name: 'MyKey' }).toEqual(original)
    expect(copy.id).not.toBe(original.id)
    expect((await upload(`${P}/keys/import/`, form('keyExportFile', keyPackage))).status).toBe(200)
    expect(await names('CRYPTO_KEY_INFO')).toEqual(['MyKey', 'MyKey-imported', 'MyKey-imported-2'])
    const event = await svc.deps.prisma.auditEvent.findFirstOrThrow({ orderBy: { id: 'desc' } })
    expect(event).toMatchObject({ outcome: 'SUCCEEDED', objectType: 'CRYPTO_KEY_INFO' })
  })

  it('example 2: override=true replaces the same-named key (no new object)', async () => {
    const before = await names('CRYPTO_KEY_INFO')
    const res = await upload(`${P}/keys/import/?override=true`, form('keyExportFile', keyPackage))
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await names('CRYPTO_KEY_INFO')).toEqual(before)
  })

  it('example 3: an encrypted keystore package with the passphrase header; a plain keystore package with environmentMapping', async () => {
    const res = await upload(`${P}/keystores/import/`, form('keystoreExportFile', encryptedKeystorePackage), tokens.ivy, { 'x-apinizer-package-passphrase': PASSPHRASE })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(await names('KEY_STORE')).toEqual(['MyKeystore', 'MyKeystore-imported'])
    const mapped = await upload(`${P}/keystores/import/`, form('keystoreExportFile', keystorePackage, 'ks.ZIP', { environmentMapping: '{"dev":"prod"}' }))
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200)
    const copy = (await get(`${P}/keystores/MyKeystore-imported-2/`)).body.resultList[0]
    expect(copy.keyStoreEnvironmentList.map((e: { environmentName: string }) => e.environmentName)).toEqual(['prod'])
  })

  it('the GraphQL twin imports through the same service', async () => {
    const f = new FormData()
    f.append('operations', JSON.stringify({ query: 'mutation ($file: Upload!) { importCryptoKeyPackage(projectName: "payments", keyExportFile: $file, override: true) }', variables: { file: null } }))
    f.append('map', JSON.stringify({ 0: ['variables.file'] }))
    f.append('0', new Blob([keyPackage]), 'MyKey.zip')
    const res = await svc.http('/graphql', { method: 'POST', body: f, headers: { authorization: `Bearer ${tokens.ivy}`, 'apollo-require-preflight': 'true' } })
    const body = (await res.json()) as { data?: any; errors?: any[] }
    expect(body.errors).toBeUndefined()
    expect(body.data.importCryptoKeyPackage).toEqual([])
  })

  it('refuses, writing nothing', async () => {
    await refused(() => upload(`${P}/keys/import/`, form('keyExportFile', keyPackage), tokens.vic!), /CERTIFICATE MANAGE/)
    await refused(() => upload(`${P}/keys/import/`, form('keyExportFile', keyPackage), tokens.tina!), /EXPORT_IMPORT/)
    await refused(() => upload(`${P}/keys/import/`, form('other', keyPackage)), 'keyExportFile value can not be empty!')
    await refused(() => upload(`${P}/keys/import/`, form('keyExportFile', keyPackage, 'key.tar')), 'keyExportFile parameter must be in zip file format and must end with zip extension!')
    await refused(() => upload(`${P}/keystores/import/`, form('keystoreExportFile', keyPackage)), /^keystoreExportFile: the package holds CRYPTO_KEY_INFO 'MyKey', not only keystores/)
    await refused(() => upload(`${P}/keys/import/`, form('keyExportFile', keystorePackage)), /^keyExportFile: the package holds KEY_STORE 'MyKeystore', not only keys/)
    await refused(() => upload(`${P}/keystores/import/`, form('keystoreExportFile', encryptedKeystorePackage)), /passphrase/i)
    await refused(() => upload(`${P}/keystores/import/`, form('keystoreExportFile', encryptedKeystorePackage), tokens.ivy, { 'x-apinizer-package-passphrase': Buffer.from('wrong').toString('base64') }), /passphrase|decrypt/i)
    await refused(() => upload(`${P}/keys/import/`, form('keyExportFile', keyPackage, 'k.zip', { environmentMapping: '{not valid json' })), /^environmentMapping: must be a JSON object/)
    await refused(() => upload(`${P}/keys/import/`, form('keyExportFile', keyPackage, 'k.zip', { environmentMapping: '{"dev":"nowhere"}' })), /environmentMapping\.dev: environment 'nowhere' does not exist/)
    await refused(() => upload(`${P}/keys/import/?override=maybe`, form('keyExportFile', keyPackage)), /^override: must be true or false/)
    await refused(() => upload(`${P}/keys/import/`, form('keyExportFile', Buffer.from('not a zip'))), /./)
  })
})
