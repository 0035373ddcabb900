import { beforeAll, describe, expect, it } from 'vitest'
import { sampleBootstrap } from '../support/fixtures.js'
import { useTestbed } from '../support/testbed.js'
import { key, limitsBootstrap, rateSpec } from '../limits/limit-plans-helpers.js'
import { declarativeDoors } from './support.js'

// Issue 29 §1–§4 for the `limitPlans` collection: a project's limit plans by plan key (the key assignments name them
// by), with their lifecycle and the rule spec they enforce, written through the plans service (its create and update
// rules, publish and retire moving forward only). A dump plans against its project to zero changes and syncs into a
// new project with the same lists; an invalid object is refused with its field path, nothing written; a sync deletes
// only what its namespace owns, through the plan DELETE's rules; one audit event per change; a changed rule spec of a
// published plan is published and its ACTIVE assignments are pushed after the commit.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' }, bootstrap: (w) => limitsBootstrap(sampleBootstrap(w)) })
const base = '/apiops/projects/payments'

const { call, plan, apply } = declarativeDoors(bed)

/** The plans of a project as the REST list and the enforced revision answer them. */
async function plans(project: string) {
  const list = await call('GET', `/apiops/projects/${project}/limit-plans?size=200`)
  expect(list.status).toBe(200)
  const out = []
  for (const p of list.body.items) {
    const enforced = await call('GET', `/apiops/projects/${project}/limit-plans/${p.planKey}/${p.currentPublishedRevision > 0 ? 'published' : 'draft'}`)
    out.push({ planKey: p.planKey, family: p.family, name: p.name, nameTr: p.nameTr, description: p.description, labels: p.labels, lifecycle: p.lifecycle, ruleSpec: enforced.body.ruleSpec })
  }
  return out.sort((a, b) => a.planKey.localeCompare(b.planKey))
}
const counts = async () => {
  const db = bed.svc.deps.prisma
  return { plans: await db.limitPlan.count(), revisions: await db.limitPlanRevision.count(), audit: await db.auditEvent.count({ where: { declarativePlanId: { not: null } } }) }
}

let bindingKey = ''

beforeAll(async () => {
  const made = await call('POST', `${base}/limit-plans`, { family: 'REQUEST_RATE', name: 'Gold Tier', description: 'gold', labels: ['paid', 'tier'], initialRuleSpec: rateSpec(100) }, { 'idempotency-key': key() })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  expect((await call('POST', `${base}/limit-plans/gold-tier/revisions/1/actions/publish`, {})).status).toBe(200)
  expect((await call('POST', `${base}/limit-plans`, { family: 'AI_TOKEN_BUDGET', name: 'Draft budget', initialRuleSpec: { aiBudget: { enabled: true, tokensPerDay: 5000 } } }, { 'idempotency-key': key() })).status).toBe(201)
  // an ACTIVE assignment of gold-tier: a published change of the plan recompiles and pushes it
  const a = await call('POST', `${base}/limit-assignments`, { subject: { type: 'CONSUMER', key: 'mobile-app' }, content: { family: 'REQUEST_RATE', planKeys: ['gold-tier'], target: { type: 'API_ENDPOINT', targetKey: '/decl' } } }, { 'idempotency-key': key() })
  expect(a.status, JSON.stringify(a.body)).toBe(201)
  bindingKey = a.body.bindingKey
  expect((await call('POST', `${base}/limit-assignments/${bindingKey}/actions/activate`, { version: 1 })).status).toBe(200)
})

describe('limit plans as a declarative collection', { timeout: 180_000 }, () => {
  it('dumps plans by plan key; the dump plans to 0 changes and syncs into a new project with the same lists', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=limitPlans`)
    expect(dump.status, JSON.stringify(dump.body)).toBe(200)
    expect(dump.body.limitPlans).toContainEqual({ planKey: 'gold-tier', family: 'REQUEST_RATE', name: 'Gold Tier', nameTr: null, description: 'gold', labels: ['paid', 'tier'], lifecycle: 'PUBLISHED', ruleSpec: rateSpec(100) })
    expect(dump.body.limitPlans).toContainEqual(expect.objectContaining({ planKey: 'draft-budget', lifecycle: 'DRAFT', ruleSpec: { aiBudget: { enabled: true, tokensPerDay: 5000 } } }))
    expect(JSON.stringify(dump.body.limitPlans)).not.toMatch(/"(id|version|createdBy|scope)"/)
    const self = await plan(dump.body, 'sync')
    expect(self.status, JSON.stringify(self.body)).toBe(200)
    expect(self.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    // a hand-written file that leaves the defaulted fields out is no drift either
    expect((await plan({ formatVersion: 1, project: 'payments', limitPlans: [{ planKey: 'gold-tier', name: 'Gold Tier' }] })).body.summary).toEqual({ create: 0, update: 0, delete: 0 })

    await bed.svc.graphql('mutation { createProject(input: { name: "plans-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    const p = await plan({ ...dump.body, project: 'plans-copy' }, 'sync', 'plans-copy')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.summary).toEqual({ create: dump.body.limitPlans.length, update: 0, delete: 0 })
    const applied = await apply(p.body.id, 'plans-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(await plans('plans-copy')).toEqual(await plans('payments'))
    const again = await call('GET', '/apiops/projects/plans-copy/declarative-state?collections=limitPlans')
    expect((await plan(again.body, 'sync', 'plans-copy')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('publishes a changed rule spec of a published plan and pushes its ACTIVE assignment after the commit; one audit event', async () => {
    bed.dev.received.length = 0
    const doc = { formatVersion: 1, project: 'payments', limitPlans: [{ planKey: 'gold-tier', description: 'gold v2', ruleSpec: rateSpec(250) }] }
    const p = await plan(doc)
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.changes).toEqual([expect.objectContaining({ action: 'update', type: 'limitPlans', name: 'gold-tier', fields: ['description', 'ruleSpec.requestRate.windows'] })])
    const applied = await apply(p.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.pushFailed).toBe(false)
    const published = await call('GET', `${base}/limit-plans/gold-tier/published`)
    expect(published.body).toMatchObject({ revision: 2, status: 'PUBLISHED', ruleSpec: rateSpec(250) })
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ action: 'DEPLOY', name: bindingKey }))
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: p.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectType: 'limitPlans', objectName: 'gold-tier', declarativeAction: 'update' }])
    expect((await plan(doc)).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('refuses invalid objects with their field paths and writes nothing', async () => {
    const before = await counts()
    const shape = await plan({ formatVersion: 1, project: 'payments', limitPlans: [{ planKey: 'x', family: 'NOPE', name: 'x' }] })
    expect(shape.status).toBe(400)
    expect(shape.body.params).toMatchObject({ reason: 'declarativeDocumentInvalid', field: 'document.limitPlans[0].family' })
    const many = Array.from({ length: 20 }, (_, i) => ({ planKey: `bulk-${i}`, family: 'REQUEST_RATE', name: `Bulk ${i}`, ruleSpec: rateSpec(i + 1) }))
    const refused = {
      formatVersion: 1, project: 'payments', limitPlans: [
        ...many,
        { planKey: 'bad-spec', family: 'REQUEST_RATE', name: 'Bad spec', ruleSpec: { requestRate: { windows: [{ permittedMessageCount: 0, interval: 'ONE_MINUTE' }] } } },
        { planKey: 'wrong-arm', family: 'REQUEST_RATE', name: 'Wrong arm', ruleSpec: { aiBudget: { tokensPerDay: 5 } } },
        { planKey: 'Bad Key', family: 'REQUEST_RATE', name: 'Bad key', ruleSpec: rateSpec() },
        { planKey: 'gold-tier', lifecycle: 'DRAFT' },
      ],
    }
    const p = await plan(refused)
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    const applied = await apply(p.body.id)
    expect(applied.status).toBe(400)
    expect(applied.body.params.reason).toBe('declarativeApplyRefused')
    expect(applied.body.params.errors.map((e: any) => [e.path, e.reason])).toEqual([
      ['limitPlans[20].ruleSpec.requestRate.windows[0].permittedMessageCount', 'malformedRequest'],
      ['limitPlans[21].ruleSpec', 'limit.plan.ruleSpecFamilyMismatch'],
      ['limitPlans[22].planKey', 'malformedRequest'],
      ['limitPlans[23].lifecycle', 'limit.plan.lifecycleBackwards'],
    ])
    expect(await counts()).toEqual(before)
  })

  it('a sync deletes only what its namespace owns, through the plan DELETE rules', async () => {
    const owned = { formatVersion: 1, project: 'payments', namespace: 'team-plans', limitPlans: [{ planKey: 'team-draft', family: 'REQUEST_RATE', name: 'Team draft', ruleSpec: rateSpec(5) }, { planKey: 'team-published', family: 'REQUEST_RATE', name: 'Team published', lifecycle: 'PUBLISHED', ruleSpec: rateSpec(6) }] }
    const created = await plan(owned, 'sync')
    expect(created.body.summary).toEqual({ create: 2, update: 0, delete: 0 })
    expect((await apply(created.body.id)).status).toBe(200)
    expect((await call('GET', `${base}/limit-plans/team-published`)).body).toMatchObject({ lifecycle: 'PUBLISHED', currentPublishedRevision: 1 })

    // the published plan cannot be deleted (as its DELETE): the whole plan is refused, nothing written
    const before = await counts()
    const emptied = await plan({ ...owned, limitPlans: [] }, 'sync')
    expect(emptied.body.changes.map((c: any) => [c.action, c.name])).toEqual([['delete', 'team-draft'], ['delete', 'team-published']])
    const refused = await apply(emptied.body.id)
    expect(refused.status).toBe(400)
    expect(refused.body.params.errors).toEqual([expect.objectContaining({ path: 'limitPlans.team-published', reason: 'limit.plan.notDeletable' })])
    expect(await counts()).toEqual(before)

    // retired in the file, the draft one left out: only the namespace's draft goes; gold-tier and draft-budget stay
    const kept = await plan({ ...owned, limitPlans: [{ planKey: 'team-published', lifecycle: 'RETIRED' }] }, 'sync')
    expect(kept.body.changes.map((c: any) => [c.action, c.name])).toEqual([['update', 'team-published'], ['delete', 'team-draft']])
    const done = await apply(kept.body.id)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect((await plans('payments')).map((p) => [p.planKey, p.lifecycle])).toEqual([['draft-budget', 'DRAFT'], ['gold-tier', 'PUBLISHED'], ['team-published', 'RETIRED']])
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: kept.body.id }, select: { objectName: true, declarativeAction: true }, orderBy: { objectName: 'asc' } })
    expect(audit).toEqual([{ objectName: 'team-draft', declarativeAction: 'delete' }, { objectName: 'team-published', declarativeAction: 'update' }])
  })
})
