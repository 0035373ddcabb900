import { Arg, Args, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { ApiProxy } from '../../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { withoutNulls } from '../../../platform/graphql/inputs.js'
import { groupsOfApiProxyLoader } from '../../../platform/graphql/loaders.js'
import { PageOf, SearchPagingArgs } from '../../../platform/graphql/types.js'
import { deleteApiProxyAndUndeploy } from './delete.js'
import { API_PROXY_KINDS, apiProxiesOfProjects, createApiProxy, getApiProxy, pageApiProxies, setApiProxyGroups, type ApiProxyInput } from './service.js'
import type { Project } from '../../../generated/prisma/client.js'
import { guardedRelationLoader, ProjectType } from '../../projects/graphql.js'

@ObjectType('ApiProxy')
export class ApiProxyType {
  @Field(() => String) name: string
  @Field(() => String, { description: API_PROXY_KINDS.join(', ') }) kind: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { nullable: true, description: 'MCP: PASSTHROUGH or AGGREGATE; A2A: AGENT_EXPOSE, PASSTHROUGH or SKILL_ROUTE; null otherwise' }) routingMode: string | null
  @Field(() => Int, { description: 'deployment revision of the proxy routing (0: never deployed)' }) revision: number
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@ObjectType('ApiProxyPage')
export class ApiProxyPage extends PageOf(ApiProxyType, 'ApiProxyPage') {}

@InputType('ApiProxyInput')
export class ApiProxyInputType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: `${API_PROXY_KINDS.join(', ')}; default REST` }) kind?: ApiProxyInput['kind']
  @Field(() => [String], { nullable: true, description: 'API proxy group names; missing groups are created' }) groups?: string[]
}

@Resolver(() => ApiProxyType)
export class ApiProxyResolver {
  @Query(() => ApiProxyPage, { description: 'API proxies of a project (API_MANAGEMENT VIEW)' })
  async apiProxies(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => SearchPagingArgs) paging: SearchPagingArgs) {
    return pageApiProxies(ctx.deps.prisma, requireViewer(ctx), projectName, paging)
  }

  @Query(() => ApiProxyType)
  async apiProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getApiProxy(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @FieldResolver(() => [String], { description: 'names of the API proxy groups the proxy belongs to' })
  async groups(@Root() proxy: ApiProxy, @Ctx() ctx: GqlContext) {
    return (await groupsOfApiProxyLoader(ctx).load(proxy.id)).map((g) => g.name)
  }

  @Mutation(() => ApiProxyType, { description: 'API_MANAGEMENT MANAGE' })
  async createApiProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => ApiProxyInputType) input: ApiProxyInputType) {
    return createApiProxy(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(input))
  }

  @Mutation(() => ApiProxyType, { description: 'Replaces the groups of the proxy (API_MANAGEMENT MANAGE); missing groups are created' })
  async setApiProxyGroups(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('groups', () => [String]) groups: string[],
  ) {
    return setApiProxyGroups(ctx.deps.prisma, requireViewer(ctx), projectName, name, groups)
  }

  @Mutation(() => Boolean, { description: 'Deletes the proxy with its routing and endpoints and undeploys them from every environment (API_MANAGEMENT MANAGE)' })
  async deleteApiProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    await deleteApiProxyAndUndeploy(ctx.deps, requireViewer(ctx), projectName, name)
    return true
  }
}

/** Project.apiProxies: the walk sits beside the proxies it reads, so the projects module imports no area above it. */
@Resolver(() => ProjectType)
export class ProjectApiProxiesResolver {
  @FieldResolver(() => [ApiProxyType], { nullable: true, description: 'needs API_MANAGEMENT VIEW' })
  async apiProxies(@Root() project: Project, @Ctx() ctx: GqlContext) {
    return guardedRelationLoader(ctx, 'apiProxiesByProject', apiProxiesOfProjects).load(project.id)
  }
}
