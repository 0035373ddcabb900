import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { Application, Credential } from '../../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { withoutNulls } from '../../../platform/graphql/inputs.js'
import { apiClientsOfCredentialLoader, entitlementsOfApplicationLoader, entitlementsOfCredentialLoader, organizationLoader } from '../../../platform/graphql/loaders.js'
import { DeploymentResultType, PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import type { CredentialWrite } from '../../credentials/service.js'
import { createConsumer, setConsumerEnabled } from './writes.js'
import { OrganizationType } from '../../projects/graphql.js'
import { getApplicationByKey } from '../application-reads.js'
import { getConsumer, listConsumers } from './service.js'
import { EntitlementType } from '../entitlements/graphql.js'
import { ApiClientType, ApplicationType } from '../graphql.js'
import { assignmentsOfConsumerLoader, LimitAssignmentType, toAssignment } from '../../limits/assignments/graphql.js'

// The GraphQL twin of the consumer and application read surface (spec §4.10): the same services, filters,
// paging and errors as REST; relations go through per-request DataLoaders.

@ObjectType('Consumer', { description: 'A consumer (credential) of a project as spec §2.15 shows it: no secret, certificate or token setting' })
export class ConsumerType {
  @Field(() => String, { description: 'permanent public key' }) consumerKey: string
  @Field(() => String) username: string
  @Field(() => String, { nullable: true }) fullName: string | null
  @Field(() => String, { nullable: true }) email: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => GraphQLISODateTime, { nullable: true }) expireDate: Date | null
  @Field(() => Boolean, { nullable: true, description: 'read-only; null when never set' }) trafficLogDisabled: boolean | null
}

@ObjectType('ConsumerPage')
export class ConsumerPage extends PageOf(ConsumerType, 'ConsumerPage') {}

@InputType('ConsumerInput', { description: 'A new consumer: a credential without a password' })
export class ConsumerInputType {
  @Field(() => String) username: string
  @Field(() => String, { nullable: true }) fullName?: string
  @Field(() => String, { nullable: true }) email?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true }) organizationCode?: string
}

@ObjectType('ConsumerWriteResult')
export class ConsumerWriteResult {
  @Field(() => ConsumerType) consumer: Credential
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType

  static from(write: CredentialWrite) {
    return Object.assign(new ConsumerWriteResult(), { consumer: write.credential, deploymentResult: DeploymentResultType.from(write.deploymentResult) })
  }
}

@ArgsType()
export class ConsumerListArgs extends PagingArgs {
  @Field(() => String, { nullable: true, description: 'only consumers of this organization' }) organizationCode?: string
  @Field(() => Boolean, { nullable: true, description: 'only enabled consumers' }) enabledOnly?: boolean
  @Field(() => String, { nullable: true, description: 'case-insensitive contains on username and full name' }) search?: string
}

const organizationOf = (ctx: GqlContext, organizationId: string | null) => (organizationId ? organizationLoader(ctx).load(organizationId) : null)

@Resolver(() => ConsumerType)
export class ConsumerResolver {
  @Query(() => ConsumerPage, { description: 'Consumers of a project (IDENTITY VIEW); sort username (default), fullName or enabled' })
  async consumers(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => ConsumerListArgs) args: ConsumerListArgs) {
    return listConsumers(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(args))
  }

  @Query(() => ConsumerType)
  async consumer(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('consumerKey', () => String) consumerKey: string) {
    return getConsumer(ctx.deps.prisma, requireViewer(ctx), projectName, consumerKey)
  }

  @Mutation(() => ConsumerWriteResult, { description: 'Creates a consumer (a credential without a password) and deploys it (IDENTITY MANAGE)' })
  async createConsumer(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => ConsumerInputType) input: ConsumerInputType) {
    return ConsumerWriteResult.from(await createConsumer(ctx.deps, requireViewer(ctx), projectName, withoutNulls(input)))
  }

  @Mutation(() => ConsumerWriteResult, { description: 'Disables a consumer and deploys it disabled (IDENTITY MANAGE)' })
  async disableConsumer(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('consumerKey', () => String) consumerKey: string) {
    return ConsumerWriteResult.from(await setConsumerEnabled(ctx.deps, requireViewer(ctx), projectName, consumerKey, false))
  }

  @Mutation(() => ConsumerWriteResult, { description: 'Enables a consumer and deploys it (IDENTITY MANAGE)' })
  async enableConsumer(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('consumerKey', () => String) consumerKey: string) {
    return ConsumerWriteResult.from(await setConsumerEnabled(ctx.deps, requireViewer(ctx), projectName, consumerKey, true))
  }

  @FieldResolver(() => String, { nullable: true })
  organizationCode(@Root() consumer: Credential & { organization?: { code: string } | null }, @Ctx() ctx: GqlContext) {
    // a list page reads its rows with their organizations' codes: no second read of the same rows, and a value,
    // not a promise (a promise in every row makes graphql-js wait for each row and then for the list)
    if (consumer.organization !== undefined) return consumer.organization?.code ?? null
    return organizationOf(ctx, consumer.organizationId)?.then((o) => o?.code ?? null) ?? null
  }

  @FieldResolver(() => OrganizationType, { nullable: true })
  async organization(@Root() consumer: Credential, @Ctx() ctx: GqlContext) {
    return organizationOf(ctx, consumer.organizationId)
  }

  @FieldResolver(() => [ApiClientType], { description: 'the API clients the consumer owns' })
  async apiClients(@Root() consumer: Credential, @Ctx() ctx: GqlContext) {
    return apiClientsOfCredentialLoader(ctx).load(consumer.id)
  }

  @FieldResolver(() => [EntitlementType], { description: 'ended ones included, oldest first' })
  async entitlements(@Root() consumer: Credential, @Ctx() ctx: GqlContext) {
    return entitlementsOfCredentialLoader(ctx).load(consumer.id)
  }
}

/** Additions to the Application type of graphql.ts: lookup by public key and entitlements. */
@Resolver(() => ApplicationType)
export class ApplicationReadResolver {
  @Query(() => ApplicationType, { description: 'An application by its public key (IDENTITY VIEW)' })
  async applicationByKey(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('applicationKey', () => String) applicationKey: string) {
    return getApplicationByKey(ctx.deps.prisma, requireViewer(ctx), projectName, applicationKey)
  }

  @FieldResolver(() => [EntitlementType], { description: 'ended ones included, oldest first' })
  async entitlements(@Root() app: Application, @Ctx() ctx: GqlContext) {
    return entitlementsOfApplicationLoader(ctx).load(app.id)
  }
}

/** Consumer.limitAssignments: every assignment of the consumer, newest first (spec §4.10). */
@Resolver(() => ConsumerType)
export class ConsumerLimitAssignmentsResolver {
  @FieldResolver(() => [LimitAssignmentType])
  async limitAssignments(@Root() consumer: Credential, @Ctx() ctx: GqlContext) {
    return (await assignmentsOfConsumerLoader(ctx).load(consumer.id)).map(toAssignment)
  }
}
