import { z } from 'zod'
import type { Prisma } from '../../../generated/prisma/client.js'
import { actorName, type Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { findPage, findPageByKeys, orderByFor, parsePaging, type Page } from '../../../platform/envelopes/paging.js'
import { countedRows, onlyScope } from '../../../platform/db/list-count.js'
import { DomainError, lifecycleConflict, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { withIdempotency } from '../../../platform/idempotency/claims.js'
import { ASSIGNMENT_STATUSES, FAMILIES, SUBJECT_TYPES } from '../shared/enums.js'
import { requireFamilyLicensed } from '../shared/licence.js'
import { assignmentProject } from './access.js'
import { validateAssignmentBody, type AssignmentBody } from './body.js'
import { pushAssignment } from './compile.js'
import { prepareAssignmentContent, resolvePlanKeys } from './references.js'
import {
  contentColumns, createAssignmentInTx, endAssignmentInTx, liveScopeKeyOf, scopeAlreadyBound, versionFence,
} from './service.js'
import { REF_COLUMN, resolveSubject, resolveSubjectKeys, type ResolvedSubject } from './subjects.js'
import { assignmentInclude, subjectKeyOf, targetView, type AssignmentRow } from './views.js'

// The single-assignment operations of spec §4.8 (and the manager surface of §4.11): both REST doors and
// GraphQL call these.

export const ASSIGNMENT_SORT = { defaultSort: 'assignedAt,desc', supported: ['assignedAt', 'status', 'family'] } as const

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v)
export const assignmentFilters = z.object({
  family: z.preprocess(blankToUndefined, z.enum(FAMILIES).optional()),
  status: z.preprocess(blankToUndefined, z.enum(ASSIGNMENT_STATUSES).optional()),
  subjectType: z.preprocess(blankToUndefined, z.enum(SUBJECT_TYPES).optional()),
  subjectKey: z.preprocess(blankToUndefined, z.string().trim().min(1).max(200).optional()),
})
export type AssignmentListQuery = z.input<typeof assignmentFilters> & { page?: unknown; size?: unknown; sort?: unknown }

export const assignmentNotFound = (bindingKey: string) => notFound(`Limit assignment '${bindingKey}' not found`, { bindingKey })

/** An assignment of the project by bindingKey; another project's key is not found. */
export async function findAssignment(db: Tx, projectId: string, bindingKey: string): Promise<AssignmentRow> {
  const row = await db.limitAssignment.findFirst({ where: { projectId, bindingKey }, include: assignmentInclude })
  if (!row) throw assignmentNotFound(bindingKey)
  return row
}

/** The where clause of a subject filter; null when the key names no subject (the page is then empty). */
async function subjectFilter(db: Tx, projectId: string, subjectType: string | undefined, subjectKey: string | undefined): Promise<Prisma.LimitAssignmentWhereInput | null> {
  if (subjectKey !== undefined && subjectType === undefined) {
    throw malformed('subjectKey requires subjectType', { field: 'subjectType', reason: 'subjectKeyRequiresSubjectType' })
  }
  if (!subjectType) return {}
  const type = subjectType as ResolvedSubject['type']
  if (subjectKey === undefined || type === 'PLATFORM' || type === 'PROJECT') return { subjectType: type }
  if (type === 'AUDIENCE_RULE') return { subjectType: type, bindingKey: subjectKey }
  const subject = (await resolveSubjectKeys(db, projectId, type, [subjectKey])).get(subjectKey)
  const column = REF_COLUMN[type]!
  return subject ? { subjectType: type, [column]: subject.ref[column] } : null
}

export async function listAssignmentsInProject(db: Tx, projectId: string, query: AssignmentListQuery): Promise<Page<AssignmentRow>> {
  const filters = parseInput(assignmentFilters, query)
  const page = parsePaging(query, ASSIGNMENT_SORT)
  const bySubject = await subjectFilter(db, projectId, filters.subjectType, filters.subjectKey)
  if (bySubject === null) return findPage(page, Promise.resolve([]), Promise.resolve(0))
  const where: Prisma.LimitAssignmentWhereInput = {
    projectId,
    ...(filters.family ? { family: filters.family } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...bySubject,
  }
  // bindingKey (unique) is the tie-break and the key of the deferred join
  return findPageByKeys(page, {
    orderBy: orderByFor(page, 'bindingKey'),
    keys: async (window) => (await db.limitAssignment.findMany({ where, select: { bindingKey: true }, ...window })).map((a) => a.bindingKey),
    rows: (bindingKeys) => db.limitAssignment.findMany({ where: { bindingKey: { in: bindingKeys } }, include: assignmentInclude }),
    firstRows: (window) => db.limitAssignment.findMany({ where, include: assignmentInclude, ...window }),
    keyOf: (a) => a.bindingKey,
    count: () => (onlyScope(where, 'projectId') ? countedRows(db, 'LimitAssignment', [projectId]) : db.limitAssignment.count({ where })),
  })
}

/** GET /limit-assignments: filters family, status, subjectType, subjectKey; paged, sort assignedAt,desc by default. */
export async function listAssignments(db: Tx, actor: Actor, projectName: string, query: AssignmentListQuery) {
  const access = await assignmentProject(db, actor, projectName, 'VIEW')
  return listAssignmentsInProject(db, access.project.id, query)
}

export async function getAssignment(db: Tx, actor: Actor, projectName: string, bindingKey: string) {
  const access = await assignmentProject(db, actor, projectName, 'VIEW')
  return findAssignment(db, access.project.id, bindingKey)
}

/** Every check create runs, in order, without writing: body, licence, subject, plans and target, scope. */
export async function checkNewAssignment(db: Tx, projectId: string, body: AssignmentBody) {
  await requireFamilyLicensed(db, body.content.family)
  const subject = await resolveSubject(db, projectId, body.subject)
  const prepared = await prepareAssignmentContent(db, projectId, body.content)
  if (subject.type !== 'AUDIENCE_RULE') {
    const existing = await db.limitAssignment.findUnique({ where: { liveScopeKey: liveScopeKeyOf(projectId, subject, body.content, '') }, select: { bindingKey: true } })
    if (existing) throw scopeAlreadyBound(existing.bindingKey)
  }
  return { subject, prepared }
}

export interface CreateRequest { idempotencyKey: string | undefined; body: unknown }

/**
 * POST /limit-assignments: Idempotency-Key claimed per project and operation with the canonical body hash
 * (a failed call releases it). DRAFT by default; ACTIVE is pushed to the environments at once.
 */
export async function createAssignment(deps: Deps, actor: Actor, projectName: string, request: CreateRequest): Promise<AssignmentRow> {
  const access = await assignmentProject(deps.prisma, actor, projectName, 'MANAGE')
  const project = access.project
  return withIdempotency(deps.prisma, { scope: project.id, operation: 'limitAssignment.create', key: request.idempotencyKey, body: request.body }, async () => {
    const body = validateAssignmentBody(request.body, 'create')
    const row = await deps.prisma.$transaction(async (tx) => {
      const { subject, prepared } = await checkNewAssignment(tx, project.id, body)
      return createAssignmentInTx(tx, {
        project, subject, content: body.content, prepared, audienceRule: body.audienceRule, status: body.status, source: 'MANUAL', assignedBy: actorName(actor),
      })
    })
    if (row.status === 'ACTIVE') await pushAssignment(deps, row, project.name)
    return { result: row, resource: row.bindingKey }
  })
}

/** POST /limit-assignments/actions/validate: the checks of create, nothing written. */
export async function validateAssignment(db: Tx, actor: Actor, projectName: string, rawBody: unknown): Promise<void> {
  const access = await assignmentProject(db, actor, projectName, 'MANAGE')
  const body = validateAssignmentBody(rawBody, 'create')
  await checkNewAssignment(db, access.project.id, body)
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Subject, family, target and actorScope cannot change on update (spec §2.13, §7.4). */
export function refuseImmutableChanges(row: AssignmentRow, body: AssignmentBody) {
  if (body.bindingKey !== null && body.bindingKey !== row.bindingKey) {
    throw lifecycleConflict('limit.binding.keyImmutable', 'The bindingKey of an assignment cannot change', { field: 'bindingKey' })
  }
  const key = subjectKeyOf(row)
  if (body.subject.type !== row.subjectType || (body.subject.key ?? null) !== key) {
    throw lifecycleConflict('limit.binding.scopeImmutable', 'The subject of an assignment cannot change', { field: 'subject' })
  }
  if (body.content.family !== row.family) {
    throw lifecycleConflict('limit.binding.counterIdentityImmutable', 'The family of an assignment cannot change', { field: 'content.family' })
  }
  const storedTarget = targetView(row)
  const sentTarget = targetView({
    targetType: body.content.target.type,
    targetApiProxyName: body.content.target.apiProxyName,
    targetApiProxyGroupName: body.content.target.apiProxyGroupName,
    targetEnvironmentName: body.content.target.environmentName,
    targetKey: body.content.target.targetKey,
    targetHttpMethods: body.content.target.httpMethods,
  })
  const sortMethods = (t: { httpMethods?: string[] }) => ({ ...t, httpMethods: t.httpMethods ? [...t.httpMethods].sort() : undefined })
  if (!sameJson(sortMethods(storedTarget), sortMethods(sentTarget))) {
    throw lifecycleConflict('limit.binding.counterIdentityImmutable', 'The target of an assignment cannot change', { field: 'content.target' })
  }
  if (body.content.actorScope !== row.actorScope) {
    throw lifecycleConflict('limit.binding.counterIdentityImmutable', 'The actorScope of an assignment cannot change', { field: 'content.actorScope' })
  }
}

export const versionConflict = (expected: number, current: number) =>
  new DomainError('conflict', 'versionConflict', `The assignment is at version ${current}, not ${expected}`, { entity: 'limitAssignment', expected, current })

/**
 * PUT /limit-assignments/{bindingKey}: replaces the editable content (mode, plan keys or custom rule,
 * audienceRule, enforcement posture, validity window). ENDED → limit.binding.endedIsFinal; a body version
 * other than the stored one → 409 versionConflict. An ACTIVE row is recompiled and pushed.
 */
export async function updateAssignment(deps: Deps, actor: Actor, projectName: string, bindingKey: string, rawBody: unknown): Promise<AssignmentRow> {
  const access = await assignmentProject(deps.prisma, actor, projectName, 'MANAGE')
  const stored = await findAssignment(deps.prisma, access.project.id, bindingKey)
  if (stored.status === 'ENDED') throw lifecycleConflict('limit.binding.endedIsFinal', `Assignment '${bindingKey}' is ENDED and cannot change`)
  const body = validateAssignmentBody(rawBody, 'update')
  if (body.version !== null && body.version !== stored.version) throw versionConflict(body.version, stored.version)
  refuseImmutableChanges(stored, body)
  await requireFamilyLicensed(deps.prisma, body.content.family)
  const row = await deps.prisma.$transaction((tx) => updateAssignmentInTx(tx, access.project.id, stored, body))
  if (row.status === 'ACTIVE') await pushAssignment(deps, row, access.project.name)
  return row
}

/**
 * The write of an update inside the caller's transaction (the PUT and a declarative sync): the content replaced, the
 * version fenced on the stored one. The caller has refused ENDED rows and immutable changes (refuseImmutableChanges);
 * push an ACTIVE row after the commit.
 */
export async function updateAssignmentInTx(tx: Tx, projectId: string, stored: AssignmentRow, body: AssignmentBody): Promise<AssignmentRow> {
  const prepared = await prepareAssignmentContent(tx, projectId, body.content)
  const { count } = await tx.limitAssignment.updateMany({
    where: { id: stored.id, version: stored.version, status: { not: 'ENDED' } },
    data: {
      ...contentColumns(body.content, body.audienceRule),
      version: { increment: 1 },
      ...(stored.status === 'ACTIVE' ? { runtimeRevision: { increment: 1 } } : {}),
    },
  })
  if (count === 0) {
    const now = await tx.limitAssignment.findUniqueOrThrow({ where: { id: stored.id }, select: { version: true, status: true } })
    if (now.status === 'ENDED') throw lifecycleConflict('limit.binding.endedIsFinal', `Assignment '${stored.bindingKey}' is ENDED and cannot change`)
    throw versionConflict(body.version ?? stored.version, now.version)
  }
  await tx.limitAssignmentPlan.deleteMany({ where: { assignmentId: stored.id } })
  await tx.limitAssignmentPlan.createMany({ data: prepared.planIds.map((planId, position) => ({ assignmentId: stored.id, planId, position })) })
  return tx.limitAssignment.findUniqueOrThrow({ where: { id: stored.id }, include: assignmentInclude })
}

export const actionBody = z.strictObject({ version: z.number().int().min(1).nullish() })
export const endBody = z.strictObject({ version: z.number().int().min(1).nullish(), reason: z.string().trim().min(1).max(1000).nullish() })

/** The endedReason recorded when the end action names none. */
export const DEFAULT_END_REASON = 'ENDED_BY_OPERATOR'

/**
 * POST …/actions/activate: DRAFT → ACTIVE (optional version fence), then compiled and pushed. Non-DRAFT →
 * limit.binding.notDraft; moved-on version → limit.binding.versionConflict. The plans are checked again
 * (retired or unpublished meanwhile → refused).
 */
export async function activateAssignment(deps: Deps, actor: Actor, projectName: string, bindingKey: string, rawBody: unknown): Promise<AssignmentRow> {
  const access = await assignmentProject(deps.prisma, actor, projectName, 'MANAGE')
  const { version } = parseInput(actionBody, rawBody ?? {})
  const stored = await findAssignment(deps.prisma, access.project.id, bindingKey)
  if (stored.status !== 'DRAFT') throw lifecycleConflict('limit.binding.notDraft', `Assignment '${bindingKey}' is ${stored.status}, not DRAFT`)
  if (version != null && version !== stored.version) throw versionFence(bindingKey, version, stored.version)
  await requireFamilyLicensed(deps.prisma, stored.family)
  await resolvePlanKeys(deps.prisma, access.project.id, stored.family, stored.planKeys)
  const { count } = await deps.prisma.limitAssignment.updateMany({
    where: { id: stored.id, status: 'DRAFT', version: stored.version },
    data: { status: 'ACTIVE', version: { increment: 1 }, runtimeRevision: { increment: 1 } },
  })
  if (count === 0) throw lifecycleConflict('limit.binding.conflict', `Assignment '${bindingKey}' changed meanwhile; read it again`)
  const row = await deps.prisma.limitAssignment.findUniqueOrThrow({ where: { id: stored.id }, include: assignmentInclude })
  await pushAssignment(deps, row, access.project.name)
  return row
}

/**
 * POST …/actions/end: ACTIVE → ENDED with the reason recorded (endedReason), then undeployed.
 * ENDED → limit.binding.alreadyEnded; DRAFT → limit.binding.notActive; moved-on version → versionConflict reason.
 */
export async function endAssignment(deps: Deps, actor: Actor, projectName: string, bindingKey: string, rawBody: unknown): Promise<AssignmentRow> {
  const access = await assignmentProject(deps.prisma, actor, projectName, 'MANAGE')
  const { version, reason } = parseInput(endBody, rawBody ?? {})
  const stored = await findAssignment(deps.prisma, access.project.id, bindingKey)
  const { row, wasActive } = await deps.prisma.$transaction((tx) =>
    endAssignmentInTx(tx, { id: stored.id, endedBy: actorName(actor), reason: reason ?? DEFAULT_END_REASON, expectedVersion: version }),
  )
  if (wasActive) await pushAssignment(deps, row, access.project.name)
  return row
}

/** The assignments of one subject (consumer or application sub-resources, manager /subject), newest first. */
export async function assignmentsOfSubject(db: Tx, projectId: string, subject: ResolvedSubject): Promise<AssignmentRow[]> {
  const column = REF_COLUMN[subject.type]
  return db.limitAssignment.findMany({
    where: { projectId, subjectType: subject.type, ...(column ? { [column]: subject.ref[column] } : {}) },
    include: assignmentInclude,
    orderBy: [{ assignedAt: 'desc' }, { bindingKey: 'asc' }],
  })
}
