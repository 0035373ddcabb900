import type { Tx } from '../../../platform/context.js'
import { lifecycleConflict, malformed, notFound } from '../../../platform/errors/domain-error.js'
import type { LimitFamily } from '../shared/enums.js'
import type { AssignmentContent, AssignmentTarget } from './body.js'

// Database checks of an assignment's content: the plans it names and the proxies, groups and environments
// its target names must exist in the project (spec §4.8).

/** What prepareAssignmentContent resolved: reuse it for every subject of a bulk chunk. */
export interface PreparedContent {
  /** the referenced plans' ids in planKeys order */
  planIds: string[]
}

/**
 * Resolves plan keys for an assignment of the project, in the project's own catalog only: a project-scoped
 * call cannot resolve a platform-only plan key (spec §2.12). Unknown → 404 with params.plan; another family →
 * 400; RETIRED → 409 limit.binding.planRetired; never published → 409 limit.binding.planNotPublished.
 */
export async function resolvePlanKeys(db: Tx, projectId: string, family: LimitFamily, planKeys: readonly string[], field = 'content.planKeys'): Promise<string[]> {
  if (planKeys.length === 0) return []
  const plans = await db.limitPlan.findMany({
    where: { planKey: { in: [...planKeys] }, scope: projectId },
    select: { id: true, planKey: true, family: true, lifecycle: true, currentPublishedRevision: true },
  })
  const ids: string[] = []
  for (const key of planKeys) {
    const plan = plans.find((p) => p.planKey === key)
    if (!plan) throw notFound(`Limit plan '${key}' not found`, { plan: key })
    if (plan.family !== family) throw malformed(`Limit plan '${key}' is of family ${plan.family}, not ${family}`, { field, plan: key })
    if (plan.lifecycle === 'RETIRED') throw lifecycleConflict('limit.binding.planRetired', `Limit plan '${key}' is retired`, { plan: key })
    if (plan.currentPublishedRevision === 0) throw lifecycleConflict('limit.binding.planNotPublished', `Limit plan '${key}' was never published`, { plan: key })
    ids.push(plan.id)
  }
  return ids
}

/** The proxy, group and environment a target names must exist in the project: 404 naming which. */
export async function checkTargetReferences(db: Tx, projectId: string, target: AssignmentTarget): Promise<void> {
  if (target.apiProxyName !== null) {
    const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId, name: target.apiProxyName } }, select: { id: true } })
    if (!proxy) throw notFound(`API proxy '${target.apiProxyName}' not found`, { apiProxy: target.apiProxyName })
  }
  if (target.apiProxyGroupName !== null) {
    const group = await db.apiProxyGroup.findUnique({ where: { projectId_name: { projectId, name: target.apiProxyGroupName } }, select: { id: true } })
    if (!group) throw notFound(`API proxy group '${target.apiProxyGroupName}' not found`, { apiProxyGroup: target.apiProxyGroupName })
  }
  if (target.environmentName !== null) {
    const link = await db.projectEnvironment.findFirst({ where: { projectId, environment: { name: target.environmentName } }, select: { projectId: true } })
    if (!link) throw notFound(`Environment '${target.environmentName}' not found in the project`, { environment: target.environmentName })
  }
}

/**
 * Every database check of an assignment's content (plans, target references), once per content: a bulk
 * run calls it once and passes the result to createAssignmentInTx for every subject.
 */
export async function prepareAssignmentContent(db: Tx, projectId: string, content: AssignmentContent): Promise<PreparedContent> {
  await checkTargetReferences(db, projectId, content.target)
  return { planIds: await resolvePlanKeys(db, projectId, content.family, content.planKeys) }
}
