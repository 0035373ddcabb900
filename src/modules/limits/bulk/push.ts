import type { Prisma } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { supersedeMany } from '../../../platform/deploy/batch.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import { pushMessages, type DeployEnvironment, type DeployMessage } from '../../../platform/deploy/pusher.js'
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

/** Everything compileAssignment reads except the subject and bindingKey. */
const contentSignature = (row: AssignmentRow) =>
  canonicalHash({
    mode: row.mode, planKeys: row.planKeys, customRuleSpec: row.customRuleSpec, family: row.family, actorScope: row.actorScope,
    target: [row.targetType, row.targetApiProxyName, row.targetApiProxyGroupName, row.targetEnvironmentName, row.targetKey, row.targetHttpMethods],
    audienceRule: row.audienceRule, enforcement: [row.cacheErrorHandlingType, row.cacheConnectionTimeoutInSeconds, row.showRateLimitStatisticsInResponseHeader,
      row.customMessageTemplate, row.customMessageContentType, row.customMessageHttpStatusCode],
    validity: [row.validFrom?.toISOString() ?? null, row.validUntil?.toISOString() ?? null],
  })

/** The chunk's messages for every environment with workers, and the outbox row standing for each pair until acknowledged. */
export interface StagedChunk {
  environments: DeployEnvironment[]
  messages: DeployMessage[]
  /** outboxIds[message][environment] */
  outboxIds: string[][]
}

const NOTHING_STAGED: StagedChunk = { environments: [], messages: [], outboxIds: [] }

/**
 * Inside the chunk's transaction: compiles the touched assignments and records one outbox row per message and
 * environment with workers, due after `graceMs`. Environments without a worker acknowledge at once (RUNTIME.md §4):
 * nothing is staged for them.
 */
export async function stageChunkPushes(tx: Tx, project: { id: string; name: string }, assignmentIds: string[], graceMs: number): Promise<StagedChunk> {
  const environments = (await projectEnvironments(tx, project.id)).filter((e) => e.workerUrls.length > 0)
  if (!environments.length || !assignmentIds.length) return NOTHING_STAGED
  const found = await tx.limitAssignment.findMany({ where: { id: { in: assignmentIds }, status: { in: ['ACTIVE', 'ENDED'] } }, include: assignmentInclude })
  // in the order the chunk decided them (an ended row before the one that replaced it)
  const position = new Map(assignmentIds.map((id, i) => [id, i]))
  const rows = found.sort((a, b) => position.get(a.id)! - position.get(b.id)!)
  const compiled = new Map<string, Awaited<ReturnType<typeof compileAssignment>>>()
  const messages: DeployMessage[] = []
  const subjects: string[] = []
  const ended: string[] = []
  for (const row of rows) {
    let config: Record<string, unknown> | null = null
    if (row.status === 'ENDED') {
      ended.push(`${OUTBOX_PREFIX}:${row.bindingKey}:`)
    } else {
      const signature = contentSignature(row)
      let template = compiled.get(signature)
      if (!template) compiled.set(signature, (template = await compileAssignment(tx, row)))
      const key = subjectKeyOf(row)
      config = { ...template, bindingKey: row.bindingKey, subject: { type: row.subjectType, ...(key !== null ? { key } : {}) } }
    }
    messages.push({ action: row.status === 'ENDED' ? 'UNDEPLOY' : 'DEPLOY', project: project.name, kind: DEPLOY_KIND, name: row.bindingKey, revision: row.runtimeRevision, config })
    subjects.push(`${OUTBOX_PREFIX}:${row.bindingKey}:${row.runtimeRevision}`)
  }
  // an undeploy makes older undelivered pushes of the same assignment pointless
  await supersedeMany(tx, ended, 'superseded by an undeploy')
  const due = new Date(Date.now() + graceMs)
  const created = await tx.deliveryOutbox.createManyAndReturn({
    data: messages.flatMap((message, i) =>
      environments.map((e) => ({ environmentName: e.name, workerUrls: e.workerUrls, message: message as unknown as Prisma.InputJsonValue, subject: subjects[i], nextAttemptAt: due })),
    ),
    select: { id: true },
  })
  const outboxIds = messages.map((_, i) => environments.map((_e, k) => created[i * environments.length + k].id))
  return { environments, messages, outboxIds }
}

/**
 * After the commit: delivers the chunk's messages now, as batches (RUNTIME.md §4.1), and marks their outbox rows
 * delivered or due now (the outbox deliverer retries those); resolves with how many (message, environment) pairs
 * were not acknowledged.
 */
export async function deliverStagedPushes(deps: Pick<Deps, 'prisma' | 'deployer'>, staged: StagedChunk): Promise<number> {
  if (!staged.messages.length) return 0
  const outcome = await pushMessages(deps.deployer, staged.environments, staged.messages)
  const acknowledged: string[] = []
  const failed: string[] = []
  let firstError: string | null = null
  outcome.environmentResults.forEach((result, k) =>
    result.errors.forEach((error, i) => {
      if (error === null) acknowledged.push(staged.outboxIds[i][k])
      else {
        failed.push(staged.outboxIds[i][k])
        firstError ??= error
      }
    }),
  )
  if (acknowledged.length) {
    await deps.prisma.deliveryOutbox.updateMany({ where: { id: { in: acknowledged }, deliveredAt: null }, data: { deliveredAt: new Date(), lastError: null } })
  }
  if (failed.length) {
    // due now: the outbox deliverer retries them with its backoff
    await deps.prisma.deliveryOutbox.updateMany({ where: { id: { in: failed }, deliveredAt: null }, data: { nextAttemptAt: new Date(), attempts: 1, lastError: firstError } })
  }
  return failed.length
}
