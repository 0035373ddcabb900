import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { declarativeDoors } from './support.js'

// Issue 29 §1–§4 for the `budgets` collection (AI budgets, spec §2.9): named by their target's natural key (`project`,
// `apiProxy/<name>`, `organization/<code>`, `binding/<username>/<proxy>`), never by the target's stored id; written
// through the budgets service's save (the PUT body's schema and checks). A dump plans to zero changes (no drift from
// the defaults the service fills), syncs into a new project (with the proxy it names) with the same budgets; an invalid
// object is refused with its field path, nothing written; a changed project budget is audited once and redeployed to
// the project's environments after the commit; ownership by namespace; no budget DELETE, so no delete by a sync.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const base = '/apiops/projects/payments'

const { call, plan, apply } = declarativeDoors(bed)
const db = () => bed.svc.deps.prisma

/** A project's budgets by target kind and name, as stored (what the effective-limit reads use). */
async function budgets(project: string) {
  const p = await db().project.findUniqueOrThrow({ where: { name: project } })
  const rows = await db().aiBudget.findMany({ where: { projectId: p.id } })
  const out = []
  for (const r of rows) {
    const target = r.targetType === 'PROJECT' ? 'project' : r.targetType === 'API_PROXY' ? `apiProxy/${(await db().apiProxy.findUniqueOrThrow({ where: { id: r.targetId } })).name}` : `${r.targetType}/${r.targetId}`
    out.push({ target, budget: r.budget })
  }
  return out.sort((a, b) => a.target.localeCompare(b.target))
}
const counts = async () => ({ budgets: await db().aiBudget.count(), revisions: (await db().aiBudget.aggregate({ _sum: { revision: true } }))._sum.revision, audit: await db().auditEvent.count({ where: { declarativePlanId: { not: null } } }) })

describe('AI budgets as a declarative collection', { timeout: 180_000 }, () => {
  it('dumps budgets by target name; the dump plans to 0 changes and syncs into a new project with the same budgets', async () => {
    const project = await db().project.findUniqueOrThrow({ where: { name: 'payments' } })
    const proxy = await db().apiProxy.findFirstOrThrow({ where: { projectId: project.id, name: 'orders-api' } })
    expect((await call('PUT', `${base}/ai-budgets/`, { targetType: 'PROJECT', targetId: project.id, budget: { enabled: true, tokensPerDay: 100000 } })).status).toBe(200)
    expect((await call('PUT', `${base}/ai-budgets/`, { targetType: 'API_PROXY', targetId: proxy.id, budget: { enabled: true, tokensPerHour: 500, softCapPercents: [80] } })).status).toBe(200)

    const dump = await call('GET', `${base}/declarative-state?collections=apiProxies,budgets`)
    expect(dump.status, JSON.stringify(dump.body)).toBe(200)
    expect(dump.body.budgets.map((b: any) => b.name)).toEqual(['apiProxy/orders-api', 'project'])
    expect(dump.body.budgets[1].budget).toMatchObject({ enabled: true, tokensPerDay: 100000, hardCapPercent: 100, modelBudgets: [] })
    expect(JSON.stringify(dump.body.budgets)).not.toContain(project.id)
    expect(JSON.stringify(dump.body.budgets)).not.toContain(proxy.id)
    const self = await plan(dump.body, 'sync')
    expect(self.status, JSON.stringify(self.body)).toBe(200)
    expect(self.body).toMatchObject({ changes: [], summary: { create: 0, update: 0, delete: 0 } })
    // a hand-written budget with the service's defaults left out is no drift either
    expect((await plan({ formatVersion: 1, project: 'payments', budgets: [{ name: 'project', budget: { enabled: true, tokensPerDay: 100000 } }] })).body.summary).toEqual({ create: 0, update: 0, delete: 0 })

    await bed.svc.graphql('mutation { createProject(input: { name: "budgets-copy", environments: ["dev"] }) { name } }', {}, bed.root)
    const p = await plan({ ...dump.body, project: 'budgets-copy' }, 'sync', 'budgets-copy')
    expect(p.status, JSON.stringify(p.body)).toBe(200)
    expect(p.body.changes.map((c: any) => [c.action, c.type, c.name])).toEqual([['create', 'apiProxies', 'orders-api'], ['create', 'budgets', 'apiProxy/orders-api'], ['create', 'budgets', 'project']])
    const applied = await apply(p.body.id, 'budgets-copy')
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(await budgets('budgets-copy')).toEqual(await budgets('payments'))
    const again = await call('GET', '/apiops/projects/budgets-copy/declarative-state?collections=apiProxies,budgets')
    expect((await plan(again.body, 'sync', 'budgets-copy')).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('a changed project budget is audited once and redeployed after the commit', async () => {
    bed.dev.received.length = 0
    const doc = { formatVersion: 1, project: 'payments', budgets: [{ name: 'project', budget: { tokensPerDay: 250000 } }] }
    const p = await plan(doc)
    expect(p.body.changes).toEqual([expect.objectContaining({ action: 'update', type: 'budgets', name: 'project', fields: ['budget.tokensPerDay'] })])
    const applied = await apply(p.body.id)
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body.pushes).toEqual([{ type: 'budgets', name: 'project', success: true }])
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'DEPLOY', kind: 'PROJECT', name: 'payments', config: { aiBudget: expect.objectContaining({ tokensPerDay: 250000, enabled: true }) } })])
    const audit = await db().auditEvent.findMany({ where: { declarativePlanId: p.body.id }, select: { objectType: true, objectName: true, declarativeAction: true } })
    expect(audit).toEqual([{ objectType: 'budgets', objectName: 'project', declarativeAction: 'update' }])
    expect((await plan(doc)).body.summary).toEqual({ create: 0, update: 0, delete: 0 })
  })

  it('refuses invalid objects with their field paths and writes nothing', async () => {
    const before = await counts()
    const shape = await plan({ formatVersion: 1, project: 'payments', budgets: [{ name: 'project', budget: { tokensPerDay: 0 } }] })
    expect(shape.status).toBe(400)
    expect(shape.body.params).toMatchObject({ reason: 'declarativeDocumentInvalid', field: 'document.budgets[0].budget.tokensPerDay' })
    const refused = await plan({ formatVersion: 1, project: 'payments', budgets: [
      { name: 'project', budget: { tokensPerDay: 1 } },
      { name: 'apiProxy/nowhere', budget: { tokensPerDay: 5 } },
      { name: 'organization/acme', budgetSource: 'CREDENTIAL', budget: { tokensPerDay: 5 } },
    ] })
    expect(refused.status, JSON.stringify(refused.body)).toBe(200)
    const applied = await apply(refused.body.id)
    expect(applied.status).toBe(400)
    expect(applied.body.params.errors.map((e: any) => [e.path, e.reason])).toEqual([
      ['budgets[1].name', 'declarativeReferenceMissing'],
      ['budgets[2].budgetSource', 'malformedRequest'],
    ])
    expect(await counts()).toEqual(before)
  })

  it('ownership: another namespace cannot update a budget one namespace owns; a sync cannot delete a budget (no DELETE)', async () => {
    const owned = await plan({ formatVersion: 1, project: 'payments', namespace: 'team-ai', budgets: [{ name: 'organization/acme', budget: { enabled: true, tokensPerMonth: 9000 } }] }, 'sync')
    expect(owned.body.summary).toEqual({ create: 1, update: 0, delete: 0 })
    expect((await apply(owned.body.id)).status).toBe(200)
    const other = await plan({ formatVersion: 1, project: 'payments', namespace: 'team-other', budgets: [{ name: 'organization/acme', budget: { tokensPerMonth: 1 } }] })
    expect(other.status).toBe(400)
    expect(other.body.params).toMatchObject({ reason: 'declarativeOwnershipConflict', field: 'document.budgets[0]' })
    // the namespace's own sync without it: budgets have no DELETE, so the plan is refused, naming the collection
    const emptied = await plan({ formatVersion: 1, project: 'payments', namespace: 'team-ai', budgets: [] }, 'sync')
    expect(emptied.status).toBe(400)
    expect(emptied.body.params.reason).toBe('declarativeDeleteUnsupported')
    expect((await budgets('payments')).map((b) => b.target)).toContain('CREDENTIAL_ORGANIZATION/' + (await db().organization.findFirstOrThrow({ where: { code: 'acme' } })).id)
  })
})
