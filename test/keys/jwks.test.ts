import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import * as jose from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { type Answer, client, form, makeCertificate, startKeysService, USERS } from './support.js'

// JWKs over /apiops (08-keys-secrets/crud/*jwk*): generate, create from every source, update, delete. The pages'
// examples replayed; private members sealed, pushed opened, never answered. URL sources come from a loopback
// server, with the private-address allowance the specUrl tests use.
const P = '/apiops/projects/payments'
const J = `${P}/jwks`

let svc: TestService
let worker: FakeWorker
let tina: string
let vic: string
let jwksServer: http.Server
let jwksUrl: string
let served: { status: number; body: string; delayMs: number } = { status: 200, body: '', delayMs: 0 }
const { bodies, get, post, put, del } = client(() => svc, () => tina)

const setKeys = [crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }), crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })]
  .map((kp, i) => ({ ...(kp.publicKey.export({ format: 'jwk' }) as object), kid: `key-id-${i + 1}` }))
const pastedPrivate = crypto.generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' }) as Record<string, string>
const certKeys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const cert = makeCertificate({ cn: 'jwk.example.com', keys: certKeys })

const jwkRow = (name: string) => svc.deps.prisma.storedObject.findFirstOrThrow({ where: { kind: 'JWK', name } })
const pushed = (name: string) => worker.received.filter((m) => m.name === name && m.action === 'DEPLOY').map((m) => (m.config as any).jwk)
const privateValues: string[] = [pastedPrivate.d!]

beforeAll(async () => {
  worker = await FakeWorker.start()
  jwksServer = http.createServer((_req, res) => setTimeout(() => res.writeHead(served.status, { 'content-type': 'application/json' }).end(served.body), served.delayMs))
  await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r))
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`
  svc = await startKeysService(worker.url, { SPEC_FETCH_ALLOW_PRIVATE: 'true' })
  tina = await svc.tokenFor('tina', USERS.tina)
  vic = await svc.tokenFor('vic', USERS.vic)
})
afterEach(() => {
  for (const m of worker.received) if (m.action === 'DEPLOY' && (m.config as any)?.jwk) for (const k of ['d', 'p', 'q', 'k']) if ((m.config as any).jwk[k]) privateValues.push((m.config as any).jwk[k])
  worker.received.length = 0
  served = { status: 200, body: '', delayMs: 0 }
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
  await new Promise((r) => jwksServer?.close(r))
})

// a refusal leaves every JWK row as it was (not only their number) and pushes nothing
const storedRows = () => svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE', kind: 'JWK' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) =>
  expectLegacyRefusal(call, message, { state: storedRows, pushes: () => worker.received.length })

describe('generate (the page examples)', () => {
  it('example 1: RSA 2048 with its kid; public members answered, private ones sealed and pushed', async () => {
    const res = await post(`${J}/generate`, { name: 'generated-rsa-jwk', description: 'Auto-generated RSA 2048-bit JWK', type: 'RSA', kid: 'rsa-2048-key-1', rsa: { keySize: 2048 } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    const jwk = res.body.resultList[0]
    expect(jwk).toMatchObject({ name: 'generated-rsa-jwk', sourceType: 'GENERATE', type: 'RSA', kid: 'rsa-2048-key-1', use: 'SIGNATURE', alg: 'RS256', privateKeyPresent: true })
    expect(jwk.rsa).toMatchObject({ e: 'AQAB', keySize: 2048 })
    expect(jwk.rsa.d).toBeUndefined()
    expect(jwk.jwk).toMatchObject({ kty: 'RSA', kid: 'rsa-2048-key-1', use: 'sig', alg: 'RS256' })
    const [full] = pushed('generated-rsa-jwk')
    expect(full).toMatchObject({ kty: 'RSA', n: jwk.rsa.n, kid: 'rsa-2048-key-1' })
    // the pushed key really signs, and the answered public key verifies
    const jws = await new jose.CompactSign(new TextEncoder().encode('hi')).setProtectedHeader({ alg: 'RS256' }).sign(await jose.importJWK(full, 'RS256'))
    await jose.compactVerify(jws, await jose.importJWK(jwk.jwk, 'RS256'))
    const stored = (await jwkRow('generated-rsa-jwk')).content as any
    expect(JSON.stringify(stored)).not.toContain(full.d)
    expect(JSON.parse(svc.deps.keyring.decrypt(stored.privateJwk)).d).toBe(full.d)
    expect(new Date(stored.expirationTime).getTime() - new Date(stored.notBeforeTime).getTime()).toBe(365 * 24 * 3600 * 1000)
  })

  it.each([
    ['RSA 3072, encryption, page enum name', { type: 'RSA', rsa: { keySize: 3072, keyUseType: 'ENCRYPTION', algorithm: 'RSA_OAEP_256' } }, { type: 'RSA', alg: 'RSA-OAEP-256', use: 'ENCRYPTION' }],
    ['RSA 4096 (example 2), PS384', { type: 'RSA', rsa: { keySize: 4096, algorithm: 'PS384' } }, { type: 'RSA', alg: 'PS384' }],
    ['EC P256 (example 3)', { type: 'EC', ec: { curveType: 'P256' } }, { type: 'EC', alg: 'ES256' }],
    ['EC P384 (example 4)', { type: 'EC', ec: { curveType: 'P384' } }, { type: 'EC', alg: 'ES384' }],
    ['EC P521', { type: 'EC', ec: { curveType: 'P521', algorithm: 'ES512' } }, { type: 'EC', alg: 'ES512' }],
    ['EC secp256k1', { type: 'EC', ec: { curveType: 'SECP256K1' } }, { type: 'EC', alg: 'ES256K' }],
    ['EC ECDH encryption', { type: 'EC', ec: { curveType: 'P256', keyUseType: 'ENCRYPTION', algorithm: 'ECDH_ES_A128KW' } }, { type: 'EC', alg: 'ECDH-ES+A128KW' }],
    ['OCT 256 (example 5)', { type: 'OCT', oct: { keySize: 256 } }, { type: 'OCT', alg: 'HS256' }],
    ['OCT page body with its password options', { type: 'OCT', oct: { keySize: 256, keyUseType: 'SIGNATURE', algorithm: 'HS256', keyIdType: 'TIMESTAMP', passwordSaltLength: 8, passwordIterationCount: 1000 } }, { type: 'OCT', alg: 'HS256' }],
    ['OKP Ed25519 (example 6)', { type: 'OKP', okp: { curveType: 'ED25519' } }, { type: 'OKP', alg: 'EdDSA' }],
    ['OKP X25519 (example 7)', { type: 'OKP', okp: { curveType: 'X25519' } }, { type: 'OKP', alg: 'ECDH-ES', use: 'ENCRYPTION' }],
  ])('%s', async (label, req, expected) => {
    const name = `gen-${label.split(' ').slice(0, 2).join('-').toLowerCase().replace(/[^a-z0-9-]/g, '')}`
    const res = await post(`${J}/generate`, { name, ...req })
    expect(res.status).toBe(200)
    const jwk = res.body.resultList[0]
    expect(jwk).toMatchObject(expected)
    expect(jwk.kid).toMatch(/^\d{13}$/) // TIMESTAMP by default
    const slot = jwk[String(expected.type).toLowerCase()]
    for (const member of ['d', 'p', 'q', 'k']) expect(slot[member]).toBeUndefined()
    const [full] = pushed(name)
    expect(full.d ?? full.k).toEqual(expect.any(String))
    if (expected.type === 'EC') expect(full.crv).toBe({ P256: 'P-256', P384: 'P-384', P521: 'P-521', SECP256K1: 'secp256k1' }[(req as any).ec.curveType as string])
  })

  it('keyIdType: SHA256 and SHA1 thumbprints (RFC 7638), ISO_DATE, NONE; the validity window', async () => {
    const sha256 = await post(`${J}/generate`, { name: 'kid-sha256', type: 'EC', ec: { curveType: 'P256', keyIdType: 'SHA256', notBeforeTime: '2024-01-01T00:00:00Z', expirationTime: '2025-01-01T00:00:00Z' } })
    const j = sha256.body.resultList[0]
    expect(j.kid).toBe(await jose.calculateJwkThumbprint(j.jwk, 'sha256'))
    expect(j).toMatchObject({ notBeforeTime: '2024-01-01T00:00:00.000Z', expirationTime: '2025-01-01T00:00:00.000Z' })
    const sha1 = (await post(`${J}/generate`, { name: 'kid-sha1', type: 'RSA', rsa: { keySize: 2048, keyIdType: 'SHA1' } })).body.resultList[0]
    const canonical = JSON.stringify({ e: sha1.jwk.e, kty: 'RSA', n: sha1.jwk.n })
    expect(sha1.kid).toBe(crypto.createHash('sha1').update(canonical).digest('base64url'))
    const iso = (await post(`${J}/generate`, { name: 'kid-iso', type: 'OKP', okp: { curveType: 'ED25519', keyIdType: 'ISO_DATE' } })).body.resultList[0]
    expect(iso.kid).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const none = (await post(`${J}/generate`, { name: 'kid-none', type: 'OCT', oct: { keySize: 128, keyIdType: 'NONE' } })).body.resultList[0]
    expect(none.kid).toBeNull()
  })

  it.each([
    ['empty name', { type: 'RSA', rsa: { keySize: 2048 } }, 'JWK name can not be empty!'],
    ['empty type', { name: 'x' }, 'JWK type can not be empty!'],
    ['unknown type', { name: 'x', type: 'DSA' }, "type 'DSA' is not supported: one of RSA, EC, OCT, OKP"],
    ['existing name', { name: 'generated-rsa-jwk', type: 'EC', ec: { curveType: 'P256' } }, 'JWK (name: generated-rsa-jwk) is already exist! Try update operation if want to change its value.'],
    ['RSA 1024', { name: 'x', type: 'RSA', rsa: { keySize: 1024 } }, 'rsa.keySize must be one of 2048, 3072, 4096'],
    ['no curve', { name: 'x', type: 'EC', ec: {} }, /^ec\.curveType value can not be empty!/],
    ['unknown curve', { name: 'x', type: 'EC', ec: { curveType: 'P192' } }, "ec.curveType 'P192' is not supported: one of P256, P384, P521, SECP256K1"],
    ['algorithm of another curve', { name: 'x', type: 'EC', ec: { curveType: 'P256', algorithm: 'ES384' } }, "ec.algorithm 'ES384' needs curve P-384, the key is on P-256"],
    ['algorithm of another use', { name: 'x', type: 'RSA', rsa: { keySize: 2048, algorithm: 'RSA_OAEP_256' } }, /^rsa\.algorithm 'RSA_OAEP_256' is not valid for a RSA key used for SIGNATURE/],
    ['bad keyIdType', { name: 'x', type: 'OCT', oct: { keyIdType: 'UUID' } }, "oct.keyIdType 'UUID' is not supported: one of TIMESTAMP, SHA256, SHA1, ISO_DATE, NONE"],
    ['bad date', { name: 'x', type: 'OCT', oct: { notBeforeTime: 'yesterday' } }, 'oct.notBeforeTime must be an ISO 8601 date-time'],
    ['window reversed', { name: 'x', type: 'OCT', oct: { notBeforeTime: '2025-01-01T00:00:00Z', expirationTime: '2024-01-01T00:00:00Z' } }, 'oct.expirationTime must be after oct.notBeforeTime'],
  ])('refused: %s', async (_label, req, message) => {
    await expectRefused(() => post(`${J}/generate`, req), message)
  })

  it('permissions: VIEW cannot generate', async () => {
    await expectRefused(() => post(`${J}/generate`, { name: 'x', type: 'OCT' }, vic), /lacks permission CERTIFICATE MANAGE/)
  })
})

describe('create from a source (POST /jwks/ and the parse-from-* doors)', () => {
  it('clipboard: a JWK (page example), a JWK Set with kid, a private JWK sealed', async () => {
    const single = await post(`${J}/parse-from-clipboard`, { name: 'my-jwk', description: 'JWK from clipboard', jwkStr: JSON.stringify(setKeys[1]) })
    expect(single.status).toBe(200)
    expect(single.body.resultList[0]).toMatchObject({ sourceType: 'COPY_PASTE', type: 'RSA', kid: 'key-id-2', privateKeyPresent: false })
    const fromSet = await post(`${J}/`, { name: 'from-set', sourceType: 'COPY_PASTE', jwkStr: JSON.stringify({ keys: setKeys }), kid: 'key-id-1' })
    expect(fromSet.body.resultList[0]).toMatchObject({ type: 'EC', kid: 'key-id-1' })
    // a pasted key without a kid of its own keeps the kid the body gives (the page's example reads it back); without one, the thumbprint
    const { kid: _dropped, ...anonymous } = setKeys[1] as Record<string, unknown>
    const named = await post(`${J}/parse-from-clipboard`, { name: 'pasted-named', jwkStr: JSON.stringify(anonymous), kid: 'key-id-9' })
    expect(named.body.resultList[0]).toMatchObject({ sourceType: 'COPY_PASTE', kid: 'key-id-9' })
    expect((await get(`${J}/pasted-named/`)).body.resultList[0].kid).toBe('key-id-9')
    const unnamed = await post(`${J}/parse-from-clipboard`, { name: 'pasted-unnamed', jwkStr: JSON.stringify(anonymous) })
    expect(unnamed.body.resultList[0].kid).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const priv = await post(`${J}/parse-from-clipboard`, { name: 'pasted-private', jwkStr: JSON.stringify({ ...pastedPrivate, kid: 'p1', use: 'sig', alg: 'ES384' }) })
    expect(priv.body.resultList[0]).toMatchObject({ type: 'EC', kid: 'p1', alg: 'ES384', use: 'SIGNATURE', privateKeyPresent: true })
    expect(priv.body.resultList[0].ec.d).toBeUndefined()
    expect(pushed('pasted-private')[0].d).toBe(pastedPrivate.d)
  })

  it('url: a JWK Set fetched from loopback, kid picks the key; the source URL is kept', async () => {
    served.body = JSON.stringify({ keys: setKeys })
    const res = await post(`${J}/parse-from-url`, { name: 'url-jwk', description: 'JWK from URL', url: jwksUrl, urlOptionConnectTimeout: 5000, urlOptionReadTimeout: 10000, urlOptionSizeLimit: 1048576, kid: 'key-id-2' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ sourceType: 'URL', sourceUrl: jwksUrl, type: 'RSA', kid: 'key-id-2' })
    const viaCreate = await post(`${J}/`, { name: 'url-jwk-2', sourceType: 'URL', url: jwksUrl, kid: 'key-id-1' })
    expect(viaCreate.body.resultList[0]).toMatchObject({ type: 'EC', kid: 'key-id-1' })
  })

  it.each([
    ['a set without kid', () => { served.body = JSON.stringify({ keys: setKeys }) }, {}, 'kid is required: the JWK Set of url holds 2 keys'],
    ['an unknown kid', () => { served.body = JSON.stringify({ keys: setKeys }) }, { kid: 'zzz' }, "kid 'zzz' is not in the JWK Set of url (kids: key-id-1, key-id-2)"],
    ['over the size limit', () => { served.body = JSON.stringify({ keys: setKeys }) }, { urlOptionSizeLimit: 100 }, 'url: the document is larger than 100 bytes'],
    ['slower than the read timeout', () => { served = { status: 200, body: '{}', delayMs: 1500 } }, { urlOptionReadTimeout: 300, urlOptionConnectTimeout: 200 }, 'url: did not answer within 500 ms'],
    ['an HTTP error', () => { served = { status: 404, body: 'no', delayMs: 0 } }, {}, /^url: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json answered HTTP 404$/],
    ['not JSON', () => { served.body = '<html>' }, {}, 'url is not valid JSON'],
    ['not a JWK', () => { served.body = JSON.stringify({ kty: 'RSA', n: 'AQAB' }) }, {}, /^url is not a valid RSA JWK/],
    ['a bad timeout option', () => {}, { urlOptionConnectTimeout: -1 }, 'urlOptionConnectTimeout must be a whole number from 1 to 60000'],
  ])('url refused: %s', async (_label, setup, extra, message) => {
    setup()
    await expectRefused(() => post(`${J}/parse-from-url`, { name: 'bad-url', url: jwksUrl, ...extra }), message)
  })

  it('url refused: a scheme other than http(s)', async () => {
    await expectRefused(() => post(`${J}/parse-from-url`, { name: 'bad-url', url: 'file:///etc/passwd' }), "url: scheme 'file' is not allowed; use http or https")
  })

  it.each([
    ['no source type', { name: 'x' }, 'Source type is required!'],
    ['no URL', { name: 'x', sourceType: 'URL' }, 'URL is required for URL source type!'],
    ['no jwkStr', { name: 'x', sourceType: 'COPY_PASTE' }, 'jwkStr is required for COPY_PASTE source type!'],
    ['bad JSON', { name: 'x', sourceType: 'COPY_PASTE', jwkStr: '{nope' }, 'jwkStr is not valid JSON'],
    ['a placeholder modulus (the page\'s "n": "...")', { name: 'x', sourceType: 'COPY_PASTE', jwkStr: '{"kty":"RSA","n":"...","e":"AQAB"}' }, 'jwkStr is not a valid RSA JWK: n must be base64url'],
    ['an RSA modulus of 8 bits', { name: 'x', sourceType: 'COPY_PASTE', jwkStr: '{"kty":"RSA","n":"wQ","e":"AQAB"}' }, 'jwkStr is not a valid RSA JWK: an RSA modulus of 8 bits (at least 512)'],
    ['unknown certificate (page)', { name: 'x', sourceType: 'CERTIFICATE', certificateName: 'my-certificate', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'RS256' }, 'Certificate (name: my-certificate) is not found!'],
    ['no useType', { name: 'x', sourceType: 'KEYSTORE', keyStoreName: 'k', environmentName: 'dev', aliasName: 'a', algorithm: 'RS256' }, 'useType is required for KEYSTORE source type!'],
    ['GENERATE here', { name: 'x', sourceType: 'GENERATE' }, 'sourceType GENERATE is not created here: use POST /jwks/generate'],
    ['empty name', { sourceType: 'URL' }, 'JWK name can not be empty!'],
  ])('create refused: %s', async (_label, req, message) => {
    await expectRefused(() => post(`${J}/`, req), message)
  })

  // the bodies are checked against their documented schemas (JwkCreateBody, JwkFrom*Body, JwkGenerateBody) first
  it.each([
    ['create: a name not a string', '', { name: 5, sourceType: 'URL' }, 'name must be a string'],
    ['create: jwkStr an object', '', { name: 'x', sourceType: 'COPY_PASTE', jwkStr: { kty: 'RSA' } }, 'jwkStr must be a string'],
    ['create: useType a number', '', { name: 'x', sourceType: 'CERTIFICATE', certificateName: 'c', environmentName: 'dev', useType: 1, algorithm: 'RS256' }, 'useType must be a string'],
    ['create: description too long', '', { name: 'x', sourceType: 'URL', url: 'http://127.0.0.1/', description: 'd'.repeat(2001) }, 'description must be at most 2000 characters'],
    ['url: a timeout of true', 'parse-from-url', { name: 'x', url: 'http://127.0.0.1/', urlOptionConnectTimeout: true }, 'urlOptionConnectTimeout must be a number or a string'],
    ['clipboard: a kid of 7', 'parse-from-clipboard', { name: 'x', jwkStr: '{}', kid: 7 }, 'kid must be a string'],
    ['certificate: certificateName a list', 'parse-from-certificate', { name: 'x', certificateName: ['c'], environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'RS256' }, 'certificateName must be a string'],
    ['key: environmentName a number', 'parse-from-key', { name: 'x', keyName: 'k', environmentName: 1, useType: 'SIGNATURE', algorithm: 'RS256' }, 'environmentName must be a string'],
    ['keystore: aliasName an object', 'parse-from-keystore', { name: 'x', keyStoreName: 'k', environmentName: 'dev', aliasName: {}, useType: 'SIGNATURE', algorithm: 'RS256' }, 'aliasName must be a string'],
    ['generate: rsa a string', 'generate', { name: 'x', type: 'RSA', rsa: 'big' }, 'rsa must be an object'],
    ['generate: keySize a string', 'generate', { name: 'x', type: 'RSA', rsa: { keySize: '2048' } }, 'rsa.keySize must be a number'],
    ['generate: notBeforeTime true', 'generate', { name: 'x', type: 'OCT', oct: { notBeforeTime: true } }, 'oct.notBeforeTime must be a string or a number'],
    ['generate: type a list', 'generate', { name: 'x', type: ['RSA'] }, 'type must be a string'],
  ])('a field of a wrong type is refused, named: %s', async (_label, door, req, message) => {
    await expectRefused(() => post(`${J}/${door}`, req), message)
  })

  it('certificate (page example 3): the public key with x5c, RS256', async () => {
    const created = await post(`${P}/certificates/`, form({ certificateName: 'my-certificate', alias: 'jwk-alias', environmentList: 'dev' }, { content: cert.pem }))
    expect(created.status).toBe(200)
    worker.received.length = 0
    const res = await post(`${J}/parse-from-certificate`, { name: 'cert-jwk', description: 'JWK from certificate', certificateName: 'my-certificate', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'RS256' })
    expect(res.status).toBe(200)
    const j = res.body.resultList[0]
    expect(j).toMatchObject({ sourceType: 'CERTIFICATE', sourceId: expect.any(String), type: 'RSA', alg: 'RS256', use: 'SIGNATURE', privateKeyPresent: false })
    expect(j.jwk.n).toBe((certKeys.publicKey.export({ format: 'jwk' }) as any).n)
    expect(j.jwk.x5c).toEqual([cert.der.toString('base64')])
    expect(j.kid).toBe(await jose.calculateJwkThumbprint(j.jwk, 'sha256'))
    worker.received.length = 0
    await expectRefused(() => post(`${J}/parse-from-certificate`, { name: 'x', certificateName: 'my-certificate', environmentName: 'prod', useType: 'SIGNATURE', algorithm: 'RS256' }), "Certificate (name: my-certificate) has no environment 'prod'")
    await expectRefused(() => post(`${J}/parse-from-certificate`, { name: 'x', certificateName: 'my-certificate', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'ES256' }), /^algorithm 'ES256' is not valid for a RSA key used for SIGNATURE/)
  })

  it('key: the private key when the environment has one, else the public one', async () => {
    const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
    await post(`${P}/keys/`, { name: 'my-key', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', privateKey: ec.privateKey.export({ type: 'pkcs8', format: 'pem' }) }, { environmentName: 'prod', publicKey: ec.publicKey.export({ type: 'spki', format: 'pem' }) }] })
    const priv = await post(`${J}/parse-from-key`, { name: 'key-jwk', description: 'JWK from key', keyName: 'my-key', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'ES256' })
    expect(priv.body.resultList[0]).toMatchObject({ sourceType: 'PRIVATE_KEY', type: 'EC', privateKeyPresent: true, alg: 'ES256' })
    expect(priv.body.resultList[0].ec.d).toBeUndefined()
    const pub = await post(`${J}/parse-from-key`, { name: 'key-jwk-pub', keyName: 'my-key', environmentName: 'prod', useType: 'ENCRYPTION', algorithm: 'ECDH-ES' })
    expect(pub.body.resultList[0]).toMatchObject({ sourceType: 'PUBLIC_KEY', privateKeyPresent: false, alg: 'ECDH-ES', use: 'ENCRYPTION' })
    worker.received.length = 0
    await expectRefused(() => post(`${J}/`, { name: 'x', sourceType: 'PRIVATE_KEY', keyName: 'my-key', environmentName: 'prod', useType: 'SIGNATURE', algorithm: 'ES256' }), "Key (name: my-key) has no private key in environment 'prod': use sourceType PUBLIC_KEY")
    await expectRefused(() => post(`${J}/parse-from-key`, { name: 'x', keyName: 'nope', environmentName: 'dev', useType: 'SIGNATURE', algorithm: 'ES256' }), 'Key (name: nope) is not found!')
  })

  it('keystore: an entry of a JKS keystore by alias', async () => {
    const jks = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'sample.jks')).toString('base64')
    await post(`${P}/keystores/`, { name: 'my-keystore', keyStoreEnvironmentList: [{ environmentName: 'dev', type: 'JKS', file: jks, password: 'changeit' }] })
    const res = await post(`${J}/parse-from-keystore`, { name: 'ks-jwk', description: 'JWK from keystore', keyStoreName: 'my-keystore', environmentName: 'dev', aliasName: 'signer', useType: 'SIGNATURE', algorithm: 'RS256' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ sourceType: 'KEYSTORE', type: 'RSA', privateKeyPresent: true })
    expect(res.body.resultList[0].jwk.x5c).toHaveLength(1)
    worker.received.length = 0
    await expectRefused(() => post(`${J}/parse-from-keystore`, { name: 'x', keyStoreName: 'my-keystore', environmentName: 'dev', aliasName: 'my-alias', useType: 'SIGNATURE', algorithm: 'RS256' }), "aliasName 'my-alias' is not an entry of keystore my-keystore (entries: ec1, signer, trusted-ca)")
  })
})

describe('list, get, update, delete', () => {
  it('lists without key material (page shape); VIEW reads', async () => {
    const res = await get(`${J}/`, vic)
    expect(res.status).toBe(200)
    const item = res.body.resultList.find((j: any) => j.name === 'url-jwk')
    expect(item).toEqual(expect.objectContaining({ name: 'url-jwk', projectId: expect.any(String), sourceType: 'URL', sourceId: null, sourceUrl: jwksUrl, type: 'RSA', kid: 'key-id-2' }))
    expect(item.rsa).toBeUndefined()
    expect((await get(`${J}/nope/`, vic)).body.resultMessage).toBe('JWK (name: nope) is not found!')
  })

  it('a certificate update with updateReferencedJwks re-derives the JWK taken from it', async () => {
    const next = makeCertificate({ cn: 'jwk2.example.com' })
    const res = await put(`${P}/certificates/my-certificate/?updateReferencedJwks=true&updateScope=SAME_PROJECT`, form({ alias: 'jwk-alias', environmentList: 'dev' }, { content: next.pem }))
    expect(res.status).toBe(200)
    expect(res.body.updatedJwks).toEqual(['cert-jwk'])
    const j = (await get(`${J}/cert-jwk/`)).body.resultList[0]
    expect(j.jwk.x5c).toEqual([next.der.toString('base64')])
    expect(j.kid).not.toBe(await jose.calculateJwkThumbprint(j.jwk, 'sha256')) // the kid is kept
    expect(pushed('cert-jwk')).toHaveLength(1)
  })

  it('update (page example) renames and detaches from the source', async () => {
    const res = await put(`${J}/cert-jwk/`, { name: 'updated-jwk', description: 'Updated JWK description' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'updated-jwk', description: 'Updated JWK description', sourceType: 'CERTIFICATE', sourceId: null })
    expect(worker.received.map((m) => [m.action, m.name])).toEqual([['DEPLOY', 'updated-jwk'], ['UNDEPLOY', 'cert-jwk']])
    worker.received.length = 0
    await expectRefused(() => put(`${J}/cert-jwk/`, { description: 'x' }), 'JWK (name: cert-jwk) is not found! Try create operation.')
    await expectRefused(() => put(`${J}/updated-jwk/`, { name: 'my-jwk' }), 'JWK (name: my-jwk) is already exist!')
  })

  it('delete undeploys from every environment', async () => {
    const res = await del(`${J}/updated-jwk/`)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(res.body.deploymentResult.environmentResults.map((e: any) => e.environmentName)).toEqual(['dev', 'prod'])
    expect(worker.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'JWK', name: 'updated-jwk' })])
    worker.received.length = 0
    await expectRefused(() => del(`${J}/updated-jwk/`), 'JWK (name: updated-jwk) is not found!')
  })

  it('no answer carried a private member', () => {
    expect(privateValues.length).toBeGreaterThan(10)
    const all = bodies.join('\n')
    for (const v of privateValues) expect(all).not.toContain(v)
  })
})
