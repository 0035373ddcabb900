import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { expectLegacyRefusal } from '../support/refusals.js'
import { useTestbed } from '../support/testbed.js'
import { type Answer, client, form, makeCertificate } from './support.js'

// jwkDeleteAction of the newest delete pages (api-reference/keys-secrets/crud/delete-certificate, delete-key,
// delete-keystore): NULLIFY, the default, keeps the JWKs taken from the deleted object, detached from it; DELETE
// deletes them with it and undeploys them; an unknown action, or a JWK to delete that a credential names, is refused
// with nothing written and nothing pushed. The GraphQL mutations take the same argument.
const P = '/apiops/projects/payments'

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const { get, post, put, del } = client(() => bed.svc, () => bed.root)

const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64')
const JKS = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'sample.jks')).toString('base64')
const cert = makeCertificate({ cn: 'jwk-source.example.com', keys: rsa })

const objects = () => bed.svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE' }, orderBy: { id: 'asc' } })
const jwk = (name: string) => bed.svc.deps.prisma.storedObject.findFirst({ where: { kind: 'JWK', name } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) =>
  expectLegacyRefusal(call, message, { state: objects, pushes: () => bed.dev.received.length })
const undeploys = () => bed.dev.received.filter((m) => m.action === 'UNDEPLOY').map((m) => `${m.kind} ${m.name}`).sort()

/** A source of each kind, with a JWK taken from it (`<source>-jwk`). */
async function sources(suffix: string) {
  const made = [
    await post(`${P}/keys/`, { name: `key-${suffix}`, keyType: 'PRIVATE_KEY', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: b64(rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()) }] }),
    await post(`${P}/keystores/`, { name: `ks-${suffix}`, keyStoreEnvironmentList: [{ environmentName: 'dev', type: 'JKS', file: JKS, password: 'changeit' }] }),
    await post(`${P}/certificates/`, form({ certificateName: `cert-${suffix}`, alias: `cert-${suffix}`, environmentList: 'dev' }, { content: cert.pem })),
    await post(`${P}/jwks/parse-from-key`, { name: `key-${suffix}-jwk`, keyName: `key-${suffix}`, environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'RS256' }),
    await post(`${P}/jwks/parse-from-keystore`, { name: `ks-${suffix}-jwk`, keyStoreName: `ks-${suffix}`, environmentName: 'dev', aliasName: 'signer', useType: 'SIGNATURE', algorithm: 'RS256' }),
    await post(`${P}/jwks/parse-from-certificate`, { name: `cert-${suffix}-jwk`, certificateName: `cert-${suffix}`, environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'RS256' }),
  ]
  for (const res of made) expect(res.status, res.text).toBe(200)
  bed.dev.received.length = 0
}

describe('jwkDeleteAction on the delete pages', () => {
  it('NULLIFY (the default, or named): the JWKs stay, detached, deployed as they were', async () => {
    await sources('kept')
    const taken = await Promise.all(['key-kept-jwk', 'ks-kept-jwk', 'cert-kept-jwk'].map(jwk))
    expect(taken.map((j) => (j!.content as any).sourceId)).toEqual([expect.any(String), expect.any(String), expect.any(String)])
    for (const path of ['keys/key-kept/', 'keystores/ks-kept/?jwkDeleteAction=NULLIFY', 'certificates/cert-kept/?jwkDeleteAction=nullify']) {
      const res = await del(`${P}/${path}`)
      expect(res.status, res.text).toBe(200)
      expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true, environmentResults: [{ environmentName: 'dev', success: true }] } })
    }
    expect(undeploys()).toEqual(['CERTIFICATE cert-kept', 'KEY key-kept', 'KEYSTORE ks-kept'])
    for (const before of taken) {
      const after = await jwk(before!.name)
      expect((after!.content as any).sourceId).toBeNull()
      // the key is the one it had: only the link to the deleted object went
      expect({ ...(after!.content as any), sourceId: 'x' }).toEqual({ ...(before!.content as any), sourceId: 'x' })
    }
    expect((await get(`${P}/jwks/key-kept-jwk/`)).body.resultList[0]).toMatchObject({ name: 'key-kept-jwk', sourceId: null })
  })

  it('DELETE: the JWKs taken from the object are deleted and undeployed with it; other JWKs stay', async () => {
    await sources('gone')
    await sources('other')
    for (const [path, kind, name] of [['keys/key-gone/', 'KEY', 'key-gone'], ['keystores/ks-gone/', 'KEYSTORE', 'ks-gone'], ['certificates/cert-gone/', 'CERTIFICATE', 'cert-gone']] as const) {
      const res = await del(`${P}/${path}?jwkDeleteAction=DELETE`)
      expect(res.status, res.text).toBe(200)
      // one result per environment for the object (deployed to dev) and its JWK (a JWK goes to every environment)
      expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
      expect(res.body.deploymentResult.environmentResults.map((r: any) => [r.environmentName, r.success])).toEqual([['dev', true], ['prod', true]])
      expect(undeploys()).toEqual([`${kind} ${name}`, `JWK ${name}-jwk`].sort())
      expect(await jwk(`${name}-jwk`)).toBeNull()
      bed.dev.received.length = 0
    }
    for (const name of ['key-other-jwk', 'ks-other-jwk', 'cert-other-jwk']) expect((await jwk(name))!.content).toMatchObject({ sourceId: expect.any(String) })
  })

  it('refuses an unknown action, and a JWK to delete that a credential names: nothing written, nothing pushed', async () => {
    await sources('held')
    await expectRefused(() => del(`${P}/keys/key-held/?jwkDeleteAction=SOMETIMES`), 'jwkDeleteAction must be one of NULLIFY, DELETE')
    await expectRefused(() => del(`${P}/certificates/cert-held/?jwkDeleteAction=PURGE`), 'jwkDeleteAction must be one of NULLIFY, DELETE')
    expect((await put(`${P}/credentials/shop-frontend/jwk/validation/ks-held-jwk/`, undefined)).status).toBe(200)
    bed.dev.received.length = 0
    await expectRefused(() => del(`${P}/keystores/ks-held/?jwkDeleteAction=DELETE`),
      'JWK (name: ks-held-jwk) is used by credential(s) shop-frontend and can not be deleted: remove it from them first')
    // detaching it is allowed: the credential keeps its JWK
    expect((await del(`${P}/keystores/ks-held/`)).status).toBe(200)
    expect((await jwk('ks-held-jwk'))!.content).toMatchObject({ sourceId: null })
  })

  it('GraphQL: the delete mutations take jwkDeleteAction, with the same rules', async () => {
    await sources('gql')
    const mutation = (field: string) => `mutation($p: String!, $n: String!, $a: String) { ${field}(projectName: $p, name: $n, jwkDeleteAction: $a) { success environmentResults { environmentName success } } }`
    const deleted = await bed.svc.graphql(mutation('deleteCryptoKey'), { p: 'payments', n: 'key-gql', a: 'DELETE' }, bed.root)
    expect(deleted.body).toEqual({ data: { deleteCryptoKey: { success: true, environmentResults: [{ environmentName: 'dev', success: true }, { environmentName: 'prod', success: true }] } } })
    expect(await jwk('key-gql-jwk')).toBeNull()
    const before = JSON.stringify(await objects())
    const pushes = bed.dev.received.length
    const refused = await bed.svc.graphql(mutation('deleteKeyStore'), { p: 'payments', n: 'ks-gql', a: 'SOMETIMES' }, bed.root)
    expect(refused.body.errors?.[0]).toMatchObject({ message: 'jwkDeleteAction must be one of NULLIFY, DELETE' })
    expect(JSON.stringify(await objects())).toBe(before)
    expect(bed.dev.received.length).toBe(pushes)
    const kept = await bed.svc.graphql(mutation('deleteCertificate'), { p: 'payments', n: 'cert-gql', a: null }, bed.root)
    expect(kept.body.data?.deleteCertificate).toMatchObject({ success: true })
    expect((await jwk('cert-gql-jwk'))!.content).toMatchObject({ sourceId: null })
  })
})
