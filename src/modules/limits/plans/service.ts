import { z } from 'zod'
import { Prisma, type LimitPlan, type LimitPlanRevision } from '../../../generated/prisma/client.js'
import { actorName, type Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { findPage, orderByFor, parsePaging, type Page } from '../../../platform/envelopes/paging.js'
import { countedRows } from '../../../platform/db/list-count.js'
import { DomainError, lifecycleConflict, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { withIdempotency } from '../../../platform/idempotency/claims.js'
import { pushAssignments } from '../assignments/compile.js'
import { FAMILIES } from '../shared/enums.js'
import { semanticChecksum, validateRuleSpec } from '../shared/rule-spec.js'
import { PLATFORM_SCOPE } from '../shared/scope.js'
import { parseDraftBody, parsePlanCreate, parsePlanUpdate, parsePublishBody } from './inputs.js'
import { mintPlanKey } from './plan-key.js'
import { resolvePlanScope, type PlanScope } from './scope.js'

// Limit plans and their revisions (spec §2.12, §3.2, §4.7): one operation per endpoint, used by the
// /apiops and /api doors and by GraphQL.

export const PLAN_SORT = { defaultSort: 'name,asc', supported: ['name', 'family', 'lifecycle'] } as const

const flag = z
  .union([z.boolean(), z.enum(['true', 'false'], { error: 'must be true or false' })])
  .nullish()
  .transform((v) => v === true || v === 'true')
export const planFilters = z.object({
  family: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.enum(FAMILIES).optional()),
  includePlatform: flag,
  includeManaged: flag,
})
export type PlanListQuery = z.input<typeof planFilters> & { page?: unknown; size?: unknown; sort?: unknown }

export const planNotFound = (planKey: string) => notFound(`Limit plan '${planKey}' not found`, { plan: planKey, reason: 'limit.plan.notFound' })
const revisionNotFound = (planKey: string, revision: number | string) =>
  notFound(`Revision ${revision} of limit plan '${planKey}' not found`, { plan: planKey, revision, reason: 'limit.plan.revisionNotFound' })

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2002'

/** A plan of the addressed catalog by key; a platform plan is not resolvable through a project (spec §2.12). */
export async function findPlan(db: Tx, scope: PlanScope, planKey: string): Promise<LimitPlan> {
  const plan = await db.limitPlan.findUnique({ where: { scope_planKey: { scope: scope.scope, planKey } } })
  if (!plan) throw planNotFound(planKey)
  return plan
}

/** Plans owned by a portal subscription plan refuse every write (spec §2.12, §7.4). */
function refuseManaged(plan: LimitPlan) {
  if (plan.managedBySubscriptionPlanId) {
    throw lifecycleConflict('managedBySubscriptionPlan', `Limit plan '${plan.planKey}' is managed by subscription plan '${plan.managedBySubscriptionPlanName ?? plan.managedBySubscriptionPlanId}'`, {
      plan: plan.planKey,
      managedBySubscriptionPlanId: plan.managedBySubscriptionPlanId,
    })
  }
}

const nameAlreadyExists = (family: string, name: string) =>
  lifecycleConflict('limit.plan.nameAlreadyExists', `A ${family} plan named '${name}' already exists`, { family, name })

async function refuseTakenName(db: Tx, scope: PlanScope, family: LimitPlan['family'], name: string, exceptId?: string) {
  const taken = await db.limitPlan.findUnique({ where: { scope_family_name: { scope: scope.scope, family, name } }, select: { id: true } })
  if (taken && taken.id !== exceptId) throw nameAlreadyExists(family, name)
}

/** GET /limit-plans: the catalog, paged; platform plans with includePlatform, managed plans with includeManaged. */
export async function listPlans(db: Tx, actor: Actor, projectName: string | undefined, query: PlanListQuery): Promise<Page<LimitPlan>> {
  const scope = await resolvePlanScope(db, actor, projectName, 'VIEW')
  const filters = parseInput(planFilters, query)
  const page = parsePaging(query, PLAN_SORT)
  const scopes = filters.includePlatform && !scope.platform ? [scope.scope, PLATFORM_SCOPE] : [scope.scope]
  const where: Prisma.LimitPlanWhereInput = {
    scope: { in: scopes },
    ...(filters.family ? { family: filters.family } : {}),
    ...(filters.includeManaged ? {} : { managedBySubscriptionPlanId: null }),
  }
  return findPage(
    page,
    db.limitPlan.findMany({ where, orderBy: orderByFor(page, 'planKey'), skip: page.skip, take: page.take }),
    // the default catalogue (no family, managed plans left out) is counted by trigger, per scope
    !filters.family && !filters.includeManaged ? countedRows(db, 'LimitPlan.unmanaged', scopes) : db.limitPlan.count({ where }),
  )
}

export async function getPlan(db: Tx, actor: Actor, projectName: string | undefined, planKey: string): Promise<LimitPlan> {
  return findPlan(db, await resolvePlanScope(db, actor, projectName, 'VIEW'), planKey)
}

export interface PlanCreateRequest { idempotencyKey: string | undefined; body: unknown }

/**
 * POST /limit-plans: Idempotency-Key required, claimed per scope (project id or platform) and operation with
 * the canonical body hash. The plan starts DRAFT with revision 1 DRAFT holding initialRuleSpec.
 */
export async function createPlan(deps: Deps, actor: Actor, projectName: string | undefined, request: PlanCreateRequest): Promise<{ plan: LimitPlan; scope: PlanScope }> {
  const scope = await resolvePlanScope(deps.prisma, actor, projectName, 'MANAGE')
  return withIdempotency(deps.prisma, { scope: scope.scope, operation: 'limitPlan.create', key: request.idempotencyKey, body: request.body }, async () => {
    const body = parsePlanCreate(request.body)
    await refuseTakenName(deps.prisma, scope, body.family, body.name)
    const by = actorName(actor)
    let plan: LimitPlan
    try {
      plan = await deps.prisma.$transaction(async (tx) => {
        const planKey = await mintPlanKey(tx, scope, body.name)
        const created = await tx.limitPlan.create({
          data: {
            scope: scope.scope, projectId: scope.projectId, planKey, family: body.family, name: body.name, nameTr: body.nameTr,
            description: body.description, labels: body.labels, createdBy: by,
          },
        })
        await tx.limitPlanRevision.create({
          data: {
            planId: created.id, revision: 1, ruleSpec: body.initialRuleSpec as Prisma.InputJsonValue,
            semanticChecksum: semanticChecksum(body.initialRuleSpec), createdBy: by, openDraftOf: created.id,
          },
        })
        return created
      })
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      // lost a race: the same family and name, or the same minted key
      await refuseTakenName(deps.prisma, scope, body.family, body.name)
      throw lifecycleConflict('limit.plan.keyAlreadyExists', 'Another plan took the same key at the same moment; retry', { name: body.name })
    }
    return { result: { plan, scope }, resource: plan.planKey }
  })
}

/**
 * PUT /limit-plans/{planKey}: name (required), nameTr, description, labels (replaced). The version is
 * required in practice: omitted → limit.plan.staleVersion; different → 409 versionConflict.
 */
export async function updatePlan(db: Tx, actor: Actor, projectName: string | undefined, planKey: string, rawBody: unknown): Promise<LimitPlan> {
  const scope = await resolvePlanScope(db, actor, projectName, 'MANAGE')
  const plan = await findPlan(db, scope, planKey)
  refuseManaged(plan)
  const body = parsePlanUpdate(rawBody)
  if (body.version === null) throw lifecycleConflict('limit.plan.staleVersion', 'version is required to update a plan', { field: 'version', current: plan.version })
  if (body.version !== plan.version) throw planVersionConflict(body.version, plan.version)
  await refuseTakenName(db, scope, plan.family, body.name, plan.id)
  try {
    const { count } = await db.limitPlan.updateMany({
      where: { id: plan.id, version: plan.version },
      data: { name: body.name, nameTr: body.nameTr, description: body.description, labels: body.labels, version: { increment: 1 } },
    })
    if (count === 0) throw planVersionConflict(body.version, (await db.limitPlan.findUniqueOrThrow({ where: { id: plan.id } })).version)
  } catch (err) {
    if (isUniqueViolation(err)) throw nameAlreadyExists(plan.family, body.name)
    throw err
  }
  return db.limitPlan.findUniqueOrThrow({ where: { id: plan.id } })
}

const planVersionConflict = (expected: number, current: number) =>
  new DomainError('conflict', 'versionConflict', `The plan is at version ${current}, not ${expected}`, { entity: 'limitPlan', expected, current })

/**
 * DELETE /limit-plans/{planKey}: only a never-published plan that no assignment references; otherwise 409
 * lifecycleConflict (reason limit.plan.notDeletable, params.cause published or referenced).
 */
export async function deletePlan(db: Tx, actor: Actor, projectName: string | undefined, planKey: string): Promise<void> {
  const scope = await resolvePlanScope(db, actor, projectName, 'MANAGE')
  const plan = await findPlan(db, scope, planKey)
  refuseManaged(plan)
  if (plan.currentPublishedRevision > 0 || plan.lifecycle !== 'DRAFT') {
    throw lifecycleConflict('limit.plan.notDeletable', `Limit plan '${planKey}' was published and cannot be deleted; retire it`, { plan: planKey, cause: 'published' })
  }
  const references = await db.limitAssignmentPlan.count({ where: { planId: plan.id } })
  if (references > 0) {
    throw lifecycleConflict('limit.plan.notDeletable', `Limit plan '${planKey}' is referenced by ${references} assignment(s)`, { plan: planKey, cause: 'referenced', referenceCount: references })
  }
  const { count } = await db.limitPlan.deleteMany({ where: { id: plan.id, currentPublishedRevision: 0, lifecycle: 'DRAFT' } })
  if (count === 0) throw lifecycleConflict('limit.plan.notDeletable', `Limit plan '${planKey}' changed meanwhile`, { plan: planKey, cause: 'published' })
}

/** GET /limit-plans/{planKey}/revisions: every revision, oldest first (plain array). */
export async function listRevisions(db: Tx, actor: Actor, projectName: string | undefined, planKey: string) {
  const plan = await getPlan(db, actor, projectName, planKey)
  return { plan, revisions: await db.limitPlanRevision.findMany({ where: { planId: plan.id }, orderBy: { revision: 'asc' } }) }
}

/** A revision number from a path: a whole number from 1, else 404 (no such revision). */
export function parseRevisionNumber(planKey: string, raw: string | number): number {
  const n = typeof raw === 'number' ? raw : /^\d{1,9}$/.test(raw) ? Number(raw) : NaN
  if (!Number.isInteger(n) || n < 1) throw revisionNotFound(planKey, raw)
  return n
}

async function findRevision(db: Tx, plan: LimitPlan, revision: number): Promise<LimitPlanRevision> {
  const found = await db.limitPlanRevision.findUnique({ where: { planId_revision: { planId: plan.id, revision } } })
  if (!found) throw revisionNotFound(plan.planKey, revision)
  return found
}

/** GET /limit-plans/{planKey}/revisions/{revision}, /draft (the open draft) or /published (the current one); 404 when none. */
export async function getRevision(db: Tx, actor: Actor, projectName: string | undefined, planKey: string, which: number | string | 'draft' | 'published') {
  const plan = await getPlan(db, actor, projectName, planKey)
  if (which === 'draft') {
    const draft = await db.limitPlanRevision.findUnique({ where: { openDraftOf: plan.id } })
    if (!draft) throw revisionNotFound(planKey, 'draft')
    return { plan, revision: draft }
  }
  if (which === 'published') {
    if (plan.currentPublishedRevision === 0) throw revisionNotFound(planKey, 'published')
    return { plan, revision: await findRevision(db, plan, plan.currentPublishedRevision) }
  }
  return { plan, revision: await findRevision(db, plan, parseRevisionNumber(planKey, which)) }
}

function refuseRetired(plan: LimitPlan) {
  if (plan.lifecycle === 'RETIRED') throw lifecycleConflict('limit.plan.retired', `Limit plan '${plan.planKey}' is retired`, { plan: plan.planKey })
}

/**
 * POST /limit-plans/{planKey}/draft-revisions: a new DRAFT revision (number max + 1) when none is open
 * (else limit.plan.draftAlreadyExists; the database keeps one open draft per plan).
 */
export async function openDraftRevision(db: Tx, actor: Actor, projectName: string | undefined, planKey: string, rawBody: unknown) {
  const scope = await resolvePlanScope(db, actor, projectName, 'MANAGE')
  const plan = await findPlan(db, scope, planKey)
  refuseManaged(plan)
  const body = parseDraftBody(rawBody, plan.family)
  const draftAlreadyExists = (revision?: number) =>
    lifecycleConflict('limit.plan.draftAlreadyExists', `Limit plan '${planKey}' already has an open draft`, { plan: planKey, ...(revision ? { revision } : {}) })
  const open = await db.limitPlanRevision.findUnique({ where: { openDraftOf: plan.id }, select: { revision: true } })
  if (open) throw draftAlreadyExists(open.revision)
  refuseRetired(plan)
  const last = await db.limitPlanRevision.aggregate({ where: { planId: plan.id }, _max: { revision: true } })
  try {
    const revision = await db.limitPlanRevision.create({
      data: {
        planId: plan.id, revision: (last._max.revision ?? 0) + 1, ruleSpec: body.ruleSpec as Prisma.InputJsonValue,
        semanticChecksum: semanticChecksum(body.ruleSpec), changeReason: body.changeReason, createdBy: actorName(actor), openDraftOf: plan.id,
      },
    })
    return { plan, revision }
  } catch (err) {
    if (isUniqueViolation(err)) throw draftAlreadyExists()
    throw err
  }
}

/** PUT /limit-plans/{planKey}/draft-revisions/{revision}: replaces a DRAFT's rule spec; else limit.plan.revisionNotDraft. */
export async function replaceDraftRevision(db: Tx, actor: Actor, projectName: string | undefined, planKey: string, rawRevision: string | number, rawBody: unknown) {
  const scope = await resolvePlanScope(db, actor, projectName, 'MANAGE')
  const plan = await findPlan(db, scope, planKey)
  refuseManaged(plan)
  const current = await findRevision(db, plan, parseRevisionNumber(planKey, rawRevision))
  const notDraft = () => lifecycleConflict('limit.plan.revisionNotDraft', `Revision ${current.revision} of '${planKey}' is ${current.status}, not DRAFT`, { plan: planKey, revision: current.revision })
  if (current.status !== 'DRAFT') throw notDraft()
  const body = parseDraftBody(rawBody, plan.family)
  const { count } = await db.limitPlanRevision.updateMany({
    where: { id: current.id, status: 'DRAFT' },
    data: {
      ruleSpec: body.ruleSpec as Prisma.InputJsonValue,
      semanticChecksum: semanticChecksum(body.ruleSpec),
      ...(body.changeReason !== null ? { changeReason: body.changeReason } : {}),
    },
  })
  if (count === 0) throw notDraft()
  return { plan, revision: await db.limitPlanRevision.findUniqueOrThrow({ where: { id: current.id } }) }
}

/**
 * POST /limit-plans/{planKey}/revisions/{revision}/actions/publish: the DRAFT becomes PUBLISHED, the previous
 * published revision SUPERSEDED, the plan PUBLISHED with currentPublishedRevision set (version + 1); then every
 * ACTIVE assignment referencing the plan is recompiled and pushed. Not DRAFT → limit.plan.revisionNotDraft;
 * a RETIRED plan, or losing a race with another publish or update → limit.plan.publishConflict.
 */
export async function publishRevision(deps: Deps, actor: Actor, projectName: string | undefined, planKey: string, rawRevision: string | number, rawBody: unknown) {
  const db = deps.prisma
  const scope = await resolvePlanScope(db, actor, projectName, 'MANAGE')
  const plan = await findPlan(db, scope, planKey)
  refuseManaged(plan)
  const { changeReason } = parsePublishBody(rawBody)
  const target = await findRevision(db, plan, parseRevisionNumber(planKey, rawRevision))
  if (target.status !== 'DRAFT') {
    throw lifecycleConflict('limit.plan.revisionNotDraft', `Revision ${target.revision} of '${planKey}' is ${target.status}, not DRAFT`, { plan: planKey, revision: target.revision })
  }
  const publishConflict = () => lifecycleConflict('limit.plan.publishConflict', `Revision ${target.revision} of '${planKey}' is no longer publishable`, { plan: planKey, revision: target.revision })
  // a draft left open when the plan was retired is not publishable
  if (plan.lifecycle === 'RETIRED') throw publishConflict()
  const by = actorName(actor)
  const published = await db.$transaction(async (tx) => {
    const ids = await publishDraftIn(tx, plan, target, by, changeReason, publishConflict)
    return { revision: await tx.limitPlanRevision.findUniqueOrThrow({ where: { id: target.id } }), ids }
  })
  await pushAssignments(deps, published.ids)
  return { plan: await db.limitPlan.findUniqueOrThrow({ where: { id: plan.id } }), revision: published.revision }
}

/**
 * The publish itself, in `tx` (the publish's transaction, or a declarative apply's): the DRAFT becomes PUBLISHED, the
 * previous published revision SUPERSEDED, the plan PUBLISHED (version + 1), and the ACTIVE assignments referencing
 * the plan get a new runtime revision. Answers their ids, to push after the commit (pushAssignments).
 */
async function publishDraftIn(tx: Tx, plan: LimitPlan, target: LimitPlanRevision, by: string, changeReason: string | null, publishConflict: () => DomainError): Promise<string[]> {
  const moved = await tx.limitPlan.updateMany({
    where: { id: plan.id, version: plan.version, lifecycle: { not: 'RETIRED' } },
    data: { lifecycle: 'PUBLISHED', currentPublishedRevision: target.revision, version: { increment: 1 } },
  })
  if (moved.count === 0) throw publishConflict()
  await tx.limitPlanRevision.updateMany({ where: { planId: plan.id, status: 'PUBLISHED' }, data: { status: 'SUPERSEDED' } })
  const { count } = await tx.limitPlanRevision.updateMany({
    where: { id: target.id, status: 'DRAFT' },
    data: { status: 'PUBLISHED', publishedAt: new Date(), publishedBy: by, openDraftOf: null, ...(changeReason !== null ? { changeReason } : {}) },
  })
  if (count === 0) throw publishConflict()
  const referencing = await tx.limitAssignment.findMany({ where: { status: 'ACTIVE', plans: { some: { planId: plan.id } } }, select: { id: true } })
  const ids = referencing.map((r) => r.id)
  if (ids.length) await tx.limitAssignment.updateMany({ where: { id: { in: ids } }, data: { runtimeRevision: { increment: 1 } } })
  return ids
}

/**
 * POST /limit-plans/{planKey}/actions/retire: a published plan becomes RETIRED (new assignments refused,
 * existing ones keep applying). Never published → limit.plan.notPublished; retiring again repeats safely.
 */
export async function retirePlan(db: Tx, actor: Actor, projectName: string | undefined, planKey: string): Promise<LimitPlan> {
  const scope = await resolvePlanScope(db, actor, projectName, 'MANAGE')
  const plan = await findPlan(db, scope, planKey)
  refuseManaged(plan)
  if (plan.currentPublishedRevision === 0) throw lifecycleConflict('limit.plan.notPublished', `Limit plan '${planKey}' was never published`, { plan: planKey })
  if (plan.lifecycle === 'RETIRED') return plan
  await db.limitPlan.updateMany({
    where: { id: plan.id, lifecycle: 'PUBLISHED' },
    data: { lifecycle: 'RETIRED', retiredAt: new Date(), retiredBy: actorName(actor), version: { increment: 1 } },
  })
  return db.limitPlan.findUniqueOrThrow({ where: { id: plan.id } })
}


// ---- declarative state (issue 29): a project's plans as a collection, written through the rules above ----

/** A plan key as minted (slugOf): lower case letters and digits joined by single dashes, at most 64. */
const PLAN_KEY = /^[a-z0-9]+(-[a-z0-9]+)*$/

/** A plan as a state file declares it (data of the LIMIT_PLAN transfer type; planKey is its natural key). */
export interface DeclaredPlan {
  family?: unknown
  name?: unknown
  nameTr?: unknown
  description?: unknown
  labels?: unknown
  lifecycle?: unknown
  ruleSpec?: unknown
}

const LIFECYCLE_ORDER = { DRAFT: 0, PUBLISHED: 1, RETIRED: 2 } as const

/** The revision a plan enforces: its published one, or (never published) its open draft. */
export async function effectiveRevision(db: Tx, plan: LimitPlan): Promise<LimitPlanRevision | null> {
  if (plan.currentPublishedRevision > 0) return db.limitPlanRevision.findUnique({ where: { planId_revision: { planId: plan.id, revision: plan.currentPublishedRevision } } })
  return db.limitPlanRevision.findUnique({ where: { openDraftOf: plan.id } })
}

/**
 * Creates (existing false) or brings to the declared state (existing true) a plan of the project, inside the caller's
 * transaction, with the rules of the doors above: the create body's checks (family, name, rule spec of the family,
 * the name free in the family), the update's (a managed plan refused, the name free), and the revision lifecycle: a
 * changed rule spec goes into the open draft (a new one when none is open), which is published when the plan is
 * published (its ACTIVE assignments recompiled); `lifecycle` moves forward only (DRAFT → PUBLISHED → RETIRED), as
 * publish and retire do. The key is the file's (a plan key as minted, free in the project and the platform catalog).
 * Answers the assignments to push after the commit. Errors name their field (`ruleSpec.requestRate.windows[0]…`).
 */
export async function writeDeclaredPlan(db: Tx, actor: Actor, projectName: string, planKey: string, d: DeclaredPlan, existing: boolean): Promise<string[]> {
  const scope = await resolvePlanScope(db, actor, projectName, 'MANAGE')
  const by = actorName(actor)
  const lifecycle = (d.lifecycle ?? 'DRAFT') as keyof typeof LIFECYCLE_ORDER
  if (!(lifecycle in LIFECYCLE_ORDER)) throw malformed('lifecycle must be DRAFT, PUBLISHED or RETIRED', { field: 'lifecycle' })
  const asRuleSpec = (err: unknown) => {
    // the create body names the spec initialRuleSpec; the file names it ruleSpec
    if (err instanceof DomainError && typeof err.params.field === 'string' && err.params.field.startsWith('initialRuleSpec')) {
      return new DomainError(err.kind, err.errorKey, err.message.replace(/^initialRuleSpec/, 'ruleSpec'), { ...err.params, field: err.params.field.replace(/^initialRuleSpec/, 'ruleSpec') })
    }
    return err
  }
  if (!existing) {
    let body: ReturnType<typeof parsePlanCreate>
    try {
      body = parsePlanCreate({ family: d.family, name: d.name, nameTr: d.nameTr, description: d.description, labels: d.labels, initialRuleSpec: d.ruleSpec })
    } catch (err) {
      throw asRuleSpec(err)
    }
    if (planKey.length > 64 || !PLAN_KEY.test(planKey)) throw malformed('planKey must be lower case letters and digits joined by single dashes, at most 64', { field: 'planKey' })
    if (await db.limitPlan.findFirst({ where: { planKey, scope: { in: [scope.scope, PLATFORM_SCOPE] } }, select: { id: true } })) {
      throw lifecycleConflict('limit.plan.keyAlreadyExists', `A plan with key '${planKey}' already exists in the project or the platform catalog`, { field: 'planKey', plan: planKey })
    }
    await refuseTakenName(db, scope, body.family, body.name)
    const created = await db.limitPlan.create({
      data: { scope: scope.scope, projectId: scope.projectId, planKey, family: body.family, name: body.name, nameTr: body.nameTr, description: body.description, labels: body.labels, createdBy: by },
    })
    const draft = await db.limitPlanRevision.create({
      data: { planId: created.id, revision: 1, ruleSpec: body.initialRuleSpec as Prisma.InputJsonValue, semanticChecksum: semanticChecksum(body.initialRuleSpec), createdBy: by, openDraftOf: created.id },
    })
    if (lifecycle !== 'DRAFT') await publishDraftIn(db, created, draft, by, null, () => lifecycleConflict('limit.plan.publishConflict', `Limit plan '${planKey}' is no longer publishable`, { plan: planKey }))
    if (lifecycle === 'RETIRED') await db.limitPlan.update({ where: { id: created.id }, data: { lifecycle: 'RETIRED', retiredAt: new Date(), retiredBy: by, version: { increment: 1 } } })
    return []
  }

  let plan = await findPlan(db, scope, planKey)
  refuseManaged(plan)
  if (d.family !== undefined && d.family !== plan.family) throw malformed(`family cannot change (the plan is ${plan.family})`, { field: 'family', reason: 'limit.plan.familyImmutable' })
  if (LIFECYCLE_ORDER[lifecycle] < LIFECYCLE_ORDER[plan.lifecycle]) {
    throw lifecycleConflict('limit.plan.lifecycleBackwards', `Limit plan '${planKey}' is ${plan.lifecycle} and cannot become ${lifecycle}`, { field: 'lifecycle', plan: planKey })
  }
  const meta = parsePlanUpdate({ name: d.name ?? plan.name, nameTr: d.nameTr, description: d.description, labels: d.labels, version: plan.version })
  if (meta.name !== plan.name || meta.nameTr !== plan.nameTr || meta.description !== plan.description || JSON.stringify(meta.labels) !== JSON.stringify(plan.labels)) {
    await refuseTakenName(db, scope, plan.family, meta.name, plan.id)
    plan = await db.limitPlan.update({ where: { id: plan.id }, data: { name: meta.name, nameTr: meta.nameTr, description: meta.description, labels: meta.labels, version: { increment: 1 } } })
  }
  const ruleSpec = d.ruleSpec === undefined ? null : validateRuleSpec(plan.family, d.ruleSpec, 'ruleSpec')
  const current = await effectiveRevision(db, plan)
  let draft = await db.limitPlanRevision.findUnique({ where: { openDraftOf: plan.id } })
  const changed = ruleSpec !== null && semanticChecksum(ruleSpec) !== current?.semanticChecksum
  if (changed) {
    if (plan.lifecycle === 'RETIRED') throw lifecycleConflict('limit.plan.retired', `Limit plan '${planKey}' is retired`, { field: 'ruleSpec', plan: planKey })
    const data = { ruleSpec: ruleSpec as Prisma.InputJsonValue, semanticChecksum: semanticChecksum(ruleSpec) }
    if (draft) draft = await db.limitPlanRevision.update({ where: { id: draft.id }, data })
    else {
      const last = await db.limitPlanRevision.aggregate({ where: { planId: plan.id }, _max: { revision: true } })
      draft = await db.limitPlanRevision.create({ data: { planId: plan.id, revision: (last._max.revision ?? 0) + 1, ...data, createdBy: by, openDraftOf: plan.id } })
    }
  }
  const conflict = () => lifecycleConflict('limit.plan.publishConflict', `Limit plan '${planKey}' is no longer publishable`, { plan: planKey })
  let ids: string[] = []
  // publish: a changed spec of a published plan, or a draft plan declared published
  if (draft && ((changed && plan.lifecycle === 'PUBLISHED') || (plan.lifecycle === 'DRAFT' && lifecycle !== 'DRAFT'))) {
    ids = await publishDraftIn(db, plan, draft, by, null, conflict)
    plan = await db.limitPlan.findUniqueOrThrow({ where: { id: plan.id } })
  }
  if (lifecycle === 'RETIRED' && plan.lifecycle !== 'RETIRED') {
    await db.limitPlan.update({ where: { id: plan.id }, data: { lifecycle: 'RETIRED', retiredAt: new Date(), retiredBy: by, version: { increment: 1 } } })
  }
  return ids
}
