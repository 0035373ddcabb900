import type { Deps, Tx } from '../../../platform/context.js'
import { enqueueDeliveries, supersedeDeliveries } from '../../../platform/deploy/outbox.js'
import { pushBatchWithOutbox } from '../../../platform/deploy/batch.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import type { DeployMessage, DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { assignmentInclude, subjectKeyOf, targetView, type AssignmentRow } from './views.js'

// The runtime form of an assignment (RUNTIME.md §4, kind LIMIT_ASSIGNMENT): the subject, the counter
// identity (family, target, actorScope) and the effective rules — for PLAN the published revision of every
// referenced plan at compile time, for CUSTOM the custom spec, none for INHERIT and OFF.

export const DEPLOY_KIND = 'LIMIT_ASSIGNMENT'
const OUTBOX_PREFIX = 'limitAssignment'

export interface CompiledRule { planKey: string | null; revision: number | null; ruleSpec: unknown }

/**
 * The runtime rules of one custom rule spec (no plan behind it): a CUSTOM assignment's spec, and an RLCL entry's
 * request-rate spec (src/modules/rlcl), so that both reach the workers in the same form.
 */
export const compileCustomRule = (ruleSpec: unknown): CompiledRule[] => [{ planKey: null, revision: null, ruleSpec }]

/** The published rule specs of the plans an assignment references, in planKeys order. */
async function publishedRules(db: Tx, row: AssignmentRow): Promise<CompiledRule[]> {
  if (row.mode === 'CUSTOM') return compileCustomRule(row.customRuleSpec)
  if (row.mode !== 'PLAN') return []
  const links = await db.limitAssignmentPlan.findMany({
    where: { assignmentId: row.id },
    orderBy: { position: 'asc' },
    include: { plan: { select: { planKey: true, currentPublishedRevision: true, revisions: { where: { status: 'PUBLISHED' }, select: { revision: true, ruleSpec: true } } } } },
  })
  return links.map((l) => {
    const published = l.plan.revisions.find((r) => r.revision === l.plan.currentPublishedRevision) ?? l.plan.revisions[0]
    return { planKey: l.plan.planKey, revision: published?.revision ?? null, ruleSpec: published?.ruleSpec ?? null }
  })
}

/** Compiles an assignment into the `config` of its deploy message. */
export async function compileAssignment(db: Tx, row: AssignmentRow) {
  const key = subjectKeyOf(row)
  return {
    bindingKey: row.bindingKey,
    subject: { type: row.subjectType, ...(key !== null ? { key } : {}) },
    family: row.family,
    actorScope: row.actorScope,
    target: targetView(row),
    mode: row.mode,
    rules: await publishedRules(db, row),
    audienceRule: row.audienceRule ?? null,
    enforcement:
      row.family === 'REQUEST_RATE'
        ? {
            cacheErrorHandlingType: row.cacheErrorHandlingType,
            cacheConnectionTimeoutInSeconds: row.cacheConnectionTimeoutInSeconds,
            showRateLimitStatisticsInResponseHeader: row.showRateLimitStatisticsInResponseHeader,
            customMessageTemplate: row.customMessageTemplate,
            customMessageContentType: row.customMessageContentType,
            customMessageHttpStatusCode: row.customMessageHttpStatusCode,
          }
        : null,
    validFrom: row.validFrom?.toISOString() ?? null,
    validUntil: row.validUntil?.toISOString() ?? null,
  }
}

/**
 * Compiles and pushes one assignment to every environment of its project: DEPLOY while ACTIVE, UNDEPLOY
 * once ENDED. Environments that do not acknowledge are handed to the durable retry outbox (an older
 * undelivered push of the same assignment is superseded). Never throws for a failed environment.
 */
export async function pushAssignment(deps: Pick<Deps, 'prisma' | 'deployer'>, row: AssignmentRow, projectName: string): Promise<DeploymentOutcome> {
  const environments = await projectEnvironments(deps.prisma, row.projectId)
  const message: DeployMessage = {
    action: row.status === 'ENDED' ? 'UNDEPLOY' : 'DEPLOY',
    project: projectName,
    kind: DEPLOY_KIND,
    name: row.bindingKey,
    revision: row.runtimeRevision,
    config: row.status === 'ENDED' ? null : await compileAssignment(deps.prisma, row),
  }
  const outcome = await deps.deployer.push(environments, message)
  const failed = outcome.environmentResults.filter((r) => !r.success).map((r) => r.environmentName)
  await deps.prisma.$transaction(async (tx) => {
    await supersedeDeliveries(tx, `${OUTBOX_PREFIX}:${row.bindingKey}:`, `superseded by revision ${row.runtimeRevision}`)
    await enqueueDeliveries(
      tx,
      environments.filter((e) => failed.includes(e.name)).map((environment) => ({ environment, message, subject: `${OUTBOX_PREFIX}:${row.bindingKey}:${row.runtimeRevision}` })),
    )
  })
  return outcome
}

/** Summary of pushing many assignments: how many environments acknowledged every push. */
export interface PushSummary { pushed: number; failedEnvironmentPushes: number }

/** Assignments pushed per batched round: one page of rows in memory, one batch per worker (RUNTIME.md §4.1). */
const PUSH_PAGE = 500

/**
 * Compiles and pushes the given assignments (ACTIVE ones deploy, ENDED ones undeploy; DRAFT rows are
 * skipped) as batches, a page at a time and per project: environments that do not acknowledge a message are
 * handed to the retry outbox like a failed single push (older undelivered pushes of the same assignment are
 * superseded). Plan publish calls it for every referencing assignment.
 */
export async function pushAssignments(deps: Pick<Deps, 'prisma' | 'deployer'>, assignmentIds: readonly string[]): Promise<PushSummary> {
  const summary: PushSummary = { pushed: 0, failedEnvironmentPushes: 0 }
  for (let start = 0; start < assignmentIds.length; start += PUSH_PAGE) {
    const rows = await deps.prisma.limitAssignment.findMany({
      where: { id: { in: assignmentIds.slice(start, start + PUSH_PAGE) }, status: { in: ['ACTIVE', 'ENDED'] } },
      include: { ...assignmentInclude, project: { select: { name: true } } },
      orderBy: { bindingKey: 'asc' },
    })
    const byProject = new Map<string, typeof rows>()
    for (const row of rows) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row])
    for (const [projectId, projectRows] of byProject) {
      const items = await Promise.all(
        projectRows.map(async (row) => ({
          message: {
            action: row.status === 'ENDED' ? 'UNDEPLOY' : 'DEPLOY',
            project: row.project.name,
            kind: DEPLOY_KIND,
            name: row.bindingKey,
            revision: row.runtimeRevision,
            config: row.status === 'ENDED' ? null : await compileAssignment(deps.prisma, row),
          } satisfies DeployMessage,
          subject: `${OUTBOX_PREFIX}:${row.bindingKey}:${row.runtimeRevision}`,
          supersedePrefix: `${OUTBOX_PREFIX}:${row.bindingKey}:`,
        })),
      )
      const outcome = await pushBatchWithOutbox(deps, await projectEnvironments(deps.prisma, projectId), items)
      summary.pushed += items.length
      for (const r of outcome.environmentResults) summary.failedEnvironmentPushes += r.errors.filter((e) => e !== null).length
    }
  }
  return summary
}
