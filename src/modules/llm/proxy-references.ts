import type { Tx } from '../../platform/context.js'
import { nameKeyOf } from './common.js'

export interface ProviderRef { projectId: string; providerName: string }

const refKey = (projectId: string, providerName: string) => `${projectId}\u0000${nameKeyOf(providerName)}`

/**
 * usedByRefs of many providers in one query (spec §2.7): for each, the names of the AI proxies of its project
 * whose routing references it, compared case-insensitively as provider names are, sorted by name. The rows
 * are those the API proxy module writes (AiProxyProviderRef); its `proxiesReferencingProvider` answers the
 * same question for one provider, this is the batched form the GraphQL list needs (one query per request).
 */
export async function aiProxiesUsingProviders(db: Tx, refs: readonly ProviderRef[]): Promise<string[][]> {
  if (!refs.length) return []
  const projectIds = [...new Set(refs.map((r) => r.projectId))]
  const names = [...new Set(refs.map((r) => nameKeyOf(r.providerName)))]
  const rows = await db.aiProxyProviderRef.findMany({
    where: { apiProxy: { projectId: { in: projectIds } }, OR: names.map((n) => ({ providerName: { equals: n, mode: 'insensitive' as const } })) },
    select: { providerName: true, apiProxy: { select: { projectId: true, name: true } } },
  })
  const byProvider = new Map<string, Set<string>>()
  for (const row of rows) {
    const key = refKey(row.apiProxy.projectId, row.providerName)
    byProvider.set(key, (byProvider.get(key) ?? new Set()).add(row.apiProxy.name))
  }
  return refs.map((r) => [...(byProvider.get(refKey(r.projectId, r.providerName)) ?? [])].sort((a, b) => a.localeCompare(b)))
}

/** usedByRefs of one provider (the single-provider read). */
export async function aiProxiesUsingProvider(db: Tx, projectId: string, providerName: string): Promise<string[]> {
  return (await aiProxiesUsingProviders(db, [{ projectId, providerName }]))[0]
}
