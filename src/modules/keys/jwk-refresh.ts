import type { StoredObject } from '../../generated/prisma/client.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { refreshFromSource } from './jwks.js'
import { contentOf, listObjects } from './store.js'

// `updateReferencedJwks` of the certificate, key and keystore updates: the JWKs taken from the object follow it.

export const UPDATE_SCOPES = ['SAME_PROJECT', 'ALL_PROJECTS'] as const
export interface RefreshOptions { updateReferencedJwks: boolean; updateScope: (typeof UPDATE_SCOPES)[number] | null }

/** The query parameters; updateScope is required when updateReferencedJwks is true. */
export function refreshOptions(query: Record<string, unknown>): RefreshOptions {
  const flag = query.updateReferencedJwks
  if (flag !== undefined && flag !== 'true' && flag !== 'false' && flag !== true && flag !== false) {
    throw malformed('updateReferencedJwks must be true or false', { field: 'updateReferencedJwks' })
  }
  const updateReferencedJwks = flag === 'true' || flag === true
  const scope = typeof query.updateScope === 'string' && query.updateScope ? query.updateScope.toUpperCase() : null
  if (scope !== null && !(UPDATE_SCOPES as readonly string[]).includes(scope)) throw malformed(`updateScope must be one of ${UPDATE_SCOPES.join(', ')}`, { field: 'updateScope' })
  if (updateReferencedJwks && !scope) throw malformed('updateScope is required when updateReferencedJwks is true', { field: 'updateScope' })
  return { updateReferencedJwks, updateScope: scope as RefreshOptions['updateScope'] }
}

/**
 * Re-derives every JWK taken from `source` (and not detached since). A JWK is only ever taken from an object of
 * its own project, so both scopes reach the same JWKs. Returns their names.
 */
export async function refreshReferencedJwks(deps: Deps, access: ProjectAccess, source: StoredObject, options: RefreshOptions): Promise<string[]> {
  if (!options.updateReferencedJwks) return []
  const jwks = (await listObjects(deps.prisma, access.project.id, 'JWK')).filter((r) => contentOf(r).sourceId === source.id)
  const updated: string[] = []
  for (const row of jwks) {
    try {
      await refreshFromSource(deps, access, row, source)
      updated.push(row.name)
    } catch (err) {
      // the environment or alias it came from is gone from the source: that JWK keeps its key
      if ((err as Error).name !== 'DomainError') throw err
    }
  }
  return updated
}
