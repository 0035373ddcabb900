// The audit event of the call in progress. A door opens it before the operation runs; the database layer
// (audited-adapter.ts) inserts it inside the first transaction that writes, so the event commits or rolls
// back with the change it describes; the door settles it when the call has answered.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Deps } from '../context.js'
import type { AuditEventInput } from './recorder.js'

export interface PendingAudit {
  /** what is known when the call starts; the door's settle fills in what only the answer tells */
  event: AuditEventInput
  /** the row id once a write inserted it (every later insert of this call reuses it, so there is one row) */
  id: Promise<string> | null
  /** a transaction holding the event committed */
  committed: boolean
  /** the call has answered: later writes (background work it started) add nothing */
  settled: boolean
}

const storage = new AsyncLocalStorage<PendingAudit>()

export const openAudit = (event: AuditEventInput): PendingAudit => ({ event, id: null, committed: false, settled: false })

/** Runs an operation with its pending event in scope (REST, and each GraphQL mutation field). */
export const runAudited = <T>(pending: PendingAudit, operation: () => Promise<T>): Promise<T> => storage.run(pending, operation)

/** The pending event a write made now must carry, if any. */
export function pendingAudit(): PendingAudit | null {
  const pending = storage.getStore()
  return pending && !pending.committed && !pending.settled ? pending : null
}

export type AuditSettlement = Pick<AuditEventInput, 'objectName' | 'outcome' | 'httpStatus'>

/**
 * Ends the call's event. `null` (the call failed, or says it wrote nothing): no event is added; one a
 * committed write already holds stays, since that write happened. Otherwise the committed event gets what
 * the answer told (outcome, status, object), or, when the call wrote nothing to the database (a deploy, a
 * token rotation held elsewhere…), the event is inserted now. A failure here is logged, never thrown: the
 * call already happened and must be answered truthfully.
 */
export async function settleAudit(deps: Pick<Deps, 'prisma' | 'logger'>, pending: PendingAudit, settlement: AuditSettlement | null): Promise<void> {
  pending.settled = true
  if (!settlement) return
  const event = { ...pending.event, ...settlement, objectName: settlement.objectName ?? pending.event.objectName ?? null }
  const unchanged = event.outcome === pending.event.outcome && event.httpStatus === pending.event.httpStatus && event.objectName === pending.event.objectName
  try {
    if (pending.committed && unchanged) return
    const id = pending.id ? await pending.id.catch(() => null) : null
    if (pending.committed && id) {
      await deps.prisma.$executeRawUnsafe(
        'UPDATE "AuditEvent" SET "outcome" = $2, "httpStatus" = $3::int, "objectName" = $4 WHERE "id" = $1::bigint',
        id, event.outcome, event.httpStatus === null || event.httpStatus === undefined ? null : String(event.httpStatus), event.objectName,
      )
      return
    }
    // no write committed an event; a transaction still holding one (background work) is waited for by the conflict
    const { sql, args } = insertEventSql(event, id, 'update')
    await deps.prisma.$executeRawUnsafe(sql, ...args)
  } catch (err) {
    deps.logger.error({ err, correlationId: event.correlationId, operation: event.operation }, 'audit event not recorded')
  }
}

const COLUMNS = ['surface', 'actor', 'projectName', 'operation', 'objectType', 'objectName', 'outcome', 'httpStatus', 'correlationId'] as const

/**
 * One INSERT of an event: a known id is reused (ON CONFLICT: nothing, or the settled values), else the
 * sequence gives one. Values are text, cast in SQL, so both adapters take them as they are.
 */
export function insertEventSql(event: AuditEventInput, id: string | null, onConflict: 'nothing' | 'update'): { sql: string; args: (string | null)[] } {
  const values = COLUMNS.map((c) => {
    const v = event[c]
    return v === null || v === undefined ? null : String(v)
  })
  const params = COLUMNS.map((c, i) => `$${i + 2}${c === 'surface' ? '::"AuditSurface"' : c === 'httpStatus' ? '::int' : ''}`)
  const conflict = onConflict === 'nothing'
    ? 'DO NOTHING'
    : 'DO UPDATE SET "outcome" = EXCLUDED."outcome", "httpStatus" = EXCLUDED."httpStatus", "objectName" = EXCLUDED."objectName"'
  const sql = `INSERT INTO "AuditEvent" ("id", ${COLUMNS.map((c) => `"${c}"`).join(', ')})
    VALUES (COALESCE($1::bigint, nextval(pg_get_serial_sequence('"AuditEvent"', 'id'))), ${params.join(', ')})
    ON CONFLICT ("id") ${conflict} RETURNING "id"::text`
  return { sql, args: [id, ...values] }
}
