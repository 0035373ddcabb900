import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { changeCondition, changeCredentials, changeEndpoints, createRlcl, deleteRlcl, getRlcl, listRlcls, updateRlcl, type ListChange } from './service.js'
import type { RlclView } from './views.js'

// The GraphQL door of the rate-limit control lists: the same service as the /apiops routes (rest.ts), so both doors
// share every rule, permission (reads API_MANAGEMENT VIEW, writes MANAGE), deploy and audit event. Bodies are the
// pages' JSON (`input` as on POST/PUT …/rlcl/, `endpointRateLimitList` and `conditionRuleList` as on the list pages);
// each write answers the RLCL as it now is.

@ObjectType('Rlcl', { description: 'A rate-limit control list (vendor 12-rlcl): a rate-limit rule bound to credentials and API proxy endpoints' })
class RlclType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => String, { description: 'BEFORE_PROXY_GROUP … AFTER_API_METHOD, or the older FIRST / LAST' }) executionOrder: string
  @Field(() => Int) cacheConnectionTimeoutInSeconds: number
  @Field(() => String, { description: 'FAIL or CONTINUE' }) cacheErrorHandlingType: string
  @Field(() => String, { description: 'FIXED or SLIDING' }) timeIntervalWindowType: string
  @Field(() => Boolean) showRateLimitStatisticsInResponseHeader: boolean
  @Field(() => JSONResolver, { nullable: true, description: 'the variable identifying the caller (VariableDTO)' }) targetVariable: unknown
  @Field(() => String, { description: 'VARIABLE or AUTH_RESOLVED (executionOrder then AFTER_API_METHOD)' }) identitySource: string
  @Field(() => JSONResolver, { description: '[{ operator, value }]: the target audience (OR)' }) targetAudienceRuleList: unknown
  @Field(() => String, { description: 'BLOCK or GENERAL_QUOTA' }) outOfTargetAction: string
  @Field(() => String, { description: 'TOTAL or PER_IDENTITY' }) generalQuotaMode: string
  @Field(() => Int, { nullable: true }) generalQuotaPermittedMessageCount: number | null
  @Field(() => Int, { nullable: true }) generalQuotaTimeIntervalPeriodLength: number | null
  @Field(() => String, { nullable: true }) generalQuotaTimeInterval: string | null
  @Field(() => JSONResolver, { nullable: true, description: '{ conditionRuleList }; null: applied unconditionally' }) condition: unknown
  @Field(() => [String]) credentialNameList: string[]
  @Field(() => JSONResolver, { description: 'the endpoint entries as GET …/rlcl/{rlclName}/ shows them (apiProxyName, endpointName, endpointHTTPMethod, permittedMessageCount, …)' }) endpointRateLimitList: unknown
}

const view = (v: RlclView) => Object.assign(new RlclType(), v)

@Resolver(() => RlclType)
export class RlclResolver {
  @Query(() => [RlclType], { description: 'The RLCLs of a project with their credentials, endpoint entries and condition (API_MANAGEMENT VIEW)' })
  async rlcls(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return (await listRlcls(ctx.deps.prisma, requireViewer(ctx), projectName)).map(view)
  }

  @Query(() => RlclType, { description: 'One RLCL (API_MANAGEMENT VIEW)' })
  async rlcl(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return view(await getRlcl(ctx.deps.prisma, requireViewer(ctx), projectName, name))
  }

  @Mutation(() => RlclType, { description: 'Creates an empty RLCL; input as the body of POST …/rlcl/ (API_MANAGEMENT MANAGE)' })
  async createRlcl(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JSONResolver) input: unknown) {
    const actor = requireViewer(ctx)
    await createRlcl(ctx.deps, actor, projectName, input)
    return view(await getRlcl(ctx.deps.prisma, actor, projectName, String((input as { name?: unknown }).name)))
  }

  @Mutation(() => RlclType, { description: 'Updates every field of an RLCL but its name; input as the body of PUT …/rlcl/{rlclName}/ (API_MANAGEMENT MANAGE)' })
  async updateRlcl(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => JSONResolver) input: unknown) {
    const actor = requireViewer(ctx)
    await updateRlcl(ctx.deps, actor, projectName, name, input)
    return view(await getRlcl(ctx.deps.prisma, actor, projectName, name))
  }

  @Mutation(() => Boolean, { description: 'Deletes an RLCL with its credentials, endpoints and condition; undeployed from the environments (API_MANAGEMENT MANAGE)' })
  async deleteRlcl(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    await deleteRlcl(ctx.deps, requireViewer(ctx), projectName, name)
    return true
  }

  @Mutation(() => RlclType, { description: 'Adds credentials (by username) to an RLCL; duplicates are ignored (API_MANAGEMENT MANAGE)' })
  addRlclCredentials(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('credentialNameList', () => [String]) credentialNameList: string[]) {
    return this.credentials(ctx, projectName, name, 'add', credentialNameList)
  }

  @Mutation(() => RlclType, { description: 'Replaces the credentials of an RLCL (API_MANAGEMENT MANAGE)' })
  replaceRlclCredentials(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('credentialNameList', () => [String]) credentialNameList: string[]) {
    return this.credentials(ctx, projectName, name, 'replace', credentialNameList)
  }

  @Mutation(() => RlclType, { description: 'Removes credentials from an RLCL; ones not in it are ignored (API_MANAGEMENT MANAGE)' })
  removeRlclCredentials(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('credentialNameList', () => [String]) credentialNameList: string[]) {
    return this.credentials(ctx, projectName, name, 'remove', credentialNameList)
  }

  @Mutation(() => RlclType, { description: 'Adds endpoint entries (endpointRateLimitList as on POST …/endpoints/) (API_MANAGEMENT MANAGE)' })
  addRlclEndpoints(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('endpointRateLimitList', () => JSONResolver) list: unknown) {
    return this.endpoints(ctx, projectName, name, 'add', list)
  }

  @Mutation(() => RlclType, { description: 'Replaces the endpoint entries of an RLCL (API_MANAGEMENT MANAGE)' })
  replaceRlclEndpoints(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('endpointRateLimitList', () => JSONResolver) list: unknown) {
    return this.endpoints(ctx, projectName, name, 'replace', list)
  }

  @Mutation(() => RlclType, { description: 'Removes endpoint entries, matched by apiProxyName, endpointName and endpointHTTPMethod (API_MANAGEMENT MANAGE)' })
  removeRlclEndpoints(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('endpointRateLimitList', () => JSONResolver) list: unknown) {
    return this.endpoints(ctx, projectName, name, 'remove', list)
  }

  @Mutation(() => RlclType, { description: 'Adds the condition of an RLCL that has none (conditionRuleList as on POST …/condition/) (API_MANAGEMENT MANAGE)' })
  addRlclCondition(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('conditionRuleList', () => JSONResolver) rules: unknown) {
    return this.condition(ctx, projectName, name, 'add', { conditionRuleList: rules })
  }

  @Mutation(() => RlclType, { description: "Replaces an RLCL's condition (API_MANAGEMENT MANAGE)" })
  replaceRlclCondition(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('conditionRuleList', () => JSONResolver) rules: unknown) {
    return this.condition(ctx, projectName, name, 'replace', { conditionRuleList: rules })
  }

  @Mutation(() => RlclType, { description: 'Removes the condition: the RLCL then applies unconditionally (API_MANAGEMENT MANAGE)' })
  removeRlclCondition(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return this.condition(ctx, projectName, name, 'remove', undefined)
  }

  private async credentials(ctx: GqlContext, projectName: string, name: string, change: ListChange, credentialNameList: string[]) {
    const actor = requireViewer(ctx)
    await changeCredentials(ctx.deps, actor, projectName, name, change, { credentialNameList })
    return view(await getRlcl(ctx.deps.prisma, actor, projectName, name))
  }

  private async endpoints(ctx: GqlContext, projectName: string, name: string, change: ListChange, endpointRateLimitList: unknown) {
    const actor = requireViewer(ctx)
    await changeEndpoints(ctx.deps, actor, projectName, name, change, { endpointRateLimitList })
    return view(await getRlcl(ctx.deps.prisma, actor, projectName, name))
  }

  private async condition(ctx: GqlContext, projectName: string, name: string, change: 'add' | 'replace' | 'remove', body: unknown) {
    const actor = requireViewer(ctx)
    await changeCondition(ctx.deps, actor, projectName, name, change, body)
    return view(await getRlcl(ctx.deps.prisma, actor, projectName, name))
  }
}
