import { z } from 'zod'
import type { Actor } from '../../../../platform/auth/actor.js'
import { actorName } from '../../../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../../../platform/auth/require.js'
import type { Deps, Tx } from '../../../../platform/context.js'
import { DomainError, malformed } from '../../../../platform/errors/domain-error.js'
import { parseInput } from '../../../../platform/errors/validation.js'
import { assignmentProject } from '../../assignments/access.js'
import {
  createAssignmentInTx, findLiveAssignment, pushAssignments, validateAssignmentContent, type ResolvedSubject,
} from '../../assignments/service.js'
import { NO_REF } from '../../assignments/subjects.js'
import { PLATFORM_SCOPE } from '../../shared/scope.js'

// Portal subscription linking (spec §4.11). A portal subscription plan owns limit plans (its "profile", one per
// family: LimitPlan.managedBySubscriptionPlanId); the applications with an approved subscription to the product
// get the profile through PORTAL_SUBSCRIPTION assignments. Product subscriptions record no plan, so the plan is
// named in the path (limit-impact) or the query (backfill): docs/limits-bulk.md.

const flag = z.preprocess((v) => (v === undefined || v === '' ? undefined : v), z.enum(['true', 'false']).optional()).transform((v) => v === 'true')

export const limitImpactQuery = z.object({ projectId: z.string().optional().describe('project name; blank: the whole installation (system administrator only)') })
export const backfillQuery = z.object({
  projectId: z.string().optional().describe('project name; blank: the whole installation (system administrator only)'),
  productId: z.string().optional().describe('the API product (its name); required'),
  planId: z.string().optional().describe('the portal subscription plan whose profile is applied; required'),
  apply: flag.describe('default false: a dry run that writes nothing'),
})

/** The projects covered: one named project (IDENTITY or AI_BUDGETS at `level`), or every project for a system administrator. */
async function projectScope(db: Tx, actor: Actor, projectName: string | undefined, level: 'VIEW' | 'MANAGE'): Promise<{ id: string; name: string }[]> {
  const name = projectName?.trim()
  if (name) return [(await assignmentProject(db, actor, name, level)).project]
  requireSystemAdmin(actor)
  return db.project.findMany({ where: { name: { not: 'admin' } }, select: { id: true, name: true }, orderBy: { name: 'asc' } })
}

/** The profile plans of a subscription plan usable in a project (its own or platform ones), not retired and published. */
async function profilePlans(db: Tx, projectIds: string[], planId: string) {
  return db.limitPlan.findMany({
    where: { managedBySubscriptionPlanId: planId, scope: { in: [...projectIds, PLATFORM_SCOPE] }, lifecycle: { not: 'RETIRED' } },
    select: { id: true, planKey: true, family: true, scope: true, currentPublishedRevision: true },
    orderBy: [{ family: 'asc' }, { planKey: 'asc' }],
  })
}

export async function limitImpact(db: Tx, actor: Actor, productId: string, planId: string, rawQuery: unknown) {
  const query = parseInput(limitImpactQuery, rawQuery)
  const projects = await projectScope(db, actor, query.projectId, 'VIEW')
  const projectIds = projects.map((p) => p.id)
  const subscriptions = await db.productSubscription.findMany({
    where: { productName: productId, status: 'APPROVED', projectId: { in: projectIds } },
    select: { applicationId: true },
  })
  const families = [...new Set((await profilePlans(db, projectIds, planId)).map((p) => p.family))].sort()
  return {
    productId,
    planId,
    approvedSubscriptionCount: subscriptions.length,
    familiesWithProfile: families,
    affectedApplicationCount: families.length ? new Set(subscriptions.map((s) => s.applicationId)).size : 0,
  }
}

export interface BackfillRow { projectName: string; applicationName: string; family: string; planKey: string; outcome: 'CREATED' | 'WOULD_CREATE' | 'SKIPPED_EXISTING' | 'SKIPPED_UNPUBLISHED' | 'SKIPPED_PLATFORM_PLAN'; bindingKey?: string }
const MAX_ROWS = 1000

/**
 * For every approved subscription to the product, one live PORTAL_SUBSCRIPTION assignment per profile plan of the
 * subscription plan (APPLICATION subject, target ALL, actorScope ANY, mode PLAN, ACTIVE). A subject already bound on
 * that scope is left as it is. apply=false writes nothing and reports what apply=true would do.
 */
export async function backfillPortalSubscriptions(deps: Pick<Deps, 'prisma' | 'deployer'>, actor: Actor, rawQuery: unknown) {
  const db = deps.prisma
  const query = parseInput(backfillQuery, rawQuery)
  const productId = query.productId?.trim()
  const planId = query.planId?.trim()
  if (!productId) throw malformed('Query parameter productId is required', { field: 'productId' })
  if (!planId) throw malformed('Query parameter planId is required', { field: 'planId' })
  const projects = await projectScope(db, actor, query.projectId, query.apply ? 'MANAGE' : 'VIEW')
  const rows: BackfillRow[] = []
  const counts = { scanned: 0, createdCount: 0, wouldCreateCount: 0, skippedCount: 0 }
  const created: string[] = []
  // every row committed is pushed, even when a later one fails: an ACTIVE assignment is never left undeployed
  try {
    for (const project of projects) {
      const plans = await profilePlans(db, [project.id], planId)
      const subscriptions = await db.productSubscription.findMany({
        where: { productName: productId, status: 'APPROVED', projectId: project.id },
        include: { application: { select: { id: true, name: true } } },
        orderBy: { createdAt: 'asc' },
      })
      counts.scanned += subscriptions.length
      for (const sub of subscriptions) {
        const subject: ResolvedSubject = { type: 'APPLICATION', key: sub.application.name, ref: { ...NO_REF, applicationId: sub.application.id } }
        for (const plan of plans) {
          const content = validateAssignmentContent({ family: plan.family, mode: 'PLAN', planKeys: [plan.planKey] }, { subjectType: 'APPLICATION' })
          const row: BackfillRow = { projectName: project.name, applicationName: sub.application.name, family: plan.family, planKey: plan.planKey, outcome: 'WOULD_CREATE' }
          const live = await findLiveAssignment(db, project.id, subject, content)
          if (plan.scope !== project.id) {
            // a project's assignment cannot name a platform plan (spec §2.12): reported, never attempted
            row.outcome = 'SKIPPED_PLATFORM_PLAN'
            counts.skippedCount++
          } else if (plan.currentPublishedRevision === 0) {
            row.outcome = 'SKIPPED_UNPUBLISHED'
            counts.skippedCount++
          } else if (live) {
            row.outcome = 'SKIPPED_EXISTING'
            row.bindingKey = live.bindingKey
            counts.skippedCount++
          } else if (!query.apply) {
            counts.wouldCreateCount++
          } else {
            const assignment = await db
              .$transaction((tx) => createAssignmentInTx(tx, { project, subject, content, status: 'ACTIVE', source: 'PORTAL_SUBSCRIPTION', assignedBy: actorName(actor) }))
              .catch(async (err: unknown) => {
                // bound by another writer since the check above: left as it is, like any existing assignment
                if (err instanceof DomainError && err.params.reason === 'limit.binding.scopeAlreadyBound') return null
                throw err
              })
            if (assignment) {
              created.push(assignment.id)
              row.outcome = 'CREATED'
              row.bindingKey = assignment.bindingKey
              counts.createdCount++
            } else {
              row.outcome = 'SKIPPED_EXISTING'
              row.bindingKey = (await findLiveAssignment(db, project.id, subject, content))?.bindingKey
              counts.skippedCount++
            }
          }
          if (rows.length < MAX_ROWS) rows.push(row)
        }
      }
    }
  } finally {
    if (created.length) await pushAssignments(deps, created)
  }
  return { apply: query.apply, productId, planId, ...counts, rowsTruncated: rows.length < counts.createdCount + counts.wouldCreateCount + counts.skippedCount, rows }
}
