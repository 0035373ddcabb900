import { z } from 'zod'
import type { ApiProduct } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requirePermission } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject, resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'

// API products (the vendor's ApiProduct operations; no page shows them): a product promoted from a portal by its
// referenceId, listed with its approved subscriptions (ProductSubscription names the product by name), and its
// subscription plans as the limits read them (limits/manager/portal.ts: a portal subscription plan owns limit plans,
// LimitPlan.managedBySubscriptionPlanId; a limit plan records the subscription plan, not its product, so the plans of
// the product's project are listed). API_MANAGEMENT VIEW reads, MANAGE promotes.

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')

/** The vendor's ProdProductPromoteRequestDTO. */
export const productPromoteInput = z
  .object({
    referenceId: text(200).trim().min(1, 'must not be blank'),
    name: objectName.nullish().describe('the product name (default: nameDefault): the productName its subscriptions carry'),
    nameDefault: text(200).nullish(),
    nameSecondary: text(200).nullish(),
    titleDefault: text(500).nullish(),
    titleSecondary: text(500).nullish(),
    descriptionDefault: text(10_000).nullish(),
    descriptionSecondary: text(10_000).nullish(),
    prodPortalId: text(200).nullish(),
    type: text(50).nullish(),
  })
  .strict()
  .meta({ id: 'ApiProductPromoteInput' })

export const productsQuery = z.object({
  projectName: z.string().max(200).describe('the project of the products (required)'),
  portalId: z.string().max(200).optional().describe('only the products promoted from this portal'),
})

const productNotFound = (referenceId: string) => notFound(`API product '${referenceId}' not found`, { referenceId })
export { productNotFound }

async function subscriptionCounts(db: Tx, projectId: string, names: string[]) {
  const rows = await db.productSubscription.groupBy({ by: ['productName'], where: { projectId, productName: { in: names }, status: 'APPROVED' }, _count: { _all: true } })
  return new Map(rows.map((r) => [r.productName, r._count._all]))
}

const productView = (p: ApiProduct, approved: number) => ({
  id: p.id, referenceId: p.referenceId, name: p.name, nameDefault: p.nameDefault, nameSecondary: p.nameSecondary, titleDefault: p.titleDefault, titleSecondary: p.titleSecondary,
  descriptionDefault: p.descriptionDefault, descriptionSecondary: p.descriptionSecondary, portalId: p.portalId, type: p.type,
  approvedSubscriptionCount: approved, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString(),
})
export type ProductView = ReturnType<typeof productView>

/** GET /apiops/api-products: the project's products by name, of one portal when portalId is given (API_MANAGEMENT VIEW). */
export async function listApiProducts(deps: Deps, actor: Actor, projectName: string, portalId?: string) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const products = await deps.prisma.apiProduct.findMany({ where: { projectId: access.project.id, ...(portalId ? { portalId } : {}) }, orderBy: { name: 'asc' } })
  const counts = await subscriptionCounts(deps.prisma, access.project.id, products.map((p) => p.name))
  return products.map((p) => productView(p, counts.get(p.name) ?? 0))
}

/** POST /apiops/api-products/promote: creates the product of referenceId, or updates it when it exists (API_MANAGEMENT MANAGE). */
export async function promoteApiProduct(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'MANAGE')
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const body = parseInput(productPromoteInput, raw)
  const name = (body.name ?? body.nameDefault)?.trim()
  if (!name) throw malformed('name: is required (or nameDefault)', { field: 'name' })
  const projectId = access.project.id
  const fields = {
    name, nameDefault: body.nameDefault ?? null, nameSecondary: body.nameSecondary ?? null, titleDefault: body.titleDefault ?? null, titleSecondary: body.titleSecondary ?? null,
    descriptionDefault: body.descriptionDefault ?? null, descriptionSecondary: body.descriptionSecondary ?? null, portalId: body.prodPortalId ?? null, type: body.type ?? null,
  }
  const taken = () => new DomainError('conflict', 'nameAlreadyExists', `API product '${name}' already exists with another referenceId`, { field: 'name', name })
  const existing = await deps.prisma.apiProduct.findUnique({ where: { projectId_referenceId: { projectId, referenceId: body.referenceId } } })
  const clash = await deps.prisma.apiProduct.findFirst({ where: { projectId, name: { equals: name, mode: 'insensitive' }, referenceId: { not: body.referenceId } }, select: { id: true } })
  if (clash) throw taken()
  const product = await (existing
    ? deps.prisma.apiProduct.update({ where: { id: existing.id }, data: fields })
    : deps.prisma.apiProduct.create({ data: { projectId, referenceId: body.referenceId, ...fields } })
  ).catch((err: unknown) => {
    if ((err as { code?: string } | null)?.code === 'P2002') throw taken()
    throw err
  })
  const counts = await subscriptionCounts(deps.prisma, projectId, [product.name])
  return { ...productView(product, counts.get(product.name) ?? 0), created: !existing }
}

/** The project of the product a referenceId names (the one named, else the first by project name), for the access decision. */
export async function productProjectName(db: Tx, referenceId: string, projectName?: string): Promise<string | undefined> {
  const product = await db.apiProduct.findFirst({ where: { referenceId, ...(projectName ? { projectId: (await db.project.findUnique({ where: { name: projectName }, select: { id: true } }))?.id ?? '-' } : {}) }, orderBy: { createdAt: 'asc' } })
  if (!product) return undefined
  return (await db.project.findUnique({ where: { id: product.projectId }, select: { name: true } }))?.name
}

/**
 * GET /apiops/api-products/{referenceId}/plans: the portal subscription plans of the product's project as the limits
 * record them (each with the families and keys of its non-retired profile limit plans, the project's and the platform's),
 * and the product's approved subscriptions (API_MANAGEMENT VIEW in its project).
 */
export async function apiProductPlans(deps: Deps, actor: Actor, referenceId: string, projectName?: string) {
  const owner = await productProjectName(deps.prisma, referenceId, projectName)
  if (!owner) throw productNotFound(referenceId)
  const access = await resolveProjectAccess(deps.prisma, actor, owner).catch((err: unknown) => {
    throw err instanceof DomainError && err.kind === 'notFound' ? productNotFound(referenceId) : err
  })
  requirePermission(access, 'API_MANAGEMENT', 'VIEW')
  const product = await deps.prisma.apiProduct.findUniqueOrThrow({ where: { projectId_referenceId: { projectId: access.project.id, referenceId } } })
  const plans = await deps.prisma.limitPlan.findMany({
    where: { managedBySubscriptionPlanId: { not: null }, OR: [{ projectId: access.project.id }, { projectId: null }], lifecycle: { not: 'RETIRED' } },
    select: { planKey: true, family: true, scope: true, managedBySubscriptionPlanId: true, managedBySubscriptionPlanName: true, currentPublishedRevision: true },
    orderBy: [{ managedBySubscriptionPlanId: 'asc' }, { family: 'asc' }, { planKey: 'asc' }],
  })
  const byPlan = new Map<string, { planId: string; planName: string | null; families: string[]; limitPlans: { planKey: string; family: string; scope: string; published: boolean }[] }>()
  for (const p of plans) {
    const id = p.managedBySubscriptionPlanId!
    const entry = byPlan.get(id) ?? { planId: id, planName: p.managedBySubscriptionPlanName, families: [], limitPlans: [] }
    if (!entry.families.includes(p.family)) entry.families.push(p.family)
    entry.limitPlans.push({ planKey: p.planKey, family: p.family, scope: p.scope, published: p.currentPublishedRevision > 0 })
    byPlan.set(id, entry)
  }
  const approved = await deps.prisma.productSubscription.count({ where: { projectId: access.project.id, productName: product.name, status: 'APPROVED' } })
  return { referenceId: product.referenceId, productName: product.name, approvedSubscriptionCount: approved, plans: [...byPlan.values()] }
}
