import type { LimitBulkRun, LimitBulkOutcome, LimitBulkRunSubject } from '../../../generated/prisma/client.js'
import { Prisma } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeployEnvironment } from '../../../platform/deploy/pusher.js'
import { HeapBudget } from '../../../platform/heap-budget.js'
import { DomainError } from '../../../platform/errors/domain-error.js'
import { deploymentRecordsSql, type DeploymentRecordRow } from '../../environments/deployment-records.js'
import { currentLicense } from '../../licence/service.js'
import { applyChunk } from './chunk.js'
import type { ChunkResult, RunContext } from './run-context.js'
import { prepareRun, runContext } from './prepare.js'
import { CHUNK_OUTBOX_KIND, deliverStagedPushes, environmentsOf, environmentsWithWorkersJson, markDeliveredSql, outboxRowsSql, stageChunkPushes, type StagedChunk } from './push.js'
import { fastChunk, fastChunkReady, fastChunksPossible, LedgerAhead, planFastChunk, type FastChunkPlan } from './fast-chunk.js'
import { DB_NOW, LeaseLost, leaseHoldSql, renewedLeaseSql, renewLease, updateHeld, type Claimed } from './lease.js'

// One run from claim to finish: PREPARE (resolve and record the subjects), APPLY (chunks of 200, each one statement
// in the common case (fast-chunk.ts) or else a transaction, each pushed right after it commits while the next one runs),
// DEPLOY (settle deploymentState), FINALIZE (final status).

export const MAX_KEPT_ISSUES = 1000

type ApplyEnd = 'DONE' | 'CANCELLED' | 'LICENSE_REVOKED' | 'STOPPED'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Staged pushes fall due for the outbox only after this worker had its chance to deliver them (and its lease ran out). */
const pushGraceMs = (claimed: Claimed) => claimed.settings.leaseMs + 2 * claimed.settings.deployTimeoutMs

/** Which module the run's content needs, and whether it is licensed now. */
async function licenceState(deps: Pick<Deps, 'prisma'>, ctx: RunContext): Promise<boolean> {
  if (!ctx.module) return true
  return (await currentLicense(deps.prisma)).modules.includes(ctx.module)
}

/** What a chunk's first statement read, with the lease renewed. */
interface OpenedChunk {
  cancelRequested: boolean
  /** issues kept so far */
  issueCount: number
  /** the project's environments with workers */
  environments: DeployEnvironment[]
  /** the chunk's ledger rows, in seq order (none when a cancel was requested) */
  subjects: LimitBulkRunSubject[]
}

/**
 * A chunk's first statement: holds the run (lease.ts: locked, LeaseLost when it is no longer held; the closing
 * statement renews the lease) and reads in the same round trip whether a cancel was requested, the issue count,
 * the environments with workers and the chunk's ledger rows.
 */
async function openChunk(tx: Tx, claimed: Claimed, ctx: RunContext, from: number, to: number): Promise<OpenedChunk> {
  const rows = await tx.$queryRaw<(Omit<LimitBulkRunSubject, 'outcome'> & { outcome: string | null; cancelRequested: boolean; issueCount: number; environments: unknown })[]>`
    WITH lease AS (${leaseHoldSql(claimed)})
    SELECT l."cancelRequested", l."issueCount", ${environmentsWithWorkersJson(ctx.project.id)} AS "environments",
           s."runId", s."seq", s."subjectType", s."subjectId", s."subjectName", s."outcome"::text AS "outcome", s."bindingKey", s."replacedBindingKey"
      FROM lease l
      LEFT JOIN "LimitBulkRunSubject" s ON s."runId" = ${claimed.run.id} AND s."seq" >= ${from}::integer AND s."seq" < ${to}::integer AND NOT l."cancelRequested"
     ORDER BY s."seq"`
  if (!rows.length) throw new LeaseLost(claimed.run.runId)
  const { cancelRequested, issueCount, environments } = rows[0]
  const subjects = rows
    .filter((r) => r.seq !== null)
    .map((r): LimitBulkRunSubject => ({
      runId: r.runId, seq: r.seq, subjectType: r.subjectType, subjectId: r.subjectId, subjectName: r.subjectName,
      outcome: r.outcome as LimitBulkOutcome | null, bindingKey: r.bindingKey, replacedBindingKey: r.replacedBindingKey,
    }))
  return { cancelRequested, issueCount: Number(issueCount), environments: environmentsOf(environments), subjects }
}

/**
 * A chunk's closing statement: every subject's outcome in the ledger, the kept issues, the chunk's outbox rows,
 * earlier chunks' acknowledged outbox rows marked delivered, and the run's counters and cursor with the lease
 * renewed (fenced on the lease: LeaseLost when the run is no longer held), the earlier chunks' push outcomes recorded — one statement, its parts as
 * data-modifying WITH items.
 */
async function closeChunk(tx: Tx, claimed: Claimed, issueCountBefore: number, result: ChunkResult, nextCursor: number, outbox: Prisma.Sql | null, delivered: string[], records: DeploymentRecordRow[]) {
  const runId = claimed.run.id
  const rows = result.rows
  const parts: Prisma.Sql[] = []
  if (rows.length) {
    const seqs = rows.map((r) => r.seq)
    parts.push(Prisma.sql`ledger AS (
      UPDATE "LimitBulkRunSubject" AS s
         SET "outcome" = u.outcome::"LimitBulkOutcome", "bindingKey" = NULLIF(u.bk, ''), "replacedBindingKey" = NULLIF(u.rbk, '')
        FROM unnest(${seqs}::integer[], ${rows.map((r) => r.outcome)}::text[],
                    ${rows.map((r) => r.bindingKey ?? '')}::text[], ${rows.map((r) => r.replacedBindingKey ?? '')}::text[]) AS u(seq, outcome, bk, rbk)
       -- the chunk's seq range: without it the planner hashes the run's whole ledger for every chunk
       WHERE s."runId" = ${runId} AND s."seq" = u.seq AND s."seq" >= ${Math.min(...seqs)}::integer AND s."seq" <= ${Math.max(...seqs)}::integer)`)
  }
  // only FAILED and SKIPPED_* are kept, at most 1000 per run
  const issues = rows.filter((r) => r.outcome === 'FAILED' || r.outcome.startsWith('SKIPPED_'))
  const room = Math.max(0, MAX_KEPT_ISSUES - issueCountBefore)
  const kept = issues.slice(0, room)
  if (kept.length) {
    parts.push(Prisma.sql`issues AS (
      INSERT INTO "LimitBulkRunIssue" ("runId", "seq", "subjectType", "subjectName", "outcome", "bindingKey", "messageKey", "messageParams", "occurredAt")
      SELECT ${runId}, ${issueCountBefore}::integer + i.ord::integer, i.subject_type, i.subject_name, i.outcome::"LimitBulkOutcome",
             NULLIF(i.bk, ''), NULLIF(i.mk, ''), NULLIF(i.mp, '')::jsonb, ${DB_NOW}
        FROM unnest(${kept.map((r) => r.subjectType)}::text[], ${kept.map((r) => r.subjectName)}::text[], ${kept.map((r) => r.outcome)}::text[],
                    ${kept.map((r) => r.bindingKey ?? '')}::text[], ${kept.map((r) => r.messageKey ?? '')}::text[],
                    ${kept.map((r) => (r.messageParams ? JSON.stringify(r.messageParams) : ''))}::text[]) WITH ORDINALITY AS i(subject_type, subject_name, outcome, bk, mk, mp, ord))`)
  }
  if (outbox) parts.push(Prisma.sql`outbox AS (${outbox})`)
  // earlier chunks' acknowledged pushes, marked delivered here rather than by a statement of their own
  if (delivered.length) parts.push(Prisma.sql`delivered AS (${markDeliveredSql(delivered)})`)
  // and the outcomes of their pushes
  const recorded = deploymentRecordsSql(records)
  if (recorded) parts.push(Prisma.sql`records AS (${recorded})`)
  const count = (...outcomes: LimitBulkOutcome[]) => rows.filter((r) => outcomes.includes(r.outcome)).length
  const held = await tx.$queryRaw<{ id: string }[]>`
    ${parts.length ? Prisma.sql`WITH ${Prisma.join(parts, ',\n')}` : Prisma.empty}
    UPDATE "LimitBulkRun"
       SET ${renewedLeaseSql(claimed)},
           "cursor" = ${nextCursor}::integer,
           "processedCount" = "processedCount" + ${rows.length}::integer,
           "createdCount" = "createdCount" + ${count('CREATED')}::integer,
           "replacedCount" = "replacedCount" + ${count('REPLACED')}::integer,
           "skippedCount" = "skippedCount" + ${count('SKIPPED_EXISTING')}::integer,
           "licenseSkippedCount" = "licenseSkippedCount" + ${count('SKIPPED_LICENSE')}::integer,
           "failedCount" = "failedCount" + ${count('FAILED')}::integer,
           -- a restored subject was ended first
           "endedCount" = "endedCount" + ${count('ENDED', 'RESTORED')}::integer,
           "restoredCount" = "restoredCount" + ${count('RESTORED')}::integer,
           "issueCount" = "issueCount" + ${kept.length}::integer,
           "issuesTruncated" = "issuesTruncated" OR ${issues.length > kept.length}::boolean
     WHERE "id" = ${runId} AND "leaseOwner" = ${claimed.owner} AND "runStatus" = 'RUNNING'
    RETURNING "id"`
  if (!held.length) throw new LeaseLost(claimed.run.runId)
}

/**
 * Lets the event loop run between two statements of a chunk: PGlite runs the database on this thread, so without
 * it a chunk's statements follow one another with no turn of the loop, and the answer to the previous chunk's
 * batch (already on the socket) would wait for the whole transaction — and be charged to the push's timeout.
 */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve))

const HEAP_BUDGET_MIN_SUBJECTS = 10_000

async function applyAll(deps: Pick<Deps, 'prisma' | 'deployer' | 'logger'>, claimed: Claimed, ctx: RunContext): Promise<ApplyEnd> {
  const { prisma } = deps
  const { chunkSize, chunkPauseMs } = claimed.settings
  let cursor = claimed.run.cursor
  // The pushes of a committed chunk are delivered while the next chunk's transaction runs; the next delivery starts
  // only once this one is done, so the worker receives the batches one after the other, in order.
  let delivering: Promise<void> = Promise.resolve()
  // acknowledged outbox rows not yet marked delivered: the next chunk's closing statement marks them
  let acknowledged: string[] = []
  // outcomes of earlier chunks' pushes not yet recorded: the next chunk's statement records them
  let outcomes: DeploymentRecordRow[] = []
  // the ledger read ahead for the one-statement chunks, and the next chunk's plan made while a chunk's statement runs
  const ahead = fastChunksPossible(ctx) ? new LedgerAhead(prisma, claimed.run.id, ctx.total) : null
  let planned: { from: number; plan: Promise<FastChunkPlan | null> } | null = null
  const planChunk = async (from: number): Promise<FastChunkPlan | null> => {
    const entries = await ahead!.chunk(from, Math.min(from + chunkSize, ctx.total))
    return entries ? planFastChunk(ctx, entries, pushGraceMs(claimed)) : null
  }
  const deliver = (staged: StagedChunk) => {
    delivering = delivering.then(async () => {
      const pushed = await deliverStagedPushes(deps, staged).catch((err) => {
        // the outbox rows are staged: they fall due after the grace period and are delivered then
        deps.logger.warn({ err, runId: claimed.run.runId }, 'bulk chunk push failed; the retry outbox delivers it')
        return { acknowledged: [], failed: 1, records: [] }
      })
      acknowledged.push(...pushed.acknowledged)
      outcomes.push(...pushed.records)
      if (pushed.failed > 0 && !ctx.deployDegraded) {
        ctx.deployDegraded = true
        await updateHeld(prisma, claimed, { deploymentState: 'DEGRADED' })
      }
    })
  }
  // a large run's garbage collected at chunk boundaries once it outgrows a budget (peak RSS, issue 31 §3); a run
  // of fewer subjects leaves too little (a few KB each) to be worth a full collection
  const heap = ctx.total - cursor >= HEAP_BUDGET_MIN_SUBJECTS ? new HeapBudget() : null
  try {
    while (cursor < ctx.total) {
      if (claimed.stopping()) return 'STOPPED'
      heap?.check()
      // a licence revoked while the run goes on ends it here, at a chunk boundary; written rows stay
      if (ctx.licensedAtStart && !(await licenceState(deps, ctx))) return 'LICENSE_REVOKED'
      const from = cursor
      const to = Math.min(from + chunkSize, ctx.total)
      const marking = acknowledged
      acknowledged = []
      const recording = outcomes
      outcomes = []
      // not written with this chunk: with the next one, or at the end
      const putBack = () => {
        acknowledged.push(...marking)
        outcomes.unshift(...recording)
      }
      const subject = `${CHUNK_OUTBOX_KIND}:${claimed.run.runId}:${from}`
      // the common chunk (fast-chunk.ts; CUSTOM content, from the first chunk on): one statement, committed on its own; when it wrote nothing, the chunk
      // is a transaction — three statements for a chunk of fresh subjects: open (lease, ledger rows,
      // environments), apply (the set insert), close (outcomes, issues, outbox rows, counters). Either way the
      // chunk's pushes commit with it in the retry outbox, so a crash after the commit loses none
      const plan = ahead && fastChunkReady(ctx) ? await (planned?.from === from ? planned.plan : planChunk(from)) : null
      planned = null
      let fast: StagedChunk | null = null
      if (plan) {
        const pending = fastChunk(prisma, claimed, ctx, plan, to, marking, recording, subject)
        // the next chunk's keys and messages are computed while this statement runs (on PostgreSQL, in the server)
        if (to < ctx.total) {
          await breathe()
          planned = { from: from + chunkSize, plan: planChunk(from + chunkSize).catch(() => null) }
        }
        fast = await pending
      }
      const outcome = fast ?? await prisma.$transaction(
        async (tx) => {
          const opened = await openChunk(tx, claimed, ctx, from, from + chunkSize)
          if (opened.cancelRequested) return null
          await breathe()
          const result = await applyChunk(tx, ctx, opened.subjects)
          await breathe()
          const staged = await stageChunkPushes(tx, ctx.project, result, opened.environments, pushGraceMs(claimed), subject, ctx.pushCache)
          await closeChunk(tx, claimed, opened.issueCount, result, to, outboxRowsSql(staged), marking, recording)
          return staged
        },
        { timeout: 300_000, maxWait: 60_000 },
      ).catch((err) => {
        putBack()
        throw err
      })
      if (!outcome) {
        putBack()
        return 'CANCELLED'
      }
      cursor = from + chunkSize
      // the chunk is committed: deliver its pushes (what is not acknowledged stays with the retry outbox)
      await delivering
      deliver(outcome)
      // no turn of the event loop here (the database is on its own thread, or PostgreSQL): the next chunk's statement
      // is sent at once, and this process turns while the database works on it
      if (chunkPauseMs > 0 && cursor < ctx.total) await sleep(chunkPauseMs)
    }
    return 'DONE'
  } finally {
    await delivering
    if (acknowledged.length) {
      // unmarked, they would only be delivered once more after their grace period: not worth failing the run for
      await prisma.$executeRaw`${markDeliveredSql(acknowledged)}`.catch((err) => deps.logger.warn({ err, runId: claimed.run.runId }, 'bulk run could not mark its last pushes delivered'))
    }
    const recorded = deploymentRecordsSql(outcomes)
    if (recorded) {
      // a lost record only makes an environment report less precisely (as with the recording deployer)
      await prisma.$executeRaw`${recorded}`.catch((err) => deps.logger.warn({ err, runId: claimed.run.runId }, 'bulk run could not record its last push outcomes'))
    }
  }
}

function finalStatus(run: LimitBulkRun, end: ApplyEnd) {
  if (end === 'CANCELLED') return { runStatus: 'CANCELLED' as const, messageKey: 'limit.bulk.cancelled', messageParams: { processedCount: run.processedCount } }
  if (end === 'LICENSE_REVOKED') return { runStatus: 'LICENSE_REVOKED' as const, messageKey: 'limit.bulk.licenseRevoked', messageParams: { module: 'AI_GATEWAY', processedCount: run.processedCount } }
  const applied = run.createdCount + run.replacedCount + run.skippedCount + run.endedCount
  if (run.failedCount > 0 && applied === 0) return { runStatus: 'FAILED' as const, messageKey: 'limit.bulk.allFailed', messageParams: { failedCount: run.failedCount } }
  if (run.failedCount > 0 || run.licenseSkippedCount > 0) {
    return { runStatus: 'PARTIAL' as const, messageKey: 'limit.bulk.partial', messageParams: { failedCount: run.failedCount, licenseSkippedCount: run.licenseSkippedCount } }
  }
  return { runStatus: 'SUCCESS' as const, messageKey: 'limit.bulk.completed', messageParams: { processedCount: run.processedCount } }
}

const released = { activeProjectId: null, leaseOwner: null, leaseUntil: null }

async function finish(deps: Pick<Deps, 'prisma'>, claimed: Claimed, ctx: RunContext, end: ApplyEnd) {
  const { prisma } = deps
  if (end === 'DONE') await updateHeld(prisma, claimed, { phase: 'DEPLOY' })
  const run = await prisma.limitBulkRun.findUniqueOrThrow({ where: { id: claimed.run.id } })
  const status = finalStatus(run, end)
  await updateHeld(prisma, claimed, {
    ...status,
    phase: 'FINALIZE',
    // every committed chunk was pushed right after its commit; unacknowledged environments sit in the retry outbox
    deploymentState: ctx.deployDegraded ? 'DEGRADED' : 'IN_SYNC',
    finishedAt: new Date(),
    ...released,
  })
}

/** Claimed run → finished (or INTERRUPTED when this instance stops, or left alone once its lease is lost). */
export async function executeRun(deps: Pick<Deps, 'prisma' | 'deployer' | 'logger'>, claimed: Claimed): Promise<void> {
  const { prisma, logger } = deps
  const beat = setInterval(() => {
    renewLease(prisma, claimed).catch((err) => logger.debug({ err, runId: claimed.run.runId }, 'bulk run heartbeat not renewed'))
  }, claimed.settings.heartbeatMs)
  try {
    const ctx = await runContext(prisma, claimed.run)
    ctx.licensedAtStart = await licenceState(deps, ctx)
    if (claimed.run.phase === 'PREPARE') {
      ctx.total = await prepareRun(prisma, claimed, ctx)
    }
    const end = await applyAll(deps, claimed, ctx)
    if (end === 'STOPPED') {
      await updateHeld(prisma, claimed, {
        runStatus: 'INTERRUPTED', messageKey: 'limit.bulk.interrupted', messageParams: { reason: 'instanceStopped' }, finishedAt: new Date(), ...released,
      })
      logger.warn({ runId: claimed.run.runId }, 'bulk run interrupted: this instance is stopping')
      return
    }
    await finish(deps, claimed, ctx, end)
    logger.info({ runId: claimed.run.runId, end }, 'bulk run finished')
  } catch (err) {
    if (err instanceof LeaseLost) {
      logger.warn({ runId: claimed.run.runId }, 'bulk run lease lost; another instance marked it')
      return
    }
    // a failure of the run as a whole (e.g. its plan was retired before it started): FAILED with the reason
    const domain = err instanceof DomainError ? err : null
    if (!domain) logger.error({ err, runId: claimed.run.runId }, 'bulk run failed unexpectedly')
    await updateHeld(prisma, claimed, {
      runStatus: 'FAILED',
      messageKey: domain ? ((domain.params.reason as string | undefined) ?? domain.errorKey) : 'limit.bulk.runFailed',
      messageParams: (domain ? { errorKey: domain.errorKey, ...domain.params } : {}) as Prisma.InputJsonValue,
      finishedAt: new Date(),
      ...released,
    }).catch((e) => logger.warn({ err: e, runId: claimed.run.runId }, 'bulk run could not be marked FAILED'))
  } finally {
    clearInterval(beat)
  }
}
