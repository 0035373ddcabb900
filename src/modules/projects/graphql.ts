import { Arg, Args, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { Organization, Project } from '../../generated/prisma/client.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import type { DomainError } from '../../platform/errors/domain-error.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { childrenOfOrganizationLoader, environmentsOfProjectLoader, organizationLoader } from '../../platform/graphql/loaders.js'
import { PageOf, PagingArgs, SearchPagingArgs } from '../../platform/graphql/types.js'
import { createEnvironment, deleteEnvironment, getEnvironment, pageEnvironments, updateEnvironmentWorkers } from './environments.js'
import { createOrganization, deleteOrganization, metadataView, getOrganization, organizationsOfProjects, pageOrganizations, updateOrganization, type OrganizationInput } from './organizations.js'
import {
  accessToProjects, createProject, deleteProject, getVisibleProject, membersOfProjects, pageVisibleProjects, removeMember,
  setMemberPermissions, setProjectEnvironments, type PermissionInput,
} from './projects.js'

@ObjectType('Environment', { description: 'A gateway environment: where deployable changes are pushed' })
export class EnvironmentType {
  @Field(() => String) name: string
  @Field(() => [String]) workerUrls: string[]
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { description: 'PRODUCTION, SANDBOX or TEST' }) type: string
  @Field(() => String, { nullable: true, description: 'the address clients call the gateway at' }) accessUrl: string | null
  @Field(() => GraphQLISODateTime) createdAt: Date
}

@ObjectType('EnvironmentPage')
export class EnvironmentPage extends PageOf(EnvironmentType, 'EnvironmentPage') {}

@InputType('EnvironmentInput')
export class EnvironmentInputType {
  @Field(() => String) name: string
  @Field(() => [String], { nullable: true, description: 'http(s) URLs of the gateway workers' }) workerUrls?: string[]
}

@ObjectType('Permission', { description: 'One grant: MANAGE implies VIEW, nothing else implies anything' })
@InputType('PermissionInput')
export class PermissionType {
  @Field(() => String, { description: 'asset category: IDENTITY, PROJECT_MANAGEMENT, AI_DEVELOPMENT, AI_BUDGETS, API_MANAGEMENT or an exportable type' })
  category: string
  @Field(() => String, { description: 'VIEW, MANAGE, DEPLOY_UNDEPLOY or EXPORT_IMPORT' }) level: PermissionInput['level']
}

@ObjectType('ProjectMember')
export class ProjectMemberType {
  @Field(() => String) username: string
  @Field(() => [PermissionType]) permissions: PermissionType[]
}

@ObjectType('OrganizationMetadataEntry', { description: 'vendor metadata entry; value null when secret' })
export class OrganizationMetadataEntryType {
  @Field(() => String) key: string
  @Field(() => String, { nullable: true }) value: string | null
  @Field(() => Boolean) secret: boolean
  @Field(() => Boolean) includeInJwt: boolean
  @Field(() => Boolean) includeInTokenResponse: boolean
  @Field(() => String, { nullable: true }) jwtClaimName: string | null
}

@InputType('OrganizationMetadataEntryInput', { description: 'a secret entry without value keeps its stored value on update' })
export class OrganizationMetadataEntryInputType {
  @Field(() => String) key: string
  @Field(() => String, { nullable: true }) value?: string
  @Field(() => Boolean, { nullable: true }) secret?: boolean
  @Field(() => Boolean, { nullable: true }) includeInJwt?: boolean
  @Field(() => Boolean, { nullable: true }) includeInTokenResponse?: boolean
  @Field(() => String, { nullable: true }) jwtClaimName?: string
}

@ObjectType('Organization')
export class OrganizationType {
  @Field(() => String) code: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: 'vendor nameSecondary' }) nameSecondary: string | null
  @Field(() => String, { description: 'ACTIVE, DELETE_IN_PROGRESS or TOMBSTONED' }) state: string
  @Field(() => Boolean) suspended: boolean
  @Field(() => GraphQLISODateTime) createdAt: Date
}

@ObjectType('OrganizationPage')
export class OrganizationPage extends PageOf(OrganizationType, 'OrganizationPage') {}

@InputType('OrganizationInput')
export class OrganizationInputType {
  @Field(() => String) code: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) parentCode?: string
  @Field(() => String, { nullable: true }) nameSecondary?: string
  @Field(() => [OrganizationMetadataEntryInputType], { nullable: true }) metadata?: OrganizationMetadataEntryInputType[]
  @Field(() => String, { nullable: true, description: 'ACTIVE (default), DELETE_IN_PROGRESS or TOMBSTONED' }) state?: OrganizationInput['state']
  @Field(() => Boolean, { nullable: true }) suspended?: boolean
}

@InputType('OrganizationUpdateInput', { description: 'Absent or null fields keep their value; parentCode "" makes it a root organization' })
export class OrganizationUpdateInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) parentCode?: string
  @Field(() => String, { nullable: true, description: 'updated when non-blank' }) nameSecondary?: string
  @Field(() => [OrganizationMetadataEntryInputType], { nullable: true, description: 'replaces the list' }) metadata?: OrganizationMetadataEntryInputType[]
  @Field(() => String, { nullable: true }) state?: OrganizationInput['state']
  @Field(() => Boolean, { nullable: true }) suspended?: boolean
}

@ObjectType('Project')
export class ProjectType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => GraphQLISODateTime) createdAt: Date
}

@ObjectType('ProjectPage')
export class ProjectPage extends PageOf(ProjectType, 'ProjectPage') {}

@InputType('ProjectInput')
export class ProjectInputType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => [String], { nullable: true, description: 'names of the environments the project deploys to' }) environments?: string[]
}

/** The caller's grants per project, loaded once per request for every guarded relation. */
const projectAccessLoader = (ctx: GqlContext) =>
  ctx.loaders.get<string, ProjectAccess>('projectAccessById', (ids) => accessToProjects(ctx.deps.prisma, requireViewer(ctx), ids))

/**
 * A has-many relation of projects read through its area's service, which answers permissionDenied for a
 * project where the caller may not view that area: the relation never shows more than the list query.
 */
export function guardedRelationLoader<T>(ctx: GqlContext, name: string, read: (db: Tx, accesses: ProjectAccess[]) => Promise<(T[] | DomainError)[]>) {
  return ctx.loaders.get<string, T[]>(name, async (ids) => {
    const accesses = await projectAccessLoader(ctx).loadMany(ids)
    const failed = accesses.find((a): a is Error => a instanceof Error)
    if (failed) throw failed
    return read(ctx.deps.prisma, accesses as ProjectAccess[])
  })
}

@Resolver(() => ProjectType)
export class ProjectResolver {
  @Query(() => ProjectPage, { description: 'Projects the caller can see: all for a system administrator, else those it is a member of' })
  async projects(@Ctx() ctx: GqlContext, @Args(() => SearchPagingArgs) paging: SearchPagingArgs) {
    return pageVisibleProjects(ctx.deps.prisma, requireViewer(ctx), paging)
  }

  @Query(() => ProjectType)
  async project(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return getVisibleProject(ctx.deps.prisma, requireViewer(ctx), name)
  }

  @FieldResolver(() => [EnvironmentType])
  async environments(@Root() project: Project, @Ctx() ctx: GqlContext) {
    return (await environmentsOfProjectLoader(ctx).load(project.id)).map((link) => link.environment)
  }

  @FieldResolver(() => [ProjectMemberType], { nullable: true, description: 'needs PROJECT_MANAGEMENT VIEW' })
  async members(@Root() project: Project, @Ctx() ctx: GqlContext) {
    return guardedRelationLoader(ctx, 'membersByProject', membersOfProjects).load(project.id)
  }

  @FieldResolver(() => [OrganizationType], { nullable: true, description: 'needs IDENTITY VIEW' })
  async organizations(@Root() project: Project, @Ctx() ctx: GqlContext) {
    return guardedRelationLoader(ctx, 'organizationsByProject', organizationsOfProjects).load(project.id)
  }

  @Mutation(() => ProjectType, { description: 'System administrators only' })
  async createProject(@Ctx() ctx: GqlContext, @Arg('input', () => ProjectInputType) input: ProjectInputType) {
    return createProject(ctx.deps.prisma, requireViewer(ctx), withoutNulls(input))
  }

  @Mutation(() => ProjectType, { description: 'Replaces the environments the project deploys to (system administrators only)' })
  async setProjectEnvironments(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('environments', () => [String]) environments: string[]) {
    return setProjectEnvironments(ctx.deps.prisma, requireViewer(ctx), projectName, environments)
  }

  @Mutation(() => Boolean, { description: `System administrators only; the platform project 'admin' cannot be deleted` })
  async deleteProject(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return deleteProject(ctx.deps.prisma, requireViewer(ctx), name)
  }

  @Mutation(() => ProjectMemberType, { description: 'Replaces a user\'s grants in the project, adding the membership when missing (system administrators only)' })
  async setMemberPermissions(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('username', () => String) username: string,
    @Arg('permissions', () => [PermissionType]) permissions: PermissionType[],
  ) {
    return setMemberPermissions(ctx.deps.prisma, requireViewer(ctx), projectName, username, permissions)
  }

  @Mutation(() => Boolean, { description: 'System administrators only' })
  async removeMember(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('username', () => String) username: string) {
    return removeMember(ctx.deps.prisma, requireViewer(ctx), projectName, username)
  }
}

@Resolver(() => EnvironmentType)
export class EnvironmentResolver {
  @Query(() => EnvironmentPage, { description: 'System administrators only' })
  async environments(@Ctx() ctx: GqlContext, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageEnvironments(ctx.deps.prisma, requireViewer(ctx), paging)
  }

  @Query(() => EnvironmentType, { description: 'System administrators only' })
  async environment(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return getEnvironment(ctx.deps.prisma, requireViewer(ctx), name)
  }

  @Mutation(() => EnvironmentType, { description: 'System administrators only' })
  async createEnvironment(@Ctx() ctx: GqlContext, @Arg('input', () => EnvironmentInputType) input: EnvironmentInputType) {
    return createEnvironment(ctx.deps.prisma, requireViewer(ctx), withoutNulls(input))
  }

  @Mutation(() => EnvironmentType, { description: 'Replaces the worker URLs (system administrators only)' })
  async setEnvironmentWorkerUrls(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string, @Arg('workerUrls', () => [String]) workerUrls: string[]) {
    return updateEnvironmentWorkers(ctx.deps.prisma, requireViewer(ctx), name, workerUrls)
  }

  @Mutation(() => Boolean, { description: 'System administrators only' })
  async deleteEnvironment(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return deleteEnvironment(ctx.deps.prisma, requireViewer(ctx), name)
  }
}

@Resolver(() => OrganizationType)
export class OrganizationResolver {
  @Query(() => OrganizationPage, { description: 'Organizations of a project (IDENTITY VIEW)' })
  async organizations(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageOrganizations(ctx.deps.prisma, requireViewer(ctx), projectName, paging)
  }

  @Query(() => OrganizationType)
  async organization(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('code', () => String) code: string) {
    return getOrganization(ctx.deps.prisma, requireViewer(ctx), projectName, code)
  }

  @FieldResolver(() => String, { nullable: true })
  async parentCode(@Root() org: Organization, @Ctx() ctx: GqlContext) {
    return org.parentId ? ((await organizationLoader(ctx).load(org.parentId))?.code ?? null) : null
  }

  @FieldResolver(() => [OrganizationMetadataEntryType], { description: 'vendor metadata entries, secret values null' })
  metadata(@Root() org: Organization) {
    return metadataView(org.metadata)
  }

  @FieldResolver(() => [OrganizationType], { description: 'direct sub-organizations' })
  async children(@Root() org: Organization, @Ctx() ctx: GqlContext) {
    return childrenOfOrganizationLoader(ctx).load(org.id)
  }

  @Mutation(() => OrganizationType, { description: 'IDENTITY MANAGE' })
  async createOrganization(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => OrganizationInputType) input: OrganizationInputType) {
    return createOrganization(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(input), ctx.deps.keyring)
  }

  @Mutation(() => OrganizationType, { description: 'IDENTITY MANAGE; suspended: true disables the organization' })
  async updateOrganization(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('code', () => String) code: string,
    @Arg('input', () => OrganizationUpdateInputType) input: OrganizationUpdateInputType,
  ) {
    const { parentCode, ...rest } = withoutNulls(input)
    return updateOrganization(ctx.deps.prisma, requireViewer(ctx), projectName, code, { ...rest, ...(parentCode === undefined ? {} : { parentCode: parentCode || null }) }, ctx.deps.keyring)
  }

  @Mutation(() => Boolean, { description: 'IDENTITY MANAGE; refused while it has sub-organizations' })
  async deleteOrganization(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('code', () => String) code: string) {
    return deleteOrganization(ctx.deps.prisma, requireViewer(ctx), projectName, code)
  }
}
