// The audit trail's read side. Installation-wide for system administrators (GraphQL); per project for
// holders of PROJECT_MANAGEMENT VIEW there (REST), where the platform project `admin` shows the
// installation-level events (those without a project).
import { z } from 'zod'
import type { AuditSurface, Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Tx } from '../../platform/context.js'
import { findPageByKeys, orderByFor, parsePaging, type OrderBy, type PagingQuery } from '../../platform/envelopes/paging.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject, PLATFORM_PROJECT } from '../../platform/scope/project-scope.js'
import { trailSegments, trailTotal, type TrailFilter, type TrailSegment } from './totals.js'

export const AUDIT_SORT = { defaultSort: 'at,desc', supported: ['at', 'actor', 'operation', 'objectType', 'objectName'] } as const

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v)
const text = z.preprocess(blankToUndefined, z.string().max(512).optional())
const instant = z.preprocess(blankToUndefined, z.iso.datetime({ offset: true }).optional())

export const auditFilters = z.object({
  /** exact username, `bootstrap` or `system` */
  user: text,
  objectType: text,
  objectName: text,
  operation: text,
  surface: z.preprocess(blankToUndefined, z.enum(['REST_APIOPS', 'REST_API', 'GRAPHQL', 'BOOTSTRAP']).optional()),
  /** inclusive lower bound, ISO 8601 */
  from: instant,
  /** exclusive upper bound, ISO 8601 */
  to: instant,
})
export type AuditFilters = z.input<typeof auditFilters>

function filterOf(raw: AuditFilters, projects: (string | null)[] | undefined): TrailFilter {
  const f = parseInput(auditFilters, raw)
  if (f.from && f.to && new Date(f.from) >= new Date(f.to)) throw malformed('from must be before to', { field: 'from' })
  return {
    projects, actor: f.user, objectType: f.objectType, objectName: f.objectName, operation: f.operation, surface: f.surface,
    from: f.from ? new Date(f.from) : undefined, to: f.to ? new Date(f.to) : undefined,
  }
}

function whereOf(f: TrailFilter): Prisma.AuditEventWhereInput {
  return {
    ...(f.projects ? { OR: f.projects.map((projectName) => ({ projectName })) } : {}),
    ...(f.actor ? { actor: f.actor } : {}),
    ...(f.objectType ? { objectType: f.objectType } : {}),
    ...(f.objectName ? { objectName: f.objectName } : {}),
    ...(f.operation ? { operation: f.operation } : {}),
    ...(f.surface ? { surface: f.surface as AuditSurface } : {}),
    ...(f.from || f.to ? { at: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lt: f.to } : {}) } } : {}),
  }
}

/** Past this many rows a window starts at its day (trailSegments) rather than walking the rows before it. */
const DAY_JUMP_FROM = 200

/**
 * A deep window in time order: the days' counts say how many rows come before each day in the window's order, so
 * the keys are read from the day the window starts in, skipping at most that day's rows (at 1,000,000 events over
 * 360 days, about 2,800) instead of every row before the window. Undefined: not in time order, near the front, or
 * a filter the counters do not hold.
 */
async function pageKeysByDay(db: Tx, segmentsOf: () => Promise<TrailSegment[] | undefined>, where: Prisma.AuditEventWhereInput, window: { orderBy: OrderBy; skip: number; take: number }) {
  const [first] = window.orderBy
  const direction = first?.at
  if (window.skip < DAY_JUMP_FROM || !direction || Object.keys(first!).length !== 1) return undefined
  const days = await segmentsOf()
  if (!days) return undefined
  const segments = direction === 'desc' ? [...days].reverse() : days
  let before = 0
  const start = segments.find((s) => (before + s.n > window.skip ? true : ((before += s.n), false)))
  if (!start) return []
  const range = (where.at ?? {}) as { gte?: Date; lt?: Date }
  const at = direction === 'desc'
    ? { ...range, lt: range.lt && range.lt < start.end ? range.lt : start.end }
    : { ...range, gte: range.gte && range.gte > start.start ? range.gte : start.start }
  const rows = await db.auditEvent.findMany({ where: { ...where, at }, select: { id: true }, orderBy: window.orderBy, skip: window.skip - before, take: window.take })
  return rows.map((e) => e.id)
}

/** A page of the trail: its keys off the (…, at DESC, id) indexes, its total from the counters (totals.ts). */
async function pageWhere(db: Tx, filter: TrailFilter, query: PagingQuery) {
  const request = parsePaging(query, AUDIT_SORT)
  const where = whereOf(filter)
  const orderBy = orderByFor(request, 'id')
  // a deep page in time order reads the days' counts once: its window's day and its total (their sum) both come from them
  let days: Promise<TrailSegment[] | undefined> | undefined
  const segmentsOf = () => (days ??= trailSegments(db, filter))
  const deepInTime = request.skip >= DAY_JUMP_FROM && request.sort.length === 1 && request.sort[0]!.field === 'at'
  const page = await findPageByKeys(request, {
    orderBy,
    keys: async (window) => (await pageKeysByDay(db, segmentsOf, where, window)) ??
      (await db.auditEvent.findMany({ where, select: { id: true }, ...window })).map((e) => e.id),
    rows: (ids) => db.auditEvent.findMany({ where: { id: { in: ids } } }),
    keyOf: (e) => e.id,
    count: async () => {
      const segments = deepInTime ? await segmentsOf() : undefined
      return segments ? segments.reduce((sum, d) => sum + d.n, 0) : trailTotal(db, filter)
    },
    firstRows: (window) => db.auditEvent.findMany({ where, ...window }),
  })
  return { ...page, items: page.items.map(auditEventView) }
}

/** One project's events; the platform project shows the installation-level ones too. */
export async function pageProjectAuditEvents(db: Tx, actor: Actor, projectName: string, query: PagingQuery & AuditFilters) {
  const access = await authorizeInProject(db, actor, projectName, 'PROJECT_MANAGEMENT', 'VIEW')
  const names = access.project.name === PLATFORM_PROJECT ? [PLATFORM_PROJECT, null] : [access.project.name]
  const { page, size, sort, ...filters } = query
  return pageWhere(db, filterOf(filters, names), { page, size, sort })
}

/** Every event of the installation, optionally narrowed to one project (system administrators). */
export async function pageAuditEvents(db: Tx, actor: Actor, query: PagingQuery & AuditFilters & { projectName?: string | null }) {
  requireSystemAdmin(actor)
  const { page, size, sort, projectName, ...filters } = query
  return pageWhere(db, filterOf(filters, projectName ? [projectName] : undefined), { page, size, sort })
}

export type AuditEventView = ReturnType<typeof auditEventView>

export function auditEventView(e: {
  id: bigint; at: Date; surface: string; actor: string; projectName: string | null; operation: string
  objectType: string | null; objectName: string | null; outcome: string; httpStatus: number | null; correlationId: string
  declarativePlanId?: string | null; declarativeAction?: string | null; changeReference?: string | null
}) {
  return {
    id: e.id.toString(),
    at: e.at.toISOString(),
    surface: e.surface,
    actor: e.actor,
    projectName: e.projectName,
    operation: e.operation,
    objectType: e.objectType,
    objectName: e.objectName,
    outcome: e.outcome,
    httpStatus: e.httpStatus,
    correlationId: e.correlationId,
    // a declarative apply's change (issue 29 §4): the plan and the change reference, only on those events
    ...(e.declarativePlanId ? { declarativePlanId: e.declarativePlanId, declarativeAction: e.declarativeAction ?? null, changeReference: e.changeReference ?? null } : {}),
  }
}
