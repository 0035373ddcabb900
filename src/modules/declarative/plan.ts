import crypto from 'node:crypto'
import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import { actorName } from '../../platform/auth/actor.js'
import type { Deps, Tx } from '../../platform/context.js'
import { malformedReason } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { canonicalHash } from '../../platform/hashing/canonical.js'
import { refusePlatformScope } from '../../platform/scope/project-scope.js'
import { ensureTransferAdapters } from '../transfer/adapters/index.js'
import { adapterContext } from '../transfer/selection.js'
import type { AdapterContext } from '../../platform/transfer/registry.js'
import { collections, type Collection } from './collections.js'
import { parseStateDocument, STATE_FORMAT_VERSION, type DocumentObject, type StateDocument } from './document.js'
import { lifecycleOf } from './lifecycle.js'
import { changedPaths, overlay, readLive, requireCollections, revisionOf, secretPrintsOf, type LiveSet } from './live.js'

/** POST …/declarative-plans: what a state document changes in a project, pinned to what it read (baseRevision). */

export const planInput = z
  .object({
    formatVersion: z.literal(STATE_FORMAT_VERSION).optional(),
    mode: z.enum(['apply', 'sync'], { error: 'must be apply or sync' }).default('apply'),
    document: z.record(z.string(), z.unknown()).describe('the state document (docs/declarative.md; JSON Schema at /apiops/declarative/schema.json)'),
  })
  .strict()

export interface FieldChange { field: string; before?: unknown; after?: unknown; sensitive?: true }

export interface PlanChange {
  action: 'create' | 'update' | 'delete'
  /** the collection name */
  type: string
  name: string
  renamedFrom?: string
  fields: string[]
  /** what each non-secret field was and becomes; a secret field only says it changed */
  details: FieldChange[]
  sensitive?: true
}

export interface PlanView {
  formatVersion: 1
  id: string
  project: string
  namespace: string | null
  mode: 'apply' | 'sync'
  baseRevision: string
  collections: string[]
  changes: PlanChange[]
  summary: { create: number; update: number; delete: number }
}

/** What the apply writes, kept with the plan (secrets sealed at rest). */
export interface PlannedWrite {
  collection: string
  name: string
  /** the object's position in its collection of the document (error paths) */
  index: number
  renamedFrom?: string
  existing: boolean
  data: Record<string, unknown>
  sealedSecrets: Record<string, string>
  /** secret names the stored object holds and the file leaves out: kept as stored */
  keptSecrets: string[]
}

export interface PlanContent {
  collections: string[]
  changes: PlanChange[]
  writes: PlannedWrite[]
  deletes: { collection: string; name: string }[]
  /** the objects the namespace owns after the apply, by collection */
  owned: Record<string, string[]>
}

export interface PlanProblem { path: string; reason: string; message: string }

/** The project's context for a declarative call (the platform project is refused, as for transfers). */
export async function declarativeContext(deps: Deps, actor: Actor, projectName: string): Promise<AdapterContext> {
  refusePlatformScope(projectName)
  await ensureTransferAdapters()
  return adapterContext(deps, actor, projectName)
}

export const listedCollections = (doc: StateDocument | { collections: string[] }): Collection[] =>
  'collections' in doc && Array.isArray(doc.collections)
    ? collections().filter((c) => (doc.collections as string[]).includes(c.key))
    : collections().filter((c) => (doc as Record<string, unknown>)[c.key] !== undefined)

/** Ownership of the project's objects by namespace: `collection\0name` → namespace (named namespaces only). */
export async function readOwnership(db: Tx, projectId: string) {
  const states = await db.declarativeState.findMany({ where: { projectId }, select: { namespace: true, planId: true, objects: true } })
  const owner = new Map<string, string>()
  for (const s of states) {
    if (!s.namespace) continue
    for (const o of s.objects as { collection: string; name: string }[]) owner.set(`${o.collection}\u0000${o.name}`, s.namespace)
  }
  const mark = canonicalHash(states.map((s) => [s.namespace, s.planId]).sort())
  return { owner, mark }
}

/** The baseRevision of a project for a plan's collections, as planning and applying compute it. */
export async function currentRevision(ctx: AdapterContext, list: Collection[]): Promise<{ live: LiveSet; baseRevision: string; owner: Map<string, string> }> {
  const live = await readLive(ctx, list)
  const { owner, mark } = await readOwnership(ctx.db, ctx.access.project.id)
  return { live, baseRevision: revisionOf(live, mark), owner }
}

function splitObject(c: Collection, obj: DocumentObject) {
  let data: Record<string, unknown> = {}
  let secrets: Record<string, string> = {}
  for (const [k, v] of Object.entries(obj)) {
    if (k === c.nameField || k === 'renamedFrom' || k === 'managedBy') continue
    if (c.secretFields.includes(k) && !c.splitSecrets) {
      if (typeof v === 'string' && v !== '') secrets[k] = v
      continue
    }
    data[k] = v
  }
  if (c.splitSecrets) ({ data, secrets } = c.splitSecrets(data))
  return { name: String(obj[c.nameField]), renamedFrom: typeof obj.renamedFrom === 'string' ? obj.renamedFrom : undefined, data, secrets }
}

const valueOf = (v: unknown, path: string) => path.split('.').reduce<unknown>((acc, k) => (acc && typeof acc === 'object' ? (acc as Record<string, unknown>)[k] : undefined), v)

/** Computes the changes of a document against the live objects; problems are collected, not thrown. */
export function computePlan(ctx: AdapterContext, doc: StateDocument, mode: 'apply' | 'sync', namespace: string, live: LiveSet, owner: Map<string, string>) {
  const problems: PlanProblem[] = []
  const content: PlanContent = { collections: [], changes: [], writes: [], deletes: [], owned: {} }
  const deletes: PlanChange[] = []
  for (const c of listedCollections(doc)) {
    content.collections.push(c.key)
    const objects = ((doc as Record<string, unknown>)[c.key] ?? []) as DocumentObject[]
    const current = live.get(c.key)!
    const named = new Set<string>()
    const renamedAway = new Set<string>()
    objects.forEach((obj, i) => {
      const path = `${c.key}[${i}]`
      const o = splitObject(c, obj)
      if (named.has(o.name)) return problems.push({ path: `${path}.${c.nameField}`, reason: 'declarativeDuplicateName', message: `'${o.name}' appears twice in ${c.key}` })
      named.add(o.name)
      let base = current.get(o.name)
      let renamedFrom: string | undefined
      if (!base && o.renamedFrom && current.has(o.renamedFrom)) {
        if (!lifecycleOf(c.type)?.rename) return problems.push({ path: `${path}.renamedFrom`, reason: 'declarativeRenameUnsupported', message: `${c.key} cannot be renamed by a plan` })
        base = current.get(o.renamedFrom)
        renamedFrom = o.renamedFrom
        renamedAway.add(o.renamedFrom)
      }
      const holder = owner.get(`${c.key}\u0000${renamedFrom ?? o.name}`)
      if (namespace && base && holder && holder !== namespace) {
        return problems.push({ path, reason: 'declarativeOwnershipConflict', message: `${c.key} '${o.name}' is managed by namespace '${holder}'` })
      }
      const secretPrints = secretPrintsOf(ctx, o.secrets)
      // sealed only for an object the plan writes (a no-change plan of thousands seals nothing)
      const sealed = () => Object.fromEntries(Object.entries(o.secrets).map(([k, v]) => [k, ctx.deps.keyring.encrypt(v)]))
      const normalize = c.normalize ?? ((d: Record<string, unknown>) => d)
      if (base) {
        const desired = normalize(overlay(base.portable.data, o.data))
        const fields = changedPaths(base.portable.data, desired)
        const details: FieldChange[] = fields.map((f) => ({ field: f, before: valueOf(base.portable.data, f) ?? null, after: valueOf(desired, f) ?? null }))
        const secretFields = Object.keys(secretPrints).filter((k) => secretPrints[k] !== base.secretPrints[k])
        if (renamedFrom) details.unshift({ field: c.nameField, before: renamedFrom, after: o.name })
        details.push(...secretFields.map((f) => ({ field: f, sensitive: true as const })))
        if (details.length) {
          content.changes.push({ action: 'update', type: c.key, name: o.name, ...(renamedFrom ? { renamedFrom } : {}), fields: details.map((d) => d.field), details, ...(secretFields.length ? { sensitive: true as const } : {}) })
          content.writes.push({ collection: c.key, name: o.name, index: i, renamedFrom, existing: true, data: desired, sealedSecrets: sealed(), keptSecrets: Object.keys(base.portable.secrets).filter((k) => !(k in o.secrets)) })
        }
      } else {
        const desired = normalize(overlay(c.createDefaults, o.data))
        // a create lists what the file says; the defaults the server fills are not changes the file asks for
        const fields = Object.keys(o.data).sort()
        const details: FieldChange[] = [...fields.map((f) => ({ field: f, after: desired[f] ?? null })), ...Object.keys(o.secrets).sort().map((f) => ({ field: f, sensitive: true as const }))]
        content.changes.push({ action: 'create', type: c.key, name: o.name, fields: details.map((d) => d.field), details, ...(Object.keys(o.secrets).length ? { sensitive: true as const } : {}) })
        content.writes.push({ collection: c.key, name: o.name, index: i, existing: false, data: desired, sealedSecrets: sealed(), keptSecrets: [] })
      }
    })
    content.owned[c.key] = [...named]
    if (mode !== 'sync') continue
    for (const name of current.keys()) {
      if (named.has(name) || renamedAway.has(name)) continue
      const holder = owner.get(`${c.key}\u0000${name}`)
      if (namespace ? holder !== namespace : false) continue
      if (!lifecycleOf(c.type)) {
        problems.push({ path: c.key, reason: 'declarativeDeleteUnsupported', message: `${c.key} '${name}' is not in the file, and ${c.key} cannot be deleted by a sync (list it, or plan with mode apply)` })
        continue
      }
      deletes.push({ action: 'delete', type: c.key, name, fields: [], details: [] })
    }
  }
  // deletes last, dependents first (the reverse of the collection order)
  const order = new Map(collections().map((c, i) => [c.key, i]))
  deletes.sort((a, b) => order.get(b.type)! - order.get(a.type)!)
  content.changes.push(...deletes)
  content.deletes = deletes.map((d) => ({ collection: d.type, name: d.name }))
  return { content, problems }
}

export const summaryOf = (changes: PlanChange[]) => ({
  create: changes.filter((c) => c.action === 'create').length,
  update: changes.filter((c) => c.action === 'update').length,
  delete: changes.filter((c) => c.action === 'delete').length,
})

export function refuseProblems(problems: PlanProblem[]) {
  if (!problems.length) return
  throw malformedReason(problems[0]!.reason, `The state document cannot be planned: ${problems.slice(0, 20).map((p) => `${p.path}: ${p.message}`).join('; ')}`, {
    field: `document.${problems[0]!.path}`, errors: problems.slice(0, 200),
  })
}

/** Plans a document against the project and keeps the plan (planning writes no audit event). */
export async function createPlan(deps: Deps, actor: Actor, projectName: string, raw: unknown): Promise<PlanView> {
  const input = parseInput(planInput, raw)
  const ctx = await declarativeContext(deps, actor, projectName)
  const doc = parseStateDocument(input.document)
  const list = listedCollections(doc)
  requireCollections(ctx, list, 'VIEW')
  const namespace = doc.namespace ?? ''
  const { live, baseRevision, owner } = await currentRevision(ctx, list)
  const { content, problems } = computePlan(ctx, doc, input.mode, namespace, live, owner)
  refuseProblems(problems)
  // one JSON text cast to jsonb: a plan of thousands of objects is a large parameter, which Prisma's Json handling slows
  const id = crypto.randomUUID()
  await deps.prisma.$executeRaw`
    INSERT INTO "DeclarativePlan" (id, "projectId", namespace, mode, "baseRevision", content, "createdBy", "createdAt")
    VALUES (${id}, ${ctx.access.project.id}, ${namespace}, ${input.mode.toUpperCase()}, ${baseRevision}, ${JSON.stringify(content)}::jsonb, ${actorName(actor)}, (now() AT TIME ZONE 'UTC'))`
  return planView(id, projectName, namespace, input.mode, baseRevision, content)
}

export function planView(id: string, project: string, namespace: string, mode: 'apply' | 'sync', baseRevision: string, content: PlanContent): PlanView {
  return { formatVersion: 1, id, project, namespace: namespace || null, mode, baseRevision, collections: content.collections, changes: content.changes, summary: summaryOf(content.changes) }
}
