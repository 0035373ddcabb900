import type { Deps } from '../../../platform/context.js'

// What a policy group adds to the configuration pushed for an API proxy (proxies/automation/deploy.ts): a proxy policy of
// type policy-group names a group of the proxy's project (the vendor's policy-group page adds it by name); it runs
// the group's policies as the group is at push time. A name that names no group runs nothing (an empty list).

export const POLICY_GROUP = 'POLICY_GROUP'

interface Row { apiProxyId: string; type: string; name: string; config: unknown }

/** The rows with each policy-group entry's config carrying its group's targetPipeline and policyList (still sealed). */
export async function expandPolicyGroups<R extends Row>(deps: Pick<Deps, 'prisma'>, rows: R[], projectOf: Map<string, string>): Promise<R[]> {
  const entries = rows.filter((r) => r.type === 'policy-group')
  if (!entries.length) return rows
  const groups = await deps.prisma.storedObject.findMany({ where: { type: POLICY_GROUP, projectId: { in: [...new Set(projectOf.values())] } } })
  const byKey = new Map(groups.map((g) => [`${g.projectId}\u0000${g.name.toLowerCase()}`, (g.content ?? {}) as Record<string, unknown>]))
  return rows.map((r) => {
    if (r.type !== 'policy-group') return r
    const group = byKey.get(`${projectOf.get(r.apiProxyId)}\u0000${r.name.toLowerCase()}`)
    const policyList = group && Array.isArray(group.policyList) ? group.policyList : []
    return { ...r, config: { ...((r.config ?? {}) as object), groupFound: !!group, targetPipeline: group?.targetPipeline ?? null, policyList } }
  })
}
