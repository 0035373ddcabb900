import { beforeAll, describe, expect, it } from 'vitest'
import { sampleBootstrap } from '../support/fixtures.js'
import { useTestbed } from '../support/testbed.js'
import { key, limitsBootstrap, rateSpec } from '../limits/limit-plans-helpers.js'
import { declarativeDoors } from './support.js'

// Issue 29 for the `limitAssignments` collection: a project's live assignments named by the scope they occupy
// (subject, family, actorScope, target), never by the bindingKey minted per installation; plans by planKey and
// subjects by natural key. Written through the assignments service's create/update rules, ended (revoked) by a sync
// only when its namespace owns them; ACTIVE ones pushed after the commit; one audit event per change.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' }, bootstrap: (w) => limitsBootstrap(sampleBootstrap(w)) })
const base = '/apiops/projects/payments'

const { call, plan, apply } = declarativeDoors(bed)

/** The live assignments of a project as the REST list answers them, without what an installation mints. */
async function assignments(project: string) {
  const list = await call('GET', `/apiops/projects/${project}/limit-assignments?size=200`)
  expect(list.status).toBe(200)
  return list.body.items
    .filter((a: any) => a.status !== 'ENDED')
    .map(({ bindingKey: _b, assignedAt: _a, assignedBy: _by, version: _v, source: _s, ...rest }: any) => rest)
    .sort((a: any, b: any) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
}
const counts = async () => {
  const db = bed.svc.deps.prisma
  return { assignments: await db.limitAssignment.count(), live: await db.limitAssignment.count({ where: { status: { not: 'ENDED' } } }), audit: await db.auditEvent.count({ where: { declarativePlanId: { not: null } } }) }
}
const NAME = 'PROJECT/REQUEST_RATE/ANY/API_ENDPOINT//decl'

beforeAll(async () => {
  expect((await call('POST', `${base}/limit-plans`, { family: 'REQUEST_RATE', name: 'Gold Tier', initialRuleSpec: rateSpec(100) }, { 'idempotency-key': key() })).status).toBe(201)
  expect((await call('POST', `${base}/limit-plans/gold-tier/revisions/1/actions/publish`, {})).status).toBe(200)
  const a = await call('POST', `${base}/limit-assignments`, { subject: { type: 'PROJECT' }, content: { family: 'REQUEST_RATE', planKeys: ['gold-tier'], target: { type: 'API_ENDPOINT', targetKey: '/decl' } } }, { 'idempotency-key': key() })
  expect(a.status, JSON.stringify(a.body)).toBe(201)
  expect((await call('POST', `${base}/limit-assignments/${a.body.bindingKey}/actions/activate`, { version: 1 })).status).toBe(200)
  const b = await call('POST', `${base}/limit-assignments`, { subject: { type: 'CONSUMER', key: 'mobile-app' }, content: { family: 'REQUEST_RATE', planKeys: ['gold-tier'], target: { type: 'API_ENDPOINT', targetKey: '/draft' } } }, { 'idempotency-key': key() })
  expect(b.status, JSON.stringify(b.body)).toBe(201)
})

describe('limit assignments as a declarative collection', { timeout: 180_000 }, () => {
  it('dumps assignments by scope; the dump plans to 0 changes and syncs into a new project with the same lists', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=limitPlans,limitAssignments`)
    expect(dump.status, JSON.stringify(dump.body)).toBe(200)
    expect(dump.body.limitAssignments).toContainEqual(expect.objectContaining({ name: NAME, subject: { type: 'PROJECT' }, planKeys: ['gold-tier'], status: 'ACTIVE' }))
    expect(dump.body.limitAssignments).toContainEqual(expect.objectContaining({ name: 'CONSUMER/mobile-app/REQUEST_RATE/ANY/API_ENDPOINT//draft', status: 'DRAFT' }))
    expect(JSON.stringify(dump.body.limitAssignments)).not.toMatch(/"(bindingKey|version|assignedBy|id)"/)
    const self = await plan(dump.body, 'sync')
    expect(self.status, JSON.stringify(self.body)).toBe(200)
    expect(self.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    // a hand-written file that leaves the defaulted fields out is no drift either
    const short = await plan({ formatVersion: 1, project: 'payments', limitAssignments: [{ name: NAME, subject: { type: 'PROJECT' }, family: 'REQUEST_RATE', target: { type: 'API_ENDPOINT', targetKey: '/decl' }, planKeys: ['gold-tier'] }] })
    expect(short.body.summary, JSON.stringify(short.body)).toEqual({ create: 0, update: 0, delete: 0 })

    await bed.svc.graphql('mutation { createProject(input: { name: "assign-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    const projectOnly = dump.body.limitAssignments.filter((a: any) => a.subject.type === 'PROJECT')
    bed.dev.received.length = 0
    const p = await plan({ ...dump.body, project: 'assign-copy', limitAssignments: projectOnly }, 'sync', 'assign-copy')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.summary).toEqual({ create: dump.body.limitPlans.length + 1, update: 0, delete: 0 })
    const applied = await apply(p.body.id, 'assign-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.pushFailed).toBe(false)
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ action: 'DEPLOY', project: 'assign-copy' }))
    expect(await assignments('assign-copy')).toEqual((await assignments('payments')).filter((a: any) => a.subject.type === 'PROJECT'))
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: p.body.id, objectType: 'limitAssignments' }, select: { objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectName: NAME, declarativeAction: 'create' }])
    const again = await call('GET', '/apiops/projects/assign-copy/declarative-state?collections=limitPlans,limitAssignments')
    expect((await plan(again.body, 'sync', 'assign-copy')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('refuses invalid objects with their field paths and writes nothing', async () => {
    const before = await counts()
    const shape = await plan({ formatVersion: 1, project: 'payments', limitAssignments: [{ name: 'x', subject: { type: 'PROJECT' }, family: 'NOPE' }] })
    expect(shape.status).toBe(400)
    expect(shape.body.params).toMatchObject({ reason: 'declarativeDocumentInvalid', field: 'document.limitAssignments[0].family' })
    const p = await plan({
      formatVersion: 1, project: 'payments', limitAssignments: [
        { name: 'PROJECT/REQUEST_RATE/ANY/API_ENDPOINT//ok', subject: { type: 'PROJECT' }, family: 'REQUEST_RATE', target: { type: 'API_ENDPOINT', targetKey: '/ok' }, planKeys: ['gold-tier'] },
        { name: 'PROJECT/REQUEST_RATE/ANY/API_ENDPOINT//nope', subject: { type: 'PROJECT' }, family: 'REQUEST_RATE', target: { type: 'API_ENDPOINT', targetKey: '/nope' }, planKeys: ['no-such-plan'] },
        { name: 'wrong-name', subject: { type: 'PROJECT' }, family: 'REQUEST_RATE', target: { type: 'API_ENDPOINT', targetKey: '/w' }, planKeys: ['gold-tier'] },
      ],
    })
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    const applied = await apply(p.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(400)
    expect(applied.body.params.reason).toBe('declarativeApplyRefused')
    expect(applied.body.params.errors.map((e: any) => [e.path, e.reason])).toEqual([
      ['limitAssignments[1].planKeys', 'resourceNotFound'],
      ['limitAssignments[2].name', 'declarativeNameMismatch'],
    ])
    expect(await counts()).toEqual(before)
  })

  it('a sync ends only what its namespace owns and undeploys it; one audit event per change', async () => {
    const owned = { formatVersion: 1, project: 'payments', namespace: 'team-limits', limitAssignments: [{ name: 'PROJECT/REQUEST_RATE/ANY/API_ENDPOINT//team', subject: { type: 'PROJECT' }, family: 'REQUEST_RATE', target: { type: 'API_ENDPOINT', targetKey: '/team' }, planKeys: ['gold-tier'], status: 'ACTIVE' }] }
    bed.dev.received.length = 0
    const created = await plan(owned, 'sync')
    expect(created.body.summary, JSON.stringify(created.body)).toEqual({ create: 1, update: 0, delete: 0 })
    expect((await apply(created.body.id)).status).toBe(200)
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ action: 'DEPLOY' }))
    const before = (await assignments('payments')).length

    bed.dev.received.length = 0
    const emptied = await plan({ ...owned, limitAssignments: [] }, 'sync')
    expect(emptied.body.changes.map((c: any) => [c.action, c.name])).toEqual([['delete', 'PROJECT/REQUEST_RATE/ANY/API_ENDPOINT//team']])
    const done = await apply(emptied.body.id)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ action: 'UNDEPLOY' }))
    expect((await assignments('payments')).length).toBe(before - 1)
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: emptied.body.id }, select: { objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectName: 'PROJECT/REQUEST_RATE/ANY/API_ENDPOINT//team', declarativeAction: 'delete' }])
  })
})
