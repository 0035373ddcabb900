import crypto from 'node:crypto'
import { Prisma, type LimitBulkRun } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { executeRun } from './execute.js'

/**
 * The durable runner of bulk runs (spec §3.3). Like the delivery outbox (platform/deploy/outbox.ts), all of its
 * state lives in the database: an instance claims a QUEUED run with a lease, renews the lease by heartbeat and
 * with every committed chunk, and fences every write on still holding it. A RUNNING run whose lease lapsed (its
 * worker died) is marked INTERRUPTED by the next instance that polls — at start-up and on every poll after.
 */

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
     SET "heartbeatAt" = ${DB_NOW}, "leaseUntil" = ${DB_NOW} + ${claimed.settings.leaseMs}::integer * interval '1 millisecond'
   WHERE "id" = ${claimed.run.id} AND "leaseOwner" = ${claimed.owner} AND "runStatus" = 'RUNNING'
  RETURNING "cancelRequested", "issueCount"`

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

/** Claims the oldest QUEUED run; SKIP LOCKED keeps two instances from taking the same one. */
async function claimNext(db: Tx, owner: string, settings: BulkRunnerSettings): Promise<LimitBulkRun | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE "LimitBulkRun"
       SET "runStatus" = 'RUNNING', "runningAt" = ${DB_NOW}, "heartbeatAt" = ${DB_NOW}, "leaseOwner" = ${owner},
           "leaseUntil" = ${DB_NOW} + ${settings.leaseMs}::integer * interval '1 millisecond'
     WHERE "id" = (SELECT "id" FROM "LimitBulkRun" WHERE "runStatus" = 'QUEUED' ORDER BY "startedAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
       AND "runStatus" = 'QUEUED'
    RETURNING "id"`
  if (!rows.length) return null
  return db.limitBulkRun.findUnique({ where: { id: rows[0].id } })
}

export interface BulkRunner {
  /** interrupts abandoned runs, then works through every queued run; resolves when none is left */
  runOnce(): Promise<void>
  /** look for queued runs now instead of at the next poll */
  wake(): void
  /** hands the run in progress back at its next chunk boundary (INTERRUPTED) and stops polling */
  stop(): Promise<void>
}

/** Every runner of this process, so that a service that queued a run can wake them without waiting for a poll. */
const runners = new Set<BulkRunner>()
export function wakeBulkRunners(): void {
  for (const runner of runners) runner.wake()
}

export function startLimitBulkRunner(deps: Pick<Deps, 'prisma' | 'deployer' | 'logger'>, settings: BulkRunnerSettings): BulkRunner {
  const { prisma, logger } = deps
  const owner = `${process.pid}-${crypto.randomUUID()}`
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let inFlight: Promise<void> | null = null
  let again = false

  async function runOnce(): Promise<void> {
    const interrupted = await interruptAbandonedRuns(prisma)
    if (interrupted.length) logger.warn({ runIds: interrupted }, 'bulk runs whose worker died marked INTERRUPTED')
    while (!stopped) {
      const run = await claimNext(prisma, owner, settings)
      if (!run) return
      logger.info({ runId: run.runId, kind: run.kind }, 'bulk run claimed')
      await executeRun(deps, { run, owner, settings, stopping: () => stopped })
    }
  }

  function tick() {
    if (stopped || inFlight) {
      again = true
      return
    }
    clearTimeout(timer)
    inFlight = runOnce()
      .catch((err) => logger.error({ err }, 'bulk runner poll failed'))
      .finally(() => {
        inFlight = null
        if (stopped) return
        if (again) {
          again = false
          setImmediate(tick)
        } else timer = setTimeout(tick, settings.pollIntervalMs)
      })
  }

  const runner: BulkRunner = {
    runOnce,
    wake: () => {
      if (!stopped) setImmediate(tick)
    },
    async stop() {
      stopped = true
      runners.delete(runner)
      clearTimeout(timer)
      await inFlight
    },
  }
  runners.add(runner)
  // at once: a run left behind by a dead instance is marked as soon as its lease has lapsed
  setImmediate(tick)
  return runner
}
