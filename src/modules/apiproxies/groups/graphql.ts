import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import type { ApiProxyGroup } from '../../../generated/prisma/client.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../platform/graphql/types.js'
import { createGroup, deleteGroup, deployGroup, groupEnvironments, listGroups, setGroupMembership, undeployGroup, updateGroup } from './service.js'
import { DeployToEnvironmentArgs } from '../deployments/graphql.js'

// The GraphQL door of API proxy groups: the same service as the /apiops routes (rest.ts).

const deployment = (o: DeploymentOutcome | null) => (o ? DeploymentResultType.from(o) : null)

@ObjectType('ApiProxyGroup')
class ApiProxyGroupType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => JSONResolver, { nullable: true, description: 'relativePathList, hostList, methodList, headerList, bufferRequest, bufferResponse' }) clientRoute: unknown
}

@ObjectType('ApiProxyGroupEnvironment')
class ApiProxyGroupEnvironmentType {
  @Field(() => String) environmentName: string
  @Field(() => Boolean) deployed: boolean
}

const groupOf = (g: ApiProxyGroup) => Object.assign(new ApiProxyGroupType(), { id: g.id, name: g.name, description: g.description, clientRoute: g.clientRoute })

@Resolver(() => ApiProxyGroupType)
export class ApiProxyGroupResolver {
  @Query(() => [ApiProxyGroupType], { description: 'API proxy groups of a project by name (API_MANAGEMENT VIEW)' })
  async apiProxyGroups(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return (await listGroups(ctx.deps.prisma, requireViewer(ctx), projectName)).map(groupOf)
  }

  @Query(() => [ApiProxyGroupEnvironmentType], { description: 'The environments of the project and whether the group is deployed to each (API_MANAGEMENT VIEW)' })
  async apiProxyGroupEnvironments(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return groupEnvironments(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => ApiProxyGroupType, { description: 'Creates an API proxy group: input { name, description, clientRoute } as on POST /apiProxyGroups/ (API_MANAGEMENT MANAGE)' })
  async createApiProxyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JSONResolver) input: unknown) {
    return groupOf(await createGroup(ctx.deps.prisma, requireViewer(ctx), projectName, input))
  }

  @Mutation(() => ApiProxyGroupType, { description: 'Updates the group input.name names (API_MANAGEMENT MANAGE)' })
  async updateApiProxyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JSONResolver) input: unknown) {
    return groupOf(await updateGroup(ctx.deps.prisma, requireViewer(ctx), projectName, input))
  }

  @Mutation(() => DeploymentResultType, { nullable: true, description: 'Deletes a group (its proxies stay) and undeploys it where it ran; null when it ran nowhere (API_MANAGEMENT MANAGE)' })
  async deleteApiProxyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deployment(await deleteGroup(ctx.deps, requireViewer(ctx), projectName, name))
  }

  @Mutation(() => Boolean, { description: 'Adds an API proxy to a group (API_MANAGEMENT MANAGE)' })
  async addApiProxyToGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('groupName', () => String) groupName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    await setGroupMembership(ctx.deps.prisma, requireViewer(ctx), projectName, groupName, apiProxyName, true)
    return true
  }

  @Mutation(() => Boolean, { description: 'Removes an API proxy from a group (API_MANAGEMENT MANAGE)' })
  async removeApiProxyFromGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('groupName', () => String) groupName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    await setGroupMembership(ctx.deps.prisma, requireViewer(ctx), projectName, groupName, apiProxyName, false)
    return true
  }

  @Mutation(() => DeploymentResultType, { description: 'Deploys a group with all its proxies to one environment (API_MANAGEMENT DEPLOY_UNDEPLOY)' })
  async deployApiProxyGroup(@Ctx() ctx: GqlContext, @Args(() => DeployToEnvironmentArgs) { projectName, name, environmentName, description, persistent }: DeployToEnvironmentArgs) {
    return DeploymentResultType.from(await deployGroup(ctx.deps, requireViewer(ctx), projectName, name, environmentName, { description, persistent }))
  }

  @Mutation(() => DeploymentResultType, { description: 'Undeploys a group and its proxies from one environment; description and persistent annotate the undeploy history record (API_MANAGEMENT DEPLOY_UNDEPLOY)' })
  async undeployApiProxyGroup(@Ctx() ctx: GqlContext, @Args(() => DeployToEnvironmentArgs) { projectName, name, environmentName, description, persistent }: DeployToEnvironmentArgs) {
    return DeploymentResultType.from(await undeployGroup(ctx.deps, requireViewer(ctx), projectName, name, environmentName, { description, persistent }))
  }
}
