import { Prisma } from '../../generated/prisma/client.js'
import type { Tx } from '../context.js'
import type { OrderBy } from '../envelopes/paging.js'

// A filtered list page's keys and its exact total in one statement (`count(*) OVER ()`), for lists whose filter
// the indexes answer (a contains search through the trigram indexes): the matches are found once instead of once
// for the page and again for the count (issue 19 §3: search ≤ 2× page 0). The filter stays the list's Prisma
// where clause; `whereSql` writes the subset the lists use as SQL and refuses any other shape, so a new filter
// cannot be dropped silently.

/** One window of a list's order. */
export interface KeyWindow { orderBy: OrderBy; skip: number; take: number }

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/

/** A model field as a quoted column (our models map fields to columns of the same name). */
function column(field: string): Prisma.Sql {
  if (!IDENTIFIER.test(field)) throw new Error(`not a column name: ${field}`)
  return Prisma.raw(`"${field}"`)
}

const isPlainValue = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

/** One field's condition: a value, `{ equals }`, `{ in }` or a case-insensitive `{ contains }` (ILIKE, as Prisma writes it). */
function conditionSql(field: string, condition: unknown): Prisma.Sql {
  const col = column(field)
  if (condition === null) return Prisma.sql`${col} IS NULL`
  if (isPlainValue(condition)) return Prisma.sql`${col} = ${condition}`
  const c = condition as Record<string, unknown>
  const keys = Object.keys(c).sort().join(',')
  if (keys === 'equals' && isPlainValue(c.equals)) return Prisma.sql`${col} = ${c.equals}`
  if (keys === 'in' && Array.isArray(c.in) && c.in.every(isPlainValue)) {
    return c.in.length ? Prisma.sql`${col} IN (${Prisma.join(c.in)})` : Prisma.sql`FALSE`
  }
  // Prisma passes the pattern as is: the caller escaped LIKE's wildcards (containsText)
  if (keys === 'contains,mode' && c.mode === 'insensitive' && typeof c.contains === 'string') return Prisma.sql`${col} ILIKE ${`%${c.contains}%`}`
  throw new Error(`whereSql: unsupported condition on ${field}: ${JSON.stringify(condition)}`)
}

/** The SQL of a Prisma where clause made of field conditions, `AND` and `OR`; any other shape throws. */
export function whereSql(where: object): Prisma.Sql {
  const parts: Prisma.Sql[] = []
  for (const [field, condition] of Object.entries(where)) {
    if (condition === undefined) continue
    if (field === 'OR' || field === 'AND') {
      const list = ([] as object[]).concat(condition as object | object[])
      // an empty list's meaning differs between Prisma versions: not guessed
      if (!list.length) throw new Error(`whereSql: unsupported condition: empty ${field}`)
      parts.push(Prisma.sql`(${Prisma.join(list.map(whereSql), field === 'OR' ? ' OR ' : ' AND ')})`)
    } else parts.push(conditionSql(field, condition))
  }
  return parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`
}

function orderSql(orderBy: OrderBy): Prisma.Sql {
  return Prisma.join(orderBy.flatMap((o) => Object.entries(o).map(([field, dir]) => Prisma.sql`${column(field)} ${Prisma.raw(dir === 'desc' ? 'DESC' : 'ASC')}`)))
}

/** The field names a where clause reads, for the walk's inner select. */
function whereFields(where: object, into = new Set<string>()): Set<string> {
  for (const [field, condition] of Object.entries(where)) {
    if (condition === undefined) continue
    if (field === 'OR' || field === 'AND') for (const w of ([] as object[]).concat(condition as object | object[])) whereFields(w, into)
    else into.add(field)
  }
  return into
}

/**
 * The keys of one window of a filtered list and the number of rows the filter matches, read together in one
 * statement. `total` is undefined when the window is past the end (no row carries the count).
 *
 * The matches are a MATERIALIZED common table expression so that they are planned as what they are, every match:
 * with the window count and LIMIT in one query, PostgreSQL 15 costs WindowAgg as if it could stop early and walks
 * the sort index through the whole table (EXPLAIN ANALYZE, 100,000 consumers: 67 ms instead of 0.7 ms for a
 * 200-row search, from one ANALYZE to the next).
 */
async function keysWithWindowCount(db: Tx, q: CountedKeysQuery): Promise<{ keys: string[]; total: number | undefined }> {
  const columns = [...new Set([q.key, ...q.orderBy.flatMap((o) => Object.keys(o))])].map(column)
  const rows = await db.$queryRaw<{ key: string; total: bigint | number }[]>`
    WITH matches AS MATERIALIZED (SELECT ${Prisma.join(columns)} FROM ${column(q.table)} WHERE ${whereSql(q.where)})
    SELECT ${column(q.key)} AS key, count(*) OVER () AS total
      FROM matches
     ORDER BY ${orderSql(q.orderBy)}
     LIMIT ${q.take} OFFSET ${q.skip}`
  return { keys: rows.map((r) => r.key), total: rows.length ? Number(rows[0]!.total) : undefined }
}

export interface CountedKeysQuery extends KeyWindow {
  table: string
  key: string
  where: object
  /**
   * Orders an index of the scope holds in key order, each with every column a search filters on (e.g. consumers'
   * (projectId, username, fullName)): a search with many matches walks the index in that order instead of reading
   * every match.
   */
  walkOrders?: readonly (readonly string[])[]
}

/** Lists whose writes move a version per project (migration 20261127200000_list_versions), and so whose counts are kept. */
const VERSIONED = new Set(['Credential', 'Application'])
interface Counted { version: string; total: number; listed: number }
/** per client (a database): the total of a where clause at the list's version */
const countCaches = new WeakMap<object, Map<string, Counted>>()
const CACHED_COUNTS = 500

const version = (table: string, scope: string) =>
  Prisma.sql`coalesce((SELECT v FROM "ListVersion" WHERE list = ${table} AND scope = ${scope}), 0)::text`

/** The matches' count with the list's version it holds at, and the scope's size, in one snapshot. */
async function countAtVersion(db: Tx, q: CountedKeysQuery, scope: string): Promise<Counted> {
  const [row] = await db.$queryRaw<{ version: string; total: bigint | number; listed: bigint | number }[]>`
    SELECT ${version(q.table, scope)} AS version,
           (SELECT count(*) FROM ${column(q.table)} WHERE ${whereSql(q.where)}) AS total,
           coalesce((SELECT n FROM "ListCount" WHERE list = ${q.table} AND scope = ${scope}), 0) AS listed`
  return { version: row!.version, total: Number(row!.total), listed: Number(row!.listed) }
}

const walkable = (orderBy: OrderBy, orders: CountedKeysQuery['walkOrders']) => {
  const fields = orderBy.flatMap((o) => Object.keys(o))
  const dirs = new Set(orderBy.flatMap((o) => Object.values(o)))
  return dirs.size === 1 && (orders ?? []).some((o) => o.length === fields.length && o.every((f, i) => f === fields[i]))
}

/**
 * One window of keys and the list's version, in one statement. `walk`: the window is found among the first `walk`
 * rows of the scope in the list's order (an index walk that stops there); else among the matches.
 */
async function windowAtVersion(db: Tx, q: CountedKeysQuery, scope: string, walk: number | undefined): Promise<{ version: string; keys: string[] }> {
  const order = orderSql(q.orderBy)
  const where = whereSql(q.where)
  const window = Prisma.sql`ORDER BY ${order} LIMIT ${q.take} OFFSET ${q.skip}`
  const keys = walk === undefined
    ? Prisma.sql`WITH matches AS MATERIALIZED (SELECT ${Prisma.join([...new Set([q.key, ...q.orderBy.flatMap((o) => Object.keys(o))])].map(column))} FROM ${column(q.table)} WHERE ${where})
        SELECT ${column(q.key)} FROM matches ${window}`
    : Prisma.sql`SELECT ${column(q.key)} FROM (
          SELECT ${Prisma.join([...new Set([q.key, ...q.orderBy.flatMap((o) => Object.keys(o)), ...whereFields(q.where)])].map(column))}
            FROM ${column(q.table)} WHERE "projectId" = ${scope} ORDER BY ${order} LIMIT ${walk}) walked
        WHERE ${where} ${window}`
  const [row] = await db.$queryRaw<{ version: string; keys: string[] }[]>`SELECT ${version(q.table, scope)} AS version, ARRAY(${keys}) AS keys`
  return { version: row!.version, keys: row!.keys }
}

/**
 * The keys of one window of a filtered list and the number of rows the filter matches. `total` is undefined when
 * the window is past the end (no row carries the count).
 *
 * A list whose writes move a version (issue 31): the exact total is counted once and reused while the list's
 * version is the one it was counted at; the version is read with the window's keys, in the same statement, so a
 * write committed in between is seen and the total counted again. The window itself: a search matching many rows
 * walks the order's index and stops after about the rows it needs (1 % of a million: some 3,000 index entries
 * instead of 10,000 table rows), one matching few rows sorts its matches; a walk that falls short of the window
 * (matches bunched further along the order) is done again over the matches.
 */
export async function countedKeys(db: Tx, q: CountedKeysQuery): Promise<{ keys: string[]; total: number | undefined }> {
  const scope = (q.where as { projectId?: unknown }).projectId
  if (!VERSIONED.has(q.table) || typeof scope !== 'string') return keysWithWindowCount(db, q)
  let cache = countCaches.get(db)
  if (!cache) countCaches.set(db, (cache = new Map()))
  const filter = whereSql(q.where)
  const cacheKey = `${q.table}\u0000${filter.sql}\u0000${JSON.stringify(filter.values)}`
  for (let attempt = 0; attempt < 2; attempt++) {
    let counted = cache.get(cacheKey)
    if (!counted) {
      counted = await countAtVersion(db, q, scope)
      cache.delete(cacheKey)
      cache.set(cacheKey, counted)
      if (cache.size > CACHED_COUNTS) cache.delete(cache.keys().next().value!)
    }
    const { total, listed } = counted
    const take = Math.min(q.take, total - q.skip)
    if (take <= 0) {
      // past the end: still only if the count is current
      const { version: now } = await windowAtVersion(db, { ...q, skip: 0, take: 0 }, scope, 0)
      if (now === counted.version) return { keys: [], total }
      cache.delete(cacheKey)
      continue
    }
    // a window in the back half is read from the far end of the order
    const fromEnd = total - q.skip - take
    const reversedWindow = fromEnd < q.skip
    const window = reversedWindow ? { ...q, orderBy: reversed(q.orderBy), skip: fromEnd, take } : { ...q, take }
    // about the rows of the scope that hold the window's matches, with room for matches spread unevenly
    const walk = Math.ceil(((window.skip + take) * Math.max(listed, total)) / total * 1.5) + 100
    const walks = walkable(q.orderBy, q.walkOrders) && walk <= 4 * total
    let found = await windowAtVersion(db, window, scope, walks ? walk : undefined)
    if (found.version === counted.version && found.keys.length < take && walks) found = await windowAtVersion(db, window, scope, undefined)
    if (found.version !== counted.version) {
      cache.delete(cacheKey)
      continue
    }
    return { keys: reversedWindow ? found.keys.reverse() : found.keys, total }
  }
  // the list changed under every attempt: keys and total from one statement
  return keysWithWindowCount(db, q)
}

/** The same order walked from the other end: every direction flipped. */
const reversed = (orderBy: OrderBy): OrderBy =>
  orderBy.map((o) => Object.fromEntries(Object.entries(o).map(([field, dir]) => [field, dir === 'asc' ? 'desc' : 'asc'])))
