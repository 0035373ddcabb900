import { Arg, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { accessReportPageFor, apiReportPageFor, type AccessReportEntry, type AccessRow, type ApiReportEntry } from './service.js'

// The GraphQL door of the reports (rest.ts): one page at a time (JSON only; the stream and CSV are the REST door's),
// for system administrators and analyzers, with the same query rules (page from 0, size 1..200, projectName an
// existing project) checked by the same service.

@ObjectType('ApiProxyReportEnvironment')
class ApiProxyReportEnvironmentType {
  @Field(() => String) environmentName: string
  @Field(() => Boolean) deployed: boolean
  @Field(() => Int, { nullable: true }) revision: number | null
  @Field(() => Boolean) redeployRequired: boolean
}

@ObjectType('ApiProxyReportEndpoint')
class ApiProxyReportEndpointType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String) method: string
  @Field(() => String) path: string
  @Field(() => String) version: string
  @Field(() => Boolean) enabled: boolean
  @Field(() => String, { nullable: true, description: "a group's endpoint: the member API proxy it belongs to" }) apiProxyName?: string
}

@ObjectType('ApiProxyReportEntry')
class ApiProxyReportEntryType {
  @Field(() => String, { description: 'API_PROXY or API_PROXY_GROUP' }) objectType: string
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String) type: string
  @Field(() => String) projectName: string
  @Field(() => String, { nullable: true }) relativePath: string | null
  @Field(() => [String], { nullable: true, description: "a proxy's groups" }) groups?: string[]
  @Field(() => [String], { nullable: true, description: "a group's member proxies" }) apiProxies?: string[]
  @Field(() => Int) endpointCount: number
  @Field(() => Int) policyCount: number
  @Field(() => String, { description: 'DEPLOYED, PARTIALLY_DEPLOYED or NOT_DEPLOYED' }) deploymentState: string
  @Field(() => [ApiProxyReportEnvironmentType]) environments: ApiProxyReportEnvironmentType[]
  @Field(() => [ApiProxyReportEndpointType], { nullable: true, description: "with includeEndpoints, on every entry: an API proxy's endpoints; a group's are its members'" }) endpoints?: ApiProxyReportEndpointType[]
}

@ObjectType('ApiProxyReportPage')
class ApiProxyReportPageType {
  @Field(() => [ApiProxyReportEntryType]) items: ApiReportEntry[]
  @Field(() => Int, { description: '0-based' }) page: number
  @Field(() => Int) size: number
  @Field(() => Int) totalCount: number
}

@ObjectType('OrganizationAccessRow')
class OrganizationAccessRowType {
  @Field(() => String, { nullable: true }) organizationCode: string | null
  @Field(() => String, { nullable: true }) organizationName: string | null
  @Field(() => String, { nullable: true }) applicationName: string | null
  @Field(() => String, { nullable: true }) credentialUsername: string | null
  @Field(() => String, { nullable: true }) environmentName: string | null
  @Field(() => String, { description: 'ENTITLEMENT or RLCL' }) source: string
  @Field(() => String, { description: 'API_PROXY, API_PROXY_ENV, API_PROXY_GROUP:<group> or RLCL:<rlcl>' }) via: string
}

@ObjectType('OrganizationAccessReportEntry')
class OrganizationAccessReportEntryType {
  @Field(() => String) apiProxyName: string
  @Field(() => String) projectName: string
  @Field(() => String, { nullable: true, description: 'EXTERNAL or BOTH: only API proxies shared outside are listed' }) sharingType: string | null
  @Field(() => [OrganizationAccessRowType]) accessList: AccessRow[]
}

@ObjectType('OrganizationAccessReportPage')
class OrganizationAccessReportPageType {
  @Field(() => [OrganizationAccessReportEntryType]) items: AccessReportEntry[]
  @Field(() => Int, { description: '0-based' }) page: number
  @Field(() => Int) size: number
  @Field(() => Int) totalCount: number
}

const pageOf = <T>(p: { items: T[]; total: number; page: number; size: number }) => ({ items: p.items, page: p.page, size: p.size, totalCount: p.total })

@Resolver()
export class ReportResolver {
  @Query(() => ApiProxyReportPageType, { description: 'One page of the API report: every API proxy and group with groups/members, endpoint and policy counts, environments and deployment state (system administrator or analyzer)' })
  async apiProxyReport(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String, { nullable: true }) projectName: string | null,
    @Arg('includeEndpoints', () => Boolean, { nullable: true }) includeEndpoints: boolean | null,
    @Arg('page', () => Int, { nullable: true, description: '0-based, default 0' }) page: number | null,
    @Arg('size', () => Int, { nullable: true, description: '1..200, default 20' }) size: number | null,
  ) {
    return pageOf(await apiReportPageFor(ctx.deps.prisma, requireViewer(ctx), { projectName, includeEndpoints, page, size }))
  }

  @Query(() => OrganizationAccessReportPageType, { description: 'One page of the organization access report: which organization, application and credential can reach which API proxy, from entitlements and RLCLs (system administrator or analyzer)' })
  async organizationAccessReport(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String, { nullable: true }) projectName: string | null,
    @Arg('page', () => Int, { nullable: true, description: '0-based, default 0' }) page: number | null,
    @Arg('size', () => Int, { nullable: true, description: '1..200, default 20' }) size: number | null,
  ) {
    return pageOf(await accessReportPageFor(ctx.deps.prisma, requireViewer(ctx), { projectName, page, size }))
  }
}

