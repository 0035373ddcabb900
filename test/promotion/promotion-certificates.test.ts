import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import { legacy } from '../apiproxies/automation-proxy-support.js'
import { sampleBootstrap } from '../support/fixtures.js'

// Promotion certificates (the PromotionCertificate tag of the vendor's openapi.yaml): a keystore of `payments` read
// "full" by id (the transfer engine's CERTIFICATE object, secrets sealed) and created from that answer in `other`.

const KS_PASSWORD = 'keystore-promotion-pass-1'

function bootstrap(workers: { dev: string[] }) {
  const doc = sampleBootstrap(workers)
  doc.users.push({ username: 'sara', password: 'sara-pass-1' }, { username: 'vic', password: 'vic-pass-1' }, { username: 'max', password: 'max-pass-1' }, { username: 'olga', password: 'olga-pass-1' })
  // sara: CERTIFICATE EXPORT_IMPORT in payments, MANAGE in other; vic: CERTIFICATE VIEW in payments and other; max: CERTIFICATE MANAGE in payments only
  doc.projects[0]!.members!.push(
    { username: 'sara', permissions: [{ category: 'CERTIFICATE', level: 'EXPORT_IMPORT' }] },
    { username: 'vic', permissions: [{ category: 'CERTIFICATE', level: 'VIEW' }] },
    { username: 'max', permissions: [{ category: 'CERTIFICATE', level: 'MANAGE' }] },
  )
  doc.projects[1]!.members = [{ username: 'sara', permissions: [{ category: 'CERTIFICATE', level: 'MANAGE' }] }, { username: 'vic', permissions: [{ category: 'CERTIFICATE', level: 'VIEW' }] }]
  return doc
}
const bed = useTestbed({ workers: ['dev'], bootstrap, tokens: { sara: 'sara-pass-1', vic: 'vic-pass-1', max: 'max-pass-1', olga: 'olga-pass-1' } })

let ksId: string
const full = (token: string | null, kind: string, id: string) => bed.svc.http(`/apiops/utility/promotion-certificates/${kind}/${id}/full`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  .then(async (res) => ({ status: res.status, raw: await res.clone().text(), body: await res.json().catch(() => undefined) as any }))
const create = (token: string, project: string, body?: unknown) => legacy(bed.svc, 'POST', `${project}/promotion-certificates`, token, body)
const state = async () => JSON.stringify(await bed.svc.deps.prisma.storedObject.findMany({ where: { type: 'CERTIFICATE' }, orderBy: [{ projectId: 'asc' }, { kind: 'asc' }, { name: 'asc' }] }))
const expectRefused = (call: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(call, message, { state, pushes: () => bed.dev.received.length })

beforeAll(async () => {
  const payments = await bed.svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'payments' } })
  const row = await bed.svc.deps.prisma.storedObject.create({
    data: { projectId: payments.id, type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'partner-ks', content: { alias: 'partner', password: bed.svc.deps.keyring.encrypt(KS_PASSWORD), environments: { dev: { fileName: 'partner.p12' } } } },
  })
  ksId = row.id
})

describe('promotion certificates', () => {
  it('reads a keystore full by id (secrets sealed) and creates it in another project from that answer', async () => {
    const read = await full(bed.sara, 'keystore', ksId)
    expect(read.status, read.raw).toBe(200)
    expect(read.body).toMatchObject({
      status: 'SUCCESS', id: ksId, certKind: 'KEY_STORE', projectName: 'payments', name: 'partner-ks',
      transfer: { type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'partner-ks', data: { alias: 'partner', environments: { dev: { fileName: 'partner.p12' } } }, secrets: { password: { handling: 'CIPHERTEXT_VERBATIM', value: expect.stringMatching(/^v1\./) } } },
    })
    expect(read.raw).not.toContain(KS_PASSWORD)
    const created = await create(bed.sara, 'other', read.body)
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    expect(created.body).toMatchObject({ status: 'SUCCESS', certKind: 'KEY_STORE', name: 'partner-ks', created: true, advisories: [] })
    const row = await bed.svc.deps.prisma.storedObject.findFirstOrThrow({ where: { type: 'CERTIFICATE', name: 'partner-ks', project: { name: 'other' } } })
    expect(row.id).toBe(created.body.id)
    expect(bed.svc.deps.keyring.decrypt((row.content as any).password)).toBe(KS_PASSWORD)
    expect(bed.dev.received).toHaveLength(0)
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { operation: 'POST /apiops/projects/:projectName/promotion-certificates' }, orderBy: { id: 'desc' } })
    expect(audit).toMatchObject({ actor: 'sara', projectName: 'other', objectType: 'CERTIFICATE', objectName: 'partner-ks' })
    // overwrite replaces; a rename creates another
    expect((await create(bed.sara, 'other', { ...read.body, overwrite: true })).body).toMatchObject({ created: false })
    expect((await create(bed.sara, 'other', { transfer: read.body.transfer, name: 'partner-ks-2' })).body).toMatchObject({ created: true, name: 'partner-ks-2' })
  })

  it('refuses the full read to callers without EXPORT_IMPORT or sight of the project, for another kind or an unknown id', async () => {
    const notFound = { status: 'FAILURE', resultMessage: `Certificate '${ksId}' not found` }
    expect((await full(bed.vic, 'keystore', ksId)).body.resultMessage).toMatch(/^User lacks permission CERTIFICATE EXPORT_IMPORT \(or PROJECT_MANAGEMENT EXPORT_IMPORT\) in project 'payments'$/)
    // olga is a member of no project: whether the id exists does not show
    expect((await full(bed.olga, 'keystore', ksId)).body).toEqual(notFound)
    expect((await full(bed.sara, 'jwk', ksId)).body).toEqual(notFound)
    expect((await full(bed.sara, 'keystore', 'no-such-id')).body).toEqual({ status: 'FAILURE', resultMessage: "Certificate 'no-such-id' not found" })
    expect((await full(bed.sara, 'teapot', ksId)).body.resultMessage).toMatch(/^certKind: must be one of/)
    expect((await full(null, 'keystore', ksId)).status).toBe(401)
  })

  it('refuses every create cause; nothing written', async () => {
    const { body: answer } = await full(bed.sara, 'keystore', ksId)
    await expectRefused(() => create(bed.vic, 'other', answer), /^User lacks permission CERTIFICATE MANAGE in project 'other'$/)
    await expectRefused(() => create(bed.max, 'other', answer), /^Project 'other' not found$/)
    await expectRefused(() => create(bed.sara, 'other', answer), /^KEY_STORE 'partner-ks' already exists in project 'other'; set overwrite to replace it$/)
    await expectRefused(() => create(bed.sara, 'other', { ...answer, name: 'x1', transfer: { ...answer.transfer, type: 'API_PROXY' } }), /^transfer.type: must be CERTIFICATE$/)
    await expectRefused(() => create(bed.sara, 'other', { ...answer, name: 'x2', transfer: { ...answer.transfer, kind: 'TEAPOT' } }), /^transfer.kind: must be one of/)
    await expectRefused(() => create(bed.sara, 'other', { ...answer, name: 'x3', surprise: 1 }), /surprise/)
    await expectRefused(() => create(bed.sara, 'other', { name: 'x4' }), /^transfer: /)
    await expectRefused(() => create(bed.sara, 'other'), /body/i)
  })

  it('GraphQL: promotionCertificate and createPromotionCertificate answer as the REST doors', async () => {
    const q = await bed.svc.graphql('query($id: String!) { promotionCertificate(certKind: "KEY_STORE", id: $id) }', { id: ksId }, bed.sara)
    expect(q.body.errors).toBeUndefined()
    const rest = await full(bed.sara, 'KEY_STORE', ksId)
    expect(q.body.data.promotionCertificate.transfer.data).toEqual(rest.body.transfer.data)
    const m = await bed.svc.graphql('mutation($i: JSON!) { createPromotionCertificate(projectName: "other", input: $i) }', { i: { transfer: q.body.data.promotionCertificate.transfer, name: 'gql-ks' } }, bed.sara)
    expect(m.body.data.createPromotionCertificate).toMatchObject({ name: 'gql-ks', created: true })
    const before = await state()
    const refused = await bed.svc.graphql('mutation($i: JSON!) { createPromotionCertificate(projectName: "other", input: $i) }', { i: { transfer: q.body.data.promotionCertificate.transfer, name: 'gql-ks-2' } }, bed.vic)
    expect(refused.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await state()).toBe(before)
  })
})
