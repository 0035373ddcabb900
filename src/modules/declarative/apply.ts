import type { Actor } from '../../platform/auth/actor.js'
import { actorName } from '../../platform/auth/actor.js'
import type { AuditSurface } from '../../generated/prisma/client.js'
import type { Deps, Tx } from '../../platform/context.js'
import { canonicallyEqual } from '../../platform/hashing/canonical.js'
import { DomainError, malformedReason, notFound } from '../../platform/errors/domain-error.js'
import { advisoryLine } from '../transfer/import.js'
import { refusalsOf, type AdapterContext, type Advisory, type ImportWriteOptions, type PortableObject, type TransferAdapter } from '../../platform/transfer/registry.js'
import { adapterOf, collectionByKey, type Collection } from './collections.js'
import { lifecycleOf, type Removed } from './lifecycle.js'
import { liveObject, readNames, type LiveObject, type LiveSet } from './live.js'
import { currentRevision, declarativeContext, listedCollections, summaryOf, type PlanContent, type PlannedWrite, type PlanProblem } from './plan.js'

/**
 * POST …/declarative-plans/{id}/apply: exactly that plan, in one transaction, or nothing. The live objects are read
 * again inside the transaction: a different baseRevision is a stale plan (409, nothing written). Every object goes
 * through its transfer adapter's checks and write (the same rules as the REST writes) under a savepoint, so every
 * refused object is reported (with its field path) before the whole transaction rolls back. After the commit the
 * written objects are pushed as imports push them, the deleted ones undeployed.
 */

export interface PushOutcome { type: string; name: string; success: boolean; message?: string }

export interface ApplyResult {
  formatVersion: 1
  planId: string
  project: string
  namespace: string | null
  mode: 'apply' | 'sync'
  applied: boolean
  changeReference: string | null
  summary: { create: number; update: number; delete: number }
  pushes: PushOutcome[]
  pushFailed: boolean
  advisories: string[]
}

/** How the call came in: its audit events carry the door's operation name and correlation id, as every write's do. */
export interface ApplyOptions { changeReference?: string; idempotencyKey?: string; surface: AuditSurface; operation: string; correlationId: string }

const AUDIT_COLUMNS = ['surface', 'actor', 'projectName', 'operation', 'objectType', 'objectName', 'outcome', 'httpStatus', 'correlationId', 'declarativePlanId', 'declarativeAction', 'changeReference'] as const

/**
 * One audit event per change, inside the apply's transaction: one INSERT … SELECT per 5,000 events from one JSON
 * parameter (as the bootstrap records its events): 500-row VALUES lists of 12 parameters a row were 23 statements of
 * 6,000 parameters for a sync of 11,200 objects.
 */
async function auditChanges(db: Tx, rows: Record<(typeof AUDIT_COLUMNS)[number], string | null>[]) {
  const columns = AUDIT_COLUMNS.map((c) => `"${c}"`).join(', ')
  const selected = AUDIT_COLUMNS.map((c) => (c === 'surface' ? `"surface"::"AuditSurface"` : `"${c}"`)).join(', ')
  const types = AUDIT_COLUMNS.map((c) => `"${c}" ${c === 'httpStatus' ? 'int' : 'text'}`).join(', ')
  for (let i = 0; i < rows.length; i += 5000) {
    await db.$executeRawUnsafe(`INSERT INTO "AuditEvent" (${columns}) SELECT ${selected} FROM jsonb_to_recordset($1::jsonb) AS e(${types})`, JSON.stringify(rows.slice(i, i + 5000)))
  }
}

/** Objects per set-based write (one savepoint each). */
const WRITE_BATCH = 1000

const objectError = (type: string, name: string, path: string, e: { reason: string; message: string; field?: string }): ObjectError => ({
  type, name, path: e.field ? `${path}.${e.field.replace(/^.*?:\s*/, '')}` : path, reason: e.reason, message: e.message,
})

const errorOf = (err: unknown): { reason: string; message: string; field?: string } => {
  if (err instanceof DomainError) {
    const reason = typeof err.params.reason === 'string' ? err.params.reason : err.errorKey
    return { reason, message: err.message, ...(typeof err.params.field === 'string' ? { field: err.params.field } : {}) }
  }
  if ((err as { code?: string } | null)?.code === 'P2002') return { reason: 'nameAlreadyExists', message: 'an object with this name or key already exists' }
  throw err
}

async function loadPlan(deps: Deps, projectId: string, projectName: string, planId: string) {
  const plan = /^[0-9a-f-]{36}$/i.test(planId) ? await deps.prisma.declarativePlan.findUnique({ where: { id: planId } }) : null
  if (!plan || plan.projectId !== projectId) throw notFound(`Declarative plan '${planId}' not found in project '${projectName}'`, { declarativePlan: planId })
  return plan
}

export async function applyPlan(deps: Deps, actor: Actor, projectName: string, planId: string, options: ApplyOptions): Promise<ApplyResult> {
  const ctx = await declarativeContext(deps, actor, projectName)
  const plan = await loadPlan(deps, ctx.access.project.id, projectName, planId)
  const key = options.idempotencyKey?.trim() || null
  if (plan.appliedAt) {
    if (key && plan.idempotencyKey === key && plan.result) return plan.result as unknown as ApplyResult
    throw new DomainError('conflict', 'dependencyConflict', `Declarative plan '${planId}' was already applied; plan again`, { reason: 'declarativePlanAlreadyApplied', declarativePlan: planId })
  }
  const content = plan.content as unknown as PlanContent
  const list = listedCollections({ collections: content.collections })
  requireManage(ctx, list)
  const mode = plan.mode === 'SYNC' ? 'sync' : 'apply'
  const changeReference = options.changeReference?.trim().slice(0, 200) || null
  const removed: { collection: string; removed: Removed }[] = []
  const written: { collection: Collection; name: string }[] = []
  const advisories: Advisory[] = []

  await deps.prisma.$transaction(async (tx) => {
    const txCtx: AdapterContext = { ...ctx, db: tx }
    const claimed = await tx.declarativePlan.updateMany({ where: { id: plan.id, appliedAt: null }, data: { appliedAt: new Date(), idempotencyKey: key } })
    if (claimed.count !== 1) throw new DomainError('conflict', 'dependencyConflict', `Declarative plan '${planId}' was already applied; plan again`, { reason: 'declarativePlanAlreadyApplied', declarativePlan: planId })
    const { baseRevision, live } = await currentRevision(txCtx, list)
    if (baseRevision !== plan.baseRevision) {
      throw new DomainError('conflict', 'dependencyConflict', 'The project changed since the plan was made (its baseRevision no longer matches): plan again', {
        reason: 'declarativePlanStale', expectedBaseRevision: plan.baseRevision, currentBaseRevision: baseRevision,
      })
    }
    if (!content.changes.length) {
      // nothing to write, no audit event, no push; the drift baseline becomes what the file and the project now agree
      // on when it differs (objects changed outside the file and then written into it), else it is left as it is
      await recordState(txCtx, plan.id, plan.namespace, mode, content, actorName(actor), live)
      return
    }
    const created: CreatedForms = new Map()
    const errors = await writePlanned(txCtx, content, written, removed, advisories, created)
    if (errors.length) {
      throw malformedReason('declarativeApplyRefused', `The plan was not applied (nothing written): ${errors.slice(0, 20).map((e) => `${e.path}: ${e.message}`).join('; ')}`, {
        field: errors[0]!.path, errors: errors.slice(0, 500),
      })
    }
    const who = actorName(actor)
    await auditChanges(tx, content.changes.map((change) => ({
      surface: options.surface, actor: who, projectName, operation: options.operation,
      objectType: change.type, objectName: change.name, outcome: 'SUCCEEDED', httpStatus: '200', correlationId: options.correlationId,
      declarativePlanId: plan.id, declarativeAction: change.action, changeReference,
    })))
    await recordState(txCtx, plan.id, plan.namespace, mode, content, who, live, created)
  }, { maxWait: 30_000, timeout: 600_000 })

  const pushes = content.changes.length ? await pushAfterCommit(deps, ctx, written, removed) : []
  const result: ApplyResult = {
    formatVersion: 1, planId: plan.id, project: projectName, namespace: plan.namespace || null, mode, applied: content.changes.length > 0, changeReference,
    summary: summaryOf(content.changes), pushes, pushFailed: pushes.some((p) => !p.success), advisories: advisories.map(advisoryLine),
  }
  // one JSON text cast to jsonb, as the drift baseline: Prisma's Json parameter took 0.9 s for 11,200 pushes (§7's sync)
  await deps.prisma.$executeRaw`UPDATE "DeclarativePlan" SET result = ${JSON.stringify(result)}::jsonb WHERE id = ${plan.id}`
  return result
}

export type ObjectError = PlanProblem & { type: string; name: string }

/**
 * Writes a plan's objects and deletes inside the caller's transaction, each under a savepoint: the errors of every
 * refused object (field paths), or none. The caller rolls back when there are errors (or always: a validation).
 */
export async function writePlanned(
  txCtx: AdapterContext, content: PlanContent, written: { collection: Collection; name: string }[], removed: { collection: string; removed: Removed }[], advisories: Advisory[] = [],
  created?: CreatedForms,
): Promise<ObjectError[]> {
  const tx = txCtx.db
  const deps = txCtx.deps
  const targetEnvironments = (await tx.projectEnvironment.findMany({ where: { projectId: txCtx.access.project.id }, include: { environment: true } })).map((l) => l.environment.name)
  const writeOptions: ImportWriteOptions = {
    certEnvironmentMergeMethod: 'OVERWRITE_ALL', certEnvironmentUncoveredAction: 'FILL_FROM_PACKAGE', targetEnvironments,
    ...(created ? { created: (o: PortableObject) => created.set(`${o.type}\u0000${o.name}`, o) } : {}),
  }
  const errors: ObjectError[] = []
  const attempt = async (type: string, name: string, path: string, step: () => Promise<void>) => {
    await tx.$executeRawUnsafe('SAVEPOINT declarative_object')
    try {
      await step()
      await tx.$executeRawUnsafe('RELEASE SAVEPOINT declarative_object')
    } catch (err) {
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT declarative_object')
      errors.push(objectError(type, name, path, errorOf(err)))
    }
  }
  const portableOf = (c: Collection, w: PlannedWrite): PortableObject => ({
    type: c.type, kind: c.kind, name: w.name, data: w.data, dependencies: [],
    secrets: Object.fromEntries(Object.entries(w.sealedSecrets).map(([k, v]) => [k, deps.keyring.decrypt(v)])),
    uncarriedSecrets: w.keptSecrets,
  })
  const writeOne = async (c: Collection, w: PlannedWrite) => {
    const adapter = adapterOf(c)
    await attempt(c.key, w.name, `${c.key}[${w.index}]`, async () => {
      if (w.renamedFrom) await lifecycleOf(c.type)!.rename!(txCtx, c.kind, w.renamedFrom, w.name)
      const refusal = await adapter.checkImport?.(txCtx, portableOf(c, w))
      if (refusal) throw malformedReason(refusal.code, refusal.detail)
      advisories.push(...(await adapter.write(txCtx, portableOf(c, w), w.existing, writeOptions)))
    })
  }
  /**
   * Consecutive objects of one collection (no rename) in one set-based writeMany under one savepoint. A batch it
   * refuses reports each refused object; any other failure is retried object by object, so the error still names
   * its object.
   */
  const writeBatch = async (c: Collection, batch: PlannedWrite[]) => {
    await tx.$executeRawUnsafe('SAVEPOINT declarative_batch')
    try {
      advisories.push(...(await adapterOf(c).writeMany!(txCtx, batch.map((w) => ({ object: portableOf(c, w), existing: w.existing })), writeOptions)))
      await tx.$executeRawUnsafe('RELEASE SAVEPOINT declarative_batch')
    } catch (err) {
      await tx.$executeRawUnsafe('ROLLBACK TO SAVEPOINT declarative_batch')
      for (const w of batch) created?.delete(`${c.type}\u0000${w.name}`)
      const refusals = refusalsOf(err)
      if (!refusals) {
        errorOf(err) // anything but a refusal of the data is not the file's fault: thrown
        for (const w of batch) await writeOne(c, w)
        return
      }
      const byName = new Map(batch.map((w) => [w.name, w]))
      for (const r of refusals) {
        const w = byName.get(r.name)
        errors.push(objectError(c.key, r.name, `${c.key}[${w?.index ?? '?'}]`, { reason: r.code, message: r.detail, field: r.field }))
      }
    }
  }
  const writes = content.writes
  for (let i = 0; i < writes.length; ) {
    const c = collectionByKey(writes[i]!.collection)!
    let j = i + 1
    const batchable = (w: PlannedWrite) => w.collection === c.key && !w.renamedFrom
    if (adapterOf(c).writeMany && batchable(writes[i]!)) while (j < writes.length && j - i < WRITE_BATCH && batchable(writes[j]!)) j++
    if (j - i > 1) await writeBatch(c, writes.slice(i, j))
    else await writeOne(c, writes[i]!)
    for (const w of writes.slice(i, j)) written.push({ collection: c, name: w.name })
    i = j
  }
  for (const d of content.deletes) {
    const c = collectionByKey(d.collection)!
    await attempt(c.key, d.name, `${c.key}.${d.name}`, async () => {
      removed.push({ collection: c.key, removed: await lifecycleOf(c.type)!.remove(txCtx, c.kind, d.name) })
    })
  }
  return errors
}

function requireManage(ctx: AdapterContext, list: Collection[]) {
  for (const c of list) {
    const category = adapterOf(c).category
    if (!ctx.access.systemAdmin && !['MANAGE', 'EXPORT_IMPORT'].some((l) => ctx.access.grants.has(`${category}:${l}`) || ctx.access.grants.has(`PROJECT_MANAGEMENT:${l}`))) {
      throw new DomainError('permission', 'permissionDenied', `User lacks permission ${category} MANAGE in project '${ctx.access.project.name}'`, { category, level: 'MANAGE' })
    }
  }
}

/** The stored forms of the objects the apply created, as their adapters told them (ImportWriteOptions.created), by type and name. */
export type CreatedForms = Map<string, PortableObject>

/**
 * The live objects of collection c that the apply created and whose stored form its adapter told (no need to read
 * them back), as they stand after the whole plan was written. Only credentials are told, and a later write of the
 * same plan can change a credential: an application created by the plan takes its consumers (their applicationName
 * becomes its name, as insertApplications sets it); an application updated, anything deleted or renamed may change
 * them otherwise, so then none is told: the created credentials are read back, as are the existing ones the writes
 * link or unlink (linkedByWrites), not every credential.
 */
function formsOf(ctx: AdapterContext, c: Collection, content: PlanContent, created: CreatedForms): Map<string, LiveObject> {
  const out = new Map<string, LiveObject>()
  if (c.type !== 'CREDENTIAL' || !created.size) return out
  if (content.deletes.length || content.writes.some((w) => w.renamedFrom || (w.collection === 'applications' && w.existing))) return out
  const consumerOf = new Map<string, string>()
  for (const w of content.writes) {
    if (w.collection !== 'applications' || !Array.isArray(w.data.consumers)) continue
    for (const u of w.data.consumers) if (typeof u === 'string') consumerOf.set(u, w.name)
  }
  for (const w of content.writes) {
    if (w.collection !== c.key || w.existing) continue
    const form = created.get(`${c.type}\u0000${w.name}`)
    if (!form) continue
    const app = consumerOf.get(w.name)
    out.set(w.name, liveObject(ctx, app === undefined ? form : { ...form, data: { ...form.data, applicationName: app } }))
  }
  return out
}

/**
 * Objects the plan did not write whose stored form its writes changed all the same, as `collection\0name`: the
 * consumer link is one fact that both sides show (a credential's applicationName, an application's consumers), so a
 * written or deleted application changes the credentials it lists or listed, and a written or deleted credential the
 * applications it joins or leaves.
 */
function linkedByWrites(content: PlanContent, live: LiveSet): Set<string> {
  const credentials = live.get('credentials')
  const applications = live.get('applications')
  const out = new Set<string>()
  const appNames = new Set<string>()
  const appOf = (name: string | undefined) => {
    const app = name === undefined ? undefined : credentials?.get(name)?.portable.data.applicationName
    return typeof app === 'string' ? app : undefined
  }
  const consumersOf = (name: string | undefined) => {
    const listed = name === undefined ? undefined : applications?.get(name)?.portable.data.consumers
    return Array.isArray(listed) ? listed.filter((u): u is string => typeof u === 'string') : []
  }
  for (const w of content.writes) {
    if (w.collection === 'applications') {
      appNames.add(w.name)
      if (w.renamedFrom) appNames.add(w.renamedFrom)
      for (const u of [...(Array.isArray(w.data.consumers) ? w.data.consumers : []), ...consumersOf(w.renamedFrom ?? w.name)]) if (typeof u === 'string') out.add(`credentials\u0000${u}`)
    } else if (w.collection === 'credentials') {
      for (const app of [w.data.applicationName, appOf(w.renamedFrom ?? w.name)]) if (typeof app === 'string') out.add(`applications\u0000${app}`)
    }
  }
  for (const d of content.deletes) {
    if (d.collection === 'applications') {
      appNames.add(d.name)
      for (const u of consumersOf(d.name)) out.add(`credentials\u0000${u}`)
    } else if (d.collection === 'credentials') {
      const app = appOf(d.name)
      if (app !== undefined) out.add(`applications\u0000${app}`)
    }
  }
  if (appNames.size) for (const [name, c] of credentials ?? []) if (appNames.has(c.portable.data.applicationName as string)) out.add(`credentials\u0000${name}`)
  return out
}

/**
 * The namespace's state after the apply: each object it owns as it now stands (the drift baseline). What the plan
 * did not write is as the apply read it (live); only the written objects, and kept ones of unlisted collections,
 * are read again.
 */
async function recordState(ctx: AdapterContext, planId: string, namespace: string, mode: 'apply' | 'sync', content: PlanContent, appliedBy: string, live: LiveSet, created: CreatedForms = new Map()) {
  const previous = await ctx.db.declarativeState.findUnique({ where: { projectId_namespace: { projectId: ctx.access.project.id, namespace } } })
  const kept = mode === 'apply' && previous ? (previous.objects as unknown as StateObject[]) : []
  const owned = new Map<string, Set<string>>()
  for (const o of kept) owned.set(o.collection, (owned.get(o.collection) ?? new Set()).add(o.name))
  for (const [key, names] of Object.entries(content.owned)) for (const n of names) owned.set(key, (owned.get(key) ?? new Set()).add(n))
  const rewritten = new Set(content.writes.map((w) => `${w.collection}\u0000${w.name}`))
  const linked = linkedByWrites(content, live)
  const renames = content.writes.some((w) => w.renamedFrom)
  const objects: StateObject[] = []
  for (const [key, names] of owned) {
    const c = collectionByKey(key)
    if (!c) continue
    const read = live.get(key)
    // a rename can change how other objects name the renamed one (an RLCL's credentials): everything is read again
    const known = formsOf(ctx, c, content, created)
    const unread = [...names].filter((n) => !known.has(n) && (renames || !read?.has(n) || rewritten.has(`${key}\u0000${n}`) || linked.has(`${key}\u0000${n}`)))
    const fresh = unread.length ? await readNames(ctx, c, unread) : new Map<string, LiveObject>()
    const stale = new Set(unread)
    for (const name of names) {
      const o = known.get(name) ?? (stale.has(name) ? fresh.get(name) : read!.get(name))
      if (o) objects.push({ collection: key, name, fingerprint: o.fingerprint, data: o.portable.data, secrets: o.secretPrints })
    }
  }
  if (previous && canonicallyEqual(previous.objects, objects)) return
  // one JSON text cast to jsonb: Prisma's Json parameter costs about a quarter of a second per 2,000 objects here
  await ctx.db.$executeRaw`
    INSERT INTO "DeclarativeState" ("projectId", namespace, "planId", objects, "appliedBy", "appliedAt")
    VALUES (${ctx.access.project.id}, ${namespace}, ${planId}, ${JSON.stringify(objects)}::jsonb, ${appliedBy}, (now() AT TIME ZONE 'UTC'))
    ON CONFLICT ("projectId", namespace) DO UPDATE SET "planId" = EXCLUDED."planId", objects = EXCLUDED.objects, "appliedBy" = EXCLUDED."appliedBy", "appliedAt" = EXCLUDED."appliedAt"`
}

export interface StateObject { collection: string; name: string; fingerprint: string; data: Record<string, unknown>; secrets: Record<string, string> }

async function pushAfterCommit(deps: Deps, ctx: AdapterContext, written: { collection: Collection; name: string }[], removed: { collection: string; removed: Removed }[]): Promise<PushOutcome[]> {
  const pushes: PushOutcome[] = []
  const byAdapter = new Map<TransferAdapter, { collection: Collection; name: string }[]>()
  for (const w of written) {
    const adapter = adapterOf(w.collection)
    // appended in place: a copy per object was quadratic in a sync of 10,000 objects
    const list = byAdapter.get(adapter)
    if (list) list.push(w)
    else byAdapter.set(adapter, [w])
  }
  for (const [adapter, objects] of byAdapter) {
    if (!adapter.afterImport) continue
    const advisories = await adapter.afterImport(deps, ctx.access, objects.map((o) => ({ type: adapter.type, kind: o.collection.kind, name: o.name })))
    const failed = new Map<string, string>()
    for (const a of advisories) {
      if (a.key !== 'deployRequired') continue
      for (const n of (a.params.names as string[] | undefined) ?? []) failed.set(n, String(a.params.reason ?? 'not deployed'))
    }
    for (const o of objects) pushes.push({ type: o.collection.key, name: o.name, success: !failed.has(o.name), ...(failed.has(o.name) ? { message: failed.get(o.name) } : {}) })
  }
  for (const { collection, removed: r } of removed) {
    const outcomes = await r.undeploy(deps)
    if (!outcomes.length) continue
    const failedOutcome = outcomes.find((o) => !o.success)
    pushes.push({ type: collection, name: r.name, success: !failedOutcome, ...(failedOutcome ? { message: failedOutcome.message } : {}) })
  }
  return pushes
}
