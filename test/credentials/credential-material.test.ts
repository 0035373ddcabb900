import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { client, form, makeCertificate, type Answer } from '../keys/support.js'

// A credential's security material and token settings (api-reference/credentials/secrets/*, jwk-settings/*,
// token-settings/set-token-settings): each slot set by name (the project's object, else the admin project's) and
// removed, the credential redeployed naming its material; refusals write and push nothing; an object a credential
// names cannot be deleted, renamed or retyped; both doors; the audit trail.
const P = '/apiops/projects/payments'
const C = `${P}/credentials/shop-frontend`

let svc: TestService
let worker: FakeWorker
let root: string
let carol: string
const { get, post, put, del } = client(() => svc, () => root)

const cert = makeCertificate({ cn: 'client.example.com' })
const adminCert = makeCertificate({ cn: 'admin-ca.example.com', ca: true })
const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64')
const JKS = fs.readFileSync(path.join(import.meta.dirname, '..', 'keys', 'fixtures', 'sample.jks')).toString('base64')

const state = async () => ({
  material: await svc.deps.prisma.credentialMaterial.findMany({ orderBy: [{ credentialId: 'asc' }, { slot: 'asc' }] }),
  credentials: await svc.deps.prisma.credential.findMany({ orderBy: { id: 'asc' }, select: { id: true, revision: true, tokenSettings: true } }),
  objects: await svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE' }, orderBy: { id: 'asc' } }),
})
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) => expectLegacyRefusal(call, message, { state, pushes: () => worker.received.length })
const lastCredentialPush = () => worker.received.filter((m) => m.kind === 'CREDENTIAL').at(-1)!

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startService()
  root = await svc.tokenFor('root', 's3cret-root')
  carol = await svc.tokenFor('carol', 'carol-pass-1')
  // the objects a credential may name: the project's, and a certificate of the admin project
  const made = [
    await post(`${P}/certificates/`, form({ certificateName: 'client-cert', alias: 'client', environmentList: 'dev' }, { content: cert.pem })),
    await post(`${P}/keystores/`, { name: 'client-ks', keyStoreEnvironmentList: [{ environmentName: 'dev', file: JKS, password: 'changeit', keyStoreType: 'JKS' }] }),
    await post(`${P}/keystores/`, { name: 'client-ts', keyStoreEnvironmentList: [{ environmentName: 'dev', file: JKS, password: 'changeit' }] }),
    await post(`${P}/keys/`, { name: 'client-private', keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()) }] }),
    await post(`${P}/keys/`, { name: 'client-public', keyType: 'PUBLIC_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString()) }] }),
    await post(`${P}/keys/`, { name: 'client-secret', keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(crypto.randomBytes(32)) }] }),
    await post(`${P}/jwks/generate`, { name: 'client-jwk', type: 'RSA', rsa: { keySize: 2048 } }),
    await post(`${P}/jwks/generate`, { name: 'client-enc', type: 'RSA', rsa: { keySize: 2048, keyUseType: 'ENCRYPTION' } }),
  ]
  for (const r of made) expect(r.status, r.text).toBe(200)
  const [admin, dev] = await Promise.all([svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'admin' } }), svc.deps.prisma.environment.findUniqueOrThrow({ where: { name: 'dev' } })])
  await svc.deps.prisma.projectEnvironment.create({ data: { projectId: admin.id, environmentId: dev.id } })
  const adminMade = await post('/apiops/projects/admin/certificates/', form({ certificateName: 'admin-ca', alias: 'admin-ca', environmentList: 'dev' }, { content: adminCert.pem }))
  expect(adminMade.status, adminMade.text).toBe(200)
})
afterEach(() => {
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

async function startService() {
  const { startTestService } = await import('../support/app.js')
  return startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
}

describe('set and remove each slot (the pages\' paths)', () => {
  it.each([
    ['certificate/client-cert', 'CERTIFICATE', 'client-cert'],
    ['keystore/client-ks', 'KEYSTORE', 'client-ks'],
    ['truststore/client-ts', 'TRUSTSTORE', 'client-ts'],
    ['privateKey/client-private', 'PRIVATE_KEY', 'client-private'],
    ['publicKey/client-public', 'PUBLIC_KEY', 'client-public'],
    ['secretKey/client-secret', 'SECRET_KEY', 'client-secret'],
    ['jwk/validation/client-jwk', 'JWK_VALIDATION', 'client-jwk'],
    ['jwk/encryption/client-enc', 'JWK_ENCRYPTION', 'client-enc'],
  ])('PUT …/%s/ names it and redeploys the credential', async (segment, slot, name) => {
    const res = await put(`${C}/${segment}/`, undefined)
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true, environmentResults: [{ environmentName: 'dev', success: true }, { environmentName: 'prod', success: true }] } })
    expect(lastCredentialPush()).toMatchObject({ action: 'DEPLOY', name: 'shop-frontend' })
    expect((lastCredentialPush().config as any).material[slot]).toEqual({ project: 'payments', kind: expect.any(String), name })
  })

  it('the admin project\'s object when the project has none of that name; a new one replaces the old', async () => {
    const res = await put(`${C}/certificate/admin-ca/`, undefined)
    expect(res.status, res.text).toBe(200)
    const material = (lastCredentialPush().config as any).material
    expect(material.CERTIFICATE).toEqual({ project: 'admin', kind: 'CERTIFICATE', name: 'admin-ca' })
    expect(Object.keys(material).sort()).toEqual(['CERTIFICATE', 'JWK_ENCRYPTION', 'JWK_VALIDATION', 'KEYSTORE', 'PRIVATE_KEY', 'PUBLIC_KEY', 'SECRET_KEY', 'TRUSTSTORE'])
    const audit = await svc.deps.prisma.auditEvent.findFirst({ where: { objectType: 'CREDENTIAL', objectName: 'shop-frontend', operation: { contains: 'certificate' } } })
    expect(audit?.outcome).toBe('SUCCEEDED')
  })

  it('refusals write and push nothing', async () => {
    await expectRefused(() => put(`${C}/certificate/nope/`, undefined), 'Certificate (name: nope) is not found!')
    await expectRefused(() => put(`${C}/secretKey/nope/`, undefined), 'Secret Key (name: nope) is not found!')
    await expectRefused(() => put(`${C}/jwk/validation/nope/`, undefined), 'JWK (name: nope) is not found!')
    await expectRefused(() => put(`${C}/keystore/nope/`, undefined), 'Keystore (name: nope) is not found!')
    await expectRefused(() => put(`${C}/secretKey/client-private/`, undefined), 'Key (name: client-private) is a PRIVATE_KEY: the secret key of a credential must be of type SECRET_KEY')
    await expectRefused(() => put(`${C}/publicKey/client-secret/`, undefined), 'Key (name: client-secret) is a SECRET_KEY: the public key of a credential must be of type PUBLIC_KEY')
    await expectRefused(() => put(`${P}/credentials/nobody/certificate/client-cert/`, undefined), /Credential 'nobody' not found/)
    await expectRefused(() => put(`${C}/certificate/client-cert/`, undefined, carol), /lacks permission IDENTITY MANAGE/)
    await expectRefused(() => del(`${C}/certificate/`, carol), /lacks permission IDENTITY MANAGE/)
  })

  it('an object a credential names is not deleted, renamed or retyped', async () => {
    await expectRefused(() => del(`${P}/keys/client-secret/`), 'Key (name: client-secret) is used by credential(s) shop-frontend and can not be deleted: remove it from them first')
    await expectRefused(() => put(`${P}/keys/client-secret/`, { name: 'renamed-secret' }), 'Key (name: client-secret) is used by credential(s) shop-frontend and can not be renamed: remove it from them first')
    await expectRefused(() => put(`${P}/keys/client-public/`, { keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(crypto.randomBytes(16)) }] }),
      'Key (name: client-public) is used by credential(s) shop-frontend and can not be changed to another keyType: remove it from them first')
    await expectRefused(() => del(`${P}/jwks/client-jwk/`), 'JWK (name: client-jwk) is used by credential(s) shop-frontend and can not be deleted: remove it from them first')
    await expectRefused(() => del(`${P}/keystores/client-ts/`), 'Keystore (name: client-ts) is used by credential(s) shop-frontend and can not be deleted: remove it from them first')
    await expectRefused(() => del('/apiops/projects/admin/certificates/admin-ca/'), 'Certificate (name: admin-ca) is used by credential(s) shop-frontend and can not be deleted: remove it from them first')
    // the project's own certificate is no longer named (the admin one replaced it): it goes
    expect((await del(`${P}/certificates/client-cert/`)).status).toBe(200)
  })

  it('DELETE …/{slot}/ empties it (the object stays); an empty slot is refused; then the object may go', async () => {
    const res = await del(`${C}/secretKey/`)
    expect(res.status, res.text).toBe(200)
    expect((lastCredentialPush().config as any).material.SECRET_KEY).toBeUndefined()
    await expectRefused(() => del(`${C}/secretKey/`), 'Credential (username: shop-frontend) does not have a Secret Key assigned!')
    expect((await get(`${P}/keys/client-secret/`)).status).toBe(200)
    expect((await del(`${P}/keys/client-secret/`)).status).toBe(200)
    for (const segment of ['certificate', 'keystore', 'truststore', 'privateKey', 'publicKey', 'jwk/validation', 'jwk/encryption']) {
      expect((await del(`${C}/${segment}/`)).status).toBe(200)
    }
    expect((lastCredentialPush().config as any).material).toEqual({})
  })
})

describe('token settings (set-token-settings)', () => {
  const stored = async () => (await svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'shop-frontend' } })).tokenSettings as any

  it('example 1 (basic): the given fields stored, SECRET_MANAGER, pushed', async () => {
    const res = await put(`${C}/token/`, {
      grantType: 'PASSWORD', tokenNeverExpires: false, tokenExpiresInAmount: 3600, tokenExpiresInUnit: 'SECONDS', refreshTokenAllowed: true, refreshTokenCount: 1,
      refreshTokenExpiresInAmount: 7200, refreshTokenExpiresInUnit: 'SECONDS', allowUrlParameters: false, jwtSignatureAlgorithm: 'RS256', deletePrevious: false,
    })
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    expect(await stored()).toEqual({
      grantType: 'PASSWORD', tokenNeverExpires: false, tokenExpiresInAmount: 3600, tokenExpiresInUnit: 'SECONDS', refreshTokenAllowed: true, refreshTokenCount: 1,
      refreshTokenExpiresInAmount: 7200, refreshTokenExpiresInUnit: 'SECONDS', allowUrlParameters: false, managedFromThisPolicy: true, jwtSignatureAlgorithm: 'RS256',
      deletePrevious: false, enumPolicyAuthenticationType: 'SECRET_MANAGER',
    })
    expect((lastCredentialPush().config as any).tokenSettings).toMatchObject({ tokenExpiresInAmount: 3600 })
  })

  it('example 2 (never expires): only the given fields change; the expiry and refresh fields are cleared', async () => {
    const res = await put(`${C}/token/`, { grantType: 'CLIENT_CREDENTIALS', tokenNeverExpires: true, refreshTokenAllowed: false, allowUrlParameters: true, jwtSignatureAlgorithm: 'HS256' })
    expect(res.status, res.text).toBe(200)
    expect(await stored()).toMatchObject({
      grantType: 'CLIENT_CREDENTIALS', tokenNeverExpires: true, tokenExpiresInAmount: null, tokenExpiresInUnit: null, refreshTokenAllowed: false, refreshTokenCount: null,
      allowUrlParameters: true, jwtSignatureAlgorithm: 'HS256', deletePrevious: false,
    })
  })

  it('refusals name the field and write nothing', async () => {
    await expectRefused(() => put(`${C}/token/`, { tokenNeverExpires: false }), 'tokenExpiresInAmount is required when tokenNeverExpires is false')
    await expectRefused(() => put(`${C}/token/`, { refreshTokenAllowed: true }), 'refreshTokenCount is required when refreshTokenAllowed is true')
    await expectRefused(() => put(`${C}/token/`, { tokenExpiresInAmount: 0 }), /tokenExpiresInAmount/)
    await expectRefused(() => put(`${C}/token/`, { grantType: 'MAGIC' }), /grantType/)
    await expectRefused(() => put(`${C}/token/`, { tokenExpiresInUnit: 'FORTNIGHTS' }), /tokenExpiresInUnit/)
    await expectRefused(() => put(`${P}/credentials/nobody/token/`, {}), /Credential 'nobody' not found/)
    await expectRefused(() => put(`${C}/token/`, {}, carol), /lacks permission IDENTITY MANAGE/)
  })

  it('the page\'s singular refresh units are read as the spec\'s plural ones', async () => {
    const res = await put(`${C}/token/`, { refreshTokenAllowed: true, refreshTokenCount: 2, refreshTokenExpiresInAmount: 1, refreshTokenExpiresInUnit: 'DAY' })
    expect(res.status, res.text).toBe(200)
    expect(await stored()).toMatchObject({ refreshTokenExpiresInUnit: 'DAYS', refreshTokenCount: 2 })
  })
})

describe('the GraphQL door', () => {
  it('setCredentialMaterial, removeCredentialMaterial and setCredentialTokenSettings call the same services', async () => {
    const set = await svc.graphql(`mutation { setCredentialMaterial(projectName: "payments", username: "shop-frontend", slot: PRIVATE_KEY, name: "client-private") { deploymentResult { success } } }`, {}, root)
    expect(set.body.errors).toBeUndefined()
    expect((lastCredentialPush().config as any).material.PRIVATE_KEY).toEqual({ project: 'payments', kind: 'CRYPTO_KEY_INFO', name: 'client-private' })
    const wrong = await svc.graphql(`mutation { setCredentialMaterial(projectName: "payments", username: "shop-frontend", slot: PUBLIC_KEY, name: "client-private") { deploymentResult { success } } }`, {}, root)
    expect(wrong.body.errors?.[0]?.message).toBe('Key (name: client-private) is a PRIVATE_KEY: the public key of a credential must be of type PUBLIC_KEY')
    const removed = await svc.graphql(`mutation { removeCredentialMaterial(projectName: "payments", username: "shop-frontend", slot: PRIVATE_KEY) { deploymentResult { success } } }`, {}, root)
    expect(removed.body.data.removeCredentialMaterial.deploymentResult.success).toBe(true)
    expect(await svc.deps.prisma.credentialMaterial.count()).toBe(0)
    const token = await svc.graphql(`mutation { setCredentialTokenSettings(projectName: "payments", username: "shop-frontend", input: { deletePrevious: true }) { credential { tokenSettings { deletePrevious enumPolicyAuthenticationType } } } }`, {}, root)
    expect(token.body.data.setCredentialTokenSettings.credential.tokenSettings).toEqual({ deletePrevious: true, enumPolicyAuthenticationType: 'SECRET_MANAGER' })
    const events = await svc.deps.prisma.auditEvent.findMany({ where: { surface: 'GRAPHQL' } })
    expect(events.map((e) => e.operation)).toEqual(expect.arrayContaining(['setCredentialMaterial', 'removeCredentialMaterial', 'setCredentialTokenSettings']))
  })
})
