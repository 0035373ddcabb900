import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { isSystemAdmin } from '../../platform/auth/actor.js'
import { ASSET_CATEGORIES, grantKey, PERMISSION_LEVELS, requirePermission, type ProjectAccess } from '../../platform/auth/permissions.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Tx } from '../../platform/context.js'
import { containsText, orderByFor, parsePaging, parseSearch, findPage, type SearchQuery } from '../../platform/envelopes/paging.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { PLATFORM_PROJECT, projectNotFound, resolveProjectAccess } from '../../platform/scope/project-scope.js'
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
  const { environments } = parseInput(projectInput.pick({ environments: true }), { environments: names })
  const envs = await environmentsNamed(db, environments)
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

export const visibleProjects = (actor: Actor): Prisma.ProjectWhereInput =>
  actor.kind === 'user' && !isSystemAdmin(actor) ? { memberships: { some: { userId: actor.userId } } } : {}

export const PROJECT_SORT = { defaultSort: 'name,asc', supported: ['name', 'createdAt'] } as const

/** One page of the projects the caller can see, those whose name contains the search when one is given. */
export async function pageVisibleProjects(db: Tx, actor: Actor, query: SearchQuery) {
  const page = parsePaging(query, PROJECT_SORT)
  const search = parseSearch(query.search)
  const where: Prisma.ProjectWhereInput = { ...visibleProjects(actor), ...(search ? { name: containsText(search) } : {}) }
  return findPage(
    page,
    db.project.findMany({ where, orderBy: orderByFor(page, 'name'), skip: page.skip, take: page.take }),
    db.project.count({ where }),
  )
}

/** A project the caller can see; unknown and out of scope are the same not found. */
export async function getVisibleProject(db: Tx, actor: Actor, name: string) {
  const { project } = await resolveProjectAccess(db, actor, name)
  return db.project.findUniqueOrThrow({ where: { id: project.id } })
}

/**
 * The caller's access to many projects in two queries, for relations read in batches. The projects are
 * ones the caller already reached through a visibility check; a non-member simply holds no grants.
 */
export async function accessToProjects(db: Tx, actor: Actor, projectIds: readonly string[]): Promise<ProjectAccess[]> {
  const ids = [...projectIds]
  const projects = await db.project.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })
  const admin = isSystemAdmin(actor)
  const memberships = actor.kind === 'user' && !admin
    ? await db.membership.findMany({ where: { userId: actor.userId, projectId: { in: ids } }, include: { grants: true } })
    : []
  const grants = new Map(memberships.map((m) => [m.projectId, new Set(m.grants.map((g) => grantKey(g.category, g.level)))]))
  return ids.map((id) => ({
    project: projects.find((p) => p.id === id) ?? { id, name: id },
    systemAdmin: admin,
    grants: grants.get(id) ?? new Set<string>(),
  }))
}

function refusal(access: ProjectAccess, category: string): DomainError | null {
  try {
    requirePermission(access, category, 'VIEW')
    return null
  } catch (err) {
    return err as DomainError
  }
}

/**
 * Reads a has-many relation of many projects in one query. A project where the caller lacks `category`
 * VIEW gets permissionDenied in place of its rows, so a relation never shows more than its list query.
 */
export async function viewPerProject<T extends { projectId: string }>(
  accesses: readonly ProjectAccess[],
  category: string,
  fetch: (projectIds: string[]) => Promise<T[]>,
): Promise<(T[] | DomainError)[]> {
  const refusals = accesses.map((a) => refusal(a, category))
  const allowed = accesses.filter((_, i) => !refusals[i]).map((a) => a.project.id)
  const rows = allowed.length ? await fetch(allowed) : []
  const groups = new Map<string, T[]>()
  for (const row of rows) {
    const list = groups.get(row.projectId)
    if (list) list.push(row)
    else groups.set(row.projectId, [row])
  }
  return accesses.map((a, i) => refusals[i] ?? groups.get(a.project.id) ?? [])
}

const memberInclude = {
  user: { select: { username: true } },
  grants: { orderBy: [{ category: 'asc' }, { level: 'asc' }] },
} satisfies Prisma.MembershipInclude

/** A member as the surfaces show it: username and grants, no ids. */
const memberView = (m: Prisma.MembershipGetPayload<{ include: typeof memberInclude }>) => ({
  projectId: m.projectId,
  username: m.user.username,
  permissions: m.grants.map((g) => ({ category: g.category, level: g.level })),
})

/** Members and their grants, for callers holding PROJECT_MANAGEMENT VIEW in the project. */
export async function membersOfProjects(db: Tx, accesses: readonly ProjectAccess[]) {
  return viewPerProject(accesses, 'PROJECT_MANAGEMENT', async (projectIds) => {
    const rows = await db.membership.findMany({ where: { projectId: { in: projectIds } }, include: memberInclude, orderBy: { user: { username: 'asc' } } })
    return rows.map(memberView)
  })
}

/** The platform project always exists (RUNTIME.md §3); created on every start if missing. */
export async function ensurePlatformProject(db: Tx) {
  await db.project.upsert({ where: { name: PLATFORM_PROJECT }, create: { name: PLATFORM_PROJECT, description: 'Platform project' }, update: {} })
}

/** Sets a member's grants in a project (replacing them); adds the membership when missing. */
export async function setMemberPermissions(db: Tx, actor: Actor, projectName: string, username: string, raw: PermissionInput[]) {
  requireSystemAdmin(actor)
  const { permissions: grants } = parseInput(z.object({ permissions: z.array(permissionInput) }), { permissions: raw })
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
  return memberView(await db.membership.findUniqueOrThrow({ where: { id: membership.id }, include: memberInclude }))
}

export async function removeMember(db: Tx, actor: Actor, projectName: string, username: string): Promise<boolean> {
  requireSystemAdmin(actor)
  const project = await findProject(db, projectName)
  const removed = await db.membership.deleteMany({ where: { projectId: project.id, user: { username } } })
  if (!removed.count) throw notFound(`User '${username}' is not a member of project '${projectName}'`, { user: username })
  return true
}
