import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { apiClientSummary } from '../identity/views.js'
import { apiProductPlans, listApiProducts, promoteApiProduct } from './products.js'
import { productsOf } from './inputs.js'
import { portalApplicationCredentials, portalApplicationUsage, portalOrganizations, portalTrafficSummary, portalUsage, provisionPortalApplication } from './service.js'

// The GraphQL door of the portal operations: the same service as the /apiops routes (rest.ts); answers as the REST
// bodies (JSON), their fields listed in the OpenAPI document's schemas PortalOrganization, PortalApplicationUsage…

const PRODUCTS = { nullable: true, description: 'the products to report on (their provisioning references); absent: every product' } as const

@Resolver()
export class PortalResolver {
  @Query(() => JSONResolver, { description: 'The project\'s organizations a provisioning may name: [{ id, code, name, parentCode, state, suspended }] (IDENTITY VIEW)' })
  async portalOrganizations(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return portalOrganizations(ctx.deps, requireViewer(ctx), projectName)
  }

  @Mutation(() => JSONResolver, { description: 'Provisions a portal application as POST /apiops/portal-apps/provision (IDENTITY MANAGE)' })
  async provisionPortalApplication(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JSONResolver) input: unknown) {
    return provisionPortalApplication(ctx.deps, requireViewer(ctx), projectName, input)
  }

  @Query(() => JSONResolver, { description: 'The API client summaries of the portal application a referenceId names (IDENTITY VIEW)' })
  async portalApplicationCredentials(@Ctx() ctx: GqlContext, @Arg('referenceId', () => String) referenceId: string, @Arg('projectName', () => String, { nullable: true }) projectName?: string | null) {
    return (await portalApplicationCredentials(ctx.deps, requireViewer(ctx), referenceId, projectName ?? undefined)).map(apiClientSummary)
  }

  @Query(() => JSONResolver, { description: 'What the portal application a referenceId names uses (IDENTITY VIEW)' })
  async portalApplicationUsage(@Ctx() ctx: GqlContext, @Arg('referenceId', () => String) referenceId: string, @Arg('projectName', () => String, { nullable: true }) projectName?: string | null) {
    return portalApplicationUsage(ctx.deps, requireViewer(ctx), referenceId, projectName ?? undefined)
  }

  @Query(() => JSONResolver, { description: 'Every portal application of the project with what it uses (IDENTITY VIEW)' })
  async portalUsage(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('productRefIds', () => [String], PRODUCTS) productRefIds?: string[] | null) {
    return portalUsage(ctx.deps, requireViewer(ctx), projectName, productsOf({ productRefIds: productRefIds ?? undefined }))
  }

  @Query(() => JSONResolver, { description: 'The portal\'s traffic-facing summary of the project (no request counts are kept here) (IDENTITY VIEW)' })
  async portalTrafficSummary(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('productRefIds', () => [String], PRODUCTS) productRefIds?: string[] | null) {
    return portalTrafficSummary(ctx.deps, requireViewer(ctx), projectName, productsOf({ productRefIds: productRefIds ?? undefined }))
  }

  @Query(() => JSONResolver, { description: 'The project\'s API products (ApiProduct of the OpenAPI document), of one portal when portalId is given (API_MANAGEMENT VIEW)' })
  async apiProducts(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('portalId', () => String, { nullable: true }) portalId?: string | null) {
    return listApiProducts(ctx.deps, requireViewer(ctx), projectName, portalId ?? undefined)
  }

  @Mutation(() => JSONResolver, { description: 'Promotes an API product from a portal, as POST /apiops/api-products/promote (API_MANAGEMENT MANAGE)' })
  async promoteApiProduct(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => JSONResolver) input: unknown) {
    return promoteApiProduct(ctx.deps, requireViewer(ctx), projectName, input)
  }

  @Query(() => JSONResolver, { description: 'The subscription plans of an API product\'s project as the limits record them (API_MANAGEMENT VIEW)' })
  async apiProductPlans(@Ctx() ctx: GqlContext, @Arg('referenceId', () => String) referenceId: string, @Arg('projectName', () => String, { nullable: true }) projectName?: string | null) {
    return apiProductPlans(ctx.deps, requireViewer(ctx), referenceId, projectName ?? undefined)
  }
}
