import type { LimitBulkRun, Prisma } from '../../../generated/prisma/client.js'
import type { Db, Tx } from '../../../platform/context.js'
import { AI_GATEWAY_MODULE } from '../../licence/service.js'
import { findLiveBindings, prepareBulkContent } from './assignment-ops.js'
import type { RunContext } from './run-context.js'
import { selectorInput, type BulkSubjectType } from './inputs.js'
import { updateHeld, type Claimed } from './lease.js'
import { resolveSelector, selectorSubjectsSql, type Subject } from './selector.js'

// PREPARE: the run's subjects are resolved once and recorded in order (LimitBulkRunSubject), in one
// transaction with the counts, so chunks, rollback and retry-failed all work from the same list. The selection
// goes into the ledger in one INSERT … SELECT (selectorSubjectsSql) or, for a selector with a search or an
// existingAssignment filter, a page at a time (one INSERT per page): the process never holds all of it.

/** What every chunk of the run needs, loaded once per run (content checked against the database again). */
export async function runContext(db: Tx, run: LimitBulkRun): Promise<RunContext> {
  const project = await db.project.findUniqueOrThrow({ where: { id: run.projectId }, select: { id: true, name: true } })
  // ROLLBACK and RETRY runs echo their source run's selector and content
  const subjectType: BulkSubjectType = selectorInput.parse(run.selector).subjectType
  // a rollback ends and reopens rows as they are: it applies no content
  const bulk = run.kind === 'ROLLBACK' ? null : await prepareBulkContent(db, run.projectId, run.content, subjectType)
  return {
    run,
    project,
    subjectType,
    bulk,
    conflictPolicy: run.conflictPolicy === 'REPLACE' ? 'REPLACE' : 'KEEP_EXISTING',
    module: bulk?.content.family === 'AI_TOKEN_BUDGET' ? AI_GATEWAY_MODULE : null,
    licensedAtStart: true,
    total: run.actualCount,
    deployDegraded: false,
    actorName: run.triggeredBy,
    pushCache: {},
  }
}

async function sourceId(db: Tx, publicRunId: string): Promise<string> {
  return (await db.limitBulkRun.findUniqueOrThrow({ where: { runId: publicRunId }, select: { id: true } })).id
}

/** Records one page of subjects as the ledger rows from seq `firstSeq` on. */
async function recordSubjects(tx: Tx, runId: string, type: string, subjects: Subject[], firstSeq: number) {
  if (!subjects.length) return
  await tx.$executeRaw`
    INSERT INTO "LimitBulkRunSubject" ("runId", "seq", "subjectType", "subjectId", "subjectName")
    SELECT ${runId}, ${firstSeq}::integer + t.ord::integer - 1, ${type}, t.id, t.name
      FROM unnest(${subjects.map((s) => s.id)}::text[], ${subjects.map((s) => s.name)}::text[]) WITH ORDINALITY AS t(id, name, ord)`
}

/**
 * Records the selection (selectorSubjectsSql) as the ledger in key order, without the excluded keys, in one
 * statement; resolves with how many subjects it matched and how many it recorded.
 */
async function recordSelection(tx: Tx, runId: string, type: string, selection: Prisma.Sql, excluded: string[]): Promise<{ matched: number; recorded: number }> {
  const [row] = await tx.$queryRaw<{ matched: number; recorded: number }[]>`
    WITH m AS (${selection}),
    ins AS (
      INSERT INTO "LimitBulkRunSubject" ("runId", "seq", "subjectType", "subjectId", "subjectName")
      SELECT ${runId}, (row_number() OVER (ORDER BY m.key))::integer - 1, ${type}, m.id, m.key
        FROM m WHERE m.key <> ALL(${[...new Set(excluded)]}::text[])
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM m)::integer AS matched, (SELECT count(*) FROM ins)::integer AS recorded`
  return row
}

/** Copies rows of the source run's ledger (in order, renumbered from 0) as the new run's subjects. */
async function copySubjects(tx: Tx, runId: string, sourceRunId: string, outcomes: string[], withBindings: boolean) {
  return tx.$executeRaw`
    INSERT INTO "LimitBulkRunSubject" ("runId", "seq", "subjectType", "subjectId", "subjectName", "bindingKey", "replacedBindingKey")
    SELECT ${runId}, (row_number() OVER (ORDER BY s."seq"))::integer - 1, s."subjectType", s."subjectId", s."subjectName",
           CASE WHEN ${withBindings} THEN s."bindingKey" END, CASE WHEN ${withBindings} THEN s."replacedBindingKey" END
      FROM "LimitBulkRunSubject" s
     WHERE s."runId" = ${sourceRunId} AND s."outcome"::text = ANY(${outcomes}::text[])`
}

/** Records the run's subjects and moves it to APPLY; resolves with how many subjects it will process. */
export async function prepareRun(prisma: Db, claimed: Claimed, ctx: RunContext): Promise<number> {
  const run = claimed.run
  return prisma.$transaction(
    async (tx) => {
      let total: number
      let counts = {}
      const selector = run.kind === 'ASSIGN' ? selectorInput.parse(run.selector) : null
      const existing = selector?.existingAssignment ?? 'ANY'
      // the selection in one statement when the database can tell it alone (no search, no existingAssignment filter)
      const together = selector && existing === 'ANY' ? await selectorSubjectsSql(tx, run.projectId, selector) : null
      if (selector && together) {
        const recorded = await recordSelection(tx, run.id, ctx.subjectType, together, selector.excludeSubjectKeys ?? [])
        total = recorded.recorded
        counts = { includedSubjectCount: recorded.matched, excludedSubjectCount: recorded.matched - recorded.recorded }
      } else if (selector) {
        let included = 0
        let excluded = 0
        total = 0
        for await (const page of await resolveSelector(tx, run.projectId, selector)) {
          let subjects = page.subjects
          if (existing !== 'ANY' && ctx.bulk) {
            const live = await findLiveBindings(tx, run.projectId, ctx.subjectType, subjects, ctx.bulk.content)
            subjects = subjects.filter((s) => live.has(s.id) === (existing === 'EXISTS'))
          }
          await recordSubjects(tx, run.id, ctx.subjectType, subjects, total)
          total += subjects.length
          included += page.includedCount
          excluded += page.excludedCount
        }
        counts = { includedSubjectCount: included, excludedSubjectCount: excluded }
      } else if (run.kind === 'RETRY') {
        total = await copySubjects(tx, run.id, await sourceId(tx, run.retryOfRunId!), ['FAILED'], false)
        counts = { includedSubjectCount: total }
      } else {
        total = await copySubjects(tx, run.id, await sourceId(tx, run.rollbackOfRunId!), ['CREATED', 'REPLACED'], true)
        counts = { includedSubjectCount: total }
      }
      await updateHeld(tx, claimed, { ...counts, actualCount: total, cursor: 0, phase: 'APPLY', deploymentState: 'PENDING' })
      return total
    },
    { timeout: 300_000, maxWait: 60_000 },
  )
}
