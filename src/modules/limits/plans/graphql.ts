import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { LimitPlan, LimitPlanRevision } from '../../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { byIdLoader, hasManyLoader } from '../../../platform/graphql/loaders.js'
import { withoutNulls } from '../../../platform/graphql/inputs.js'
import { PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import {
  createPlan, deletePlan, getPlan, getRevision, listPlans, openDraftRevision, publishRevision, replaceDraftRevision, retirePlan, updatePlan,
} from './service.js'
import { planView, revisionView } from './views.js'

// The GraphQL door of limit plans and revisions (spec §2.12, §4.7): the same operations, errors and scope rules
// as REST. projectName `admin` addresses the platform catalog.

@ObjectType('LimitPlanRevision', { description: 'A revision of a plan; published revisions are never rewritten' })
export class LimitPlanRevisionType {
  @Field(() => String) planKey: string
  @Field(() => Int, { description: 'from 1' }) revision: number
  @Field(() => String, { description: 'DRAFT, PUBLISHED, SUPERSEDED' }) status: string
  @Field(() => JSONResolver, { description: 'one arm, requestRate or aiBudget, exactly as sent' }) ruleSpec: unknown
  @Field(() => String) semanticChecksum: string
  @Field(() => String, { nullable: true }) changeReason: string | null
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) publishedAt: string | null
  @Field(() => String, { nullable: true }) publishedBy: string | null
  planId: string
  viewProject: string
}

@ObjectType('LimitPlan', { description: 'A limit plan (spec §2.12)' })
export class LimitPlanType {
  @Field(() => String, { description: 'minted from the name, never changes' }) planKey: string
  @Field(() => String, { description: 'REQUEST_RATE or AI_TOKEN_BUDGET' }) family: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) nameTr: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => [String]) labels: string[]
  @Field(() => String, { description: 'DRAFT, PUBLISHED, RETIRED' }) lifecycle: string
  @Field(() => Int, { description: '0 until the first publish' }) currentPublishedRevision: number
  @Field(() => Boolean) platformScoped: boolean
  @Field(() => String, { nullable: true }) managedBySubscriptionPlanId: string | null
  @Field(() => String, { nullable: true }) managedBySubscriptionPlanName: string | null
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) retiredAt: string | null
  @Field(() => String, { nullable: true }) retiredBy: string | null
  @Field(() => Int) version: number
  id: string
  /** the project the plan was reached through (a name, `admin` for the platform catalog, or `id:<projectId>`): its assignments relation stays inside it */
  viewProject: string
}

@ObjectType('LimitPlanPage')
export class LimitPlanPage extends PageOf(LimitPlanType, 'LimitPlanPage') {}

@ArgsType()
export class LimitPlanListArgs extends PagingArgs {
  @Field(() => String, { nullable: true, description: 'REQUEST_RATE or AI_TOKEN_BUDGET' }) family?: string
  @Field(() => Boolean, { nullable: true, description: 'add platform plans (read-only, platformScoped true)' }) includePlatform?: boolean
  @Field(() => Boolean, { nullable: true, description: 'add plans owned by a subscription plan' }) includeManaged?: boolean
}

@InputType('LimitPlanCreateInput')
export class LimitPlanCreateInput {
  @Field(() => String, { nullable: true, description: 'required: REQUEST_RATE or AI_TOKEN_BUDGET (limit.plan.familyRequired)' }) family?: string
  @Field(() => String, { nullable: true, description: 'required (limit.plan.nameRequired)' }) name?: string
  @Field(() => String, { nullable: true }) nameTr?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => [String], { nullable: true }) labels?: string[]
  @Field(() => JSONResolver, { nullable: true, description: 'required: exactly one arm matching the family' }) initialRuleSpec?: unknown
}

@InputType('LimitPlanUpdateInput')
export class LimitPlanUpdateInput {
  @Field(() => String, { nullable: true, description: 'required' }) name?: string
  @Field(() => String, { nullable: true }) nameTr?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => [String], { nullable: true, description: 'replaces the list' }) labels?: string[]
  @Field(() => Int, { nullable: true, description: 'required in practice: omitted gives limit.plan.staleVersion' }) version?: number
}

@InputType('LimitPlanDraftInput')
export class LimitPlanDraftInput {
  @Field(() => JSONResolver, { nullable: true, description: 'required: exactly one arm matching the family' }) ruleSpec?: unknown
  @Field(() => String, { nullable: true }) changeReason?: string
}

const plain = <T>(input: T): Record<string, unknown> => withoutNulls(JSON.parse(JSON.stringify(input ?? {})) as Record<string, unknown>)
const toPlan = (plan: LimitPlan, viewProject: string) => Object.assign(new LimitPlanType(), planView(plan), { id: plan.id, viewProject })
export const toRevision = (planKey: string, r: LimitPlanRevision, viewProject: string) =>
  Object.assign(new LimitPlanRevisionType(), revisionView(planKey, r), { planId: r.planId, viewProject })

const revisionsOfPlanLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'limitRevisionsByPlan', (db, ids) => db.limitPlanRevision.findMany({ where: { planId: { in: ids } }, orderBy: { revision: 'asc' } }), (r) => r.planId)
export const limitPlanLoader = (ctx: GqlContext) => byIdLoader(ctx, 'limitPlanById', (db, ids) => db.limitPlan.findMany({ where: { id: { in: ids } } }))

@Resolver(() => LimitPlanType)
export class LimitPlanResolver {
  @Query(() => LimitPlanPage, { description: 'Plans of a catalog (projectName admin: platform); sort name (default), family, lifecycle' })
  async limitPlans(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => LimitPlanListArgs) args: LimitPlanListArgs) {
    const page = await listPlans(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(args))
    return { ...page, items: page.items.map((p) => toPlan(p, projectName)) }
  }

  @Query(() => LimitPlanType)
  async limitPlan(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('planKey', () => String) planKey: string) {
    return toPlan(await getPlan(ctx.deps.prisma, requireViewer(ctx), projectName, planKey), projectName)
  }

  @Query(() => LimitPlanRevisionType, { description: 'One revision; `which` is a revision number, draft or published' })
  async limitPlanRevision(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('planKey', () => String) planKey: string,
    @Arg('which', () => String) which: string,
  ) {
    const { plan, revision } = await getRevision(ctx.deps.prisma, requireViewer(ctx), projectName, planKey, which as 'draft')
    return toRevision(plan.planKey, revision, projectName)
  }

  @Mutation(() => LimitPlanType, { description: 'Create a plan (DRAFT with revision 1 DRAFT); idempotencyKey as the Idempotency-Key header' })
  async createLimitPlan(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('idempotencyKey', () => String) idempotencyKey: string,
    @Arg('input', () => LimitPlanCreateInput) input: LimitPlanCreateInput,
  ) {
    return toPlan((await createPlan(ctx.deps, requireViewer(ctx), projectName, { idempotencyKey, body: plain(input) })).plan, projectName)
  }

  @Mutation(() => LimitPlanType)
  async updateLimitPlan(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('planKey', () => String) planKey: string,
    @Arg('input', () => LimitPlanUpdateInput) input: LimitPlanUpdateInput,
  ) {
    return toPlan(await updatePlan(ctx.deps.prisma, requireViewer(ctx), projectName, planKey, plain(input)), projectName)
  }

  @Mutation(() => Boolean, { description: 'Only a never-published plan no assignment references' })
  async deleteLimitPlan(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('planKey', () => String) planKey: string) {
    await deletePlan(ctx.deps.prisma, requireViewer(ctx), projectName, planKey)
    return true
  }

  @Mutation(() => LimitPlanRevisionType, { description: 'Open a draft revision (limit.plan.draftAlreadyExists when one is open)' })
  async openLimitPlanDraft(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('planKey', () => String) planKey: string,
    @Arg('input', () => LimitPlanDraftInput) input: LimitPlanDraftInput,
  ) {
    const { plan, revision } = await openDraftRevision(ctx.deps.prisma, requireViewer(ctx), projectName, planKey, plain(input))
    return toRevision(plan.planKey, revision, projectName)
  }

  @Mutation(() => LimitPlanRevisionType, { description: 'Replace the rule spec of an open draft' })
  async replaceLimitPlanDraft(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('planKey', () => String) planKey: string,
    @Arg('revision', () => Int) revisionNumber: number,
    @Arg('input', () => LimitPlanDraftInput) input: LimitPlanDraftInput,
  ) {
    const { plan, revision } = await replaceDraftRevision(ctx.deps.prisma, requireViewer(ctx), projectName, planKey, revisionNumber, plain(input))
    return toRevision(plan.planKey, revision, projectName)
  }

  @Mutation(() => LimitPlanRevisionType, { description: 'Publish a draft revision; referencing ACTIVE assignments are recompiled and pushed' })
  async publishLimitPlanRevision(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('planKey', () => String) planKey: string,
    @Arg('revision', () => Int) revisionNumber: number,
    @Arg('changeReason', () => String, { nullable: true }) changeReason: string | null,
  ) {
    const { plan, revision } = await publishRevision(ctx.deps, requireViewer(ctx), projectName, planKey, revisionNumber, changeReason ? { changeReason } : {})
    return toRevision(plan.planKey, revision, projectName)
  }

  @Mutation(() => LimitPlanType)
  async retireLimitPlan(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('planKey', () => String) planKey: string) {
    return toPlan(await retirePlan(ctx.deps.prisma, requireViewer(ctx), projectName, planKey), projectName)
  }

  @FieldResolver(() => [LimitPlanRevisionType], { description: 'oldest first' })
  async revisions(@Root() plan: LimitPlanType, @Ctx() ctx: GqlContext) {
    return (await revisionsOfPlanLoader(ctx).load(plan.id)).map((r) => toRevision(plan.planKey, r, plan.viewProject))
  }

  @FieldResolver(() => LimitPlanRevisionType, { nullable: true, description: 'the open draft, if any' })
  async draftRevision(@Root() plan: LimitPlanType, @Ctx() ctx: GqlContext) {
    const draft = (await revisionsOfPlanLoader(ctx).load(plan.id)).find((r) => r.status === 'DRAFT')
    return draft ? toRevision(plan.planKey, draft, plan.viewProject) : null
  }

  @FieldResolver(() => LimitPlanRevisionType, { nullable: true, description: 'the current published revision, if any' })
  async publishedRevision(@Root() plan: LimitPlanType, @Ctx() ctx: GqlContext) {
    const published = (await revisionsOfPlanLoader(ctx).load(plan.id)).find((r) => r.revision === plan.currentPublishedRevision)
    return published ? toRevision(plan.planKey, published, plan.viewProject) : null
  }
}

@Resolver(() => LimitPlanRevisionType)
export class LimitPlanRevisionResolver {
  @FieldResolver(() => LimitPlanType)
  async plan(@Root() revision: LimitPlanRevisionType, @Ctx() ctx: GqlContext) {
    return toPlan((await limitPlanLoader(ctx).load(revision.planId))!, revision.viewProject)
  }
}

export { toPlan }
