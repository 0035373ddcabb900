import crypto from 'node:crypto'
import { Prisma } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { supersedeMany } from '../../../platform/deploy/batch.js'
import type { OutboxTransport } from '../../../platform/deploy/outbox.js'
import { pushMessages, type DeployEnvironment, type DeployMessage } from '../../../platform/deploy/pusher.js'
import { batchRecordRows, deploymentRecordsSql, unrecordedDeployer, type DeploymentRecordRow } from '../../environments/deployment-records.js'
import { canonicalHash } from '../../../platform/hashing/canonical.js'
import { assignmentInclude, compileAssignment, type AssignmentRow } from '../assignments/service.js'
import { subjectKeyOf } from '../assignments/views.js'
import type { ChunkResult, PushCache } from './run-context.js'

type Template = NonNullable<PushCache['together']>['template']

// Pushing one chunk: the same RUNTIME.md §4 message per assignment as the assignment service's pushAssignment
// (kind LIMIT_ASSIGNMENT, compiled by its compileAssignment), with the environments read once per chunk and rows of
// identical content compiled once. The pushes are staged in the retry outbox inside the chunk's own transaction,
// due only after a grace period: delivered at once after the commit, they are marked delivered; not acknowledged,
// they become due now (the outbox retries them); and if this process dies in between, the outbox delivers them
// later — a committed chunk is never left undeployed. One outbox row per chunk and environment holds the chunk's
// batch (`limitBulkChunk:<runId>:<first seq>`, its message the §4.1 batch body), delivered by this module's
// transport (chunkOutboxTransports): what a later push of the same assignment superseded is left out then.

export const DEPLOY_KIND = 'LIMIT_ASSIGNMENT'
const OUTBOX_PREFIX = 'limitAssignment'
/** outbox subject kind of a chunk's batch row */
export const CHUNK_OUTBOX_KIND = 'limitBulkChunk'

/** Everything compileAssignment reads except the subject and bindingKey. */
const contentSignature = (row: AssignmentRow) =>
  canonicalHash({
    mode: row.mode, planKeys: row.planKeys, customRuleSpec: row.customRuleSpec, family: row.family, actorScope: row.actorScope,
    target: [row.targetType, row.targetApiProxyName, row.targetApiProxyGroupName, row.targetEnvironmentName, row.targetKey, row.targetHttpMethods],
    audienceRule: row.audienceRule, enforcement: [row.cacheErrorHandlingType, row.cacheConnectionTimeoutInSeconds, row.showRateLimitStatisticsInResponseHeader,
      row.customMessageTemplate, row.customMessageContentType, row.customMessageHttpStatusCode],
    validity: [row.validFrom?.toISOString() ?? null, row.validUntil?.toISOString() ?? null],
  })

/** The chunk's messages for every environment with workers, and the outbox row standing for them per environment until acknowledged. */
export interface StagedChunk {
  environments: DeployEnvironment[]
  messages: DeployMessage[]
  /** the outbox rows' subject, `limitBulkChunk:<runId>:<first seq>` */
  subject: string
  /** outboxIds[environment]: one row per environment holds the chunk's batch */
  outboxIds: string[]
  /** when the outbox rows fall due if this worker has not marked them delivered or failed before */
  due: Date
}

const nothingStaged = (subject: string): StagedChunk => ({ environments: [], messages: [], subject, outboxIds: [], due: new Date() })

/** The project's environments with workers as one JSON value (name order), read by the chunk's first statement. */
export const environmentsWithWorkersJson = (projectId: string) => Prisma.sql`
  (SELECT coalesce(json_agg(json_build_object('name', e."name", 'workerUrls', e."workerUrls") ORDER BY e."name"), '[]'::json)
     FROM "ProjectEnvironment" pe JOIN "Environment" e ON e."id" = pe."environmentId"
    WHERE pe."projectId" = ${projectId} AND cardinality(e."workerUrls") > 0)`

/** What environmentsWithWorkersJson read, in the order pushes use. */
export function environmentsOf(json: unknown): DeployEnvironment[] {
  const list = (typeof json === 'string' ? JSON.parse(json) : json) as DeployEnvironment[]
  return list.sort((a, b) => a.name.localeCompare(b.name))
}

/**
 * Inside the chunk's transaction: compiles the touched assignments into their messages for the environments with
 * workers (read by the chunk's first statement). Environments without a worker acknowledge at once (RUNTIME.md §4):
 * nothing is staged for them. The rows the chunk created together share the run's content: one of them is read
 * back and compiled (once per run when compiling reads nothing but the row, see PushCache), the others differ
 * only in binding key and subject. The outbox rows are written by outboxRowsSql, in the chunk's closing statement.
 */
export async function stageChunkPushes(
  tx: Tx, project: { id: string; name: string }, chunk: Pick<ChunkResult, 'touchedAssignmentIds' | 'createdTogether'>,
  environments: DeployEnvironment[], graceMs: number, subject: string, cache: PushCache = {},
): Promise<StagedChunk> {
  const assignmentIds = chunk.touchedAssignmentIds
  if (!assignmentIds.length || !environments.length) return nothingStaged(subject)
  const together = chunk.createdTogether ?? new Map()
  const sample = cache.together ? undefined : assignmentIds.find((id) => together.has(id))
  const readBack = assignmentIds.filter((id) => !together.has(id) || id === sample)
  const found = readBack.length ? await tx.limitAssignment.findMany({ where: { id: { in: readBack }, status: { in: ['ACTIVE', 'ENDED'] } }, include: assignmentInclude }) : []
  const byId = new Map(found.map((r) => [r.id, r]))
  const compiled = new Map<string, Template>()
  const templateOf = async (row: AssignmentRow) => {
    const signature = contentSignature(row)
    let template = compiled.get(signature)
    if (!template) compiled.set(signature, (template = await compileAssignment(tx, row)))
    return template
  }
  const sampleRow = sample ? byId.get(sample) : undefined
  const shared = cache.together ?? (sampleRow ? { subjectType: sampleRow.subjectType, runtimeRevision: sampleRow.runtimeRevision, template: await templateOf(sampleRow) } : undefined)
  if (sampleRow && shared && sampleRow.mode !== 'PLAN') cache.together = shared
  const messages: DeployMessage[] = []
  const ended: string[] = []
  // in the order the chunk decided them (an ended row before the one that replaced it)
  for (const id of assignmentIds) {
    const made = together.get(id)
    if (made && shared) {
      messages.push(createdTogetherMessage(project, shared, made.bindingKey, made.subjectKey))
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
  }
  // an undeploy makes older undelivered pushes of the same assignment pointless (older chunk rows leave it out
  // when they are delivered: its revision moved on)
  await supersedeMany(tx, ended, 'superseded by an undeploy')
  const outboxIds = environments.map(() => crypto.randomUUID())
  return { environments, messages, subject, outboxIds, due: new Date(Date.now() + graceMs) }
}

/** The message of a row a chunk created together with others (the run's content), from their shared compiled message. */
export function createdTogetherMessage(project: { name: string }, shared: NonNullable<PushCache['together']>, bindingKey: string, subjectKey: string): DeployMessage {
  const config = { ...shared.template, bindingKey, subject: { type: shared.subjectType, key: subjectKey } }
  return { action: 'DEPLOY', project: project.name, kind: DEPLOY_KIND, name: bindingKey, revision: shared.runtimeRevision, config }
}

/**
 * The batch body an outbox row of a chunk holds: the chunk's messages, DEPLOYs without their config. The outbox
 * transport compiles a DEPLOY's config again from the row as it is at delivery (currentChunkMessages) and never
 * read the stored one; left out, a chunk's row is about a fifth of the size, and the database parses and
 * compresses that much less for every chunk.
 */
export const storedBatchJson = (messages: DeployMessage[]) =>
  JSON.stringify({ messages: messages.map((m) => (m.action === 'DEPLOY' ? { ...m, config: null } : m)) })

/**
 * The outbox rows of a staged chunk — one per environment with workers, its message the chunk's batch body
 * (`{ "messages": [...] }`, RUNTIME.md §4.1; DEPLOYs without their config, storedBatchJson), due after the grace period — as one INSERT for the chunk's closing
 * statement (a data-modifying WITH item); null when nothing is staged.
 */
export function outboxRowsSql(staged: StagedChunk): Prisma.Sql | null {
  if (!staged.messages.length || !staged.environments.length) return null
  return Prisma.sql`
    INSERT INTO "DeliveryOutbox" ("id", "environmentName", "workerUrls", "message", "subject", "nextAttemptAt", "createdAt")
    SELECT o.id, e.env->>'name', ARRAY(SELECT jsonb_array_elements_text(e.env->'workerUrls')), ${storedBatchJson(staged.messages)}::jsonb,
           ${staged.subject}, ${staged.due.toISOString()}::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM unnest(${staged.outboxIds}::text[]) WITH ORDINALITY AS o(id, ord)
      JOIN jsonb_array_elements(${JSON.stringify(staged.environments)}::jsonb) WITH ORDINALITY AS e(env, ord) ON e.ord = o.ord`
}

/**
 * Marks acknowledged outbox rows delivered: a statement of its own, or a data-modifying WITH item of a chunk's
 * closing statement (`when`: a condition of that statement's).
 */
export const markDeliveredSql = (outboxIds: string[], when: Prisma.Sql = Prisma.sql`TRUE`) => Prisma.sql`
  UPDATE "DeliveryOutbox" SET "deliveredAt" = now() AT TIME ZONE 'UTC', "lastError" = NULL
   WHERE "id" = ANY(${outboxIds}::text[]) AND "deliveredAt" IS NULL AND ${when}`

/**
 * After the commit: delivers the chunk's messages now, as batches (RUNTIME.md §4.1), and makes the outbox row of
 * every environment that did not acknowledge all of them due now (the outbox retries the batch). Resolves with
 * the outbox rows of the environments that acknowledged — the caller marks them delivered (markDeliveredSql), with
 * its next chunk's closing statement — and how many environments did not. Until marked, an acknowledged row only
 * waits for its grace period to end: were this process to die first, the outbox would deliver it once more, which
 * a worker takes as the same state (the message carries its revision).
 * The outcomes are recorded by the caller too (`records`, for deploymentRecordsSql in its next chunk's statement)
 * when the deployer is a recording one (environments/deployment-records.ts): one statement fewer per chunk beside
 * the next one; a deployer that does not record is used as it is, with nothing to record.
 */
export async function deliverStagedPushes(deps: Pick<Deps, 'prisma' | 'deployer'>, staged: StagedChunk): Promise<{ acknowledged: string[]; failed: number; records: DeploymentRecordRow[] }> {
  if (!staged.messages.length) return { acknowledged: [], failed: 0, records: [] }
  const unrecorded = unrecordedDeployer(deps.deployer)
  const outcome = await pushMessages(unrecorded ?? deps.deployer, staged.environments, staged.messages)
  let records = unrecorded ? batchRecordRows(staged.messages, outcome) : []
  const acknowledged: string[] = []
  const failed: string[] = []
  let firstError: string | null = null
  outcome.environmentResults.forEach((result, k) => {
    const error = result.errors.find((e) => e !== null)
    if (error === undefined) acknowledged.push(staged.outboxIds[k])
    else {
      failed.push(staged.outboxIds[k])
      firstError ??= error
    }
  })
  if (failed.length) {
    // due now: the outbox deliverer retries them with its backoff
    await deps.prisma.$executeRaw`
      UPDATE "DeliveryOutbox" SET "nextAttemptAt" = now() AT TIME ZONE 'UTC', "attempts" = 1, "lastError" = ${firstError}
       WHERE "id" = ANY(${failed}::text[]) AND "deliveredAt" IS NULL`
    // a failure is an event (deployment failed, environments/deployment-records.ts): recorded now, as the recording deployer would
    const sql = deploymentRecordsSql(records)
    records = []
    if (sql) await deps.prisma.$executeRaw`${sql}`.catch(() => undefined)
  }
  return { acknowledged, failed: failed.length, records }
}

/**
 * What of a chunk's batch is still to deliver when the outbox retries it: a message whose assignment moved to a
 * newer revision since is left out (that revision is pushed on its own, with its own outbox rows, and a worker
 * must never get the older one after it); a DEPLOY is compiled again from the row as it is now (a plan publish
 * re-pushes the same revision with the plans' new content).
 */
export async function currentChunkMessages(db: Tx, messages: DeployMessage[]): Promise<DeployMessage[]> {
  const rows = await db.limitAssignment.findMany({ where: { bindingKey: { in: messages.map((m) => m.name) } }, include: assignmentInclude })
  const byKey = new Map(rows.map((r) => [r.bindingKey, r]))
  const compiled = new Map<string, Template>()
  const current: DeployMessage[] = []
  for (const m of messages) {
    const row = byKey.get(m.name)
    if (!row || row.runtimeRevision !== m.revision) continue
    if (m.action === 'UNDEPLOY') current.push(m)
    else if (row.status === 'ACTIVE') {
      const signature = contentSignature(row)
      let template = compiled.get(signature)
      if (!template) compiled.set(signature, (template = await compileAssignment(db, row)))
      const key = subjectKeyOf(row)
      current.push({ ...m, config: { ...template, bindingKey: row.bindingKey, subject: { type: row.subjectType, ...(key !== null ? { key } : {}) } } })
    }
  }
  return current
}

/** The outbox transport of chunk rows: the batch's current messages to the row's environment, as batches. */
export const chunkOutboxTransports = (deps: Pick<Deps, 'prisma' | 'deployer'>): Record<string, OutboxTransport> => ({
  [CHUNK_OUTBOX_KIND]: async (row) => {
    const { messages } = row.message as unknown as { messages: DeployMessage[] }
    const current = await currentChunkMessages(deps.prisma, messages)
    if (!current.length) return { success: true, message: 'superseded by newer pushes' }
    const outcome = await pushMessages(deps.deployer, [{ name: row.environmentName, workerUrls: row.workerUrls }], current)
    const error = outcome.environmentResults[0]?.errors.find((e) => e !== null)
    return error === undefined ? { success: true, message: 'acknowledged' } : { success: false, message: error ?? 'not acknowledged' }
  },
})
