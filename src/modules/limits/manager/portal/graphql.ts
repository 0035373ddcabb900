import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../../platform/graphql/context.js'
import { zodGraphqlType } from '../../../../platform/graphql/zod-types.js'
import { backfillPortalSubscriptions, limitImpact } from './service.js'
import { limitImpactSchema, portalBackfillSchema } from '../view-schemas.js'

// The GraphQL door of the portal limit routes (rest.ts, spec §4.11): the same services and answers, typed from the
// REST answer schemas. The backfill's dry run is a query (it writes nothing); applying it is a mutation.

const Impact = zodGraphqlType(limitImpactSchema, 'object', 'PortalPlanLimitImpact', "What linking a portal subscription plan's limit profile to the product's approved subscriptions affects")
const Backfill = zodGraphqlType(portalBackfillSchema, 'object', 'PortalSubscriptionLimitBackfill', "The PORTAL_SUBSCRIPTION assignments a subscription plan's profile implies: created, would be created or skipped")

const PROJECT = { nullable: true, description: 'a project name; absent: the whole installation (system administrator only)' }
const scope = (projectName: string | null) => (projectName ? { projectId: projectName } : {})

@Resolver()
export class PortalLimitResolver {
  @Query(() => Impact, { description: 'GET /api/api-products/{productId}/plans/{planId}/limit-impact' })
  async portalPlanLimitImpact(
    @Ctx() ctx: GqlContext, @Arg('productName', () => String) productName: string, @Arg('planName', () => String) planName: string,
    @Arg('projectName', () => String, PROJECT) projectName: string | null,
  ) {
    return limitImpact(ctx.deps.prisma, requireViewer(ctx), productName, planName, scope(projectName))
  }

  @Query(() => Backfill, { description: 'What backfillPortalSubscriptionLimits would create; writes nothing (POST /api/limit-bindings/portal-subscriptions/backfill without apply)' })
  async portalSubscriptionLimitBackfillPreview(
    @Ctx() ctx: GqlContext, @Arg('productName', () => String) productName: string, @Arg('planName', () => String) planName: string,
    @Arg('projectName', () => String, PROJECT) projectName: string | null,
  ) {
    return backfillPortalSubscriptions(ctx.deps, requireViewer(ctx), { ...scope(projectName), productId: productName, planId: planName })
  }

  @Mutation(() => Backfill, { description: "Creates the PORTAL_SUBSCRIPTION assignments a subscription plan's profile implies for the product's approved subscriptions (…/backfill?apply=true)" })
  async backfillPortalSubscriptionLimits(
    @Ctx() ctx: GqlContext, @Arg('productName', () => String) productName: string, @Arg('planName', () => String) planName: string,
    @Arg('projectName', () => String, PROJECT) projectName: string | null,
  ) {
    return backfillPortalSubscriptions(ctx.deps, requireViewer(ctx), { ...scope(projectName), productId: productName, planId: planName, apply: 'true' })
  }
}
