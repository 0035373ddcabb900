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
import { comparePlan } from './compare.js'
import { parseStateDocument, STATE_FORMAT_VERSION, type StateDocument } from './document.js'
import { readLive, requireCollections, revisionOf, type LiveSet } from './live.js'

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

/** The live objects of a plan's collections and their baseRevision, as applying reads them (planning: comparePlan, the same digest page by page). */
export async function currentRevision(ctx: AdapterContext, list: Collection[]): Promise<{ live: LiveSet; baseRevision: string; owner: Map<string, string> }> {
  const live = await readLive(ctx, list)
  const { owner, mark } = await readOwnership(ctx.db, ctx.access.project.id)
  return { live, baseRevision: revisionOf(live, mark), owner }
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
  const { owner, mark } = await readOwnership(ctx.db, ctx.access.project.id)
  const { content, problems, baseRevision } = await comparePlan(ctx, doc, list, input.mode, namespace, owner, mark)
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
