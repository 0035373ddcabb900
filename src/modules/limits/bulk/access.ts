import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError, notFound } from '../../../platform/errors/domain-error.js'
import { assignmentProject } from '../assignments/access.js'

// Bulk assignment takes the permissions of limit assignments (spec §5): IDENTITY, or AI_BUDGETS in its place,
// VIEW for reads and MANAGE for previews, runs and their actions; the admin project is refused.

export const bulkProject = async (db: Tx, actor: Actor, projectName: string, level: 'VIEW' | 'MANAGE') =>
  (await assignmentProject(db, actor, projectName, level)).project

export const runNotFound = (runId: string) => notFound(`Bulk run '${runId}' not found`, { runId })

/** A run of the project by its public id; a run of another project is not found. */
export async function findRun(db: Tx, projectId: string, runId: string) {
  const run = await db.limitBulkRun.findUnique({ where: { runId } })
  if (!run || run.projectId !== projectId) throw runNotFound(runId)
  return run
}

/**
 * The manager surface addresses runs by id alone: the run's project is resolved from it, and a run in a
 * project the caller cannot see is not found (never the project's name).
 */
export async function projectNameOfRun(db: Tx, actor: Actor, runId: string, level: 'VIEW' | 'MANAGE'): Promise<string> {
  const run = await db.limitBulkRun.findUnique({ where: { runId }, select: { projectId: true } })
  const project = run ? await db.project.findUnique({ where: { id: run.projectId }, select: { name: true } }) : null
  if (!project) throw runNotFound(runId)
  try {
    await bulkProject(db, actor, project.name, level)
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'notFound') throw runNotFound(runId)
    throw err
  }
  return project.name
}
