import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readPackageZip } from '../../src/platform/transfer/package/zip.js'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { fileForm, useFilesService } from './files-support.js'
import { type Answer, client, makeCertificate, makePkcs12 } from './support.js'

// Keystores and JWKs as files (api-reference/keys-secrets/crud/import-keystore-file, export-keystore-file,
// import-jwk-file, export-jwk-file): the pages' examples, the file back byte for byte, refusals, permissions.
const P = '/apiops/projects/payments'
const JKS = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'sample.jks'))
const JKS_PASSWORD = 'changeit'
const server = makeCertificate({ cn: 'server.example.com', serial: '21' })
const P12_PASSWORD = 'p12-secret-pass'
const P12 = Buffer.from(makePkcs12('server', P12_PASSWORD, server.keys, [server.pem]), 'base64')

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}
const { bodies, get, post } = client(() => svc, () => tokens.ivy!)

const storeForm = (fields: Record<string, string | undefined>, content: Buffer = P12, fileName = 'partner-store.pfx') =>
  fileForm({ keystoreName: 'partner-store', password: P12_PASSWORD, environmentList: 'dev,prod', ...fields }, 'keystoreFile', content, fileName)

const rsaJwk = { kty: 'RSA', kid: 'partner-2026', use: 'sig', alg: 'RS256', ...server.keys.privateKey.export({ format: 'jwk' }) }
const jwkSet = JSON.stringify({ keys: [rsaJwk, { kty: 'oct', kid: 'hmac-1', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMw' }] })
const jwkForm = (fields: Record<string, string | undefined>, content: string = jwkSet) =>
  fileForm({ jwkName: 'partner-jwk', kid: 'partner-2026', ...fields }, 'jwkFile', content, 'jwks.json')

useFilesService((started, fake) => {
  svc = started
  worker = fake
}, tokens)

const rows = () => svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) => expectLegacyRefusal(call, message, { state: rows, pushes: () => worker.received.length })

describe('keystores: import-file and export-file', () => {
  it('example 1: a .pfx into two environments (type from the extension), pushed to both; exported back byte for byte as .pfx', async () => {
    const res = await post(`${P}/keystores/import-file/`, storeForm({}))
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0].keyStoreEnvironmentList.map((e: any) => [e.environmentName, e.keyStoreType, e.entries.map((x: any) => x.alias)])).toEqual([
      ['dev', 'PKCS12', ['server']], ['prod', 'PKCS12', ['server']],
    ])
    expect(worker.received.map((r) => [r.kind, (r.config as any).environmentName]).sort()).toEqual([['KEYSTORE', 'dev'], ['KEYSTORE', 'prod']])
    const one = await get(`${P}/keystores/partner-store/export-file/?environmentName=prod`)
    expect(one.status).toBe(200)
    expect(one.headers.get('content-disposition')).toContain('filename="partner-store-prod.pfx"')
    expect(one.body).toEqual(P12)
    expect(one.text).not.toContain(P12_PASSWORD)
    const all = await get(`${P}/keystores/partner-store/export-file/`)
    expect(all.headers.get('content-disposition')).toContain('filename="partner-store-keystores.zip"')
    expect([...readPackageZip(all.body as Buffer).keys()].sort()).toEqual(['partner-store-dev.pfx', 'partner-store-prod.pfx'])
  })

  it('example 2 and 3: a JKS with an explicit type replaces one environment (override); the other keeps its file', async () => {
    const res = await post(`${P}/keystores/import-file/`, storeForm({ password: JKS_PASSWORD, keyStoreType: 'JKS', environmentList: 'prod', override: 'true' }, JKS, 'partner-store.keystore'))
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0].keyStoreEnvironmentList.map((e: any) => [e.environmentName, e.keyStoreType])).toEqual([['dev', 'PKCS12'], ['prod', 'JKS']])
    expect((await get(`${P}/keystores/partner-store/export-file/?environmentName=dev`)).body).toEqual(P12)
    const prod = await get(`${P}/keystores/partner-store/export-file/?environmentName=prod`)
    expect(prod.headers.get('content-disposition')).toContain('filename="partner-store-prod.keystore"')
    expect(prod.body).toEqual(JKS)
    expect(bodies.filter((b) => b.startsWith('{')).join('\n')).not.toContain(P12_PASSWORD)
  })

  it('refusals (the pages\' messages; nothing written or pushed) and permissions', async () => {
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({})), 'Keystore (name: partner-store) is already exist! Send override=true to update it.')
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({ keystoreName: 'ks2', keyStoreType: 'BCFKS' })), 'Unknown keyStoreType (BCFKS)! Supported values: JKS, PKCS12')
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({ keystoreName: 'ks2', password: '' })), 'password value can not be empty!')
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({ keystoreName: 'ks2', password: 'wrong-password' })), /password/)
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({ keystoreName: 'ks2', environmentList: 'Staging' })), 'Environment (Staging) is not found or user does not have privilege to access it!')
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({ keystoreName: 'ks2', override: 'true' })), 'Keystore (name: ks2) is not found!')
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({ keystoreName: 'ks2', alias: 'nobody' })), /^alias 'nobody' is not an entry of the keystore/)
    await expectRefused(() => post(`${P}/keystores/import-file/`, storeForm({ keystoreName: 'ks2' }), tokens.vic!), /User lacks permission CERTIFICATE MANAGE/)
    const missing = await get(`${P}/keystores/partner-store/export-file/?environmentName=uat`)
    expect(missing.body.resultMessage).toBe('(partner-store) has no material for environment (uat)! Available: dev, prod')
    const viewer = await get(`${P}/keystores/partner-store/export-file/`, tokens.vic!)
    expect([viewer.status, viewer.body.resultMessage]).toEqual([400, "User lacks permission CERTIFICATE EXPORT_IMPORT (or PROJECT_MANAGEMENT EXPORT_IMPORT) in project 'payments'"])
  })
})

describe('JWKs: import-file and export-file', () => {
  it('example 1 and 2: a JWK Set, kid picking the key, with a description; pushed to every environment', async () => {
    const res = await post(`${P}/jwks/import-file/`, jwkForm({ jwkDescription: 'Partner signing key, rotated 2026-01' }))
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'partner-jwk', kid: 'partner-2026', description: 'Partner signing key, rotated 2026-01', privateKeyPresent: true })
    expect(res.text).not.toContain(String(rsaJwk.d))
    expect(worker.received.map((r) => r.kind)).toEqual(['JWK', 'JWK'])
  })

  it('export-file: the stored material by default, public members only with publicOnly=true', async () => {
    const full = await get(`${P}/jwks/partner-jwk/export-file/`)
    expect(full.status).toBe(200)
    expect(full.headers.get('content-type')).toMatch(/^application\/json/)
    expect(full.headers.get('content-disposition')).toContain('filename="partner-jwk.json"')
    expect(full.body.keys[0]).toMatchObject({ kty: 'RSA', kid: 'partner-2026', use: 'sig', alg: 'RS256', n: rsaJwk.n, e: 'AQAB', d: rsaJwk.d, qi: rsaJwk.qi })
    const pub = await get(`${P}/jwks/partner-jwk/export-file/?publicOnly=true`)
    expect(pub.headers.get('content-disposition')).toContain('filename="partner-jwk-public.json"')
    expect(pub.body).toEqual({ keys: [{ kty: 'RSA', kid: 'partner-2026', use: 'sig', alg: 'RS256', n: rsaJwk.n, e: 'AQAB' }] })
  })

  it('refusals and permissions', async () => {
    await expectRefused(() => post(`${P}/jwks/import-file/`, jwkForm({})), /^JWK \(name: partner-jwk\) is already exist!/)
    await expectRefused(() => post(`${P}/jwks/import-file/`, jwkForm({ jwkName: 'j2', kid: '' })), 'kid value can not be empty!')
    await expectRefused(() => post(`${P}/jwks/import-file/`, jwkForm({ jwkName: 'j2', kid: 'nope' })), "kid 'nope' is not in the JWK Set of jwkFile (kids: partner-2026, hmac-1)")
    await expectRefused(() => post(`${P}/jwks/import-file/`, jwkForm({ jwkName: 'j2' }, '{oops')), 'jwkFile is not valid JSON')
    await expectRefused(() => post(`${P}/jwks/import-file/`, jwkForm({ jwkName: 'j2' }), tokens.tina!), /^User lacks permission CERTIFICATE EXPORT_IMPORT/)
    expect((await post(`${P}/jwks/import-file/`, jwkForm({ jwkName: 'hmac', kid: 'hmac-1' }))).status).toBe(200)
    const symmetric = await get(`${P}/jwks/hmac/export-file/?publicOnly=true`)
    expect([symmetric.status, symmetric.body.resultMessage]).toEqual([400, 'JWK (name: hmac) is a symmetric (oct) key: it has no public form to publish!'])
    const unknown = await get(`${P}/jwks/nope/export-file/`)
    expect(unknown.body.resultMessage).toBe('JWK (name: nope) is not found!')
    const viewer = await get(`${P}/jwks/partner-jwk/export-file/`, tokens.vic!)
    expect([viewer.status, viewer.body.status]).toEqual([400, 'FAILURE'])
  })
})
