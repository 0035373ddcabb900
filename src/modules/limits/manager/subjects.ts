import { z } from 'zod'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { countedKeys } from '../../../platform/db/counted-keys.js'
import { countedRows, onlyScope } from '../../../platform/db/list-count.js'
import { containsText, findPage, findPageByCountedKeys, parsePaging, type OrderBy, type PageRequest, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { bulkProject } from '../bulk/access.js'
import { BULK_SUBJECT_TYPES } from '../bulk/inputs.js'

// The pickers of the console's bulk assignment dialog (spec §4.11): subjects of one type by search, and the
// organization tree a selector can name.

const flag = z.preprocess((v) => (v === undefined || v === '' ? undefined : v), z.enum(['true', 'false']).optional()).transform((v) => v === 'true')

export const subjectSearchQuery = z.object({
  projectId: z.string().optional().describe('project name (required)'),
  subjectType: z.enum(BULK_SUBJECT_TYPES).describe('CONSUMER, API_CLIENT, APPLICATION or ORGANIZATION'),
  search: z.string().optional().describe('case-insensitive contains on the key or the display name'),
  organizationCode: z.string().optional().describe('only subjects of this organization'),
  enabledOnly: flag.describe('true: only enabled (consumers), ACTIVE (clients, applications), ACTIVE and not suspended (organizations)'),
  page: z.unknown().optional().describe('from 0'),
  size: z.unknown().optional().describe('default 20, at most 200'),
  sort: z.unknown().optional().describe('subjectKey,asc or subjectKey,desc'),
})

export const SUBJECT_SORT = { defaultSort: 'subjectKey,asc', supported: ['subjectKey'] } as const

export interface SubjectItem { subjectType: string; subjectKey: string; displayName: string | null; organizationCode: string | null; enabled: boolean }

/** Bulk work is per project: the manager surface names it in the projectId query (a project name). */
export function requireProjectName(query: { projectId?: unknown }): string {
  const name = typeof query.projectId === 'string' ? query.projectId.trim() : ''
  if (!name) throw malformed('Query parameter projectId (the project name) is required', { field: 'projectId' })
  return name
}

export async function searchSubjects(db: Tx, actor: Actor, rawQuery: unknown) {
  const query = parseInput(subjectSearchQuery, rawQuery)
  const project = await bulkProject(db, actor, requireProjectName(query), 'VIEW')
  const page = parsePaging(query as PagingQuery, SUBJECT_SORT)
  const dir = page.sort[0]?.direction ?? 'asc'
  let organizationId: string | undefined
  if (query.organizationCode?.trim()) {
    const org = await db.organization.findUnique({ where: { projectId_code: { projectId: project.id, code: query.organizationCode.trim() } } })
    if (!org) throw notFound(`Organization '${query.organizationCode}' not found`, { organization: query.organizationCode })
    organizationId = org.id
  }
  const search = query.search?.trim() || undefined
  const orgFilter = organizationId ? { organizationId } : {}
  const orderBy = (key: string) => [{ [key]: dir }]
  switch (query.subjectType) {
    case 'CONSUMER': {
      const where = { projectId: project.id, ...orgFilter, ...(query.enabledOnly ? { enabled: true } : {}), ...(search ? { OR: [{ username: containsText(search) }, { fullName: containsText(search) }] } : {}) }
      const result = await subjectPage(db, page, search, {
        table: 'Credential', key: 'username', where, orderBy: orderBy('username'),
        find: (w, window) => db.credential.findMany({ where: w, include: { organization: true }, ...window }),
        keyOf: (r) => r.username,
        count: () => (onlyScope(where, 'projectId') ? countedRows(db, 'Credential', [project.id]) : db.credential.count({ where })),
      })
      return { ...result, items: result.items.map((r): SubjectItem => ({ subjectType: 'CONSUMER', subjectKey: r.username, displayName: r.fullName, organizationCode: r.organization?.code ?? null, enabled: r.enabled })) }
    }
    case 'API_CLIENT': {
      const where = { projectId: project.id, ...orgFilter, ...(query.enabledOnly ? { operationalState: 'ACTIVE' as const } : {}), ...(search ? { OR: [{ clientId: containsText(search) }, { name: containsText(search) }] } : {}) }
      const result = await subjectPage(db, page, search, {
        table: 'ApiClient', key: 'clientId', where, orderBy: orderBy('clientId'),
        find: (w, window) => db.apiClient.findMany({ where: w, include: { organization: true }, ...window }),
        keyOf: (r) => r.clientId,
        count: () => db.apiClient.count({ where }),
      })
      return { ...result, items: result.items.map((r): SubjectItem => ({ subjectType: 'API_CLIENT', subjectKey: r.clientId, displayName: r.name, organizationCode: r.organization?.code ?? null, enabled: r.operationalState === 'ACTIVE' })) }
    }
    case 'APPLICATION': {
      const where = { projectId: project.id, ...orgFilter, ...(query.enabledOnly ? { appStatus: 'ACTIVE' as const } : {}), ...(search ? { name: containsText(search) } : {}) }
      const result = await subjectPage(db, page, search, {
        table: 'Application', key: 'name', where, orderBy: orderBy('name'),
        find: (w, window) => db.application.findMany({ where: w, include: { organization: true }, ...window }),
        keyOf: (r) => r.name,
        count: () => (onlyScope(where, 'projectId') ? countedRows(db, 'Application', [project.id]) : db.application.count({ where })),
      })
      return { ...result, items: result.items.map((r): SubjectItem => ({ subjectType: 'APPLICATION', subjectKey: r.name, displayName: r.name, organizationCode: r.organization?.code ?? null, enabled: r.appStatus === 'ACTIVE' })) }
    }
    case 'ORGANIZATION': {
      const where = {
        projectId: project.id, ...(organizationId ? { parentId: organizationId } : {}), ...(query.enabledOnly ? { state: 'ACTIVE' as const, suspended: false } : {}),
        ...(search ? { OR: [{ code: containsText(search) }, { name: containsText(search) }] } : {}),
      }
      const result = await subjectPage(db, page, search, {
        table: 'Organization', key: 'code', where, orderBy: orderBy('code'),
        find: (w, window) => db.organization.findMany({ where: w, include: { parent: true }, ...window }),
        keyOf: (r) => r.code,
        count: () => db.organization.count({ where }),
      })
      return { ...result, items: result.items.map((r): SubjectItem => ({ subjectType: 'ORGANIZATION', subjectKey: r.code, displayName: r.name, organizationCode: r.parent?.code ?? null, enabled: r.state === 'ACTIVE' && !r.suspended })) }
    }
  }
}

/**
 * One page of subjects, keyed by a column unique in the project. A search reads the page's keys and the total in
 * one statement, then those rows; without one the page and its count are read side by side.
 */
async function subjectPage<W extends { projectId: string }, Row>(
  db: Tx,
  page: PageRequest,
  search: string | undefined,
  q: { table: string; key: string; keyOf: (row: Row) => string; where: W; orderBy: OrderBy; find: (where: W, window?: { orderBy: OrderBy; skip: number; take: number }) => Promise<Row[]>; count: () => Promise<number> },
) {
  if (!search) return findPage(page, q.find(q.where, { orderBy: q.orderBy, skip: page.skip, take: page.take }), q.count())
  return findPageByCountedKeys(page, {
    orderBy: q.orderBy,
    // the list's unique key is the first column of an index of the project holding the searched names
    countedKeys: (window) => countedKeys(db, { table: q.table, key: q.key, where: q.where, walkOrders: [[q.key]], ...window }),
    rows: (keys) => q.find({ projectId: q.where.projectId, [q.key]: { in: keys } } as W),
    keyOf: q.keyOf,
    count: q.count,
  })
}

/** The project's organizations as a tree in depth-first order (parents first), for organizationCodes. */
export async function selectorOrganizations(db: Tx, actor: Actor, rawQuery: unknown) {
  const query = parseInput(z.object({ projectId: z.string().optional() }), rawQuery)
  const project = await bulkProject(db, actor, requireProjectName(query), 'VIEW')
  const orgs = await db.organization.findMany({ where: { projectId: project.id }, orderBy: { code: 'asc' } })
  const byId = new Map(orgs.map((o) => [o.id, o]))
  const children = new Map<string | null, typeof orgs>()
  for (const o of orgs) {
    const parent = o.parentId && byId.has(o.parentId) ? o.parentId : null
    children.set(parent, [...(children.get(parent) ?? []), o])
  }
  const out: { code: string; name: string; parentCode: string | null; depth: number; state: string; suspended: boolean; subOrganizationCount: number }[] = []
  const walk = (parent: string | null, depth: number) => {
    for (const o of children.get(parent) ?? []) {
      out.push({ code: o.code, name: o.name, parentCode: o.parentId ? (byId.get(o.parentId)?.code ?? null) : null, depth, state: o.state, suspended: o.suspended, subOrganizationCount: children.get(o.id)?.length ?? 0 })
      walk(o.id, depth + 1)
    }
  }
  walk(null, 0)
  return out
}
