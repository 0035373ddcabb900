import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, ArgsType, Ctx, Extensions, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import {
  activateLimitDefault, createLimitDefault, deleteLimitDefault, disableLimitDefault, getLimitDefault, listLimitDefaults, updateLimitDefault, validateLimitDefault,
} from './service.js'

// The GraphQL door of default limit policies: the same service and errors as /api/limit-defaults.

@ObjectType('LimitDefaultOwner')
export class LimitDefaultOwnerType {
  @Field(() => String, { description: 'PLATFORM, PROJECT or ORGANIZATION' }) type: string
  @Field(() => String, { nullable: true, description: 'project name' }) projectId?: string
  @Field(() => String, { nullable: true }) organizationCode?: string
}

@ObjectType('LimitDefault', { description: 'A default limit policy: what INHERIT assignments of the owner resolve to' })
export class LimitDefaultType {
  @Field(() => String) defaultKey: string
  @Field(() => LimitDefaultOwnerType) owner: LimitDefaultOwnerType
  @Field(() => String, { nullable: true }) name: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String) family: string
  @Field(() => String) actorScope: string
  @Field(() => String, { description: 'PLAN or CUSTOM' }) mode: string
  @Field(() => [String]) planKeys: string[]
  @Field(() => JSONResolver, { nullable: true }) customRuleSpec: unknown
  @Field(() => String, { description: 'DISABLED or ACTIVE' }) status: string
  @Field(() => Int) version: number
  @Field(() => String) createdAt: string
  @Field(() => String) createdBy: string
  @Field(() => String) updatedAt: string
  @Field(() => String) updatedBy: string
  @Field(() => String, { nullable: true }) activatedAt: string | null
  @Field(() => String, { nullable: true }) disabledAt: string | null
}

@ObjectType('LimitDefaultPage')
export class LimitDefaultPage extends PageOf(LimitDefaultType, 'LimitDefaultPage') {}

@InputType('LimitDefaultOwnerInput')
export class LimitDefaultOwnerInput {
  @Field(() => String) type: string
  @Field(() => String, { nullable: true, description: 'project name' }) projectId?: string
  @Field(() => String, { nullable: true }) organizationCode?: string
}

@InputType('LimitDefaultContentInput')
export class LimitDefaultContentInput {
  @Field(() => String, { nullable: true, description: 'required' }) family?: string
  @Field(() => String, { nullable: true, description: 'default ANY' }) actorScope?: string
  @Field(() => String, { nullable: true, description: 'PLAN (default with planKeys) or CUSTOM' }) mode?: string
  @Field(() => [String], { nullable: true }) planKeys?: string[]
  @Field(() => JSONResolver, { nullable: true }) customRuleSpec?: unknown
}

@InputType('LimitDefaultInput', { description: 'owner on create only; version on update only' })
export class LimitDefaultInput {
  @Field(() => LimitDefaultOwnerInput, { nullable: true }) owner?: LimitDefaultOwnerInput
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => LimitDefaultContentInput) content: LimitDefaultContentInput
  @Field(() => Int, { nullable: true }) version?: number
}

@ArgsType()
class LimitDefaultListArgs extends PagingArgs {
  @Field(() => String, { nullable: true }) ownerType?: string
  @Field(() => String, { nullable: true, description: 'project name; absent: platform defaults' }) projectId?: string
  @Field(() => String, { nullable: true }) organizationCode?: string
  @Field(() => String, { nullable: true }) family?: string
  @Field(() => String, { nullable: true }) status?: string
}

/** GraphQL nulls are "absent"; the custom rule spec is taken as sent. */
function bodyOf(input: object) {
  const strip = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== undefined).map(([k, x]) => [k, k === 'customRuleSpec' ? x : strip(x)])) : v
  return strip({ ...input })
}

@Resolver(() => LimitDefaultType)
export class LimitDefaultResolver {
  @Query(() => LimitDefaultPage, { description: 'Defaults of one owner; sort createdAt (default desc), family, status, name' })
  async limitDefaults(@Ctx() ctx: GqlContext, @Args(() => LimitDefaultListArgs) args: LimitDefaultListArgs) {
    return listLimitDefaults(ctx.deps.prisma, requireViewer(ctx), bodyOf(args))
  }

  @Query(() => LimitDefaultType)
  async limitDefault(@Ctx() ctx: GqlContext, @Arg('defaultKey', () => String) defaultKey: string) {
    return getLimitDefault(ctx.deps.prisma, requireViewer(ctx), defaultKey)
  }

  @Mutation(() => LimitDefaultType, { description: 'Creates a DISABLED default' })
  async createLimitDefault(@Ctx() ctx: GqlContext, @Arg('input', () => LimitDefaultInput) input: LimitDefaultInput) {
    return createLimitDefault(ctx.deps.prisma, requireViewer(ctx), bodyOf(input))
  }

  @Mutation(() => Boolean, { description: 'Checks a create input; writes nothing (errors as createLimitDefault)' })
  @Extensions({ audit: false })
  async validateLimitDefault(@Ctx() ctx: GqlContext, @Arg('input', () => LimitDefaultInput) input: LimitDefaultInput) {
    await validateLimitDefault(ctx.deps.prisma, requireViewer(ctx), bodyOf(input))
    return true
  }

  @Mutation(() => LimitDefaultType, { description: 'Replaces name, description and content (version must match when given)' })
  async updateLimitDefault(@Ctx() ctx: GqlContext, @Arg('defaultKey', () => String) defaultKey: string, @Arg('input', () => LimitDefaultInput) input: LimitDefaultInput) {
    return updateLimitDefault(ctx.deps.prisma, requireViewer(ctx), defaultKey, bodyOf(input))
  }

  @Mutation(() => LimitDefaultType)
  async activateLimitDefault(@Ctx() ctx: GqlContext, @Arg('defaultKey', () => String) defaultKey: string, @Arg('version', () => Int, { nullable: true }) version?: number) {
    return activateLimitDefault(ctx.deps.prisma, requireViewer(ctx), defaultKey, version == null ? undefined : { version })
  }

  @Mutation(() => LimitDefaultType)
  async disableLimitDefault(@Ctx() ctx: GqlContext, @Arg('defaultKey', () => String) defaultKey: string, @Arg('version', () => Int, { nullable: true }) version?: number) {
    return disableLimitDefault(ctx.deps.prisma, requireViewer(ctx), defaultKey, version == null ? undefined : { version })
  }

  @Mutation(() => Boolean, { description: 'Deletes a DISABLED default' })
  async deleteLimitDefault(@Ctx() ctx: GqlContext, @Arg('defaultKey', () => String) defaultKey: string) {
    await deleteLimitDefault(ctx.deps.prisma, requireViewer(ctx), defaultKey)
    return true
  }
}
