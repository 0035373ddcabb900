import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { orderByFor, parsePaging, findPage, type PagingQuery } from '../../platform/envelopes/paging.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { viewPerProject } from './projects.js'

const code = z.string().trim().min(1, 'must not be blank').max(100).regex(/^[A-Za-z0-9._-]+$/, 'may contain letters, digits, . _ and - only')

const name = z.string().trim().min(1, 'must not be blank').max(200)

/** A metadata entry as the vendor page has it; a secret value is sealed at rest and read back as null. */
export const organizationMetadataEntry = z.strictObject({
  key: z.string().trim().min(1, 'must not be blank').max(200),
  value: z.string().max(4000).nullish(),
  secret: z.boolean().default(false),
  includeInJwt: z.boolean().default(false),
  includeInTokenResponse: z.boolean().default(false),
  jwtClaimName: z.string().trim().min(1, 'must not be blank').max(200).nullish(),
})
const metadata = z.array(organizationMetadataEntry).max(100).superRefine((entries, ctx) => {
  const seen = new Set<string>()
  entries.forEach((e, i) => {
    if (seen.has(e.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `'${e.key}' is listed twice` })
    seen.add(e.key)
  })
})
export type OrganizationMetadataEntry = z.output<typeof organizationMetadataEntry>

// Our names (name, parentCode) and the vendor page's (nameDefault, parentOrganizationCode) are both accepted; where
// both are given they must agree.
const organizationFields = {
  name: name,
  nameDefault: name,
  nameSecondary: z.string().trim().max(200).nullish(),
  parentCode: code.nullish(),
  parentOrganizationCode: code.nullish(),
  metadata,
  state: z.enum(['ACTIVE', 'DELETE_IN_PROGRESS', 'TOMBSTONED']),
  suspended: z.boolean(),
}

export const organizationInput = z.strictObject({
  code,
  ...organizationFields,
  name: name.optional(),
  nameDefault: name.optional(),
  metadata: metadata.optional(),
  state: organizationFields.state.default('ACTIVE'),
  suspended: organizationFields.suspended.default(false),
})
export type OrganizationInput = z.input<typeof organizationInput>

// Built without the create defaults: zod fills defaults even in partial objects, which would reset fields. `code`
// is accepted (the vendor page sends it) and must be the organization's: the path names it, it never changes.
export const organizationUpdate = z.strictObject({ code: code.optional(), ...organizationFields }).partial()
export type OrganizationUpdate = z.input<typeof organizationUpdate>

function agreeing<T>(ours: T | undefined, theirs: T | undefined, field: string, other: string): T | undefined {
  if (ours !== undefined && theirs !== undefined && ours !== theirs) throw malformed(`${field}: differs from ${other}; send one of them`, { field })
  return theirs !== undefined ? theirs : ours
}

/** The stored metadata: secret values sealed; an update's secret entry without a value keeps the stored one. */
function storedMetadata(keyring: SecretKeyring | undefined, given: OrganizationMetadataEntry[], stored: unknown): OrganizationMetadataEntry[] {
  const before = new Map(((stored ?? []) as OrganizationMetadataEntry[]).map((e) => [e.key, e]))
  return given.map((e, i) => {
    if (!e.secret) return { ...e, value: e.value ?? null, jwtClaimName: e.jwtClaimName ?? null }
    const kept = before.get(e.key)
    if (e.value == null) {
      if (!kept?.secret) throw malformed(`metadata[${i}].value: is required for a new secret entry`, { field: `metadata[${i}].value` })
      return { ...e, value: kept.value ?? null, jwtClaimName: e.jwtClaimName ?? null }
    }
    if (!keyring) throw malformed(`metadata[${i}]: secret entries cannot be set here`, { field: `metadata[${i}]` })
    return { ...e, value: keyring.encrypt(e.value), jwtClaimName: e.jwtClaimName ?? null }
  })
}

/** The metadata as reads show it: secret values null (spec §2.1). */
export interface MetadataEntryView { key: string; value: string | null; secret: boolean; includeInJwt: boolean; includeInTokenResponse: boolean; jwtClaimName: string | null }
export const metadataView = (stored: unknown): MetadataEntryView[] =>
  ((stored ?? []) as OrganizationMetadataEntry[]).map((e) => ({ key: e.key, value: e.secret ? null : (e.value ?? null), secret: e.secret, includeInJwt: e.includeInJwt, includeInTokenResponse: e.includeInTokenResponse, jwtClaimName: e.jwtClaimName ?? null }))

export const organizationNotFound = (orgCode: string) => notFound(`Organization '${orgCode}' not found`, { organization: orgCode })

export async function findOrganization(db: Tx, projectId: string, orgCode: string) {
  const org = await db.organization.findUnique({ where: { projectId_code: { projectId, code: orgCode } } })
  if (!org) throw organizationNotFound(orgCode)
  return org
}

/**
 * A parent named in the body: an unknown one is the organization's not found (resourceNotFound, 404 on the REST door),
 * as the GraphQL door and the bootstrap always answered; the vendor page's 400 is not followed (see docs).
 */
async function parentNamed(db: Tx, projectId: string, parentCode: string, field: string) {
  const parent = await db.organization.findUnique({ where: { projectId_code: { projectId, code: parentCode } } })
  if (!parent) throw notFound(`Organization '${parentCode}' not found`, { organization: parentCode, field })
  return parent
}

const manageAccess = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'MANAGE'))

const viewAccess = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'VIEW'))

export async function createOrganization(db: Tx, actor: Actor, projectName: string, raw: OrganizationInput, keyring?: SecretKeyring) {
  const { project } = await manageAccess(db, actor, projectName)
  const input = parseInput(organizationInput, raw)
  const displayName = agreeing(input.name, input.nameDefault, 'nameDefault', 'name') ?? input.code
  const parentCode = agreeing(input.parentCode ?? undefined, input.parentOrganizationCode ?? undefined, 'parentOrganizationCode', 'parentCode')
  const parentField = input.parentOrganizationCode ? 'parentOrganizationCode' : 'parentCode'
  const meta = storedMetadata(keyring, input.metadata ?? [], [])
  if (await db.organization.findUnique({ where: { projectId_code: { projectId: project.id, code: input.code } } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Organization '${input.code}' already exists`, { field: 'code' })
  }
  const parent = parentCode ? await parentNamed(db, project.id, parentCode, parentField) : null
  return db.organization.create({
    data: {
      projectId: project.id, code: input.code, name: displayName, nameSecondary: input.nameSecondary || null, metadata: meta as unknown as Prisma.InputJsonValue,
      parentId: parent?.id ?? null, state: input.state, suspended: input.suspended,
    },
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

export async function updateOrganization(db: Tx, actor: Actor, projectName: string, orgCode: string, raw: OrganizationUpdate, keyring?: SecretKeyring) {
  const { project } = await manageAccess(db, actor, projectName)
  const input = parseInput(organizationUpdate, raw)
  const org = await findOrganization(db, project.id, orgCode)
  if (input.code !== undefined && input.code !== org.code) throw malformed(`code: an organization's code never changes (the path names '${org.code}')`, { field: 'code' })
  const displayName = agreeing(input.name, input.nameDefault, 'nameDefault', 'name')
  const parentCode = agreeing(input.parentCode, input.parentOrganizationCode, 'parentOrganizationCode', 'parentCode')
  const parentField = input.parentOrganizationCode !== undefined ? 'parentOrganizationCode' : 'parentCode'
  const data: Prisma.OrganizationUncheckedUpdateInput = { name: displayName, state: input.state, suspended: input.suspended }
  // the vendor page: nameSecondary is updated when non-blank; metadata, when given, replaces the list
  if (input.nameSecondary) data.nameSecondary = input.nameSecondary
  if (input.metadata !== undefined) data.metadata = storedMetadata(keyring, input.metadata, org.metadata) as unknown as Prisma.InputJsonValue
  if (parentCode !== undefined) {
    const parent = parentCode ? await parentNamed(db, project.id, parentCode, parentField) : null
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
