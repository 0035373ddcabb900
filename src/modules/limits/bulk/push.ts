import crypto from 'node:crypto'
import type { Deps, Tx } from '../../../platform/context.js'
import { supersedeMany } from '../../../platform/deploy/batch.js'
import { pushMessages, type DeployEnvironment, type DeployMessage } from '../../../platform/deploy/pusher.js'
import { canonicalHash } from '../../../platform/hashing/canonical.js'
import { assignmentInclude, compileAssignment, type AssignmentRow } from '../assignments/service.js'
import { subjectKeyOf } from '../assignments/views.js'
import type { ChunkResult } from './chunk.js'

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

/** The project's environments with workers, in one query (projectEnvironments, without the rows they need not). */
async function environmentsWithWorkers(tx: Tx, projectId: string): Promise<DeployEnvironment[]> {
  return tx.$queryRaw<DeployEnvironment[]>`
    SELECT e."name", e."workerUrls" FROM "ProjectEnvironment" pe JOIN "Environment" e ON e."id" = pe."environmentId"
     WHERE pe."projectId" = ${projectId} AND cardinality(e."workerUrls") > 0 ORDER BY e."name"`
}

/**
 * Inside the chunk's transaction: compiles the touched assignments and records one outbox row per message and
 * environment with workers, due after `graceMs`, in one INSERT per environment. Environments without a worker
 * acknowledge at once (RUNTIME.md §4): nothing is staged for them. The rows the chunk created together share the
 * run's content: one of them is read back and compiled, the others differ only in binding key and subject.
 */
export async function stageChunkPushes(tx: Tx, project: { id: string; name: string }, chunk: Pick<ChunkResult, 'touchedAssignmentIds' | 'createdTogether'>, graceMs: number): Promise<StagedChunk> {
  const assignmentIds = chunk.touchedAssignmentIds
  if (!assignmentIds.length) return NOTHING_STAGED
  const environments = (await environmentsWithWorkers(tx, project.id)).sort((a, b) => a.name.localeCompare(b.name))
  if (!environments.length) return NOTHING_STAGED
  const together = chunk.createdTogether ?? new Map()
  const sample = assignmentIds.find((id) => together.has(id))
  const readBack = assignmentIds.filter((id) => !together.has(id) || id === sample)
  const found = readBack.length ? await tx.limitAssignment.findMany({ where: { id: { in: readBack }, status: { in: ['ACTIVE', 'ENDED'] } }, include: assignmentInclude }) : []
  const byId = new Map(found.map((r) => [r.id, r]))
  const compiled = new Map<string, Awaited<ReturnType<typeof compileAssignment>>>()
  const templateOf = async (row: AssignmentRow) => {
    const signature = contentSignature(row)
    let template = compiled.get(signature)
    if (!template) compiled.set(signature, (template = await compileAssignment(tx, row)))
    return template
  }
  const sampleRow = sample ? byId.get(sample) : undefined
  const sampleTemplate = sampleRow ? await templateOf(sampleRow) : null
  const messages: DeployMessage[] = []
  const subjects: string[] = []
  const ended: string[] = []
  // in the order the chunk decided them (an ended row before the one that replaced it)
  for (const id of assignmentIds) {
    const made = together.get(id)
    if (made && sampleRow && sampleTemplate) {
      const config = { ...sampleTemplate, bindingKey: made.bindingKey, subject: { type: sampleRow.subjectType, key: made.subjectKey } }
      messages.push({ action: 'DEPLOY', project: project.name, kind: DEPLOY_KIND, name: made.bindingKey, revision: sampleRow.runtimeRevision, config })
      subjects.push(`${OUTBOX_PREFIX}:${made.bindingKey}:${sampleRow.runtimeRevision}`)
      continue
    }
    const row = byId.get(id)
    if (!row) continue
    let config: Record<string, unknown> | null = null
    if (row.status === 'ENDED') {
      ended.push(`${OUTBOX_PREFIX}:${row.bindingKey}:`)
    } else {
      const key = subjectKeyOf(row)
      config = { ...(await templateOf(row)), bindingKey: row.bindingKey, subject: { type: row.subjectType, ...(key !== null ? { key } : {}) } }
    }
    messages.push({ action: row.status === 'ENDED' ? 'UNDEPLOY' : 'DEPLOY', project: project.name, kind: DEPLOY_KIND, name: row.bindingKey, revision: row.runtimeRevision, config })
    subjects.push(`${OUTBOX_PREFIX}:${row.bindingKey}:${row.runtimeRevision}`)
  }
  // an undeploy makes older undelivered pushes of the same assignment pointless
  await supersedeMany(tx, ended, 'superseded by an undeploy')
  const due = new Date(Date.now() + graceMs).toISOString()
  const bodies = messages.map((m) => JSON.stringify(m))
  const outboxIds = messages.map(() => environments.map(() => crypto.randomUUID()))
  for (const [k, e] of environments.entries()) {
    await tx.$executeRaw`
      INSERT INTO "DeliveryOutbox" ("id", "environmentName", "workerUrls", "message", "subject", "nextAttemptAt", "createdAt")
      SELECT t.id, ${e.name}, ${e.workerUrls}::text[], t.body::jsonb, t.subject, ${due}::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
        FROM unnest(${outboxIds.map((ids) => ids[k])}::text[], ${bodies}::text[], ${subjects}::text[]) AS t(id, body, subject)`
  }
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
    await deps.prisma.$executeRaw`
      UPDATE "DeliveryOutbox" SET "deliveredAt" = now() AT TIME ZONE 'UTC', "lastError" = NULL
       WHERE "id" = ANY(${acknowledged}::text[]) AND "deliveredAt" IS NULL`
  }
  if (failed.length) {
    // due now: the outbox deliverer retries them with its backoff
    await deps.prisma.$executeRaw`
      UPDATE "DeliveryOutbox" SET "nextAttemptAt" = now() AT TIME ZONE 'UTC', "attempts" = 1, "lastError" = ${firstError}
       WHERE "id" = ANY(${failed}::text[]) AND "deliveredAt" IS NULL`
  }
  return failed.length
}
