import crypto from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { type Answer, client, startKeysService, USERS } from './support.js'

// Keys in the newest pages' shape (api-reference/keys-secrets/crud/create-key, update-key, list-keys, get-key):
// keyType SECRET_KEY / PRIVATE_KEY / PUBLIC_KEY, algorithm for SECRET_KEY, per environment base64 content and an
// alias. The examples replayed; the secret and private material sealed at rest, pushed opened, never answered;
// every refusal writes and pushes nothing; the GraphQL door takes the same body.
const P = '/apiops/projects/payments/keys'

let svc: TestService
let worker: FakeWorker
let tina: string
const { bodies, get, post, put } = client(() => svc, () => tina)

const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const PRIVATE_PEM = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const PUBLIC_PEM = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString()
const AES = crypto.randomBytes(32)
const AES2 = crypto.randomBytes(16)
const DES3 = crypto.randomBytes(24)
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64')
const SECRETS = [AES, AES2, DES3].map((k) => k.toString('base64')).concat(PRIVATE_PEM.split('\n')[1]!, b64(PRIVATE_PEM).slice(0, 60))

const row = (name: string) => svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind: 'CRYPTO_KEY_INFO', name } })
const storedRows = () => svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) =>
  expectLegacyRefusal(call, message, { state: storedRows, pushes: () => worker.received.length })

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startKeysService(worker.url)
  tina = await svc.tokenFor('tina', USERS.tina)
})
afterEach(() => {
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('create-key: the page examples', () => {
  it('example 1: a PRIVATE_KEY as base64 PEM with an alias; read without content, sealed at rest, pushed opened', async () => {
    const res = await post(`${P}/`, {
      name: 'my-key', description: 'Key for API encryption', keyType: 'PRIVATE_KEY',
      cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(PRIVATE_PEM), alias: 'my-key-alias' }],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true, environmentResults: [{ environmentName: 'dev', success: true }] } })
    const stored = (await row('my-key')).content as any
    expect(stored.keyType).toBe('PRIVATE_KEY')
    expect(svc.deps.keyring.decrypt(stored.environments.dev.privateKey)).toBe(PRIVATE_PEM)
    expect(worker.received).toEqual([expect.objectContaining({ action: 'DEPLOY', kind: 'KEY', name: 'my-key' })])
    expect(worker.received[0]!.config).toMatchObject({ keyType: 'PRIVATE_KEY', algorithm: null, alias: 'my-key-alias', keyAlgorithm: 'RSA', privateKey: PRIVATE_PEM, publicKey: PUBLIC_PEM })

    const one = await get(`${P}/my-key/`)
    expect(one.body.resultList[0]).toEqual({
      id: expect.any(String), name: 'my-key', description: 'Key for API encryption', projectId: expect.any(String), keyType: 'PRIVATE_KEY', algorithm: null,
      cryptoKeyInfoEnvironmentList: [{
        environmentId: expect.any(String), environmentName: 'dev', alias: 'my-key-alias', source: null, publicKey: PUBLIC_PEM, keyAlgorithm: 'RSA', keySize: 2048,
        curve: null, publicKeyFingerprint: expect.any(String), privateKeyPresent: true, secretKeyPresent: false,
      }],
    })
  })

  it('example 2: a SECRET_KEY (AES) in two environments; the bytes sealed, pushed to the environment with a worker', async () => {
    const res = await post(`${P}/`, {
      name: 'aes-key', description: 'Key for API encryption', keyType: 'SECRET_KEY', algorithm: 'AES',
      cryptoKeyInfoEnvironmentList: [
        { environmentName: 'dev', content: b64(AES), alias: 'prod-key-alias' },
        { environmentName: 'prod', content: b64(AES2), alias: 'staging-key-alias' },
      ],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({
      keyType: 'SECRET_KEY', algorithm: 'AES',
      cryptoKeyInfoEnvironmentList: [
        { environmentName: 'dev', alias: 'prod-key-alias', keyAlgorithm: 'AES', keySize: 256, publicKey: null, privateKeyPresent: false, secretKeyPresent: true },
        { environmentName: 'prod', alias: 'staging-key-alias', keyAlgorithm: 'AES', keySize: 128, secretKeyPresent: true },
      ],
    })
    const stored = (await row('aes-key')).content as any
    expect(JSON.stringify(stored)).not.toContain(AES.toString('base64'))
    expect(svc.deps.keyring.decrypt(stored.environments.dev.secretKey)).toBe(AES.toString('base64'))
    const dev = worker.received.find((m) => (m.config as any).environmentName === 'dev')!
    expect(dev.config).toMatchObject({ keyType: 'SECRET_KEY', algorithm: 'AES', secretKey: AES.toString('base64'), publicKey: null })
  })

  it.each([
    ['des-key', 'DES', crypto.randomBytes(8), 64],
    ['desede-key', 'DESede', DES3, 192],
    ['rsa-secret', 'RSA', crypto.randomBytes(5), 40],
  ])('a SECRET_KEY %s (%s)', async (name, algorithm, bytes, bits) => {
    const res = await post(`${P}/`, { name, keyType: 'SECRET_KEY', algorithm, cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(bytes) }] })
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ algorithm, cryptoKeyInfoEnvironmentList: [{ keySize: bits, alias: null }] })
  })

  it('a PUBLIC_KEY as raw PEM (accepted beside base64)', async () => {
    const res = await post(`${P}/`, { name: 'pub-key', keyType: 'PUBLIC_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: PUBLIC_PEM }] })
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ keyType: 'PUBLIC_KEY', cryptoKeyInfoEnvironmentList: [{ publicKey: PUBLIC_PEM, privateKeyPresent: false }] })
  })
})

describe('create-key: refusals write and push nothing', () => {
  const body = (over: object, entry: object = {}) => ({ name: 'bad', keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(AES), ...entry }], ...over })
  it.each([
    [body({ algorithm: undefined }), 'algorithm is required for SECRET_KEY! Supported values: AES, DES, DESede, RSA'],
    [body({ algorithm: 'desede' }), "algorithm 'desede' is not supported! Supported values: AES, DES, DESede, RSA"],
    [body({ keyType: 'secret_key' }), "keyType 'secret_key' is not supported: one of SECRET_KEY, PRIVATE_KEY, PUBLIC_KEY, RSA, EC"],
    [body({ keyType: undefined }), 'keyType value can not be empty!'],
    [body({ name: 'my-key' }), 'Key (name: my-key) is already exist! Try update operation if want to change its value.'],
    [body({}, { content: 'not base64!' }), 'cryptoKeyInfoEnvironmentList[0].content must be the base64 of the secret key bytes'],
    [body({}, { content: b64(crypto.randomBytes(20)) }), 'cryptoKeyInfoEnvironmentList[0].content holds 20 bytes: a AES key has 16 or 24 or 32 bytes'],
    [body({}, { content: undefined }), 'cryptoKeyInfoEnvironmentList[0].content value can not be empty!'],
    [body({}, { privateKey: PRIVATE_PEM }), 'cryptoKeyInfoEnvironmentList[0]: give content, or the older privateKey/publicKey, not both'],
    [body({ keyType: 'PRIVATE_KEY' }), 'algorithm applies to SECRET_KEY only: omit it for PRIVATE_KEY'],
    [body({ keyType: 'PRIVATE_KEY', algorithm: null }), /^cryptoKeyInfoEnvironmentList\[0\]\.content is not a PEM-encoded RSA or EC private key/],
    [body({ keyType: 'PRIVATE_KEY', algorithm: null }, { content: b64(PUBLIC_PEM) }), /^cryptoKeyInfoEnvironmentList\[0\]\.content is not a PEM-encoded RSA or EC private key/],
    [body({ keyType: 'PUBLIC_KEY', algorithm: null }, { content: b64(PRIVATE_PEM) }), /^cryptoKeyInfoEnvironmentList\[0\]\.content holds a private key/],
    [body({ keyType: 'PRIVATE_KEY', algorithm: null }, { content: undefined, publicKey: PUBLIC_PEM }), 'cryptoKeyInfoEnvironmentList[0]: a PRIVATE_KEY needs the private key (content or privateKey)'],
    [body({}, { alias: 7 }), 'cryptoKeyInfoEnvironmentList[0].alias must be a string'],
  ])('refusal %#', async (b, message) => {
    await expectRefused(() => post(`${P}/`, b), message)
  })
})

describe('update-key: the page examples and their rules', () => {
  it('example 3: the name only renames and keeps the material, the alias and the algorithm', async () => {
    const res = await put(`${P}/aes-key/`, { name: 'new-key-name' })
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'new-key-name', keyType: 'SECRET_KEY', algorithm: 'AES', description: 'Key for API encryption', cryptoKeyInfoEnvironmentList: [{ alias: 'prod-key-alias', secretKeyPresent: true }, { alias: 'staging-key-alias' }] })
    const stored = (await row('new-key-name')).content as any
    expect(svc.deps.keyring.decrypt(stored.environments.dev.secretKey)).toBe(AES.toString('base64'))
    expect(worker.received.map((m) => [m.action, m.name])).toEqual(expect.arrayContaining([['DEPLOY', 'new-key-name'], ['UNDEPLOY', 'aes-key']]))
  })

  it('example 1 (jwkUpdateAction=UPDATE): new content re-derives the JWKs taken from the key', async () => {
    const jwk = await post('/apiops/projects/payments/jwks/parse-from-key', { name: 'from-my-key', keyName: 'my-key', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'RS256' })
    expect(jwk.status, jwk.text).toBe(200)
    const next = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
    const res = await put(`${P}/my-key/?jwkUpdateAction=UPDATE&updateScope=SAME_PROJECT`, {
      name: 'my-key', description: 'Updated key description', keyType: 'PRIVATE_KEY',
      cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(next.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()), alias: 'updated-alias' }],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.updatedJwks).toEqual(['from-my-key'])
    const read = await get('/apiops/projects/payments/jwks/from-my-key/')
    expect(read.body.resultList[0].rsa?.n ?? read.body.resultList[0].jwk?.n).toBe(next.publicKey.export({ format: 'jwk' }).n)
  })

  it('example 2 (jwkUpdateAction=NULLIFY): the JWKs are detached; description and content change, algorithm kept', async () => {
    const res = await put(`${P}/my-key/?jwkUpdateAction=NULLIFY`, {
      description: 'Updated description only', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(PRIVATE_PEM), alias: 'updated-alias' }],
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ description: 'Updated description only', keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ alias: 'updated-alias', publicKey: PUBLIC_PEM }] })
    expect(((await svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind: 'JWK', name: 'from-my-key' } })).content as any).sourceId).toBeNull()
    const again = await put(`${P}/my-key/?jwkUpdateAction=UPDATE`, { description: 'x' })
    expect(again.body.updatedJwks).toEqual([])
  })

  it('a changed algorithm or keyType needs the content again; SECRET_KEY needs an algorithm', async () => {
    await expectRefused(() => put(`${P}/new-key-name/`, { algorithm: 'DES' }), "algorithm changes to DES: give the content of environment 'dev' again")
    await expectRefused(() => put(`${P}/pub-key/`, { keyType: 'SECRET_KEY' }), 'algorithm is required for SECRET_KEY! Supported values: AES, DES, DESede, RSA')
    await expectRefused(() => put(`${P}/pub-key/`, { keyType: 'SECRET_KEY', algorithm: 'AES' }), 'cryptoKeyInfoEnvironmentList value can not be empty! keyType changes from PUBLIC_KEY to SECRET_KEY: give every environment\'s content')
    await expectRefused(() => put(`${P}/pub-key/`, { keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev' }] }), 'cryptoKeyInfoEnvironmentList[0].content value can not be empty!')
    await expectRefused(() => put(`${P}/pub-key/?jwkUpdateAction=SOMETIMES`, { description: 'x' }), 'jwkUpdateAction must be one of NULLIFY, UPDATE')
    const ok = await put(`${P}/pub-key/`, { keyType: 'SECRET_KEY', algorithm: 'DESede', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(DES3) }] })
    expect(ok.status, ok.text).toBe(200)
    expect(ok.body.resultList[0]).toMatchObject({ keyType: 'SECRET_KEY', algorithm: 'DESede', cryptoKeyInfoEnvironmentList: [{ publicKey: null, secretKeyPresent: true, keySize: 192 }] })
  })

  it('a JWK is not taken from a SECRET_KEY', async () => {
    await expectRefused(
      () => post('/apiops/projects/payments/jwks/parse-from-key', { name: 'no-jwk', keyName: 'new-key-name', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'HS256' }),
      'Key (name: new-key-name) is a SECRET_KEY: No PEM-encoded keys found (a JWK is taken from a PRIVATE_KEY or PUBLIC_KEY)',
    )
  })
})

describe('the GraphQL door and the audit', () => {
  it('createCryptoKey takes the newest body; the answer has no material', async () => {
    const res = await svc.graphql(`mutation($p: String!, $i: CryptoKeyInput!) { createCryptoKey(projectName: $p, input: $i) {
      key { name keyType algorithm cryptoKeyInfoEnvironmentList { environmentName alias keySize secretKeyPresent } } deploymentResult { success } } }`,
    { p: 'payments', i: { name: 'gql-secret', keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(AES2), alias: 'a1' }] } }, tina)
    bodies.push(JSON.stringify(res.body))
    expect(res.body.errors).toBeUndefined()
    expect(res.body.data.createCryptoKey).toEqual({
      key: { name: 'gql-secret', keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', alias: 'a1', keySize: 128, secretKeyPresent: true }] },
      deploymentResult: { success: true },
    })
    const refused = await svc.graphql(`mutation($p: String!, $i: CryptoKeyInput!) { createCryptoKey(projectName: $p, input: $i) { key { name } } }`,
      { p: 'payments', i: { name: 'gql-bad', keyType: 'SECRET_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(AES2) }] } }, tina)
    expect(refused.body.errors?.[0]?.message).toBe('algorithm is required for SECRET_KEY! Supported values: AES, DES, DESede, RSA')
    expect(await svc.deps.prisma.storedObject.count({ where: { kind: 'CRYPTO_KEY_INFO', name: 'gql-bad' } })).toBe(0)
  })

  it('every write is audited with the key name', async () => {
    const events = await svc.deps.prisma.auditEvent.findMany({ where: { objectType: 'CRYPTO_KEY_INFO' }, orderBy: { at: 'asc' } })
    const names = events.map((e) => e.objectName)
    expect(names).toEqual(expect.arrayContaining(['my-key', 'aes-key', 'des-key', 'pub-key']))
    const gql = await svc.deps.prisma.auditEvent.findMany({ where: { surface: 'GRAPHQL', operation: 'createCryptoKey' } })
    expect(gql.map((e) => e.outcome)).toEqual(['SUCCEEDED']) // the refused one is not an event
  })

  it('no answer carried secret or private key material', () => {
    const all = bodies.join('\n')
    expect(bodies.length).toBeGreaterThan(30)
    for (const s of SECRETS) expect(all).not.toContain(s)
  })
})
