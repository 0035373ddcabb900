import { z } from 'zod'
import type { Tx } from '../../platform/context.js'
import { DomainError } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { objectName } from '../../platform/validation/common.js'

/** Kinds of the multi-kind exportable types; a single-kind type stores kind "". */
export const OBJECT_KINDS: Record<string, readonly string[]> = {
  CERTIFICATE: ['CERTIFICATE', 'KEY_STORE', 'CRYPTO_KEY_INFO', 'JWK'],
  API_CREATOR: ['OPENAPI', 'WSDL', 'GRPC_PROTO', 'GRAPHQL_SDL'],
  IDENTITY_SERVICE: ['LDAP', 'ACTIVE_DIRECTORY', 'OIDC', 'SAML', 'DATABASE'],
}

export const OPAQUE_OBJECT_TYPES = ['IP_GROUP', 'CERTIFICATE', 'GLOBAL_POLICY', 'API_CREATOR', 'IDENTITY_SERVICE', 'KNOWLEDGE_BASE', 'LLM_PROVIDER', 'WEBHOOK_CONNECTION'] as const

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
