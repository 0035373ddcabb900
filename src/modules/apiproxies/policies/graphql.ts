import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../platform/graphql/types.js'
import { ApiProxyType } from '../proxies/graphql.js'
import { addPolicy, deletePolicy, listPolicies, updatePolicy, type PolicyWrite } from './service.js'
import { policyTypeDetail, policyTypeSummaries } from './types/service.js'

// The GraphQL door of the policies of an API proxy: the same service as the /apiops routes (rest.ts).

const deployment = (o: DeploymentOutcome | null) => (o ? DeploymentResultType.from(o) : null)

// Typed view (docs/policy-catalogue.md): `type` stays a String (the catalogue's type names contain '-', which a
// GraphQL enum value cannot, and policies stored before the catalogue may carry other types), `family` names the
// catalogue family and `config` is the stored policy as JSON, whose shape is the type's JSON Schema
// (apiProxyPolicyTypes.schema, GET /apiops/policy-types/{type}/schema).
@ObjectType('ApiProxyPolicySummary')
export class ApiProxyPolicySummaryType {
  @Field(() => String) name: string
  @Field(() => String, { description: "the policy type, e.g. 'policy-api-based-throttling' (one of apiProxyPolicyTypes)" }) type: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => Boolean) active: boolean
  @Field(() => Int, { description: '1-based position in its pipeline' }) order: number
  @Field(() => String, { nullable: true, description: "the type's catalogue family (null for a type the catalogue does not know)" }) family?: string | null
  @Field(() => JSONResolver, { description: 'the policy as stored (type, name and the fields of its type); its JSON Schema is the type\'s schema' }) config: unknown
}

@ObjectType('ApiProxyPolicyType')
class ApiProxyPolicyTypeType {
  @Field(() => String) type: string
  @Field(() => String) family: string
  @Field(() => String) title: string
  @Field(() => String) description: string
  @Field(() => JSONResolver, { description: 'JSON Schema (draft 2020-12) of the policy object' }) schema: unknown
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

const policyWrite = ({ deploymentResult }: PolicyWrite) => Object.assign(new ApiProxyPolicyWriteType(), { deploymentResult: deployment(deploymentResult) })

@Resolver(() => ApiProxyType)
export class ApiProxyPolicyResolver {
  @Query(() => ApiProxyPoliciesType, { description: 'The policies of an API proxy by pipeline, and those of each endpoint (API_MANAGEMENT VIEW)' })
  async apiProxyPolicies(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return listPolicies(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName, { withConfig: true })
  }

  @Query(() => [ApiProxyPolicyTypeType], { description: 'The policy types a policy write accepts, with the JSON Schema of each (any signed-in user)' })
  apiProxyPolicyTypes(@Ctx() ctx: GqlContext) {
    requireViewer(ctx)
    return policyTypeSummaries().map((t) => policyTypeDetail(t.type)!)
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
