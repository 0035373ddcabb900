import type { Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { storedBudget, type Budget } from './budget-object.js'
import { PROXY_BINDING_TARGETS, type BudgetSource, type TargetType } from './chain.js'
import { budgetAccess, budgetView, type BudgetView } from './service.js'

// The two read-only views of a project's budgets (spec §4.5 "not shown"; shapes in docs/ai-budgets.md):
// the budget tree rooted at the project, and the flat list of budget scope rules.

export type HierarchyNodeType = 'PROJECT' | 'API_PROXY' | 'CREDENTIAL_ORGANIZATION' | 'CREDENTIAL' | 'CREDENTIAL_ALLOWED_API_PROXY'

export interface HierarchyNode {
  nodeType: HierarchyNodeType
  /** entity id: what targetId and the effective-limit nodeId take */
  nodeId: string
  name: string
  /** organization code, credential username or API proxy name: the name the other surfaces use */
  key: string
  /** the budget saved on this node; null when none (credentials carry theirs on their bindings) */
  budget: Budget | null
  /** only for CREDENTIAL_ALLOWED_API_PROXY: INHERIT unless saved otherwise */
  budgetSource: BudgetSource | null
  children: HierarchyNode[]
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)

async function projectBudgets(db: Tx, projectId: string) {
  const rows = await db.aiBudget.findMany({ where: { projectId } })
  return new Map(rows.map((r) => [`${r.targetType}:${r.targetId}`, r]))
}

/**
 * GET …/ai-budgets/hierarchy/: PROJECT → its API proxies, its root organizations (→ child organizations
 * and their credentials), the credentials without organization; every credential → its API proxy
 * bindings (CREDENTIAL_ALLOWED_API_PROXY). Siblings: API proxies, organizations, credentials, each by name.
 */
export async function budgetHierarchy(db: Tx, actor: Actor, projectName: string): Promise<HierarchyNode> {
  const { project } = await budgetAccess(db, actor, projectName, 'VIEW')
  const [budgets, proxies, orgs, credentials, bindings] = await Promise.all([
    projectBudgets(db, project.id),
    db.apiProxy.findMany({ where: { projectId: project.id }, select: { id: true, name: true } }),
    db.organization.findMany({ where: { projectId: project.id }, select: { id: true, name: true, code: true, parentId: true } }),
    db.credential.findMany({ where: { projectId: project.id }, select: { id: true, username: true, organizationId: true } }),
    db.entitlement.findMany({
      where: { projectId: project.id, subjectType: 'CONSUMER', targetType: { in: [...PROXY_BINDING_TARGETS] }, credentialId: { not: null } },
      select: { id: true, credentialId: true, targetRef: true, environmentRef: true },
    }),
  ])
  const stored = (type: TargetType, id: string) => budgets.get(`${type}:${id}`)
  const node = (nodeType: HierarchyNodeType, nodeId: string, name: string, key: string, children: HierarchyNode[] = []): HierarchyNode => {
    const row = nodeType === 'CREDENTIAL' ? undefined : stored(nodeType, nodeId)
    return {
      nodeType, nodeId, name, key,
      budget: storedBudget(row?.budget),
      budgetSource: nodeType === 'CREDENTIAL_ALLOWED_API_PROXY' ? (row?.budgetSource ?? 'INHERIT') : null,
      children,
    }
  }

  const bindingsOf = new Map<string, HierarchyNode[]>()
  for (const b of bindings) {
    const label = b.environmentRef ? `${b.targetRef} (${b.environmentRef})` : b.targetRef
    const list = bindingsOf.get(b.credentialId!) ?? []
    list.push(node('CREDENTIAL_ALLOWED_API_PROXY', b.id, label, b.targetRef))
    bindingsOf.set(b.credentialId!, list)
  }
  const credentialNode = (c: (typeof credentials)[number]) =>
    node('CREDENTIAL', c.id, c.username, c.username, (bindingsOf.get(c.id) ?? []).sort(byName))
  const knownOrgs = new Set(orgs.map((o) => o.id))
  const orgNode = (o: (typeof orgs)[number], seen: Set<string>): HierarchyNode => {
    seen.add(o.id)
    const children = [
      ...orgs.filter((c) => c.parentId === o.id && !seen.has(c.id)).sort(byName).map((c) => orgNode(c, seen)),
      ...credentials.filter((c) => c.organizationId === o.id).map(credentialNode).sort(byName),
    ]
    return node('CREDENTIAL_ORGANIZATION', o.id, o.name, o.code, children)
  }
  const seen = new Set<string>()
  return node('PROJECT', project.id, project.name, project.name, [
    ...proxies.map((p) => node('API_PROXY', p.id, p.name, p.name)).sort(byName),
    ...orgs.filter((o) => !o.parentId || !knownOrgs.has(o.parentId)).sort(byName).map((o) => orgNode(o, seen)),
    ...credentials.filter((c) => !c.organizationId || !knownOrgs.has(c.organizationId)).map(credentialNode).sort(byName),
  ])
}

const SCOPE_ORDER: TargetType[] = ['PROJECT', 'API_PROXY', 'CREDENTIAL_ORGANIZATION', 'CREDENTIAL_ALLOWED_API_PROXY']

/**
 * GET …/ai-budgets/scope-rules/: every budget saved in the project whose target still exists, as a flat
 * list of BudgetView rows ordered PROJECT, API_PROXY, CREDENTIAL_ORGANIZATION,
 * CREDENTIAL_ALLOWED_API_PROXY, then by target name.
 */
export async function budgetScopeRules(db: Tx, actor: Actor, projectName: string): Promise<BudgetView[]> {
  const { project } = await budgetAccess(db, actor, projectName, 'VIEW')
  const rows = await db.aiBudget.findMany({ where: { projectId: project.id } })
  const ids = (type: TargetType) => rows.filter((r) => r.targetType === type).map((r) => r.targetId)
  const [proxies, orgs, bindings] = await Promise.all([
    db.apiProxy.findMany({ where: { projectId: project.id, id: { in: ids('API_PROXY') } }, select: { id: true, name: true } }),
    db.organization.findMany({ where: { projectId: project.id, id: { in: ids('CREDENTIAL_ORGANIZATION') } }, select: { id: true, name: true } }),
    db.entitlement.findMany({
      where: { projectId: project.id, id: { in: ids('CREDENTIAL_ALLOWED_API_PROXY') } },
      select: { id: true, targetRef: true, credential: { select: { username: true } } },
    }),
  ])
  const names = new Map<string, string>([
    [`PROJECT:${project.id}`, project.name],
    ...proxies.map((p) => [`API_PROXY:${p.id}`, p.name] as [string, string]),
    ...orgs.map((o) => [`CREDENTIAL_ORGANIZATION:${o.id}`, o.name] as [string, string]),
    ...bindings.map((b) => [`CREDENTIAL_ALLOWED_API_PROXY:${b.id}`, `${b.credential?.username ?? '?'} → ${b.targetRef}`] as [string, string]),
  ])
  return rows
    .filter((r) => names.has(`${r.targetType}:${r.targetId}`))
    .map((r) => budgetView(r, names.get(`${r.targetType}:${r.targetId}`)!))
    .sort((a, b) => SCOPE_ORDER.indexOf(a.targetType) - SCOPE_ORDER.indexOf(b.targetType) || a.targetName.localeCompare(b.targetName))
}
