import type { Prisma } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { containsText } from '../../../platform/envelopes/paging.js'
import { notFound } from '../../../platform/errors/domain-error.js'
import type { BulkSubjectType, SelectorInput } from './inputs.js'

// Resolves a §2.14 selector to the subjects of one project, in a stable order (by subject key), so that
// chunks, samples and fingerprints are reproducible. Only ids and keys are loaded: 50,000 subjects stay small.

export interface Subject { id: string; name: string }

export interface Resolution {
  subjects: Subject[]
  /** subjects the selector matched before excludeSubjectKeys */
  includedCount: number
  /** subjects excludeSubjectKeys removed */
  excludedCount: number
}

interface SubjectFilters {
  organizationIds?: string[]
  search?: string
  enabledOnly?: boolean
  keys?: string[]
}

/** The assignment column that references a subject of each bulk subject type. */
export const SUBJECT_COLUMN: Record<BulkSubjectType, 'credentialId' | 'apiClientId' | 'applicationId' | 'organizationId'> = {
  CONSUMER: 'credentialId',
  API_CLIENT: 'apiClientId',
  APPLICATION: 'applicationId',
  ORGANIZATION: 'organizationId',
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
      }
      const rows = await db.credential.findMany({ where, select: { id: true, username: true }, orderBy: { username: 'asc' } })
      return rows.map((r) => ({ id: r.id, name: r.username }))
    }
    case 'API_CLIENT': {
      const where: Prisma.ApiClientWhereInput = {
        projectId,
        ...(f.organizationIds ? { organizationId: { in: f.organizationIds } } : {}),
        ...(f.enabledOnly ? { operationalState: 'ACTIVE' } : {}),
        ...(f.search ? { OR: [{ name: containsText(f.search) }, { clientId: containsText(f.search) }] } : {}),
        ...(f.keys ? { clientId: { in: f.keys } } : {}),
      }
      const rows = await db.apiClient.findMany({ where, select: { id: true, clientId: true }, orderBy: { clientId: 'asc' } })
      return rows.map((r) => ({ id: r.id, name: r.clientId }))
    }
    case 'APPLICATION': {
      const where: Prisma.ApplicationWhereInput = {
        projectId,
        ...(f.organizationIds ? { organizationId: { in: f.organizationIds } } : {}),
        ...(f.enabledOnly ? { appStatus: 'ACTIVE' } : {}),
        ...(f.search ? { name: containsText(f.search) } : {}),
        ...(f.keys ? { name: { in: f.keys } } : {}),
      }
      const rows = await db.application.findMany({ where, select: { id: true, name: true }, orderBy: { name: 'asc' } })
      return rows.map((r) => ({ id: r.id, name: r.name }))
    }
    case 'ORGANIZATION': {
      const where: Prisma.OrganizationWhereInput = {
        projectId,
        ...(f.organizationIds ? { id: { in: f.organizationIds } } : {}),
        ...(f.enabledOnly ? { state: 'ACTIVE', suspended: false } : {}),
        ...(f.search ? { OR: [{ name: containsText(f.search) }, { code: containsText(f.search) }] } : {}),
        ...(f.keys ? { code: { in: f.keys } } : {}),
      }
      const rows = await db.organization.findMany({ where, select: { id: true, code: true }, orderBy: { code: 'asc' } })
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

/** The selector's subjects before the existingAssignment filter (which depends on the content). */
export async function resolveSelector(db: Tx, projectId: string, selector: SelectorInput): Promise<Resolution> {
  const type = selector.subjectType
  await requireKnownKeys(db, projectId, type, selector.subjectKeys)
  await requireKnownKeys(db, projectId, type, selector.excludeSubjectKeys)
  const orgIds = await organizationIds(db, projectId, selector.organizationCodes, selector.includeSubOrganizations ?? false)
  const search = selector.search?.trim() || undefined
  const matched = await findSubjects(db, projectId, type, {
    organizationIds: orgIds, search, enabledOnly: selector.enabledOnly, keys: selector.subjectKeys ? [...new Set(selector.subjectKeys)] : undefined,
  })
  const excluded = new Set(selector.excludeSubjectKeys ?? [])
  const subjects = excluded.size ? matched.filter((s) => !excluded.has(s.name)) : matched
  return { subjects, includedCount: matched.length, excludedCount: matched.length - subjects.length }
}

/** Current keys of subjects by id (a subject may have been renamed or deleted since a run recorded it). */
export async function subjectsById(db: Tx, type: BulkSubjectType, ids: string[]): Promise<Map<string, string>> {
  const keyed = async () => {
    switch (type) {
      case 'CONSUMER': return (await db.credential.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } })).map((r) => [r.id, r.username] as const)
      case 'API_CLIENT': return (await db.apiClient.findMany({ where: { id: { in: ids } }, select: { id: true, clientId: true } })).map((r) => [r.id, r.clientId] as const)
      case 'APPLICATION': return (await db.application.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })).map((r) => [r.id, r.name] as const)
      case 'ORGANIZATION': return (await db.organization.findMany({ where: { id: { in: ids } }, select: { id: true, code: true } })).map((r) => [r.id, r.code] as const)
    }
  }
  return new Map(await keyed())
}

/** The selector's references alone (subject keys, organization codes): 404 as a run would, without loading subjects. */
export async function checkSelectorReferences(db: Tx, projectId: string, selector: SelectorInput): Promise<void> {
  await requireKnownKeys(db, projectId, selector.subjectType, selector.subjectKeys)
  await requireKnownKeys(db, projectId, selector.subjectType, selector.excludeSubjectKeys)
  await organizationIds(db, projectId, selector.organizationCodes, false)
}
