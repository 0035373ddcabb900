import type { LimitBulkRunSubject } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError } from '../../../platform/errors/domain-error.js'
import { endAssignmentInTx } from '../assignments/service.js'
import { createBulkAssignment, createBulkAssignments, findLiveBindings, reopenAssignment, REPLACED_DRAFT_NOTE, type LiveBinding } from './assignment-ops.js'
import type { ChunkResult, RunContext, SubjectOutcome } from './run-context.js'
import { subjectsById } from './selector.js'

// APPLY of one chunk, inside its transaction. The common case — subjects with nothing bound on the scope — is one
// statement for the whole chunk (createBulkAssignments). The others (a live binding to skip or replace, a rollback)
// go one by one, each under a savepoint: a subject that fails is recorded FAILED with the assignment service's
// errorKey/reason and leaves nothing behind, the others commit.

/** Runs fn under a savepoint: on failure the subject's partial writes are undone and the chunk goes on. */
async function inSavepoint<T>(tx: Tx, fn: () => Promise<T>): Promise<T> {
  await tx.$executeRawUnsafe('SAVEPOINT bulk_subject')
  try {
    const result = await fn()
    await tx.$executeRawUnsafe('RELEASE SAVEPOINT bulk_subject')
    return result
  } catch (err) {
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT bulk_subject')
    throw err
  }
}

function failure(err: unknown): Pick<SubjectOutcome, 'messageKey' | 'messageParams'> {
  if (err instanceof DomainError && err.kind !== 'internal' && err.kind !== 'unavailable') {
    const { reason, ...params } = err.params
    return { messageKey: typeof reason === 'string' ? reason : err.errorKey, messageParams: { errorKey: err.errorKey, ...params } }
  }
  return { messageKey: 'limit.bulk.subjectFailed', messageParams: {} }
}

async function applyAssignChunk(tx: Tx, ctx: RunContext, subjects: LimitBulkRunSubject[]): Promise<ChunkResult> {
  const bulk = ctx.bulk!
  const result: ChunkResult = { rows: [], touchedAssignmentIds: [], createdTogether: new Map() }
  const base = (s: LimitBulkRunSubject) => ({ seq: s.seq, subjectType: s.subjectType, subjectName: s.subjectName })
  if (!ctx.licensedAtStart) {
    for (const s of subjects) {
      result.rows.push({ ...base(s), outcome: 'SKIPPED_LICENSE', messageKey: 'limit.bulk.moduleNotLicensed', messageParams: { module: ctx.module } })
    }
    return result
  }
  // one statement for the common case: every subject that still exists and has nothing bound on the scope is
  // created; deleted subjects come back without a current key, bound ones without a created row. Under a savepoint
  // (released with the transaction): when the database refuses a row, the chunk goes subject by subject below.
  const current = new Map<string, string>()
  const createdFast = new Map<string, { id: string; bindingKey: string }>()
  await tx.$executeRawUnsafe('SAVEPOINT bulk_chunk')
  try {
    const inserted = await createBulkAssignments(tx, { project: ctx.project, type: ctx.subjectType, bulk, runId: ctx.run.runId, assignedBy: ctx.actorName },
      subjects.map((s) => ({ id: s.subjectId, name: s.subjectName })))
    for (const r of inserted) {
      if (r.currentKey !== null) current.set(r.subjectId, r.currentKey)
      if (r.created) createdFast.set(r.subjectId, r.created)
    }
  } catch {
    await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT bulk_chunk')
    for (const [id, name] of await subjectsById(tx, ctx.subjectType, subjects.map((s) => s.subjectId))) current.set(id, name)
  }
  // subjects not created although they exist (a live binding on the scope, or the fallback): their bindings, then one by one below
  const bound = subjects.filter((s) => current.has(s.subjectId) && !createdFast.has(s.subjectId)).map((s) => ({ id: s.subjectId, name: current.get(s.subjectId)! }))
  const live = bound.length ? await findLiveBindings(tx, ctx.project.id, ctx.subjectType, bound, bulk.content) : new Map<string, LiveBinding>()
  for (const s of subjects) {
    const name = current.get(s.subjectId)
    if (name === undefined) {
      result.rows.push({ ...base(s), outcome: 'FAILED', messageKey: 'resourceNotFound', messageParams: { subjectType: s.subjectType, subject: s.subjectName } })
      continue
    }
    const subject = { id: s.subjectId, name }
    const row = { ...base(s), subjectName: name }
    const fast = createdFast.get(s.subjectId)
    if (fast) {
      result.touchedAssignmentIds.push(fast.id)
      result.createdTogether!.set(fast.id, { bindingKey: fast.bindingKey, subjectKey: name })
      result.rows.push({ ...row, outcome: 'CREATED', bindingKey: fast.bindingKey })
      continue
    }
    const existing = live.get(s.subjectId)
    if (existing && ctx.conflictPolicy === 'KEEP_EXISTING') {
      result.rows.push({ ...row, outcome: 'SKIPPED_EXISTING', bindingKey: existing.bindingKey, messageKey: 'limit.binding.scopeAlreadyBound', messageParams: { existingBindingKey: existing.bindingKey } })
      continue
    }
    try {
      const created = await inSavepoint(tx, async () => {
        if (existing) {
          const ended = await endAssignmentInTx(tx, { id: existing.id, endedBy: ctx.actorName, reason: `replaced by bulk run ${ctx.run.runId}`, allowDraft: true })
          // a replaced DRAFT says so in its endedReason: a rollback brings it back as a DRAFT, never activated
          if (!ended.wasActive) await tx.limitAssignment.update({ where: { id: existing.id }, data: { endedReason: `replaced by bulk run ${ctx.run.runId}${REPLACED_DRAFT_NOTE}` } })
        }
        return createBulkAssignment(tx, {
          project: ctx.project, type: ctx.subjectType, subject, bulk, runId: ctx.run.runId, assignedBy: ctx.actorName, replacedBindingKey: existing?.bindingKey,
        })
      })
      if (existing) result.touchedAssignmentIds.push(existing.id)
      result.touchedAssignmentIds.push(created.id)
      result.rows.push({ ...row, outcome: existing ? 'REPLACED' : 'CREATED', bindingKey: created.bindingKey, replacedBindingKey: existing?.bindingKey ?? null })
    } catch (err) {
      result.rows.push({ ...row, outcome: 'FAILED', ...failure(err) })
    }
  }
  return result
}

/** Ends what the source run created; a row the source REPLACE ended is reopened as a new row (RESTORED). */
async function applyRollbackChunk(tx: Tx, ctx: RunContext, subjects: LimitBulkRunSubject[]): Promise<ChunkResult> {
  const result: ChunkResult = { rows: [], touchedAssignmentIds: [] }
  const keys = subjects.map((s) => s.bindingKey).filter((k): k is string => Boolean(k))
  const rows = await tx.limitAssignment.findMany({ where: { bindingKey: { in: keys } }, select: { id: true, bindingKey: true, status: true } })
  const byKey = new Map(rows.map((r) => [r.bindingKey, r]))
  for (const s of subjects) {
    const base = { seq: s.seq, subjectType: s.subjectType, subjectName: s.subjectName }
    const createdRow = s.bindingKey ? byKey.get(s.bindingKey) : undefined
    if (!createdRow || createdRow.status === 'ENDED') {
      // ended by someone else meanwhile: nothing to undo, and its predecessor is not brought back over a newer decision
      result.rows.push({ ...base, outcome: 'SKIPPED_EXISTING', bindingKey: s.bindingKey, messageKey: 'limit.binding.alreadyEnded', messageParams: { bindingKey: s.bindingKey } })
      continue
    }
    try {
      const reopened = await inSavepoint(tx, async () => {
        await endAssignmentInTx(tx, { id: createdRow.id, endedBy: ctx.actorName, reason: `rolled back by bulk run ${ctx.run.runId}`, allowDraft: true })
        return s.replacedBindingKey ? reopenAssignment(tx, ctx.project, s.replacedBindingKey, ctx.run.runId, ctx.actorName) : null
      })
      result.touchedAssignmentIds.push(createdRow.id)
      if (reopened) {
        result.touchedAssignmentIds.push(reopened.id)
        result.rows.push({ ...base, outcome: 'RESTORED', bindingKey: reopened.bindingKey, replacedBindingKey: s.replacedBindingKey })
      } else {
        result.rows.push({ ...base, outcome: 'ENDED', bindingKey: s.bindingKey })
      }
    } catch (err) {
      result.rows.push({ ...base, outcome: 'FAILED', bindingKey: s.bindingKey, ...failure(err) })
    }
  }
  return result
}

export function applyChunk(tx: Tx, ctx: RunContext, subjects: LimitBulkRunSubject[]): Promise<ChunkResult> {
  return ctx.run.kind === 'ROLLBACK' ? applyRollbackChunk(tx, ctx, subjects) : applyAssignChunk(tx, ctx, subjects)
}
