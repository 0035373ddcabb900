import { Prisma, type LimitBulkRun } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'

// The claim a worker holds on a bulk run (spec §3.3): its settings, the lease renewal and the writes fenced on
// still holding it. The runner (runner.ts) claims runs; executing one (execute.ts, prepare.ts) renews and fences.

export interface BulkRunnerSettings {
  pollIntervalMs: number
  /** how long a claim holds without renewal; a dead worker's run is INTERRUPTED this long after its last beat */
  leaseMs: number
  heartbeatMs: number
  /** subjects per chunk, each chunk one transaction (spec §8: 200) */
  chunkSize: number
  /** pause between chunks, so that other work gets the database between two chunks (one connection on PGlite) */
  chunkPauseMs: number
  /** the push timeout: staged pushes fall due for the outbox only after the worker could deliver them */
  deployTimeoutMs: number
}

export const CHUNK_SIZE = 200

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new Error(`Invalid environment variable ${name}: must be an integer of at least ${min}`)
  return n
}

/** LIMIT_BULK_LEASE_MS (default 30000), LIMIT_BULK_POLL_INTERVAL_MS (1000), LIMIT_BULK_CHUNK_PAUSE_MS (0). */
export function limitBulkRunnerSettings(env: NodeJS.ProcessEnv = process.env, deployTimeoutMs = 5000): BulkRunnerSettings {
  const leaseMs = intFrom(env, 'LIMIT_BULK_LEASE_MS', 30_000, 500)
  return {
    deployTimeoutMs,
    pollIntervalMs: intFrom(env, 'LIMIT_BULK_POLL_INTERVAL_MS', 1000, 10),
    leaseMs,
    heartbeatMs: Math.max(100, Math.floor(leaseMs / 3)),
    chunkSize: CHUNK_SIZE,
    chunkPauseMs: intFrom(env, 'LIMIT_BULK_CHUNK_PAUSE_MS', 0, 0),
  }
}

// Timestamps are UTC timestamp(3); lease times use the database clock, the one clock all instances share.
export const DB_NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`

/** Thrown when a write finds the run no longer held by this worker (interrupted meanwhile): stop touching it. */
export class LeaseLost extends Error {
  constructor(runId: string) {
    super(`lease on bulk run ${runId} lost`)
  }
}

/** One claimed run as the worker holding it sees it. */
export interface Claimed {
  run: LimitBulkRun
  owner: string
  settings: BulkRunnerSettings
  /** set by stop(): the run is handed back at the next chunk boundary */
  stopping(): boolean
}

/** The lease renewal as one statement (fenced on still holding the run), returning what a chunk looks at. */
export const leaseRenewalSql = (claimed: Claimed) => Prisma.sql`
  UPDATE "LimitBulkRun"
     SET ${renewedLeaseSql(claimed)}
   WHERE "id" = ${claimed.run.id} AND "leaseOwner" = ${claimed.owner} AND "runStatus" = 'RUNNING'
  RETURNING "cancelRequested", "issueCount"`

/**
 * A chunk's hold on the run (fenced on still holding it): the run row locked for the chunk's transaction, as the
 * renewal would, but without writing it — the chunk's closing statement renews the lease with its counters, so a
 * chunk writes the run (and announces a progress event) once.
 */
export const leaseHoldSql = (claimed: Claimed) => Prisma.sql`
  SELECT "cancelRequested", "issueCount" FROM "LimitBulkRun"
   WHERE "id" = ${claimed.run.id} AND "leaseOwner" = ${claimed.owner} AND "runStatus" = 'RUNNING'
   FOR UPDATE`

/** The lease's new end, set by every renewal. */
export const renewedLeaseSql = (claimed: Claimed) => Prisma.sql`"heartbeatAt" = ${DB_NOW}, "leaseUntil" = ${DB_NOW} + ${claimed.settings.leaseMs}::integer * interval '1 millisecond'`

/**
 * Renews the lease and returns what the worker must look at between chunks; throws LeaseLost when the run was
 * taken away (interrupted, finished elsewhere). The heartbeat; a chunk renews it in its first statement.
 */
export async function renewLease(db: Tx, claimed: Claimed): Promise<{ cancelRequested: boolean; issueCount: number }> {
  const rows = await db.$queryRaw<{ cancelRequested: boolean; issueCount: number }[]>`${leaseRenewalSql(claimed)}`
  if (!rows.length) throw new LeaseLost(claimed.run.runId)
  return rows[0]
}

/** Writes to the run only while this worker still holds it. */
export async function updateHeld(db: Tx, claimed: Claimed, data: Prisma.LimitBulkRunUpdateManyMutationInput): Promise<void> {
  const { count } = await db.limitBulkRun.updateMany({ where: { id: claimed.run.id, leaseOwner: claimed.owner, runStatus: 'RUNNING' }, data })
  if (!count) throw new LeaseLost(claimed.run.runId)
}

/** RUNNING runs whose lease lapsed: their worker died. Returns the public ids marked INTERRUPTED. */
export async function interruptAbandonedRuns(db: Tx): Promise<string[]> {
  const rows = await db.$queryRaw<{ runId: string }[]>`
    UPDATE "LimitBulkRun"
       SET "runStatus" = 'INTERRUPTED', "activeProjectId" = NULL, "finishedAt" = ${DB_NOW}, "leaseOwner" = NULL, "leaseUntil" = NULL,
           "messageKey" = 'limit.bulk.interrupted', "messageParams" = '{"reason":"leaseExpired"}'::jsonb
     WHERE "runStatus" = 'RUNNING' AND "leaseUntil" < ${DB_NOW}
    RETURNING "runId"`
  return rows.map((r) => r.runId)
}

