import type { AiBudget } from '../../generated/prisma/client.js'
import { malformedReason } from '../../platform/errors/domain-error.js'
import type { AdapterContext, Advisory, ObjectRef, PortableObject, TransferAdapter } from '../../platform/transfer/registry.js'
import { storedBudget } from './budget-object.js'
import { PROXY_BINDING_TARGETS, type TargetType } from './chain.js'
import { AI_BUDGETS, redeployProjectBudget, saveBudgetIn } from './service.js'

/**
 * AI budgets (spec §2.9) travel as AI_BUDGET objects (category AI_BUDGETS), named by their target, never by its stored
 * id: `project` (the project's own budget), `apiProxy/<API proxy name>`, `organization/<organization code>`,
 * `binding/<username>/<API proxy name>` (a consumer's API proxy binding, CREDENTIAL_ALLOWED_API_PROXY). `data`: the
 * budget object with every default applied, as PUT answers it, and a binding's budgetSource. Writes go through the
 * budgets service's save (saveBudgetIn: the PUT body's schema, override lists merged, provider references and USD
 * prices checked); a project budget is redeployed after the commit, as PUT does. There is no budget DELETE: a sync
 * cannot delete one (declarativeDeleteUnsupported).
 */
const TYPE = 'AI_BUDGET'

interface Target { type: TargetType; id: string; name: string; dependencies: ObjectRef[] }

/** The natural keys of the project's budget rows (rows whose target is gone are left out). */
async function targetsOf(ctx: AdapterContext, rows: AiBudget[]): Promise<Map<string, Target>> {
  const idsOf = (t: TargetType) => rows.filter((r) => r.targetType === t).map((r) => r.targetId)
  const [proxies, orgs, bindings] = await Promise.all([
    ctx.db.apiProxy.findMany({ where: { id: { in: idsOf('API_PROXY') }, projectId: ctx.access.project.id }, select: { id: true, name: true } }),
    ctx.db.organization.findMany({ where: { id: { in: idsOf('CREDENTIAL_ORGANIZATION') }, projectId: ctx.access.project.id }, select: { id: true, code: true } }),
    ctx.db.entitlement.findMany({ where: { id: { in: idsOf('CREDENTIAL_ALLOWED_API_PROXY') }, projectId: ctx.access.project.id }, select: { id: true, targetRef: true, credential: { select: { username: true } } } }),
  ])
  const out = new Map<string, Target>()
  out.set(`PROJECT:${ctx.access.project.id}`, { type: 'PROJECT', id: ctx.access.project.id, name: 'project', dependencies: [] })
  for (const p of proxies) out.set(`API_PROXY:${p.id}`, { type: 'API_PROXY', id: p.id, name: `apiProxy/${p.name}`, dependencies: [{ type: 'API_PROXY', kind: null, name: p.name }] })
  for (const o of orgs) out.set(`CREDENTIAL_ORGANIZATION:${o.id}`, { type: 'CREDENTIAL_ORGANIZATION', id: o.id, name: `organization/${o.code}`, dependencies: [] })
  for (const b of bindings) {
    if (!b.credential) continue
    out.set(`CREDENTIAL_ALLOWED_API_PROXY:${b.id}`, {
      type: 'CREDENTIAL_ALLOWED_API_PROXY', id: b.id, name: `binding/${b.credential.username}/${b.targetRef}`,
      dependencies: [{ type: 'CREDENTIAL', kind: null, name: b.credential.username }, { type: 'API_PROXY', kind: null, name: b.targetRef }],
    })
  }
  return out
}

/** A natural key back to its target in the project; null when it names nothing there. */
async function resolveName(ctx: AdapterContext, name: string): Promise<{ targetType: TargetType; targetId: string } | null> {
  const projectId = ctx.access.project.id
  if (name === 'project') return { targetType: 'PROJECT', targetId: projectId }
  const [kind, ...rest] = name.split('/')
  if (kind === 'apiProxy' && rest.length) {
    const proxy = await ctx.db.apiProxy.findFirst({ where: { projectId, name: rest.join('/') }, select: { id: true } })
    return proxy ? { targetType: 'API_PROXY', targetId: proxy.id } : null
  }
  if (kind === 'organization' && rest.length === 1) {
    const org = await ctx.db.organization.findFirst({ where: { projectId, code: rest[0] }, select: { id: true } })
    return org ? { targetType: 'CREDENTIAL_ORGANIZATION', targetId: org.id } : null
  }
  if (kind === 'binding' && rest.length >= 2) {
    const [username, ...proxy] = rest
    const binding = await ctx.db.entitlement.findFirst({
      where: { projectId, subjectType: 'CONSUMER', targetType: { in: [...PROXY_BINDING_TARGETS] }, targetRef: proxy.join('/'), credential: { username } },
      orderBy: { id: 'asc' }, select: { id: true },
    })
    return binding ? { targetType: 'CREDENTIAL_ALLOWED_API_PROXY', targetId: binding.id } : null
  }
  return null
}

async function readAll(ctx: AdapterContext): Promise<PortableObject[]> {
  const rows = await ctx.db.aiBudget.findMany({ where: { projectId: ctx.access.project.id } })
  const targets = await targetsOf(ctx, rows)
  const out: PortableObject[] = []
  for (const r of rows) {
    const t = targets.get(`${r.targetType}:${r.targetId}`)
    if (!t) continue
    out.push({
      type: TYPE, kind: null, name: t.name, secrets: {}, dependencies: t.dependencies,
      data: { ...(t.type === 'CREDENTIAL_ALLOWED_API_PROXY' ? { budgetSource: r.budgetSource } : {}), budget: storedBudget(r.budget) },
    })
  }
  return out.sort((a, b) => a.name.localeCompare(b.name))
}

export const aiBudgetTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: AI_BUDGETS,
  kinds: null,
  secretFields: [],
  scope: 'project',
  source: 'budgets',

  async findByName(ctx, name) {
    return (await readAll(ctx)).filter((o) => o.name === name)
  },
  async findManyByName(ctx, refs) {
    const wanted = new Set(refs.map((r) => r.name))
    return (await readAll(ctx)).filter((o) => wanted.has(o.name))
  },
  findAll: (ctx) => readAll(ctx),
  async listNames(ctx) {
    return (await readAll(ctx)).map((o) => o.name)
  },

  /** `apiProxy/orders-api` → `apiProxy_orders-api.zip`: a file name of its own, not a folder */
  packageFileName: (object) => `${object.name.replaceAll('/', '_')}.zip`,

  async write(ctx, object) {
    const target = await resolveName(ctx, object.name)
    if (!target) {
      throw malformedReason('declarativeReferenceMissing', `'${object.name}' names no budget target in the project (project, apiProxy/<name>, organization/<code>, binding/<username>/<API proxy>)`, { field: 'name' })
    }
    const d = object.data
    await saveBudgetIn(ctx.db, ctx.actor, ctx.access, { ...target, ...(d.budgetSource != null ? { budgetSource: d.budgetSource } : {}), budget: d.budget ?? {} })
    return []
  },

  /** After the commit: a written project budget is redeployed (the project's AI budget pushed), as PUT does. */
  async afterImport(deps, access, written): Promise<Advisory[]> {
    if (!written.some((w) => w.type === TYPE && w.name === 'project')) return []
    const outcome = await redeployProjectBudget(deps, access)
    return outcome && !outcome.success ? [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: ['project'], reason: outcome.message } }] : []
  },
}
