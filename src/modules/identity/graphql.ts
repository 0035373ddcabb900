import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { ApiClient, Application, Project } from '../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { apiClientsOfApplicationLoader, applicationLoader, consumersOfApplicationLoader, credentialLoader, organizationLoader } from '../../platform/graphql/loaders.js'
import { PageOf, PagingArgs, SearchPagingArgs } from '../../platform/graphql/types.js'
import { CredentialType } from '../credentials/graphql.js'
import { createApiClient, deleteApiClient, getApiClient, pageApiClients, type ApiClientInput } from './api-clients.js'
import { listApplicationViews, type ApplicationListQuery } from './application-reads.js'
import { applicationsOfProjects, createApplication, credentialsOfProjects, deleteApplication, getApplication, updateApplication, type ApplicationInput } from './applications.js'
import { guardedRelationLoader, ProjectType } from '../projects/graphql.js'
import { assignmentsOfApplicationLoader, LimitAssignmentType, toAssignment } from '../limits/assignments/graphql.js'

@ObjectType('ApiClient', { description: 'An OAuth client of an application or credential; its secret is never returned' })
export class ApiClientType {
  @Field(() => String, { description: 'permanent public key' }) apiClientKey: string
  @Field(() => String) clientId: string
  @Field(() => String) name: string
  @Field(() => String, { description: 'DRAFT, ACTIVE, SUSPENDED or REVOKED' }) operationalState: string
  @Field(() => String, { description: 'READY, PENDING_SECRET or UNRESOLVED_DEPENDENCY' }) readiness: string
  @Field(() => GraphQLISODateTime, { nullable: true }) validFrom: Date | null
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt: Date | null
  @Field(() => Int) version: number
  @Field(() => GraphQLISODateTime) createdAt: Date
}

@ObjectType('ApiClientPage')
export class ApiClientPage extends PageOf(ApiClientType, 'ApiClientPage') {}

@ObjectType('Application')
export class ApplicationType {
  @Field(() => String, { description: 'permanent public key' }) applicationKey: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) referenceId: string | null
  @Field(() => String, { description: 'PORTAL or INTERNAL' }) applicationKind: string
  @Field(() => String, { description: 'ACTIVE, SUSPENDED, PENDING_DELETION or ARCHIVED' }) appStatus: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Int, { description: 'increases on every operational state change' }) lifecycleRevision: number
  @Field(() => Boolean, { nullable: true, description: 'read-only' }) trafficLogDisabled: boolean | null
  @Field(() => GraphQLISODateTime, { name: 'created' }) createdAt: Date
}

@ObjectType('ApplicationPage')
export class ApplicationPage extends PageOf(ApplicationType, 'ApplicationPage') {}

@ArgsType()
export class ApplicationListArgs extends PagingArgs {
  @Field(() => String, { nullable: true, description: 'only applications of this organization' }) organizationCode?: string
  @Field(() => String, { nullable: true, description: 'ACTIVE, SUSPENDED, PENDING_DELETION or ARCHIVED' }) status?: ApplicationListQuery['status']
  @Field(() => String, { nullable: true, description: 'case-insensitive contains on the name' }) search?: string
}

@InputType('ApplicationInput')
export class ApplicationInputType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: 'PORTAL or INTERNAL (default)' }) applicationKind?: ApplicationInput['applicationKind']
  @Field(() => String, { nullable: true, description: 'ACTIVE (default), SUSPENDED, PENDING_DELETION or ARCHIVED' }) appStatus?: ApplicationInput['appStatus']
  @Field(() => String, { nullable: true }) referenceId?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true }) organizationCode?: string
  @Field(() => [String], { nullable: true, description: 'usernames of the credentials the application owns' }) consumers?: string[]
}

@InputType('ApplicationUpdateInput', { description: 'Absent or null fields keep their value; organizationCode "" detaches; consumers replaces the set' })
export class ApplicationUpdateInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) applicationKind?: ApplicationInput['applicationKind']
  @Field(() => String, { nullable: true }) referenceId?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true }) organizationCode?: string
  @Field(() => [String], { nullable: true }) consumers?: string[]
}

@InputType('ApiClientInput')
export class ApiClientInputType {
  @Field(() => String) name: string
  @Field(() => String) clientId: string
  @Field(() => String, { nullable: true, description: 'DRAFT (default), ACTIVE, SUSPENDED or REVOKED' }) operationalState?: ApiClientInput['operationalState']
  @Field(() => String, { nullable: true, description: 'default: READY when ACTIVE, else PENDING_SECRET' }) readiness?: ApiClientInput['readiness']
  @Field(() => GraphQLISODateTime, { nullable: true }) validFrom?: Date
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt?: Date
  @Field(() => String, { nullable: true, description: 'owner: an application of the project' }) applicationName?: string
  @Field(() => String, { nullable: true, description: 'owner: a credential of the project (not with applicationName)' }) credentialUsername?: string
}

@Resolver(() => ApplicationType)
export class ApplicationResolver {
  @Query(() => ApplicationPage, { description: 'Applications of a project (IDENTITY VIEW); sort name (default) or appStatus' })
  async applications(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => ApplicationListArgs) args: ApplicationListArgs) {
    return listApplicationViews(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(args))
  }

  @Query(() => ApplicationType)
  async application(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getApplication(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @FieldResolver(() => String, { nullable: true })
  organizationCode(@Root() app: Application & { organization?: { code: string } | null }, @Ctx() ctx: GqlContext) {
    // a list page reads its rows with their organizations (withOrganizations): no second read of the same rows, and
    // a value, not a promise per row
    if (app.organization !== undefined) return app.organization?.code ?? null
    return app.organizationId ? organizationLoader(ctx).load(app.organizationId).then((o) => o?.code ?? null) : null
  }

  @FieldResolver(() => [CredentialType], { description: 'the credentials the application owns' })
  async consumers(@Root() app: Application, @Ctx() ctx: GqlContext) {
    return consumersOfApplicationLoader(ctx).load(app.id)
  }

  @FieldResolver(() => [ApiClientType])
  async apiClients(@Root() app: Application, @Ctx() ctx: GqlContext) {
    return apiClientsOfApplicationLoader(ctx).load(app.id)
  }

  @Mutation(() => ApplicationType, { description: 'IDENTITY MANAGE' })
  async createApplication(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => ApplicationInputType) input: ApplicationInputType) {
    return createApplication(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(input))
  }

  @Mutation(() => ApplicationType, { description: 'IDENTITY MANAGE' })
  async updateApplication(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('input', () => ApplicationUpdateInputType) input: ApplicationUpdateInputType,
  ) {
    const { organizationCode, ...rest } = withoutNulls(input)
    const update = { ...rest, ...(organizationCode === undefined ? {} : { organizationCode: organizationCode || null }) }
    return updateApplication(ctx.deps.prisma, requireViewer(ctx), projectName, name, update)
  }

  @Mutation(() => Boolean, { description: 'IDENTITY MANAGE; its API clients go with it, its consumers stay' })
  async deleteApplication(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deleteApplication(ctx.deps, requireViewer(ctx), projectName, name)
  }
}

@Resolver(() => ApiClientType)
export class ApiClientResolver {
  @Query(() => ApiClientPage, { description: 'API clients of a project (IDENTITY VIEW)' })
  async apiClients(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => SearchPagingArgs) paging: SearchPagingArgs) {
    return pageApiClients(ctx.deps.prisma, requireViewer(ctx), projectName, paging)
  }

  @Query(() => ApiClientType)
  async apiClient(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiClientKey', () => String) apiClientKey: string) {
    return getApiClient(ctx.deps.prisma, requireViewer(ctx), projectName, apiClientKey)
  }

  @FieldResolver(() => String, { nullable: true, description: 'the owning application, if any' })
  async applicationName(@Root() client: ApiClient, @Ctx() ctx: GqlContext) {
    return client.applicationId ? ((await applicationLoader(ctx).load(client.applicationId))?.name ?? null) : null
  }

  @FieldResolver(() => String, { nullable: true, description: 'the owning credential, if any' })
  async credentialUsername(@Root() client: ApiClient, @Ctx() ctx: GqlContext) {
    return client.credentialId ? ((await credentialLoader(ctx).load(client.credentialId))?.username ?? null) : null
  }

  @Mutation(() => ApiClientType, { description: 'IDENTITY MANAGE' })
  async createApiClient(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => ApiClientInputType) input: ApiClientInputType) {
    return createApiClient(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(input))
  }

  @Mutation(() => Boolean, { description: 'IDENTITY MANAGE' })
  async deleteApiClient(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiClientKey', () => String) apiClientKey: string) {
    return deleteApiClient(ctx.deps, requireViewer(ctx), projectName, apiClientKey)
  }
}

/** Project.credentials and Project.applications: the walks sit beside what they read (see ProjectApiProxiesResolver). */
@Resolver(() => ProjectType)
export class ProjectIdentityResolver {
  @FieldResolver(() => [CredentialType], { nullable: true, description: 'needs IDENTITY VIEW' })
  async credentials(@Root() project: Project, @Ctx() ctx: GqlContext) {
    return guardedRelationLoader(ctx, 'credentialsByProject', credentialsOfProjects).load(project.id)
  }

  @FieldResolver(() => [ApplicationType], { nullable: true, description: 'needs IDENTITY VIEW' })
  async applications(@Root() project: Project, @Ctx() ctx: GqlContext) {
    return guardedRelationLoader(ctx, 'applicationsByProject', applicationsOfProjects).load(project.id)
  }
}

/** Application.limitAssignments: every assignment of the application, newest first (spec §4.10). */
@Resolver(() => ApplicationType)
export class ApplicationLimitAssignmentsResolver {
  @FieldResolver(() => [LimitAssignmentType])
  async limitAssignments(@Root() app: Application, @Ctx() ctx: GqlContext) {
    return (await assignmentsOfApplicationLoader(ctx).load(app.id)).map(toAssignment)
  }
}
