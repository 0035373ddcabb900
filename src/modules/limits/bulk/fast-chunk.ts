import { Prisma } from '../../../generated/prisma/client.js'
import type { Db } from '../../../platform/context.js'
import type { DeployMessage } from '../../../platform/deploy/pusher.js'
import { mintPublicKeys } from '../../../platform/keys.js'
import { deploymentRecordsSql, type DeploymentRecordRow } from '../../environments/deployment-records.js'
import { assignmentInclude, compileAssignment, liveScopeKeysOf } from '../assignments/service.js'
import { bulkInsertSql, currentSubjectKeySql } from './assignment-ops.js'
import { leaseHoldSql, renewedLeaseSql, type Claimed } from './lease.js'
import { createdTogetherMessage, DEPLOY_KIND, environmentsOf, markDeliveredSql, storedBatchJson, type StagedChunk } from './push.js'
import type { PushCache, RunContext } from './run-context.js'

// The common chunk in one statement (issue 19 §5): every subject of the chunk still exists under the key PREPARE
// recorded and has nothing bound on the scope, and the content is CUSTOM (the run's message is compiled once, from
// a row its first chunk created; PLAN content compiles in every chunk, in the chunk's transaction). Then everything
// the chunk's transaction writes — the assignments, the ledger outcomes, the outbox rows holding the chunk's batch,
// earlier chunks' acknowledged rows marked delivered and their push outcomes recorded, the run's counters, cursor
// and lease — is one statement, committed on its own: one round trip instead of six (BEGIN, open,
// SAVEPOINT, apply, close, COMMIT). A statement is atomic, so the chunk is all there or not at all, as before.
//
// The statement checks its own preconditions before it writes anything (the run still held and not cancelled,
// every subject there under its recorded key, no scope bound) and writes nothing when one fails; a subject bound
// by another writer meanwhile (left out by ON CONFLICT) or anything the database refuses makes it fail as a whole.
// Either way the caller runs the chunk as before (execute.ts: its transaction, the subject-by-subject decisions,
// the cancel and the lease checks), so every outcome other than CREATED is decided where it always was.

/** What PREPARE recorded for one subject of the run (immutable but for its outcome). */
export interface LedgerEntry { seq: number; subjectId: string; subjectName: string }

/**
 * The run's ledger read ahead of its chunks, a page at a time, the next page read while the current one is used
 * (on PostgreSQL on another connection, beside the chunk's statement). A page that cannot be read resolves to
 * null: its chunks take the usual path, which reads its ledger rows itself.
 */
export class LedgerAhead {
  private readonly pages = new Map<number, Promise<LedgerEntry[] | null>>()

  constructor(private readonly db: Db, private readonly runId: string, private readonly total: number, private readonly pageSize = 2000) {}

  private page(index: number): Promise<LedgerEntry[] | null> {
    let page = this.pages.get(index)
    if (!page) {
      const from = index * this.pageSize
      page = this.db.$queryRaw<LedgerEntry[]>`
        SELECT "seq", "subjectId", "subjectName" FROM "LimitBulkRunSubject"
         WHERE "runId" = ${this.runId} AND "seq" >= ${from}::integer AND "seq" < ${from + this.pageSize}::integer ORDER BY "seq"`
        .catch(() => null)
      this.pages.set(index, page)
    }
    return page
  }

  /** The ledger entries of seq from (inclusive) to to (exclusive), or null when they could not be read. */
  async chunk(from: number, to: number): Promise<LedgerEntry[] | null> {
    const first = Math.floor(from / this.pageSize)
    const last = Math.floor((to - 1) / this.pageSize)
    for (const index of [...this.pages.keys()]) if (index < first) this.pages.delete(index)
    if ((last + 1) * this.pageSize < this.total) void this.page(last + 1)
    const entries: LedgerEntry[] = []
    for (let index = first; index <= last; index++) {
      const page = await this.page(index)
      if (!page) return null
      for (const e of page) if (e.seq >= from && e.seq < to) entries.push(e)
    }
    return entries.length === to - from ? entries : null
  }
}

/** Whether the run's chunks can take the one-statement path: creating assignments with the run's content. */
export const fastChunksPossible = (ctx: RunContext) => ctx.run.kind !== 'ROLLBACK' && ctx.bulk !== null && ctx.licensedAtStart

/**
 * Whether a chunk can take it now: the run's message is compiled, or it will be from a row the statement creates
 * (compiling CUSTOM content reads nothing but the row). PLAN content compiles in every chunk (its plans' current
 * published revisions), in the chunk's transaction.
 */
export const fastChunkReady = (ctx: RunContext) => ctx.pushCache.together !== undefined || (ctx.bulk !== null && ctx.bulk.content.mode !== 'PLAN')

/** The runtime revision of a row just created (the column's default): the first chunk's messages carry it. */
const NEW_ROW_REVISION = 1

/** What a chunk's one statement sends, computed before it (while the previous chunk's statement runs). */
export interface FastChunkPlan {
  entries: LedgerEntry[]
  /** binding keys minted for the subjects */
  keys: string[]
  scopeKeys: string[]
  /** the pushes; null until the run's message is compiled (from a row the statement creates: compiledAfter) */
  messages: DeployMessage[] | null
  /** the revision every row created must have (the statement checks it) */
  revision: number
  /** the outbox rows' message: the chunk's batch body as stored (storedBatchJson: DEPLOYs without their config) */
  batchJson: string
  due: Date
}

/**
 * The plan of a chunk's one statement, or null when the chunk cannot take it (fastChunkReady). Before the run's
 * message is compiled (its first chunk) the stored batch needs none of it — a DEPLOY is stored without its config —
 * and the pushes are made once the statement has created the rows.
 */
export function planFastChunk(ctx: RunContext, entries: LedgerEntry[], graceMs: number): FastChunkPlan | null {
  const shared = ctx.pushCache.together
  if (!fastChunkReady(ctx) || !ctx.bulk || !entries.length) return null
  const keys = mintPublicKeys('lb', entries.length)
  const scopeKeyOf = liveScopeKeysOf(ctx.project.id, ctx.subjectType, ctx.bulk.content)
  const revision = shared?.runtimeRevision ?? NEW_ROW_REVISION
  const messages = shared ? entries.map((e, i) => createdTogetherMessage(ctx.project, shared, keys[i], e.subjectName)) : null
  const stored = messages ?? keys.map((name): DeployMessage => ({ action: 'DEPLOY', project: ctx.project.name, kind: DEPLOY_KIND, name, revision, config: null }))
  return {
    entries, keys, messages, revision,
    scopeKeys: entries.map((e) => scopeKeyOf(e.subjectId)),
    batchJson: storedBatchJson(stored),
    due: new Date(Date.now() + graceMs),
  }
}

/**
 * The run's message compiled from a row the chunk's statement created (as stageChunkPushes compiles one read back
 * in the chunk's transaction; a row ended meanwhile still has the run's content), kept for the run's next chunks;
 * null when it cannot be read (its project deleted at this very moment): the chunk's pushes are then left to its
 * outbox rows, which push what is there when they fall due.
 */
async function compiledAfter(db: Db, ctx: RunContext, bindingKey: string): Promise<PushCache['together'] | null> {
  if (ctx.pushCache.together) return ctx.pushCache.together
  const row = await db.limitAssignment.findUnique({ where: { bindingKey }, include: assignmentInclude })
  if (!row) return null
  const shared = { subjectType: row.subjectType, runtimeRevision: row.runtimeRevision, template: await compileAssignment(db, row) }
  if (row.mode !== 'PLAN') ctx.pushCache.together = shared
  return shared
}

/**
 * The chunk as one statement. Resolves with its staged pushes once committed, or null when it wrote nothing
 * (a precondition failed, or the database refused the statement): the caller then runs the chunk as before.
 */
export async function fastChunk(
  db: Db, claimed: Claimed, ctx: RunContext, plan: FastChunkPlan, to: number, delivered: string[], records: DeploymentRecordRow[], subject: string,
): Promise<StagedChunk | null> {
  if (!ctx.bulk) return null
  const { entries, keys, scopeKeys, due } = plan
  const n = entries.length
  const runId = claimed.run.id
  const first = entries[0].seq
  const last = entries[n - 1].seq
  const go = Prisma.sql`EXISTS (SELECT 1 FROM ok)`
  // the outcomes of earlier chunks' pushes (push.ts, deliverStagedPushes)
  const recorded = deploymentRecordsSql(records, go)
  const insert = bulkInsertSql({ project: ctx.project, type: ctx.subjectType, bulk: ctx.bulk, runId: ctx.run.runId, assignedBy: ctx.actorName }, go)
  let rows: { ok: boolean; outbox: unknown }[]
  try {
    rows = await db.$queryRaw`
      WITH lease AS (${leaseHoldSql(claimed)}),
      -- the chunk's ledger rows (what the keys were computed from: PREPARE's rows change only in their outcome) with
      -- their new binding keys and live scope keys, in seq order
      t AS (
        SELECT s."seq" AS seq, u.binding_key, s."subjectId" AS subject_id, s."subjectName" AS subject_name, u.scope_key, u.ord,
               ${currentSubjectKeySql(ctx.subjectType, Prisma.sql`s."subjectId"`)} AS subject_key
          FROM unnest(${keys}::text[], ${scopeKeys}::text[]) WITH ORDINALITY AS u(binding_key, scope_key, ord)
          JOIN "LimitBulkRunSubject" s ON s."runId" = ${runId} AND s."seq" = ${first}::integer + u.ord::integer - 1
                                       AND s."seq" >= ${first}::integer AND s."seq" <= ${last}::integer
      ),
      -- the chunk goes ahead only when the run is held and not cancelled, and every subject is there under its
      -- recorded key with nothing bound on the scope
      ok AS (
        SELECT 1 FROM lease l
         WHERE NOT l."cancelRequested"
           AND NOT EXISTS (SELECT 1 FROM t WHERE t.subject_key IS DISTINCT FROM t.subject_name)
           -- probed per subject, by the unique index (a list of keys lets the planner scan the whole table)
           AND NOT EXISTS (SELECT 1 FROM t WHERE EXISTS (SELECT 1 FROM "LimitAssignment" a WHERE a."liveScopeKey" = t.scope_key))
      ),
      ${insert},
      -- every seq of the range is one of the chunk's subjects: its binding key is found by position, with no join
      -- (joined to t, the planner, which cannot count a WITH item's rows, compared every row with every row)
      ledger AS (
        UPDATE "LimitBulkRunSubject" AS s
           SET "outcome" = 'CREATED'::"LimitBulkOutcome", "bindingKey" = (${keys}::text[])[s."seq" - ${first}::integer + 1], "replacedBindingKey" = NULL
         WHERE s."runId" = ${runId} AND s."seq" >= ${first}::integer AND s."seq" <= ${last}::integer AND ${go}
      ),
      outbox AS (
        INSERT INTO "DeliveryOutbox" ("id", "environmentName", "workerUrls", "message", "subject", "nextAttemptAt", "createdAt")
        SELECT gen_random_uuid()::text, e."name", e."workerUrls", ${plan.batchJson}::jsonb, ${subject},
               ${due.toISOString()}::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
          FROM "ProjectEnvironment" pe JOIN "Environment" e ON e."id" = pe."environmentId"
         WHERE pe."projectId" = ${ctx.project.id} AND cardinality(e."workerUrls") > 0 AND ${go}
        RETURNING "id", "environmentName", "workerUrls"
      ),
      ${delivered.length ? Prisma.sql`delivered AS (${markDeliveredSql(delivered, go)}),` : Prisma.empty}
      ${recorded ? Prisma.sql`records AS (${recorded}),` : Prisma.empty}
      run AS (
        UPDATE "LimitBulkRun"
           SET ${renewedLeaseSql(claimed)}, "cursor" = ${to}::integer,
               "processedCount" = "processedCount" + ${n}::integer, "createdCount" = "createdCount" + ${n}::integer
         WHERE "id" = ${runId} AND "leaseOwner" = ${claimed.owner} AND "runStatus" = 'RUNNING' AND ${go}
        RETURNING "id"
      )
      SELECT ${go} AS "ok",
             (SELECT coalesce(json_agg(json_build_object('name', o."environmentName", 'workerUrls', o."workerUrls", 'id', o."id")), '[]'::json) FROM outbox o) AS "outbox",
             -- all or nothing: a chunk that went ahead created every subject's row with the revision of the compiled
             -- message and wrote the run, else the statement fails (division by zero) and writes nothing
             1 / (CASE WHEN NOT ${go} OR ((SELECT count(*) FROM ins) = ${n}
                                          AND NOT EXISTS (SELECT 1 FROM ins WHERE ins."runtimeRevision" <> ${plan.revision}::integer)
                                          AND EXISTS (SELECT 1 FROM run)) THEN 1 ELSE 0 END) AS "whole"`
  } catch {
    // refused (an operator's constraint, a subject deleted at this very moment, a scope bound meanwhile): nothing written
    return null
  }
  if (!rows[0]?.ok) return null
  const written = environmentsOf(rows[0].outbox) as (ReturnType<typeof environmentsOf>[number] & { id: string })[]
  let messages = plan.messages
  if (!messages && written.length) {
    const shared = await compiledAfter(db, ctx, keys[0]).catch(() => null)
    messages = shared ? entries.map((e, i) => createdTogetherMessage(ctx.project, shared, keys[i], e.subjectName)) : null
  }
  return {
    environments: written.map(({ name, workerUrls }) => ({ name, workerUrls })),
    messages: written.length && messages ? messages : [],
    subject,
    outboxIds: written.map((w) => w.id),
    due,
  }
}
