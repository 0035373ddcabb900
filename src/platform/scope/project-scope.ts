import { AsyncLocalStorage } from 'node:async_hooks'
import { isAnalyzer, isSystemAdmin, type Actor } from '../auth/actor.js'
import type { PrefetchedProject } from '../auth/tokens.js'
import { ASSET_CATEGORIES, grantKey, requirePermission, type PermissionLevel, type ProjectAccess } from '../auth/permissions.js'
import type { Tx } from '../context.js'
import { malformed, notFound } from '../errors/domain-error.js'
import { objectName } from '../validation/common.js'

/** The platform project: it always exists and holds installation-wide objects. */
export const PLATFORM_PROJECT = 'admin'

/**
 * Resolves the project named in a path with the caller's permissions in it. Unknown and out of scope
 * are the same answer (not found), so a caller cannot probe for projects it cannot see.
 */
export async function resolveProjectAccess(db: Tx, actor: Actor, projectName: string | undefined): Promise<ProjectAccess> {
  const name = projectName?.trim() ?? ''
  if (!name) throw malformed('Project name is empty', { field: 'projectName' })
  // a name no project can have (e.g. a NUL byte, which the database cannot even compare) is simply unknown
  if (!objectName.safeParse(name).success) throw projectNotFound(name)
  const decided = takeDecided(name, actor)
  if (decided) return decided
  const pre = takePrefetched(name, actor)
  const project = pre ? pre.project : await db.project.findUnique({ where: { name }, select: { id: true, name: true } })
  if (!project) throw projectNotFound(name)
  if (isSystemAdmin(actor)) return { project, systemAdmin: true, grants: new Set() }
  if (actor.kind !== 'user') throw projectNotFound(name)
  // an analyzer sees every project with VIEW on every category and nothing more (MANAGE and the rest stay refused)
  if (isAnalyzer(actor)) return { project, systemAdmin: false, grants: ANALYZER_GRANTS }
  if (pre) {
    if (!pre.grants) throw projectNotFound(name)
    return { project, systemAdmin: false, grants: new Set(pre.grants) }
  }
  const membership = await db.membership.findUnique({
    where: { projectId_userId: { projectId: project.id, userId: actor.userId } },
    include: { grants: true },
  })
  if (!membership) throw projectNotFound(name)
  return { project, systemAdmin: false, grants: new Set(membership.grants.map((g) => grantKey(g.category, g.level))) }
}

/**
 * What the router learnt of the request's project before the operation ran, each used once (the first resolution
 * of that name by that caller in the request takes it; any later one reads the database):
 * - `entry`: the project a read names, read in the same statement as the request's token (authenticateRequest);
 * - `decided`: the access the router resolved to decide the route's access before the body (http/access.ts), so
 *   the operation's own preamble does not read it again.
 */
interface RequestScope {
  entry?: PrefetchedProject
  used: boolean
  decided?: { name: string; actor: Actor; access: ProjectAccess }
}
const requestScope = new AsyncLocalStorage<RequestScope>()

/** Runs one request's work with its scope slot (the prefetched project, when there is one). */
export function withPrefetchedProject<T>(entry: PrefetchedProject | undefined, run: () => T): T {
  return requestScope.run({ entry, used: false }, run)
}

function takePrefetched(name: string, actor: Actor): PrefetchedProject | undefined {
  const slot = requestScope.getStore()
  if (!slot?.entry || slot.used || slot.entry.name !== name || actor.kind !== 'user' || actor.userId !== slot.entry.userId) return undefined
  slot.used = true
  return slot.entry
}

/** Resolves the project for the router's access decision and keeps it for the operation's first resolution. */
export async function resolveProjectAccessOnce(db: Tx, actor: Actor, projectName: string): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  const slot = requestScope.getStore()
  if (slot) slot.decided = { name: access.project.name, actor, access }
  return access
}

function takeDecided(name: string, actor: Actor): ProjectAccess | undefined {
  const slot = requestScope.getStore()
  const decided = slot?.decided
  if (!decided || decided.name !== name || decided.actor !== actor) return undefined
  slot.decided = undefined
  return decided.access
}

const ANALYZER_GRANTS: ReadonlySet<string> = new Set(ASSET_CATEGORIES.map((c) => grantKey(c, 'VIEW')))

export const projectNotFound = (name: string) => notFound(`Project '${name}' not found`, { project: name })

/** Areas that work per project refuse the platform project (spec §1 rule 5). */
export function refusePlatformScope(projectName: string | undefined): void {
  if (projectName?.trim() === PLATFORM_PROJECT) {
    throw malformed(`Project '${PLATFORM_PROJECT}' is the platform scope and is not supported here`, {
      reason: 'platformScopeNotSupported',
    })
  }
}

/** The preamble of every project-scoped operation: resolve the project, then require (category, level) in it. */
export async function authorizeInProject(db: Tx, actor: Actor, projectName: string, category: string, level: PermissionLevel): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  requirePermission(access, category, level)
  return access
}
