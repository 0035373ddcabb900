import type { Actor } from '../../platform/auth/actor.js'
import { can, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { DomainError } from '../../platform/errors/domain-error.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'

/** The caller's access in each of the named projects it can see; a project it cannot see is absent. */
export async function visibleProjectAccess(db: Tx, actor: Actor, projectNames: Iterable<string>): Promise<Map<string, ProjectAccess>> {
  const out = new Map<string, ProjectAccess>()
  for (const name of new Set(projectNames)) {
    try {
      out.set(name, await resolveProjectAccess(db, actor, name))
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'notFound') continue
      throw err
    }
  }
  return out
}

/** The rows the caller may VIEW: in a project it sees, with VIEW in one of `categories` there. */
export async function viewableRows<T extends { project: { name: string } }>(db: Tx, actor: Actor, rows: T[], categories: readonly string[]): Promise<T[]> {
  const access = await visibleProjectAccess(db, actor, rows.map((r) => r.project.name))
  return rows.filter((r) => {
    const a = access.get(r.project.name)
    return !!a && categories.some((c) => can(a, c, 'VIEW'))
  })
}
