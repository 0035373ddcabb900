import { beforeAll, describe, expect, it } from 'vitest'
import { expectLegacyRefusal } from '../support/refusals.js'
import { useTestbed } from '../support/testbed.js'
import { b64, legacyExport } from '../support/zip-fixtures.js'
import { PLATFORM_TOKENS, platformBootstrap } from '../utility/support.js'

// Vendor api-reference/export-import (list-supported-types, list-objects, import-objects): the listings and the
// legacy import on the transfer engine. payments holds office-ips (IP_GROUP) and edge-ks (CERTIFICATE KEY_STORE);
// olivia holds everything in `other`, nothing in payments.

const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: platformBootstrap, tokens: PLATFORM_TOKENS })

async function get(path: string, token: string) {
  const res = await bed.svc.http(`/apiops/projects/${path}`, { headers: { authorization: `Bearer ${token}` } })
  return { status: res.status, body: (await res.json()) as any }
}
async function importFile(project: string, type: string, token: string, file: Buffer | null, fields: Record<string, string> = {}, opts: { fileName?: string; passphrase?: string } = {}) {
  const form = new FormData()
  if (file) form.set('exportFile', new Blob([file]), opts.fileName ?? 'package.zip')
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  const res = await bed.svc.http(`/apiops/projects/${project}/export-import/${type}/import/`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, ...(opts.passphrase ? { 'X-Apinizer-Package-Passphrase': b64(opts.passphrase) } : {}) }, body: form,
  })
  return { status: res.status, body: (await res.json()) as any }
}
const objectsIn = (project: string) => bed.svc.deps.prisma.storedObject.findMany({ where: { project: { name: project } }, orderBy: { id: 'asc' }, select: { type: true, kind: true, name: true, content: true } })
const pushes = () => bed.dev.received.length + bed.prod.received.length
const untouched = { state: () => objectsIn('other'), pushes }

let officeIps: Buffer
beforeAll(async () => {
  const exported = await legacyExport(bed.svc, bed.root, 'payments', 'IP_GROUP', { names: ['office-ips'] })
  if (exported.res.status !== 200) throw new Error(exported.bytes.toString('utf8'))
  officeIps = exported.bytes
})

describe('GET …/export-import/types/', () => {
  it('lists the registry\'s types, the same for every project', async () => {
    const registry = (await bed.svc.graphql('{ transferObjectTypes { type } }', {}, bed.root)).body.data.transferObjectTypes.map((t: { type: string }) => t.type)
    const answer = await get('payments/export-import/types/', bed.frank)
    expect(answer).toEqual({ status: 200, body: { status: 'SUCCESS', success: true, resultList: [...registry].sort(), resultCount: registry.length } })
    expect(answer.body.resultList).toEqual(expect.arrayContaining(['GLOBAL_POLICY', 'IP_GROUP', 'CERTIFICATE', 'CREDENTIAL']))
    expect((await get('other/export-import/types/', bed.olivia)).body.resultList).toEqual(answer.body.resultList)
  })

  it('refuses a caller outside the project like an unknown project', async () => {
    expect(await get('payments/export-import/types/', bed.olivia)).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: "Project 'payments' not found" } })
    expect(await get('nope/export-import/types/', bed.root)).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: "Project 'nope' not found" } })
  })
})

describe('GET …/export-import/{type}/objects/', () => {
  it('lists names, with the kind for a multi-kind type, any casing of the type, filtered by name', async () => {
    expect(await get('payments/export-import/IP_GROUP/objects/', bed.root)).toEqual({ status: 200, body: { status: 'SUCCESS', success: true, resultList: [{ name: 'office-ips' }], resultCount: 1 } })
    expect((await get('payments/export-import/certificate/objects/', bed.root)).body.resultList).toEqual([{ name: 'edge-ks', kind: 'KEY_STORE' }])
    expect((await get('payments/export-import/ip_group/objects/?filter=OFFICE', bed.root)).body.resultList).toEqual([{ name: 'office-ips' }])
    expect((await get('payments/export-import/IP_GROUP/objects/?filter=nothing-like-it', bed.root)).body).toMatchObject({ resultList: [], resultCount: 0 })
  })

  it('refuses an unknown type (naming the supported ones), a caller without VIEW on the type, and one outside the project', async () => {
    const unknown = await get('payments/export-import/LLM_PROVIDERS/objects/', bed.root)
    expect(unknown.status).toBe(400)
    expect(unknown.body.resultMessage).toMatch(/^Unknown object type 'LLM_PROVIDERS'; supported types: .*IP_GROUP/)
    expect(await get('payments/export-import/IP_GROUP/objects/', bed.frank)).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: "User lacks permission IP_GROUP VIEW (or PROJECT_MANAGEMENT VIEW) in project 'payments'" } })
    expect(await get('payments/export-import/IP_GROUP/objects/', bed.olivia)).toEqual({ status: 400, body: { status: 'FAILURE', resultMessage: "Project 'payments' not found" } })
  })
})

describe('POST …/export-import/{type}/import/', () => {
  it('imports the package as new (Example 1 of the page), not deployed; the objects land in the target project', async () => {
    expect(await importFile('other', 'IP_GROUP', bed.olivia, officeIps, { override: 'false' })).toEqual({ status: 200, body: { status: 'SUCCESS', success: true } })
    expect((await objectsIn('other')).map((o) => [o.type, o.name, o.content])).toEqual([['IP_GROUP', 'office-ips', { ips: ['10.0.0.0/8'] }]])
    expect(pushes()).toBe(0)
    expect((await get('other/export-import/IP_GROUP/objects/', bed.olivia)).body.resultList).toEqual([{ name: 'office-ips' }])
  })

  it('refuses a name that exists (override=false), and replaces it with override=true (Example 2)', async () => {
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, officeIps), /^IP_GROUP 'office-ips' already exists; use conflictPolicy REPLACE or rename$/, untouched)
    expect(await importFile('other', 'ip_group', bed.olivia, officeIps, { override: 'true' })).toEqual({ status: 200, body: { status: 'SUCCESS', success: true } })
  })

  it('refuses without writing: no file, a file not named .zip, not a ZIP, another type than the package, bad fields, an encrypted package without its passphrase', async () => {
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, null), /exportFile .*required/, untouched)
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, officeIps, {}, { fileName: 'package.txt' }), 'exportFile parameter must be in zip file format and must end with zip extension!', untouched)
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, Buffer.from('not a zip')), /not a ZIP/, untouched)
    await expectLegacyRefusal(() => importFile('other', 'CERTIFICATE', bed.olivia, officeIps, { override: 'true' }), /holds IP_GROUP objects, not CERTIFICATE/, untouched)
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, officeIps, { override: 'yes' }), 'override: must be true or false', untouched)
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, officeIps, { override: 'true', environmentMapping: '{"UAT": ""}' }), 'environmentMapping.UAT: must name an environment', untouched)
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, officeIps, { override: 'true', environmentMapping: 'not json' }), 'environmentMapping: must be a JSON object of environment names', untouched)
    const encrypted = await legacyExport(bed.svc, bed.root, 'payments', 'IP_GROUP', { names: ['office-ips'] }, { encrypt: true, passphrase: 'my-passphrase' })
    const bytes = encrypted.bytes
    await expectLegacyRefusal(() => importFile('other', 'IP_GROUP', bed.olivia, bytes, { override: 'true' }), /passphrase/i, untouched)
    // Example 4: the passphrase in the vendor's header
    expect(await importFile('other', 'IP_GROUP', bed.olivia, bytes, { override: 'true' }, { passphrase: 'my-passphrase' })).toEqual({ status: 200, body: { status: 'SUCCESS', success: true } })
  })

  it('refuses a VIEW-only member and a caller outside the project, writing nothing', async () => {
    const inPayments = { state: () => objectsIn('payments'), pushes }
    await expectLegacyRefusal(() => importFile('payments', 'IP_GROUP', bed.frank, officeIps, { override: 'true' }), "User lacks permission IP_GROUP EXPORT_IMPORT (or PROJECT_MANAGEMENT EXPORT_IMPORT) in project 'payments'", inPayments)
    await expectLegacyRefusal(() => importFile('payments', 'IP_GROUP', bed.olivia, officeIps, { override: 'true' }), "Project 'payments' not found", inPayments)
  })

  it('has GraphQL twins: the listings and the import', async () => {
    const out = (await bed.svc.graphql('{ types: exportImportTypes(projectName: "other") objects: exportImportObjects(projectName: "other", type: "IP_GROUP", filter: "office") { name kind } }', {}, bed.olivia)).body
    expect(out.data.objects).toEqual([{ name: 'office-ips', kind: null }])
    expect(out.data.types).toContain('GLOBAL_POLICY')
  })
})
