import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readPackageZip } from '../../src/platform/transfer/package/zip.js'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { FILE_USERS, startFilesService } from './files-support.js'
import { client, makeCertificate, makePkcs12, rsaKeyPair } from './support.js'

// The package downloads of a key and a keystore (api-reference/keys-secrets/crud/export-key, export-keystore): the
// transfer engine's package of that one object (manifest and object file), encrypted whole with encrypt=true.
const P = '/apiops/projects/payments'

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}
const { get, post } = client(() => svc, () => tokens.ivy!)
const pair = rsaKeyPair()
const server = makeCertificate({ cn: 'pkg.example.com', serial: '41' })

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startFilesService(worker.url)
  for (const [user, password] of Object.entries(FILE_USERS)) tokens[user] = await svc.tokenFor(user, password)
  const content = Buffer.from(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()).toString('base64')
  expect((await post(`${P}/keys/`, { name: 'MyKey', keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content }] })).status).toBe(200)
  const file = makePkcs12('pkg', 'pkg-pass-1', server.keys, [server.pem])
  expect((await post(`${P}/keystores/`, { name: 'MyKeystore', keyStoreEnvironmentList: [{ environmentName: 'dev', file, password: 'pkg-pass-1' }] })).status).toBe(200)
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('key and keystore packages', () => {
  it('example 1: the unencrypted package of a key, <name>.zip with the manifest and the key\'s object file', async () => {
    const res = await get(`${P}/keys/MyKey/export/`)
    expect(res.status, res.text).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('filename="MyKey.zip"')
    const files = readPackageZip(res.body as Buffer)
    const manifest = JSON.parse(files.get('service-transfer-manifest.json')!.toString())
    expect(manifest).toMatchObject({ type: 'CERTIFICATE', objects: [{ type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO', name: 'MyKey', role: 'SELECTED' }] })
    // the key's secret travels sealed (CIPHERTEXT_VERBATIM by default), never as the PEM
    expect([...files.values()].map((b) => b.toString()).join('')).not.toContain(pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().split('\n')[1])
  })

  it('example 2: encrypt=true with the passphrase header encrypts the whole keystore package; without it a 400', async () => {
    const passphrase = Buffer.from('MyStrongPassphrase').toString('base64')
    const res = await svc.http(`${P}/keystores/MyKeystore/export/?encrypt=true`, { headers: { authorization: `Bearer ${tokens.pat}`, 'x-service-package-passphrase': passphrase } })
    expect(res.status).toBe(200)
    const files = readPackageZip(Buffer.from(await res.arrayBuffer()))
    expect([...files.keys()].sort()).toEqual(['service-transfer-encryption.json', 'service-transfer-package.bin'])
    const missing = await get(`${P}/keystores/MyKeystore/export/?encrypt=true`)
    expect([missing.status, missing.body.status]).toEqual([400, 'FAILURE'])
    expect(missing.body.resultMessage).toMatch(/passphrase/i)
  })

  it('refusals: an unknown key or keystore named as the pages word it; a member without EXPORT_IMPORT', async () => {
    const key = await get(`${P}/keys/nope/export/`)
    expect([key.status, key.body.resultMessage]).toEqual([400, 'Key (name: nope) is not found!'])
    const store = await get(`${P}/keystores/nope/export/`)
    expect(store.body.resultMessage).toBe('Keystore (name: nope) is not found!')
    for (const who of ['tina', 'vic']) {
      const refused = await get(`${P}/keys/MyKey/export/`, tokens[who]!)
      expect([refused.status, refused.body.resultMessage]).toEqual([400, "User lacks permission CERTIFICATE EXPORT_IMPORT (or PROJECT_MANAGEMENT EXPORT_IMPORT) in project 'payments'"])
    }
  })
})
