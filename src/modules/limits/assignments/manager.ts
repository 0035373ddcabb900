import { z } from 'zod'
import type { Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission } from '../../../platform/auth/permissions.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { findPlan } from '../plans/service.js'
import { resolvePlanScope } from '../plans/scope.js'
import { SUBJECT_TYPES } from '../shared/enums.js'
import { ASSIGNMENT_CATEGORIES, assignmentProject } from './access.js'
import { assignmentNotFound, assignmentsOfSubject } from './operations.js'
import { resolveSubject } from './subjects.js'
import { assignmentInclude, type AssignmentRow } from './views.js'

// Reads that only the manager surface has (spec §4.11 /api/limit-bindings): by subject, covering an API proxy,
// referencing a plan, and addressing an assignment by its bindingKey alone.

const newestFirst = [{ assignedAt: 'desc' as const }, { bindingKey: 'asc' as const }]

/** The project of an assignment addressed by bindingKey alone, with the caller's rights checked there. */
export async function projectOfAssignment(db: Tx, actor: Actor, bindingKey: string, level: 'VIEW' | 'MANAGE'): Promise<string> {
  const row = await db.limitAssignment.findUnique({ where: { bindingKey }, select: { project: { select: { name: true } } } })
  if (!row) throw assignmentNotFound(bindingKey)
  const access = await resolveProjectAccess(db, actor, row.project.name).catch((err: unknown) => {
    throw err instanceof DomainError && err.kind === 'notFound' ? assignmentNotFound(bindingKey) : err
  })
  requireAnyPermission(access, ASSIGNMENT_CATEGORIES, level)
  return row.project.name
}

/** The project named by the manager's projectId query parameter (a project name); required for assignments. */
export function requiredProject(projectId: unknown): string {
  const name = typeof projectId === 'string' ? projectId.trim() : ''
  if (!name) throw malformed('projectId is required', { field: 'projectId' })
  return name
}

const subjectQuery = z.object({
  subjectType: z.enum(SUBJECT_TYPES),
  subjectKey: z.string().trim().min(1).max(200).optional(),
})

/** GET /api/limit-bindings/subject: every assignment of one subject (all statuses), newest first. */
export async function assignmentsForSubject(db: Tx, actor: Actor, projectName: string, query: unknown): Promise<AssignmentRow[]> {
  const access = await assignmentProject(db, actor, projectName, 'VIEW')
  const q = parseInput(subjectQuery, query)
  if (q.subjectType === 'AUDIENCE_RULE') {
    return db.limitAssignment.findMany({
      where: { projectId: access.project.id, subjectType: 'AUDIENCE_RULE', ...(q.subjectKey ? { bindingKey: q.subjectKey } : {}) },
      include: assignmentInclude,
      orderBy: newestFirst,
    })
  }
  const subject = await resolveSubject(db, access.project.id, { type: q.subjectType, key: q.subjectKey ?? null })
  if (subject.key === null && subject.type !== 'PLATFORM' && subject.type !== 'PROJECT') throw malformed('subjectKey is required for this subject type', { field: 'subjectKey' })
  return assignmentsOfSubject(db, access.project.id, subject)
}

/**
 * GET /api/limit-bindings/covering-api-proxy: the live (DRAFT or ACTIVE) assignments that reach an API proxy —
 * bound to the proxy as subject, or targeting ALL, the proxy (with or without environment), or one of its groups.
 */
export async function assignmentsCoveringApiProxy(db: Tx, actor: Actor, projectName: string, apiProxyName: unknown): Promise<AssignmentRow[]> {
  const access = await assignmentProject(db, actor, projectName, 'VIEW')
  const name = typeof apiProxyName === 'string' ? apiProxyName.trim() : ''
  if (!name) throw malformed('apiProxyName is required', { field: 'apiProxyName' })
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name } }, include: { groups: { select: { name: true } } } })
  if (!proxy) throw notFound(`API proxy '${name}' not found`, { apiProxy: name })
  const where: Prisma.LimitAssignmentWhereInput = {
    projectId: access.project.id,
    status: { in: ['DRAFT', 'ACTIVE'] },
    OR: [
      { subjectType: 'API_PROXY', apiProxyId: proxy.id },
      { targetType: 'ALL', subjectType: { not: 'API_PROXY' } },
      { targetType: { in: ['API_PROXY', 'API_PROXY_ENV'] }, targetApiProxyName: name },
      { targetType: { in: ['API_PROXY_GROUP', 'API_PROXY_GROUP_ENV'] }, targetApiProxyGroupName: { in: proxy.groups.map((g) => g.name) } },
    ],
  }
  return db.limitAssignment.findMany({ where, include: assignmentInclude, orderBy: newestFirst })
}

/**
 * GET /api/limit-bindings/referencing-plan/{planId}: the assignments (all statuses) that reference a plan. planId
 * is the plan key (objects are addressed by key); projectId names the plan's catalog (absent: platform) and the
 * assignments are those the caller can see.
 */
export async function assignmentsReferencingPlan(db: Tx, actor: Actor, projectName: string | undefined, planKey: string): Promise<AssignmentRow[]> {
  const scope = await resolvePlanScope(db, actor, projectName, 'VIEW')
  const plan = await findPlan(db, scope, planKey)
  const projectIds = scope.projectId ? [scope.projectId] : undefined
  return db.limitAssignment.findMany({
    where: { plans: { some: { planId: plan.id } }, ...(projectIds ? { projectId: { in: projectIds } } : {}) },
    include: assignmentInclude,
    orderBy: newestFirst,
  })
}
