import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { makeCertificate, startKeysService, USERS } from './support.js'

// The GraphQL door of certificates, keys, keystores and JWKs: the same services, rules and permissions as REST;
// no output type can carry a secret.

let svc: TestService
let worker: FakeWorker
let tina: string
let vic: string
const answers: string[] = []
const gql = async (query: string, variables: Record<string, unknown>, token = tina) => {
  const res = await svc.graphql(query, variables, token)
  answers.push(JSON.stringify(res.body))
  return res
}
const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
const EC_PEM = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const cert = makeCertificate({ cn: 'gql.example.com' })
const JKS = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'sample.jks')).toString('base64')

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startKeysService(worker.url)
  tina = await svc.tokenFor('tina', USERS.tina)
  vic = await svc.tokenFor('vic', USERS.vic)
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('GraphQL: certificates, keys, keystores, JWKs', () => {
  it('no output type of this area has a field that could carry a secret', async () => {
    const res = await gql(`{ __schema { types { name fields { name } } } }`, {})
    const types = res.body.data.__schema.types.filter((t: any) => ['Certificate', 'CertificateEnvironment', 'CryptoKey', 'CryptoKeyEnvironment', 'KeyStore', 'KeyStoreEnvironment', 'KeyStoreEntry', 'Jwk'].includes(t.name))
    expect(types).toHaveLength(8)
    for (const t of types) for (const f of t.fields) expect(['privateKey', 'password', 'keyPassword', 'file', 'd', 'k', 'privateJwk']).not.toContain(f.name)
  })

  it('creates and reads a certificate', async () => {
    const res = await gql(`mutation($p: String!, $i: CertificateInput!) { createCertificate(projectName: $p, input: $i) {
      certificate { name certificateEnvironmentList { environmentName alias sha256Fingerprint expired } } deploymentResult { success } warnings } }`,
    { p: 'payments', i: { certificateName: 'gql-cert', alias: 'gql', environmentList: ['dev'], pemEncodedFile: cert.pem } })
    expect(res.body.errors).toBeUndefined()
    expect(res.body.data.createCertificate).toEqual({
      certificate: { name: 'gql-cert', certificateEnvironmentList: [{ environmentName: 'dev', alias: 'gql', sha256Fingerprint: cert.sha256, expired: false }] },
      deploymentResult: { success: true }, warnings: [],
    })
    expect(worker.received.at(-1)).toMatchObject({ kind: 'CERTIFICATE', name: 'gql-cert' })
    const list = await gql(`query($p: String!) { certificates(projectName: $p) { name } }`, { p: 'payments' }, vic)
    expect(list.body.data.certificates).toEqual([{ name: 'gql-cert' }])
  })

  it('creates a key and a keystore; the private parts never come back', async () => {
    const key = await gql(`mutation($p: String!, $i: CryptoKeyInput!) { createCryptoKey(projectName: $p, input: $i) {
      key { name keyType cryptoKeyInfoEnvironmentList { environmentName curve privateKeyPresent } } deploymentResult { success } } }`,
    { p: 'payments', i: { name: 'gql-key', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', privateKey: EC_PEM }] } })
    expect(key.body.data.createCryptoKey.key).toEqual({ name: 'gql-key', keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', curve: 'P-256', privateKeyPresent: true }] })
    const ks = await gql(`mutation($p: String!, $i: KeyStoreInput!) { createKeyStore(projectName: $p, input: $i) {
      keyStore { name keyStoreEnvironmentList { type entries { alias entryType } } } } }`,
    { p: 'payments', i: { name: 'gql-ks', keyStoreEnvironmentList: [{ environmentName: 'dev', file: JKS, password: 'changeit' }] } })
    expect(ks.body.data.createKeyStore.keyStore.keyStoreEnvironmentList[0].entries.map((e: any) => e.alias)).toEqual(['ec1', 'signer', 'trusted-ca'])
    const wrong = await gql(`mutation($p: String!, $i: KeyStoreInput!) { createKeyStore(projectName: $p, input: $i) { keyStore { name } } }`,
      { p: 'payments', i: { name: 'gql-ks2', keyStoreEnvironmentList: [{ environmentName: 'dev', file: JKS, password: 'nope' }] } })
    expect(wrong.body.errors![0].message).toBe('keyStoreEnvironmentList[0].password does not open the keystore (wrong password)')
    expect(wrong.body.errors![0].extensions.params).toMatchObject({ field: 'keyStoreEnvironmentList[0].password' })
  })

  it('generates a secp256k1 JWK and parses one from the key; reads public members only', async () => {
    const gen = await gql(`mutation($p: String!, $i: JwkGenerateInput!) { generateJwk(projectName: $p, input: $i) { jwk { name type alg kid privateKeyPresent jwk } } }`,
      { p: 'payments', i: { name: 'gql-k1', type: 'EC', ec: { curveType: 'SECP256K1', keyIdType: 'SHA256' } } })
    expect(gen.body.data.generateJwk.jwk).toMatchObject({ name: 'gql-k1', type: 'EC', alg: 'ES256K', privateKeyPresent: true })
    expect(gen.body.data.generateJwk.jwk.jwk.d).toBeUndefined()
    expect(gen.body.data.generateJwk.jwk.jwk.crv).toBe('secp256k1')
    const parsed = await gql(`mutation($p: String!, $i: JwkSourceInput!) { createJwk(projectName: $p, input: $i) { jwk { name sourceType alg } deploymentResult { success } } }`,
      { p: 'payments', i: { name: 'gql-from-key', sourceType: 'PRIVATE_KEY', keyName: 'gql-key', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'ES256' } })
    expect(parsed.body.data.createJwk).toEqual({ jwk: { name: 'gql-from-key', sourceType: 'PRIVATE_KEY', alg: 'ES256' }, deploymentResult: { success: true } })
    const list = await gql(`query($p: String!) { jwks(projectName: $p) { name kid } jwk(projectName: $p, name: "gql-k1") { jwk } }`, { p: 'payments' }, vic)
    expect(list.body.data.jwks.map((j: any) => j.name)).toEqual(['gql-from-key', 'gql-k1'])
    expect(list.body.data.jwk.jwk.kid).toBe(gen.body.data.generateJwk.jwk.kid)
  })

  it('refusals carry errorKey and params; VIEW cannot write; nothing is written', async () => {
    const denied = await gql(`mutation($p: String!) { deleteJwk(projectName: $p, name: "gql-k1") { success } }`, { p: 'payments' }, vic)
    expect(denied.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied', params: { category: 'CERTIFICATE', level: 'MANAGE' } })
    const missing = await gql(`mutation($p: String!) { deleteCertificate(projectName: $p, name: "nope") { success } }`, { p: 'payments' })
    expect(missing.body.errors![0]).toMatchObject({ message: 'Certificate (name: nope) is not found!', extensions: { errorKey: 'certificateNotFound' } })
    expect(await svc.deps.prisma.storedObject.count({ where: { kind: 'JWK' } })).toBe(2)
  })

  it('update and delete through GraphQL push like REST', async () => {
    worker.received.length = 0
    const upd = await gql(`mutation($p: String!) { updateJwk(projectName: $p, name: "gql-k1", input: { description: "renamed" }) { jwk { description } } }`, { p: 'payments' })
    expect(upd.body.data.updateJwk.jwk.description).toBe('renamed')
    const gone = await gql(`mutation($p: String!) { deleteCryptoKey(projectName: $p, name: "gql-key") { success environmentResults { environmentName } } }`, { p: 'payments' })
    expect(gone.body.data.deleteCryptoKey.success).toBe(true)
    expect(worker.received.map((m) => [m.action, m.kind, m.name])).toEqual([['DEPLOY', 'JWK', 'gql-k1'], ['UNDEPLOY', 'KEY', 'gql-key']])
    const events = await svc.deps.prisma.auditEvent.findMany({ where: { surface: 'GRAPHQL' } })
    expect(events.map((e) => e.operation)).toEqual(expect.arrayContaining(['createCertificate', 'createCryptoKey', 'generateJwk', 'updateJwk', 'deleteCryptoKey']))
  })

  it('no answer carried the private key, keystore file or password', () => {
    const all = answers.join('\n')
    for (const s of [EC_PEM.split('\n')[1]!, JKS.slice(0, 60), 'changeit']) expect(all).not.toContain(s)
  })
})
