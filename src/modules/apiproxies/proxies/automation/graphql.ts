import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, Ctx, Field, FieldResolver, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { ApiProxy } from '../../../../generated/prisma/client.js'
import type { DeploymentOutcome } from '../../../../platform/deploy/pusher.js'
import { requireViewer, type GqlContext } from '../../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../../platform/graphql/types.js'
import { ApiProxyType } from '../graphql.js'
import { createProxyFromSpec, deployProxy, proxyDetail, undeployProxy, updateProxyFromSpec, type ProxyWrite, type SpecSource } from './service.js'
import { DeployToEnvironmentArgs } from '../../deployments/graphql.js'

// The GraphQL door of the automation surface for proxies: the same services as the /apiops routes
// (rest.ts), so both doors share every rule. Policies: ../policies/graphql.ts; groups: ../groups/graphql.ts.

const deployment = (o: DeploymentOutcome | null) => (o ? DeploymentResultType.from(o) : null)

@ObjectType('ApiProxySpecWrite')
class ApiProxySpecWriteType {
  @Field(() => ApiProxyType) apiProxy: ApiProxy
  @Field(() => DeploymentResultType, { nullable: true, description: 'null unless the metadata asked for deploy' }) deploymentResult: DeploymentResultType | null
}

@ObjectType('ApiProxyEnvironmentDeployment')
class ApiProxyEnvironmentDeploymentType {
  @Field(() => String) environmentName: string
  @Field(() => Boolean) deployed: boolean
  @Field(() => Boolean, { description: 'deployed, and the proxy changed since' }) redeployRequired: boolean
}

const specSource = (specDocument: string | null | undefined): SpecSource => (specDocument != null ? { from: 'file', bytes: Buffer.from(specDocument, 'utf8') } : { from: 'url' })
const specWrite = ({ proxy, deploymentResult }: ProxyWrite) => Object.assign(new ApiProxySpecWriteType(), { apiProxy: proxy, deploymentResult: deployment(deploymentResult) })


@Resolver(() => ApiProxyType)
export class ApiProxyAutomationResolver {
  @FieldResolver(() => String, { nullable: true, description: 'OPEN_API, SWAGGER or REVERSE_PROXY for proxies built by createApiProxyFromSpec (REST /apiProxies/url/ and /file/)' })
  creationType(@Root() proxy: ApiProxy) {
    return proxy.creationType
  }

  @FieldResolver(() => String, { nullable: true, description: 'first path of the client route' })
  relativePath(@Root() proxy: ApiProxy) {
    return proxy.relativePath
  }

  @Query(() => [ApiProxyEnvironmentDeploymentType], { description: 'Where an API proxy is deployed, per environment of the project (API_MANAGEMENT VIEW)' })
  async apiProxyDeployments(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return (await proxyDetail(ctx.deps.prisma, requireViewer(ctx), projectName, name)).deploymentList
  }

  @Mutation(() => ApiProxySpecWriteType, {
    description: 'Creates a REST API proxy from metadata (the body of POST /apiProxies/url/) and, for OPEN_API/SWAGGER, specDocument (JSON or YAML text) or else metadata.specUrl (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
  })
  async createApiProxyFromSpec(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('metadata', () => JSONResolver) metadata: unknown,
    @Arg('specDocument', () => String, { nullable: true }) specDocument?: string | null,
  ) {
    return specWrite(await createProxyFromSpec(ctx.deps, requireViewer(ctx), projectName, metadata, specSource(specDocument)))
  }

  @Mutation(() => ApiProxySpecWriteType, { description: 'Re-parses an existing API proxy (PUT /apiProxies/url/ and /file/) (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)' })
  async updateApiProxyFromSpec(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('metadata', () => JSONResolver) metadata: unknown,
    @Arg('specDocument', () => String, { nullable: true }) specDocument?: string | null,
  ) {
    return specWrite(await updateProxyFromSpec(ctx.deps, requireViewer(ctx), projectName, metadata, specSource(specDocument)))
  }

  @Mutation(() => DeploymentResultType, { description: 'Deploys an API proxy to one environment (API_MANAGEMENT DEPLOY_UNDEPLOY)' })
  async deployApiProxy(@Ctx() ctx: GqlContext, @Args(() => DeployToEnvironmentArgs) { projectName, name, environmentName, description, persistent }: DeployToEnvironmentArgs) {
    return DeploymentResultType.from(await deployProxy(ctx.deps, requireViewer(ctx), projectName, name, environmentName, { description, persistent }))
  }

  @Mutation(() => DeploymentResultType, { description: 'Undeploys an API proxy from one environment where it runs; description and persistent annotate the undeploy history record (API_MANAGEMENT DEPLOY_UNDEPLOY)' })
  async undeployApiProxy(@Ctx() ctx: GqlContext, @Args(() => DeployToEnvironmentArgs) { projectName, name, environmentName, description, persistent }: DeployToEnvironmentArgs) {
    return DeploymentResultType.from(await undeployProxy(ctx.deps, requireViewer(ctx), projectName, name, environmentName, { description, persistent }))
  }

}
