// The database side of the audit trail: wraps the Prisma driver adapter (PGlite or PostgreSQL) so that the
// first write of an audited call inserts the call's pending event in the same transaction. A write outside
// any transaction gets one here, so the change and its event commit together or not at all. Services do
// nothing for it; doors open the event (context.ts).
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from '@prisma/driver-adapter-utils'
import { insertEventSql, pendingAudit, type PendingAudit } from './context.js'

/** Tables whose writes are bookkeeping, never the change a call is audited for. */
const BOOKKEEPING = new Set(['AuditEvent', 'IdempotencyClaim', 'AuthThrottle'])

const WRITE = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"[^"]+"\.)?"([^"]+)"/i

/** A statement that changes a table the audit trail is about. */
export function isAuditedWrite(sql: string): boolean {
  const table = WRITE.exec(sql)?.[1]
  return table !== undefined && !BOOKKEEPING.has(table)
}

const TEXT = { scalarType: 'string', arity: 'scalar' } as const
const query = (sql: string, args: (string | null)[] = []): SqlQuery => ({ sql, args, argTypes: args.map(() => TEXT) })

/** Inserts the pending event on a transaction; the first insert of a call takes the id every later one reuses. */
async function insertPending(tx: Transaction, pending: PendingAudit): Promise<void> {
  if (pending.id) {
    const id = await pending.id
    const { sql, args } = insertEventSql(pending.event, id, 'nothing')
    await tx.queryRaw(query(sql, args))
    return
  }
  const { sql, args } = insertEventSql(pending.event, null, 'nothing')
  const inserted = tx.queryRaw(query(sql, args)).then((r) => String(r.rows[0][0]))
  pending.id = inserted
  inserted.catch(() => {
    if (pending.id === inserted) pending.id = null
  })
  await inserted
}

/** A transaction that carries the event of the call that opened it, on its first audited write. */
function auditedTransaction(tx: Transaction, pending: PendingAudit | null): Transaction {
  if (!pending) return tx
  let holdsEvent = false
  const beforeStatement = async (q: SqlQuery) => {
    if (holdsEvent || pending.committed || pending.settled || !isAuditedWrite(q.sql)) return
    holdsEvent = true
    await insertPending(tx, pending)
  }
  return new Proxy(tx, {
    get(target, prop, receiver) {
      switch (prop) {
        case 'queryRaw':
          return async (q: SqlQuery) => { await beforeStatement(q); return target.queryRaw(q) }
        case 'executeRaw':
          return async (q: SqlQuery) => { await beforeStatement(q); return target.executeRaw(q) }
        case 'commit':
          return async () => {
            await target.commit()
            if (holdsEvent) pending.committed = true
          }
        default: {
          const value = Reflect.get(target, prop, receiver)
          return typeof value === 'function' ? value.bind(target) : value
        }
      }
    },
  })
}

/** Runs one audited write outside any transaction in a transaction of its own, with the event. */
async function inOwnTransaction<T>(adapter: SqlDriverAdapter, pending: PendingAudit, run: (tx: Transaction) => Promise<T>): Promise<T> {
  const tx = auditedTransaction(await adapter.startTransaction(), pending)
  // PostgreSQL's adapter leaves BEGIN's counterpart to the caller; PGlite's transaction ends itself
  const explicit = !tx.options.usePhantomQuery
  try {
    const result = await run(tx)
    if (explicit) await tx.executeRaw(query('COMMIT'))
    await tx.commit()
    return result
  } catch (err) {
    try {
      if (explicit) await tx.executeRaw(query('ROLLBACK'))
    } finally {
      await tx.rollback()
    }
    throw err
  }
}

function auditedConnection(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, prop, receiver) {
      switch (prop) {
        case 'queryRaw':
        case 'executeRaw':
          return (q: SqlQuery) => {
            const pending = pendingAudit()
            if (!pending || !isAuditedWrite(q.sql)) return prop === 'queryRaw' ? target.queryRaw(q) : target.executeRaw(q)
            return inOwnTransaction(target, pending, (tx) => (prop === 'queryRaw' ? tx.queryRaw(q) : tx.executeRaw(q)) as Promise<never>)
          }
        case 'startTransaction':
          return async (isolationLevel?: Parameters<SqlDriverAdapter['startTransaction']>[0]) =>
            auditedTransaction(await target.startTransaction(isolationLevel), pendingAudit())
        default: {
          const value = Reflect.get(target, prop, receiver)
          return typeof value === 'function' ? value.bind(target) : value
        }
      }
    },
  })
}

/** The adapter factory the Prisma client is built with: every connection it opens is audited. */
export function auditedAdapter<F extends SqlDriverAdapterFactory>(factory: F): F {
  return new Proxy(factory, {
    get(target, prop, receiver) {
      if (prop === 'connect') return async () => auditedConnection(await target.connect())
      const value = Reflect.get(target, prop, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
