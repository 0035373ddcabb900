import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Tx } from '../../platform/context.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'

const flag = z.preprocess((v) => (v === undefined || v === '' ? undefined : v), z.enum(['true', 'false']).optional()).transform((v) => v === 'true')

export const migrationQuery = z.object({
  /** a project name (objects are addressed by name); blank means the whole installation */
  projectId: z.string().optional(),
  apply: flag,
  activate: flag,
})

/**
 * Which projects a migration call covers: one named project (IDENTITY MANAGE there), or, when projectId
 * is blank, every project, which only a system administrator may ask for.
 */
export async function migrationScope(db: Tx, actor: Actor, rawQuery: unknown) {
  const query = parseInput(migrationQuery, rawQuery)
  const name = query.projectId?.trim()
  if (!name) {
    requireSystemAdmin(actor)
    return { ...query, projectIds: undefined as string[] | undefined }
  }
  const access = await authorizeInProject(db, actor, name, 'IDENTITY', 'MANAGE')
  return { ...query, projectIds: [access.project.id] }
}

export const inProjects = (projectIds: string[] | undefined) => (projectIds ? { projectId: { in: projectIds } } : {})
