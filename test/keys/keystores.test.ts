import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { type Answer, client, makeCertificate, makePkcs12, startKeysService, USERS } from './support.js'

// Keystores over /apiops (08-keys-secrets/crud/*keystore*): JKS (a committed fixture, scripts/fixtures/make-jks.sh)
// and PKCS#12 (made here with node-forge) opened with their passwords; entries listed; file and passwords
// sealed at rest and never answered.
const P = '/apiops/projects/payments/keystores'
const JKS = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'sample.jks')).toString('base64')
const JKS_PASSWORD = 'changeit'
const ca = makeCertificate({ cn: 'Keystore CA', ca: true, serial: '02' })
const server = makeCertificate({ cn: 'server.example.com', issuer: { cn: 'Keystore CA', keys: ca.keys }, serial: '03' })
const P12_PASSWORD = 'p12-secret-pass'
const P12 = makePkcs12('server', P12_PASSWORD, server.keys, [server.pem, ca.pem])

let svc: TestService
let worker: FakeWorker
let tina: string
let vic: string
const { bodies, get, post, put, del } = client(() => svc, () => tina)
const row = (name: string) => svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind: 'KEY_STORE', name } })
const body = (name: string, entry: Record<string, unknown>) => ({ name, description: 'Keystore for API security', keyStoreEnvironmentList: [{ environmentName: 'dev', ...entry }] })

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startKeysService(worker.url)
  tina = await svc.tokenFor('tina', USERS.tina)
  vic = await svc.tokenFor('vic', USERS.vic)
})
afterEach(() => {
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

// a refusal leaves every KEY_STORE row as it was (not only their number) and pushes nothing
const storedRows = () => svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE', kind: 'KEY_STORE' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) =>
  expectLegacyRefusal(call, message, { state: storedRows, pushes: () => worker.received.length })

describe('keystores: JKS and PKCS#12', () => {
  it('the page example (JKS): opened, entries listed, sealed at rest, pushed opened', async () => {
    const res = await post(`${P}/`, body('my-keystore', { type: 'JKS', file: JKS, password: JKS_PASSWORD }))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    const env = res.body.resultList[0].keyStoreEnvironmentList[0]
    expect(env).toMatchObject({ environmentName: 'dev', type: 'JKS', fileSize: Buffer.from(JKS, 'base64').length })
    expect(env.file).toBeUndefined()
    expect(env.entries.map((e: any) => [e.alias, e.entryType, e.privateKeyPresent])).toEqual([
      ['ec1', 'PRIVATE_KEY', true], ['signer', 'PRIVATE_KEY', true], ['trusted-ca', 'TRUSTED_CERTIFICATE', false],
    ])
    expect(env.entries[0].certificateChain[0]).toMatchObject({ subjectDn: 'CN=ec.test, O=Example Inc', keyAlgorithm: 'EC', curve: 'P-256' })
    expect(env.entries[1].certificateChain[0]).toMatchObject({ subjectDn: 'CN=signer.test, O=Example Inc', keyAlgorithm: 'RSA', keySize: 2048 })

    const stored = (await row('my-keystore')).content as any
    expect(JSON.stringify(stored)).not.toContain(JKS.slice(0, 40))
    expect(JSON.stringify(stored)).not.toContain(JKS_PASSWORD)
    expect(svc.deps.keyring.decrypt(stored.environments.dev.file)).toBe(JKS)
    expect(svc.deps.keyring.decrypt(stored.environments.dev.password)).toBe(JKS_PASSWORD)
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'KEYSTORE', name: 'my-keystore' })
    expect(worker.received[0]!.config).toMatchObject({ type: 'JKS', file: JKS, password: JKS_PASSWORD, aliases: ['ec1', 'signer', 'trusted-ca'] })
  })

  it('PKCS#12 with a chain, type detected from the file', async () => {
    const res = await post(`${P}/`, body('p12-store', { file: P12, password: P12_PASSWORD }))
    expect(res.status).toBe(200)
    const env = res.body.resultList[0].keyStoreEnvironmentList[0]
    expect(env.type).toBe('PKCS12')
    expect(env.entries).toHaveLength(1)
    expect(env.entries[0]).toMatchObject({ alias: 'server', entryType: 'PRIVATE_KEY', privateKeyPresent: true })
    expect(env.entries[0].certificateChain.map((c: any) => c.subjectDn)).toEqual(['CN=server.example.com, O=Example Inc', 'CN=Keystore CA, O=Example Inc'])
    expect(env.entries[0].certificateChain[0].sha256Fingerprint).toBe(server.sha256)
  })

  it('the newest page example (api-reference create-keystore): keyStoreType and a default alias, read back', async () => {
    const res = await post(`${P}/`, body('newest-store', { file: JKS, password: JKS_PASSWORD, alias: 'signer', keyStoreType: 'JKS' }))
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0].keyStoreEnvironmentList[0]).toMatchObject({ environmentName: 'dev', type: 'JKS', keyStoreType: 'JKS', alias: 'signer' })
    expect(worker.received[0]!.config).toMatchObject({ type: 'JKS', alias: 'signer' })
    const renamed = await put(`${P}/newest-store/`, { keyStoreEnvironmentList: [{ environmentName: 'dev', alias: 'ec1' }] })
    expect(renamed.body.resultList[0].keyStoreEnvironmentList[0]).toMatchObject({ alias: 'ec1', keyStoreType: 'JKS' })
    await expectRefused(() => put(`${P}/newest-store/`, { keyStoreEnvironmentList: [{ environmentName: 'dev', alias: 'nobody' }] }),
      "keyStoreEnvironmentList[0].alias 'nobody' is not an entry of the keystore (entries: ec1, signer, trusted-ca)")
    await expectRefused(() => post(`${P}/`, body('bad-store', { file: JKS, password: JKS_PASSWORD, keyStoreType: 'PKCS12' })),
      'keyStoreEnvironmentList[0].keyStoreType is PKCS12 but keyStoreEnvironmentList[0].file is a JKS file')
    await expectRefused(() => post(`${P}/`, body('bad-store', { file: JKS, password: JKS_PASSWORD, type: 'JKS', keyStoreType: 'PKCS12' })),
      "keyStoreEnvironmentList[0].keyStoreType 'PKCS12' differs from keyStoreEnvironmentList[0].type 'JKS'")
    const gone = await del(`${P}/newest-store/`)
    expect(gone.status).toBe(200)
  })

  it('lists and reads (VIEW)', async () => {
    const list = await get(`${P}/`, vic)
    expect(list.body.resultList.map((k: any) => k.name)).toEqual(['edge-ks', 'my-keystore', 'p12-store'])
    // the bootstrap's opaque keystore object is listed as it is
    expect(list.body.resultList[0]).toMatchObject({ name: 'edge-ks', keyStoreEnvironmentList: [] })
    expect((await get(`${P}/p12-store/`, vic)).body.resultList[0].keyStoreEnvironmentList[0].type).toBe('PKCS12')
  })
})

describe('keystores: a wrong password or a corrupt file is a 400 naming the field', () => {
  const truncated = (b64: string, n: number) => Buffer.from(b64, 'base64').subarray(0, n).toString('base64')
  it.each([
    ['JKS wrong password', { type: 'JKS', file: JKS, password: 'nope' }, 'keyStoreEnvironmentList[0].password does not open the keystore (wrong password)'],
    ['PKCS12 wrong password', { type: 'PKCS12', file: P12, password: 'nope' }, 'keyStoreEnvironmentList[0].password does not open the keystore (wrong password)'],
    ['JKS truncated', { file: truncated(JKS, 200), password: JKS_PASSWORD }, /^keyStoreEnvironmentList\[0\]\.file is not a readable JKS keystore/],
    ['PKCS12 truncated', { file: truncated(P12, 300), password: P12_PASSWORD }, /^keyStoreEnvironmentList\[0\]\.file is not a readable PKCS#12 keystore/],
    ['not a keystore', { file: Buffer.from('hello, I am not a keystore').toString('base64'), password: 'x' }, 'keyStoreEnvironmentList[0].file is neither a JKS nor a PKCS#12 keystore'],
    ['not base64', { file: 'this is *** not base64', password: 'x' }, 'keyStoreEnvironmentList[0].file must be the base64 of the keystore file'],
    ['type mismatch', { type: 'PKCS12', file: JKS, password: JKS_PASSWORD }, 'keyStoreEnvironmentList[0].type is PKCS12 but keyStoreEnvironmentList[0].file is a JKS file'],
    ['unknown type', { type: 'BKS', file: JKS, password: JKS_PASSWORD }, "keyStoreEnvironmentList[0].type 'BKS' is not supported: one of JKS, PKCS12"],
    ['no file', { password: 'x' }, 'keyStoreEnvironmentList[0].file value can not be empty!'],
    ['no password', { file: JKS }, 'keyStoreEnvironmentList[0].password value can not be empty!'],
    ['unknown environment', { environmentName: 'nowhere', file: JKS, password: JKS_PASSWORD }, 'Environment (nowhere) is not found or user does not have privilege to access it!'],
  ])('%s', async (_label, entry, message) => {
    await expectRefused(() => post(`${P}/`, body('bad-store', entry)), message)
  })

  it('name rules, existence and permissions', async () => {
    await expectRefused(() => post(`${P}/`, body('', { file: JKS, password: JKS_PASSWORD })), 'name value can not be empty!')
    await expectRefused(() => post(`${P}/`, body('my-keystore', { file: JKS, password: JKS_PASSWORD })), 'Keystore (name: my-keystore) is already exist! Try update operation if want to change its value.')
    await expectRefused(() => post(`${P}/`, { name: 'x', keyStoreEnvironmentList: [] }), 'keyStoreEnvironmentList value can not be empty!')
    await expectRefused(() => post(`${P}/`, body('v-store', { file: JKS, password: JKS_PASSWORD }), vic), /lacks permission CERTIFICATE MANAGE/)
    await expectRefused(() => get(`${P}/nope/`), 'Keystore (name: nope) is not found!')
    await expectRefused(() => put(`${P}/nope/`, body('nope', { file: JKS, password: JKS_PASSWORD })), 'Keystore (name: nope) is not found!')
    await expectRefused(() => del(`${P}/nope/`), 'Keystore (name: nope) is not found!')
  })
})

describe('keystores: update and delete', () => {
  it('a blank file keeps the stored file and password; a new file replaces them', async () => {
    const before = (await row('my-keystore')).content as any
    const res = await put(`${P}/my-keystore/`, { description: 'Updated keystore', keyStoreEnvironmentList: [{ environmentName: 'dev' }, { environmentName: 'prod', file: P12, password: P12_PASSWORD }] })
    expect(res.status).toBe(200)
    const after = (await row('my-keystore')).content as any
    expect(after.environments.dev.file).toBe(before.environments.dev.file)
    expect(res.body.resultList[0].keyStoreEnvironmentList.map((e: any) => [e.environmentName, e.type])).toEqual([['dev', 'JKS'], ['prod', 'PKCS12']])
    expect(worker.received.map((m) => (m.config as any).environmentName)).toEqual(['dev'])
    expect(worker.received[0]!.config).toMatchObject({ file: JKS, password: JKS_PASSWORD })
  })

  it('the page example of update renames; delete undeploys', async () => {
    const res = await put(`${P}/p12-store/?updateReferencedJwks=false`, { name: 'updated-keystore', description: 'Updated keystore', keyStoreEnvironmentList: [{ environmentName: 'dev' }] })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0].name).toBe('updated-keystore')
    worker.received.length = 0
    const gone = await del(`${P}/updated-keystore/`)
    expect(gone.body).toMatchObject({ status: 'SUCCESS', success: true })
    expect(worker.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'KEYSTORE', name: 'updated-keystore' })])
  })

  it('no answer carried a keystore file or password', () => {
    const all = bodies.join('\n')
    for (const s of [JKS.slice(0, 60), P12.slice(0, 60), JKS_PASSWORD, P12_PASSWORD]) expect(all).not.toContain(s)
  })
})
