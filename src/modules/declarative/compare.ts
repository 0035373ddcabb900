import crypto from 'node:crypto'
import { HeapBudget } from '../../platform/heap-budget.js'
import type { AdapterContext } from '../../platform/transfer/registry.js'
import { collections, type Collection } from './collections.js'
import type { DocumentObject, StateDocument } from './document.js'
import { lifecycleOf } from './lifecycle.js'
import { changedPaths, forEachLive, overlay, secretPrintsOf, type LiveObject } from './live.js'
import type { FieldChange, PlanChange, PlanContent, PlannedWrite, PlanProblem } from './plan.js'

/**
 * The comparison of a plan (issue 29 §7: a 10,000-object plan within 100 MB of idle), collection by collection and
 * page by page: a collection's live objects are read a page at a time (the adapter's findPage, in findAll's order),
 * each compared with the file's object of its name and hashed into baseRevision, then let go. What stays is the
 * file, the changes and the live names. baseRevision is the digest revisionOf computes over readLive (as the apply
 * does, in its transaction): the collections in key order, each one's objects by name and fingerprint in read order,
 * then the ownership mark. Pages are read outside a snapshot: a write between two pages gives a revision the apply
 * cannot match, so such a plan is refused as stale, never applied on a mixed view.
 */

/** How far the heap may grow past its live set during a plan before a page boundary collects it. */
const PLAN_HEAP_BUDGET_MB = 48

interface Outcome { change?: PlanChange; write?: PlannedWrite; problem?: PlanProblem }

/** What one collection contributes to the plan, in the order the whole-collection comparison gave it. */
interface CollectionResult { changes: PlanChange[]; writes: PlannedWrite[]; problems: PlanProblem[]; deletes: PlanChange[]; owned: string[] }

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

const NOTHING: Outcome = {}

/** One collection of the file against its live objects, fed one live object at a time (visit), then finished. */
class CollectionComparison {
  /** the file's name → the position of its first object of that name (a later one is a duplicate) */
  private readonly first = new Map<string, number>()
  /** names the file renames from: their live objects are kept until the end (a rename applies only when the new name is not live) */
  private readonly renameSources = new Set<string>()
  private readonly kept = new Map<string, LiveObject>()
  private readonly liveNames = new Set<string>()
  /** live names the file lacks, in read order (sync deletes) */
  private readonly absent: string[] = []
  private readonly outcomes: (Outcome | undefined)[]
  private readonly names: string[]

  constructor(private readonly ctx: AdapterContext, private readonly c: Collection, private readonly objects: DocumentObject[], private readonly namespace: string, private readonly owner: Map<string, string>) {
    this.names = objects.map((obj) => String(obj[c.nameField]))
    this.names.forEach((name, i) => this.first.has(name) || this.first.set(name, i))
    for (const obj of objects) if (typeof obj.renamedFrom === 'string') this.renameSources.add(obj.renamedFrom)
    this.outcomes = new Array(objects.length)
  }

  visit(o: LiveObject) {
    this.liveNames.add(o.name)
    if (this.renameSources.has(o.name)) this.kept.set(o.name, o)
    const i = this.first.get(o.name)
    if (i === undefined) this.absent.push(o.name)
    else this.outcomes[i] = this.compare(i, o)
  }

  /** The file's object i against base (its live object, or the one it renames), or a create when there is none. */
  private compare(i: number, base: LiveObject | undefined, renamedFrom?: string): Outcome {
    const { c, ctx } = this
    const path = `${c.key}[${i}]`
    const o = splitObject(c, this.objects[i]!)
    const holder = this.owner.get(`${c.key}\u0000${renamedFrom ?? o.name}`)
    if (this.namespace && base && holder && holder !== this.namespace) {
      return { problem: { path, reason: 'declarativeOwnershipConflict', message: `${c.key} '${o.name}' is managed by namespace '${holder}'` } }
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
      if (!details.length) return NOTHING
      return {
        change: { action: 'update', type: c.key, name: o.name, ...(renamedFrom ? { renamedFrom } : {}), fields: details.map((d) => d.field), details, ...(secretFields.length ? { sensitive: true as const } : {}) },
        write: { collection: c.key, name: o.name, index: i, renamedFrom, existing: true, data: desired, sealedSecrets: sealed(), keptSecrets: Object.keys(base.portable.secrets).filter((k) => !(k in o.secrets)) },
      }
    }
    const desired = normalize(overlay(c.createDefaults, o.data))
    // a create lists what the file says; the defaults the server fills are not changes the file asks for
    const fields = Object.keys(o.data).sort()
    const details: FieldChange[] = [...fields.map((f) => ({ field: f, after: desired[f] ?? null })), ...Object.keys(o.secrets).sort().map((f) => ({ field: f, sensitive: true as const }))]
    return {
      change: { action: 'create', type: c.key, name: o.name, fields: details.map((d) => d.field), details, ...(Object.keys(o.secrets).length ? { sensitive: true as const } : {}) },
      write: { collection: c.key, name: o.name, index: i, existing: false, data: desired, sealedSecrets: sealed(), keptSecrets: [] },
    }
  }

  /** Once every live object was visited: the file's objects in its order, then the deletes (sync). */
  finish(mode: 'apply' | 'sync'): CollectionResult {
    const { c } = this
    const out: CollectionResult = { changes: [], writes: [], problems: [], deletes: [], owned: [] }
    const renamedAway = new Set<string>()
    this.names.forEach((name, i) => {
      if (this.first.get(name) !== i) {
        out.problems.push({ path: `${c.key}[${i}].${c.nameField}`, reason: 'declarativeDuplicateName', message: `'${name}' appears twice in ${c.key}` })
        return
      }
      out.owned.push(name)
      let outcome = this.outcomes[i]
      if (!outcome) {
        const renamedFrom = this.objects[i]!.renamedFrom
        if (typeof renamedFrom === 'string' && this.liveNames.has(renamedFrom)) {
          if (!lifecycleOf(c.type)?.rename) outcome = { problem: { path: `${c.key}[${i}].renamedFrom`, reason: 'declarativeRenameUnsupported', message: `${c.key} cannot be renamed by a plan` } }
          else {
            renamedAway.add(renamedFrom)
            outcome = this.compare(i, this.kept.get(renamedFrom), renamedFrom)
          }
        } else outcome = this.compare(i, undefined)
      }
      if (outcome.problem) out.problems.push(outcome.problem)
      if (outcome.change) out.changes.push(outcome.change)
      if (outcome.write) out.writes.push(outcome.write)
    })
    if (mode !== 'sync') return out
    for (const name of this.absent) {
      if (renamedAway.has(name)) continue
      const holder = this.owner.get(`${c.key}\u0000${name}`)
      if (this.namespace ? holder !== this.namespace : false) continue
      if (!lifecycleOf(c.type)) {
        out.problems.push({ path: c.key, reason: 'declarativeDeleteUnsupported', message: `${c.key} '${name}' is not in the file, and ${c.key} cannot be deleted by a sync (list it, or plan with mode apply)` })
        continue
      }
      out.deletes.push({ action: 'delete', type: c.key, name, fields: [], details: [] })
    }
    return out
  }
}

/**
 * Computes the changes of a document against the project's live objects of the listed collections, reading them
 * page by page, and the baseRevision of what it read; problems are collected, not thrown.
 */
export async function comparePlan(
  ctx: AdapterContext, doc: StateDocument, list: Collection[], mode: 'apply' | 'sync', namespace: string, owner: Map<string, string>, ownershipMark: string,
): Promise<{ content: PlanContent; problems: PlanProblem[]; baseRevision: string }> {
  const results = new Map<string, CollectionResult>()
  // a page's rows and forms are garbage once compared, but they outlive the 2 MB young generation (promoted across the
  // page's query), and V8 lets the old generation grow to a multiple of the live set before marking it: without a
  // collection between pages the heap of a 10,000-object plan peaked ~100 MB over idle, whether the live side was
  // read whole or by pages (bench/declarative-memory.ts)
  const heap = new HeapBudget(PLAN_HEAP_BUDGET_MB)
  // streamed into the hash object by object, the collections in key order (revisionOf's order)
  const hash = crypto.createHash('sha256')
  for (const c of [...list].sort((a, b) => a.key.localeCompare(b.key))) {
    const comparison = new CollectionComparison(ctx, c, ((doc as Record<string, unknown>)[c.key] ?? []) as DocumentObject[], namespace, owner)
    hash.update(`${c.key}\u0000`)
    await forEachLive(ctx, c, (o) => {
      hash.update(`${o.name}\u0000${o.fingerprint}\u0000`)
      comparison.visit(o)
    }, () => heap.check())
    hash.update('\n')
    results.set(c.key, comparison.finish(mode))
  }
  const content: PlanContent = { collections: [], changes: [], writes: [], deletes: [], owned: {} }
  const problems: PlanProblem[] = []
  const deletes: PlanChange[] = []
  for (const c of list) {
    const r = results.get(c.key)!
    content.collections.push(c.key)
    content.changes.push(...r.changes)
    content.writes.push(...r.writes)
    problems.push(...r.problems)
    deletes.push(...r.deletes)
    content.owned[c.key] = r.owned
  }
  // deletes last, dependents first (the reverse of the collection order)
  const order = new Map(collections().map((c, i) => [c.key, i]))
  deletes.sort((a, b) => order.get(b.type)! - order.get(a.type)!)
  content.changes.push(...deletes)
  content.deletes = deletes.map((d) => ({ collection: d.type, name: d.name }))
  return { content, problems, baseRevision: `sha256:${hash.update(ownershipMark).digest('hex')}` }
}
