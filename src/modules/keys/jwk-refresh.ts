import type { StoredObject } from '../../generated/prisma/client.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { mergeOutcomes, type DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { refreshFromSource, undeployJwks } from './jwks.js'
import { contentOf, environmentsOfProject, listObjects, refuseWhileCredentialsName, updateObject } from './store.js'

// `updateReferencedJwks` of the certificate, key and keystore updates: the JWKs taken from the object follow it;
// `jwkDeleteAction` of their deletes: the JWKs are detached or deleted with it.

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

export const JWK_DELETE_ACTIONS = ['NULLIFY', 'DELETE'] as const
export type JwkDeleteAction = (typeof JWK_DELETE_ACTIONS)[number]

/** The delete pages' jwkDeleteAction (any case): NULLIFY, the default, or DELETE. */
export function jwkDeleteAction(value: unknown): JwkDeleteAction {
  if (value === undefined || value === null || value === '') return 'NULLIFY'
  const action = typeof value === 'string' ? value.trim().toUpperCase() : ''
  if (!(JWK_DELETE_ACTIONS as readonly string[]).includes(action)) throw malformed(`jwkDeleteAction must be one of ${JWK_DELETE_ACTIONS.join(', ')}`, { field: 'jwkDeleteAction' })
  return action as JwkDeleteAction
}

const takenFrom = (db: Tx, source: StoredObject) =>
  db.storedObject.findMany({ where: { projectId: source.projectId, kind: 'JWK', content: { path: ['sourceId'], equals: source.id } }, orderBy: { name: 'asc' } })

/**
 * Deletes a certificate, key or keystore (the caller has checked that no credential names it) and undeploys it with
 * `undeploy`, together with what `action` does to the JWKs taken from it, in one transaction: NULLIFY detaches them
 * (they keep their key), DELETE deletes them too, refused whole, nothing written, while a credential names one of
 * them. The deleted JWKs are undeployed as well: one result per environment for the object and its JWKs.
 */
export async function deleteSourceAndJwks(
  deps: Deps, access: ProjectAccess, source: StoredObject, action: JwkDeleteAction, undeploy: () => Promise<DeploymentOutcome>,
): Promise<DeploymentOutcome> {
  const deleted = await deps.prisma.$transaction(async (tx) => {
    // in the transaction that deletes it: a credential taking the source meanwhile is seen, not orphaned
    await refuseWhileCredentialsName(tx, source, 'deleted')
    const jwks = await takenFrom(tx, source)
    if (action === 'DELETE') {
      for (const jwk of jwks) await refuseWhileCredentialsName(tx, jwk, 'deleted')
      await tx.storedObject.deleteMany({ where: { id: { in: jwks.map((j) => j.id) } } })
    } else {
      for (const jwk of jwks) await updateObject(tx, jwk, { ...contentOf(jwk), sourceId: null })
    }
    await tx.storedObject.delete({ where: { id: source.id } })
    return action === 'DELETE' ? jwks : []
  })
  const outcome = await undeploy()
  if (!deleted.length) return outcome
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  return mergeOutcomes([outcome, ...(await undeployJwks(deps, access, deleted, envs))])
}
