import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { PermissionLevel, ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import type { DeployMessage, DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { orderByFor, parsePaging, type PagingQuery, type SortPolicy } from '../../platform/envelopes/paging.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { objectName } from '../../platform/validation/common.js'

/** Providers, definitions, the model catalog, vector stores and knowledge bases share one asset category (spec §5). */
export const AI_DEVELOPMENT = 'AI_DEVELOPMENT'

export const aiAccess = (deps: Deps, actor: Actor, projectName: string, level: PermissionLevel) =>
  authorizeInProject(deps.prisma, actor, projectName, AI_DEVELOPMENT, level)

/** Names are unique per project case-insensitively: the spec compares path and body names that way. */
export const nameKeyOf = (name: string) => name.trim().toLowerCase()

/** A name from a path: same rules as every object name (no slash, no control characters, at most 200). */
export const pathName = (value: string | undefined, field = 'name') => {
  try {
    return parseInput(objectName, value ?? '')
  } catch {
    throw malformed(`${field}: must be a non-blank name without / \\ ? # % or control characters, at most 200 characters`, { field })
  }
}

/**
 * The body name rule of the AI resources: it must equal the path name case-insensitively; a blank name is
 * refused when `required` (create), otherwise it falls back to the path value.
 */
export function effectiveName(bodyName: unknown, pathValue: string, required: boolean, field = 'name'): string {
  const given = typeof bodyName === 'string' ? bodyName.trim() : ''
  if (!given) {
    if (required) throw malformed(`${field} is required and must equal the path name '${pathValue}'`, { field })
    return pathValue
  }
  if (nameKeyOf(given) !== nameKeyOf(pathValue)) {
    throw malformed(`${field} '${given}' does not match the name in the path '${pathValue}'`, { field, path: pathValue, body: given })
  }
  return pathName(given, field)
}

export interface NamedWrite<T> {
  access: ProjectAccess
  /** the path name */
  name: string
  body: Record<string, unknown>
  /** the stored row of that name, null on a create */
  current: T | null
  /** the name to save: the body's (equal to the path's case-insensitively) or, on update when blank, the path's */
  finalName: string
}

/**
 * The opening of every POST (upsert) and PUT (must exist) of a named AI resource, the rules in the order
 * they apply: MANAGE in the project, a valid path name, `guard` (e.g. built-ins are read-only), a JSON
 * object body, its `_class` when the body is polymorphic, the stored row (PUT: not found otherwise), and
 * the body name rule (`effectiveName`, on `nameField`).
 */
export async function openNamedWrite<T>(
  deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown, mode: 'upsert' | 'update',
  rules: {
    find: (projectId: string, name: string) => Promise<T | null>
    notFound: (name: string, projectName: string) => Error
    bodyClass?: string
    nameField?: string
    guard?: (name: string) => void
  },
): Promise<NamedWrite<T>> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const nameField = rules.nameField ?? 'name'
  const name = pathName(rawPathName, nameField)
  rules.guard?.(name)
  const body = requireObjectBody(raw)
  if (rules.bodyClass) requireClass(body, rules.bodyClass)
  const current = await rules.find(access.project.id, name)
  if (mode === 'update' && !current) throw rules.notFound(name, access.project.name)
  return { access, name, body, current, finalName: effectiveName(body[nameField], name, mode === 'upsert', nameField) }
}

/** The body of every JSON write must be an object; anything else is refused before any rule runs. */
export function requireObjectBody(raw: unknown): Record<string, unknown> {
  if (raw === null || raw === undefined || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('Request body must be a JSON object', { reason: 'bodyRequired' })
  return raw as Record<string, unknown>
}

/** A polymorphic body must name its type: without `_class` it cannot be read (spec §7.1). */
export function requireClass(body: Record<string, unknown>, expected: string): void {
  const value = body._class
  if (value === undefined || value === null || value === '') {
    throw malformed(`_class is required: the body cannot be deserialized without its type id (expected '${expected}')`, { field: '_class' })
  }
  if (value !== expected) throw malformed(`_class '${String(value)}' is not supported here (expected '${expected}')`, { field: '_class' })
}

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002'

/**
 * Runs the create or update of a named row; a name taken meanwhile (the unique name key) answers
 * "<what> '<name>' already exists" rather than an error of the database.
 */
export async function saveNamed<T>(what: string, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError('validation', 'alreadyExists', `${what} '${name}' already exists`, { name })
    throw err
  }
}

/** A row still referenced (onDelete: Restrict) by one created after the in-use check. */
const isReferencedViolation = (err: unknown) => ['P2003', 'P2014'].includes((err as { code?: string } | null)?.code ?? '')

/**
 * Deletes a connection (provider, vector store) unless a knowledge base uses it, as it would break: checked
 * first for a message naming them (`usage` reads "<what> <usage> knowledge base(s) 'a', 'b'"), and by the
 * foreign key for one created meanwhile.
 */
export async function deleteUnlessKnowledgeBasesUse(db: Tx, usedBy: Prisma.KnowledgeBaseWhereInput, what: string, usage: string, remove: () => Promise<unknown>) {
  const inUse = (names: string[]) =>
    new DomainError('validation', 'inUse', `${what} ${usage} knowledge base(s)${names.length ? ` ${names.map((n) => `'${n}'`).join(', ')}` : ''}`, { knowledgeBases: names })
  const kbs = await db.knowledgeBase.findMany({ where: usedBy, select: { name: true }, orderBy: { nameKey: 'asc' } })
  if (kbs.length) throw inUse(kbs.map((k) => k.name))
  try {
    await remove()
  } catch (err) {
    if (isReferencedViolation(err)) throw inUse([])
    throw err
  }
}

/**
 * The one rule of every secret (spec §2.1, §4.5): a non-blank value is sealed (set, or rotated); a blank or
 * absent one keeps `stored`, which is null on create and when nothing may be carried over.
 */
export const sealSecret = (keyring: SecretKeyring, value: string | null | undefined, stored: string | null = null) =>
  value != null && value.trim() !== '' ? keyring.encrypt(value) : stored

export const open = (keyring: SecretKeyring, sealed: string | null) => (sealed ? keyring.decrypt(sealed) : null)

/** Saved changes go to every environment of the project; the push never undoes the save (spec §1 rule 6). */
export async function pushToProject(deps: Deps, access: ProjectAccess, message: Omit<DeployMessage, 'project'>): Promise<DeploymentOutcome> {
  const environments = await projectEnvironments(deps.prisma, access.project.id)
  return deps.deployer.push(environments, { ...message, project: access.project.name })
}

/** The push of a delete: every environment drops the object; config names it alike for every kind ({ id, name }). */
export const undeployFromProject = (deps: Deps, access: ProjectAccess, kind: string, row: { id: string; revision: number }, name: string) =>
  pushToProject(deps, access, { action: 'UNDEPLOY', kind, name, revision: row.revision + 1, config: { id: row.id, name } })

/** Reads blank strings as absent, so a default can take their place. */
export const blankToNull = (s: string | null | undefined) => (s == null || s.trim() === '' ? null : s.trim())

/** GraphQL pages of the named AI resources: sort by name (case-insensitive), createdAt or updatedAt. */
export const NAMED_SORT: SortPolicy = { defaultSort: 'name,asc', supported: ['name', 'createdAt', 'updatedAt'] }

/** skip/take and a stable order (id as tie-break) for a page of a named resource; `name` sorts by nameKey. */
export function namedPage(query: PagingQuery, policy: SortPolicy = NAMED_SORT, columns: Record<string, string> = { name: 'nameKey' }) {
  const request = parsePaging(query, policy)
  return { request, orderBy: orderByFor(request, 'id', columns), skip: request.skip, take: request.take }
}
