import type { LimitPlan, LimitPlanRevision } from '../../../generated/prisma/client.js'

/** The plan of spec §2.12. */
export function planView(plan: LimitPlan) {
  return {
    planKey: plan.planKey,
    family: plan.family,
    name: plan.name,
    nameTr: plan.nameTr,
    description: plan.description,
    labels: plan.labels,
    lifecycle: plan.lifecycle,
    currentPublishedRevision: plan.currentPublishedRevision,
    platformScoped: plan.projectId === null,
    managedBySubscriptionPlanId: plan.managedBySubscriptionPlanId,
    managedBySubscriptionPlanName: plan.managedBySubscriptionPlanName,
    retiredAt: plan.retiredAt?.toISOString() ?? null,
    retiredBy: plan.retiredBy,
    version: plan.version,
  }
}
export type PlanView = ReturnType<typeof planView>

/** A revision of spec §2.12, with its rule spec exactly as sent. */
export function revisionView(planKey: string, r: LimitPlanRevision) {
  return {
    planKey,
    revision: r.revision,
    status: r.status,
    ruleSpec: r.ruleSpec,
    semanticChecksum: r.semanticChecksum,
    changeReason: r.changeReason,
    publishedAt: r.publishedAt?.toISOString() ?? null,
    publishedBy: r.publishedBy,
  }
}
export type RevisionView = ReturnType<typeof revisionView>
