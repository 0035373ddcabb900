import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite'

/**
 * The PGlite handed to the Prisma adapter, with the adapter's result parsers adopted once instead of per query.
 *
 * The adapter passes its parsers with every query, and PGlite then spreads them over its own map of some 300
 * type parsers (one per type and array type of the schema) for each result: about 0.5 ms per query, a sixth of a
 * list page's time on the embedded database (measured with `node --cpu-prof` on page 0 of the consumer list).
 * Here the first query's parsers are merged into the instance's map, and every query runs without the option.
 * Only Prisma reads results of this instance (migrations run before it; the wire server passes raw protocol).
 */
export function adoptingQueryParsers(db: PGlite): PGlite {
  const adopted = new WeakSet<object>()
  const withoutParsers = (options: QueryOptions | undefined): QueryOptions | undefined => {
    const parsers = options?.parsers
    if (!parsers) return options
    if (!adopted.has(parsers)) {
      Object.assign(db.parsers, parsers)
      adopted.add(parsers)
    }
    const { parsers: _adopted, ...rest } = options
    return rest
  }
  const query = db.query.bind(db)
  const transaction = db.transaction.bind(db)
  db.query = ((sql: string, params?: unknown[], options?: QueryOptions) => query(sql, params, withoutParsers(options))) as PGlite['query']
  db.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      // the transaction object keeps its own state (closed, rollback); only its query is wrapped
      const wrapped: Transaction = Object.create(tx)
      wrapped.query = ((sql: string, params?: unknown[], options?: QueryOptions) => tx.query(sql, params, withoutParsers(options))) as Transaction['query']
      return callback(wrapped)
    })) as PGlite['transaction']
  return db
}
