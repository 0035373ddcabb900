import type { Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Tx } from '../../../platform/context.js'
import { refusePlatformScope, resolveProjectAccess } from '../../../platform/scope/project-scope.js'

/** IDENTITY, or AI_BUDGETS in its place, at VIEW (reads) or MANAGE (writes) (spec §5). */
export const ASSIGNMENT_CATEGORIES = ['IDENTITY', 'AI_BUDGETS']

/**
 * The preamble of every assignment operation: the platform project is refused (400 platformScopeNotSupported),
 * an unknown or out-of-scope project is 404, a missing permission is permissionDenied.
 */
export async function assignmentProject(db: Tx, actor: Actor, projectName: string, level: 'VIEW' | 'MANAGE'): Promise<ProjectAccess> {
  refusePlatformScope(projectName)
  const access = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(access, ASSIGNMENT_CATEGORIES, level)
  return access
}
