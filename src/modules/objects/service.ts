import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import { can, requirePermission } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { orderByFor, parsePaging, findPage, type PagingQuery } from '../../platform/envelopes/paging.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'

/** Kinds of the multi-kind exportable types; a single-kind type stores kind "". */
export const OBJECT_KINDS: Record<string, readonly string[]> = {
  CERTIFICATE: ['CERTIFICATE', 'KEY_STORE', 'CRYPTO_KEY_INFO', 'JWK'],
  // DB2API, MOCKAPI and SCRIPT2API are the creators of modules/creators (validated there, also on import)
  API_CREATOR: ['OPENAPI', 'WSDL', 'GRPC_PROTO', 'GRAPHQL_SDL', 'DB2API', 'MOCKAPI', 'SCRIPT2API'],
  IDENTITY_SERVICE: ['LDAP', 'ACTIVE_DIRECTORY', 'OIDC', 'SAML', 'DATABASE'],
}

/**
 * Exportable types no module owns yet: their objects are kept as opaque JSON. LLM_PROVIDER and
 * KNOWLEDGE_BASE belong to the llm module, WEBHOOK_CONNECTION to webhooks, CREDENTIAL to credentials.
 */
export const OPAQUE_OBJECT_TYPES = ['IP_GROUP', 'CERTIFICATE', 'GLOBAL_POLICY', 'API_CREATOR', 'IDENTITY_SERVICE'] as const

export const storedObjectFields = z.object({
  type: z.enum(OPAQUE_OBJECT_TYPES),
  kind: z.string().optional(),
  name: objectName,
  content: z.record(z.string(), z.unknown()).default({}),
})

/** A multi-kind type needs one of its kinds; a single-kind type takes none. */
export function checkObjectKind(o: { type: string; kind?: string }, ctx: z.RefinementCtx) {
  const kinds = OBJECT_KINDS[o.type]
  if (kinds && !o.kind) ctx.addIssue({ code: 'custom', path: ['kind'], message: `is required for ${o.type}: one of ${kinds.join(', ')}` })
    if (kinds && o.kind && !kinds.includes(o.kind)) ctx.addIssue({ code: 'custom', path: ['kind'], message: `must be one of ${kinds.join(', ')}` })
    if (!kinds && o.kind) ctx.addIssue({ code: 'custom', path: ['kind'], message: `${o.type} has no kinds` })
}

export const storedObjectInput = storedObjectFields.superRefine(checkObjectKind)
export type StoredObjectInput = z.input<typeof storedObjectInput>

/** Natural key of an opaque object: (type, kind, name) within the project. */
export async function insertStoredObject(db: Tx, projectId: string, raw: StoredObjectInput) {
  const input = parseInput(storedObjectInput, raw)
  const key = { projectId, type: input.type, kind: input.kind ?? '', name: input.name }
  if (await db.storedObject.findUnique({ where: { projectId_type_kind_name: key } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `${input.type} '${input.name}' already exists`, { field: 'name' })
  }
  return db.storedObject.create({ data: { ...key, content: input.content as object } })
}

// Reading: each type is its own asset category (RUNTIME.md §3), so VIEW is checked per type.

export const STORED_OBJECT_SORT = { defaultSort: 'name,asc', supported: ['name', 'type', 'kind', 'createdAt', 'updatedAt'] } as const

const typeFilter = z.object({ type: z.enum(OPAQUE_OBJECT_TYPES).nullish() })

/** One page of the project's stored objects; without a type filter, only the types the caller may view. */
export async function pageStoredObjects(db: Tx, actor: Actor, projectName: string, query: PagingQuery & { type?: string | null }) {
  const access = await resolveProjectAccess(db, actor, projectName)
  const { type } = parseInput(typeFilter, { type: query.type })
  if (type) requirePermission(access, type, 'VIEW')
  const page = parsePaging(query, STORED_OBJECT_SORT)
  const types = type ? [type] : OPAQUE_OBJECT_TYPES.filter((t) => can(access, t, 'VIEW'))
  const where = { projectId: access.project.id, type: { in: types } }
  return findPage(
    page,
    db.storedObject.findMany({ where, orderBy: orderByFor(page, 'id'), skip: page.skip, take: page.take }),
    db.storedObject.count({ where }),
  )
}

const objectKey = storedObjectFields.pick({ type: true, kind: true, name: true }).superRefine(checkObjectKind)

/** One object by its natural key (type, kind, name); kind only for the multi-kind types. */
export async function getStoredObject(db: Tx, actor: Actor, projectName: string, raw: { type: string; kind?: string; name: string }) {
  const access = await resolveProjectAccess(db, actor, projectName)
  const key = parseInput(objectKey, raw)
  requirePermission(access, key.type, 'VIEW')
  const found = await db.storedObject.findUnique({
    where: { projectId_type_kind_name: { projectId: access.project.id, type: key.type, kind: key.kind ?? '', name: key.name } },
  })
  if (!found) throw notFound(`${key.type} '${key.name}' not found`, { type: key.type, ...(key.kind ? { kind: key.kind } : {}), name: key.name })
  return found
}
