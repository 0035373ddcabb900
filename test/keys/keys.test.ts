import crypto from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { type Answer, client, startKeysService, USERS } from './support.js'

// Keys over /apiops in the older shape (08-keys-secrets/crud/*key*: keyType RSA or EC, PEM privateKey/publicKey):
// RSA and EC keys in every PEM form, sealed at rest and write-only, read in the newest shape (keyType PRIVATE_KEY or
// PUBLIC_KEY, the algorithm per environment); every refusal writes and pushes nothing. The newest pages' bodies
// (keyType SECRET_KEY/PRIVATE_KEY/PUBLIC_KEY with base64 content): keys-newest.test.ts.
const P = '/apiops/projects/payments/keys'

let svc: TestService
let worker: FakeWorker
let tina: string
let vic: string
let alice: string
const { bodies, get, post, put, del } = client(() => svc, () => tina)

const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-384' })
const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const pem = (k: crypto.KeyObject, type: 'pkcs1' | 'pkcs8' | 'spki' | 'sec1', extra: object = {}) => k.export({ type, format: 'pem', ...extra } as any).toString()
const RSA_PKCS1 = pem(rsa.privateKey, 'pkcs1')
const RSA_PKCS8 = pem(rsa.privateKey, 'pkcs8')
const RSA_ENCRYPTED = pem(rsa.privateKey, 'pkcs8', { cipher: 'aes-256-cbc', passphrase: 'key-pass-1' })
const EC_SEC1 = pem(ec.privateKey, 'sec1')
const SECRETS = [RSA_PKCS1, RSA_PKCS8, EC_SEC1, pem(ec.privateKey, 'pkcs8')].flatMap((p) => [p.split('\n')[1]!, Buffer.from(p).toString('base64').slice(0, 60)])
const b64 = (s: string) => Buffer.from(s).toString('base64')

const row = (name: string) => svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind: 'CRYPTO_KEY_INFO', name } })

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startKeysService(worker.url)
  tina = await svc.tokenFor('tina', USERS.tina)
  vic = await svc.tokenFor('vic', USERS.vic)
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterEach(() => {
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

// a refusal leaves every CRYPTO_KEY_INFO row as it was (not only their number) and pushes nothing
const storedRows = () => svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) =>
  expectLegacyRefusal(call, message, { state: storedRows, pushes: () => worker.received.length })

describe('keys: create in every form, never answered', () => {
  it('the older page example: base64 public and private key; sealed at rest, pushed opened, answered without the private key', async () => {
    const res = await post(`${P}/`, {
      name: 'my-key', description: 'Key for API encryption', keyType: 'RSA',
      cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', publicKey: b64(pem(rsa.publicKey, 'spki')), privateKey: b64(RSA_PKCS8) }],
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(res.body.resultList[0]).toMatchObject({ id: expect.any(String), keyType: 'PRIVATE_KEY', algorithm: null })
    const env = res.body.resultList[0].cryptoKeyInfoEnvironmentList[0]
    expect(env).toMatchObject({ environmentName: 'dev', keyAlgorithm: 'RSA', keySize: 2048, privateKeyPresent: true, publicKey: pem(rsa.publicKey, 'spki') })
    expect(env.privateKey).toBeUndefined()
    expect(env.environmentId).toEqual(expect.any(String))

    const stored = (await row('my-key')).content as any
    expect(JSON.stringify(stored)).not.toContain(RSA_PKCS8.split('\n')[1])
    expect(svc.deps.keyring.decrypt(stored.environments.dev.privateKey)).toBe(RSA_PKCS8)

    expect(worker.received).toHaveLength(1)
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'KEY', name: 'my-key', project: 'payments' })
    expect(worker.received[0]!.config).toMatchObject({ environmentName: 'dev', keyType: 'PRIVATE_KEY', keyAlgorithm: 'RSA', privateKey: RSA_PKCS8 })
  })

  it.each([
    ['pkcs1-private', { privateKey: RSA_PKCS1 }, 'RSA', 2048, true],
    ['encrypted-pkcs8', { privateKey: RSA_ENCRYPTED, password: 'key-pass-1' }, 'RSA', 2048, true],
    ['sec1-ec', { privateKey: EC_SEC1 }, 'EC', 384, true],
    ['spki-public', { publicKey: pem(ec.publicKey, 'spki') }, 'EC', 384, false],
    ['pkcs1-public', { publicKey: rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString() }, 'RSA', 2048, false],
    ['der-pkcs8', { privateKey: (rsa.privateKey.export({ type: 'pkcs8', format: 'der' }) as Buffer).toString('base64') }, 'RSA', 2048, true],
  ])('%s', async (name, entry, keyAlgorithm, keySize, hasPrivate) => {
    const res = await post(`${P}/`, { name, cryptoKeyInfoEnvironmentList: [{ environmentName: 'prod', ...entry }] })
    expect(res.status).toBe(200)
    const keyType = hasPrivate ? 'PRIVATE_KEY' : 'PUBLIC_KEY'
    expect(res.body.resultList[0]).toMatchObject({ keyType, algorithm: null, cryptoKeyInfoEnvironmentList: [{ environmentName: 'prod', keyAlgorithm, keySize, privateKeyPresent: hasPrivate, secretKeyPresent: false }] })
    if (keyAlgorithm === 'EC') expect(res.body.resultList[0].cryptoKeyInfoEnvironmentList[0].curve).toBe('P-384')
  })

  it('lists and reads public parts only (VIEW is enough)', async () => {
    const list = await get(`${P}/`, vic)
    expect(list.body.resultCount).toBe(7)
    expect(list.body.resultList.map((k: any) => k.name)).toEqual(['der-pkcs8', 'encrypted-pkcs8', 'my-key', 'pkcs1-private', 'pkcs1-public', 'sec1-ec', 'spki-public'])
    const one = await get(`${P}/my-key/`, vic)
    expect(one.body.resultList[0]).toMatchObject({ name: 'my-key', description: 'Key for API encryption', keyType: 'PRIVATE_KEY', projectId: expect.any(String) })
  })
})

describe('keys: refusals name the field and write nothing', () => {
  const entry = (over: object) => ({ name: 'bad', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', ...over }] })
  it.each([
    [{ name: '' }, 'name value can not be empty!'],
    [{ name: 'my-key', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', privateKey: RSA_PKCS8 }] }, 'Key (name: my-key) is already exist! Try update operation if want to change its value.'],
    [{ name: 'bad', cryptoKeyInfoEnvironmentList: [] }, 'cryptoKeyInfoEnvironmentList value can not be empty!'],
    // a field of a wrong type is named as such, not as missing (the KeyWriteBody check)
    [{ name: 'bad', cryptoKeyInfoEnvironmentList: 'dev' }, 'cryptoKeyInfoEnvironmentList must be an array'],
    [entry({ privateKey: 42 }), 'cryptoKeyInfoEnvironmentList[0].privateKey must be a string'],
    [entry({ environmentName: 'nowhere', privateKey: RSA_PKCS8 }), 'Environment (nowhere) is not found or user does not have privilege to access it!'],
    [entry({}), 'cryptoKeyInfoEnvironmentList[0]: publicKey or privateKey is required'],
    [entry({ privateKey: 'not a key at all' }), /^cryptoKeyInfoEnvironmentList\[0\]\.privateKey is not a PEM-encoded RSA or EC private key/],
    [entry({ privateKey: RSA_ENCRYPTED }), 'cryptoKeyInfoEnvironmentList[0].privateKey is an encrypted private key: give its password in cryptoKeyInfoEnvironmentList[0].password'],
    [entry({ privateKey: RSA_ENCRYPTED, password: 'wrong' }), 'cryptoKeyInfoEnvironmentList[0].password does not decrypt cryptoKeyInfoEnvironmentList[0].privateKey (wrong password)'],
    [entry({ privateKey: RSA_PKCS8, publicKey: pem(other.publicKey, 'spki') }), 'cryptoKeyInfoEnvironmentList[0].publicKey does not belong to cryptoKeyInfoEnvironmentList[0].privateKey'],
    [entry({ publicKey: RSA_PKCS8 }), /^cryptoKeyInfoEnvironmentList\[0\]\.publicKey holds a private key/],
    [{ ...entry({ privateKey: EC_SEC1 }), keyType: 'RSA' }, 'cryptoKeyInfoEnvironmentList[0] holds an EC key but keyType is RSA'],
    [{ ...entry({ privateKey: RSA_PKCS8 }), keyType: 'DSA' }, "keyType 'DSA' is not supported: one of SECRET_KEY, PRIVATE_KEY, PUBLIC_KEY, RSA, EC"],
    [entry({ privateKey: pem(crypto.generateKeyPairSync('ed25519').privateKey, 'pkcs8') }), /is a ed25519 key: only RSA and EC keys are supported/],
  ])('refusal %#', async (body, message) => {
    await expectRefused(() => post(`${P}/`, body), message)
  })

  it('permissions and not found', async () => {
    await expectRefused(() => post(`${P}/`, entry({ privateKey: RSA_PKCS8 }), vic), /lacks permission CERTIFICATE MANAGE/)
    await expectRefused(() => get(`${P}/`, alice), /lacks permission CERTIFICATE VIEW/)
    await expectRefused(() => get(`${P}/nope/`), 'Key (name: nope) is not found!')
    await expectRefused(() => put(`${P}/nope/`, entry({ privateKey: RSA_PKCS8 })), 'Key (name: nope) is not found!')
    await expectRefused(() => del(`${P}/nope/`), 'Key (name: nope) is not found!')
  })
})

describe('keys: update and delete', () => {
  it('a blank private key keeps the stored one; a different public key without its private key is refused', async () => {
    const before = (await row('my-key')).content as any
    const res = await put(`${P}/my-key/`, { description: 'rotated text', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev' }, { environmentName: 'prod', privateKey: EC_SEC1 }] })
    expect(res.status).toBe(400)
    expect(res.body.resultMessage).toBe('cryptoKeyInfoEnvironmentList[1] holds an EC key but keyType is RSA')
    const ok = await put(`${P}/my-key/`, { description: 'rotated text', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', publicKey: pem(rsa.publicKey, 'spki') }] })
    expect(ok.status).toBe(200)
    const after = (await row('my-key')).content as any
    expect(after.environments.dev.privateKey).toBe(before.environments.dev.privateKey)
    expect(worker.received[0]!.config).toMatchObject({ privateKey: RSA_PKCS8 })
    const swap = await put(`${P}/my-key/`, { cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', publicKey: pem(other.publicKey, 'spki') }] })
    expect(swap.body.resultMessage).toBe('cryptoKeyInfoEnvironmentList[0].publicKey differs from the stored key: give the matching privateKey too')
  })

  it('renames with a new body name (the page example), undeploying the old name', async () => {
    const res = await put(`${P}/pkcs1-private/?updateReferencedJwks=false`, { name: 'updated-key', description: 'Updated key', keyType: 'RSA', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', privateKey: RSA_PKCS1 }] })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0].name).toBe('updated-key')
    expect((await get(`${P}/pkcs1-private/`)).body.resultMessage).toBe('Key (name: pkcs1-private) is not found!')
    expect(worker.received.map((m) => [m.action, m.name]).sort()).toEqual([['DEPLOY', 'updated-key']])
  })

  it('delete undeploys', async () => {
    const res = await del(`${P}/updated-key/`)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true })
    expect(worker.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'KEY', name: 'updated-key' })])
  })

  it('no answer carried private key material', () => {
    const all = bodies.join('\n')
    expect(bodies.length).toBeGreaterThan(20)
    for (const s of SECRETS) expect(all).not.toContain(s)
  })
})
