import type { Tx } from '../../../platform/context.js'

/**
 * Names of the AI proxies of a project whose routing references the LLM provider `providerName`
 * (compared case-insensitively, as provider names are), sorted by name. Used for the provider's usedByRefs.
 */
export async function proxiesReferencingProvider(db: Tx, projectId: string, providerName: string): Promise<string[]> {
  const refs = await db.aiProxyProviderRef.findMany({
    where: { providerName: { equals: providerName, mode: 'insensitive' }, apiProxy: { projectId } },
    select: { apiProxy: { select: { name: true } } },
  })
  return [...new Set(refs.map((r) => r.apiProxy.name))].sort((a, b) => a.localeCompare(b))
}
