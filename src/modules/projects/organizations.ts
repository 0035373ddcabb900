import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { orderByFor, parsePaging, findPage, type PagingQuery } from '../../platform/envelopes/paging.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { viewPerProject } from './projects.js'

const code = z.string().trim().min(1, 'must not be blank').max(100).regex(/^[A-Za-z0-9._-]+$/, 'may contain letters, digits, . _ and - only')

const organizationFields = {
  name: z.string().trim().min(1, 'must not be blank').max(200),
  parentCode: code.nullish(),
  state: z.enum(['ACTIVE', 'DELETE_IN_PROGRESS', 'TOMBSTONED']),
  suspended: z.boolean(),
}

export const organizationInput = z.object({
  code,
  ...organizationFields,
  state: organizationFields.state.default('ACTIVE'),
  suspended: organizationFields.suspended.default(false),
})
export type OrganizationInput = z.input<typeof organizationInput>

// Built without the create defaults: zod fills defaults even in partial objects, which would reset fields.
export const organizationUpdate = z.object(organizationFields).partial()
export type OrganizationUpdate = z.input<typeof organizationUpdate>

export const organizationNotFound = (orgCode: string) => notFound(`Organization '${orgCode}' not found`, { organization: orgCode })

export async function findOrganization(db: Tx, projectId: string, orgCode: string) {
  const org = await db.organization.findUnique({ where: { projectId_code: { projectId, code: orgCode } } })
  if (!org) throw organizationNotFound(orgCode)
  return org
}

const manageAccess = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'MANAGE'))

const viewAccess = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'VIEW'))

export async function createOrganization(db: Tx, actor: Actor, projectName: string, raw: OrganizationInput) {
  const { project } = await manageAccess(db, actor, projectName)
  const input = parseInput(organizationInput, raw)
  if (await db.organization.findUnique({ where: { projectId_code: { projectId: project.id, code: input.code } } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Organization '${input.code}' already exists`, { field: 'code' })
  }
  const parent = input.parentCode ? await findOrganization(db, project.id, input.parentCode) : null
  return db.organization.create({
    data: { projectId: project.id, code: input.code, name: input.name, parentId: parent?.id ?? null, state: input.state, suspended: input.suspended },
  })
}

/** A new parent must not be the organization itself or one of its descendants. */
async function assertNoCycle(db: Tx, orgId: string, parentId: string) {
  for (let cursor: string | null = parentId; cursor; ) {
    if (cursor === orgId) throw new DomainError('validation', 'malformedRequest', 'parentCode: would make the organization its own ancestor', { field: 'parentCode' })
    const next: { parentId: string | null } | null = await db.organization.findUnique({ where: { id: cursor }, select: { parentId: true } })
    cursor = next?.parentId ?? null
  }
}

export async function updateOrganization(db: Tx, actor: Actor, projectName: string, orgCode: string, raw: OrganizationUpdate) {
  const { project } = await manageAccess(db, actor, projectName)
  const input = parseInput(organizationUpdate, raw)
  const org = await findOrganization(db, project.id, orgCode)
  const data: Prisma.OrganizationUncheckedUpdateInput = { name: input.name, state: input.state, suspended: input.suspended }
  if (input.parentCode !== undefined) {
    const parent = input.parentCode ? await findOrganization(db, project.id, input.parentCode) : null
    if (parent) await assertNoCycle(db, org.id, parent.id)
    data.parentId = parent?.id ?? null
  }
  return db.organization.update({ where: { id: org.id }, data })
}

export async function deleteOrganization(db: Tx, actor: Actor, projectName: string, orgCode: string): Promise<boolean> {
  const { project } = await manageAccess(db, actor, projectName)
  const org = await findOrganization(db, project.id, orgCode)
  if (await db.organization.count({ where: { parentId: org.id } })) {
    throw new DomainError('conflict', 'lifecycleConflict', `Organization '${orgCode}' still has sub-organizations`, { reason: 'organizationHasChildren' })
  }
  await db.organization.delete({ where: { id: org.id } })
  return true
}

export const ORGANIZATION_SORT = { defaultSort: 'code,asc', supported: ['code', 'name', 'state', 'createdAt'] } as const

export async function pageOrganizations(db: Tx, actor: Actor, projectName: string, query: PagingQuery) {
  const access = await viewAccess(db, actor, projectName)
  const page = parsePaging(query, ORGANIZATION_SORT)
  const where = { projectId: access.project.id }
  return findPage(
    page,
    db.organization.findMany({ where, orderBy: orderByFor(page, 'code'), skip: page.skip, take: page.take }),
    db.organization.count({ where }),
  )
}

export async function getOrganization(db: Tx, actor: Actor, projectName: string, orgCode: string) {
  const access = await viewAccess(db, actor, projectName)
  return findOrganization(db, access.project.id, orgCode)
}

/** The organizations of many projects in one query (relation batching); IDENTITY VIEW per project. */
export const organizationsOfProjects = (db: Tx, accesses: readonly ProjectAccess[]) =>
  viewPerProject(accesses, 'IDENTITY', (projectIds) => db.organization.findMany({ where: { projectId: { in: projectIds } }, orderBy: { code: 'asc' } }))
