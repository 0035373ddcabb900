import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, FieldResolver, Int, ObjectType, Mutation, Query, Resolver, Root } from 'type-graphql'
import type { ApiProxy, ApiProxyGroup } from '../../generated/prisma/client.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType } from '../../platform/graphql/types.js'
import { ApiProxyType } from './graphql.js'
import {
  createGroup, deleteGroup, deployGroup, groupEnvironments, listGroups, setGroupMembership, undeployGroup, updateGroup,
} from './groups.js'
import { addPolicy, deletePolicy, listPolicies, updatePolicy, type PolicyWrite } from './policies.js'
import { createProxyFromSpec, deployProxy, proxyDetail, undeployProxy, updateProxyFromSpec, type ProxyWrite, type SpecSource } from './proxy-service.js'

// The GraphQL door of the automation surface: the same services as the /apiops routes (rest-proxies.ts,
// rest-policies.ts, rest-groups.ts), so both doors share every rule.

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

@ObjectType('ApiProxyPolicySummary')
class ApiProxyPolicySummaryType {
  @Field(() => String) name: string
  @Field(() => String, { description: "the policy type, e.g. 'policy-api-based-throttling'" }) type: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => Boolean) active: boolean
  @Field(() => Int, { description: '1-based position in its pipeline' }) order: number
}

@ObjectType('ApiProxyEndpointPolicies')
class ApiProxyEndpointPoliciesType {
  @Field(() => String) endpoint: string
  @Field(() => String) httpMethod: string
  @Field(() => Boolean) active: boolean
  @Field(() => [ApiProxyPolicySummaryType]) requestPolicyList: ApiProxyPolicySummaryType[]
  @Field(() => [ApiProxyPolicySummaryType]) responsePolicyList: ApiProxyPolicySummaryType[]
  @Field(() => [ApiProxyPolicySummaryType]) errorPolicyList: ApiProxyPolicySummaryType[]
}

@ObjectType('ApiProxyPolicies')
class ApiProxyPoliciesType {
  @Field(() => String) name: string
  @Field(() => [ApiProxyPolicySummaryType]) requestPolicyList: ApiProxyPolicySummaryType[]
  @Field(() => [ApiProxyPolicySummaryType]) responsePolicyList: ApiProxyPolicySummaryType[]
  @Field(() => [ApiProxyPolicySummaryType]) errorPolicyList: ApiProxyPolicySummaryType[]
  @Field(() => [ApiProxyEndpointPoliciesType]) endpointList: ApiProxyEndpointPoliciesType[]
}

@ObjectType('ApiProxyPolicyWrite')
class ApiProxyPolicyWriteType {
  @Field(() => DeploymentResultType, { nullable: true, description: 'null when operationMetadata.deploy was false' }) deploymentResult: DeploymentResultType | null
}

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

const specSource = (specDocument: string | null | undefined): SpecSource => (specDocument != null ? { from: 'file', bytes: Buffer.from(specDocument, 'utf8') } : { from: 'url' })
const specWrite = ({ proxy, deploymentResult }: ProxyWrite) => Object.assign(new ApiProxySpecWriteType(), { apiProxy: proxy, deploymentResult: deployment(deploymentResult) })
const policyWrite = ({ deploymentResult }: PolicyWrite) => Object.assign(new ApiProxyPolicyWriteType(), { deploymentResult: deployment(deploymentResult) })

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
  async deployApiProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('environmentName', () => String) environmentName: string) {
    return DeploymentResultType.from(await deployProxy(ctx.deps, requireViewer(ctx), projectName, name, environmentName))
  }

  @Mutation(() => DeploymentResultType, { description: 'Undeploys an API proxy from one environment where it runs (API_MANAGEMENT DEPLOY_UNDEPLOY)' })
  async undeployApiProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('environmentName', () => String) environmentName: string) {
    return DeploymentResultType.from(await undeployProxy(ctx.deps, requireViewer(ctx), projectName, name, environmentName))
  }

  @Query(() => ApiProxyPoliciesType, { description: 'The policies of an API proxy by pipeline, and those of each endpoint (API_MANAGEMENT VIEW)' })
  async apiProxyPolicies(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return listPolicies(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName)
  }

  @Mutation(() => ApiProxyPolicyWriteType, { description: 'Adds a policy (operationMetadata and policy as on POST …/policies/{policyName}/) (API_MANAGEMENT MANAGE)' })
  async addApiProxyPolicy(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('policyName', () => String) policyName: string, @Arg('operationMetadata', () => JSONResolver) operationMetadata: unknown, @Arg('policy', () => JSONResolver) policy: unknown,
  ) {
    return policyWrite(await addPolicy(ctx.deps, requireViewer(ctx), projectName, apiProxyName, policyName, { operationMetadata, policy }))
  }

  @Mutation(() => ApiProxyPolicyWriteType, { description: 'Updates a policy: configuration, scope, pipeline or order (API_MANAGEMENT MANAGE)' })
  async updateApiProxyPolicy(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('policyName', () => String) policyName: string, @Arg('operationMetadata', () => JSONResolver) operationMetadata: unknown, @Arg('policy', () => JSONResolver) policy: unknown,
  ) {
    return policyWrite(await updatePolicy(ctx.deps, requireViewer(ctx), projectName, apiProxyName, policyName, { operationMetadata, policy }))
  }

  @Mutation(() => ApiProxyPolicyWriteType, { description: 'Deletes a policy from the scope and pipeline operationMetadata names (API_MANAGEMENT MANAGE)' })
  async deleteApiProxyPolicy(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('policyName', () => String) policyName: string, @Arg('operationMetadata', () => JSONResolver) operationMetadata: unknown,
  ) {
    return policyWrite(await deletePolicy(ctx.deps, requireViewer(ctx), projectName, apiProxyName, policyName, { operationMetadata }))
  }
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
  async deployApiProxyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('environmentName', () => String) environmentName: string) {
    return DeploymentResultType.from(await deployGroup(ctx.deps, requireViewer(ctx), projectName, name, environmentName))
  }

  @Mutation(() => DeploymentResultType, { description: 'Undeploys a group and its proxies from one environment (API_MANAGEMENT DEPLOY_UNDEPLOY)' })
  async undeployApiProxyGroup(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('environmentName', () => String) environmentName: string) {
    return DeploymentResultType.from(await undeployGroup(ctx.deps, requireViewer(ctx), projectName, name, environmentName))
  }
}
