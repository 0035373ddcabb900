import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { readPackageZip } from '../../src/platform/transfer/package/zip.js'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { useFilesService } from './files-support.js'
import { makeCertificate, makePkcs12, rsaKeyPair } from './support.js'

// The GraphQL twins of the file doors (src/modules/key-files/graphql.ts): uploads as graphql-upload-minimal
// `Upload` arguments, downloads answered inline (base64 and file name); the same rules and refusals as REST.

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}
const pair = rsaKeyPair()
const server = makeCertificate({ cn: 'gql.example.com', serial: '31' })
const P12 = Buffer.from(makePkcs12('gql', 'gql-pass-1', server.keys, [server.pem]), 'base64')

useFilesService((started, fake) => {
  svc = started
  worker = fake
}, tokens)

/** A GraphQL multipart request: the operation with its `file` variable mapped to the uploaded part. */
async function upload(query: string, variables: Record<string, unknown>, content: Buffer | string, fileName: string, token = tokens.ivy!) {
  const form = new FormData()
  form.append('operations', JSON.stringify({ query, variables: { ...variables, file: null } }))
  form.append('map', JSON.stringify({ 0: ['variables.file'] }))
  form.append('0', new Blob([content]), fileName)
  const res = await svc.http('/graphql', { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } })
  return (await res.json()) as { data?: any; errors?: any[] }
}
const rows = () => svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE' }, orderBy: { id: 'asc' } })

const IMPORT_KEY = `mutation ($projectName: String!, $file: Upload!, $input: CryptoKeyFileImportInput!) {
  importCryptoKeyFile(projectName: $projectName, file: $file, input: $input) { key { name keyType cryptoKeyInfoEnvironmentList { environmentName privateKeyPresent } } deploymentResult { success } unresolvedReferences }
}`

describe('GraphQL twins of the key files', () => {
  it('importCryptoKeyFile uploads a PEM; cryptoKeyExportFile answers it decrypted, base64, with its file name', async () => {
    const pem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    const res = await upload(IMPORT_KEY, { projectName: 'payments', input: { keyName: 'gql-key', keyType: 'PRIVATE_KEY', environmentList: 'dev,prod' } }, pem, 'gql-key.pem')
    expect(res.errors).toBeUndefined()
    expect(res.data.importCryptoKeyFile).toMatchObject({ key: { name: 'gql-key', keyType: 'PRIVATE_KEY' }, deploymentResult: { success: true }, unresolvedReferences: [] })
    expect(worker.received).toHaveLength(2)
    const file = await svc.graphql('query { cryptoKeyExportFile(projectName: "payments", name: "gql-key", environmentName: "dev") { fileName contentType contentBase64 } }', {}, tokens.ivy)
    expect(file.body.data.cryptoKeyExportFile).toMatchObject({ fileName: 'gql-key-dev.pem', contentType: 'application/x-pem-file' })
    expect(Buffer.from(file.body.data.cryptoKeyExportFile.contentBase64, 'base64').toString()).toBe(pem)
  })

  it('the same refusals: a taken name (nothing written, nothing pushed), a viewer on the private download', async () => {
    const before = JSON.stringify(await rows())
    const taken = await upload(IMPORT_KEY, { projectName: 'payments', input: { keyName: 'gql-key', keyType: 'PRIVATE_KEY', environmentList: 'dev' } }, 'x', 'x.pem')
    expect(taken.errors?.[0]).toMatchObject({ message: 'Key (name: gql-key) is already exist! Send override=true to update it.' })
    const viewer = await upload(IMPORT_KEY, { projectName: 'payments', input: { keyName: 'other', keyType: 'PRIVATE_KEY', environmentList: 'dev' } }, 'x', 'x.pem', tokens.vic)
    expect(viewer.errors?.[0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(JSON.stringify(await rows())).toBe(before)
    expect(worker.received).toHaveLength(0)
    const read = await svc.graphql('query { cryptoKeyExportFile(projectName: "payments", name: "gql-key") { fileName } }', {}, tokens.vic)
    expect(read.body.errors?.[0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
  })

  it('importKeyStoreFile and keyStoreExportFile (a ZIP of every environment); importJwkFile and jwkExportFile', async () => {
    const ks = await upload(`mutation ($file: Upload!, $input: KeyStoreFileImportInput!) { importKeyStoreFile(projectName: "payments", file: $file, input: $input) { keyStore { name keyStoreEnvironmentList { environmentName keyStoreType } } } }`,
      { input: { keystoreName: 'gql-store', password: 'gql-pass-1', environmentList: 'dev,prod' } }, P12, 'gql-store.p12')
    expect(ks.errors).toBeUndefined()
    expect(ks.data.importKeyStoreFile.keyStore.keyStoreEnvironmentList).toEqual([{ environmentName: 'dev', keyStoreType: 'PKCS12' }, { environmentName: 'prod', keyStoreType: 'PKCS12' }])
    const zip = await svc.graphql('query { keyStoreExportFile(projectName: "payments", name: "gql-store") { fileName contentBase64 } }', {}, tokens.pat)
    expect(zip.body.data.keyStoreExportFile.fileName).toBe('gql-store-keystores.zip')
    expect(readPackageZip(Buffer.from(zip.body.data.keyStoreExportFile.contentBase64, 'base64')).get('gql-store-dev.p12')).toEqual(P12)

    const jwk = { kty: 'EC', kid: 'gql-1', ...crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) }
    const imported = await upload(`mutation ($file: Upload!, $input: JwkFileImportInput!) { importJwkFile(projectName: "payments", file: $file, input: $input) { jwk { name kid } } }`,
      { input: { jwkName: 'gql-jwk', kid: 'gql-1' } }, JSON.stringify({ keys: [jwk] }), 'jwks.json')
    expect(imported.errors).toBeUndefined()
    expect(imported.data.importJwkFile.jwk).toEqual({ name: 'gql-jwk', kid: 'gql-1' })
    const pub = await svc.graphql('query { jwkExportFile(projectName: "payments", name: "gql-jwk", publicOnly: true) { fileName contentBase64 } }', {}, tokens.ivy)
    expect(pub.body.data.jwkExportFile.fileName).toBe('gql-jwk-public.json')
    expect(JSON.parse(Buffer.from(pub.body.data.jwkExportFile.contentBase64, 'base64').toString())).toEqual({ keys: [{ kty: 'EC', kid: 'gql-1', crv: 'P-256', x: jwk.x, y: jwk.y }] })
  })
})
