import { Prisma, type LimitDefault } from '../../../generated/prisma/client.js'
import { actorName, type Actor } from '../../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../../platform/auth/require.js'
import type { Tx } from '../../../platform/context.js'
import { findPage, orderByFor, parsePaging } from '../../../platform/envelopes/paging.js'
import { DomainError, lifecycleConflict, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { canonicalHash } from '../../../platform/hashing/canonical.js'
import { mintPublicKey } from '../../../platform/keys.js'
import { PLATFORM_PROJECT } from '../../../platform/scope/project-scope.js'
import { unvalidatedText } from '../../../platform/validation/common.js'
import { assignmentProject } from '../assignments/access.js'
import { resolvePlanKeys, validateAssignmentContent, type AssignmentContent } from '../assignments/service.js'
import { PLATFORM_SCOPE } from '../shared/scope.js'
import { createDefaultInput, listDefaultsQuery, updateDefaultInput, versionInput, type OwnerInput, type OwnerType } from './inputs.js'

// Default limit policies (spec §4.11): per owner (the platform, a project, an organization), family and actor
// scope, the content an INHERIT assignment resolves to (the nearest enabled ancestor default). Created DISABLED;
// activate makes it the owner's enabled default (one per owner, family and actor scope, held by the database);
// disable takes it back; delete only while DISABLED. Content rules are the assignment service's (PLAN or CUSTOM).

export const DEFAULT_SORT = { defaultSort: 'createdAt,desc', supported: ['createdAt', 'family', 'status', 'name'] } as const

interface Owner { type: OwnerType; project: { id: string; name: string } | null; organization: { id: string; code: string } | null }

export const defaultNotFound = (defaultKey: string) => notFound(`Limit default '${defaultKey}' not found`, { defaultKey })

/** Who may read or write the owner's defaults: system administrators for the platform, IDENTITY or AI_BUDGETS in the project otherwise. */
async function resolveOwner(db: Tx, actor: Actor, owner: OwnerInput, level: 'VIEW' | 'MANAGE'): Promise<Owner> {
  if (owner.type === 'PLATFORM') {
    if (owner.projectId || owner.organizationCode) throw malformed('A PLATFORM owner names no project or organization', { field: owner.projectId ? 'owner.projectId' : 'owner.organizationCode' })
    if (level === 'MANAGE') requireSystemAdmin(actor)
    return { type: 'PLATFORM', project: null, organization: null }
  }
  if (!owner.projectId) throw malformed(`owner.projectId is required for owner type ${owner.type}`, { field: 'owner.projectId' })
  const project = (await assignmentProject(db, actor, owner.projectId, level)).project
  if (owner.type === 'PROJECT') {
    if (owner.organizationCode) throw malformed('A PROJECT owner names no organization', { field: 'owner.organizationCode' })
    return { type: 'PROJECT', project, organization: null }
  }
  if (!owner.organizationCode) throw malformed('owner.organizationCode is required for owner type ORGANIZATION', { field: 'owner.organizationCode' })
  const org = await db.organization.findUnique({ where: { projectId_code: { projectId: project.id, code: owner.organizationCode } } })
  if (!org) throw notFound(`Organization '${owner.organizationCode}' not found`, { organization: owner.organizationCode })
  return { type: 'ORGANIZATION', project, organization: { id: org.id, code: org.code } }
}

/**
 * The project owning a default (its project, or its organization's), for the access decision before the body is
 * read; undefined for a platform default (the operation decides); unknown: not found.
 */
export async function limitDefaultProjectName(db: Tx, defaultKey: string): Promise<string | undefined> {
  const row = await db.limitDefault.findUnique({ where: { defaultKey }, select: { projectId: true } })
  if (!row) throw defaultNotFound(defaultKey)
  return row.projectId ? (await db.project.findUnique({ where: { id: row.projectId }, select: { name: true } }))?.name : undefined
}

/** The project a create body's owner names, read before the body's rules (undefined: none, or the platform project). */
export function ownerProjectNamed(body: unknown): string | undefined {
  const name = unvalidatedText(body, 'owner', 'projectId')
  return name === PLATFORM_PROJECT ? undefined : name
}

/**
 * Access before validation (issue 28 §6): a caller who cannot see the project a create body names, or who lacks the
 * permission there, is refused before the body's rules say anything.
 */
async function checkNamedOwner(db: Tx, actor: Actor, body: unknown): Promise<void> {
  const name = ownerProjectNamed(body)
  if (name !== undefined) await assignmentProject(db, actor, name, 'MANAGE')
}

/** A stored default with the caller's right to it checked against its owner; out of scope is not found. */
async function loadDefault(db: Tx, actor: Actor, defaultKey: string, level: 'VIEW' | 'MANAGE'): Promise<{ row: LimitDefault; owner: Owner }> {
  const row = await db.limitDefault.findUnique({ where: { defaultKey } })
  if (!row) throw defaultNotFound(defaultKey)
  const project = row.projectId ? await db.project.findUnique({ where: { id: row.projectId }, select: { name: true } }) : null
  const org = row.organizationId ? await db.organization.findUnique({ where: { id: row.organizationId }, select: { code: true } }) : null
  try {
    const owner = await resolveOwner(db, actor, { type: row.ownerType, projectId: project?.name, organizationCode: org?.code }, level)
    return { row, owner }
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'notFound') throw defaultNotFound(defaultKey)
    throw err
  }
}

/** Content of a default: the assignment content rules for the owner's subject type, PLAN or CUSTOM, target ALL. */
async function validContent(db: Tx, owner: Owner, raw: unknown): Promise<AssignmentContent> {
  const content = validateAssignmentContent(raw, { subjectType: owner.type, bulk: true })
  await resolvePlanKeys(db, owner.project?.id ?? PLATFORM_SCOPE, content.family, content.planKeys)
  return content
}

const scopeKey = (owner: Owner, content: Pick<AssignmentContent, 'family' | 'actorScope'> | LimitDefault) =>
  canonicalHash({ owner: owner.type, project: owner.project?.id ?? null, organization: owner.organization?.id ?? null, family: content.family, actorScope: content.actorScope })

const contentData = (content: AssignmentContent) => ({
  family: content.family,
  actorScope: content.actorScope,
  mode: content.mode,
  planKeys: content.planKeys,
  customRuleSpec: (content.customRuleSpec ?? Prisma.DbNull) as Prisma.InputJsonValue | typeof Prisma.DbNull,
})

export function defaultView(row: LimitDefault, owner: Owner) {
  return {
    defaultKey: row.defaultKey,
    owner: { type: row.ownerType, ...(owner.project ? { projectId: owner.project.name } : {}), ...(owner.organization ? { organizationCode: owner.organization.code } : {}) },
    name: row.name,
    description: row.description,
    family: row.family,
    actorScope: row.actorScope,
    mode: row.mode,
    planKeys: row.planKeys,
    customRuleSpec: row.customRuleSpec ?? null,
    status: row.status,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    activatedAt: row.activatedAt?.toISOString() ?? null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
  }
}
export type DefaultView = ReturnType<typeof defaultView>

export async function getLimitDefault(db: Tx, actor: Actor, defaultKey: string): Promise<DefaultView> {
  const { row, owner } = await loadDefault(db, actor, defaultKey, 'VIEW')
  return defaultView(row, owner)
}

/** The defaults of one owner (the platform when projectId is absent), paged. */
export async function listLimitDefaults(db: Tx, actor: Actor, rawQuery: unknown) {
  const query = parseInput(listDefaultsQuery, rawQuery)
  const page = parsePaging(query, DEFAULT_SORT)
  const projectName = query.projectId?.trim()
  const ownerType: OwnerType = query.ownerType ?? (query.organizationCode ? 'ORGANIZATION' : projectName ? 'PROJECT' : 'PLATFORM')
  const owner = await resolveOwner(db, actor, { type: ownerType, projectId: projectName, organizationCode: query.organizationCode?.trim() || undefined }, 'VIEW')
  const where: Prisma.LimitDefaultWhereInput = {
    ownerType,
    projectId: owner.project?.id ?? null,
    organizationId: owner.organization?.id ?? null,
    ...(query.family ? { family: query.family } : {}),
    ...(query.status ? { status: query.status } : {}),
  }
  const result = await findPage(page, db.limitDefault.findMany({ where, orderBy: orderByFor(page, 'defaultKey'), skip: page.skip, take: page.take }), db.limitDefault.count({ where }))
  return { ...result, items: result.items.map((r) => defaultView(r, owner)) }
}

/** Validate: the create body's every check, nothing written. */
export async function validateLimitDefault(db: Tx, actor: Actor, body: unknown): Promise<void> {
  if (body === undefined || body === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  await checkNamedOwner(db, actor, body)
  const input = parseInput(createDefaultInput, body)
  const owner = await resolveOwner(db, actor, input.owner, 'MANAGE')
  await validContent(db, owner, input.content)
}

export async function createLimitDefault(db: Tx, actor: Actor, body: unknown): Promise<DefaultView> {
  if (body === undefined || body === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  await checkNamedOwner(db, actor, body)
  const input = parseInput(createDefaultInput, body)
  const owner = await resolveOwner(db, actor, input.owner, 'MANAGE')
  const content = await validContent(db, owner, input.content)
  const by = actorName(actor)
  const row = await db.limitDefault.create({
    data: {
      defaultKey: mintPublicKey('ld'),
      ownerType: owner.type,
      projectId: owner.project?.id ?? null,
      organizationId: owner.organization?.id ?? null,
      name: input.name ?? null,
      description: input.description ?? null,
      ...contentData(content),
      createdBy: by,
      updatedBy: by,
    },
  })
  return defaultView(row, owner)
}

const versionConflict = (expected: number, current: number) =>
  new DomainError('conflict', 'versionConflict', `Limit default is at version ${current}, not ${expected}`, { entity: 'limitDefault', expected, current })

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002'

async function scopeTaken(db: Tx, key: string) {
  const other = await db.limitDefault.findUnique({ where: { activeScopeKey: key }, select: { defaultKey: true } })
  return lifecycleConflict('limit.default.scopeAlreadyActive', 'Another default of this owner, family and actor scope is active', { activeDefaultKey: other?.defaultKey ?? null })
}

/** Replaces name, description and content; family and actor scope may change only while DISABLED would not clash. */
export async function updateLimitDefault(db: Tx, actor: Actor, defaultKey: string, body: unknown): Promise<DefaultView> {
  const { row, owner } = await loadDefault(db, actor, defaultKey, 'MANAGE')
  if (body === undefined || body === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const input = parseInput(updateDefaultInput, body)
  if (input.version !== undefined && input.version !== row.version) throw versionConflict(input.version, row.version)
  const content = await validContent(db, owner, input.content)
  try {
    const { count } = await db.limitDefault.updateMany({
      where: { id: row.id, version: row.version },
      data: {
        name: input.name ?? null,
        description: input.description ?? null,
        ...contentData(content),
        activeScopeKey: row.status === 'ACTIVE' ? scopeKey(owner, content) : null,
        version: { increment: 1 },
        updatedBy: actorName(actor),
      },
    })
    if (!count) {
      const now = await db.limitDefault.findUniqueOrThrow({ where: { id: row.id } })
      throw versionConflict(row.version, now.version)
    }
  } catch (err) {
    if (isUniqueViolation(err)) throw await scopeTaken(db, scopeKey(owner, content))
    throw err
  }
  return defaultView(await db.limitDefault.findUniqueOrThrow({ where: { id: row.id } }), owner)
}

async function move(db: Tx, actor: Actor, defaultKey: string, body: unknown, to: 'ACTIVE' | 'DISABLED'): Promise<DefaultView> {
  const { row, owner } = await loadDefault(db, actor, defaultKey, 'MANAGE')
  const version = parseInput(versionInput, body ?? undefined)?.version
  if (version !== undefined && version !== row.version) throw versionConflict(version, row.version)
  if (row.status === to) {
    throw lifecycleConflict(to === 'ACTIVE' ? 'limit.default.alreadyActive' : 'limit.default.alreadyDisabled', `Limit default '${defaultKey}' is already ${to}`)
  }
  const key = scopeKey(owner, row)
  try {
    await db.limitDefault.update({
      where: { id: row.id },
      data: to === 'ACTIVE'
        ? { status: 'ACTIVE', activeScopeKey: key, activatedAt: new Date(), version: { increment: 1 }, updatedBy: actorName(actor) }
        : { status: 'DISABLED', activeScopeKey: null, disabledAt: new Date(), version: { increment: 1 }, updatedBy: actorName(actor) },
    })
  } catch (err) {
    if (isUniqueViolation(err)) throw await scopeTaken(db, key)
    throw err
  }
  return defaultView(await db.limitDefault.findUniqueOrThrow({ where: { id: row.id } }), owner)
}

export const activateLimitDefault = (db: Tx, actor: Actor, defaultKey: string, body?: unknown) => move(db, actor, defaultKey, body, 'ACTIVE')
export const disableLimitDefault = (db: Tx, actor: Actor, defaultKey: string, body?: unknown) => move(db, actor, defaultKey, body, 'DISABLED')

/** Delete only while DISABLED: an active default is what INHERIT assignments resolve to. */
export async function deleteLimitDefault(db: Tx, actor: Actor, defaultKey: string): Promise<void> {
  const { row } = await loadDefault(db, actor, defaultKey, 'MANAGE')
  if (row.status !== 'DISABLED') throw lifecycleConflict('limit.default.notDisabled', `Limit default '${defaultKey}' is ${row.status}; disable it before deleting`)
  const { count } = await db.limitDefault.deleteMany({ where: { id: row.id, status: 'DISABLED' } })
  if (!count) throw lifecycleConflict('limit.default.notDisabled', `Limit default '${defaultKey}' was activated meanwhile`)
}
