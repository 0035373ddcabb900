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
 * The project a read request names, read by the router in the same statement as the request's token
 * (authenticateRequest), so the operation's preamble does not read it again. Used once: the first resolution
 * of that name by that user in the request takes it, any later one reads the database.
 */
const prefetched = new AsyncLocalStorage<{ entry: PrefetchedProject; used: boolean }>()

export function withPrefetchedProject<T>(entry: PrefetchedProject | undefined, run: () => T): T {
  return entry ? prefetched.run({ entry, used: false }, run) : run()
}

function takePrefetched(name: string, actor: Actor): PrefetchedProject | undefined {
  const slot = prefetched.getStore()
  if (!slot || slot.used || slot.entry.name !== name || actor.kind !== 'user' || actor.userId !== slot.entry.userId) return undefined
  slot.used = true
  return slot.entry
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
