import crypto from 'node:crypto'
import { Prisma } from '../../../generated/prisma/client.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { supersedeMany } from '../../../platform/deploy/batch.js'
import { pushMessages, type DeployEnvironment, type DeployMessage } from '../../../platform/deploy/pusher.js'
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
  /** outbox subject of each message */
  subjects: string[]
  /** outboxIds[message][environment] */
  outboxIds: string[][]
  /** when the outbox rows fall due if this worker has not marked them delivered or failed before */
  due: Date
}

const nothingStaged = (): StagedChunk => ({ environments: [], messages: [], subjects: [], outboxIds: [], due: new Date() })

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
  environments: DeployEnvironment[], graceMs: number, cache: PushCache = {},
): Promise<StagedChunk> {
  const assignmentIds = chunk.touchedAssignmentIds
  if (!assignmentIds.length || !environments.length) return nothingStaged()
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
  const subjects: string[] = []
  const ended: string[] = []
  // in the order the chunk decided them (an ended row before the one that replaced it)
  for (const id of assignmentIds) {
    const made = together.get(id)
    if (made && shared) {
      const config = { ...shared.template, bindingKey: made.bindingKey, subject: { type: shared.subjectType, key: made.subjectKey } }
      messages.push({ action: 'DEPLOY', project: project.name, kind: DEPLOY_KIND, name: made.bindingKey, revision: shared.runtimeRevision, config })
      subjects.push(`${OUTBOX_PREFIX}:${made.bindingKey}:${shared.runtimeRevision}`)
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
  const outboxIds = messages.map(() => environments.map(() => crypto.randomUUID()))
  return { environments, messages, subjects, outboxIds, due: new Date(Date.now() + graceMs) }
}

/**
 * The outbox rows of a staged chunk — one per message and environment with workers, due after the grace period —
 * as one INSERT for the chunk's closing statement (a data-modifying WITH item); null when nothing is staged. The
 * messages go as one JSON array (no per-row escaping into a text[] literal).
 */
export function outboxRowsSql(staged: StagedChunk): Prisma.Sql | null {
  if (!staged.messages.length || !staged.environments.length) return null
  const ids: string[] = []
  const messageOrd: number[] = []
  const environmentOrd: number[] = []
  staged.outboxIds.forEach((perEnvironment, i) => perEnvironment.forEach((id, k) => (ids.push(id), messageOrd.push(i + 1), environmentOrd.push(k + 1))))
  return Prisma.sql`
    INSERT INTO "DeliveryOutbox" ("id", "environmentName", "workerUrls", "message", "subject", "nextAttemptAt", "createdAt")
    SELECT o.id, e.env->>'name', ARRAY(SELECT jsonb_array_elements_text(e.env->'workerUrls')), m.body, s.subject,
           ${staged.due.toISOString()}::timestamptz AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM unnest(${ids}::text[], ${messageOrd}::integer[], ${environmentOrd}::integer[]) WITH ORDINALITY AS o(id, m_ord, e_ord, ord)
      JOIN jsonb_array_elements(${JSON.stringify(staged.messages)}::jsonb) WITH ORDINALITY AS m(body, ord) ON m.ord = o.m_ord
      JOIN unnest(${staged.subjects}::text[]) WITH ORDINALITY AS s(subject, ord) ON s.ord = o.m_ord
      JOIN jsonb_array_elements(${JSON.stringify(staged.environments)}::jsonb) WITH ORDINALITY AS e(env, ord) ON e.ord = o.e_ord
     ORDER BY o.ord`
}

/** Marks acknowledged outbox rows delivered: a statement of its own, or a data-modifying WITH item of a chunk's closing statement. */
export const markDeliveredSql = (outboxIds: string[]) => Prisma.sql`
  UPDATE "DeliveryOutbox" SET "deliveredAt" = now() AT TIME ZONE 'UTC', "lastError" = NULL
   WHERE "id" = ANY(${outboxIds}::text[]) AND "deliveredAt" IS NULL`

/**
 * After the commit: delivers the chunk's messages now, as batches (RUNTIME.md §4.1), and makes the outbox rows of
 * what was not acknowledged due now (the outbox deliverer retries those). Resolves with the outbox rows of what was
 * acknowledged — the caller marks them delivered (markDeliveredSql), with its next chunk's closing statement — and
 * how many (message, environment) pairs were not. Until marked, an acknowledged row only waits for its grace period
 * to end: were this process to die first, the outbox would deliver it once more, which a worker takes as the same
 * state (the message carries its revision).
 */
export async function deliverStagedPushes(deps: Pick<Deps, 'prisma' | 'deployer'>, staged: StagedChunk): Promise<{ acknowledged: string[]; failed: number }> {
  if (!staged.messages.length) return { acknowledged: [], failed: 0 }
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
  if (failed.length) {
    // due now: the outbox deliverer retries them with its backoff
    await deps.prisma.$executeRaw`
      UPDATE "DeliveryOutbox" SET "nextAttemptAt" = now() AT TIME ZONE 'UTC', "attempts" = 1, "lastError" = ${firstError}
       WHERE "id" = ANY(${failed}::text[]) AND "deliveredAt" IS NULL`
  }
  return { acknowledged, failed: failed.length }
}
