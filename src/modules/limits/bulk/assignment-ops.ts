import { Prisma } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { mintPublicKeys } from '../../../platform/keys.js'
import {
  contentColumns, createAssignmentInTx, liveScopeKeysOf, prepareAssignmentContent, validateAssignmentContent,
  type AssignmentContent, type AssignmentRow, type PreparedContent, type ResolvedSubject,
} from '../assignments/service.js'
import type { AudienceRule } from '../assignments/body.js'
import { NO_REF, REF_COLUMN } from '../assignments/subjects.js'
import type { RuleSpec } from '../shared/rule-spec.js'
import type { BulkSubjectType } from './inputs.js'
import { SUBJECT_TABLE, type Subject } from './selector.js'

// The bulk side of the assignment service (../assignments/service.ts): every assignment rule — content
// validation, plan and target checks, the live-scope rule — is theirs; this file only adapts bulk subjects
// (id + key) to their ResolvedSubject and batches the live-scope lookup per chunk.

/** Bulk content validated for the selector's subject type (PLAN and CUSTOM only, ≤ 200 plan keys) and checked
 * against the database once (plans published and not retired, target references). */
export interface BulkContent {
  content: AssignmentContent
  prepared: PreparedContent
}

export function validateBulkContent(raw: unknown, subjectType: BulkSubjectType): AssignmentContent {
  return validateAssignmentContent(raw, { subjectType, bulk: true })
}

export async function prepareBulkContent(db: Tx, projectId: string, raw: unknown, subjectType: BulkSubjectType): Promise<BulkContent> {
  const content = validateBulkContent(raw, subjectType)
  return { content, prepared: await prepareAssignmentContent(db, projectId, content) }
}

export function resolvedSubject(type: BulkSubjectType, subject: Subject): ResolvedSubject {
  return { type, key: subject.name, ref: { ...NO_REF, [REF_COLUMN[type]!]: subject.id } }
}

export interface LiveBinding { id: string; bindingKey: string }

/** The live assignments already bound on the content's scope, by subject id: one query per batch. */
export async function findLiveBindings(db: Tx, projectId: string, type: BulkSubjectType, subjects: Subject[], content: AssignmentContent): Promise<Map<string, LiveBinding>> {
  const found = new Map<string, LiveBinding>()
  const scopeKeyOf = liveScopeKeysOf(projectId, type, content)
  for (let i = 0; i < subjects.length; i += 1000) {
    const batch = subjects.slice(i, i + 1000)
    const keyOf = new Map(batch.map((s) => [scopeKeyOf(s.id), s.id]))
    const rows = await db.limitAssignment.findMany({ where: { liveScopeKey: { in: [...keyOf.keys()] } }, select: { id: true, bindingKey: true, liveScopeKey: true } })
    for (const row of rows) found.set(keyOf.get(row.liveScopeKey!)!, { id: row.id, bindingKey: row.bindingKey })
  }
  return found
}

export interface BulkCreate {
  project: { id: string; name: string }
  type: BulkSubjectType
  subject: Subject
  bulk: BulkContent
  runId: string
  assignedBy: string
  replacedBindingKey?: string | null
}

/** A bulk assignment is created ACTIVE with source BULK and the run's id. */
export function createBulkAssignment(tx: Tx, c: BulkCreate): Promise<AssignmentRow> {
  return createAssignmentInTx(tx, {
    project: c.project,
    subject: resolvedSubject(c.type, c.subject),
    content: c.bulk.content,
    prepared: c.bulk.prepared,
    status: 'ACTIVE',
    source: 'BULK',
    assignedBy: c.assignedBy,
    bulkRunId: c.runId,
    replacedBindingKey: c.replacedBindingKey ?? null,
  })
}

/** Postgres types of the assignment columns contentColumns fills (anything not listed is text). */
const COLUMN_CASTS: Record<string, string> = {
  family: '"LimitFamily"', actorScope: '"LimitActorScope"', targetType: '"LimitTargetType"', mode: '"LimitContentMode"',
  targetHttpMethods: 'text[]', planKeys: 'text[]', customRuleSpec: 'jsonb', audienceRule: 'jsonb',
  cacheConnectionTimeoutInSeconds: 'integer', customMessageHttpStatusCode: 'integer', showRateLimitStatisticsInResponseHeader: 'boolean',
  validFrom: 'timestamp(3)', validUntil: 'timestamp(3)',
}

function constantColumn(name: string, value: unknown): Prisma.Sql {
  const cast = COLUMN_CASTS[name] ?? 'text'
  if (value === null || value === undefined || value === Prisma.DbNull || value === Prisma.JsonNull) return Prisma.sql`NULL::${Prisma.raw(cast)}`
  if (value instanceof Date) return Prisma.sql`(${value.toISOString()}::timestamptz AT TIME ZONE 'UTC')`
  if (cast === 'jsonb') return Prisma.sql`${JSON.stringify(value)}::jsonb`
  return Prisma.sql`${value}::${Prisma.raw(cast)}`
}

/** One subject of a chunk after the set insert: its current key (null: deleted since PREPARE) and the row created for it, if any. */
export interface SetInsertOutcome {
  subjectId: string
  currentKey: string | null
  created: { id: string; bindingKey: string } | null
}

/**
 * A chunk's subjects in one statement: the row createAssignmentInTx writes — content columns and live scope key
 * from the assignment service — for every subject that still exists and has no live assignment on the scope, its
 * plan links, and each subject's current key (a subject may have been renamed or deleted since PREPARE). Only the
 * binding key, the subject and the live scope key differ between rows; the content is constant.
 * - A subject deleted since PREPARE has no row: reported with currentKey null, nothing inserted for it.
 * - A scope already bound (before, or meanwhile by another writer: the unique live scope key) is not inserted
 *   (`ON CONFLICT DO NOTHING`) and comes back with created null: the caller decides it subject by subject.
 * - Anything else the database refuses (a subject deleted by another writer at this very moment, a constraint of
 *   an operator's) fails the statement as a whole: the caller runs it under a savepoint and then goes subject by subject.
 */
export async function createBulkAssignments(tx: Tx, c: Omit<BulkCreate, 'subject' | 'replacedBindingKey'>, subjects: Subject[]): Promise<SetInsertOutcome[]> {
  if (!subjects.length) return []
  const keys = mintPublicKeys('lb', subjects.length)
  const scopeKeyOf = liveScopeKeysOf(c.project.id, c.type, c.bulk.content)
  const scopeKeys = subjects.map((s) => scopeKeyOf(s.id))
  const rows = await tx.$queryRaw<{ subjectId: string; currentKey: string | null; id: string | null; bindingKey: string | null }[]>`
    WITH t AS (
      SELECT u.binding_key, u.subject_id, u.scope_key, u.ord, ${currentSubjectKeySql(c.type, Prisma.sql`u.subject_id`)} AS subject_key
        FROM unnest(${keys}::text[], ${subjects.map((s) => s.id)}::text[], ${scopeKeys}::text[]) WITH ORDINALITY AS u(binding_key, subject_id, scope_key, ord)
    ), ${bulkInsertSql(c, Prisma.sql`TRUE`)}
    SELECT t.subject_id AS "subjectId", t.subject_key AS "currentKey", ins."id", ins."bindingKey"
      FROM t LEFT JOIN ins ON ins."bindingKey" = t.binding_key ORDER BY t.ord`
  return rows.map((r) => ({ subjectId: r.subjectId, currentKey: r.currentKey, created: r.id && r.bindingKey ? { id: r.id, bindingKey: r.bindingKey } : null }))
}

/**
 * A subject's current key, looked up by primary key per subject: as a join, the planner hashes the whole subject
 * table for every chunk.
 */
export function currentSubjectKeySql(type: BulkSubjectType, subjectId: Prisma.Sql): Prisma.Sql {
  const { table, key } = SUBJECT_TABLE[type]
  return Prisma.sql`(SELECT x.${Prisma.raw(`"${key}"`)} FROM ${Prisma.raw(`"${table}"`)} x WHERE x."id" = ${subjectId})`
}

/**
 * The WITH items of a set insert of bulk assignments (ins, and links for PLAN content) from a WITH item `t` with
 * columns binding_key, subject_id, scope_key, subject_key (null: the subject is gone, nothing inserted) and ord:
 * the row createAssignmentInTx writes (content columns from the assignment service, ACTIVE, source BULK) for
 * every row of t where `when` holds, a bound scope left out (`ON CONFLICT DO NOTHING`). `ins` returns "id",
 * "bindingKey" and "runtimeRevision" of the rows created.
 */
export function bulkInsertSql(c: Omit<BulkCreate, 'subject' | 'replacedBindingKey'>, when: Prisma.Sql): Prisma.Sql {
  const columns = Object.entries(contentColumns(c.bulk.content, null))
  const refColumn = Prisma.raw(`"${REF_COLUMN[c.type]!}"`)
  const now = Prisma.sql`(now() AT TIME ZONE 'UTC')`
  const planIds = c.bulk.prepared.planIds
  const links = planIds.length
    ? Prisma.sql`, links AS (
        INSERT INTO "LimitAssignmentPlan" ("assignmentId", "planId", "position")
        SELECT ins."id", p.plan_id, (p.ord - 1)::integer FROM ins CROSS JOIN unnest(${planIds}::text[]) WITH ORDINALITY AS p(plan_id, ord))`
    : Prisma.empty
  return Prisma.sql`ins AS (
      INSERT INTO "LimitAssignment" ("id", "bindingKey", "projectId", "subjectType", ${refColumn}, ${Prisma.join(columns.map(([name]) => Prisma.raw(`"${name}"`)))},
                                     "source", "status", "assignedBy", "operatorOverride", "bulkRunId", "liveScopeKey", "assignedAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, t.binding_key, ${c.project.id}, ${c.type}::"LimitSubjectType", t.subject_id, ${Prisma.join(columns.map(([name, value]) => constantColumn(name, value)))},
             'BULK'::"LimitAssignmentSource", 'ACTIVE'::"LimitAssignmentStatus", ${c.assignedBy}, false, ${c.runId}, t.scope_key, ${now}, ${now}, ${now}
        FROM t WHERE t.subject_key IS NOT NULL AND ${when} ORDER BY t.ord
      ON CONFLICT ("liveScopeKey") DO NOTHING
      RETURNING "id", "bindingKey", "runtimeRevision"
    )${links}`
}

type StoredAssignment = Awaited<ReturnType<Tx['limitAssignment']['findUniqueOrThrow']>>

/** The validated content a stored row was created with (its columns read back), to reopen it as a new row. */
export function contentOfRow(row: StoredAssignment): AssignmentContent {
  return {
    family: row.family,
    actorScope: row.actorScope,
    target: {
      type: row.targetType,
      apiProxyName: row.targetApiProxyName,
      apiProxyGroupName: row.targetApiProxyGroupName,
      environmentName: row.targetEnvironmentName,
      targetKey: row.targetKey,
      httpMethods: row.targetHttpMethods,
    },
    mode: row.mode,
    planKeys: row.planKeys,
    customRuleSpec: (row.customRuleSpec ?? null) as RuleSpec | null,
    enforcement: {
      cacheErrorHandlingType: row.cacheErrorHandlingType as 'FAIL' | 'CONTINUE' | null,
      cacheConnectionTimeoutInSeconds: row.cacheConnectionTimeoutInSeconds,
      showRateLimitStatisticsInResponseHeader: row.showRateLimitStatisticsInResponseHeader,
      customMessageTemplate: row.customMessageTemplate,
      customMessageContentType: row.customMessageContentType,
      customMessageHttpStatusCode: row.customMessageHttpStatusCode,
    },
    validFrom: row.validFrom,
    validUntil: row.validUntil,
  }
}

/** Appended to the endedReason of a DRAFT a bulk REPLACE ended: its rollback reopens it as a DRAFT. */
export const REPLACED_DRAFT_NOTE = ' (was DRAFT)'

/**
 * Rollback reopens a row a bulk REPLACE ended as a new row (ACTIVE, or DRAFT when it was a DRAFT) with the same subject, content and source (the
 * ended row stays as it is: ENDED is final). The plans are checked again, so a plan retired meanwhile fails the subject.
 */
export async function reopenAssignment(tx: Tx, project: { id: string; name: string }, endedBindingKey: string, runId: string, assignedBy: string): Promise<AssignmentRow> {
  const row = await tx.limitAssignment.findUniqueOrThrow({ where: { bindingKey: endedBindingKey } })
  const ref = { credentialId: row.credentialId, applicationId: row.applicationId, apiClientId: row.apiClientId, organizationId: row.organizationId, apiProxyId: row.apiProxyId }
  return createAssignmentInTx(tx, {
    project,
    subject: { type: row.subjectType, key: null, ref },
    content: contentOfRow(row),
    audienceRule: (row.audienceRule ?? null) as AudienceRule | null,
    status: row.endedReason?.endsWith(REPLACED_DRAFT_NOTE) ? 'DRAFT' : 'ACTIVE',
    // the row comes back as what it was; bulkRunId names the rollback run only on rows of bulk origin
    source: row.source,
    assignedBy,
    bulkRunId: row.source === 'BULK' ? runId : null,
    replacedBindingKey: endedBindingKey,
    operatorOverride: row.operatorOverride,
  })
}
