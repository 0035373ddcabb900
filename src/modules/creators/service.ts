import type { Prisma, StoredObject } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { isAnalyzer, isSystemAdmin } from '../../platform/auth/actor.js'
import { can, grantKey, requireAnyPermission, type PermissionLevel, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { CREATOR_INPUTS, CREATOR_KIND_NAMES, CREATOR_KINDS, creatorIdList, type CreatorInput, type CreatorKind } from './inputs.js'
import { creatorView, type CreatorView, type NameById } from './views.js'

/**
 * The creators (DB2API, MockAPI, Script2API) are the project's API_CREATOR stored objects of those kinds: the
 * transfer engine exports and imports them as API_CREATOR (spec §4.3: a multi-kind type), the routes here read and
 * save them. Content: `{ description?, endpointList: [...] }` as inputs.ts validates it; no ids inside, so the
 * content is already the portable form. Nothing is deployed: a creator is a definition an API proxy is built from.
 *
 * Permission: API_MANAGEMENT (the pages' category for API development) or the type's own API_CREATOR, VIEW to
 * read and MANAGE to save.
 */
export const CREATOR_TYPE = 'API_CREATOR'
export const CREATOR_CATEGORIES = ['API_MANAGEMENT', CREATOR_TYPE]

async function creatorAccess(db: Tx, actor: Actor, projectName: string, level: PermissionLevel): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(access, CREATOR_CATEGORIES, level)
  return access
}

const key = (projectId: string, kind: CreatorKind, name: string) => ({ projectId_type_kind_name: { projectId, type: CREATOR_TYPE, kind, name } })

const creatorNotFound = (kind: CreatorKind, name: string) =>
  notFound(`${CREATOR_KINDS[kind].label} (${name}) is not found!`, { [CREATOR_KINDS[kind].param]: name })

function pathName(kind: CreatorKind, raw: string): string {
  const parsed = objectName.safeParse(raw)
  if (!parsed.success) throw malformed(`${CREATOR_KINDS[kind].param}: ${parsed.error.issues[0]!.message}`, { field: CREATOR_KINDS[kind].param })
  return parsed.data
}

export async function listCreators(db: Tx, actor: Actor, kind: CreatorKind, projectName: string): Promise<CreatorView[]> {
  const access = await creatorAccess(db, actor, projectName, 'VIEW')
  const rows = await db.storedObject.findMany({ where: { projectId: access.project.id, type: CREATOR_TYPE, kind }, orderBy: { name: 'asc' } })
  return rows.map(creatorView)
}

export async function getCreator(db: Tx, actor: Actor, kind: CreatorKind, projectName: string, name: string): Promise<CreatorView> {
  const access = await creatorAccess(db, actor, projectName, 'VIEW')
  const creatorName = pathName(kind, name)
  const row = await db.storedObject.findUnique({ where: key(access.project.id, kind, creatorName) })
  if (!row) throw creatorNotFound(kind, creatorName)
  return creatorView(row)
}

/** The stored content of a creator body: what is not the source's (id, projectId) nor the name. */
function contentOf(input: CreatorInput): Record<string, unknown> {
  return {
    ...(input.description ? { description: input.description } : {}),
    endpointList: input.endpointList ?? [],
  }
}

/**
 * A body's rules beyond its schema: the name (when sent) is the path's, no two methods share name and HTTP method,
 * and a DB2API method's connection is a database connection of the project.
 */
export async function checkCreatorContent(db: Tx, projectId: string, kind: CreatorKind, name: string, raw: unknown): Promise<Record<string, unknown>> {
  const input = parseInput(CREATOR_INPUTS[kind], raw) as CreatorInput
  if (input.name != null && input.name !== name) {
    throw malformed(`name: the body's name (${input.name}) is not the name in the path (${name})`, { field: 'name' })
  }
  const seen = new Set<string>()
  for (const [i, method] of (input.endpointList ?? []).entries()) {
    const methodKey = `${method.httpMethod} ${method.name}`
    if (seen.has(methodKey)) throw malformed(`endpointList[${i}]: ${methodKey} is defined twice`, { field: `endpointList[${i}]` })
    seen.add(methodKey)
  }
  if (kind === 'DB2API') await checkConnections(db, projectId, input as Extract<CreatorInput, { endpointList?: { connectionName: string }[] | null }>)
  return contentOf(input)
}

async function checkConnections(db: Tx, projectId: string, input: { endpointList?: { connectionName: string }[] | null }) {
  const names = [...new Set((input.endpointList ?? []).map((m) => m.connectionName.trim().toLowerCase()))]
  if (!names.length) return
  const found = await db.connection.findMany({ where: { projectId, nameKey: { in: names }, type: 'database' }, select: { nameKey: true } })
  const known = new Set(found.map((c) => c.nameKey))
  const i = (input.endpointList ?? []).findIndex((m) => !known.has(m.connectionName.trim().toLowerCase()))
  if (i >= 0) {
    const name = input.endpointList![i]!.connectionName
    throw notFound(`endpointList[${i}].connectionName: Database connection (${name}) is not found in the project!`, { field: `endpointList[${i}].connectionName`, connection: name })
  }
}

/** Creates the creator, or replaces the one of that name (the vendor's "create or update (promotion)"). */
export async function saveCreator(db: Tx, actor: Actor, kind: CreatorKind, projectName: string, name: string, raw: unknown): Promise<{ creator: CreatorView; created: boolean }> {
  const access = await creatorAccess(db, actor, projectName, 'MANAGE')
  const creatorName = pathName(kind, name)
  const content = (await checkCreatorContent(db, access.project.id, kind, creatorName, raw)) as Prisma.InputJsonValue
  const existing = await db.storedObject.findUnique({ where: key(access.project.id, kind, creatorName) })
  const row = existing
    ? await db.storedObject.update({ where: { id: existing.id }, data: { content, revision: { increment: 1 } } })
    : await db.storedObject.create({ data: { projectId: access.project.id, type: CREATOR_TYPE, kind, name: creatorName, content } })
  return { creator: creatorView(row), created: !existing }
}

// By id, across projects (the /apiops/utility lookups): only creators whose project the caller may view in one of
// the categories are answered; any other id is answered exactly as an unknown one.

/** The kind a `type` query parameter names: DB2API, MOCKAPI or SCRIPT2API, any case. */
export function creatorKindOf(raw: unknown): CreatorKind {
  const value = typeof raw === 'string' ? raw.trim().toUpperCase() : ''
  const kind = CREATOR_KIND_NAMES.find((k) => k === value)
  if (kind) return kind
  throw malformed(`type: must be one of ${CREATOR_KIND_NAMES.join(', ')}`, { field: 'type' })
}

/** Of the given projects, those where the actor holds `level` in one of the categories. */
export async function projectsVisibleTo(db: Tx, actor: Actor, projectIds: string[], categories: string[], level: PermissionLevel): Promise<Set<string>> {
  const ids = [...new Set(projectIds)]
  if (!ids.length) return new Set()
  if (isSystemAdmin(actor)) return new Set(ids)
  if (actor.kind !== 'user') return new Set()
  if (isAnalyzer(actor)) return level === 'VIEW' ? new Set(ids) : new Set()
  const memberships = await db.membership.findMany({ where: { userId: actor.userId, projectId: { in: ids } }, include: { grants: true, project: { select: { id: true, name: true } } } })
  return new Set(
    memberships
      .filter((m) => {
        const access: ProjectAccess = { project: m.project, systemAdmin: false, grants: new Set(m.grants.map((g) => grantKey(g.category, g.level))) }
        return categories.some((c) => can(access, c, level))
      })
      .map((m) => m.projectId),
  )
}

async function visibleCreators(db: Tx, actor: Actor, kind: CreatorKind, ids: string[]): Promise<StoredObject[]> {
  const wanted = [...new Set(ids.map((id) => id.trim()).filter(Boolean))]
  if (!wanted.length) return []
  const rows = await db.storedObject.findMany({ where: { id: { in: wanted }, type: CREATOR_TYPE, kind } })
  const visible = await projectsVisibleTo(db, actor, rows.map((r) => r.projectId), CREATOR_CATEGORIES, 'VIEW')
  return rows.filter((r) => visible.has(r.projectId))
}

export async function creatorNameById(db: Tx, actor: Actor, kind: CreatorKind, id: string): Promise<NameById> {
  const [row] = await visibleCreators(db, actor, kind, [id])
  if (!row) throw notFound(`${CREATOR_KINDS[kind].label} (${id}) is not found!`, { [CREATOR_KINDS[kind].idParam]: id })
  return { id: row.id, name: row.name }
}

/** The names of the ids the caller may see, in the order asked; unknown and invisible ids are left out. */
export async function creatorNamesByIds(db: Tx, actor: Actor, rawKind: unknown, rawIds: unknown): Promise<NameById[]> {
  const kind = creatorKindOf(rawKind)
  const ids = parseInput(creatorIdList, rawIds)
  const byId = new Map((await visibleCreators(db, actor, kind, ids)).map((r) => [r.id, r.name]))
  return [...new Set(ids.map((id) => id.trim()))].filter((id) => byId.has(id)).map((id) => ({ id, name: byId.get(id)! }))
}
