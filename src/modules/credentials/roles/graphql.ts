import { Arg, Ctx, Field, GraphQLISODateTime, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { withoutNulls } from '../../../platform/graphql/inputs.js'
import { createCredentialRole, deleteCredentialRole, listCredentialRoles } from './service.js'

@ObjectType('CredentialRole', { description: 'A role name of the project catalogue that credentials may carry (roleNameList)' })
export class CredentialRoleType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => GraphQLISODateTime) createdAt: Date
}

@InputType('CredentialRoleInput')
export class CredentialRoleInputType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description?: string
}

@Resolver(() => CredentialRoleType)
export class CredentialRoleResolver {
  @Query(() => [CredentialRoleType], { description: 'The credential roles of the project, by name (IDENTITY VIEW)' })
  async credentialRoles(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listCredentialRoles(ctx.deps.prisma, requireViewer(ctx), projectName)
  }

  @Mutation(() => CredentialRoleType, { description: 'Adds a role to the project catalogue (IDENTITY MANAGE); nothing is deployed' })
  async createCredentialRole(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => CredentialRoleInputType) input: CredentialRoleInputType) {
    return createCredentialRole(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(input))
  }

  @Mutation(() => CredentialRoleType, { description: 'Removes a role no credential holds (IDENTITY MANAGE)' })
  async deleteCredentialRole(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return deleteCredentialRole(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }
}
