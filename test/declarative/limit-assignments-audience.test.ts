import { beforeAll, describe, expect, it } from 'vitest'
import { sampleBootstrap } from '../support/fixtures.js'
import { useTestbed } from '../support/testbed.js'
import { key, limitsBootstrap, rateSpec } from '../limits/limit-plans-helpers.js'
import { declarativeDoors } from './support.js'

// Issue 29, AUDIENCE_RULE limit assignments in the `limitAssignments` collection: an audience rule is its own scope,
// so the file names it by a label it chooses (the subject's key: `AUDIENCE_RULE/<label>/<family>/<actorScope>/<target>`);
// a rule created by REST has no label and is named by its bindingKey. Dump, plan (no false drift), apply/sync create,
// update and delete (end), and every refusal with its field path and nothing written.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' }, bootstrap: (w) => limitsBootstrap(sampleBootstrap(w)) })
const base = '/apiops/projects/payments'
const { call, plan, apply } = declarativeDoors(bed)

const PARTNERS = 'AUDIENCE_RULE/partners/REQUEST_RATE/ANY/API_ENDPOINT//aud'
const partners = (extra: object = {}) => ({
  name: PARTNERS, subject: { type: 'AUDIENCE_RULE', key: 'partners' }, family: 'REQUEST_RATE', target: { type: 'API_ENDPOINT', targetKey: '/aud' },
  planKeys: ['silver-tier'], audienceRule: { operator: 'IN', value: ['gold', 'silver'] }, ...extra,
})
const doc = (limitAssignments: object[], extra: object = {}) => ({ formatVersion: 1, project: 'payments', limitAssignments, ...extra })
const audienceRows = () => bed.svc.deps.prisma.limitAssignment.findMany({ where: { subjectType: 'AUDIENCE_RULE' }, orderBy: { bindingKey: 'asc' } })
const counts = async () => {
  const db = bed.svc.deps.prisma
  return { assignments: await db.limitAssignment.count(), live: await db.limitAssignment.count({ where: { status: { not: 'ENDED' } } }), audit: await db.auditEvent.count({ where: { declarativePlanId: { not: null } } }) }
}
let restKey = ''

beforeAll(async () => {
  expect((await call('POST', `${base}/limit-plans`, { family: 'REQUEST_RATE', name: 'Silver Tier', initialRuleSpec: rateSpec(50) }, { 'idempotency-key': key() })).status).toBe(201)
  expect((await call('POST', `${base}/limit-plans/silver-tier/revisions/1/actions/publish`, {})).status).toBe(200)
  const a = await call('POST', `${base}/limit-assignments`, {
    subject: { type: 'AUDIENCE_RULE' }, audienceRule: { operator: 'EQ', value: 'beta' },
    content: { family: 'REQUEST_RATE', planKeys: ['silver-tier'], target: { type: 'API_ENDPOINT', targetKey: '/rest' } },
  }, { 'idempotency-key': key() })
  expect(a.status, JSON.stringify(a.body)).toBe(201)
  restKey = a.body.bindingKey
})

describe('AUDIENCE_RULE limit assignments as declarative objects', { timeout: 180_000 }, () => {
  it('a REST-made rule is dumped under its bindingKey; the dump plans to 0 changes and copies into a new project', async () => {
    const dump = await call('GET', `${base}/declarative-state?collections=limitPlans,limitAssignments`)
    expect(dump.status, JSON.stringify(dump.body)).toBe(200)
    const name = `AUDIENCE_RULE/${restKey}/REQUEST_RATE/ANY/API_ENDPOINT//rest`
    const rest = dump.body.limitAssignments.find((a: any) => a.name === name)
    expect(rest).toMatchObject({
      subject: { type: 'AUDIENCE_RULE', key: restKey }, planKeys: ['silver-tier'], status: 'DRAFT',
      audienceRule: { identitySource: 'AUTH_RESOLVED', variableId: null, operator: 'EQ', value: 'beta', outOfTargetAction: 'BLOCK', generalQuotaMode: null, generalQuotaWindows: null },
    })
    const self = await plan(dump.body, 'sync')
    expect(self.body, JSON.stringify(self.body)).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })

    await bed.svc.graphql('mutation { createProject(input: { name: "aud-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    const copy = await plan({ ...dump.body, project: 'aud-copy', limitAssignments: [rest] }, 'sync', 'aud-copy')
    expect(copy.status, JSON.stringify(copy.body)).toBe(200)
    const applied = await apply(copy.body.id, 'aud-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    // the copy keeps the name: the label is the source's bindingKey, the copy's own bindingKey is minted
    const again = await call('GET', '/apiops/projects/aud-copy/declarative-state?collections=limitPlans,limitAssignments')
    expect(again.body.limitAssignments.map((a: any) => a.name)).toEqual([name])
    const row = await bed.svc.deps.prisma.limitAssignment.findFirstOrThrow({ where: { project: { name: 'aud-copy' }, subjectType: 'AUDIENCE_RULE' } })
    expect(row).toMatchObject({ audienceRuleName: restKey, audienceRule: rest.audienceRule, status: 'DRAFT' })
    expect(row.bindingKey).not.toBe(restKey)
    expect((await plan(again.body, 'sync', 'aud-copy')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('creates a rule by its label, plans a short file as no drift, updates its rule and ends it on sync', async () => {
    const ns = { namespace: 'team-aud' }
    bed.dev.received.length = 0
    const created = await plan(doc([partners({ status: 'ACTIVE' })], ns), 'sync')
    expect(created.body.changes.map((c: any) => [c.action, c.name]), JSON.stringify(created.body)).toEqual([['create', PARTNERS]])
    const done = await apply(created.body.id)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.pushFailed).toBe(false)
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ action: 'DEPLOY' }))
    const [row] = (await audienceRows()).filter((r) => r.audienceRuleName === 'partners')
    expect(row).toMatchObject({ status: 'ACTIVE', planKeys: ['silver-tier'], audienceRule: { operator: 'IN', value: ['gold', 'silver'], outOfTargetAction: 'BLOCK', identitySource: 'AUTH_RESOLVED' } })
    const rest = await call('GET', `${base}/limit-assignments/${row!.bindingKey}`)
    expect(rest.body).toMatchObject({ subject: { type: 'AUDIENCE_RULE' }, status: 'ACTIVE', audienceRule: { operator: 'IN' } })

    // the rule's defaults left out, the file's short form: no change
    expect((await plan(doc([partners({ status: 'ACTIVE' })], ns), 'sync')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })

    const changed = await plan(doc([partners({ status: 'ACTIVE', audienceRule: { operator: 'IN', value: ['gold'], outOfTargetAction: 'NONE' } })], ns), 'sync')
    expect(changed.body.changes.map((c: any) => [c.action, c.name, c.fields]), JSON.stringify(changed.body)).toEqual([['update', PARTNERS, ['audienceRule.outOfTargetAction', 'audienceRule.value']]])
    bed.dev.received.length = 0
    expect((await apply(changed.body.id)).status).toBe(200)
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ action: 'DEPLOY' }))
    const updated = await bed.svc.deps.prisma.limitAssignment.findUniqueOrThrow({ where: { id: row!.id } })
    expect(updated).toMatchObject({ bindingKey: row!.bindingKey, version: row!.version + 1, audienceRule: { value: ['gold'], outOfTargetAction: 'NONE' } })

    const emptied = await plan(doc([], ns), 'sync')
    expect(emptied.body.changes.map((c: any) => [c.action, c.name])).toEqual([['delete', PARTNERS]])
    bed.dev.received.length = 0
    expect((await apply(emptied.body.id)).status).toBe(200)
    expect(bed.dev.received).toContainEqual(expect.objectContaining({ action: 'UNDEPLOY' }))
    expect(await bed.svc.deps.prisma.limitAssignment.findUniqueOrThrow({ where: { id: row!.id } })).toMatchObject({ status: 'ENDED', endedReason: 'REMOVED_BY_DECLARATIVE_SYNC', liveScopeKey: null })
    const audit = await bed.svc.deps.prisma.auditEvent.findMany({ where: { declarativePlanId: { in: [created.body.id, changed.body.id, emptied.body.id] } }, select: { objectName: true, declarativeAction: true } })
    expect(audit.map((a) => a.declarativeAction).sort()).toEqual(['create', 'delete', 'update'])
    expect(new Set(audit.map((a) => a.objectName))).toEqual(new Set([PARTNERS]))
  })

  it('refuses bad labels, rules and clashes with their field paths and writes nothing', async () => {
    const made = await apply((await plan(doc([partners({ name: 'AUDIENCE_RULE/vip/REQUEST_RATE/ANY/API_ENDPOINT//aud', subject: { type: 'AUDIENCE_RULE', key: 'vip' } })]))).body.id)
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const before = await counts()
    const p = await plan(doc([
      partners({ name: 'AUDIENCE_RULE/a/b/REQUEST_RATE/ANY/API_ENDPOINT//aud', subject: { type: 'AUDIENCE_RULE', key: 'a/b' } }),
      partners({ name: 'AUDIENCE_RULE/bad/REQUEST_RATE/ANY/API_ENDPOINT//aud', subject: { type: 'AUDIENCE_RULE', key: 'bad' }, audienceRule: { operator: 'IN', value: 'not-a-list' } }),
      partners({ name: 'AUDIENCE_RULE/none/REQUEST_RATE/ANY/API_ENDPOINT//aud', subject: { type: 'AUDIENCE_RULE', key: 'none' }, audienceRule: undefined }),
      partners({ name: 'AUDIENCE_RULE/ai/AI_TOKEN_BUDGET/ANY/API_ENDPOINT//aud', subject: { type: 'AUDIENCE_RULE', key: 'ai' }, family: 'AI_TOKEN_BUDGET', planKeys: [] }),
      partners({ name: 'CONSUMER/mobile-app/REQUEST_RATE/ANY/API_ENDPOINT//aud', subject: { type: 'CONSUMER', key: 'mobile-app' } }),
      partners({ name: 'AUDIENCE_RULE/wrong' }),
    ]))
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.summary).toEqual({ create: 6, update: 0, delete: 0 })
    const refused = await apply(p.body.id)
    expect(refused.status, JSON.stringify(refused.body)).toBe(400)
    expect(refused.body).toMatchObject({ errorKey: 'malformedRequest', params: { reason: 'declarativeApplyRefused', field: 'limitAssignments[0].subject.key' } })
    expect(refused.body.params.errors.map((e: any) => [e.path, e.reason])).toEqual([
      ['limitAssignments[0].subject.key', 'declarativeNameInvalid'],
      ['limitAssignments[1].audienceRule.value', 'limit.binding.audienceRuleShape'],
      ['limitAssignments[2].audienceRule', 'limit.binding.audienceRuleShape'],
      ['limitAssignments[3].family', 'limit.binding.audienceRuleFamily'],
      ['limitAssignments[4].audienceRule', 'limit.binding.audienceRuleShape'],
      ['limitAssignments[5].name', 'declarativeNameMismatch'],
    ])
    expect(await counts()).toEqual(before)

    // the same label and scope as a live rule: the scope clash of any assignment (the live rule's key named)
    const vip = (await audienceRows()).find((r) => r.audienceRuleName === 'vip' && r.status !== 'ENDED')!
    await bed.svc.deps.prisma.limitAssignment.update({ where: { id: vip.id }, data: { audienceRuleName: 'vip2' } })
    try {
      const clash = await plan(doc([partners({ name: 'AUDIENCE_RULE/vip/REQUEST_RATE/ANY/API_ENDPOINT//aud', subject: { type: 'AUDIENCE_RULE', key: 'vip' } })]))
      expect(clash.body.summary, JSON.stringify(clash.body)).toEqual({ create: 1, update: 0, delete: 0 })
      const res = await apply(clash.body.id)
      expect(res.status, JSON.stringify(res.body)).toBe(400)
      expect(res.body.params.errors).toEqual([expect.objectContaining({ path: 'limitAssignments[0]', reason: 'limit.binding.scopeAlreadyBound' })])
      expect(await counts()).toEqual(before)
    } finally {
      await bed.svc.deps.prisma.limitAssignment.update({ where: { id: vip.id }, data: { audienceRuleName: 'vip' } })
    }
  })
})
