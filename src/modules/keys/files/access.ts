import type { Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission, requirePermission, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps } from '../../../platform/context.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { CATEGORY } from '../store.js'

/** The categories whose EXPORT_IMPORT lets files of keys and secrets in and out (spec §5, Export; the pages' SECRETS + EXPORT_IMPORT). */
export const FILE_CATEGORIES = [CATEGORY, 'PROJECT_MANAGEMENT']

/**
 * The file doors that carry private material or write: EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT; a
 * write (an import) also CERTIFICATE MANAGE, as the create it stands for.
 */
export async function fileAccess(deps: Deps, actor: Actor, projectName: string, writes: boolean): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(deps.prisma, actor, projectName)
  if (writes) requirePermission(access, CATEGORY, 'MANAGE')
  requireAnyPermission(access, FILE_CATEGORIES, 'EXPORT_IMPORT')
  return access
}
