import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { declarativeDoors } from './support.js'

// Issue 29 §7: the drift baseline of the credentials an apply creates is built from the rows it wrote (the adapter's
// stored form, ImportWriteOptions.created), not read back. It must be exactly what reading them back gives: the
// recorded data equals the dump's, drift (the recorded fingerprints, secrets included, against the live ones read
// back) finds nothing until a REST edit, then that field; where the form is not built (roles, an application the plan
// updates) a no-change apply leaves the baseline as it is (it is rewritten only when it differs from the live objects).

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const { call, plan, apply } = declarativeDoors(bed)
const P = '/apiops/projects/payments'

const credentials = [
  // every field the file can state, a disabled credential with an expiry in milliseconds
  {
    username: 'wb-full', password: 'wb-full-pw-1', fullName: 'Full Fields', email: 'full@example.test', description: 'every field', enabled: false,
    expireDate: '2031-05-06T07:08:09.123Z', ipList: ['10.0.0.0/8', '192.168.1.7'], trafficLogDisabled: true, syncManaged: true, organizationCode: 'wb-org',
  },
  // a password reference (a ${variable}, not a secret) and no password
  { username: 'wb-reference', passwordReference: '${wb_password}', fullName: 'Reference' },
  // an application that exists before the apply, named by the credential
  { username: 'wb-existing-app', password: 'wb-existing-pw-1', applicationName: 'wb-before' },
  // an application the same file creates, named by the credential: not there yet when the credential is written
  { username: 'wb-named-new-app', password: 'wb-named-pw-1', applicationName: 'wb-new' },
  // consumers of an application the same file creates: it takes them after they were written
  { username: 'wb-consumer-1', password: 'wb-consumer-pw-1', fullName: 'Consumer One' },
  { username: 'wb-consumer-2', password: 'wb-consumer-pw-2', applicationName: 'wb-before' },
  // an organization code that does not resolve (an advisory, stored as none)
  { username: 'wb-unknown-org', password: 'wb-unknown-pw-1', organizationCode: 'no-such-org' },
]
const document = {
  formatVersion: 1, project: 'payments', namespace: 'wb',
  credentials,
  applications: [{ name: 'wb-new', description: 'created by the file', consumers: ['wb-consumer-1', 'wb-consumer-2'] }],
}


async function stateOf() {
  const project = await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
  return bed.svc.deps.prisma.declarativeState.findUniqueOrThrow({ where: { projectId_namespace: { projectId: project.id, namespace: 'wb' } } })
}

beforeAll(async () => {
  expect((await call('POST', `${P}/credential-organizations`, { code: 'wb-org', nameDefault: 'Written Baseline Org' })).status).toBe(201)
  const before = await bed.svc.graphql('mutation { createApplication(projectName: "payments", input: { name: "wb-before", applicationKind: "PORTAL" }) { name } }', {}, bed.root)
  expect(before.body.errors, JSON.stringify(before.body.errors)).toBeUndefined()
})

describe('the drift baseline of created credentials, built from the written rows', { timeout: 120_000 }, () => {
  it('equals the objects read back: the dump has the recorded data, drift finds nothing, then exactly a REST edit', async () => {
    const first = await plan(document, 'sync')
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.summary).toEqual({ create: credentials.length + 1, update: 0, delete: 0 })
    const applied = await apply(first.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    const recorded = await stateOf()
    expect(recorded.planId).toBe(first.body.id)

    // what the baseline says the credentials are is what the project serves
    const byName = new Map((recorded.objects as any[]).filter((o) => o.collection === 'credentials').map((o) => [o.name, o]))
    const dump = await call('GET', `${P}/declarative-state?collections=credentials&namespace=wb`)
    expect(dump.status).toBe(200)
    expect(dump.body.credentials.map((c: any) => c.username).sort()).toEqual(credentials.map((c) => c.username).sort())
    for (const { username, ...data } of dump.body.credentials) expect(byName.get(username)?.data, username).toEqual(data)
    expect(byName.get('wb-full')?.data).toMatchObject({ enabled: false, expireDate: '2031-05-06T07:08:09.123Z', organizationCode: 'wb-org', trafficLogDisabled: true, syncManaged: true })
    expect(byName.get('wb-reference')).toMatchObject({ data: { passwordReference: '${wb_password}' }, secrets: {} })
    expect(byName.get('wb-existing-app')?.data.applicationName).toBe('wb-before')
    expect(byName.get('wb-named-new-app')?.data.applicationName).toBeNull()
    expect(byName.get('wb-consumer-1')?.data.applicationName).toBe('wb-new')
    expect(byName.get('wb-consumer-2')?.data.applicationName).toBe('wb-new')
    expect(byName.get('wb-unknown-org')?.data.organizationCode).toBeNull()
    expect(Object.keys(byName.get('wb-full')?.secrets)).toEqual(['password'])

    const none = await call('GET', `${P}/declarative-drift?namespace=wb`)
    expect(none.body).toMatchObject({ planId: first.body.id, drift: [], summary: { changed: 0, deleted: 0 } })

    const credential = await bed.svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'wb-consumer-1' } })
    const edited = await call('PUT', `${P}/credentials/`, { username: credential.username, fullName: 'Consumer One', email: 'edited@example.test' })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    const drift = await call('GET', `${P}/declarative-drift?namespace=wb`)
    expect(drift.body.drift).toEqual([expect.objectContaining({ type: 'credentials', name: 'wb-consumer-1', status: 'changed', fields: ['email'] })])
  })

  it('reads back a credential granted roles, and every credential when the plan updates an application', async () => {
    const project = await bed.svc.deps.prisma.project.findUniqueOrThrow({ where: { name: 'payments' } })
    await bed.svc.deps.prisma.credentialRole.create({ data: { projectId: project.id, name: 'wb-role' } })
    const doc = {
      formatVersion: 1, project: 'payments', namespace: 'wb2',
      credentials: [{ username: 'wb2-roles', password: 'wb2-roles-pw-1', roleNameList: ['wb-role'] }, { username: 'wb2-plain', password: 'wb2-plain-pw-1' }],
      // an update of an application that exists: its consumers change, so every credential is read back
      applications: [{ name: 'wb-before', description: 'now described', consumers: ['wb2-plain'] }],
    }
    const made = await plan(doc, 'apply')
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect((await apply(made.body.id)).status).toBe(200)
    const again = await plan(doc, 'apply')
    expect(again.body.changes).toEqual([])
    expect((await apply(again.body.id)).status).toBe(200)
    const recorded = await bed.svc.deps.prisma.declarativeState.findUniqueOrThrow({ where: { projectId_namespace: { projectId: project.id, namespace: 'wb2' } } })
    expect(recorded.planId).toBe(made.body.id)
    const roles = (recorded.objects as any[]).find((o) => o.name === 'wb2-roles')
    expect(roles.data.roleNameList).toEqual(['wb-role'])
    expect((recorded.objects as any[]).find((o) => o.name === 'wb2-plain').data.applicationName).toBe('wb-before')
    expect((await call('GET', `${P}/declarative-drift?namespace=wb2`)).body.summary).toEqual({ changed: 0, deleted: 0 })
  })

  it('records the application an existing credential takes from an application the plan creates: no drift after the apply', async () => {
    const credentials = [{ username: 'wb3-kept', password: 'wb3-kept-pw-1', fullName: 'Kept' }]
    const first = await plan({ formatVersion: 1, project: 'payments', namespace: 'wb3', credentials }, 'sync')
    expect((await apply(first.body.id)).status).toBe(200)
    // the credential unchanged in the file; a new application of the file lists it as a consumer
    const second = await plan({ formatVersion: 1, project: 'payments', namespace: 'wb3', credentials, applications: [{ name: 'wb3-app', consumers: ['wb3-kept'] }] }, 'sync')
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect((await apply(second.body.id)).status).toBe(200)
    expect((await bed.svc.deps.prisma.credential.findUniqueOrThrow({ where: { username: 'wb3-kept' }, include: { application: true } })).application?.name).toBe('wb3-app')
    const drift = await call('GET', `${P}/declarative-drift?namespace=wb3`)
    expect(drift.body, JSON.stringify(drift.body)).toMatchObject({ planId: second.body.id, drift: [], summary: { changed: 0, deleted: 0 } })
  })

  it('records the applications a credential written by the plan leaves and joins: no drift on either after the apply', async () => {
    const applications = [{ name: 'wb4-from', description: 'left' }, { name: 'wb4-to', description: 'joined' }]
    const doc = (app: string) => ({ formatVersion: 1, project: 'payments', namespace: 'wb4', applications, credentials: [{ username: 'wb4-mover', password: 'wb4-mover-pw-1', applicationName: app }] })
    const first = await plan(doc('wb4-from'), 'sync')
    expect((await apply(first.body.id)).status).toBe(200)
    const second = await plan(doc('wb4-to'), 'sync')
    expect(second.body.changes.map((c: any) => `${c.action} ${c.type} ${c.name}`)).toEqual(['update credentials wb4-mover'])
    expect((await apply(second.body.id)).status).toBe(200)
    const drift = await call('GET', `${P}/declarative-drift?namespace=wb4`)
    expect(drift.body, JSON.stringify(drift.body)).toMatchObject({ planId: second.body.id, drift: [], summary: { changed: 0, deleted: 0 } })
  })
})
