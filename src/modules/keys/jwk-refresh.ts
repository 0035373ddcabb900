import type { StoredObject } from '../../generated/prisma/client.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { refreshFromSource } from './jwks.js'
import { contentOf, listObjects, updateObject } from './store.js'

// `updateReferencedJwks` of the certificate, key and keystore updates: the JWKs taken from the object follow it.

export const UPDATE_SCOPES = ['SAME_PROJECT', 'ALL_PROJECTS'] as const
export interface RefreshOptions {
  updateReferencedJwks: boolean
  updateScope: (typeof UPDATE_SCOPES)[number] | null
  /** jwkUpdateAction NULLIFY: the JWKs taken from the object are detached from it (their key stays) */
  detach?: boolean
}

export const JWK_UPDATE_ACTIONS = ['NULLIFY', 'UPDATE'] as const

/**
 * The query parameters: the newest pages' jwkUpdateAction (UPDATE re-derives the JWKs, updateScope defaulting to
 * SAME_PROJECT; NULLIFY detaches them: they keep their key and no longer follow the object) or the older
 * updateReferencedJwks (true needs updateScope; false or absent leaves the JWKs as they are).
 */
export function refreshOptions(query: Record<string, unknown>): RefreshOptions {
  const action = typeof query.jwkUpdateAction === 'string' && query.jwkUpdateAction ? query.jwkUpdateAction.toUpperCase() : null
  if (action !== null && !(JWK_UPDATE_ACTIONS as readonly string[]).includes(action)) throw malformed(`jwkUpdateAction must be one of ${JWK_UPDATE_ACTIONS.join(', ')}`, { field: 'jwkUpdateAction' })
  if (action === 'NULLIFY') return { updateReferencedJwks: false, updateScope: null, detach: true }
  if (action === 'UPDATE' && query.updateScope === undefined) return { updateReferencedJwks: true, updateScope: 'SAME_PROJECT' }
  const flag = action ? String(action === 'UPDATE') : query.updateReferencedJwks
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
  if (!options.updateReferencedJwks && !options.detach) return []
  const jwks = (await listObjects(deps.prisma, access.project.id, 'JWK')).filter((r) => contentOf(r).sourceId === source.id)
  if (!options.updateReferencedJwks) {
    for (const row of jwks) await updateObject(deps.prisma, row, { ...contentOf(row), sourceId: null })
    return []
  }
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
