import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { ApiProxy } from '../../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { DeploymentResultType, PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import {
  ENDPOINT_KINDS, ENDPOINT_METHODS, LOAD_BALANCING, PARAMETER_LOCATIONS, POLICY_PHASES, POLICY_TYPES, TARGET_ROLES,
} from './inputs.js'
import {
  copyEndpointVersion, deleteEndpointVersion, endpointVersionsOf, listEndpointVersions, setEndpointVersionDeprecated, type VersionDeployment,
} from './versions.js'
import { createGatewayEndpoint, deleteGatewayEndpoint, getGatewayEndpoint, pageGatewayEndpoints, updateGatewayEndpoint, type EndpointWrite } from './service.js'
import { ApiProxyType } from '../proxies/graphql.js'
import { dropNullsDeep } from '../shared/inputs.js'

const list = (values: readonly string[]) => values.join(', ')
const VERSION_ARG = { nullable: true, description: 'path version segment (e.g. v1); absent or empty: the unversioned endpoints' }

// ---------------------------------------------------------------------------------------------------------------
// Read types

@ObjectType('EndpointParameter')
export class EndpointParameterType {
  @Field(() => String) name: string
  @Field(() => String, { description: list(PARAMETER_LOCATIONS) }) in: string
  @Field(() => Boolean) required: boolean
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => JSONResolver, { description: 'JSON Schema of the value' }) schema: unknown
}

@ObjectType('EndpointRequestBody')
export class EndpointRequestBodyType {
  @Field(() => Boolean) required: boolean
  @Field(() => String) contentType: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => JSONResolver, { nullable: true }) schema: unknown
}

@ObjectType('EndpointResponse')
export class EndpointResponseType {
  @Field(() => String, { description: "HTTP status, a range such as 4XX, or 'default'" }) statusCode: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { nullable: true }) contentType: string | null
  @Field(() => JSONResolver, { nullable: true }) schema: unknown
}

@ObjectType('EndpointRewriteRule')
export class EndpointRewriteRuleType {
  @Field(() => String, { description: 'regular expression matched against the incoming path' }) pattern: string
  @Field(() => String, { description: '$1, $2 … refer to the groups' }) replacement: string
}

@ObjectType('EndpointPolicy')
export class EndpointPolicyType {
  @Field(() => String) name: string
  @Field(() => String, { description: list(POLICY_TYPES) }) type: string
  @Field(() => String, { description: list(POLICY_PHASES) }) phase: string
  @Field(() => Boolean) enabled: boolean
  @Field(() => JSONResolver) config: unknown
}

@ObjectType('EndpointRoutingTarget')
export class EndpointRoutingTargetType {
  @Field(() => String) url: string
  @Field(() => Int) weight: number
  @Field(() => String, { description: list(TARGET_ROLES) }) role: string
  @Field(() => Boolean) enabled: boolean
}

@ObjectType('EndpointFailover')
export class EndpointFailoverType {
  @Field(() => Int) maxAttempts: number
  @Field(() => [Int]) retryOnStatus: number[]
  @Field(() => Boolean) retryOnConnectFailure: boolean
}

@ObjectType('EndpointRouting', { description: 'Load balancing over PRIMARY targets, FAILOVER targets when they fail' })
export class EndpointRoutingType {
  @Field(() => String, { description: list(LOAD_BALANCING) }) loadBalancing: string
  @Field(() => [EndpointRoutingTargetType]) targets: EndpointRoutingTargetType[]
  @Field(() => EndpointFailoverType) failover: EndpointFailoverType
  @Field(() => Int) timeoutMs: number
}

@ObjectType('GatewayEndpoint', { description: 'A method + path pair under an API proxy (spec §2.18)' })
export class GatewayEndpointType {
  @Field(() => String) apiProxyName: string
  @Field(() => String, { description: "path version segment; '' for unversioned" }) version: string
  @Field(() => String, { description: list(ENDPOINT_METHODS) }) method: string
  @Field(() => String, { description: 'path template below the version segment' }) path: string
  @Field(() => String, { description: 'the path clients call: /<version><path>' }) fullPath: string
  @Field(() => String, { description: 'unique in its version' }) operationId: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { description: list(ENDPOINT_KINDS) }) kind: string
  @Field(() => [EndpointParameterType]) parameters: EndpointParameterType[]
  @Field(() => EndpointRequestBodyType, { nullable: true }) requestBody: EndpointRequestBodyType | null
  @Field(() => [EndpointResponseType]) responses: EndpointResponseType[]
  @Field(() => [String]) consumes: string[]
  @Field(() => [String]) produces: string[]
  @Field(() => String) backendPath: string
  @Field(() => String) backendMethod: string
  @Field(() => [EndpointRewriteRuleType]) rewriteRules: EndpointRewriteRuleType[]
  @Field(() => [EndpointPolicyType]) policies: EndpointPolicyType[]
  @Field(() => EndpointRoutingType, { nullable: true, description: "null: the proxy's own routing addresses" }) routing: EndpointRoutingType | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@ObjectType('GatewayEndpointPage')
export class GatewayEndpointPage extends PageOf(GatewayEndpointType, 'GatewayEndpointPage') {}

@ObjectType('GatewayEndpointWriteResult')
export class GatewayEndpointWriteResultType {
  @Field(() => GatewayEndpointType) endpoint: GatewayEndpointType
  @Field(() => DeploymentResultType, { description: 'the push of the whole version' }) deploymentResult: DeploymentResultType
}

@ObjectType('EndpointVersion', { description: 'A path version of an API proxy, deployed on its own beside the others' })
export class EndpointVersionType {
  @Field(() => String) version: string
  @Field(() => String) basePath: string
  @Field(() => String, { description: 'the name the gateway knows it by: <proxy> or <proxy>/<version>' }) deployName: string
  @Field(() => Int) revision: number
  @Field(() => Boolean) deprecated: boolean
  @Field(() => Int) endpointCount: number
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@ObjectType('EndpointVersionDeployment')
export class EndpointVersionDeploymentType {
  @Field(() => String) version: string
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

// ---------------------------------------------------------------------------------------------------------------
// Inputs (absent or null: default on create, keep on update)

@InputType('EndpointParameterInput')
export class EndpointParameterInput {
  @Field(() => String) name: string
  @Field(() => String, { description: list(PARAMETER_LOCATIONS) }) in: string
  @Field(() => Boolean, { nullable: true, description: 'default false; PATH parameters are always required' }) required?: boolean
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => JSONResolver, { nullable: true, description: 'JSON Schema object; default {"type":"string"}' }) schema?: unknown
}

@InputType('EndpointRequestBodyInput')
export class EndpointRequestBodyInput {
  @Field(() => Boolean, { nullable: true }) required?: boolean
  @Field(() => String, { nullable: true, description: 'default application/json' }) contentType?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => JSONResolver, { nullable: true }) schema?: unknown
}

@InputType('EndpointResponseInput')
export class EndpointResponseInput {
  @Field(() => String) statusCode: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true }) contentType?: string
  @Field(() => JSONResolver, { nullable: true }) schema?: unknown
}

@InputType('EndpointRewriteRuleInput')
export class EndpointRewriteRuleInput {
  @Field(() => String) pattern: string
  @Field(() => String) replacement: string
}

@InputType('EndpointPolicyInput')
export class EndpointPolicyInput {
  @Field(() => String) name: string
  @Field(() => String, { description: list(POLICY_TYPES) }) type: string
  @Field(() => String, { nullable: true, description: `${list(POLICY_PHASES)}; default REQUEST` }) phase?: string
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
  @Field(() => JSONResolver, { nullable: true, description: 'RATE_LIMIT: { limit, windowSeconds } (integers ≥ 1)' }) config?: unknown
}

@InputType('EndpointRoutingTargetInput')
export class EndpointRoutingTargetInput {
  @Field(() => String) url: string
  @Field(() => Int, { nullable: true, description: '1..1000, default 1' }) weight?: number
  @Field(() => String, { nullable: true, description: `${list(TARGET_ROLES)}; default PRIMARY` }) role?: string
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
}

@InputType('EndpointFailoverInput')
export class EndpointFailoverInput {
  @Field(() => Int, { nullable: true, description: '1..10, default 2' }) maxAttempts?: number
  @Field(() => [Int], { nullable: true, description: '500..599; default 502, 503, 504' }) retryOnStatus?: number[]
  @Field(() => Boolean, { nullable: true, description: 'default true' }) retryOnConnectFailure?: boolean
}

@InputType('EndpointRoutingInput')
export class EndpointRoutingInput {
  @Field(() => String, { nullable: true, description: `${list(LOAD_BALANCING)}; default ROUND_ROBIN` }) loadBalancing?: string
  @Field(() => [EndpointRoutingTargetInput]) targets: EndpointRoutingTargetInput[]
  @Field(() => EndpointFailoverInput, { nullable: true }) failover?: EndpointFailoverInput
  @Field(() => Int, { nullable: true, description: '1..600000, default 30000' }) timeoutMs?: number
}

@InputType('GatewayEndpointUpdateInput', { description: 'Absent or null keeps the stored value; lists replace' })
export class GatewayEndpointUpdateInput {
  @Field(() => String, { nullable: true, description: list(ENDPOINT_METHODS) }) method?: string
  @Field(() => String, { nullable: true, description: "path template starting with '/', e.g. /users/{id}" }) path?: string
  @Field(() => String, { nullable: true, description: 'unique in the version; generated from method and path when absent on create' }) operationId?: string
  @Field(() => String, { nullable: true, description: 'at most 1000 characters' }) description?: string
  @Field(() => String, { nullable: true, description: `${list(ENDPOINT_KINDS)}; default: the proxy's kind` }) kind?: string
  @Field(() => [EndpointParameterInput], { nullable: true }) parameters?: EndpointParameterInput[]
  @Field(() => EndpointRequestBodyInput, { nullable: true }) requestBody?: EndpointRequestBodyInput
  @Field(() => [EndpointResponseInput], { nullable: true }) responses?: EndpointResponseInput[]
  @Field(() => [String], { nullable: true }) consumes?: string[]
  @Field(() => [String], { nullable: true }) produces?: string[]
  @Field(() => String, { nullable: true, description: 'default: the client path' }) backendPath?: string
  @Field(() => String, { nullable: true, description: 'default: the client method' }) backendMethod?: string
  @Field(() => [EndpointRewriteRuleInput], { nullable: true }) rewriteRules?: EndpointRewriteRuleInput[]
  @Field(() => [EndpointPolicyInput], { nullable: true }) policies?: EndpointPolicyInput[]
  @Field(() => EndpointRoutingInput, { nullable: true }) routing?: EndpointRoutingInput
  @Field(() => Boolean, { nullable: true, description: 'default true' }) enabled?: boolean
}

@InputType('GatewayEndpointInput')
export class GatewayEndpointInput extends GatewayEndpointUpdateInput {
  @Field(() => String, { description: list(ENDPOINT_METHODS) }) declare method: string
  @Field(() => String, { description: "path template starting with '/', e.g. /users/{id}" }) declare path: string
  @Field(() => String, { nullable: true, description: 'path version segment such as v1; default unversioned' }) version?: string
}

// ---------------------------------------------------------------------------------------------------------------

const written = ({ endpoint, deploymentResult }: EndpointWrite) => ({ endpoint, deploymentResult: DeploymentResultType.from(deploymentResult) })
const versionResult = ({ version, deploymentResult }: VersionDeployment) => ({ version, deploymentResult: DeploymentResultType.from(deploymentResult) })

@Resolver(() => GatewayEndpointType)
export class GatewayEndpointResolver {
  @Query(() => GatewayEndpointPage, { description: 'Endpoints of an API proxy, of one version when given (API_MANAGEMENT VIEW)' })
  async gatewayEndpoints(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Args(() => PagingArgs) paging: PagingArgs,
    @Arg('version', () => String, { nullable: true, description: 'absent: every version; empty: the unversioned endpoints' }) version?: string,
    @Arg('search', () => String, { nullable: true, description: 'case-insensitive text in the path, operationId or description' }) search?: string,
  ) {
    return pageGatewayEndpoints(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName, version, paging, search)
  }

  @Query(() => GatewayEndpointType, { description: 'API_MANAGEMENT VIEW' })
  async gatewayEndpoint(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('operationId', () => String) operationId: string,
    @Arg('version', () => String, VERSION_ARG) version?: string,
  ) {
    return getGatewayEndpoint(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName, version, operationId)
  }

  @Query(() => [EndpointVersionType], { description: 'The path versions of an API proxy (API_MANAGEMENT VIEW)' })
  async gatewayEndpointVersions(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return listEndpointVersions(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName)
  }

  @Mutation(() => GatewayEndpointWriteResultType, { description: 'Adds an endpoint and deploys its version (API_MANAGEMENT MANAGE)' })
  async createGatewayEndpoint(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('input', () => GatewayEndpointInput) input: GatewayEndpointInput,
  ) {
    return written(await createGatewayEndpoint(ctx.deps, requireViewer(ctx), projectName, apiProxyName, dropNullsDeep(input)))
  }

  @Mutation(() => GatewayEndpointWriteResultType, { description: 'Changes an endpoint and redeploys its version (API_MANAGEMENT MANAGE)' })
  async updateGatewayEndpoint(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('operationId', () => String) operationId: string,
    @Arg('input', () => GatewayEndpointUpdateInput) input: GatewayEndpointUpdateInput,
    @Arg('version', () => String, VERSION_ARG) version?: string,
  ) {
    return written(await updateGatewayEndpoint(ctx.deps, requireViewer(ctx), projectName, apiProxyName, version, operationId, dropNullsDeep(input)))
  }

  @Mutation(() => EndpointVersionDeploymentType, { description: 'Removes an endpoint and redeploys its version; the last one undeploys it (API_MANAGEMENT MANAGE)' })
  async deleteGatewayEndpoint(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('operationId', () => String) operationId: string,
    @Arg('version', () => String, VERSION_ARG) version?: string,
  ) {
    return versionResult(await deleteGatewayEndpoint(ctx.deps, requireViewer(ctx), projectName, apiProxyName, version, operationId))
  }

  @Mutation(() => EndpointVersionDeploymentType, { description: 'Starts version toVersion as a copy of fromVersion and deploys it beside the others (API_MANAGEMENT MANAGE)' })
  async copyGatewayEndpointVersion(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('toVersion', () => String) toVersion: string,
    @Arg('fromVersion', () => String, { nullable: true, description: 'absent or empty: the unversioned endpoints' }) fromVersion?: string,
  ) {
    return versionResult(await copyEndpointVersion(ctx.deps, requireViewer(ctx), projectName, apiProxyName, fromVersion, toVersion))
  }

  @Mutation(() => EndpointVersionDeploymentType, { description: 'Marks a version deprecated (it keeps serving) and redeploys it (API_MANAGEMENT MANAGE)' })
  async setGatewayEndpointVersionDeprecated(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('deprecated', () => Boolean) deprecated: boolean,
    @Arg('version', () => String, VERSION_ARG) version?: string,
  ) {
    return versionResult(await setEndpointVersionDeprecated(ctx.deps, requireViewer(ctx), projectName, apiProxyName, version, deprecated))
  }

  @Mutation(() => EndpointVersionDeploymentType, { description: 'Retires a version: its endpoints are deleted and it is undeployed; other versions keep running (API_MANAGEMENT MANAGE)' })
  async deleteGatewayEndpointVersion(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('version', () => String, VERSION_ARG) version?: string,
  ) {
    return versionResult(await deleteEndpointVersion(ctx.deps, requireViewer(ctx), projectName, apiProxyName, version))
  }
}

/** The proxy's path versions on the ApiProxy type, batched over every proxy of the response (one loader). */
@Resolver(() => ApiProxyType)
export class ApiProxyEndpointVersionsResolver {
  @FieldResolver(() => [EndpointVersionType], { description: 'path versions of the gateway endpoints, each deployed on its own' })
  async endpointVersions(@Root() proxy: ApiProxy, @Ctx() ctx: GqlContext) {
    const loader = ctx.loaders.get<{ id: string; name: string }, unknown[]>('endpointVersionsByApiProxy', (proxies) => endpointVersionsOf(ctx.deps.prisma, proxies))
    return loader.load({ id: proxy.id, name: proxy.name })
  }
}
