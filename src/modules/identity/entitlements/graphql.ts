import { Arg, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Resolver, Root } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { withoutNulls } from '../../../platform/graphql/inputs.js'
import { createEntitlement, endEntitlement, type EntitlementInput, type EntitlementRow } from './service.js'

@ObjectType('Entitlement', { description: 'A consumer\'s or application\'s right to call an API target (spec §2.15)' })
export class EntitlementType {
  @Field(() => String, { description: 'permanent public key' }) entitlementKey: string
  @Field(() => String, { description: 'CONSUMER or APPLICATION' }) subjectType: string
  @Field(() => String, { description: 'API_PROXY, API_PROXY_GROUP, API_PRODUCT or API_PROXY_ENV' }) targetType: string
  @Field(() => String) targetRef: string
  @Field(() => String, { nullable: true, description: 'environment name; only for API_PROXY_ENV' }) environmentRef: string | null
  @Field(() => String, { description: 'DRAFT, ACTIVE or ENDED' }) status: string
  @Field(() => GraphQLISODateTime, { nullable: true }) validFrom: Date | null
  @Field(() => GraphQLISODateTime, { nullable: true }) validUntil: Date | null
  @Field(() => String, { description: 'LEGACY_CAP, MANUAL, IMPORT, PORTAL or MIGRATION' }) source: string
  @Field(() => Int) version: number
  @Field(() => GraphQLISODateTime) assignedAt: Date
  @Field(() => String) assignedBy: string
  @Field(() => GraphQLISODateTime, { nullable: true }) endedAt: Date | null
  @Field(() => String, { nullable: true }) endedBy: string | null
  @Field(() => String, { nullable: true }) endedReason: string | null
}

@InputType('EntitlementInput')
export class EntitlementInputType {
  @Field(() => String, { description: 'CONSUMER or APPLICATION' }) subjectType: EntitlementInput['subjectType']
  @Field(() => String, { description: 'consumer username or application name' }) subjectKey: string
  @Field(() => String, { description: 'API_PROXY, API_PROXY_GROUP, API_PRODUCT or API_PROXY_ENV' }) targetType: EntitlementInput['targetType']
  @Field(() => String, { description: 'API proxy, group or product name' }) targetRef: string
  @Field(() => String, { nullable: true, description: 'environment name: required for API_PROXY_ENV, forbidden otherwise' }) environmentRef?: string
  @Field(() => String, { nullable: true, description: 'DRAFT or ACTIVE (default)' }) status?: EntitlementInput['status']
  @Field(() => GraphQLISODateTime, { nullable: true }) validFrom?: Date
  @Field(() => GraphQLISODateTime, { nullable: true }) validUntil?: Date
  @Field(() => String, { nullable: true, description: 'LEGACY_CAP, MANUAL (default), IMPORT, PORTAL or MIGRATION' }) source?: EntitlementInput['source']
}

@Resolver(() => EntitlementType)
export class EntitlementResolver {
  @FieldResolver(() => String, { description: 'consumer username or application name' })
  subjectKey(@Root() e: EntitlementRow) {
    return e.credential?.username ?? e.application?.name ?? ''
  }

  @Mutation(() => EntitlementType, { description: 'IDENTITY MANAGE; assignedBy is the caller' })
  async createEntitlement(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => EntitlementInputType) input: EntitlementInputType) {
    return createEntitlement(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(input))
  }

  @Mutation(() => EntitlementType, { description: 'IDENTITY MANAGE; an ended entitlement is final' })
  async endEntitlement(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('entitlementKey', () => String) entitlementKey: string,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
  ) {
    return endEntitlement(ctx.deps.prisma, requireViewer(ctx), projectName, entitlementKey, reason)
  }
}
