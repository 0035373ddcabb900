import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../platform/graphql/types.js'
import { createPolicyGroup, deletePolicyGroup, getPolicyGroup, listPolicyGroups, updatePolicyGroup } from './service.js'

@ObjectType('PolicyGroup', { description: 'A project\'s policy group (the policy list is never returned, so no secret is)' })
export class PolicyGroupType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: 'REQUEST, RESPONSE or ERROR' }) targetPipeline: string | null
}

@ObjectType('PolicyGroupWrite')
class PolicyGroupWriteType {
  @Field(() => PolicyGroupType) policyGroup: PolicyGroupType
  @Field(() => DeploymentResultType, { nullable: true, description: 'the redeploy of the API proxies running the group, where they run; null when none runs' }) deploymentResult: DeploymentResultType | null
}

const deployment = (outcome: DeploymentOutcome | null) => (outcome ? DeploymentResultType.from(outcome) : null)

/** The twins of /apiops/projects/{projectName}/policyGroups/ (API_MANAGEMENT). */
@Resolver()
export class PolicyGroupResolver {
  @Query(() => [PolicyGroupType], { description: 'API_MANAGEMENT VIEW' })
  async policyGroups(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listPolicyGroups(ctx.deps.prisma, requireViewer(ctx), projectName)
  }

  @Query(() => PolicyGroupType, { description: 'API_MANAGEMENT VIEW; the name matched case-insensitively' })
  async policyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getPolicyGroup(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => PolicyGroupWriteType, { description: 'Creates a policy group from its snapshot (as REST\'s body); stored, not deployed; API_MANAGEMENT MANAGE' })
  async createPolicyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('group', () => JSONResolver) group: unknown) {
    const out = await createPolicyGroup(ctx.deps, requireViewer(ctx), projectName, group)
    return { policyGroup: out.view, deploymentResult: deployment(out.deploymentResult) }
  }

  @Mutation(() => PolicyGroupWriteType, { description: 'Replaces a policy group; the API proxies running it are redeployed where they run; API_MANAGEMENT MANAGE' })
  async updatePolicyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('group', () => JSONResolver) group: unknown) {
    const out = await updatePolicyGroup(ctx.deps, requireViewer(ctx), projectName, name, group)
    return { policyGroup: out.view, deploymentResult: deployment(out.deploymentResult) }
  }

  @Mutation(() => DeploymentResultType, { nullable: true, description: 'Deletes a policy group and detaches it from the API proxies running it (redeployed where they run); API_MANAGEMENT MANAGE' })
  async deletePolicyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deployment(await deletePolicyGroup(ctx.deps, requireViewer(ctx), projectName, name))
  }
}
