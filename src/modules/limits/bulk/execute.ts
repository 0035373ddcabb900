import type { LimitBulkRun, LimitBulkOutcome } from '../../../generated/prisma/client.js'
import { Prisma } from '../../../generated/prisma/client.js'
import type { Deps } from '../../../platform/context.js'
import { DomainError } from '../../../platform/errors/domain-error.js'
import { currentLicense } from '../../licence/service.js'
import { applyChunk, type ChunkResult, type RunContext } from './chunk.js'
import { prepareRun, runContext } from './prepare.js'
import { deliverStagedPushes, stageChunkPushes, type StagedChunk } from './push.js'
import { LeaseLost, renewLease, updateHeld, type Claimed } from './runner.js'

// One run from claim to finish: PREPARE (resolve and record the subjects), APPLY (chunks of 200, each one
// transaction, each pushed right after it commits), DEPLOY (settle deploymentState), FINALIZE (final status).

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

async function writeChunk(tx: Prisma.TransactionClient, claimed: Claimed, issueCountBefore: number, result: ChunkResult, nextCursor: number) {
  const runId = claimed.run.id
  const rows = result.rows
  if (rows.length) {
    await tx.$executeRaw`
      UPDATE "LimitBulkRunSubject" AS s
         SET "outcome" = u.outcome::"LimitBulkOutcome", "bindingKey" = NULLIF(u.bk, ''), "replacedBindingKey" = NULLIF(u.rbk, '')
        FROM unnest(${rows.map((r) => r.seq)}::integer[], ${rows.map((r) => r.outcome)}::text[],
                    ${rows.map((r) => r.bindingKey ?? '')}::text[], ${rows.map((r) => r.replacedBindingKey ?? '')}::text[]) AS u(seq, outcome, bk, rbk)
       WHERE s."runId" = ${runId} AND s."seq" = u.seq`
  }
  // only FAILED and SKIPPED_* are kept, at most 1000 per run
  const issues = rows.filter((r) => r.outcome === 'FAILED' || r.outcome.startsWith('SKIPPED_'))
  const room = Math.max(0, MAX_KEPT_ISSUES - issueCountBefore)
  const kept = issues.slice(0, room)
  if (kept.length) {
    await tx.limitBulkRunIssue.createMany({
      data: kept.map((r, i) => ({
        runId,
        seq: issueCountBefore + i + 1,
        subjectType: r.subjectType,
        subjectName: r.subjectName,
        outcome: r.outcome,
        bindingKey: r.bindingKey ?? null,
        messageKey: r.messageKey ?? null,
        messageParams: (r.messageParams ?? Prisma.DbNull) as Prisma.InputJsonValue | typeof Prisma.DbNull,
      })),
    })
  }
  const count = (o: LimitBulkOutcome) => rows.filter((r) => r.outcome === o).length
  await updateHeld(tx, claimed, {
    cursor: nextCursor,
    processedCount: { increment: rows.length },
    createdCount: { increment: count('CREATED') },
    replacedCount: { increment: count('REPLACED') },
    skippedCount: { increment: count('SKIPPED_EXISTING') },
    licenseSkippedCount: { increment: count('SKIPPED_LICENSE') },
    failedCount: { increment: count('FAILED') },
    // a restored subject was ended first
    endedCount: { increment: count('ENDED') + count('RESTORED') },
    restoredCount: { increment: count('RESTORED') },
    issueCount: { increment: kept.length },
    ...(issues.length > kept.length ? { issuesTruncated: true } : {}),
  })
}

async function applyAll(deps: Pick<Deps, 'prisma' | 'deployer' | 'logger'>, claimed: Claimed, ctx: RunContext): Promise<ApplyEnd> {
  const { prisma } = deps
  const { chunkSize, chunkPauseMs } = claimed.settings
  let cursor = claimed.run.cursor
  // The pushes of a committed chunk are delivered while the next chunk's transaction runs; the next delivery starts
  // only once this one is done, so the worker receives the batches one after the other, in order.
  let delivering: Promise<void> = Promise.resolve()
  const deliver = (staged: StagedChunk) => {
    delivering = delivering.then(async () => {
      const failedPushes = await deliverStagedPushes(deps, staged).catch((err) => {
        // the outbox rows are staged: they fall due after the grace period and are delivered then
        deps.logger.warn({ err, runId: claimed.run.runId }, 'bulk chunk push failed; the retry outbox delivers it')
        return 1
      })
      if (failedPushes > 0 && !ctx.deployDegraded) {
        ctx.deployDegraded = true
        await updateHeld(prisma, claimed, { deploymentState: 'DEGRADED' })
      }
    })
  }
  try {
    while (cursor < ctx.total) {
      if (claimed.stopping()) return 'STOPPED'
      // a licence revoked while the run goes on ends it here, at a chunk boundary; written rows stay
      if (ctx.licensedAtStart && !(await licenceState(deps, ctx))) return 'LICENSE_REVOKED'
      const from = cursor
      const outcome = await prisma.$transaction(
        async (tx) => {
          const { cancelRequested, issueCount } = await renewLease(tx, claimed)
          if (cancelRequested) return null
          const subjects = await tx.limitBulkRunSubject.findMany({ where: { runId: claimed.run.id, seq: { gte: from, lt: from + chunkSize } }, orderBy: { seq: 'asc' } })
          const result = await applyChunk(tx, ctx, subjects)
          await writeChunk(tx, claimed, issueCount, result, Math.min(from + chunkSize, ctx.total))
          // the chunk's pushes commit with it (in the retry outbox), so a crash after the commit loses none
          return stageChunkPushes(tx, ctx.project, result, pushGraceMs(claimed))
        },
        { timeout: 300_000, maxWait: 60_000 },
      )
      if (!outcome) return 'CANCELLED'
      cursor = from + chunkSize
      // the chunk is committed: deliver its pushes (what is not acknowledged stays with the retry outbox)
      await delivering
      deliver(outcome)
      if (chunkPauseMs > 0 && cursor < ctx.total) await sleep(chunkPauseMs)
    }
    return 'DONE'
  } finally {
    await delivering
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
