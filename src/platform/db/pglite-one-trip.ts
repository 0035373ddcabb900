// One call into PostgreSQL per query on the embedded database (run in its thread, pglite-worker.ts).
//
// PGlite's query() sends the extended protocol one message at a time — Parse, Describe statement, Bind, Describe
// portal, Execute, Sync — each a separate call into the WebAssembly backend with its own result parsing, so that it
// can choose each parameter's serializer by the type the server inferred. Prisma's parameters arrive already mapped
// to strings, numbers, booleans, byte arrays and arrays (the adapter's mapArg), whose text form does not depend on
// the inferred type, so here the five messages go in one call and the server infers types from the statement, as
// node-postgres (the PostgreSQL adapter's driver) does: same SQL semantics, a sixth of the crossings.
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

/**
 * The statement under PGlite's query lock (the caller holds the transaction lock, or is inside a transaction),
 * with results parsed by the instance's parsers. A database error is thrown after Sync has ended the cycle.
 */
export async function queryInOneTrip(db: PGlite, sql: string, params: unknown[] | undefined, rowMode: 'array' | 'object' | undefined): Promise<Results> {
  const { serialize } = protocol
  const message = concat([
    serialize.parse({ text: sql }),
    serialize.bind({ values: (params ?? []).map(wireValue) }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ])
  return db._runExclusiveQuery(async () => {
    const messages = await db.execProtocolStream(message, { syncToFs: false })
    if (!db.isInTransaction()) await db.syncToFs()
    return parse.parseResults(messages, db.parsers, { rowMode })[0]
  })
}
