// One call into PostgreSQL per query on the embedded database (run in its thread, pglite-worker.ts).
//
// PGlite's query() sends the extended protocol one message at a time — Parse, Describe statement, Bind, Describe
// portal, Execute, Sync — each a separate call into the WebAssembly backend with its own result parsing, so that it
// can choose each parameter's serializer by the type the server inferred. Prisma's parameters arrive already mapped
// to strings, numbers, booleans, byte arrays and arrays (the adapter's mapArg), whose text form does not depend on
// the inferred type, so here the five messages go in one call and the server infers types from the statement, as
// node-postgres (the PostgreSQL adapter's driver) does: same SQL semantics, a sixth of the crossings. Each SQL text
// is prepared once and kept (below).
import { parse, protocol, types, type PGlite, type Results } from '@electric-sql/pglite'

type Value = string | Uint8Array | null

function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 't' : 'f'
  if (typeof value === 'number' || typeof value === 'bigint') return String(value)
  if (value instanceof Date) return value.toISOString()
  return JSON.stringify(value)
}

/** a parameter as Bind sends it: text, or binary for bytes (PGlite's serializer sends views in binary format) */
export function wireValue(value: unknown): Value {
  if (value === null || value === undefined) return null
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
  if (Array.isArray(value)) return types.arraySerializer(value, (v: unknown) => textOf(v), 0)
  return textOf(value)
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.byteLength
  }
  return out
}

/** how many statements each instance keeps prepared (the least recently used beyond this is closed) */
const PREPARED_LIMIT = 200

/** SQLSTATEs after which a prepared statement is prepared again: it is gone (DEALLOCATE, DISCARD ALL from a wire
 * client), or the tables under it changed the shape of its result. Both are raised before the statement runs. */
const STALE = new Set(['26000', '0A000'])

interface Statements {
  names: Map<string, string> // SQL text → statement name, in least recently used order
  closing: string[] // names to close with the next message
  next: number
}
const perInstance = new WeakMap<PGlite, Statements>()

function statementsOf(db: PGlite): Statements {
  let s = perInstance.get(db)
  if (!s) perInstance.set(db, (s = { names: new Map(), closing: [], next: 1 }))
  return s
}

/**
 * The statement under PGlite's query lock (the caller holds the transaction lock, or is inside a transaction),
 * with results parsed by the instance's parsers. A database error is thrown after Sync has ended the cycle.
 *
 * Statements are prepared once per SQL text and kept (named, `gw_<n>`), as Prisma's former query engine did on
 * PostgreSQL: a repeated statement skips parsing and, once PostgreSQL judges its generic plan no costlier than the
 * custom ones (plan_cache_mode auto, after five runs), planning too — most of a short statement's time here.
 */
export async function queryInOneTrip(db: PGlite, sql: string, params: unknown[] | undefined, rowMode: 'array' | 'object' | undefined): Promise<Results> {
  const statements = statementsOf(db)
  const values = (params ?? []).map(wireValue)
  return db._runExclusiveQuery(async () => {
    const run = async (): Promise<Results> => {
      const { serialize } = protocol
      const known = statements.names.get(sql)
      const name = known ?? `gw_${statements.next++}`
      if (known) statements.names.delete(sql) // moved to the most recently used end below
      const parts = statements.closing.splice(0).map((n) => serialize.close({ type: 'S', name: n }))
      if (!known) parts.push(serialize.parse({ name, text: sql }))
      parts.push(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync())
      let messages
      try {
        messages = await db.execProtocolStream(concat(parts), { syncToFs: false })
      } catch (err) {
        statements.closing.push(name) // prepared or not: closing an unknown name is no error
        throw err
      }
      statements.names.set(sql, name)
      if (statements.names.size > PREPARED_LIMIT) {
        const [oldestSql, oldest] = statements.names.entries().next().value as [string, string]
        statements.names.delete(oldestSql)
        statements.closing.push(oldest)
      }
      return parse.parseResults(messages, db.parsers, { rowMode })[0]
    }
    let results: Results
    try {
      results = await run()
    } catch (err) {
      // a statement gone or made stale outside a transaction block is prepared again once; inside one the error has
      // aborted the transaction, and it is the caller's
      const code = (err as { code?: unknown }).code
      if (typeof code !== 'string' || !STALE.has(code) || db.isInTransaction()) throw err
      results = await run()
    }
    if (!db.isInTransaction()) await db.syncToFs()
    return results
  })
}
