import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { findPageByCountedKeys, findPageByKeys, orderByFor, parsePaging, type PagingQuery } from '../../platform/envelopes/paging.js'
import { notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { countedRows, onlyScope } from '../../platform/db/list-count.js'
import { countedKeys } from '../../platform/db/counted-keys.js'
import { limitAssignmentsOfApplication } from '../limits/assignments/by-subject.js'
import { listEntitlementsOf } from './entitlements/service.js'
import { containsText, organizationIdFilter, textFilter } from './list-filters.js'
import { identityProject } from './read-scope.js'
import { applicationInclude } from './views.js'
import { withOrganizations } from './organizations-of.js'

// The application read surface of spec §4.10, addressed by applicationKey. The admin queries and writes
// by name stay in applications.ts.

export const APP_STATUSES = ['ACTIVE', 'SUSPENDED', 'PENDING_DELETION', 'ARCHIVED'] as const

export const applicationFilters = z.object({
  organizationCode: textFilter.describe('only applications of this organization (not of its sub-organizations)'),
  status: z.enum(APP_STATUSES).optional().describe('appStatus'),
  search: textFilter.describe('case-insensitive contains on the name'),
})
export type ApplicationListQuery = z.input<typeof applicationFilters> & PagingQuery

export const APPLICATION_VIEW_SORT = { defaultSort: 'name,asc', supported: ['name', 'appStatus'] } as const

const applicationKeyNotFound = (applicationKey: string) => notFound(`Application '${applicationKey}' not found`, { application: applicationKey })

export async function listApplicationViews(db: Tx, actor: Actor, projectName: string, query: ApplicationListQuery) {
  const project = await identityProject(db, actor, projectName, 'VIEW')
  const filters = parseInput(applicationFilters, query)
  const page = parsePaging(query, APPLICATION_VIEW_SORT)
  const where: Prisma.ApplicationWhereInput = {
    projectId: project.id,
    ...(await organizationIdFilter(db, project.id, filters.organizationCode)),
    ...(filters.status ? { appStatus: filters.status } : {}),
    ...(filters.search ? { name: containsText(filters.search) } : {}),
  }
  // name is unique in the project: the tie-break that keeps pages from overlapping when sorting by appStatus,
  // and the key of the deferred join (the (projectId, name) unique index holds it)
  const rows = async (keys: string[]) => withOrganizations(db, await db.application.findMany({ where: { projectId: project.id, name: { in: keys } } }))
  const byKeys = {
    orderBy: orderByFor(page, 'name'),
    rows,
    keyOf: (a: Awaited<ReturnType<typeof rows>>[number]) => a.name,
    count: () => (onlyScope(where, 'projectId') ? countedRows(db, 'Application', [project.id]) : db.application.count({ where })),
  }
  // a search's matches come from the trigram index: found once for the page's keys and the total
  if (filters.search) return findPageByCountedKeys(page, { ...byKeys, countedKeys: (window) => countedKeys(db, { table: 'Application', key: 'name', where, walkOrders: [['name']], ...window }) })
  return findPageByKeys(page, {
    ...byKeys,
    keys: async (window) => (await db.application.findMany({ where, select: { name: true }, ...window })).map((a) => a.name),
    firstRows: async (window) => withOrganizations(db, await db.application.findMany({ where, ...window })),
  })
}

/** An application of the project by its public key; a key of another project is not found. */
export async function findApplicationByKey(db: Tx, projectId: string, applicationKey: string) {
  const app = await db.application.findFirst({ where: { projectId, applicationKey }, include: applicationInclude })
  if (!app) throw applicationKeyNotFound(applicationKey)
  return app
}

export async function getApplicationByKey(db: Tx, actor: Actor, projectName: string, applicationKey: string) {
  const project = await identityProject(db, actor, projectName, 'VIEW')
  return findApplicationByKey(db, project.id, applicationKey)
}

/** The application's own API clients, as rows for the §2.5 summary. */
export async function applicationApiClients(db: Tx, actor: Actor, projectName: string, applicationKey: string) {
  const app = await getApplicationByKey(db, actor, projectName, applicationKey)
  return db.apiClient.findMany({ where: { applicationId: app.id }, orderBy: [{ name: 'asc' }, { apiClientKey: 'asc' }] })
}

export async function applicationEntitlements(db: Tx, actor: Actor, projectName: string, applicationKey: string) {
  const app = await getApplicationByKey(db, actor, projectName, applicationKey)
  return listEntitlementsOf(db, { applicationId: app.id })
}

export async function applicationLimitAssignments(db: Tx, actor: Actor, projectName: string, applicationKey: string) {
  const app = await getApplicationByKey(db, actor, projectName, applicationKey)
  return limitAssignmentsOfApplication(db, app.id)
}
