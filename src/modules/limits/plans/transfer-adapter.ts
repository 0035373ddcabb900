import type { Prisma } from '../../../generated/prisma/client.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import { lookupsByName, type AdapterContext, type Advisory, type PortableObject, type TransferAdapter } from '../../../platform/transfer/registry.js'
import { pushAssignments } from '../assignments/compile.js'
import { writeDeclaredPlan } from './service.js'

/**
 * A project's limit plans (spec §2.12) travel as LIMIT_PLAN objects (category IDENTITY, as the plan pages), named by
 * their plan key (unique in the project; assignments name plans by it). `data`: family, name, nameTr, description,
 * labels, lifecycle (DRAFT, PUBLISHED, RETIRED) and ruleSpec, the rule spec the plan enforces (its published revision,
 * or its open draft when never published). Not the revision history, versions or who did what. Plans a portal
 * subscription plan manages are not listed (their writes are refused). Writes go through the plans service
 * (writeDeclaredPlan); a publish recompiles the ACTIVE assignments of the plan, pushed after the commit.
 */
const TYPE = 'LIMIT_PLAN'

const include = {
  revisions: { where: { OR: [{ status: 'PUBLISHED' }, { openDraftOf: { not: null } }] }, select: { revision: true, status: true, ruleSpec: true } },
} as const satisfies Prisma.LimitPlanInclude
type PlanRow = Prisma.LimitPlanGetPayload<{ include: typeof include }>

function toPortable(row: PlanRow): PortableObject {
  const effective = row.currentPublishedRevision > 0 ? row.revisions.find((r) => r.revision === row.currentPublishedRevision) : row.revisions.find((r) => r.status === 'DRAFT')
  return {
    type: TYPE, kind: null, name: row.planKey, secrets: {}, dependencies: [],
    data: { family: row.family, name: row.name, nameTr: row.nameTr, description: row.description, labels: row.labels, lifecycle: row.lifecycle, ruleSpec: effective?.ruleSpec ?? null },
  }
}

const where = (ctx: AdapterContext) => ({ scope: ctx.access.project.id, managedBySubscriptionPlanId: null })

const find = async (ctx: AdapterContext, keys: string[]) =>
  (await ctx.db.limitPlan.findMany({ where: { ...where(ctx), planKey: { in: keys } }, include, orderBy: { planKey: 'asc' } })).map(toPortable)

/** The assignments a write's publishes recompiled, per call, to push after the commit. */
const toPush = new WeakMap<ProjectAccess, string[]>()

export const limitPlanTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'IDENTITY',
  kinds: null,
  secretFields: [],
  scope: 'project',
  source: 'limits',

  ...lookupsByName(find),

  async findAll(ctx) {
    return (await ctx.db.limitPlan.findMany({ where: where(ctx), include, orderBy: { planKey: 'asc' } })).map(toPortable)
  },

  async listNames(ctx) {
    return (await ctx.db.limitPlan.findMany({ where: where(ctx), select: { planKey: true }, orderBy: { planKey: 'asc' } })).map((p) => p.planKey)
  },

  async write(ctx, object, existing) {
    const ids = await writeDeclaredPlan(ctx.db, ctx.actor, ctx.access.project.name, object.name, object.data, existing)
    if (ids.length) toPush.set(ctx.access, [...(toPush.get(ctx.access) ?? []), ...ids])
    return []
  },

  /** After the commit: the assignments the publishes recompiled are pushed (what a worker misses, the outbox retries). */
  async afterImport(deps, access, written): Promise<Advisory[]> {
    const ids = [...new Set(toPush.get(access) ?? [])]
    toPush.delete(access)
    if (!ids.length) return []
    const summary = await pushAssignments(deps, ids)
    return summary.failedEnvironmentPushes ? [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: written.map((w) => w.name).sort(), reason: 'an environment did not acknowledge a recompiled limit assignment (the outbox retries it)' } }] : []
  },
}
