import type { AiBudget } from '../../generated/prisma/client.js'
import type { Tx } from '../../platform/context.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { storedBudget, type Budget } from './budget-object.js'
import { readAiSettings } from './settings.js'

// The one resolver of budget nodes and their chains (spec §2.9): the save-time checks use it to find a
// target and the scope it covers, the effective-limit preview to walk the chain above a node.

export const TARGET_TYPES = ['CREDENTIAL_ORGANIZATION', 'API_PROXY', 'PROJECT', 'CREDENTIAL_ALLOWED_API_PROXY'] as const
export type TargetType = (typeof TARGET_TYPES)[number]
export const NODE_TYPES = ['CREDENTIAL', 'CREDENTIAL_ORGANIZATION', 'API_PROXY', 'PROJECT'] as const
export type NodeType = (typeof NODE_TYPES)[number]
export const BUDGET_SOURCES = ['CREDENTIAL', 'ORGANIZATION', 'INHERIT'] as const
export type BudgetSource = (typeof BUDGET_SOURCES)[number]

/** Entitlement target types that bind a credential to one API proxy (CREDENTIAL_ALLOWED_API_PROXY). */
export const PROXY_BINDING_TARGETS = ['API_PROXY', 'API_PROXY_ENV'] as const

/** Organizations deeper than this are treated as a broken tree (a cycle), never walked further. */
const MAX_ORG_DEPTH = 64

/** A budget-bearing level of a chain: the entity and its stored budget (null when it has none). */
export interface ChainLevel {
  type: TargetType
  id: string
  name: string
  budget: Budget | null
}

export interface OrgLevel extends ChainLevel { code: string; state: string; suspended: boolean }

export interface BindingLevel extends ChainLevel {
  budgetSource: BudgetSource
  status: string
  credentialId: string
  apiProxyName: string
}

/** A resolved node with everything above it, nearest first. */
export interface BudgetChain {
  project: { id: string; name: string }
  nodeType: NodeType | 'CREDENTIAL_ALLOWED_API_PROXY'
  nodeId: string
  nodeName: string
  credential: { id: string; username: string; enabled: boolean; revoked: boolean } | null
  binding: BindingLevel | null
  /** the node's organization (for a credential: its organization) and its ancestors, nearest first */
  organizations: OrgLevel[]
  apiProxy: ChainLevel | null
  /** the project's own budget row (null when it has none) */
  projectBudget: ChainLevel
  /** the installation-wide default budget, which caps a project without a budget of its own */
  settingsDefault: Budget
}

const unresolved = (nodeType: string, nodeId: string, projectName: string) =>
  malformed(`${nodeType} '${nodeId}' not found in project '${projectName}'`, { nodeType, nodeId })

async function budgetsOf(db: Tx, keys: { type: TargetType; id: string }[]): Promise<Map<string, AiBudget>> {
  if (!keys.length) return new Map()
  const rows = await db.aiBudget.findMany({ where: { OR: keys.map((k) => ({ targetType: k.type, targetId: k.id })) } })
  return new Map(rows.map((r) => [`${r.targetType}:${r.targetId}`, r]))
}

async function organizationChain(db: Tx, projectId: string, firstId: string | null): Promise<Omit<OrgLevel, 'budget'>[]> {
  const chain: Omit<OrgLevel, 'budget'>[] = []
  let nextId = firstId
  while (nextId && chain.length < MAX_ORG_DEPTH && !chain.some((o) => o.id === nextId)) {
    const org = await db.organization.findFirst({ where: { id: nextId, projectId } })
    if (!org) break
    chain.push({ type: 'CREDENTIAL_ORGANIZATION', id: org.id, name: org.name, code: org.code, state: org.state, suspended: org.suspended })
    nextId = org.parentId
  }
  return chain
}

/**
 * Resolves a node of the project by entity id: a PROJECT (the path project's id), an API_PROXY, a
 * CREDENTIAL_ORGANIZATION, a CREDENTIAL (a credential id, or the id of one of its API proxy bindings for
 * the full chain with its leaf) or a CREDENTIAL_ALLOWED_API_PROXY binding. A node outside the project
 * or of another kind does not resolve: 400 naming it.
 */
export async function resolveBudgetChain(db: Tx, project: { id: string; name: string }, nodeType: string, nodeId: string): Promise<BudgetChain> {
  const fail = () => unresolved(nodeType, nodeId, project.name)
  let nodeName = project.name
  let credential: BudgetChain['credential'] = null
  let binding: Omit<BindingLevel, 'budget'> | null = null
  let firstOrgId: string | null = null
  let proxy: { id: string; name: string } | null = null

  switch (nodeType) {
    case 'PROJECT':
      if (nodeId !== project.id) throw fail()
      break
    case 'API_PROXY': {
      proxy = await db.apiProxy.findFirst({ where: { id: nodeId, projectId: project.id }, select: { id: true, name: true } })
      if (!proxy) throw fail()
      nodeName = proxy.name
      break
    }
    case 'CREDENTIAL_ORGANIZATION': {
      const org = await db.organization.findFirst({ where: { id: nodeId, projectId: project.id }, select: { id: true, name: true } })
      if (!org) throw fail()
      firstOrgId = org.id
      nodeName = org.name
      break
    }
    case 'CREDENTIAL':
    case 'CREDENTIAL_ALLOWED_API_PROXY': {
      const entitlement = await db.entitlement.findFirst({
        where: { id: nodeId, projectId: project.id, subjectType: 'CONSUMER', targetType: { in: [...PROXY_BINDING_TARGETS] }, credentialId: { not: null } },
      })
      const credentialId = entitlement?.credentialId ?? (nodeType === 'CREDENTIAL' ? nodeId : null)
      const row = credentialId ? await db.credential.findFirst({ where: { id: credentialId, projectId: project.id } }) : null
      if (!row) throw fail()
      credential = { id: row.id, username: row.username, enabled: row.enabled, revoked: row.revokedAt !== null }
      firstOrgId = row.organizationId
      nodeName = row.username
      if (entitlement) {
        proxy = await db.apiProxy.findFirst({ where: { projectId: project.id, name: entitlement.targetRef }, select: { id: true, name: true } })
        binding = {
          type: 'CREDENTIAL_ALLOWED_API_PROXY',
          id: entitlement.id,
          name: `${row.username} → ${entitlement.targetRef}`,
          budgetSource: 'INHERIT',
          status: entitlement.status,
          credentialId: row.id,
          apiProxyName: entitlement.targetRef,
        }
        nodeName = binding.name
      }
      break
    }
    default:
      throw fail()
  }

  const orgs = await organizationChain(db, project.id, firstOrgId)
  const budgets = await budgetsOf(db, [
    { type: 'PROJECT', id: project.id },
    ...(proxy ? [{ type: 'API_PROXY' as const, id: proxy.id }] : []),
    ...orgs.map((o) => ({ type: o.type, id: o.id })),
    ...(binding ? [{ type: binding.type, id: binding.id }] : []),
  ])
  const budgetOf = (type: TargetType, id: string) => storedBudget(budgets.get(`${type}:${id}`)?.budget)
  const bindingRow = binding ? budgets.get(`${binding.type}:${binding.id}`) : undefined
  return {
    project,
    nodeType: nodeType as BudgetChain['nodeType'],
    nodeId,
    nodeName,
    credential,
    binding: binding ? { ...binding, budgetSource: (bindingRow?.budgetSource as BudgetSource | null) ?? 'INHERIT', budget: budgetOf(binding.type, binding.id) } : null,
    organizations: orgs.map((o) => ({ ...o, budget: budgetOf(o.type, o.id) })),
    apiProxy: proxy ? { type: 'API_PROXY', id: proxy.id, name: proxy.name, budget: budgetOf('API_PROXY', proxy.id) } : null,
    projectBudget: { type: 'PROJECT', id: project.id, name: project.name, budget: budgetOf('PROJECT', project.id) },
    settingsDefault: (await readAiSettings(db)).defaultBudget,
  }
}
