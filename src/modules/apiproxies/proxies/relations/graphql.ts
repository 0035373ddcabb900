import { Ctx, Field, FieldResolver, ObjectType, Resolver, Root } from 'type-graphql'
import type { ApiProxy, ApiProxyPolicy, GatewayEndpoint } from '../../../../generated/prisma/client.js'
import type { GqlContext } from '../../../../platform/graphql/context.js'
import { hasManyLoader } from '../../../../platform/graphql/loaders.js'
import { vendorEndpointView } from '../../endpoints/vendor.js'
import { ApiProxyPolicySummaryType } from '../../policies/graphql.js'
import { policyConfigView } from '../../policies/service.js'
import { ApiProxyType } from '../graphql.js'

// The walks an admin page takes from an API proxy (issue 30 §1): proxy → endpoints, proxy → its own policies,
// endpoint → its policies. Each relation is one DataLoader per request, so a page of proxies with their endpoints
// and policies costs the same statements for 10 proxies as for 100. The proxy was reached through an
// API_MANAGEMENT VIEW check (apiProxies, apiProxy, Project.apiProxies), so these add none of their own.

const PIPELINES = ['REQUEST', 'RESPONSE', 'ERROR']

@ObjectType('ApiProxyPolicy', { description: 'A policy of one pipeline of an API proxy, or of one of its endpoints; secrets as <field>Set flags' })
export class ApiProxyPolicyType extends ApiProxyPolicySummaryType {
  @Field(() => String, { description: PIPELINES.join(', ') }) pipeline: string
}

@ObjectType('ApiProxyEndpoint', { description: 'An endpoint of an API proxy as the endpoint pages show it (GET …/apiProxies/{name}/endpoints/)' })
export class ApiProxyEndpointType {
  @Field(() => String, { description: 'the id the endpoint pages address it by' }) id: string
  @Field(() => String, { description: 'the client path' }) endpoint: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) active: boolean
  @Field(() => String) httpMethod: string
  @Field(() => String, { description: 'the backend path' }) backendResourceUrl: string
  @Field(() => String) backendHttpMethod: string
  @Field(() => String, { description: "path version segment; '' for unversioned" }) version: string
  @Field(() => String) operationId: string
}

/** Pipelines in the order they run, each by position. */
const pipelineOrder = (a: ApiProxyPolicy, b: ApiProxyPolicy) => PIPELINES.indexOf(a.pipeline) - PIPELINES.indexOf(b.pipeline) || a.position - b.position
const policyOf = (p: ApiProxyPolicy) => Object.assign(new ApiProxyPolicyType(), policyConfigView(p), { pipeline: p.pipeline })

const endpointsOfProxyLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'endpointsByApiProxy', (db, ids) => db.gatewayEndpoint.findMany({ where: { apiProxyId: { in: ids } }, orderBy: [{ version: 'asc' }, { path: 'asc' }, { method: 'asc' }] }), (e: GatewayEndpoint) => e.apiProxyId)

const ownPoliciesOfProxyLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'ownPoliciesByApiProxy', (db, ids) => db.apiProxyPolicy.findMany({ where: { apiProxyId: { in: ids }, endpointId: null } }), (p) => p.apiProxyId)

const policiesOfEndpointLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'policiesByEndpoint', (db, ids) => db.apiProxyPolicy.findMany({ where: { endpointId: { in: ids } } }), (p) => p.endpointId)

@Resolver(() => ApiProxyType)
export class ApiProxyRelationsResolver {
  @FieldResolver(() => [ApiProxyEndpointType], { description: 'every endpoint of the proxy, by version, path and method' })
  async endpoints(@Root() proxy: ApiProxy, @Ctx() ctx: GqlContext) {
    return (await endpointsOfProxyLoader(ctx).load(proxy.id)).map(vendorEndpointView)
  }

  @FieldResolver(() => [ApiProxyPolicyType], { description: 'the policies of the proxy for all its endpoints, by pipeline (REQUEST, RESPONSE, ERROR) and order' })
  async policies(@Root() proxy: ApiProxy, @Ctx() ctx: GqlContext) {
    return (await ownPoliciesOfProxyLoader(ctx).load(proxy.id)).sort(pipelineOrder).map(policyOf)
  }
}

@Resolver(() => ApiProxyEndpointType)
export class ApiProxyEndpointRelationsResolver {
  @FieldResolver(() => [ApiProxyPolicyType], { description: 'the policies of this endpoint only, by pipeline and order (the proxy-wide ones are ApiProxy.policies)' })
  async policies(@Root() endpoint: { id: string }, @Ctx() ctx: GqlContext) {
    return (await policiesOfEndpointLoader(ctx).load(endpoint.id)).sort(pipelineOrder).map(policyOf)
  }
}
