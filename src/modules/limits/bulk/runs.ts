import { Prisma, type LimitBulkRun } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { actorName } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { lifecycleConflict } from '../../../platform/errors/domain-error.js'
import { withIdempotency } from '../../../platform/idempotency/claims.js'
import { mintPublicKey } from '../../../platform/keys.js'
import { prepareBulkContent } from './assignment-ops.js'
import { bulkProject, findRun } from './access.js'
import { selectorFingerprint } from './fingerprint.js'
import { parseRunBody, type BulkRequest } from './inputs.js'
import { wakeBulkRunners } from './runner.js'
import { checkSelectorReferences } from './selector.js'

// Run creation and the run actions of spec §3.3 / §4.9. A run is only queued here; the runner (runner.ts)
// executes it in the background on whichever instance claims it.

/** MANUAL from the console (GraphQL and the /api manager surface), APIOPS from /apiops. */
export type RunTrigger = 'MANUAL' | 'APIOPS'

export interface RunRequestMeta {
  idempotencyKey: string | undefined
  trigger: RunTrigger
}

const FINISHED = ['SUCCESS', 'PARTIAL', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'LICENSE_REVOKED'] as const
export const isFinished = (run: LimitBulkRun) => (FINISHED as readonly string[]).includes(run.runStatus)

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002'

/**
 * Inserts a QUEUED run holding its project's one active slot (LimitBulkRun.activeProjectId is unique): a
 * second run while one is queued or running — on any instance — is refused by the database itself.
 */
async function queueRun(db: Tx, projectId: string, data: Omit<Prisma.LimitBulkRunUncheckedCreateInput, 'runId' | 'projectId' | 'activeProjectId'>): Promise<LimitBulkRun> {
  try {
    return await db.limitBulkRun.create({ data: { ...data, runId: mintPublicKey('lbr'), projectId, activeProjectId: projectId } })
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    const active = await db.limitBulkRun.findUnique({ where: { activeProjectId: projectId }, select: { runId: true } })
    throw lifecycleConflict('limit.bulk.runAlreadyActive', 'Another bulk run of this project is queued or running', { activeRunId: active?.runId ?? null })
  }
}

const json = (v: unknown) => v as Prisma.InputJsonValue

export async function createBulkRun(db: Tx, actor: Actor, projectName: string, body: unknown, meta: RunRequestMeta): Promise<LimitBulkRun> {
  const project = await bulkProject(db, actor, projectName, 'MANAGE')
  const run = await withIdempotency(db, { scope: project.id, operation: 'limitBulkRun.create', key: meta.idempotencyKey, body }, async () => {
    const request = parseRunBody(body)
    // the content's own refusals (400, 404 params.plan, 409 planRetired/planNotPublished) come before queueing
    await prepareBulkContent(db, project.id, request.content, request.selector.subjectType)
    const fingerprint = selectorFingerprint(project.id, request as BulkRequest)
    if (fingerprint !== request.previewFingerprint) {
      throw lifecycleConflict('limit.bulk.fingerprintMismatch', 'The selector, content or conflict policy no longer hash to previewFingerprint: preview again', {
        previewFingerprint: request.previewFingerprint, selectorFingerprint: fingerprint,
      })
    }
    await checkSelectorReferences(db, project.id, request.selector)
    const queued = await queueRun(db, project.id, {
      kind: 'ASSIGN',
      trigger: meta.trigger,
      triggeredBy: actorName(actor),
      selector: json(request.selector),
      content: json(request.content),
      conflictPolicy: request.conflictPolicy,
      selectorFingerprint: fingerprint,
      expectedCount: request.expectedCount ?? null,
      idempotencyKey: meta.idempotencyKey?.trim() ?? null,
    })
    return { result: queued, resource: queued.runId }
  })
  wakeBulkRunners()
  return run
}

/** QUEUED: cancelled at once. RUNNING: cancelRequested, honoured at the next chunk boundary. Finished: refused. */
export async function cancelBulkRun(db: Tx, actor: Actor, projectName: string, runId: string): Promise<LimitBulkRun> {
  const project = await bulkProject(db, actor, projectName, 'MANAGE')
  const run = await findRun(db, project.id, runId)
  const queued = await db.limitBulkRun.updateMany({
    where: { id: run.id, runStatus: 'QUEUED' },
    data: { runStatus: 'CANCELLED', cancelRequested: true, finishedAt: new Date(), activeProjectId: null, messageKey: 'limit.bulk.cancelled', messageParams: { processedCount: 0 } },
  })
  if (!queued.count) {
    const running = await db.limitBulkRun.updateMany({ where: { id: run.id, runStatus: 'RUNNING' }, data: { cancelRequested: true } })
    if (!running.count) {
      const now = await db.limitBulkRun.findUniqueOrThrow({ where: { id: run.id } })
      throw lifecycleConflict('limit.bulk.runNotCancellable', `Bulk run '${runId}' is ${now.runStatus}; only a queued or running run can be cancelled`, { runStatus: now.runStatus })
    }
  }
  return db.limitBulkRun.findUniqueOrThrow({ where: { id: run.id } })
}

/** How many assignments the source run created (or put in place of another) are still live. */
async function liveRowsOf(db: Tx, sourceId: string): Promise<number> {
  const rows = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::integer AS n
      FROM "LimitBulkRunSubject" s JOIN "LimitAssignment" a ON a."bindingKey" = s."bindingKey"
     WHERE s."runId" = ${sourceId} AND s."outcome" IN ('CREATED', 'REPLACED') AND a."status" <> 'ENDED'`
  return rows[0]?.n ?? 0
}

function sourceEcho(source: LimitBulkRun) {
  return { selector: json(source.selector), content: json(source.content), selectorFingerprint: source.selectorFingerprint }
}

/** A new ROLLBACK run over what a finished ASSIGN or RETRY run created or replaced and is still live. */
export async function rollbackBulkRun(db: Tx, actor: Actor, projectName: string, runId: string, meta: RunRequestMeta): Promise<LimitBulkRun> {
  const project = await bulkProject(db, actor, projectName, 'MANAGE')
  const source = await findRun(db, project.id, runId)
  const run = await withIdempotency(db, { scope: project.id, operation: 'limitBulkRun.rollback', key: meta.idempotencyKey, body: { runId } }, async () => {
    const notRollbackable = (why: string) => lifecycleConflict('limit.bulk.runNotRollbackable', `Bulk run '${runId}' cannot be rolled back: ${why}`, { runStatus: source.runStatus, kind: source.kind })
    if (source.kind === 'ROLLBACK') throw notRollbackable('it is itself a rollback')
    if (!isFinished(source)) throw notRollbackable('it has not finished')
    const live = await liveRowsOf(db, source.id)
    if (live === 0) throw notRollbackable('nothing it created is still live')
    const queued = await queueRun(db, project.id, {
      kind: 'ROLLBACK', trigger: meta.trigger, triggeredBy: actorName(actor), ...sourceEcho(source), conflictPolicy: source.conflictPolicy,
      expectedCount: live, rollbackOfRunId: source.runId, idempotencyKey: meta.idempotencyKey?.trim() ?? null,
    })
    return { result: queued, resource: queued.runId }
  })
  wakeBulkRunners()
  return run
}

/** A new RETRY run over the subjects a finished ASSIGN or RETRY run recorded FAILED, with KEEP_EXISTING. */
export async function retryFailedBulkRun(db: Tx, actor: Actor, projectName: string, runId: string, meta: RunRequestMeta): Promise<LimitBulkRun> {
  const project = await bulkProject(db, actor, projectName, 'MANAGE')
  const source = await findRun(db, project.id, runId)
  const run = await withIdempotency(db, { scope: project.id, operation: 'limitBulkRun.retryFailed', key: meta.idempotencyKey, body: { runId } }, async () => {
    const notRetryable = (why: string) => lifecycleConflict('limit.bulk.runNotRetryable', `Bulk run '${runId}' cannot be retried: ${why}`, { runStatus: source.runStatus, kind: source.kind })
    if (source.kind === 'ROLLBACK') throw notRetryable('it is a rollback')
    if (!isFinished(source)) throw notRetryable('it has not finished')
    const failed = await db.limitBulkRunSubject.count({ where: { runId: source.id, outcome: 'FAILED' } })
    if (failed === 0) throw notRetryable('it recorded no failed subject')
    const queued = await queueRun(db, project.id, {
      kind: 'RETRY', trigger: meta.trigger, triggeredBy: actorName(actor), ...sourceEcho(source), conflictPolicy: 'KEEP_EXISTING',
      expectedCount: failed, retryOfRunId: source.runId, idempotencyKey: meta.idempotencyKey?.trim() ?? null,
    })
    return { result: queued, resource: queued.runId }
  })
  wakeBulkRunners()
  return run
}
