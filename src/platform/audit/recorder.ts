// The audit trail's write side: who did what to which object, through which door, with what outcome.
// Events carry names and outcomes only — never a request body — so no secret can reach them.
// A door's event is written in the transaction of the call's first write (context.ts, audited-adapter.ts).
import type { AuditSurface } from '../../generated/prisma/enums.js'
import { actorName, type Actor } from '../auth/actor.js'
import type { Deps, Tx } from '../context.js'
import { utcTimestamp } from '../db/timestamps.js'

export interface AuditEventInput {
  surface: AuditSurface
  actor: string
  projectName?: string | null
  operation: string
  objectType?: string | null
  objectName?: string | null
  outcome: AuditOutcome
  httpStatus?: number | null
  correlationId: string
}

export type AuditOutcome = 'SUCCEEDED' | 'ACCEPTED' | 'DEPLOY_FAILED'

export const BOOTSTRAP_ACTOR = 'bootstrap'

/** Who to record: the signed-in user, or the name a public call (the token endpoint) acted for. */
export function auditActor(actor: Actor | null, claimedName?: unknown): string {
  if (actor) return actorName(actor)
  return typeof claimedName === 'string' && claimedName ? claimedName : 'anonymous'
}

/** Identifier fields a result or argument may carry, in order of preference. Never a secret field. */
const IDENTIFIER_FIELDS = [
  'username', 'client_id', 'clientId', 'consumerKey', 'planKey', 'bindingKey', 'assignmentKey', 'runId', 'code', 'name', 'key', 'modelId', 'fileName',
] as const

/** The first identifier-looking string of an object, or null. */
export function identifierOf(value: unknown): string | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null
  const record = value as Record<string, unknown>
  for (const field of IDENTIFIER_FIELDS) {
    const v = record[field]
    if (typeof v === 'string' && v) return v
  }
  return null
}

/**
 * A saved write whose push failed still happened: recorded as DEPLOY_FAILED so an operator sees it.
 * Looks for the deployment-result shapes the surfaces answer with.
 */
export function outcomeOf(status: number, body: unknown): AuditOutcome {
  if (status === 202) return 'ACCEPTED'
  if (!body || typeof body !== 'object') return 'SUCCEEDED'
  const record = body as { deploymentResult?: { success?: unknown }; environmentResults?: unknown; success?: unknown }
  const deployment = record.deploymentResult ?? (Array.isArray(record.environmentResults) ? record : undefined)
  return deployment && deployment.success === false ? 'DEPLOY_FAILED' : 'SUCCEEDED'
}

/** Inside a transaction (the bootstrap): the events commit or roll back with the writes they describe. */
export async function recordAuditEventsInTx(tx: Tx, events: AuditEventInput[]): Promise<void> {
  // one INSERT … SELECT per 5,000 events from one JSON parameter: Prisma's createMany costs milliseconds per row on
  // large batches
  for (let i = 0; i < events.length; i += 5000) {
    const batch = events.slice(i, i + 5000).map((e) => ({
      surface: e.surface, actor: e.actor, projectName: e.projectName ?? null, operation: e.operation, objectType: e.objectType ?? null,
      objectName: e.objectName ?? null, outcome: e.outcome, httpStatus: e.httpStatus ?? null, correlationId: e.correlationId ?? null,
    }))
    const at = utcTimestamp(new Date())
    await tx.$executeRaw`
      INSERT INTO "AuditEvent" (at, surface, actor, "projectName", operation, "objectType", "objectName", outcome, "httpStatus", "correlationId")
      SELECT ${at}::timestamp(3), surface::"AuditSurface", actor, "projectName", operation, "objectType", "objectName", outcome, "httpStatus", "correlationId"
      FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
        AS e(surface text, actor text, "projectName" text, operation text, "objectType" text, "objectName" text, outcome text, "httpStatus" int,
          "correlationId" text)`
  }
}

/** Deletes events older than the retention; returns how many went. */
export async function purgeAuditEvents(db: Tx, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000)
  const { count } = await db.auditEvent.deleteMany({ where: { at: { lt: cutoff } } })
  return count
}

const HOUR_MS = 3_600_000

/** Purges now (awaited, so start-up serves no expired event) and then hourly until stopped. */
export async function startAuditRetention(deps: Deps): Promise<{ stop(): void }> {
  const purge = () =>
    purgeAuditEvents(deps.prisma, deps.config.auditRetentionDays)
      .then((count) => { if (count) deps.logger.info({ count, retentionDays: deps.config.auditRetentionDays }, 'audit events purged') })
      .catch((err) => deps.logger.error({ err }, 'audit retention purge failed'))
  await purge()
  const timer = setInterval(purge, HOUR_MS)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
