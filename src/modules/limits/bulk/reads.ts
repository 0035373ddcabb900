import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { findPage, findPageByKeys, orderByFor, parsePaging, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { countedRows } from '../../../platform/db/list-count.js'
import { bulkProject, findRun } from './access.js'
import { issueView, runView } from './views.js'

export const RUN_SORT = { defaultSort: 'startedAt,desc', supported: ['startedAt', 'status', 'kind'] } as const
export const ISSUE_SORT = { defaultSort: 'seq,asc', supported: ['seq', 'outcome', 'occurredAt'] } as const

export async function getBulkRun(db: Tx, actor: Actor, projectName: string, runId: string) {
  const project = await bulkProject(db, actor, projectName, 'VIEW')
  return findRun(db, project.id, runId)
}

/** The project's runs as stored rows, paged (GraphQL relates them further). */
export async function pageBulkRuns(db: Tx, actor: Actor, projectName: string, query: PagingQuery) {
  const project = await bulkProject(db, actor, projectName, 'VIEW')
  const page = parsePaging(query, RUN_SORT)
  const where = { projectId: project.id }
  // runId (unique) is the tie-break and the key of the deferred join
  return findPageByKeys(page, {
    orderBy: orderByFor(page, 'runId', { status: 'runStatus' }),
    keys: async (window) => (await db.limitBulkRun.findMany({ where, select: { runId: true }, ...window })).map((r) => r.runId),
    rows: (runIds) => db.limitBulkRun.findMany({ where: { runId: { in: runIds } } }),
    firstRows: (window) => db.limitBulkRun.findMany({ where, ...window }),
    keyOf: (r) => r.runId,
    count: () => countedRows(db, 'LimitBulkRun', [project.id]),
  })
}

export async function listBulkRuns(db: Tx, actor: Actor, projectName: string, query: PagingQuery) {
  const result = await pageBulkRuns(db, actor, projectName, query)
  return { ...result, items: result.items.map(runView) }
}

export async function listBulkRunIssues(db: Tx, actor: Actor, projectName: string, runId: string, query: PagingQuery) {
  const project = await bulkProject(db, actor, projectName, 'VIEW')
  const run = await findRun(db, project.id, runId)
  const page = parsePaging(query, ISSUE_SORT)
  const where = { runId: run.id }
  const result = await findPage(
    page,
    db.limitBulkRunIssue.findMany({ where, orderBy: orderByFor(page, 'seq'), skip: page.skip, take: page.take }),
    db.limitBulkRunIssue.count({ where }),
  )
  return { ...result, items: result.items.map(issueView) }
}
