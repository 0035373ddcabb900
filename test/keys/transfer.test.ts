import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { importPackage, transferBootstrap, transferExport, unzip } from '../support/zip-fixtures.js'
import { client } from './support.js'

// Keys travel in transfer packages: their private parts are sealed per environment, so they travel as the secrets
// `environments/<env>/<field>` (per secretHandling), never as this installation's ciphertext in the package data.
let svc: TestService
let worker: FakeWorker
let root: string
const { post } = client(() => svc, () => root)

const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
const PRIVATE = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const PUBLIC = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString()

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: transferBootstrap({ dev: [worker.url] }) })
  root = await svc.tokenFor('root', 's3cret-root')
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const keyRow = (project: string, name: string) =>
  svc.deps.prisma.storedObject.findFirst({ where: { project: { name: project }, type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO', name } })

describe('a key through export and import', () => {
  it('carries the private key as a per-environment secret and seals it again in the target', async () => {
    const created = await post('/apiops/projects/payments/keys/', {
      name: 'travel-key', keyType: 'RSA', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', publicKey: PUBLIC, privateKey: PRIVATE }],
    })
    expect(created.status, created.text).toBe(200)

    const { bytes } = await transferExport(svc, root, 'payments', { formatVersion: 1, type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO', names: ['travel-key'], withDependencies: false })
    const packaged = [...unzip(bytes).values()].map((b) => b.toString('utf8')).join('\n')
    const source = (await keyRow('payments', 'travel-key'))!.content as any
    expect(packaged).not.toContain(source.environments.dev.privateKey) // no ciphertext of this installation
    expect(packaged).not.toContain(PRIVATE.split('\n')[1]) // nor the clear key

    const imported = await importPackage(svc, root, 'other', 'CERTIFICATE', bytes)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    const copy = (await keyRow('other', 'travel-key'))!.content as any
    expect(copy.environments.dev.privateKey).toMatch(/^v1\./)
    expect(copy.environments.dev.privateKey).not.toBe(source.environments.dev.privateKey)
    expect(svc.deps.keyring.decrypt(copy.environments.dev.privateKey)).toBe(svc.deps.keyring.decrypt(source.environments.dev.privateKey))
    expect(copy.environments.dev.publicKey).toBe(source.environments.dev.publicKey)
  })

  it('carries the bytes of a SECRET_KEY as a per-environment secret, sealed again in the target', async () => {
    const bytes = crypto.randomBytes(32).toString('base64')
    const created = await post('/apiops/projects/payments/keys/', {
      name: 'travel-secret', keyType: 'SECRET_KEY', algorithm: 'AES', cryptoKeyInfoEnvironmentList: [{ environmentName: 'dev', content: bytes, alias: 'a' }],
    })
    expect(created.status, created.text).toBe(200)
    const { bytes: zip } = await transferExport(svc, root, 'payments', { formatVersion: 1, type: 'CERTIFICATE', kind: 'CRYPTO_KEY_INFO', names: ['travel-secret'], withDependencies: false })
    const packaged = [...unzip(zip).values()].map((b) => b.toString('utf8')).join('\n')
    const source = (await keyRow('payments', 'travel-secret'))!.content as any
    expect(packaged).not.toContain(source.environments.dev.secretKey)
    expect(packaged).not.toContain(bytes)
    const imported = await importPackage(svc, root, 'other', 'CERTIFICATE', zip)
    expect(imported.status, JSON.stringify(imported.body)).toBe(200)
    const copy = (await keyRow('other', 'travel-secret'))!.content as any
    expect(copy).toMatchObject({ keyType: 'SECRET_KEY', algorithm: 'AES' })
    expect(svc.deps.keyring.decrypt(copy.environments.dev.secretKey)).toBe(bytes)
  })
})
