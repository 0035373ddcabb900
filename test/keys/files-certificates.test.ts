import { X509Certificate } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { readPackageZip, writePackageZip } from '../../src/platform/transfer/package/zip.js'
import type { TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { FILE_USERS, fileForm, startFilesService } from './files-support.js'
import { type Answer, client, makeCertificate } from './support.js'

// Certificates and trust stores as files (api-reference/keys-secrets/crud/import-certificate-file, export-certificate,
// import-truststore-file, export-truststore-file): the pages' examples, the export ZIP read back, refusals, permissions.
const P = '/apiops/projects/payments/certificates'
const ADMIN = '/apiops/projects/admin/certificates'

let svc: TestService
let worker: FakeWorker
const tokens: Record<string, string> = {}
const { get, post } = client(() => svc, () => tokens.ivy!)

const partner = makeCertificate({ cn: 'Partner CA', ca: true, serial: '11' })
const partner2 = makeCertificate({ cn: 'Partner CA 2027', ca: true, serial: '12' })
const intermediate = makeCertificate({ cn: 'Partner Intermediate', serial: '13', issuer: { cn: 'Partner CA', keys: partner.keys } })

const certForm = (fields: Record<string, string | undefined>, content: string | Buffer = partner.pem, fileName = 'partner-ca.cer') =>
  fileForm({ certificateName: 'partner-ca', alias: 'partner-ca', environmentList: 'dev,prod', ...fields }, 'certificateFile', content, fileName)

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startFilesService(worker.url)
  for (const [user, password] of Object.entries(FILE_USERS)) tokens[user] = await svc.tokenFor(user, password)
  tokens.root = await svc.tokenFor('root', 's3cret-root')
  // the admin project's trust store needs an environment of its own
  const [admin, dev] = await Promise.all([svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'admin' } }), svc.deps.prisma.environment.findUniqueOrThrow({ where: { name: 'dev' } })])
  await svc.deps.prisma.projectEnvironment.create({ data: { projectId: admin.id, environmentId: dev.id } })
})
afterEach(() => {
  worker.received.length = 0
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

const certRows = () => svc.deps.prisma.storedObject.findMany({ where: { kind: 'CERTIFICATE' }, orderBy: { id: 'asc' } })
const expectRefused = (call: () => Promise<Answer>, message: RegExp | string) => expectLegacyRefusal(call, message, { state: certRows, pushes: () => worker.received.length })
const derOf = (entry: any) => Buffer.from(entry.base64EncodedContent, 'base64')

describe('certificates: import-file and export-file', () => {
  it('example 1: one PEM certificate into two environments, pushed to both, audited', async () => {
    const res = await post(`${P}/import-file/`, certForm({}))
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, warnings: [], deploymentResult: { success: true } })
    expect(res.body.resultList[0].certificateEnvironmentList.map((e: any) => [e.environmentName, e.alias, e.subjectDn])).toEqual([
      ['dev', 'partner-ca', 'CN=Partner CA, O=Example Inc'], ['prod', 'partner-ca', 'CN=Partner CA, O=Example Inc'],
    ])
    expect(worker.received.map((r) => [r.action, r.kind, (r.config as any).environmentName]).sort()).toEqual([['DEPLOY', 'CERTIFICATE', 'dev'], ['DEPLOY', 'CERTIFICATE', 'prod']])
    expect((await svc.deps.prisma.auditEvent.findFirst({ where: { objectType: 'CERTIFICATE', objectName: 'partner-ca' } }))?.outcome).toBe('SUCCEEDED')
  })

  it('a DER file for one environment replaces only that entry; the other keeps its certificate', async () => {
    const res = await post(`${P}/import-file/`, certForm({ environmentList: 'prod', certificateDescription: 'rotated' }, partner2.der, 'partner-ca.der'))
    expect(res.status, res.text).toBe(200)
    expect(worker.received.map((r) => (r.config as any).environmentName)).toEqual(['prod'])
    const [dev, prod] = res.body.resultList[0].certificateEnvironmentList
    expect(derOf(dev)).toEqual(partner.der)
    expect(derOf(prod)).toEqual(partner2.der)
    expect(res.body.resultList[0].description).toBe('rotated')
  })

  it('export-file is the export: a ZIP of <name>-<environment>.cer (DER); example 2 and 3 restore it (mapping, unresolvedReferences)', async () => {
    const zip = await get(`${P}/partner-ca/export-file/`, tokens.vic!)
    expect(zip.status).toBe(200)
    expect(zip.headers.get('content-disposition')).toContain('filename="partner-ca-certificates.zip"')
    const files = readPackageZip(zip.body as Buffer)
    expect([...files.keys()].sort()).toEqual(['partner-ca-dev.cer', 'partner-ca-prod.cer'])
    expect(files.get('partner-ca-prod.cer')).toEqual(partner2.der)
    const archive = writePackageZip([
      { name: 'copy-ca-UAT.cer', bytes: files.get('partner-ca-prod.cer')! }, { name: 'copy-ca-Staging.cer', bytes: files.get('partner-ca-dev.cer')! },
      { name: 'copy-ca-dev.cer', bytes: files.get('partner-ca-dev.cer')! }, { name: 'README.txt', bytes: Buffer.from('x') },
    ])
    const res = await post(`${P}/import-file/`, certForm({ certificateName: 'copy-ca', alias: 'copy-ca', environmentList: undefined, environmentMapping: '{"UAT":"prod","Staging":""}' }, archive, 'copy-ca-certificates.zip'))
    expect(res.status, res.text).toBe(200)
    expect([...res.body.unresolvedReferences].sort()).toEqual([
      'Archive entry (README.txt) does not name an environment of certificate (copy-ca) and was not imported.',
      'Environment (Staging) was deliberately left out by the caller\'s mapping.',
    ])
    const [dev, prod] = res.body.resultList[0].certificateEnvironmentList
    expect([derOf(dev), derOf(prod)]).toEqual([partner.der, partner2.der])
  })

  it('refusals (the pages\' messages; nothing written or pushed) and permissions', async () => {
    await expectRefused(() => post(`${P}/import-file/`, certForm({ certificateName: 'other' })), 'Alias (partner-ca) is already used for another certificate, try changing this value!')
    await expectRefused(() => post(`${P}/import-file/`, certForm({ environmentList: 'Staging' })), 'Environment (Staging) is not found or user does not have privilege to access it!')
    await expectRefused(() => post(`${P}/import-file/`, certForm({ environmentList: '' })), 'environmentList value can not be empty!')
    await expectRefused(() => post(`${P}/import-file/`, certForm({ alias: '' })), 'alias value can not be empty!')
    await expectRefused(() => post(`${P}/import-file/`, certForm({}, 'hello', 'x.cer')), /^certificateFile is not a valid X.509 certificate/)
    await expectRefused(() => post(`${P}/import-file/`, certForm({}, writePackageZip([{ name: 'notes.txt', bytes: Buffer.from('x') }]), 'x.zip')),
      'This archive holds no importable material for certificate (partner-ca)! Entries must be named <certificateName>-<environmentName>.cer, as the export writes them.')
    await expectRefused(() => post(`${P}/import-file/`, certForm({}), tokens.vic!), /User lacks permission CERTIFICATE MANAGE/)
    await expectRefused(() => post(`${P}/import-file/`, certForm({}), tokens.pat!), /User lacks permission CERTIFICATE MANAGE/)
    await expectRefused(() => post(`${P}/import-file/`, certForm({}), tokens.tina!), /User lacks permission CERTIFICATE EXPORT_IMPORT/)
    const unknown = await get(`${P}/nope/export-file/`)
    expect([unknown.status, unknown.body.resultMessage]).toEqual([400, 'Certificate (name: nope) is not found!'])
  })
})

describe('trust store files (the admin project)', () => {
  it('import-file example 1 and 3: a ZIP bundle with namePrefix; a bad entry is reported and the rest lands', async () => {
    const bundle = writePackageZip([
      { name: 'root-ca.cer', bytes: Buffer.from(partner.pem) }, { name: 'intermediate-ca.pem', bytes: intermediate.der }, { name: 'notes.txt', bytes: Buffer.from('') },
    ])
    const res = await post(`${ADMIN}/truststore/dev/import-file/`, fileForm({ namePrefix: 'partner-' }, 'truststoreFile', bundle, 'partner-cas.zip'), tokens.root!)
    expect(res.status, res.text).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultList: ['partner-intermediate-ca', 'partner-root-ca'], resultCount: 2 })
    expect(res.body.unresolvedReferences).toEqual(['Certificate (partner-notes) could not be imported: truststoreFile value can not be empty!'])
    expect(worker.received.map((r) => [r.project, r.name]).sort()).toEqual([['admin', 'partner-intermediate-ca'], ['admin', 'partner-root-ca']])
    const list = await get(`${ADMIN}/truststore/dev/`, tokens.root!)
    expect(list.body.resultCount).toBe(2)
  })

  it('export-file: a ZIP of PEM files named after their aliases; example 2 moves it back in (updated, not duplicated)', async () => {
    const res = await get(`${ADMIN}/truststore/dev/export-file/`, tokens.root!)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('filename="dev-truststore.zip"')
    const files = readPackageZip(res.body as Buffer)
    expect([...files.keys()].sort()).toEqual(['partner-intermediate-ca.cer', 'partner-root-ca.cer'])
    expect(new X509Certificate(files.get('partner-root-ca.cer')!).raw).toEqual(partner.der)
    expect(files.get('partner-root-ca.cer')!.toString()).toMatch(/^-----BEGIN CERTIFICATE-----/)
    const again = await post(`${ADMIN}/truststore/dev/import-file/`, fileForm({}, 'truststoreFile', res.body as Buffer, 'dev-truststore.zip'), tokens.root!)
    expect(again.body).toMatchObject({ resultList: ['partner-intermediate-ca', 'partner-root-ca'], resultCount: 2 })
    expect((await get(`${ADMIN}/truststore/dev/`, tokens.root!)).body.resultCount).toBe(2)
  })

  it('refusals: another project, unknown environment, empty bundle, nothing importable, an empty trust store', async () => {
    await expectRefused(() => post(`${P}/truststore/dev/import-file/`, fileForm({}, 'truststoreFile', partner.pem, 'a.cer')), 'Truststore certificates are only available in the admin project')
    await expectRefused(() => post(`${ADMIN}/truststore/Production/import-file/`, fileForm({}, 'truststoreFile', partner.pem, 'a.cer'), tokens.root!), 'Environment (Production) is not found or user does not have privilege to access it!')
    await expectRefused(() => post(`${ADMIN}/truststore/dev/import-file/`, fileForm({}, 'truststoreFile', writePackageZip([]), 'empty.zip'), tokens.root!), 'The uploaded bundle holds no certificate file!')
    await expectRefused(() => post(`${ADMIN}/truststore/dev/import-file/`, fileForm({}, 'truststoreFile', writePackageZip([{ name: 'notes.txt', bytes: Buffer.from('hello') }]), 'b.zip'), tokens.root!),
      /^No certificate in this bundle could be imported! Certificate \(notes\) could not be imported: /)
    const empty = await get(`${ADMIN}/truststore/prod/export-file/`, tokens.root!)
    expect([empty.status, empty.body.resultMessage]).toEqual([400, 'Environment (prod) holds no truststore certificate! Nothing of the admin project is deployed to it.'])
  })
})
