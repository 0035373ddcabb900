import type { Actor } from '../../platform/auth/actor.js'
import { requireAnyPermission, requirePermission, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { CATEGORY } from '../keys/store.js'

/** The categories whose EXPORT_IMPORT lets files of keys and secrets in and out (spec §5, Export; the pages' SECRETS + EXPORT_IMPORT). */
export const FILE_CATEGORIES = [CATEGORY, 'PROJECT_MANAGEMENT']

/**
 * The file doors: a download of private material needs EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT. An import
 * needs CERTIFICATE MANAGE first (the create it stands for: the router decides it before the form is read), then,
 * once its fields are checked, EXPORT_IMPORT as well (requireFileImport).
 */
export async function fileAccess(deps: Deps, actor: Actor, projectName: string, writes: boolean): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(deps.prisma, actor, projectName)
  if (writes) requirePermission(access, CATEGORY, 'MANAGE')
  else requireFileImport(access)
  return access
}

/** EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT. */
export const requireFileImport = (access: ProjectAccess) => requireAnyPermission(access, FILE_CATEGORIES, 'EXPORT_IMPORT')
