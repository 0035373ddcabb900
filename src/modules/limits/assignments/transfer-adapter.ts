import { actorName } from '../../../platform/auth/actor.js'
import { DomainError, lifecycleConflict, malformedReason } from '../../../platform/errors/domain-error.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { AdapterContext, Advisory, ObjectRef, PortableObject, TransferAdapter } from '../../../platform/transfer/registry.js'
import { requireFamilyLicensed } from '../shared/licence.js'
import { validateAssignmentBody } from './body.js'
import { pushAssignments } from './compile.js'
import { checkNewAssignment, refuseImmutableChanges, updateAssignmentInTx } from './operations.js'
import { createAssignmentInTx } from './service.js'
import { assignmentInclude, assignmentView, type AssignmentRow } from './views.js'

/**
 * A project's live (DRAFT or ACTIVE) limit assignments (spec §2.13) travel as LIMIT_ASSIGNMENT objects, named by the
 * scope a live assignment occupies (unique: subject, family, actorScope and target), never by the bindingKey minted
 * per installation: `<subjectType>[/<subject key>]/<family>/<actorScope>/<target type>[/<target fields>]`, e.g.
 * `CONSUMER/alice/REQUEST_RATE/ANY/API_PROXY/orders-api`. `data`: the assignment view's editable part (plans by
 * planKey, subjects and proxies by natural key). An AUDIENCE_RULE assignment is its own scope: its subject key is the
 * label a file names it by (stored as audienceRuleName; one created by REST has none and is named by its bindingKey),
 * e.g. `AUDIENCE_RULE/partners/REQUEST_RATE/ANY/API_PROXY/orders-api`, and its data carries the audienceRule. Writes
 * go through the assignment service's rules (checkNewAssignment + createAssignmentInTx, updateAssignmentInTx); ACTIVE
 * rows are pushed after the commit.
 */
const TYPE = 'LIMIT_ASSIGNMENT'

const DATA_FIELDS = [
  'subject', 'family', 'actorScope', 'target', 'mode', 'planKeys', 'customRuleSpec', 'cacheErrorHandlingType', 'cacheConnectionTimeoutInSeconds',
  'showRateLimitStatisticsInResponseHeader', 'customMessageTemplate', 'customMessageContentType', 'customMessageHttpStatusCode', 'status', 'validFrom', 'validUntil',
] as const

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

const AUDIENCE_LABEL = /^[^/]{1,200}$/

/** The natural key of a scope: subject, family, actorScope and target (its fields in a fixed order). */
export function assignmentName(d: Record<string, unknown>): string {
  const subject = isRecord(d.subject) ? d.subject : {}
  const target = isRecord(d.target) ? d.target : {}
  const methods = Array.isArray(target.httpMethods) && target.httpMethods.length ? [[...target.httpMethods].map(String).sort().join(',')] : []
  const parts = [
    subject.type, subject.key, d.family, d.actorScope ?? 'ANY', target.type ?? 'NONE',
    target.apiProxyName, target.apiProxyGroupName, target.environmentName, target.targetKey, ...methods,
  ]
  return parts.filter((p) => p !== undefined && p !== null && p !== '').map(String).join('/')
}

/** The label of an AUDIENCE_RULE row: the file's, else its bindingKey (what its live scope holds). */
const audienceLabelOf = (row: Pick<AssignmentRow, 'audienceRuleName' | 'bindingKey'>) => row.audienceRuleName ?? row.bindingKey

function toPortable(row: AssignmentRow): PortableObject {
  const view = assignmentView(row) as Record<string, unknown>
  const data = Object.fromEntries(DATA_FIELDS.map((f) => [f, view[f]]))
  if (row.subjectType === 'AUDIENCE_RULE') {
    data.subject = { type: 'AUDIENCE_RULE', key: audienceLabelOf(row) }
    data.audienceRule = row.audienceRule ?? null
  }
  const dependencies: ObjectRef[] = (row.planKeys ?? []).map((k) => ({ type: 'LIMIT_PLAN', kind: null, name: k }))
  const subject = view.subject as { type: string; key?: string }
  if (subject.type === 'CONSUMER' && subject.key) dependencies.push({ type: 'CREDENTIAL', kind: null, name: subject.key })
  if (subject.type === 'APPLICATION' && subject.key) dependencies.push({ type: 'APPLICATION', kind: null, name: subject.key })
  if (subject.type === 'API_PROXY' && subject.key) dependencies.push({ type: 'API_PROXY', kind: null, name: subject.key })
  if (row.targetApiProxyName) dependencies.push({ type: 'API_PROXY', kind: null, name: row.targetApiProxyName })
  return { type: TYPE, kind: null, name: assignmentName(data), secrets: {}, dependencies, data }
}

export async function liveAssignments(ctx: AdapterContext): Promise<PortableObject[]> {
  const rows = await ctx.db.limitAssignment.findMany({
    where: { projectId: ctx.access.project.id, status: { in: ['DRAFT', 'ACTIVE'] } },
    include: assignmentInclude,
  })
  return rows.map(toPortable).sort((a, b) => a.name.localeCompare(b.name))
}

/** The live row a natural key names, or null. */
export async function liveAssignmentNamed(ctx: AdapterContext, name: string): Promise<AssignmentRow | null> {
  const rows = await ctx.db.limitAssignment.findMany({
    where: { projectId: ctx.access.project.id, status: { in: ['DRAFT', 'ACTIVE'] } },
    include: assignmentInclude,
  })
  return rows.find((r) => toPortable(r).name === name) ?? null
}

/** Field paths of the assignment body (content.*) as the file writes them (top level); a missing reference names its field. */
function inFilePaths(err: unknown): unknown {
  if (!(err instanceof DomainError)) return err
  const field = typeof err.params.field === 'string' ? err.params.field.replace(/^content\./, '')
    : 'plan' in err.params ? 'planKeys'
      : 'apiProxy' in err.params ? 'target.apiProxyName'
        : 'apiProxyGroup' in err.params ? 'target.apiProxyGroupName'
          : 'environment' in err.params ? 'target.environmentName'
            : 'subjectType' in err.params ? 'subject.key' : undefined
  return field === undefined ? err : new DomainError(err.kind, err.errorKey, err.message, { ...err.params, field })
}

async function writeAssignment(ctx: AdapterContext, object: PortableObject): Promise<void> {
  const d = object.data
  const { status, subject: fileSubject, audienceRule, ...content } = d
  // an AUDIENCE_RULE subject has no key in the assignment body: the file's key is the rule's label
  const label = isRecord(fileSubject) && fileSubject.type === 'AUDIENCE_RULE' ? fileSubject.key : undefined
  const subject = label === undefined ? fileSubject : { type: 'AUDIENCE_RULE' }
  if (label !== undefined && (typeof label !== 'string' || !AUDIENCE_LABEL.test(label))) {
    throw malformedReason('declarativeNameInvalid', 'the key of an AUDIENCE_RULE subject is the label the file names the rule by: 1 to 200 characters without \'/\'', { field: 'subject.key' })
  }
  const name = assignmentName(d)
  if (name !== object.name) {
    throw malformedReason('declarativeNameMismatch', `the name of an assignment is its scope: '${name}', not '${object.name}'`, { field: 'name' })
  }
  const projectId = ctx.access.project.id
  const stored = await liveAssignmentNamed(ctx, object.name)
  let row: AssignmentRow
  if (!stored) {
    const body = validateAssignmentBody({ subject, content, audienceRule, status: status ?? 'DRAFT' }, 'create')
    const checked = await checkNewAssignment(ctx.db, projectId, body)
    row = await createAssignmentInTx(ctx.db, {
      project: ctx.access.project, subject: checked.subject, content: body.content, prepared: checked.prepared, audienceRule: body.audienceRule,
      audienceRuleName: label ?? null, status: body.status, source: 'MANUAL', assignedBy: actorName(ctx.actor),
    })
  } else {
    const body = validateAssignmentBody({ subject, content, audienceRule }, 'update')
    refuseImmutableChanges(stored, body)
    if (status === 'DRAFT' && stored.status === 'ACTIVE') throw lifecycleConflict('limit.binding.notDraft', `Assignment '${object.name}' is ACTIVE: it cannot go back to DRAFT`, { field: 'status' })
    await requireFamilyLicensed(ctx.db, body.content.family)
    row = await updateAssignmentInTx(ctx.db, projectId, stored, body)
    if (status === 'ACTIVE' && row.status === 'DRAFT') {
      row = await ctx.db.limitAssignment.update({ where: { id: row.id }, data: { status: 'ACTIVE', version: { increment: 1 }, runtimeRevision: { increment: 1 } }, include: assignmentInclude })
    }
  }
  if (row.status === 'ACTIVE') toPush.set(ctx.access, [...(toPush.get(ctx.access) ?? []), row.id])
}

/** The assignments written per call, to push after the commit. */
const toPush = new WeakMap<ProjectAccess, string[]>()

export const limitAssignmentTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'IDENTITY',
  kinds: null,
  secretFields: [],
  scope: 'project',
  source: 'limits',

  async findByName(ctx, name) {
    return (await liveAssignments(ctx)).filter((o) => o.name === name)
  },
  async findManyByName(ctx, refs) {
    const wanted = new Set(refs.map((r) => r.name))
    return (await liveAssignments(ctx)).filter((o) => wanted.has(o.name))
  },
  findAll: (ctx) => liveAssignments(ctx),
  async listNames(ctx) {
    return (await liveAssignments(ctx)).map((o) => o.name)
  },
  packageFileName: (object) => `${object.name.replaceAll('/', '_')}.zip`,

  async write(ctx, object) {
    try {
      await writeAssignment(ctx, object)
    } catch (err) {
      throw inFilePaths(err)
    }
    return []
  },

  /** After the commit: the ACTIVE assignments written are compiled and pushed (what a worker misses, the outbox retries). */
  async afterImport(deps, access, written): Promise<Advisory[]> {
    const ids = [...new Set(toPush.get(access) ?? [])]
    toPush.delete(access)
    if (!ids.length) return []
    const summary = await pushAssignments(deps, ids)
    return summary.failedEnvironmentPushes ? [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: written.map((w) => w.name).sort(), reason: 'an environment did not acknowledge a limit assignment (the outbox retries it)' } }] : []
  },
}
