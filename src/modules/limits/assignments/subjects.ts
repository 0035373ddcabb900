import type { Prisma } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { notFound } from '../../../platform/errors/domain-error.js'
import type { LimitSubjectType } from '../shared/enums.js'

// Subject keys of spec §2.13: consumer username, API client clientId, application name, organization code,
// API proxy name — each resolved inside the assignment's project and stored by internal reference.

/** The internal reference columns of LimitAssignment; exactly one is set for a keyed subject. */
export interface SubjectRef {
  credentialId: string | null
  applicationId: string | null
  apiClientId: string | null
  organizationId: string | null
  apiProxyId: string | null
}

export interface ResolvedSubject {
  type: LimitSubjectType
  /** the key as the client names the subject; null for PLATFORM, PROJECT and AUDIENCE_RULE */
  key: string | null
  ref: SubjectRef
}

export const NO_REF: SubjectRef = { credentialId: null, applicationId: null, apiClientId: null, organizationId: null, apiProxyId: null }

export const subjectNotFound = (type: LimitSubjectType, key: string, missingCount = 1) =>
  notFound(`${type} '${key}' not found in the project`, { subjectType: type, subject: key, missingCount })

/** The id column of a keyed subject type. */
export const REF_COLUMN: Partial<Record<LimitSubjectType, keyof SubjectRef>> = {
  CONSUMER: 'credentialId',
  APPLICATION: 'applicationId',
  API_CLIENT: 'apiClientId',
  ORGANIZATION: 'organizationId',
  API_PROXY: 'apiProxyId',
}

/**
 * Resolves many keys of one subject type in one query (bulk chunks use this). Returns the found subjects by
 * key; keys that resolve to nothing are simply absent (the caller reports them).
 */
export async function resolveSubjectKeys(db: Tx, projectId: string, type: LimitSubjectType, keys: readonly string[]): Promise<Map<string, ResolvedSubject>> {
  const found = new Map<string, ResolvedSubject>()
  const column = REF_COLUMN[type]
  if (!column || keys.length === 0) return found
  const unique = [...new Set(keys)]
  let rows: { id: string; key: string }[]
  switch (type) {
    case 'CONSUMER':
      rows = (await db.credential.findMany({ where: { projectId, username: { in: unique } }, select: { id: true, username: true } })).map((r) => ({ id: r.id, key: r.username }))
      break
    case 'API_CLIENT':
      rows = (await db.apiClient.findMany({ where: { projectId, clientId: { in: unique } }, select: { id: true, clientId: true } })).map((r) => ({ id: r.id, key: r.clientId }))
      break
    case 'APPLICATION':
      rows = (await db.application.findMany({ where: { projectId, name: { in: unique } }, select: { id: true, name: true } })).map((r) => ({ id: r.id, key: r.name }))
      break
    case 'ORGANIZATION':
      rows = (await db.organization.findMany({ where: { projectId, code: { in: unique } }, select: { id: true, code: true } })).map((r) => ({ id: r.id, key: r.code }))
      break
    default:
      rows = (await db.apiProxy.findMany({ where: { projectId, name: { in: unique } }, select: { id: true, name: true } })).map((r) => ({ id: r.id, key: r.name }))
  }
  for (const row of rows) found.set(row.key, { type, key: row.key, ref: { ...NO_REF, [column]: row.id } })
  return found
}

/**
 * Resolves one subject of an assignment body in the project: keyed types by their key (unknown → 404
 * resourceNotFound with params.subjectType and params.subject); PLATFORM, PROJECT and AUDIENCE_RULE have none.
 */
export async function resolveSubject(db: Tx, projectId: string, subject: { type: LimitSubjectType; key: string | null }): Promise<ResolvedSubject> {
  if (!REF_COLUMN[subject.type] || subject.key === null) return { type: subject.type, key: null, ref: NO_REF }
  const found = (await resolveSubjectKeys(db, projectId, subject.type, [subject.key])).get(subject.key)
  if (!found) throw subjectNotFound(subject.type, subject.key)
  return found
}

/** What a read needs to render the subject's current key (names follow renames). */
export const subjectInclude = {
  credential: { select: { username: true } },
  application: { select: { name: true } },
  apiClient: { select: { clientId: true } },
  organization: { select: { code: true } },
  apiProxy: { select: { name: true } },
} satisfies Prisma.LimitAssignmentInclude

/** The where clause that finds the assignments of one resolved subject. */
export function subjectWhere(subject: ResolvedSubject): Prisma.LimitAssignmentWhereInput {
  const column = REF_COLUMN[subject.type]
  return column ? { subjectType: subject.type, [column]: subject.ref[column] } : { subjectType: subject.type }
}
