import type { Deps, Tx } from '../context.js'
import type { OutboxEntry } from './outbox.js'
import { enqueueDeliveries } from './outbox.js'
import { pushMessages, type BatchDeploymentOutcome, type DeployEnvironment, type DeployMessage } from './pusher.js'

// Many objects pushed at once (RUNTIME.md §4.1) with the same guarantees as pushing them one by one through the
// retry outbox: what an environment did not acknowledge is kept as an outbox row per message and environment, and
// older undelivered rows of the same object are retired first, since the new message carries newer state.

export interface BatchItem {
  message: DeployMessage
  /** outbox subject, `<kind>:<…>` */
  subject: string
  /** undelivered outbox rows whose subject starts with this are superseded by this message */
  supersedePrefix?: string
}

/** Retires undelivered rows of many subjects in one statement (see supersedeDeliveries for one). */
export async function supersedeMany(db: Tx, prefixes: string[], reason: string): Promise<void> {
  if (!prefixes.length) return
  await db.$executeRaw`
    UPDATE "DeliveryOutbox" AS d SET "deliveredAt" = now() AT TIME ZONE 'UTC', "leaseUntil" = NULL, "lastError" = ${reason}
      FROM unnest(${prefixes}::text[]) AS p(prefix)
     WHERE d."deliveredAt" IS NULL AND left(d."subject", length(p.prefix)) = p.prefix`
}

/**
 * Pushes the items to every environment as batches, then, in one transaction, supersedes older undelivered rows of
 * the same objects and hands every unacknowledged (message, environment) pair to the retry outbox.
 */
export async function pushBatchWithOutbox(deps: Pick<Deps, 'prisma' | 'deployer'>, environments: DeployEnvironment[], items: BatchItem[]): Promise<BatchDeploymentOutcome> {
  const outcome = await pushMessages(deps.deployer, environments, items.map((i) => i.message))
  const failed: OutboxEntry[] = []
  outcome.environmentResults.forEach((result, k) => {
    result.errors.forEach((error, i) => {
      if (error !== null) failed.push({ environment: environments[k], message: items[i].message, subject: items[i].subject })
    })
  })
  const prefixes = items.map((i) => i.supersedePrefix).filter((p): p is string => Boolean(p))
  if (prefixes.length || failed.length) {
    await deps.prisma.$transaction(async (tx) => {
      await supersedeMany(tx, prefixes, 'superseded by a newer push')
      await enqueueDeliveries(tx, failed)
    })
  }
  return outcome
}
