import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, Mutation, ObjectType, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../../platform/graphql/types.js'
import { ApiProxyType } from '../../proxies/graphql.js'
import { setVendorEndpointCache, setVendorEndpointStatus, setVendorEndpointWsa, type VendorEndpointWrite } from '../vendor.js'

// The GraphQL door of an endpoint's status, cache and WS-Addressing pages (rest.ts): addressed by
// version + operationId like the other gateway endpoint mutations; same service, same rules, same redeploy.

@ObjectType('GatewayEndpointSettingWrite')
class GatewayEndpointSettingWriteType {
  @Field(() => String) id: string
  @Field(() => DeploymentResultType, { nullable: true, description: 'null when the proxy is deployed nowhere (saved only)' }) deploymentResult: DeploymentResultType | null
}

const written = ({ endpoint, deploymentResult }: VendorEndpointWrite) =>
  Object.assign(new GatewayEndpointSettingWriteType(), { id: endpoint.id, deploymentResult: deploymentResult ? DeploymentResultType.from(deploymentResult) : null })
const VERSION = { nullable: true, description: 'path version segment; absent or empty: unversioned' }

@Resolver(() => ApiProxyType)
export class GatewayEndpointSettingsResolver {
  @Mutation(() => GatewayEndpointSettingWriteType, { description: 'Enables or disables an endpoint (API_MANAGEMENT MANAGE)' })
  async setGatewayEndpointStatus(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('version', () => String, VERSION) version: string | null, @Arg('operationId', () => String) operationId: string, @Arg('active', () => Boolean) active: boolean,
  ) {
    return written(await setVendorEndpointStatus(ctx.deps, requireViewer(ctx), projectName, apiProxyName, { version, operationId }, { active }))
  }

  @Mutation(() => GatewayEndpointSettingWriteType, { description: "Sets an endpoint's cache settings (the body of PATCH …/endpoints/{id}/cache/) (API_MANAGEMENT MANAGE)" })
  async updateGatewayEndpointCache(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('version', () => String, VERSION) version: string | null, @Arg('operationId', () => String) operationId: string, @Arg('cache', () => JSONResolver) cache: unknown,
  ) {
    return written(await setVendorEndpointCache(ctx.deps, requireViewer(ctx), projectName, apiProxyName, { version, operationId }, cache))
  }

  @Mutation(() => GatewayEndpointSettingWriteType, { description: 'Sets the WS-Addressing settings of a SOAP endpoint (the body of PATCH …/endpoints/{id}/wsa/) (API_MANAGEMENT MANAGE)' })
  async updateGatewayEndpointWsa(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('version', () => String, VERSION) version: string | null, @Arg('operationId', () => String) operationId: string, @Arg('wsa', () => JSONResolver) wsa: unknown,
  ) {
    return written(await setVendorEndpointWsa(ctx.deps, requireViewer(ctx), projectName, apiProxyName, { version, operationId }, wsa))
  }
}
