import type { Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { authorizeInProject, refusePlatformScope } from '../../platform/scope/project-scope.js'

/**
 * The preamble of every consumer, application and entitlement operation (spec §1 rules 4 and 5, §5):
 * the platform project is refused first, then the project is resolved (unknown or out of scope → 404)
 * and IDENTITY at the level is required (else permissionDenied).
 */
export async function identityProject(db: Tx, actor: Actor, projectName: string, level: 'VIEW' | 'MANAGE') {
  refusePlatformScope(projectName)
  return (await authorizeInProject(db, actor, projectName, 'IDENTITY', level)).project
}
