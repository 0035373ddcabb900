import type { Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { authorizeInProject, projectNotFound } from '../../platform/scope/project-scope.js'

export const IDENTITY = 'IDENTITY'

/** The preamble of every credential and credential-role operation: the project, with IDENTITY at `level` in it. */
export function authorizeCredentials(db: Tx, actor: Actor, projectName: string, level: 'VIEW' | 'MANAGE') {
  // PostgreSQL cannot compare a name holding NUL, and no project has one
  if (projectName.includes('\u0000')) throw projectNotFound(projectName.replaceAll('\u0000', '\\0'))
  return authorizeInProject(db, actor, projectName, IDENTITY, level)
}
