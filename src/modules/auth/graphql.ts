import { Arg, Args, Ctx, Field, FieldResolver, GraphQLISODateTime, Int, Mutation, ObjectType, Query, Resolver, Root, InputType } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { PageOf, PagingArgs } from '../../platform/graphql/types.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import type { IssuedToken } from '../../platform/auth/tokens.js'
import { createOwnToken, listOwnTokens, regenerateToken, revokeTokenByKey, revokeTokenByValue, signIn } from './service.js'
import { changeOwnPassword, createUser, deleteUser, getUser, listUsers, updateUser } from './users.js'
import { initialPasswordStands } from './initial-password.js'

@ObjectType('User')
export class UserType {
  @Field(() => String) username: string
  @Field(() => String) role: string
  @Field(() => Boolean) locked: boolean
  @Field(() => Boolean) enabled: boolean
  @Field(() => Int, { nullable: true, description: 'null: tokens never expire' }) tokenLifetimeSeconds: number | null
  @Field(() => GraphQLISODateTime) createdAt: Date
}

@ObjectType('UserPage')
export class UserPage extends PageOf(UserType, 'UserPage') {}

@ObjectType('AccessTokenInfo', { description: 'A token of the caller; the value is never shown again' })
export class AccessTokenInfo {
  @Field(() => String) tokenKey: string
  @Field(() => String, { nullable: true }) name: string | null
  @Field(() => String, { description: 'PERSONAL or CONSOLE' }) audience: string
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt: Date | null
  @Field(() => GraphQLISODateTime, { nullable: true }) lastUsedAt: Date | null
}

@ObjectType('IssuedToken', { description: 'A new token: the value is shown this once' })
export class IssuedTokenType {
  @Field(() => String) token: string
  @Field(() => String) tokenKey: string
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt: Date | null

  static from(t: IssuedToken) {
    return Object.assign(new IssuedTokenType(), { token: t.value, tokenKey: t.tokenKey, expiresAt: t.expiresAt })
  }
}

@InputType('CreateUserInput')
export class CreateUserInputType {
  @Field(() => String) username: string
  @Field(() => String) password: string
  @Field(() => String, { nullable: true, description: 'ADMIN, ANALYZER (reads every project, changes nothing) or USER (default)' }) role?: 'ADMIN' | 'ANALYZER' | 'USER'
  @Field(() => Boolean, { nullable: true }) locked?: boolean
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
  @Field(() => Int, { nullable: true }) tokenLifetimeSeconds?: number | null
}

@InputType('UpdateUserInput')
export class UpdateUserInputType {
  @Field(() => String, { nullable: true }) password?: string
  @Field(() => String, { nullable: true }) role?: 'ADMIN' | 'ANALYZER' | 'USER'
  @Field(() => Boolean, { nullable: true }) locked?: boolean
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
  @Field(() => Int, { nullable: true }) tokenLifetimeSeconds?: number | null
}

@Resolver()
export class AuthResolver {
  @Mutation(() => IssuedTokenType, { description: 'Console session for admin UIs: works on /graphql and /api, not on /apiops' })
  async login(@Ctx() ctx: GqlContext, @Arg('username', () => String) username: string, @Arg('password', () => String) password: string) {
    const { token } = await signIn(ctx.deps, { username, password, clientAddress: ctx.clientAddress }, 'CONSOLE')
    return IssuedTokenType.from(token)
  }

  @Query(() => UserType, { description: 'The signed-in user' })
  async me(@Ctx() ctx: GqlContext) {
    const viewer = requireViewer(ctx)
    return getUser(ctx.deps.prisma, viewer, viewer.kind === 'user' ? viewer.username : '')
  }

  @Query(() => [AccessTokenInfo])
  async myTokens(@Ctx() ctx: GqlContext) {
    return listOwnTokens(ctx.deps, requireViewer(ctx))
  }

  @Mutation(() => IssuedTokenType, { description: 'A new personal access token for the caller' })
  async createPersonalAccessToken(@Ctx() ctx: GqlContext, @Arg('name', () => String, { nullable: true }) name: string | null) {
    return IssuedTokenType.from(await createOwnToken(ctx.deps, requireViewer(ctx), name ?? null))
  }

  @Mutation(() => Boolean, { description: 'Revokes a token by its value' })
  async revokeToken(@Ctx() ctx: GqlContext, @Arg('token', () => String) token: string) {
    return revokeTokenByValue(ctx.deps, requireViewer(ctx), token)
  }

  @Mutation(() => Boolean, { description: 'Revokes one of the caller\'s tokens by its key' })
  async revokeTokenByKey(@Ctx() ctx: GqlContext, @Arg('tokenKey', () => String) tokenKey: string) {
    return revokeTokenByKey(ctx.deps, requireViewer(ctx), tokenKey)
  }

  @Mutation(() => IssuedTokenType, { description: 'Replaces a token\'s value: the new one works at once, the old one stops' })
  async regenerateToken(@Ctx() ctx: GqlContext, @Arg('tokenKey', () => String) tokenKey: string) {
    return IssuedTokenType.from(await regenerateToken(ctx.deps, requireViewer(ctx), tokenKey))
  }
}

@Resolver(() => UserType)
export class UserResolver {
  @Query(() => UserPage, { description: 'Users (system administrators only)' })
  async users(@Ctx() ctx: GqlContext, @Args(() => PagingArgs) paging: PagingArgs, @Arg('search', () => String, { nullable: true }) search: string | null) {
    return listUsers(ctx.deps, requireViewer(ctx), { ...paging, search })
  }

  @Query(() => UserType)
  async user(@Ctx() ctx: GqlContext, @Arg('username', () => String) username: string) {
    return getUser(ctx.deps.prisma, requireViewer(ctx), username)
  }

  @Mutation(() => UserType)
  async createUser(@Ctx() ctx: GqlContext, @Arg('input', () => CreateUserInputType) input: CreateUserInputType) {
    return createUser(ctx.deps.prisma, requireViewer(ctx), withoutNulls(input, ['tokenLifetimeSeconds']))
  }

  @Mutation(() => UserType, { description: 'Locking or disabling stops every token of the user on its next call' })
  async updateUser(@Ctx() ctx: GqlContext, @Arg('username', () => String) username: string, @Arg('input', () => UpdateUserInputType) input: UpdateUserInputType) {
    return updateUser(ctx.deps.prisma, requireViewer(ctx), username, withoutNulls(input, ['tokenLifetimeSeconds']), ctx.deps.config.dataDir)
  }

  @Mutation(() => UserType, { description: 'Any signed-in user changes its own password, giving the current one (a wrong one is malformedRequest, field currentPassword)' })
  async changeMyPassword(@Ctx() ctx: GqlContext, @Arg('currentPassword', () => String) currentPassword: string, @Arg('newPassword', () => String) newPassword: string) {
    return changeOwnPassword(ctx.deps.prisma, requireViewer(ctx), { currentPassword, newPassword }, ctx.deps.config.dataDir)
  }

  @FieldResolver(() => Boolean, { description: 'true while the first-run admin still has its generated initial password (RUNTIME.md §3.1): a console leads it to change it' })
  initialPassword(@Ctx() ctx: GqlContext, @Root() user: UserType) {
    return initialPasswordStands(ctx.deps.config.dataDir, user.username)
  }

  @Mutation(() => Boolean)
  async deleteUser(@Ctx() ctx: GqlContext, @Arg('username', () => String) username: string) {
    return deleteUser(ctx.deps.prisma, requireViewer(ctx), username)
  }
}
