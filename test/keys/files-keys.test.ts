import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { readPackageZip, writePackageZip } from '../../src/platform/transfer/package/zip.js'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { fileForm, useFilesService } from './files-support.js'
import { type Answer, client, rsaKeyPair } from './support.js'

// Keys as files (api-reference/keys-secrets/crud/import-key-file, export-key-file): the pages' examples replayed, the
// round trip through the export ZIP, every documented refusal (nothing written, nothing pushed), the permissions.
const P = '/apiops/projects/payments/keys'

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}
const { bodies, get, post } = client(() => svc, () => tokens.ivy!)

const signing = rsaKeyPair()
const rotated = rsaKeyPair()
const pkcs8 = (k: crypto.KeyPairKeyObjectResult) => k.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const aes = crypto.randomBytes(32)

const keyForm = (fields: Record<string, string | undefined>, content: string | Buffer = pkcs8(signing), fileName = 'signing-key.pem') =>
  fileForm({ keyName: 'signing-key', keyType: 'PRIVATE_KEY', environmentList: 'dev,prod', ...fields }, 'keyFile', content, fileName)

useFilesService((started, fake) => {
  svc = started
  worker = fake
}, tokens)

const keyRows = () => svc.deps.prisma.storedObject.findMany({ where: { kind: 'CRYPTO_KEY_INFO' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) => expectLegacyRefusal(call, message, { state: keyRows, pushes: () => worker.received.length })

describe('keys: import-file (page examples)', () => {
  it('example 1: creates a PRIVATE_KEY from a PEM file in both environments, pushes both, audits by name', async () => {
    const res = await post(`${P}/import-file/`, keyForm({}))
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(res.body.unresolvedReferences).toBeUndefined()
    const key = res.body.resultList[0]
    expect(key).toMatchObject({ name: 'signing-key', keyType: 'PRIVATE_KEY' })
    expect(key.cryptoKeyInfoEnvironmentList.map((e: any) => [e.environmentName, e.privateKeyPresent, e.keyAlgorithm])).toEqual([['dev', true, 'RSA'], ['prod', true, 'RSA']])
    expect(worker.received.map((r) => [r.action, r.kind, r.name, (r.config as any).environmentName]).sort()).toEqual([['DEPLOY', 'KEY', 'signing-key', 'dev'], ['DEPLOY', 'KEY', 'signing-key', 'prod']])
    const audited = await svc.deps.prisma.auditEvent.findFirst({ where: { objectType: 'CRYPTO_KEY_INFO', objectName: 'signing-key' } })
    expect(audited?.outcome).toBe('SUCCEEDED')
  })

  it('export-file: one environment\'s PEM (the key decrypted, application/x-pem-file) and the ZIP of all', async () => {
    const one = await get(`${P}/signing-key/export-file/?environmentName=prod`)
    expect(one.status).toBe(200)
    expect(one.headers.get('content-type')).toMatch(/^application\/x-pem-file/)
    expect(one.headers.get('content-disposition')).toContain('filename="signing-key-prod.pem"')
    expect(crypto.createPrivateKey(one.text).export({ type: 'pkcs8', format: 'der' })).toEqual(signing.privateKey.export({ type: 'pkcs8', format: 'der' }))
    const all = await get(`${P}/signing-key/export-file/`)
    expect(all.headers.get('content-type')).toMatch(/^application\/octet-stream/)
    expect(all.headers.get('content-disposition')).toContain('filename="signing-key-keys.zip"')
    const files = readPackageZip(all.body as Buffer)
    expect([...files.keys()].sort()).toEqual(['signing-key-dev.pem', 'signing-key-prod.pem'])
    expect(files.get('signing-key-dev.pem')!.toString()).toBe(one.text)
  })

  it('example 2: override=true replaces the named environment only; the other keeps its material', async () => {
    const res = await post(`${P}/import-file/`, keyForm({ environmentList: 'prod', override: 'true' }, pkcs8(rotated), 'signing-key-rotated.pem'))
    expect(res.status, res.text).toBe(200)
    expect(worker.received.filter((r) => r.action === 'DEPLOY').map((r) => (r.config as any).environmentName).sort()).toEqual(['dev', 'prod'])
    const prod = await get(`${P}/signing-key/export-file/?environmentName=prod`)
    const dev = await get(`${P}/signing-key/export-file/?environmentName=dev`)
    expect(crypto.createPrivateKey(prod.text).export({ type: 'pkcs8', format: 'der' })).toEqual(rotated.privateKey.export({ type: 'pkcs8', format: 'der' }))
    expect(crypto.createPrivateKey(dev.text).export({ type: 'pkcs8', format: 'der' })).toEqual(signing.privateKey.export({ type: 'pkcs8', format: 'der' }))
  })

  it('restores a multi-environment key from its export ZIP, with environmentMapping and unresolvedReferences', async () => {
    const exported = (await get(`${P}/signing-key/export-file/`)).body as Buffer
    const files = readPackageZip(exported)
    const archive = writePackageZip([
      { name: 'restored-dev.pem', bytes: files.get('signing-key-dev.pem')! },
      { name: 'restored-UAT.pem', bytes: files.get('signing-key-prod.pem')! },
      { name: 'restored-Staging.pem', bytes: files.get('signing-key-prod.pem')! },
      { name: 'README.txt', bytes: Buffer.from('notes') },
    ])
    const res = await post(`${P}/import-file/`, keyForm({ keyName: 'restored', environmentList: undefined, environmentMapping: '{"UAT":"prod","Staging":""}' }, archive, 'restored-keys.zip'))
    expect(res.status, res.text).toBe(200)
    expect([...res.body.unresolvedReferences].sort()).toEqual([
      'Archive entry (README.txt) does not name an environment of key (restored) and was not imported.',
      'Environment (Staging) was deliberately left out by the caller\'s mapping.',
    ])
    const prod = await get(`${P}/restored/export-file/?environmentName=prod`)
    expect(crypto.createPrivateKey(prod.text).export({ type: 'pkcs8', format: 'der' })).toEqual(rotated.privateKey.export({ type: 'pkcs8', format: 'der' }))
  })

  it('a SECRET_KEY: algorithm any case, raw bytes or base64; exported as base64 and imported back', async () => {
    const res = await post(`${P}/import-file/`, keyForm({ keyName: 'hmac', keyType: 'SECRET_KEY', algorithm: 'aes', environmentList: 'dev' }, aes, 'hmac.key'))
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ secretKeyPresent: true, keySize: 256 }] })
    const file = await get(`${P}/hmac/export-file/?environmentName=dev`)
    expect(file.text.trim()).toBe(aes.toString('base64'))
    const again = await post(`${P}/import-file/`, keyForm({ keyName: 'hmac-copy', keyType: 'SECRET_KEY', algorithm: 'AES', environmentList: 'prod' }, file.text, 'hmac-dev.pem'))
    expect(again.status, again.text).toBe(200)
    expect((await get(`${P}/hmac-copy/export-file/?environmentName=prod`)).text).toBe(file.text)
  })

  it('a PUBLIC_KEY from base64 of its PEM; the secrets never appear in a JSON answer', async () => {
    const pem = signing.publicKey.export({ type: 'spki', format: 'pem' }).toString()
    const res = await post(`${P}/import-file/`, keyForm({ keyName: 'verify', keyType: 'PUBLIC_KEY', environmentList: 'dev' }, Buffer.from(pem).toString('base64'), 'verify.b64'))
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0].cryptoKeyInfoEnvironmentList[0]).toMatchObject({ publicKey: pem, privateKeyPresent: false })
    const json = bodies.filter((b) => b.startsWith('{')).join('\n')
    expect(json).not.toContain(aes.toString('base64'))
    expect(json).not.toContain(pkcs8(signing).split('\n')[1])
  })
})

describe('keys: import-file with its fields as query parameters (openapi.yaml lists them in: query)', () => {
  it('takes the fields the form lacks from the query, repeated values as a list; a form field wins', async () => {
    const form = fileForm({}, 'keyFile', pkcs8(rotated), 'queried.pem')
    const res = await post(`${P}/import-file/?keyName=queried&keyType=PRIVATE_KEY&environmentList=dev&environmentList=prod`, form)
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'queried', keyType: 'PRIVATE_KEY' })
    expect(res.body.resultList[0].cryptoKeyInfoEnvironmentList.map((e: any) => e.environmentName)).toEqual(['dev', 'prod'])
    const both = await post(`${P}/import-file/?keyName=from-query&environmentList=prod`, keyForm({ keyName: 'from-form', environmentList: 'dev' }, pkcs8(rotated), 'both.pem'))
    expect(both.status, both.text).toBe(200)
    expect(both.body.resultList[0]).toMatchObject({ name: 'from-form', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev' }] })
    expect(await svc.deps.prisma.storedObject.findFirst({ where: { kind: 'CRYPTO_KEY_INFO', name: 'from-query' } })).toBeNull()
    // a query parameter that is no field of the form is not one: the refusal names the missing field
    await expectRefused(() => post(`${P}/import-file/?name=queried-2&keyType=PRIVATE_KEY&environmentList=dev`, fileForm({}, 'keyFile', pkcs8(rotated), 'x.pem')), /keyName/)
  })
})

describe('keys: file refusals (nothing written, nothing pushed)', () => {
  it('the pages\' messages, each naming its field', async () => {
    await expectRefused(() => post(`${P}/import-file/`, keyForm({})), 'Key (name: signing-key) is already exist! Send override=true to update it.')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'nope', override: 'true' })), 'Key (name: nope) is not found!')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1', keyType: 'RSA' })), 'Unknown keyType (RSA)! Supported values: SECRET_KEY, PRIVATE_KEY, PUBLIC_KEY')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1', environmentList: '' })), 'environmentList value can not be empty!')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1', environmentList: 'dev,Staging' })), 'Environment (Staging) is not found or user does not have privilege to access it!')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1' }, 'not a key at all!', 'k1.pem')), 'Key content is neither PEM nor valid Base64 for key type PRIVATE_KEY! Send the PEM content Base64-encoded.')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1', keyType: 'SECRET_KEY' }, aes)), 'algorithm is required for SECRET_KEY! Supported values: AES, DES, DESede, RSA')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1', keyType: 'SECRET_KEY', algorithm: 'foo' }, aes)), 'Unknown algorithm (foo)! Supported values: AES, DES, DESede, RSA')
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1', keyType: 'SECRET_KEY', algorithm: 'DES' }, aes)), /keyFile holds 32 bytes: a DES key has 8 bytes/)
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1', environmentMapping: '{not valid json' }, writePackageZip([{ name: 'k1-dev.pem', bytes: Buffer.from(pkcs8(signing)) }]), 'k1.zip')), /^environmentMapping must be a JSON object/)
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k1' }, writePackageZip([{ name: 'other-dev.pem', bytes: Buffer.from(pkcs8(signing)) }]), 'k1.zip')), /^This archive holds no importable material for key \(k1\)!/)
    const noFile = new FormData()
    noFile.set('keyName', 'k1')
    noFile.set('keyType', 'PRIVATE_KEY')
    noFile.set('environmentList', 'dev')
    await expectRefused(() => post(`${P}/import-file/`, noFile), 'keyFile value can not be empty!')
  })

  it('export-file: unknown key, an environment without material (the message lists those with it)', async () => {
    const unknown = await get(`${P}/nope/export-file/`)
    expect([unknown.status, unknown.body.resultMessage]).toEqual([400, 'Key (name: nope) is not found!'])
    const missing = await get(`${P}/hmac/export-file/?environmentName=prod`)
    expect([missing.status, missing.body.resultMessage]).toEqual([400, '(hmac) has no material for environment (prod)! Available: dev'])
  })

  it('permissions: VIEW and MANAGE without EXPORT_IMPORT refused on both; PROJECT_MANAGEMENT EXPORT_IMPORT exports but cannot import', async () => {
    for (const who of ['vic', 'tina']) {
      await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k2' }), tokens[who]!), /User lacks permission/)
      const read = await get(`${P}/signing-key/export-file/`, tokens[who]!)
      expect([read.status, read.body.status]).toEqual([400, 'FAILURE'])
      expect(read.body.resultMessage).toMatch(/User lacks permission .*EXPORT_IMPORT/)
    }
    expect((await get(`${P}/signing-key/export-file/?environmentName=dev`, tokens.pat!)).status).toBe(200)
    await expectRefused(() => post(`${P}/import-file/`, keyForm({ keyName: 'k2' }), tokens.pat!), "User lacks permission CERTIFICATE MANAGE in project 'payments'")
  })
})
