import crypto from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readPackageZip } from '../../src/platform/transfer/package/zip.js'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { type Answer, client, form, makeCertificate, rsaKeyPair, startKeysService, USERS } from './support.js'

// Certificates over /apiops (08-keys-secrets/crud/*certificate*): the pages' examples replayed, every documented
// error, refusals, pushes to fake workers, export and the admin project's trust store.
const P = '/apiops/projects/payments/certificates'

let svc: TestService
let worker: FakeWorker
let tina: string
let vic: string
let mo: string
let alice: string
let root: string
const { get, post, put, del, call } = client(() => svc, () => tina)

const ca = makeCertificate({ cn: 'Example CA', ca: true, serial: '01' })
const leaf = makeCertificate({ cn: 'example.com', sans: ['example.com', 'www.example.com'], issuer: { cn: 'Example CA', keys: ca.keys }, serial: '1f2e3d' })
const expired = makeCertificate({ cn: 'old.example.com', notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2021-01-01T00:00:00Z') })
const future = makeCertificate({ cn: 'future.example.com', notBefore: new Date(Date.now() + 30 * 24 * 3600 * 1000), notAfter: new Date(Date.now() + 400 * 24 * 3600 * 1000) })

const createForm = (over: Record<string, string | undefined> = {}, pem: string | Buffer | null = leaf.pem) =>
  form({ certificateName: 'my-certificate', alias: 'my-cert-alias', certificateDescription: 'SSL certificate for API', environmentList: 'dev', ...over }, pem === null ? undefined : { content: pem })

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startKeysService(worker.url)
  tina = await svc.tokenFor('tina', USERS.tina)
  vic = await svc.tokenFor('vic', USERS.vic)
  mo = await svc.tokenFor('mo', USERS.mo)
  alice = await svc.tokenFor('alice', 'alice-pass-1')
  root = await svc.tokenFor('root', 's3cret-root')
})
afterEach(() => {
  worker.received.length = 0
  worker.status = 200
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

// a refusal leaves every certificate row as it was (not only their number) and pushes nothing
const storedRows = () => svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE', kind: 'CERTIFICATE' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp) =>
  expectLegacyRefusal(call, message, { state: storedRows, pushes: () => worker.received.length })

describe('certificates: create (page example 1 and 2), read, list', () => {
  it('creates from a PEM file with its chain, shows what an operator needs, and pushes to the environment', async () => {
    const res = await post(`${P}/`, createForm({}, leaf.pem + ca.pem))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, warnings: [], deploymentResult: { success: true } })
    expect(res.body.deploymentResult.environmentResults).toEqual([{ environmentName: 'dev', success: true, message: 'Acknowledged' }])
    const env = res.body.resultList[0].certificateEnvironmentList[0]
    expect(env).toMatchObject({
      environmentName: 'dev', alias: 'my-cert-alias', subjectDn: 'CN=example.com, O=Example Inc', issuerDn: 'CN=Example CA, O=Example Inc',
      serialNumber: '1F2E3D', sha256Fingerprint: leaf.sha256, keyAlgorithm: 'RSA', keySize: 2048, expired: false, notYetValid: false, chainLength: 1,
      subjectAltNames: ['DNS:example.com', 'DNS:www.example.com'], base64EncodedContent: leaf.der.toString('base64'),
    })
    expect(env.sha1Thumbprint).toBe(crypto.createHash('sha1').update(leaf.der).digest('hex').toUpperCase())
    expect(worker.received).toHaveLength(1)
    expect(worker.received[0]).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'CERTIFICATE', name: 'my-certificate', revision: 1 })
    expect(worker.received[0]!.config).toMatchObject({ alias: 'my-cert-alias', environmentName: 'dev', certificatePem: leaf.pem.replace(/\r/g, '') })
    expect((worker.received[0]!.config.chainPem as string[])).toHaveLength(1)
  })

  it('lists without the file content and reads one with it (page shapes)', async () => {
    const list = await get(`${P}/`, vic)
    expect(list.status).toBe(200)
    expect(list.body.resultCount).toBe(1)
    const item = list.body.resultList[0]
    expect(item).toMatchObject({ name: 'my-certificate', description: 'SSL certificate for API' })
    expect(item.certificateEnvironmentList[0].base64EncodedContent).toBeUndefined()
    expect(item.certificateEnvironmentList[0].startDate).toMatch(/^\d{4}-\d\d-\d\dT/)
    const one = await get(`${P}/my-certificate/`, vic)
    expect(one.body.resultList[0].certificateEnvironmentList[0].base64EncodedContent).toBe(leaf.der.toString('base64'))
  })

  it('example 2: several environments; an expired certificate is accepted with a warning', async () => {
    const res = await post(`${P}/`, createForm({ certificateName: 'old-cert', alias: 'old', environmentList: 'dev,prod' }, expired.pem))
    expect(res.status).toBe(200)
    expect(res.body.warnings).toEqual([expect.stringMatching(/Certificate \(name: old-cert\) expired on 2021-01-01/)])
    expect(res.body.resultList[0].certificateEnvironmentList.map((e: any) => [e.environmentName, e.expired])).toEqual([['dev', true], ['prod', true]])
    expect(res.body.deploymentResult.environmentResults.map((e: any) => e.environmentName).sort()).toEqual(['dev', 'prod'])
    const future1 = await post(`${P}/`, createForm({ certificateName: 'future-cert', alias: 'future' }, future.pem))
    expect(future1.body.warnings).toEqual([expect.stringMatching(/is not valid before/)])
    expect(future1.body.resultList[0].certificateEnvironmentList[0].notYetValid).toBe(true)
  })

  it('the newest document (openapi.yaml createCertificate): the fields as query parameters, only the file in the form; audited by name', async () => {
    const q = new URLSearchParams([['certificateName', 'query-cert'], ['alias', 'q-alias'], ['certificateDescription', 'from the query'], ['environmentList', 'dev'], ['environmentList', 'prod']])
    const res = await post(`${P}/?${q}`, form({}, { content: leaf.pem }))
    expect(res.status, res.text).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'query-cert', description: 'from the query' })
    expect(res.body.resultList[0].certificateEnvironmentList.map((e: any) => [e.environmentName, e.alias])).toEqual([['dev', 'q-alias'], ['prod', 'q-alias']])
    const audited = await svc.deps.prisma.auditEvent.findFirst({ where: { objectType: 'CERTIFICATE', objectName: 'query-cert' } })
    expect(audited?.outcome).toBe('SUCCEEDED')
    // a form field wins over the query; a missing name is refused either way
    const both = await put(`${P}/query-cert/?alias=ignored&environmentList=dev`, form({ alias: 'form-alias' }, { content: leaf.pem }))
    expect(both.status, both.text).toBe(200)
    expect(both.body.resultList[0].certificateEnvironmentList.map((e: any) => [e.environmentName, e.alias])).toEqual([['dev', 'form-alias']])
    await expectRefused(() => post(`${P}/?alias=a&environmentList=dev`, form({}, { content: leaf.pem })), /^certificateName value can not be empty!$/)
    expect((await del(`${P}/query-cert/`)).status).toBe(200)
  })

  it('accepts a DER file as well', async () => {
    const res = await post(`${P}/`, createForm({ certificateName: 'der-cert', alias: 'der' }, leaf.der))
    expect(res.status).toBe(200)
    expect(res.body.resultList[0].certificateEnvironmentList[0].sha256Fingerprint).toBe(leaf.sha256)
  })
})

describe('certificates: documented errors write nothing and push nothing', () => {
  it.each([
    [{ certificateName: '' }, /^certificateName value can not be empty!$/],
    [{ alias: '' }, /^alias value can not be empty!$/],
    [{ environmentList: '' }, /^environmentList value can not be empty!$/],
    [{ certificateName: 'my-certificate', alias: 'x1' }, /^Certificate \(name: my-certificate\) is already exist!$/],
    [{ certificateName: 'new-cert', alias: 'my-cert-alias' }, /^Alias \(my-cert-alias\) is already used for another certificate, try changing this value!$/],
    [{ certificateName: 'new-cert', alias: 'a2', environmentList: 'dev,nowhere' }, /^Environment \(nowhere\) is not found or user does not have privilege to access it!$/],
  ])('%o is refused', async (over, message) => {
    await expectRefused(() => post(`${P}/`, createForm(over)), message)
  })

  it('an empty file, a missing file, a non-certificate and a private key are refused naming pemEncodedFile', async () => {
    await expectRefused(() => post(`${P}/`, createForm({ certificateName: 'n1', alias: 'n1' }, '')), /^pemEncodedFile value can not be empty!$/)
    await expectRefused(() => post(`${P}/`, createForm({ certificateName: 'n1', alias: 'n1' }, null)), /^pemEncodedFile value can not be empty!$/)
    await expectRefused(() => post(`${P}/`, createForm({ certificateName: 'n1', alias: 'n1' }, 'hello, not a certificate')), /^pemEncodedFile is not a valid X\.509 certificate/)
    const broken = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'
    await expectRefused(() => post(`${P}/`, createForm({ certificateName: 'n1', alias: 'n1' }, broken)), /^pemEncodedFile is not a valid X\.509 certificate/)
    const key = rsaKeyPair().privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
    await expectRefused(() => post(`${P}/`, createForm({ certificateName: 'n1', alias: 'n1' }, leaf.pem + key)), /^pemEncodedFile holds a private key/)
    await expectRefused(() => post(`${P}/`, createForm({ certificateName: 'n1', alias: 'n1' }, rsaKeyPair().publicKey.export({ type: 'spki', format: 'pem' }).toString())), /^pemEncodedFile is not a PEM-encoded X\.509 certificate/)
  })

  it('a JSON body is refused: the page sends multipart', async () => {
    const res = await post(`${P}/`, { certificateName: 'x' })
    expect(res.status).toBe(400)
    expect(res.body.resultMessage).toMatch(/multipart\/form-data/)
  })

  it('not found on get, update, export and delete', async () => {
    for (const res of [
      await get(`${P}/nope/`), await put(`${P}/nope/`, createForm()), await get(`${P}/nope/export/`), await del(`${P}/nope/`),
    ]) {
      expect(res.status).toBe(400)
      expect(res.body.resultMessage).toBe('Certificate (name: nope) is not found!')
    }
    expect(worker.received).toHaveLength(0)
  })

  it('permissions: no CERTIFICATE permission, VIEW only, unknown project, no token', async () => {
    await expectRefused(() => get(`${P}/`, alice), /lacks permission CERTIFICATE VIEW/)
    await expectRefused(() => post(`${P}/`, createForm({ certificateName: 'v1', alias: 'v1' }), vic), /lacks permission CERTIFICATE MANAGE/)
    await expectRefused(() => del(`${P}/my-certificate/`, vic), /lacks permission CERTIFICATE MANAGE/)
    await expectRefused(() => get('/apiops/projects/nope/certificates/'), /Project 'nope' not found/)
    const anon = await get(`${P}/`, null)
    expect(anon.status).toBe(401)
  })

  it('MANAGE without DEPLOY_UNDEPLOY saves and says why nothing was pushed', async () => {
    const res = await post(`${P}/`, createForm({ certificateName: 'mo-cert', alias: 'mo' }), mo)
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult.success).toBe(false)
    expect(res.body.deploymentResult.environmentResults[0].message).toMatch(/CERTIFICATE DEPLOY_UNDEPLOY/)
    expect(worker.received).toHaveLength(0)
  })
})

describe('certificates: update, export, delete, truststore', () => {
  it('update replaces the file and environments; a dropped environment is undeployed', async () => {
    await post(`${P}/`, createForm({ certificateName: 'rot', alias: 'rot', environmentList: 'dev,prod' }))
    worker.received.length = 0
    const next = makeCertificate({ cn: 'rotated.example.com' })
    const res = await put(`${P}/rot/`, form({ alias: 'updated-cert-alias', certificateDescription: 'Updated SSL certificate', environmentList: 'prod' }, { content: next.pem }))
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ name: 'rot', description: 'Updated SSL certificate' })
    expect(res.body.resultList[0].certificateEnvironmentList).toHaveLength(1)
    expect(res.body.resultList[0].certificateEnvironmentList[0]).toMatchObject({ environmentName: 'prod', alias: 'updated-cert-alias', sha256Fingerprint: next.sha256 })
    // prod has no worker (acknowledged at once); dev is undeployed on its worker
    expect(worker.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'CERTIFICATE', name: 'rot', revision: 2 })])
  })

  it('update refuses updateReferencedJwks without updateScope, writing nothing', async () => {
    const before = (await svc.deps.prisma.storedObject.findFirst({ where: { kind: 'CERTIFICATE', name: 'rot' } }))!
    const res = await put(`${P}/rot/?updateReferencedJwks=true`, form({ alias: 'zz', environmentList: 'dev' }, { content: leaf.pem }))
    expect(res.status).toBe(400)
    expect(res.body.resultMessage).toBe('updateScope is required when updateReferencedJwks is true')
    const after = (await svc.deps.prisma.storedObject.findFirst({ where: { kind: 'CERTIFICATE', name: 'rot' } }))!
    expect(after.revision).toBe(before.revision)
  })

  it('exports a ZIP of DER files per environment (page), and PEM or DER of one environment', async () => {
    const zip = await get(`${P}/old-cert/export/`)
    expect(zip.status).toBe(200)
    expect(zip.headers.get('content-type')).toBe('application/octet-stream')
    expect(zip.headers.get('content-disposition')).toContain('old-cert-certificates.zip')
    const files = readPackageZip(zip.body as Buffer)
    expect([...files.keys()].sort()).toEqual(['old-cert-dev.cer', 'old-cert-prod.cer'])
    expect(files.get('old-cert-dev.cer')!.equals(expired.der)).toBe(true)

    const pem = await get(`${P}/my-certificate/export/?format=PEM`)
    expect(pem.headers.get('content-type')).toBe('application/x-pem-file')
    expect(pem.text.match(/BEGIN CERTIFICATE/g)).toHaveLength(2)
    expect(new crypto.X509Certificate(pem.text).raw.equals(leaf.der)).toBe(true)
    const der = await get(`${P}/old-cert/export/?format=DER&environmentName=prod`)
    expect((der.body as Buffer).equals(expired.der)).toBe(true)
    const ambiguous = await get(`${P}/old-cert/export/?format=DER`)
    expect(ambiguous.status).toBe(400)
    expect(ambiguous.body.resultMessage).toMatch(/environmentName is required with format DER/)
  })

  it('truststore: the admin project only; unknown environment named', async () => {
    const admin = '/apiops/projects/admin/certificates'
    const refused = await post(`${admin}/`, createForm({ certificateName: 'root-ca', alias: 'ca-cert-alias', environmentList: 'dev' }, ca.pem), root)
    expect(refused.body.resultMessage).toMatch(/Environment \(dev\) is not found/) // the admin project has no environment yet
    const empty = await get(`${admin}/truststore/dev/`, root)
    expect(empty.body).toMatchObject({ status: 'SUCCESS', resultList: [], resultCount: 0 })
    const [adminProject, dev] = await Promise.all([svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'admin' } }), svc.deps.prisma.environment.findUniqueOrThrow({ where: { name: 'dev' } })])
    await svc.deps.prisma.projectEnvironment.create({ data: { projectId: adminProject.id, environmentId: dev.id } })
    expect((await post(`${admin}/`, createForm({ certificateName: 'root-ca', alias: 'ca-cert-alias', environmentList: 'dev' }, ca.pem), root)).status).toBe(200)
    const list = await get(`${admin}/truststore/dev/`, root)
    expect(list.body.resultCount).toBe(1)
    expect(list.body.resultList[0]).toMatchObject({ name: 'root-ca', certificateEnvironmentList: [{ environmentName: 'dev', alias: 'ca-cert-alias', subjectDn: 'CN=Example CA, O=Example Inc', base64EncodedContent: ca.der.toString('base64') }] })
    expect((await get(`${admin}/truststore/prod/`, root)).body.resultCount).toBe(0)
    const notAdmin = await get(`${P}/truststore/dev/`)
    expect(notAdmin.status).toBe(400)
    expect(notAdmin.body.resultMessage).toBe('Truststore certificates are only available in the admin project')
    const unknown = await get(`${admin}/truststore/nowhere/`, root)
    expect(unknown.body.resultMessage).toBe('Environment (nowhere) is not found or user does not have privilege to access it!')
  })

  it('delete undeploys from its environments', async () => {
    const res = await del(`${P}/der-cert/`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(worker.received).toEqual([expect.objectContaining({ action: 'UNDEPLOY', kind: 'CERTIFICATE', name: 'der-cert' })])
    expect((await get(`${P}/der-cert/`)).body.resultMessage).toBe('Certificate (name: der-cert) is not found!')
  })

  it('audits writes with the certificate name', async () => {
    const events = await svc.deps.prisma.auditEvent.findMany({ where: { objectType: 'CERTIFICATE' }, orderBy: { at: "asc" } })
    expect(events.map((e) => e.objectName)).toEqual(expect.arrayContaining(['my-certificate', 'old-cert', 'rot', 'der-cert']))
    expect(events.every((e) => e.projectName === 'payments' || e.projectName === 'admin')).toBe(true)
    void call
  })
})
