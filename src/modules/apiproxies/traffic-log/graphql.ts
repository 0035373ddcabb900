import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { plainInput } from '../../../platform/graphql/zod-types.js'
import { deleteMethodOverride, getTrafficLogSettings, listTrafficLogSettings, putMethodOverride, updateTrafficLogSettings } from './service.js'

// The GraphQL door of the traffic log settings pages (rest.ts): the same service, the same bodies (JSON: the connector
// maps are keyed by connection names, which GraphQL input types cannot say), the same refusals.

@Resolver()
export class TrafficLogSettingsResolver {
  @Query(() => [JSONResolver], { description: "Traffic log settings of an API proxy, every environment's or one environment's, as GET …/trafficLogSettings/[{environmentName}/] answers them (API_MANAGEMENT VIEW)" })
  async apiProxyTrafficLogSettings(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('environmentName', () => String, { nullable: true }) environmentName?: string | null,
  ) {
    const actor = requireViewer(ctx)
    return environmentName == null ? listTrafficLogSettings(ctx.deps.prisma, actor, projectName, apiProxyName) : getTrafficLogSettings(ctx.deps.prisma, actor, projectName, apiProxyName, environmentName)
  }

  @Mutation(() => JSONResolver, { description: "Updates one environment's traffic log settings (the body of PUT …/trafficLogSettings/{environmentName}/); answers the saved settings and deploymentResult when redeployed (API_MANAGEMENT MANAGE)" })
  async saveApiProxyTrafficLogSettings(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('environmentName', () => String) environmentName: string, @Arg('input', () => JSONResolver) input: unknown,
  ) {
    const { view, deploymentResult } = await updateTrafficLogSettings(ctx.deps, requireViewer(ctx), projectName, apiProxyName, environmentName, plainInput(input))
    return { settings: view, deploymentResult }
  }

  @Mutation(() => Boolean, { description: "Adds or replaces one connector's method-level override (PUT …/connectors/{connectorType}/methodOverride/?methodName=) (API_MANAGEMENT MANAGE)" })
  async setApiProxyTrafficLogMethodOverride(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('environmentName', () => String) environmentName: string, @Arg('connectorType', () => String) connectorType: string,
    @Arg('methodName', () => String) methodName: string, @Arg('input', () => JSONResolver) input: unknown,
  ) {
    await putMethodOverride(ctx.deps, requireViewer(ctx), projectName, apiProxyName, environmentName, connectorType, { methodName }, plainInput(input))
    return true
  }

  @Mutation(() => Boolean, { description: "Removes one connector's method-level override; true when one was removed (API_MANAGEMENT MANAGE)" })
  async deleteApiProxyTrafficLogMethodOverride(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('environmentName', () => String) environmentName: string, @Arg('connectorType', () => String) connectorType: string,
    @Arg('methodName', () => String) methodName: string,
  ) {
    return (await deleteMethodOverride(ctx.deps, requireViewer(ctx), projectName, apiProxyName, environmentName, connectorType, { methodName })).changed
  }
}
