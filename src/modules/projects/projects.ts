import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import { isSystemAdmin } from '../../platform/auth/actor.js'
import { ASSET_CATEGORIES, PERMISSION_LEVELS } from '../../platform/auth/permissions.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Tx } from '../../platform/context.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { PLATFORM_PROJECT, projectNotFound } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { environmentsNamed } from './environments.js'

export const permissionInput = z.object({
  category: z.string().refine((c) => ASSET_CATEGORIES.includes(c), {
    message: `must be one of ${ASSET_CATEGORIES.join(', ')}`,
  }),
  level: z.enum(PERMISSION_LEVELS),
})
export type PermissionInput = z.input<typeof permissionInput>

export const projectInput = z.object({
  name: objectName,
  description: z.string().max(1000).nullish(),
  environments: z.array(objectName).default([]),
})
export type ProjectInput = z.input<typeof projectInput>

export async function findProject(db: Tx, name: string) {
  const project = await db.project.findUnique({ where: { name } })
  if (!project) throw projectNotFound(name)
  return project
}

export async function createProject(db: Tx, actor: Actor, raw: ProjectInput) {
  requireSystemAdmin(actor)
  const input = parseInput(projectInput, raw)
  if (await db.project.findUnique({ where: { name: input.name } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Project '${input.name}' already exists`, { field: 'name' })
  }
  const envs = await environmentsNamed(db, input.environments)
  return db.project.create({
    data: {
      name: input.name,
      description: input.description ?? null,
      environments: { create: envs.map((e) => ({ environmentId: e.id })) },
    },
  })
}

/** Replaces the set of environments a project deploys to. */
export async function setProjectEnvironments(db: Tx, actor: Actor, projectName: string, names: string[]) {
  requireSystemAdmin(actor)
  const project = await findProject(db, projectName)
  const envs = await environmentsNamed(db, parseInput(z.array(objectName), names))
  await db.projectEnvironment.deleteMany({ where: { projectId: project.id } })
  await db.projectEnvironment.createMany({ data: envs.map((e) => ({ projectId: project.id, environmentId: e.id })) })
  return project
}

export async function deleteProject(db: Tx, actor: Actor, name: string): Promise<boolean> {
  requireSystemAdmin(actor)
  if (name === PLATFORM_PROJECT) {
    throw new DomainError('validation', 'malformedRequest', `Project '${PLATFORM_PROJECT}' is the platform project and cannot be deleted`, { reason: 'platformProject' })
  }
  const removed = await db.project.deleteMany({ where: { name } })
  if (!removed.count) throw projectNotFound(name)
  return true
}

/** Projects the caller can see: all for a system administrator, else those it is a member of. */
export async function listVisibleProjects(db: Tx, actor: Actor) {
  if (isSystemAdmin(actor)) return db.project.findMany({ orderBy: { name: 'asc' } })
  if (actor.kind !== 'user') return []
  return db.project.findMany({ where: { memberships: { some: { userId: actor.userId } } }, orderBy: { name: 'asc' } })
}

/** The platform project always exists (RUNTIME.md §3); created on every start if missing. */
export async function ensurePlatformProject(db: Tx) {
  await db.project.upsert({ where: { name: PLATFORM_PROJECT }, create: { name: PLATFORM_PROJECT, description: 'Platform project' }, update: {} })
}

/** Sets a member's grants in a project (replacing them); adds the membership when missing. */
export async function setMemberPermissions(db: Tx, actor: Actor, projectName: string, username: string, raw: PermissionInput[]) {
  requireSystemAdmin(actor)
  const grants = parseInput(z.array(permissionInput), raw)
  const project = await findProject(db, projectName)
  const user = await db.user.findUnique({ where: { username } })
  if (!user) throw notFound(`User '${username}' not found`, { user: username })
  const membership = await db.membership.upsert({
    where: { projectId_userId: { projectId: project.id, userId: user.id } },
    create: { projectId: project.id, userId: user.id },
    update: {},
  })
  await db.permissionGrant.deleteMany({ where: { membershipId: membership.id } })
  const unique = new Map(grants.map((g) => [`${g.category}:${g.level}`, g]))
  await db.permissionGrant.createMany({ data: [...unique.values()].map((g) => ({ membershipId: membership.id, ...g })) })
  return membership
}

export async function removeMember(db: Tx, actor: Actor, projectName: string, username: string): Promise<boolean> {
  requireSystemAdmin(actor)
  const project = await findProject(db, projectName)
  const removed = await db.membership.deleteMany({ where: { projectId: project.id, user: { username } } })
  if (!removed.count) throw notFound(`User '${username}' is not a member of project '${projectName}'`, { user: username })
  return true
}
