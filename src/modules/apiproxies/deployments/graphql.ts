import { Arg, ArgsType, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import type { ApiDeployHistory } from '../../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../platform/graphql/types.js'
import { deleteHistory, historyDetail, listHistory, rollbackGroup, rollbackProxy, type RollbackResult } from './history.js'
import { deployStatus, invokeInfo, routeHealth } from './status.js'

/** What a deploy of an API proxy or a group to one environment takes (deployApiProxy, deployApiProxyGroup). */
@ArgsType()
export class DeployToEnvironmentArgs {
  @Field(() => String) projectName: string
  @Field(() => String) name: string
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true, description: 'notes for the deploy history record' }) description?: string | null
  @Field(() => Boolean, { nullable: true, description: 'keep the deploy history record from automatic deletion' }) persistent?: boolean | null
}

// The GraphQL door of the deployment pages: the same services as rest.ts.

@ObjectType('ApiProxyDeployStatus')
class DeployStatusType {
  @Field(() => Boolean) deployed: boolean
  @Field(() => String, { nullable: true, description: 'ISO 8601 time of the newest deploy to the environment' }) lastDeployTime: string | null
  @Field(() => Int, { nullable: true, description: 'revision of the newest deploy history record of the environment' }) revision: number | null
  @Field(() => Boolean) redeployRequired: boolean
}

@ObjectType('ApiProxyRoutePod')
class RoutePodType {
  @Field(() => Boolean) routeActive: boolean
  @Field(() => String, { nullable: true }) servedPath: string | null
  @Field(() => [String]) methods: string[]
  @Field(() => String) workerPodIp: string
  @Field(() => String) apinizerRootContext: string
  @Field(() => String, { nullable: true }) error?: string
}

@ObjectType('ApiProxyRouteHealth')
class RouteHealthType {
  @Field(() => Boolean) routeActive: boolean
  @Field(() => String, { nullable: true }) servedPath: string | null
  @Field(() => [String]) methods: string[]
  @Field(() => String) apinizerRootContext: string
  @Field(() => Int) podsResponded: number
  @Field(() => Int) podsActive: number
  @Field(() => Boolean) deployedInManager: boolean
  @Field(() => Boolean) inconsistent: boolean
  @Field(() => [RoutePodType]) pods: RoutePodType[]
}

@ObjectType('ApiProxyInvokeInfo')
class InvokeInfoType {
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true, description: "the environment's access URL" }) gatewayBaseUrl: string | null
  @Field(() => String) rootContext: string
  @Field(() => [String]) fullPaths: string[]
  @Field(() => [String]) methods: string[]
  @Field(() => [String]) schemes: string[]
  @Field(() => Boolean) deployed: boolean
}

@ObjectType('DeployHistoryRecord')
class DeployHistoryType {
  @Field(() => Int) revision: number
  @Field(() => String) username: string
  @Field(() => String, { description: 'ISO 8601' }) deploymentTime: string
  @Field(() => String) description: string
  @Field(() => String) environment: string
  @Field(() => Boolean, { description: 'true for a deploy, false for an undeploy' }) deploy: boolean
  @Field(() => Boolean) persistent: boolean
  @Field(() => String, { nullable: true, description: 'API proxies only' }) backendApiVersion: string | null
}

@ObjectType('DeployHistoryRollback')
class RollbackType {
  @Field(() => Int) revision: number
  @Field(() => String) resultMessage: string
  @Field(() => DeploymentResultType, { nullable: true, description: 'null when it was deployed nowhere' }) deploymentResult: DeploymentResultType | null
}

const historyOf = (r: ApiDeployHistory): DeployHistoryType =>
  Object.assign(new DeployHistoryType(), {
    revision: r.revision, username: r.username, deploymentTime: r.deployedAt.toISOString(), description: r.description, environment: r.environmentName,
    deploy: r.deploy, persistent: r.persistent, backendApiVersion: r.backendApiVersion,
  })
const rollbackOf = (r: RollbackResult) => Object.assign(new RollbackType(), { ...r, deploymentResult: r.deploymentResult ? DeploymentResultType.from(r.deploymentResult) : null })

const KINDS = { proxy: 'proxy', group: 'group' } as const

@Resolver()
export class DeploymentResolver {
  @Query(() => DeployStatusType, { description: 'Whether an API proxy is deployed to an environment, its newest deploy revision and whether it needs a redeploy (API_MANAGEMENT VIEW)' })
  async apiProxyDeployStatus(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('environmentName', () => String) environmentName: string) {
    return Object.assign(new DeployStatusType(), await deployStatus(ctx.deps.prisma, requireViewer(ctx), projectName, name, environmentName))
  }

  @Query(() => RouteHealthType, { description: "Whether an API proxy's route is active on an environment's workers (API_MANAGEMENT VIEW)" })
  async apiProxyRouteHealth(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('environmentName', () => String) environmentName: string) {
    return routeHealth(ctx.deps.prisma, requireViewer(ctx), projectName, name, environmentName)
  }

  @Query(() => [InvokeInfoType], { description: 'How to call an API proxy, per environment of the project (API_MANAGEMENT VIEW)' })
  async apiProxyInvokeInfo(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return invokeInfo(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @Query(() => [DeployHistoryType], { description: 'Deploy history of an API proxy, newest first (API_MANAGEMENT VIEW)' })
  async apiProxyDeployHistories(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return (await listHistory(ctx.deps.prisma, requireViewer(ctx), projectName, KINDS.proxy, name)).map(historyOf)
  }

  @Query(() => DeployHistoryType, { description: 'One deploy history record of an API proxy (API_MANAGEMENT VIEW)' })
  async apiProxyDeployHistory(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('revision', () => Int) revision: number) {
    return historyOf(await historyDetail(ctx.deps.prisma, requireViewer(ctx), projectName, KINDS.proxy, name, String(revision)))
  }

  @Query(() => [DeployHistoryType], { description: 'Deploy history of an API proxy group, newest first (API_MANAGEMENT VIEW)' })
  async apiProxyGroupDeployHistories(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return (await listHistory(ctx.deps.prisma, requireViewer(ctx), projectName, KINDS.group, name)).map(historyOf)
  }

  @Query(() => DeployHistoryType, { description: 'One deploy history record of an API proxy group (API_MANAGEMENT VIEW)' })
  async apiProxyGroupDeployHistory(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('revision', () => Int) revision: number) {
    return historyOf(await historyDetail(ctx.deps.prisma, requireViewer(ctx), projectName, KINDS.group, name, String(revision)))
  }

  @Mutation(() => DeployHistoryType, { description: 'Deletes a deploy history record of an API proxy (no rollback to it afterwards); answers the deleted record (API_MANAGEMENT MANAGE)' })
  async deleteApiProxyDeployHistory(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('revision', () => Int) revision: number) {
    return historyOf(await deleteHistory(ctx.deps.prisma, requireViewer(ctx), projectName, KINDS.proxy, name, String(revision)))
  }

  @Mutation(() => DeployHistoryType, { description: 'Deletes a deploy history record of an API proxy group; answers the deleted record (API_MANAGEMENT MANAGE)' })
  async deleteApiProxyGroupDeployHistory(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('revision', () => Int) revision: number) {
    return historyOf(await deleteHistory(ctx.deps.prisma, requireViewer(ctx), projectName, KINDS.group, name, String(revision)))
  }

  @Mutation(() => RollbackType, { description: 'Rolls an API proxy back to a deploy history revision and deploys it to environmentName, or else where it runs (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)' })
  async rollbackApiProxy(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('revision', () => Int) revision: number,
    @Arg('environmentName', () => String, { nullable: true }) environmentName?: string | null,
  ) {
    return rollbackOf(await rollbackProxy(ctx.deps, requireViewer(ctx), projectName, name, String(revision), environmentName == null ? {} : { environmentName }))
  }

  @Mutation(() => RollbackType, { description: 'Rolls an API proxy group back to a deploy history revision (description, client route, members) and deploys it to environmentName, or else where it runs (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)' })
  async rollbackApiProxyGroup(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('revision', () => Int) revision: number,
    @Arg('environmentName', () => String, { nullable: true }) environmentName?: string | null,
  ) {
    return rollbackOf(await rollbackGroup(ctx.deps, requireViewer(ctx), projectName, name, String(revision), environmentName == null ? {} : { environmentName }))
  }
}
