import { z } from 'zod'
import type { Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { findPageByCountedKeys, findPageByKeys, orderByFor, parsePaging, type PageRequest, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { countedRows, onlyScope } from '../../../platform/db/list-count.js'
import { countedKeys } from '../../../platform/db/counted-keys.js'
import { limitAssignmentsOfConsumer } from '../../limits/assignments/by-subject.js'
import { listEntitlementsOf } from '../entitlements/service.js'
import { booleanFilter, containsText, organizationIdFilter, textFilter } from '../list-filters.js'
import { identityProject } from '../read-scope.js'
import { consumerColumns, consumerInclude } from '../views.js'
import { withOrganizations } from '../organizations-of.js'

// The consumer read surface of spec §4.10: consumers are the credentials of a project, read through the
// §2.15 view. Every write on credentials stays in credentials/service.ts.

export const consumerFilters = z.object({
  organizationCode: textFilter.describe('only consumers of this organization (not of its sub-organizations)'),
  enabledOnly: booleanFilter.describe('true: only enabled consumers'),
  search: textFilter.describe('case-insensitive contains on username and full name'),
})
export type ConsumerListQuery = z.input<typeof consumerFilters> & PagingQuery

export const CONSUMER_SORT = { defaultSort: 'username,asc', supported: ['username', 'fullName', 'enabled'] } as const

const consumerNotFound = (consumerKey: string) => notFound(`Consumer '${consumerKey}' not found`, { consumer: consumerKey })

/** The where clause of the list, also used by the benchmark to time the bare query. */
export function consumerWhere(projectId: string, filters: { organizationId?: string; enabledOnly?: boolean; search?: string }): Prisma.CredentialWhereInput {
  const { organizationId, enabledOnly, search } = filters
  return {
    projectId,
    ...(organizationId ? { organizationId } : {}),
    ...(enabledOnly ? { enabled: true } : {}),
    ...(search
      ? { OR: [{ username: containsText(search) }, { fullName: containsText(search) }] }
      : {}),
  }
}

export async function listConsumers(db: Tx, actor: Actor, projectName: string, query: ConsumerListQuery) {
  const project = await identityProject(db, actor, projectName, 'VIEW')
  const filters = parseInput(consumerFilters, query)
  const page = parsePaging(query, CONSUMER_SORT)
  const where = consumerWhere(project.id, { ...(await organizationIdFilter(db, project.id, filters.organizationCode)), ...filters })
  return consumerPage(db, where, page, Boolean(filters.search))
}

/** The list's orders that an index of the project holds with both searched names: (projectId, username, fullName), (projectId, fullName, username). */
const CONSUMER_WALKS = [['username'], ['fullName', 'username']]

/** One page of the list and its count (also timed bare by the benchmark). */
export function consumerPage(db: Tx, where: Prisma.CredentialWhereInput, page: PageRequest, searched = false) {
  // username is unique: the tie-break that keeps pages from overlapping when sorting by fullName or enabled,
  // and the key of the deferred join ((projectId, username) and (projectId, fullName, username) hold it)
  const rows = async (keys: string[]) => withOrganizations(db, await db.credential.findMany({ where: { username: { in: keys } }, select: consumerColumns }))
  const byKeys = {
    orderBy: orderByFor(page, 'username'),
    rows,
    keyOf: (c: Awaited<ReturnType<typeof rows>>[number]) => c.username,
    // the whole project's list: the trigger-kept counter; a filtered list counts its (index-found) matches
    count: () => (onlyScope(where, 'projectId') ? countedRows(db, 'Credential', [where.projectId as string]) : db.credential.count({ where })),
  }
  // a search's matches come from the trigram indexes: found once for the page's keys and the total
  if (searched) return findPageByCountedKeys(page, { ...byKeys, countedKeys: (window) => countedKeys(db, { table: 'Credential', key: 'username', where, walkOrders: CONSUMER_WALKS, ...window }) })
  return findPageByKeys(page, {
    ...byKeys,
    keys: async (window) => (await db.credential.findMany({ where, select: { username: true }, ...window })).map((c) => c.username),
    firstRows: async (window) => withOrganizations(db, await db.credential.findMany({ where, select: consumerColumns, ...window })),
  })
}

/** A consumer of the project by its public key; a key of another project is not found. */
export async function findConsumer(db: Tx, projectId: string, consumerKey: string) {
  const consumer = await db.credential.findFirst({ where: { projectId, consumerKey }, include: consumerInclude })
  if (!consumer) throw consumerNotFound(consumerKey)
  return consumer
}

export async function getConsumer(db: Tx, actor: Actor, projectName: string, consumerKey: string) {
  const project = await identityProject(db, actor, projectName, 'VIEW')
  return findConsumer(db, project.id, consumerKey)
}

/** The API clients the consumer owns, as rows for the §2.5 summary. */
export async function consumerApiClients(db: Tx, actor: Actor, projectName: string, consumerKey: string) {
  const consumer = await getConsumer(db, actor, projectName, consumerKey)
  return db.apiClient.findMany({ where: { credentialId: consumer.id }, orderBy: [{ name: 'asc' }, { apiClientKey: 'asc' }] })
}

export async function consumerEntitlements(db: Tx, actor: Actor, projectName: string, consumerKey: string) {
  const consumer = await getConsumer(db, actor, projectName, consumerKey)
  return listEntitlementsOf(db, { credentialId: consumer.id })
}

export async function consumerLimitAssignments(db: Tx, actor: Actor, projectName: string, consumerKey: string) {
  const consumer = await getConsumer(db, actor, projectName, consumerKey)
  return limitAssignmentsOfConsumer(db, consumer.id)
}
