// The audit trail's exact totals without a count over the trail (issue 31). Migration 20261127190000_audit_counts
// keeps the number of events per project, UTC day, actor, surface, operation and object type in the writing
// transaction. A total sums the counter rows the filter selects for the whole days of its time range, and counts
// the events themselves only where the counters cannot answer: the part-days at the range's ends (through the
// (projectName, at) index: one day's events at most on each side) and a filter on objectName, which the counters
// do not hold (through the (objectType, objectName, at) index: that object's own history). Without an actor, surface,
// operation or object type filter the sums come from AuditDayCount (migration 20261130300000_audit_day_counts, per
// project and day), whose rows do not multiply with the actors and operations.
import { Prisma } from '../../generated/prisma/client.js'
import type { Tx } from '../../platform/context.js'

export interface TrailFilter {
  /** project names, null for installation-level events; undefined: the whole installation */
  projects?: (string | null)[]
  actor?: string
  objectType?: string
  objectName?: string
  operation?: string
  surface?: string
  /** inclusive */
  from?: Date
  /** exclusive */
  to?: Date
}

const DAY_MS = 86_400_000
const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY_MS) * DAY_MS)
const ceilDay = (d: Date) => new Date(Math.ceil(d.getTime() / DAY_MS) * DAY_MS)
const isoDay = (d: Date) => d.toISOString().slice(0, 10)
/** timestamp(3) holds UTC, as Prisma writes it */
const stamp = (d: Date) => Prisma.sql`${d.toISOString().replace('Z', '')}::timestamp(3)`

/** The counted columns' conditions, for the counter rows (`counter`) or the events. */
function columnConditions(f: TrailFilter, counter: boolean): Prisma.Sql[] {
  const parts: Prisma.Sql[] = []
  if (f.projects) {
    const names = f.projects.filter((p): p is string => p !== null)
    if (counter) parts.push(Prisma.sql`scope IN (${Prisma.join(f.projects.map((p) => p ?? ''))})`)
    else {
      const alternatives = [...(names.length ? [Prisma.sql`"projectName" IN (${Prisma.join(names)})`] : []), ...(f.projects.includes(null) ? [Prisma.sql`"projectName" IS NULL`] : [])]
      parts.push(alternatives.length ? Prisma.sql`(${Prisma.join(alternatives, ' OR ')})` : Prisma.sql`FALSE`)
    }
  }
  if (f.actor !== undefined) parts.push(Prisma.sql`actor = ${f.actor}`)
  if (f.surface !== undefined) parts.push(Prisma.sql`surface = ${f.surface}::"AuditSurface"`)
  if (f.operation !== undefined) parts.push(Prisma.sql`operation = ${f.operation}`)
  if (f.objectType !== undefined) parts.push(Prisma.sql`"objectType" = ${f.objectType}`)
  return parts
}

const and = (parts: Prisma.Sql[]) => (parts.length ? Prisma.join(parts, ' AND ') : Prisma.sql`TRUE`)

/** The counter table that answers the filter: per day alone when it filters on no counted column but the project. */
const counterTable = (f: TrailFilter) =>
  Prisma.raw(f.actor === undefined && f.surface === undefined && f.operation === undefined && f.objectType === undefined ? '"AuditDayCount"' : '"AuditCount"')

/** The events of [from, to) that match the filter, counted one by one. */
function eventCount(f: TrailFilter, from: Date | undefined, to: Date | undefined): Prisma.Sql {
  const parts = columnConditions(f, false)
  if (f.objectName !== undefined) parts.push(Prisma.sql`"objectName" = ${f.objectName}`)
  if (from) parts.push(Prisma.sql`at >= ${stamp(from)}`)
  if (to) parts.push(Prisma.sql`at < ${stamp(to)}`)
  return Prisma.sql`(SELECT count(*) FROM "AuditEvent" WHERE ${and(parts)})`
}

/** The exact number of events the filter matches. */
export async function trailTotal(db: Tx, f: TrailFilter): Promise<number> {
  let sql: Prisma.Sql
  // the counters hold no objectName; a time range inside one day is that day's events at most
  const firstWholeDay = f.from && ceilDay(f.from)
  const endOfWholeDays = f.to && floorDay(f.to)
  if (f.objectName !== undefined || (firstWholeDay && endOfWholeDays && firstWholeDay >= endOfWholeDays)) sql = eventCount(f, f.from, f.to)
  else {
    const counter = columnConditions(f, true)
    if (firstWholeDay) counter.push(Prisma.sql`day >= ${isoDay(firstWholeDay)}::date`)
    if (endOfWholeDays) counter.push(Prisma.sql`day < ${isoDay(endOfWholeDays)}::date`)
    const parts = [Prisma.sql`(SELECT coalesce(sum(n), 0) FROM ${counterTable(f)} WHERE ${and(counter)})`]
    if (f.from && firstWholeDay!.getTime() !== f.from.getTime()) parts.push(eventCount(f, f.from, firstWholeDay))
    if (f.to && endOfWholeDays!.getTime() !== f.to.getTime()) parts.push(eventCount(f, endOfWholeDays, f.to))
    sql = Prisma.join(parts, ' + ')
  }
  const [row] = await db.$queryRaw<{ total: bigint | number }[]>`SELECT (${sql})::bigint AS total`
  return Number(row!.total)
}

export interface TrailSegment {
  /** inclusive */
  start: Date
  /** exclusive */
  end: Date
  n: number
}

/**
 * The filter's events per UTC day, from the counters (whole days) and the events themselves (the part-days at the
 * range's ends), oldest first; undefined where the counters cannot answer (an objectName filter, a range inside one
 * day). A deep page uses it to start reading at the day its window begins in (pageKeysByDay in service.ts).
 */
export async function trailSegments(db: Tx, f: TrailFilter): Promise<TrailSegment[] | undefined> {
  const firstWholeDay = f.from && ceilDay(f.from)
  const endOfWholeDays = f.to && floorDay(f.to)
  if (f.objectName !== undefined || (firstWholeDay && endOfWholeDays && firstWholeDay >= endOfWholeDays)) return undefined
  const counter = columnConditions(f, true)
  if (firstWholeDay) counter.push(Prisma.sql`day >= ${isoDay(firstWholeDay)}::date`)
  if (endOfWholeDays) counter.push(Prisma.sql`day < ${isoDay(endOfWholeDays)}::date`)
  const rows = await db.$queryRaw<{ day: string; n: bigint | number }[]>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(n)::bigint AS n FROM ${counterTable(f)} WHERE ${and(counter)} GROUP BY day HAVING sum(n) > 0 ORDER BY day`
  const segments: TrailSegment[] = rows.map((r) => {
    const start = new Date(`${r.day}T00:00:00.000Z`)
    return { start, end: new Date(start.getTime() + DAY_MS), n: Number(r.n) }
  })
  const part = async (start: Date, end: Date) => {
    const [row] = await db.$queryRaw<{ n: bigint | number }[]>`SELECT (${eventCount(f, start, end)})::bigint AS n`
    return { start, end, n: Number(row!.n) }
  }
  if (f.from && firstWholeDay!.getTime() !== f.from.getTime()) segments.unshift(await part(f.from, firstWholeDay!))
  if (f.to && endOfWholeDays!.getTime() !== f.to.getTime()) segments.push(await part(endOfWholeDays!, f.to))
  return segments
}
