import type { Tx } from '../context.js'
import { DomainError } from '../errors/domain-error.js'
import { canonicalHash } from '../hashing/canonical.js'
import { settleWhenReachable } from '../db/outage.js'

export interface ClaimRequest {
  /** project id, or the platform scope */
  scope: string
  /** e.g. `limitAssignment.create` */
  operation: string
  /** the Idempotency-Key header as received */
  key: string | undefined
  body: unknown
}

export interface Claim { scope: string; operation: string; key: string }

/**
 * Claims an Idempotency-Key in the database (spec §4.8), so two instances see the same claims:
 * a new key is claimed; the same key with another body is reused; with the same body it is either still
 * running or already done (replay expired, naming the resource it produced).
 */
export async function claimIdempotencyKey(db: Tx, request: ClaimRequest): Promise<Claim> {
  const key = request.key?.trim()
  if (!key) throw new DomainError('validation', 'idempotencyKeyRequired', 'Header Idempotency-Key is required')
  const claim = { scope: request.scope, operation: request.operation, key }
  const bodyHash = canonicalHash(request.body ?? null)
  const inserted = await db.idempotencyClaim.createMany({ data: [{ ...claim, bodyHash }], skipDuplicates: true })
  if (inserted.count === 1) return claim

  const existing = await db.idempotencyClaim.findUnique({ where: { scope_operation_key: claim } })
  if (!existing) return claimIdempotencyKey(db, request) // released between our insert and read: try again
  if (existing.bodyHash !== bodyHash) {
    throw new DomainError('conflict', 'idempotencyKeyReused', 'Idempotency-Key was already used with a different request body')
  }
  if (existing.state === 'IN_PROGRESS') {
    throw new DomainError('conflict', 'idempotencyInProgress', 'A request with this Idempotency-Key is still in progress')
  }
  throw new DomainError('conflict', 'idempotencyReplayExpired', 'A request with this Idempotency-Key already completed', {
    resource: existing.resource,
  })
}

export async function completeClaim(db: Tx, claim: Claim, resource: string): Promise<void> {
  await db.idempotencyClaim.update({
    where: { scope_operation_key: claim },
    data: { state: 'COMPLETED', resource, finishedAt: new Date() },
  })
}

/** A failed call releases its claim so the client may retry with the same key. */
export async function releaseClaim(db: Tx, claim: Claim): Promise<void> {
  await db.idempotencyClaim.deleteMany({ where: claim })
}

/**
 * Claim, run, then complete with the produced resource, or release when the run fails. A database outage does
 * not strand the claim: a run that failed (its write rolled back with its connection) releases it, and a run that
 * succeeded completes it, as soon as the database is back (settleWhenReachable).
 */
export async function withIdempotency<T>(
  db: Tx,
  request: ClaimRequest,
  run: () => Promise<{ result: T; resource: string }>,
): Promise<T> {
  const claim = await claimIdempotencyKey(db, request)
  let produced: { result: T; resource: string }
  try {
    produced = await run()
  } catch (err) {
    await settleWhenReachable(() => releaseClaim(db, claim))
    throw err
  }
  await settleWhenReachable(() => completeClaim(db, claim, produced.resource))
  return produced.result
}
