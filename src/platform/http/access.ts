import { ASSET_CATEGORIES, can, type PermissionLevel, type ProjectAccess } from '../auth/permissions.js'
import type { Actor } from '../auth/actor.js'
import { requireSystemAdmin } from '../auth/require.js'
import type { Tx } from '../context.js'
import { DomainError, permissionDenied } from '../errors/domain-error.js'
import { PLATFORM_PROJECT, resolveProjectAccessOnce } from '../scope/project-scope.js'
import { ANY_CATEGORY, type AccessRequest, type RequestProject, type RouteDef } from './routes.js'

/**
 * Access before validation (issue 28 §6), run by the router after authentication and before the query or the body
 * is read: a caller who cannot see the project of the path gets the unknown-project answer (legacy 400, Common
 * Contract 404 resourceNotFound), one without the route's declared permission the permission refusal (legacy 400,
 * Common Contract 403 permissionDenied), whatever the body holds and whatever the path names. On the manager surface
 * (/api) the project is the one the projectId query parameter names, or the one the route's accessProject hook finds
 * (named in the body, or owning the object a key names: then a caller who cannot see it gets that object's not found,
 * as for an unknown key). The platform project is left to the operation: some areas refuse it as a scope first (spec
 * §1 rule 5), whoever asks.
 */
export async function decideRouteAccess(
  db: Tx,
  route: Pick<RouteDef, 'access' | 'path' | 'accessProject'>,
  actor: Actor | null,
  request: AccessRequest,
): Promise<void> {
  if (!actor) return
  if (route.access === 'systemAdmin') return requireSystemAdmin(actor)
  const { params, query } = request
  const project = route.accessProject ? await route.accessProject(db, request) : projectOf(route, params, query)
  if (project === undefined || project.name === PLATFORM_PROJECT) return
  const access = await resolveProjectAccessOnce(db, actor, project.name).catch((err: unknown) => {
    throw project.unseen && err instanceof DomainError && err.kind === 'notFound' ? project.unseen : err
  })
  if (!route.access) return
  const { category, level } = route.access
  requireOneOf(access, typeof category === 'function' ? category(params, query) : typeof category === 'string' ? [category] : category, level)
}

/**
 * The project a route addresses: the path's projectName, or on the manager surface (/api) the projectId query
 * parameter (a project name there; blank or absent: the operation decides, e.g. the platform catalog).
 */
function projectOf(route: Pick<RouteDef, 'path'>, params: Record<string, string>, query: Record<string, unknown>): RequestProject | undefined {
  const name = route.path.includes('/:projectName') ? params.projectName?.trim() : route.path.startsWith('/api/') && typeof query.projectId === 'string' ? query.projectId.trim() || undefined : undefined
  return name === undefined ? undefined : { name }
}

/**
 * The level in one of the categories (ANY_CATEGORY: in any), else permissionDenied naming the first, as the
 * operations word it: `User lacks permission A L (or B L) in project 'p'`, params { category: A, level }.
 */
function requireOneOf(access: ProjectAccess, categories: readonly string[], level: PermissionLevel): void {
  const candidates = categories.flatMap((c) => (c === ANY_CATEGORY ? ASSET_CATEGORIES : [c]))
  if (candidates.some((c) => can(access, c, level))) return
  const [first, ...others] = categories
  const alternatives = others.map((c) => (c === ANY_CATEGORY ? ` (or ${level} in some other category)` : ` (or ${c} ${level})`)).join('')
  throw permissionDenied(`User lacks permission ${first} ${level}${alternatives} in project '${access.project.name}'`, { category: first, level })
}
