import { Prisma, type DeliveryOutbox } from '../../generated/prisma/client.js'
import type { Deps, Tx } from '../context.js'
import { isDatabaseOutage } from '../db/outage.js'
import { outageMonitor } from '../db/outage-monitor.js'
import type { DeployEnvironment, DeployMessage } from './pusher.js'

/**
 * The durable retry outbox: pushes that were not acknowledged at once are kept as rows and delivered by
 * whichever instance holds a row's lease. Rows live in the database, never in process memory, so a
 * restart or a second instance picks them up (RUNTIME.md §1).
 */

/** One push to hand over: `subject` names what to update when it is delivered, `<kind>:<…>`. */
export interface OutboxEntry { environment: DeployEnvironment; message: DeployMessage; subject: string }

/** Runs in the transaction that marks a row delivered, so the row and what it updates change together. */
export type DeliveredHandler = (tx: Tx, row: DeliveryOutbox) => Promise<void>

/**
 * Delivers one attempt of a row by other means than a push to its environment's workers (an event webhook's
 * HTTP call): success marks the row delivered, a failure schedules the next attempt with the same backoff.
 */
export type OutboxTransport = (row: DeliveryOutbox) => Promise<{ success: boolean; message: string }>

export interface OutboxSettings {
  pollIntervalMs: number
  /** first retry delay; doubles per failed attempt up to backoffCapMs */
  backoffBaseMs: number
  backoffCapMs: number
  /** how long a claim is held; longer than one delivery can take, so a live holder never loses it */
  leaseMs: number
  batchSize: number
  /** by the subject's kind (the text before the first ':') */
  onDelivered: Record<string, DeliveredHandler>
  /** by the subject's kind: rows of these kinds are not pushed to workers but handed to the transport */
  transports?: Record<string, OutboxTransport>
}

export interface OutboxDeliverer {
  /** claims and delivers what is due now; resolves with the number of rows delivered */
  runOnce(): Promise<number>
  /** stops polling and waits for the delivery in flight, leaving undelivered rows for the next instance */
  stop(): Promise<void>
}

// Timestamps are stored as UTC `timestamp(3)`; every comparison uses the database clock, the one clock all
// instances share, converted the same way.
const DB_NOW = Prisma.sql`(now() AT TIME ZONE 'UTC')`

export const backoffDelayMs = (attempts: number, baseMs: number, capMs: number) =>
  Math.min(capMs, baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)))

/** Settings derived from the one poll interval setting: base = interval, cap = 60 × interval. */
export function outboxSettings(pollIntervalMs: number, deployTimeoutMs: number, onDelivered: Record<string, DeliveredHandler>, transports: Record<string, OutboxTransport> = {}): OutboxSettings {
  return {
    transports,
    pollIntervalMs,
    backoffBaseMs: pollIntervalMs,
    backoffCapMs: pollIntervalMs * 60,
    leaseMs: 2 * deployTimeoutMs + 10_000,
    batchSize: 20,
    onDelivered,
  }
}

export async function enqueueDeliveries(tx: Tx, entries: OutboxEntry[]): Promise<void> {
  if (!entries.length) return
  await tx.deliveryOutbox.createMany({
    data: entries.map((e) => ({
      environmentName: e.environment.name,
      workerUrls: e.environment.workerUrls,
      message: e.message as unknown as Prisma.InputJsonValue,
      subject: e.subject,
      nextAttemptAt: new Date(),
    })),
  })
}

/** Retires undelivered rows whose subject starts with the prefix: a newer push carries newer state. */
export async function supersedeDeliveries(tx: Tx, subjectPrefix: string, reason: string): Promise<number> {
  const { count } = await tx.deliveryOutbox.updateMany({
    where: { subject: { startsWith: subjectPrefix }, deliveredAt: null },
    data: { deliveredAt: new Date(), leaseUntil: null, lastError: reason },
  })
  return count
}

/**
 * Claims due rows with a lease in one statement: a row is taken only when no live lease holds it, and
 * SKIP LOCKED keeps two instances claiming at the same moment from taking the same row.
 */
async function claim(db: Tx, settings: OutboxSettings): Promise<DeliveryOutbox[]> {
  const claimed = await db.$queryRaw<{ id: string }[]>`
    UPDATE "DeliveryOutbox"
       SET "leaseUntil" = ${DB_NOW} + ${settings.leaseMs}::integer * interval '1 millisecond', "attempts" = "attempts" + 1
     WHERE "id" IN (
       SELECT "id" FROM "DeliveryOutbox"
        WHERE "deliveredAt" IS NULL AND "nextAttemptAt" <= ${DB_NOW}
          AND ("leaseUntil" IS NULL OR "leaseUntil" < ${DB_NOW})
        ORDER BY "nextAttemptAt", "createdAt"
        LIMIT ${settings.batchSize}::integer
        FOR UPDATE SKIP LOCKED)
       AND "deliveredAt" IS NULL AND ("leaseUntil" IS NULL OR "leaseUntil" < ${DB_NOW})
    RETURNING "id"`
  if (!claimed.length) return []
  return db.deliveryOutbox.findMany({ where: { id: { in: claimed.map((c) => c.id) } } })
}

export function startOutboxDeliverer(deps: Pick<Deps, 'prisma' | 'deployer' | 'logger'>, settings: OutboxSettings): OutboxDeliverer {
  const { prisma, deployer, logger } = deps
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let inFlight: Promise<number> = Promise.resolve(0)

  async function deliver(row: DeliveryOutbox): Promise<boolean> {
    const kind = row.subject.split(':')[0]!
    const transport = settings.transports?.[kind]
    const result = transport
      ? await transport(row)
      : (await deployer.push([{ name: row.environmentName, workerUrls: row.workerUrls }], row.message as unknown as DeployMessage)).environmentResults[0]
    if (result?.success) {
      const handler = settings.onDelivered[kind]
      await prisma.$transaction(async (tx) => {
        // A row superseded meanwhile stays as it is; its acknowledgement no longer describes the latest push.
        const { count } = await tx.deliveryOutbox.updateMany({ where: { id: row.id, deliveredAt: null }, data: { deliveredAt: new Date(), leaseUntil: null, lastError: null } })
        if (count && handler) await handler(tx, row)
      })
      logger.info({ subject: row.subject, environment: row.environmentName, attempts: row.attempts }, 'outbox delivery acknowledged')
      return true
    }
    const delay = backoffDelayMs(row.attempts, settings.backoffBaseMs, settings.backoffCapMs)
    const error = result?.message ?? 'no result'
    await prisma.$executeRaw`
      UPDATE "DeliveryOutbox" SET "leaseUntil" = NULL, "lastError" = ${error},
             "nextAttemptAt" = ${DB_NOW} + ${delay}::integer * interval '1 millisecond'
       WHERE "id" = ${row.id} AND "deliveredAt" IS NULL`
    logger.warn({ subject: row.subject, environment: row.environmentName, attempts: row.attempts, retryInMs: delay, error }, 'outbox delivery failed; will retry')
    return false
  }

  async function runOnce(): Promise<number> {
    const rows = await claim(prisma, settings)
    const results = await Promise.all(
      rows.map((row) =>
        deliver(row).catch((err) => {
          logger.error({ err, subject: row.subject }, 'outbox delivery crashed; the lease lapses and the row is retried')
          return false
        }),
      ),
    )
    return results.filter(Boolean).length
  }

  function schedule() {
    if (stopped) return
    timer = setTimeout(() => {
      inFlight = runOnce()
        .catch((err) => {
          if (isDatabaseOutage(err)) outageMonitor(deps).report(err, false) // logged once per outage, not at every poll
          else logger.error({ err }, 'outbox poll failed')
          return 0
        })
        .finally(schedule)
    }, settings.pollIntervalMs)
  }
  schedule()

  return {
    runOnce,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await inFlight
    },
  }
}
