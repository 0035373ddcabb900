import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { plainInput } from '../../../platform/graphql/zod-types.js'
import { fullProxy, getProxySpec, proxyEnvironmentVariables, replaceProxySpec } from './service.js'

// The GraphQL door of reads/rest.ts: the same service, the same answers (JSON, as the REST reads give them).

@Resolver()
export class ApiProxyReadsResolver {
  @Query(() => JSONResolver, { description: 'The full API proxy as GET …/apiProxies/{name}/full answers it (API_MANAGEMENT VIEW)' })
  async apiProxyFull(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('withPolicies', () => Boolean, { nullable: true }) withPolicies?: boolean | null,
  ) {
    return fullProxy(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName, { withPolicies: withPolicies ? 'true' : 'false' })
  }

  @Query(() => [JSONResolver], { description: "The project's environment variables the proxy names as ${NAME} (GET …/{name}/environment-variables/) (API_MANAGEMENT VIEW and PROJECT_MANAGEMENT VIEW)" })
  async apiProxyEnvironmentVariables(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return proxyEnvironmentVariables(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName)
  }

  @Query(() => JSONResolver, { description: 'The specification the proxy was built from (SpecApi, GET …/{name}/spec/) (API_MANAGEMENT VIEW)' })
  async apiProxySpec(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return getProxySpec(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName)
  }

  @Mutation(() => JSONResolver, { description: "Replaces the proxy's OpenAPI/Swagger document (the SpecApi body of PUT …/{name}/spec/) (API_MANAGEMENT MANAGE)" })
  async replaceApiProxySpec(
    @Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string,
    @Arg('input', () => JSONResolver) input: unknown,
  ) {
    return replaceProxySpec(ctx.deps, requireViewer(ctx), projectName, apiProxyName, plainInput(input))
  }
}
