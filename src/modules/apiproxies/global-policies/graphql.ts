import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../platform/graphql/types.js'
import { createGlobalPolicy, deleteGlobalPolicy, getGlobalPolicy, listGlobalPolicies, updateGlobalPolicy } from './service.js'

@ObjectType('GlobalPolicy', { description: 'A project\'s global policy (the body is never returned, so no secret is)' })
export class GlobalPolicyType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { description: 'the `_class` of the policy' }) policyType: string
  @Field(() => String) policyTypeLabel: string
}

@ObjectType('GlobalPolicyWrite')
class GlobalPolicyWriteType {
  @Field(() => GlobalPolicyType) globalPolicy: GlobalPolicyType
  @Field(() => DeploymentResultType, { nullable: true, description: 'the redeploy of the project\'s API proxies where they run; null when none runs' }) deploymentResult: DeploymentResultType | null
}

const deployment = (outcome: DeploymentOutcome | null) => (outcome ? DeploymentResultType.from(outcome) : null)
const PERMISSION = 'API_MANAGEMENT (or GLOBAL_POLICY)'

/** The twins of /apiops/projects/{projectName}/globalPolicies/. */
@Resolver()
export class GlobalPolicyResolver {
  @Query(() => [GlobalPolicyType], { description: `${PERMISSION} VIEW` })
  async globalPolicies(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listGlobalPolicies(ctx.deps.prisma, requireViewer(ctx), projectName)
  }

  @Query(() => GlobalPolicyType, { description: `${PERMISSION} VIEW; the name matched case-insensitively` })
  async globalPolicy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getGlobalPolicy(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => GlobalPolicyWriteType, { description: `Creates a global policy from its snapshot (\`_class\`, name and the type's fields, as REST's body); ${PERMISSION} MANAGE` })
  async createGlobalPolicy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('policy', () => JSONResolver) policy: unknown) {
    const out = await createGlobalPolicy(ctx.deps, requireViewer(ctx), projectName, policy)
    return { globalPolicy: out.view, deploymentResult: deployment(out.deploymentResult) }
  }

  @Mutation(() => GlobalPolicyWriteType, { description: `Replaces a global policy (same type); ${PERMISSION} MANAGE` })
  async updateGlobalPolicy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('policy', () => JSONResolver) policy: unknown) {
    const out = await updateGlobalPolicy(ctx.deps, requireViewer(ctx), projectName, name, policy)
    return { globalPolicy: out.view, deploymentResult: deployment(out.deploymentResult) }
  }

  @Mutation(() => DeploymentResultType, { nullable: true, description: `Deletes a global policy; the redeploy of the project's API proxies where they run (null: none runs); ${PERMISSION} MANAGE` })
  async deleteGlobalPolicy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deployment(await deleteGlobalPolicy(ctx.deps, requireViewer(ctx), projectName, name))
  }
}
