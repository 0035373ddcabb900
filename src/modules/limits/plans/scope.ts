import { isSystemAdmin, type Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission } from '../../../platform/auth/permissions.js'
import { requireSystemAdmin } from '../../../platform/auth/require.js'
import type { Tx } from '../../../platform/context.js'
import { PLATFORM_PROJECT, projectNotFound, resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { PLATFORM_SCOPE } from '../shared/scope.js'

/** Where a plan operation works: one project's catalog, or the platform catalog (project `admin`). */
export interface PlanScope {
  /** LimitPlan.scope: the project id, or "platform" */
  scope: string
  /** null for the platform catalog */
  projectId: string | null
  /** the project name as addressed (`admin` for the platform catalog) */
  projectName: string
  platform: boolean
}

/** Plan permissions are not in the spec: the assignment rule is used (IDENTITY, or AI_BUDGETS in its place). */
export const PLAN_CATEGORIES = ['IDENTITY', 'AI_BUDGETS']

/**
 * Resolves the catalog a plan call addresses. `admin` (or no project on the manager surface) is the platform
 * catalog, for system administrators only (through `admin`, anyone not a member of it gets 404 as for any project
 * out of scope; with no project named, permissionDenied);
 * a project needs IDENTITY or AI_BUDGETS at the level.
 */
export async function resolvePlanScope(db: Tx, actor: Actor, projectName: string | undefined, level: 'VIEW' | 'MANAGE'): Promise<PlanScope> {
  const name = projectName?.trim() || PLATFORM_PROJECT
  if (name === PLATFORM_PROJECT) {
    // the manager surface addresses the platform catalog by leaving projectId out: no project to hide
    if (!projectName?.trim()) requireSystemAdmin(actor)
    if (!isSystemAdmin(actor)) {
      // a member of the admin project who is not a system administrator is told why; anyone else sees 404
      await resolveProjectAccess(db, actor, PLATFORM_PROJECT).catch(() => {
        throw projectNotFound(PLATFORM_PROJECT)
      })
      requireSystemAdmin(actor)
    }
    return { scope: PLATFORM_SCOPE, projectId: null, projectName: PLATFORM_PROJECT, platform: true }
  }
  const access = await resolveProjectAccess(db, actor, name)
  requireAnyPermission(access, PLAN_CATEGORIES, level)
  return { scope: access.project.id, projectId: access.project.id, projectName: access.project.name, platform: false }
}
