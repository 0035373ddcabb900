import crypto from 'node:crypto'
import type { LimitBulkRun } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { executeRun } from './execute.js'
import { isDatabaseOutage } from '../../../platform/db/outage.js'
import { outageMonitor } from '../../../platform/db/outage-monitor.js'
import { DB_NOW, interruptAbandonedRuns, type BulkRunnerSettings } from './lease.js'

/**
 * The durable runner of bulk runs (spec §3.3). Like the delivery outbox (platform/deploy/outbox.ts), all of its
 * state lives in the database: an instance claims a QUEUED run with a lease, renews the lease by heartbeat and
 * with every committed chunk, and fences every write on still holding it. A RUNNING run whose lease lapsed (its
 * worker died) is marked INTERRUPTED by the next instance that polls — at start-up and on every poll after.
 */

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
      // an outage is logged once by the monitor, not at every poll
      .catch((err) => (isDatabaseOutage(err) ? outageMonitor(deps).report(err, false) : logger.error({ err }, 'bulk runner poll failed')))
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
