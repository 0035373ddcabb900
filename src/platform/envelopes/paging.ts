import { DomainError, malformed } from '../errors/domain-error.js'

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 200

export type SortDirection = 'asc' | 'desc'
export interface SortOrder { field: string; direction: SortDirection }

export interface PageRequest {
  page: number
  size: number
  sort: SortOrder[]
  skip: number
  take: number
}

export interface SortPolicy {
  /** e.g. `username,asc` */
  defaultSort: string
  /** client-facing sort fields */
  supported: readonly string[]
}

export interface PagingQuery {
  page?: unknown
  size?: unknown
  sort?: unknown
}

/** Highest page number accepted: page × size stays a safe row offset for either database. */
export const MAX_PAGE = 10_000_000

function wholeNumber(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d{1,16}\s*$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(n) || n < min || n > max) throw malformed(`${field} must be an integer from ${min} to ${max}`, { field })
  return n
}

function parseSort(raw: string, policy: SortPolicy): SortOrder {
  const [field, dir = 'asc', extra] = raw.split(',').map((s) => s.trim())
  const direction = dir.toLowerCase()
  if (extra !== undefined || !field || (direction !== 'asc' && direction !== 'desc')) {
    throw malformed(`sort must be field,direction (asc or desc): '${raw}'`, { field: 'sort' })
  }
  if (!policy.supported.includes(field)) {
    throw new DomainError('validation', 'unsupportedSortField', `Unsupported sort field '${field}'`, {
      field: 'sort',
      supported: [...policy.supported],
    })
  }
  return { field, direction }
}

/** page from 0 to MAX_PAGE, size default 20 capped at 200, sort `field,direction` from the supported set. */
export function parsePaging(query: PagingQuery, policy: SortPolicy): PageRequest {
  const page = wholeNumber(query.page, 'page', 0, MAX_PAGE) ?? 0
  // a size over the cap is served at the cap; one beyond any integer is refused like the page
  const size = Math.min(wholeNumber(query.size, 'size', 1, Number.MAX_SAFE_INTEGER) ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
  const rawSorts = query.sort === undefined || query.sort === '' ? [policy.defaultSort] : ([] as unknown[]).concat(query.sort)
  const sort = rawSorts.map((s) => parseSort(String(s), policy))
  return { page, size, sort, skip: page * size, take: size }
}

export interface Page<T> {
  status: 'SUCCESS'
  items: T[]
  page: number
  size: number
  totalElements: number
  totalPages: number
  sort: string[]
}

export function toPage<T>(request: PageRequest, items: T[], totalElements: number): Page<T> {
  return {
    status: 'SUCCESS',
    items,
    page: request.page,
    size: request.size,
    totalElements,
    totalPages: Math.ceil(totalElements / request.size),
    sort: request.sort.map((s) => `${s.field},${s.direction}`),
  }
}

/** Runs the page query and the count together and wraps them in the paged envelope. */
export async function findPage<T>(request: PageRequest, rows: Promise<T[]>, total: Promise<number>): Promise<Page<T>> {
  const [items, totalElements] = await Promise.all([rows, total])
  return toPage(request, items, totalElements)
}

/**
 * Prisma orderBy for the requested sort plus a unique tie-break, so pages never overlap.
 * `columns` maps client field names to model fields when they differ.
 */
export function orderByFor(request: PageRequest, tieBreak: string, columns: Record<string, string> = {}) {
  const order = request.sort.map((s) => ({ [columns[s.field] ?? s.field]: s.direction }))
  if (!request.sort.some((s) => (columns[s.field] ?? s.field) === tieBreak)) order.push({ [tieBreak]: 'asc' })
  return order
}

/**
 * Case-insensitive "contains" as Prisma writes it (ILIKE '%…%'). Prisma passes % and _ through as LIKE
 * wildcards, so they are escaped here to be matched as the characters they are.
 */
export const containsText = (search: string) => ({ contains: search.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' as const })

export type OrderBy = Record<string, SortDirection>[]

/** Paging plus a list's search text. */
export interface SearchQuery extends PagingQuery {
  search?: unknown
}

export const MAX_SEARCH_LENGTH = 200

/** A list's search text: trimmed, blank is none, at most 200 characters (a 400 naming the field `search`). */
export function parseSearch(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw malformed('search must be one text', { field: 'search' })
  const text = value.trim()
  if (text.length > MAX_SEARCH_LENGTH) throw malformed(`search must be at most ${MAX_SEARCH_LENGTH} characters`, { field: 'search' })
  return text || undefined
}

/** Lists ordered by name only (the unpaged REST lists' order). */
export const NAME_SORT: SortPolicy = { defaultSort: 'name,asc', supported: ['name'] }

/** The same order walked from the other end: every direction flipped (PostgreSQL's default null placement flips with it). */
const reversed = (orderBy: OrderBy): OrderBy =>
  orderBy.map((o) => Object.fromEntries(Object.entries(o).map(([field, dir]) => [field, dir === 'asc' ? 'desc' : 'asc'])))

export interface KeyedPageQuery<Row, Key> {
  /** the full order, ending with a tie-break unique among the rows the list filters */
  orderBy: OrderBy
  /** the keys of one window of the order: a findMany that selects only the key, so an index can answer it alone */
  keys(window: { orderBy: OrderBy; skip: number; take: number }): Promise<Key[]>
  /** the rows of those keys, in any order */
  rows(keys: Key[]): Promise<Row[]>
  keyOf(row: Row): Key
  count(): Promise<number>
  /**
   * The rows of the first window read directly (where, order, take and the rows' includes in one findMany):
   * page 0 reads no row it discards anyway, so the deferred join would only add a round trip.
   */
  firstRows?(window: { orderBy: OrderBy; take: number }): Promise<Row[]>
}

/**
 * One page by a deferred join: first the page's keys (an index-only scan when an index holds the filter, the
 * order and the key), then the rows of those keys only, instead of reading and discarding every row before the
 * offset. A page in the back half of the list walks the order from its far end, so the last page costs what the
 * first does; the count is then needed first. Same rows, same order, same envelope as findPage.
 */
export async function findPageByKeys<Row, Key>(request: PageRequest, q: KeyedPageQuery<Row, Key>): Promise<Page<Row>> {
  let total: number
  let keys: Key[]
  if (request.skip === 0 && q.firstRows) {
    const [items, count] = await Promise.all([q.firstRows({ orderBy: q.orderBy, take: request.take }), q.count()])
    return toPage(request, items, count)
  }
  if (request.skip === 0) {
    ;[keys, total] = await Promise.all([q.keys({ orderBy: q.orderBy, skip: 0, take: request.take }), q.count()])
  } else {
    total = await q.count()
    const take = Math.min(request.take, total - request.skip)
    if (take <= 0) keys = []
    else {
      const fromEnd = total - request.skip - take
      keys = fromEnd < request.skip
        ? (await q.keys({ orderBy: reversed(q.orderBy), skip: fromEnd, take })).reverse()
        : await q.keys({ orderBy: q.orderBy, skip: request.skip, take })
    }
  }
  return toPage(request, await rowsInKeyOrder(q, keys), total)
}

async function rowsInKeyOrder<Row, Key>(q: Pick<KeyedPageQuery<Row, Key>, 'rows' | 'keyOf'>, keys: Key[]): Promise<Row[]> {
  const rows = keys.length ? await q.rows(keys) : []
  const byKey = new Map(rows.map((r) => [q.keyOf(r), r]))
  // a row deleted between the two reads is left out, as a later read would
  return keys.flatMap((k) => byKey.get(k) ?? [])
}

export interface CountedPageQuery<Row, Key> extends Pick<KeyedPageQuery<Row, Key>, 'orderBy' | 'rows' | 'keyOf' | 'count'> {
  /** the window's keys and the number of rows the filter matches, in one read; total undefined past the end */
  countedKeys(window: { orderBy: OrderBy; skip: number; take: number }): Promise<{ keys: Key[]; total: number | undefined }>
}

/**
 * One page of a list whose filter an index answers (a contains search): the page's keys and the total read
 * together, then the rows of those keys. Finding the matches once for the page and again for the count would
 * double the page's cost. The count is read alone only for a page past the end.
 */
export async function findPageByCountedKeys<Row, Key>(request: PageRequest, q: CountedPageQuery<Row, Key>): Promise<Page<Row>> {
  const { keys, total } = await q.countedKeys({ orderBy: q.orderBy, skip: request.skip, take: request.take })
  return toPage(request, await rowsInKeyOrder(q, keys), total ?? (request.skip === 0 ? 0 : await q.count()))
}
