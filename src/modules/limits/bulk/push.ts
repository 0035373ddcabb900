import type { Prisma } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { supersedeDeliveries } from '../../../platform/deploy/outbox.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import type { DeployEnvironment, DeployMessage } from '../../../platform/deploy/pusher.js'
import { canonicalHash } from '../../../platform/hashing/canonical.js'
import { assignmentInclude, compileAssignment, type AssignmentRow } from '../assignments/service.js'
import { subjectKeyOf } from '../assignments/views.js'

// Pushing one chunk: the same RUNTIME.md §4 message per assignment as the assignment service's pushAssignment
// (kind LIMIT_ASSIGNMENT, compiled by its compileAssignment), with the environments read once per chunk and rows of
// identical content compiled once. The pushes are staged in the retry outbox inside the chunk's own transaction,
// due only after a grace period: delivered at once after the commit, they are marked delivered; not acknowledged,
// they become due now (the outbox retries them); and if this process dies in between, the outbox delivers them
// later — a committed chunk is never left undeployed. Outbox subjects follow the assignment service's
// `limitAssignment:<bindingKey>:<revision>`, so a later push of the same assignment supersedes ours.

const DEPLOY_KIND = 'LIMIT_ASSIGNMENT'
const OUTBOX_PREFIX = 'limitAssignment'
const CONCURRENCY = 16

/** Everything compileAssignment reads except the subject and bindingKey. */
const contentSignature = (row: AssignmentRow) =>
  canonicalHash({
    mode: row.mode, planKeys: row.planKeys, customRuleSpec: row.customRuleSpec, family: row.family, actorScope: row.actorScope,
    target: [row.targetType, row.targetApiProxyName, row.targetApiProxyGroupName, row.targetEnvironmentName, row.targetKey, row.targetHttpMethods],
    audienceRule: row.audienceRule, enforcement: [row.cacheErrorHandlingType, row.cacheConnectionTimeoutInSeconds, row.showRateLimitStatisticsInResponseHeader,
      row.customMessageTemplate, row.customMessageContentType, row.customMessageHttpStatusCode],
    validity: [row.validFrom?.toISOString() ?? null, row.validUntil?.toISOString() ?? null],
  })

/** One message to one environment, with the outbox row that stands for it until it is acknowledged. */
interface StagedPush { outboxId: string; environment: DeployEnvironment; message: DeployMessage }

export interface StagedChunk { pushes: StagedPush[] }

/**
 * Inside the chunk's transaction: compiles the touched assignments and records one outbox row per message and
 * environment with workers, due after `graceMs`. Environments without a worker acknowledge at once (RUNTIME.md §4):
 * nothing is staged for them.
 */
export async function stageChunkPushes(tx: Tx, project: { id: string; name: string }, assignmentIds: string[], graceMs: number): Promise<StagedChunk> {
  const environments = (await projectEnvironments(tx, project.id)).filter((e) => e.workerUrls.length > 0)
  if (!environments.length || !assignmentIds.length) return { pushes: [] }
  const rows = await tx.limitAssignment.findMany({ where: { id: { in: assignmentIds }, status: { in: ['ACTIVE', 'ENDED'] } }, include: assignmentInclude })
  const compiled = new Map<string, Awaited<ReturnType<typeof compileAssignment>>>()
  const messages: { row: AssignmentRow; message: DeployMessage }[] = []
  for (const row of rows) {
    let config: Record<string, unknown> | null = null
    if (row.status === 'ENDED') {
      // an undeploy makes older undelivered pushes of the same assignment pointless
      await supersedeDeliveries(tx, `${OUTBOX_PREFIX}:${row.bindingKey}:`, `superseded by revision ${row.runtimeRevision}`)
    } else {
      const signature = contentSignature(row)
      let template = compiled.get(signature)
      if (!template) compiled.set(signature, (template = await compileAssignment(tx, row)))
      const key = subjectKeyOf(row)
      config = { ...template, bindingKey: row.bindingKey, subject: { type: row.subjectType, ...(key !== null ? { key } : {}) } }
    }
    messages.push({ row, message: { action: row.status === 'ENDED' ? 'UNDEPLOY' : 'DEPLOY', project: project.name, kind: DEPLOY_KIND, name: row.bindingKey, revision: row.runtimeRevision, config } })
  }
  const due = new Date(Date.now() + graceMs)
  const entries = messages.flatMap(({ row, message }) => environments.map((environment) => ({ environment, message, subject: `${OUTBOX_PREFIX}:${row.bindingKey}:${row.runtimeRevision}` })))
  const created = await tx.deliveryOutbox.createManyAndReturn({
    data: entries.map((e) => ({ environmentName: e.environment.name, workerUrls: e.environment.workerUrls, message: e.message as unknown as Prisma.InputJsonValue, subject: e.subject, nextAttemptAt: due })),
    select: { id: true },
  })
  return { pushes: entries.map((e, i) => ({ outboxId: created[i].id, environment: e.environment, message: e.message })) }
}

/** After the commit: delivers the staged pushes now; resolves with how many environments did not acknowledge. */
export async function deliverStagedPushes(deps: Pick<Deps, 'prisma' | 'deployer'>, staged: StagedChunk): Promise<number> {
  const acknowledged: string[] = []
  const failed: { id: string; error: string }[] = []
  for (let i = 0; i < staged.pushes.length; i += CONCURRENCY) {
    await Promise.all(
      staged.pushes.slice(i, i + CONCURRENCY).map(async (push) => {
        const result = (await deps.deployer.push([push.environment], push.message)).environmentResults[0]
        if (result?.success) acknowledged.push(push.outboxId)
        else failed.push({ id: push.outboxId, error: result?.message ?? 'no result' })
      }),
    )
  }
  if (acknowledged.length) {
    await deps.prisma.deliveryOutbox.updateMany({ where: { id: { in: acknowledged }, deliveredAt: null }, data: { deliveredAt: new Date(), lastError: null } })
  }
  if (failed.length) {
    // due now: the outbox deliverer retries them with its backoff
    await deps.prisma.deliveryOutbox.updateMany({ where: { id: { in: failed.map((f) => f.id) }, deliveredAt: null }, data: { nextAttemptAt: new Date(), attempts: 1, lastError: failed[0].error } })
  }
  return failed.length
}
