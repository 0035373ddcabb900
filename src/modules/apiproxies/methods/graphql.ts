import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { listMethods } from './service.js'

// The GraphQL door of the methods page: the same service as rest.ts (typed endpoint reads: gatewayEndpoints).

@Resolver()
export class ApiProxyMethodsResolver {
  @Query(() => [JSONResolver], { description: 'The methods (endpoints) of an API proxy as GET /apiProxies/{name}/methods/ answers them, with their policy lists when withPolicies (API_MANAGEMENT VIEW)' })
  async apiProxyMethods(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('withPolicies', () => Boolean, { nullable: true }) withPolicies?: boolean | null,
  ) {
    return listMethods(ctx.deps.prisma, requireViewer(ctx), projectName, name, { withPolicies: withPolicies ? 'true' : 'false' })
  }
}
