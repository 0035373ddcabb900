import { Prisma } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { lifecycleConflict } from '../../../platform/errors/domain-error.js'
import { canonicalHash, canonicalJson, sha256Hex } from '../../../platform/hashing/canonical.js'
import { mintPublicKey } from '../../../platform/keys.js'
import type { LimitAssignmentSource, LimitSubjectType } from '../shared/enums.js'
import type { AssignmentContent, AssignmentTarget, AudienceRule } from './body.js'
import { prepareAssignmentContent, type PreparedContent } from './references.js'
import { REF_COLUMN, type ResolvedSubject } from './subjects.js'
import { assignmentInclude, type AssignmentRow } from './views.js'

// The transactional building blocks of limit assignments (spec §2.13, §3.1), shared by the single-assignment
// operations (operations.ts) and bulk runs (../bulk). docs/limits.md lists these entry points.

export { validateAssignmentBody, validateAssignmentContent, validateAudienceRule } from './body.js'
export type { AssignmentBody, AssignmentContent, AudienceRule, ContentOptions } from './body.js'
export { prepareAssignmentContent, resolvePlanKeys, type PreparedContent } from './references.js'
export { resolveSubject, resolveSubjectKeys, subjectNotFound, type ResolvedSubject } from './subjects.js'
export { compileAssignment, pushAssignment, pushAssignments, type PushSummary } from './compile.js'
export { assignmentInclude, assignmentView, type AssignmentRow, type AssignmentView } from './views.js'

/** A new assignment for an already-resolved project and subject, with validated content. */
export interface NewAssignment {
  project: { id: string; name: string }
  subject: ResolvedSubject
  content: AssignmentContent
  /** from prepareAssignmentContent (plans and target references checked); computed when absent */
  prepared?: PreparedContent
  /** AUDIENCE_RULE subjects only */
  audienceRule?: AudienceRule | null
  /** AUDIENCE_RULE subjects of a declarative file only: the label it names the rule by (the live scope's subject instead of the bindingKey) */
  audienceRuleName?: string | null
  status: 'DRAFT' | 'ACTIVE'
  source: LimitAssignmentSource
  /** user name of the actor */
  assignedBy: string
  /** the bulk run's runId when source is BULK */
  bulkRunId?: string | null
  /** the bindingKey of the row a bulk REPLACE (or rollback reopen) superseded */
  replacedBindingKey?: string | null
  operatorOverride?: boolean
}

const sortedTarget = (t: AssignmentTarget) => ({ ...t, httpMethods: [...t.httpMethods].sort() })

/**
 * The scope a live assignment occupies: project, subject, family, target and actorScope. Two live (DRAFT or
 * ACTIVE) rows may not share it; the database holds it in LimitAssignment.liveScopeKey (unique, null once
 * ENDED). An AUDIENCE_RULE subject is its own scope (its subject key is its bindingKey, or the label a declarative
 * file names it by: two live rules of one label, family, actorScope and target are refused as any scope clash).
 */
export function liveScopeKeyOf(projectId: string, subject: ResolvedSubject, content: Pick<AssignmentContent, 'family' | 'target' | 'actorScope'>, bindingKey: string): string {
  const column = REF_COLUMN[subject.type]
  return canonicalHash(liveScope(projectId, subject.type, column ? subject.ref[column] : subject.type === 'AUDIENCE_RULE' ? bindingKey : null, content))
}

const liveScope = (projectId: string, subjectType: string, subject: string | null, content: Pick<AssignmentContent, 'family' | 'target' | 'actorScope'>) => ({
  projectId,
  subjectType,
  subject,
  family: content.family,
  actorScope: content.actorScope,
  target: sortedTarget(content.target),
})

/**
 * liveScopeKeyOf for many subjects of one type (with a reference column) and one content, by subject id: the
 * canonical form is built once and only the subject id changes in it, so a key costs one hash (bulk chunks key
 * 200 subjects at a time). Equal to liveScopeKeyOf for every id.
 */
export function liveScopeKeysOf(projectId: string, type: LimitSubjectType, content: Pick<AssignmentContent, 'family' | 'target' | 'actorScope'>): (subjectId: string) => string {
  if (!REF_COLUMN[type]) throw new Error(`liveScopeKeysOf: ${type} subjects have no reference column`)
  // the subject is a JSON string in the canonical form: split it there, and put each id's JSON string in its place
  const placeholder = '\u0000subject\u0000'
  const canonical = canonicalJson(liveScope(projectId, type, placeholder, content))
  const at = canonical.indexOf(JSON.stringify(placeholder))
  const before = canonical.slice(0, at)
  const after = canonical.slice(at + JSON.stringify(placeholder).length)
  return (subjectId) => sha256Hex(before + JSON.stringify(subjectId) + after)
}

/**
 * The live (DRAFT or ACTIVE) assignment already bound to this subject/family/target/actorScope, if any:
 * bulk KEEP_EXISTING skips it, REPLACE ends it first.
 */
export async function findLiveAssignment(db: Tx, projectId: string, subject: ResolvedSubject, content: Pick<AssignmentContent, 'family' | 'target' | 'actorScope'>): Promise<AssignmentRow | null> {
  if (subject.type === 'AUDIENCE_RULE') return null
  return db.limitAssignment.findUnique({ where: { liveScopeKey: liveScopeKeyOf(projectId, subject, content, '') }, include: assignmentInclude })
}

export const scopeAlreadyBound = (existingBindingKey: string) =>
  lifecycleConflict('limit.binding.scopeAlreadyBound', 'A live assignment already exists for this subject, family, target and actorScope', { existingBindingKey })

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002'

/** The stored columns of validated content (everything the update may replace, plus the counter identity). */
export function contentColumns(content: AssignmentContent, audienceRule: AudienceRule | null | undefined) {
  return {
    family: content.family,
    actorScope: content.actorScope,
    targetType: content.target.type,
    targetApiProxyName: content.target.apiProxyName,
    targetApiProxyGroupName: content.target.apiProxyGroupName,
    targetEnvironmentName: content.target.environmentName,
    targetKey: content.target.targetKey,
    targetHttpMethods: content.target.httpMethods,
    mode: content.mode,
    planKeys: content.planKeys,
    customRuleSpec: (content.customRuleSpec ?? Prisma.DbNull) as Prisma.InputJsonValue | typeof Prisma.DbNull,
    audienceRule: (audienceRule ?? Prisma.DbNull) as Prisma.InputJsonValue | typeof Prisma.DbNull,
    ...content.enforcement,
    validFrom: content.validFrom,
    validUntil: content.validUntil,
  }
}

/**
 * Creates one assignment inside the caller's transaction (bulk calls it per subject, 200 per chunk).
 * Checks plans and target references unless `prepared` is given, refuses a second live assignment on the
 * same scope (409 limit.binding.scopeAlreadyBound, params.existingBindingKey), and links the plans.
 * Does not push: push ACTIVE rows after the transaction commits (pushAssignment / pushAssignments).
 * Licence: the caller asks shared/licence.ts (bulk counts unlicensed subjects instead of refusing).
 */
export async function createAssignmentInTx(tx: Tx, a: NewAssignment): Promise<AssignmentRow> {
  const prepared = a.prepared ?? (await prepareAssignmentContent(tx, a.project.id, a.content))
  const bindingKey = mintPublicKey('lb')
  const liveScopeKey = liveScopeKeyOf(a.project.id, a.subject, a.content, a.audienceRuleName ?? bindingKey)
  const existing = await tx.limitAssignment.findUnique({ where: { liveScopeKey }, select: { bindingKey: true } })
  if (existing) throw scopeAlreadyBound(existing.bindingKey)
  try {
    return await tx.limitAssignment.create({
      data: {
        bindingKey,
        projectId: a.project.id,
        subjectType: a.subject.type,
        ...a.subject.ref,
        ...contentColumns(a.content, a.audienceRule),
        audienceRuleName: a.audienceRuleName ?? null,
        source: a.source,
        status: a.status,
        assignedBy: a.assignedBy,
        operatorOverride: a.operatorOverride ?? false,
        bulkRunId: a.bulkRunId ?? null,
        replacedBindingKey: a.replacedBindingKey ?? null,
        liveScopeKey,
        plans: { create: prepared.planIds.map((planId, position) => ({ planId, position })) },
      },
      include: assignmentInclude,
    })
  } catch (err) {
    // another instance bound the same scope between our check and insert
    if (isUniqueViolation(err)) throw lifecycleConflict('limit.binding.scopeAlreadyBound', 'A live assignment already exists for this subject, family, target and actorScope')
    throw err
  }
}

export interface EndAssignment {
  /** the row's internal id */
  id: string
  endedBy: string
  /** recorded as endedReason */
  reason: string
  /** optional fence: the version the caller saw (else 409 limit.binding.versionConflict) */
  expectedVersion?: number | null
  /** bulk rollback may end rows it created still in DRAFT; the end action may not */
  allowDraft?: boolean
}

/**
 * Ends an assignment inside the caller's transaction: ACTIVE (or DRAFT with allowDraft) → ENDED, reason
 * recorded, version bumped, its live scope released. Refusals (nothing written): ENDED →
 * limit.binding.alreadyEnded; DRAFT → limit.binding.notActive; moved-on version → limit.binding.versionConflict.
 * Push the UNDEPLOY after commit when the row was ACTIVE (pushAssignment / pushAssignments).
 */
export async function endAssignmentInTx(tx: Tx, e: EndAssignment): Promise<{ row: AssignmentRow; wasActive: boolean }> {
  const current = await tx.limitAssignment.findUniqueOrThrow({ where: { id: e.id }, select: { status: true, version: true, bindingKey: true } })
  const fromStatuses: ('ACTIVE' | 'DRAFT')[] = e.allowDraft ? ['ACTIVE', 'DRAFT'] : ['ACTIVE']
  if (current.status === 'ENDED') throw lifecycleConflict('limit.binding.alreadyEnded', `Assignment '${current.bindingKey}' is already ENDED`)
  if (!fromStatuses.includes(current.status)) throw lifecycleConflict('limit.binding.notActive', `Assignment '${current.bindingKey}' is ${current.status}, not ACTIVE`)
  if (e.expectedVersion != null && e.expectedVersion !== current.version) throw versionFence(current.bindingKey, e.expectedVersion, current.version)
  const { count } = await tx.limitAssignment.updateMany({
    where: { id: e.id, status: current.status, version: current.version },
    data: { status: 'ENDED', endedAt: new Date(), endedBy: e.endedBy, endedReason: e.reason, liveScopeKey: null, version: { increment: 1 }, runtimeRevision: { increment: 1 } },
  })
  if (count === 0) throw lifecycleConflict('limit.binding.conflict', `Assignment '${current.bindingKey}' changed meanwhile; read it again`)
  const row = await tx.limitAssignment.findUniqueOrThrow({ where: { id: e.id }, include: assignmentInclude })
  return { row, wasActive: current.status === 'ACTIVE' }
}

/** Activate and end fence on an optional version: a moved-on version is a lifecycle conflict (spec §4.8). */
export const versionFence = (bindingKey: string, expected: number, current: number) =>
  lifecycleConflict('limit.binding.versionConflict', `Assignment '${bindingKey}' is at version ${current}, not ${expected}`, { expected, current })
