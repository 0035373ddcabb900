import { Prisma } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { containsText } from '../../../platform/envelopes/paging.js'
import { notFound } from '../../../platform/errors/domain-error.js'
import type { BulkSubjectType, SelectorInput } from './inputs.js'

// Resolves a §2.14 selector to the subjects of one project, in a stable order (by subject key, unique in a
// project), so that chunks, samples and fingerprints are reproducible. The subjects come a page at a time (keyset
// paging on the key): a caller holds one page, never the whole selection, so memory stays flat in subject count.

export interface Subject { id: string; name: string }

/** Subjects per page of a resolution. */
export const SUBJECT_PAGE = 5000

/** One page of a resolution, in key order. */
export interface SelectorPage {
  /** the page's subjects, without those excludeSubjectKeys removed */
  subjects: Subject[]
  /** subjects of the page the selector matched before excludeSubjectKeys */
  includedCount: number
  /** subjects of the page excludeSubjectKeys removed */
  excludedCount: number
}

interface SubjectFilters {
  organizationIds?: string[]
  search?: string
  enabledOnly?: boolean
  keys?: string[]
  /** keyset paging: only keys after this one, at most `take` of them */
  after?: string
  take?: number
}

/** Keyset condition on the subject key, as one more AND term (the key may be filtered by `keys` too). */
const keyAfter = <K extends string>(key: K, after: string | undefined) => (after === undefined ? {} : { AND: [{ [key]: { gt: after } } as Record<K, { gt: string }>] })

/** The assignment column that references a subject of each bulk subject type. */
export const SUBJECT_COLUMN: Record<BulkSubjectType, 'credentialId' | 'apiClientId' | 'applicationId' | 'organizationId'> = {
  CONSUMER: 'credentialId',
  API_CLIENT: 'apiClientId',
  APPLICATION: 'applicationId',
  ORGANIZATION: 'organizationId',
}

/** The table of each bulk subject type and its key column (the key findSubjects reads), for the statements written in SQL. */
export const SUBJECT_TABLE: Record<BulkSubjectType, { table: string; key: string }> = {
  CONSUMER: { table: 'Credential', key: 'username' },
  API_CLIENT: { table: 'ApiClient', key: 'clientId' },
  APPLICATION: { table: 'Application', key: 'name' },
  ORGANIZATION: { table: 'Organization', key: 'code' },
}

/** What a subject key is, per type (spec §2.13): username, clientId, application name, organization code. */
export const SUBJECT_KEY_NAME: Record<BulkSubjectType, string> = {
  CONSUMER: 'username',
  API_CLIENT: 'clientId',
  APPLICATION: 'application name',
  ORGANIZATION: 'organization code',
}

async function findSubjects(db: Tx, projectId: string, type: BulkSubjectType, f: SubjectFilters): Promise<Subject[]> {
  switch (type) {
    case 'CONSUMER': {
      const where: Prisma.CredentialWhereInput = {
        projectId,
        ...(f.organizationIds ? { organizationId: { in: f.organizationIds } } : {}),
        ...(f.enabledOnly ? { enabled: true } : {}),
        ...(f.search ? { OR: [{ username: containsText(f.search) }, { fullName: containsText(f.search) }] } : {}),
        ...(f.keys ? { username: { in: f.keys } } : {}),
        ...keyAfter('username', f.after),
      }
      const rows = await db.credential.findMany({ where, select: { id: true, username: true }, orderBy: { username: 'asc' }, take: f.take })
      return rows.map((r) => ({ id: r.id, name: r.username }))
    }
    case 'API_CLIENT': {
      const where: Prisma.ApiClientWhereInput = {
        projectId,
        ...(f.organizationIds ? { organizationId: { in: f.organizationIds } } : {}),
        ...(f.enabledOnly ? { operationalState: 'ACTIVE' } : {}),
        ...(f.search ? { OR: [{ name: containsText(f.search) }, { clientId: containsText(f.search) }] } : {}),
        ...(f.keys ? { clientId: { in: f.keys } } : {}),
        ...keyAfter('clientId', f.after),
      }
      const rows = await db.apiClient.findMany({ where, select: { id: true, clientId: true }, orderBy: { clientId: 'asc' }, take: f.take })
      return rows.map((r) => ({ id: r.id, name: r.clientId }))
    }
    case 'APPLICATION': {
      const where: Prisma.ApplicationWhereInput = {
        projectId,
        ...(f.organizationIds ? { organizationId: { in: f.organizationIds } } : {}),
        ...(f.enabledOnly ? { appStatus: 'ACTIVE' } : {}),
        ...(f.search ? { name: containsText(f.search) } : {}),
        ...(f.keys ? { name: { in: f.keys } } : {}),
        ...keyAfter('name', f.after),
      }
      const rows = await db.application.findMany({ where, select: { id: true, name: true }, orderBy: { name: 'asc' }, take: f.take })
      return rows.map((r) => ({ id: r.id, name: r.name }))
    }
    case 'ORGANIZATION': {
      const where: Prisma.OrganizationWhereInput = {
        projectId,
        ...(f.organizationIds ? { id: { in: f.organizationIds } } : {}),
        ...(f.enabledOnly ? { state: 'ACTIVE', suspended: false } : {}),
        ...(f.search ? { OR: [{ name: containsText(f.search) }, { code: containsText(f.search) }] } : {}),
        ...(f.keys ? { code: { in: f.keys } } : {}),
        ...keyAfter('code', f.after),
      }
      const rows = await db.organization.findMany({ where, select: { id: true, code: true }, orderBy: { code: 'asc' }, take: f.take })
      return rows.map((r) => ({ id: r.id, name: r.code }))
    }
  }
}

/** Every key of the list must name a subject of the type in the project; else 404 naming the first missing one. */
async function requireKnownKeys(db: Tx, projectId: string, type: BulkSubjectType, keys: string[] | undefined) {
  if (!keys?.length) return
  const unique = [...new Set(keys)]
  const found = new Set((await findSubjects(db, projectId, type, { keys: unique })).map((s) => s.name))
  const missing = unique.filter((k) => !found.has(k))
  if (missing.length) {
    throw notFound(`No ${type} with ${SUBJECT_KEY_NAME[type]} '${missing[0]}' in the project (${missing.length} unknown)`, {
      subjectType: type, subject: missing[0], missingCount: missing.length,
    })
  }
}

/** Organization ids of the codes (unknown code → 404), with their descendants when asked. */
async function organizationIds(db: Tx, projectId: string, codes: string[] | undefined, withDescendants: boolean): Promise<string[] | undefined> {
  if (!codes) return undefined
  const orgs = await db.organization.findMany({ where: { projectId }, select: { id: true, code: true, parentId: true } })
  const byCode = new Map(orgs.map((o) => [o.code, o]))
  const ids = new Set<string>()
  for (const code of codes) {
    const org = byCode.get(code)
    if (!org) throw notFound(`Organization '${code}' not found in the project`, { organization: code })
    ids.add(org.id)
  }
  if (withDescendants) {
    let grew = true
    while (grew) {
      grew = false
      for (const o of orgs) if (o.parentId && ids.has(o.parentId) && !ids.has(o.id)) ids.add(o.id), (grew = true)
    }
  }
  return [...ids]
}

/**
 * The selector's subjects before the existingAssignment filter (which depends on the content), a page at a time in
 * key order. Its references are checked first (unknown subject key or organization → 404) when this resolves;
 * the pages are read as they are iterated, in the caller's transaction.
 */
export async function resolveSelector(db: Tx, projectId: string, selector: SelectorInput, pageSize = SUBJECT_PAGE): Promise<AsyncGenerator<SelectorPage>> {
  const type = selector.subjectType
  await requireKnownKeys(db, projectId, type, selector.subjectKeys)
  await requireKnownKeys(db, projectId, type, selector.excludeSubjectKeys)
  const orgIds = await organizationIds(db, projectId, selector.organizationCodes, selector.includeSubOrganizations ?? false)
  const filters: SubjectFilters = {
    organizationIds: orgIds, search: selector.search?.trim() || undefined, enabledOnly: selector.enabledOnly,
    keys: selector.subjectKeys ? [...new Set(selector.subjectKeys)] : undefined, take: pageSize,
  }
  const excluded = new Set(selector.excludeSubjectKeys ?? [])
  return (async function* pages() {
    let after: string | undefined
    for (;;) {
      const matched = await findSubjects(db, projectId, type, { ...filters, after })
      if (!matched.length) return
      const subjects = excluded.size ? matched.filter((s) => !excluded.has(s.name)) : matched
      yield { subjects, includedCount: matched.length, excludedCount: matched.length - subjects.length }
      if (matched.length < pageSize) return
      after = matched[matched.length - 1].name
    }
  })()
}

/** Per type, what enabledOnly keeps (findSubjects' filter), in SQL on the subject table. */
const ENABLED_SQL: Record<BulkSubjectType, string> = {
  CONSUMER: '"enabled"',
  API_CLIENT: `"operationalState" = 'ACTIVE'`,
  APPLICATION: `"appStatus" = 'ACTIVE'`,
  ORGANIZATION: `"state" = 'ACTIVE' AND NOT "suspended"`,
}

/** Per type, the column organizationCodes filter on (an organization selects itself). */
const ORGANIZATION_COLUMN: Record<BulkSubjectType, string> = { CONSUMER: 'organizationId', API_CLIENT: 'organizationId', APPLICATION: 'organizationId', ORGANIZATION: 'id' }

/**
 * The selector's subjects as one SELECT of columns `id` and `key` — the subjects resolveSelector pages through, in
 * the same key order, before excludeSubjectKeys — so that PREPARE records them with one INSERT … SELECT, no subject
 * passing through the process. Its references are checked first as resolveSelector's are (unknown subject key or
 * organization → 404). Null for a selector with a search, whose matching is Prisma's (containsText): resolved page by page.
 */
export async function selectorSubjectsSql(db: Tx, projectId: string, selector: SelectorInput): Promise<Prisma.Sql | null> {
  if (selector.search?.trim()) return null
  const type = selector.subjectType
  await requireKnownKeys(db, projectId, type, selector.subjectKeys)
  await requireKnownKeys(db, projectId, type, selector.excludeSubjectKeys)
  const orgIds = await organizationIds(db, projectId, selector.organizationCodes, selector.includeSubOrganizations ?? false)
  const { table, key } = SUBJECT_TABLE[type]
  const keyColumn = Prisma.raw(`"${key}"`)
  const where = [Prisma.sql`"projectId" = ${projectId}`]
  if (orgIds) where.push(Prisma.sql`${Prisma.raw(`"${ORGANIZATION_COLUMN[type]}"`)} = ANY(${orgIds}::text[])`)
  if (selector.enabledOnly) where.push(Prisma.raw(ENABLED_SQL[type]))
  if (selector.subjectKeys) where.push(Prisma.sql`${keyColumn} = ANY(${[...new Set(selector.subjectKeys)]}::text[])`)
  return Prisma.sql`SELECT "id" AS id, ${keyColumn} AS key FROM ${Prisma.raw(`"${table}"`)} WHERE ${Prisma.join(where, ' AND ')}`
}

/** Current keys of subjects by id (a subject may have been renamed or deleted since a run recorded it). */
export async function subjectsById(db: Tx, type: BulkSubjectType, ids: string[]): Promise<Map<string, string>> {
  const { table, key } = SUBJECT_TABLE[type]
  const rows = await db.$queryRaw<{ id: string; key: string }[]>`
    SELECT "id", ${Prisma.raw(`"${key}"`)} AS "key" FROM ${Prisma.raw(`"${table}"`)} WHERE "id" = ANY(${ids}::text[])`
  return new Map(rows.map((r) => [r.id, r.key]))
}

/** The selector's references alone (subject keys, organization codes): 404 as a run would, without loading subjects. */
export async function checkSelectorReferences(db: Tx, projectId: string, selector: SelectorInput): Promise<void> {
  await requireKnownKeys(db, projectId, selector.subjectType, selector.subjectKeys)
  await requireKnownKeys(db, projectId, selector.subjectType, selector.excludeSubjectKeys)
  await organizationIds(db, projectId, selector.organizationCodes, false)
}
