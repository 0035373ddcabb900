import { Arg, Ctx, Field, GraphQLISODateTime, Int, Mutation, ObjectType, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { resumeApplication, suspendApplication } from './service.js'
import { createProductSubscription } from '../subscriptions.js'
import { transferApplication, transferConsumer } from '../transfer.js'

/** The application view of spec §2.15, exactly as the REST actions answer it. */
@ObjectType('ApplicationLifecycleView', { description: 'An application as suspend, resume and transfer answer it (spec §2.15)' })
export class ApplicationLifecycleView {
  @Field(() => String) applicationKey: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) referenceId: string | null
  @Field(() => String, { description: 'PORTAL or INTERNAL' }) applicationKind: string
  @Field(() => String, { description: 'ACTIVE, SUSPENDED, PENDING_DELETION or ARCHIVED' }) appStatus: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { nullable: true }) organizationCode: string | null
  @Field(() => String, { description: 'ISO 8601' }) created: string
  @Field(() => Int, { description: 'increases on every operational state change' }) lifecycleRevision: number
  @Field(() => Boolean, { nullable: true, description: 'read-only' }) trafficLogDisabled?: boolean
}

/** The consumer view of spec §2.15: never a secret, certificate or token setting. */
@ObjectType('ConsumerTransferView', { description: 'A consumer as the transfer answers it (spec §2.15)' })
export class ConsumerTransferView {
  @Field(() => String) consumerKey: string
  @Field(() => String) username: string
  @Field(() => String, { nullable: true }) fullName: string | null
  @Field(() => String, { nullable: true }) email: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => String, { nullable: true }) organizationCode?: string
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) expireDate: string | null
  @Field(() => Boolean, { nullable: true, description: 'read-only' }) trafficLogDisabled?: boolean
}

@ObjectType('ProductSubscription', { description: "An application's subscription to an API product, re-linked when the application moves" })
export class ProductSubscriptionType {
  @Field(() => String) productName: string
  @Field(() => String) status: string
  @Field(() => String) applicationName: string
  @Field(() => String, { nullable: true }) organizationCode: string | null
  @Field(() => GraphQLISODateTime) createdAt: Date
}

/** The GraphQL door onto the consumer/application actions of spec §4.10: same services, same errors as REST. */
@Resolver()
export class IdentityLifecycleResolver {
  @Mutation(() => ApplicationLifecycleView, { description: 'Suspends an application (spec §3.4); IDENTITY MANAGE; repeating is safe' })
  async suspendApplication(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('applicationKey', () => String) applicationKey: string) {
    return suspendApplication(ctx.deps, requireViewer(ctx), projectName, applicationKey)
  }

  @Mutation(() => ApplicationLifecycleView, { description: 'Resumes an application (spec §3.4); IDENTITY MANAGE; repeating is safe' })
  async resumeApplication(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('applicationKey', () => String) applicationKey: string) {
    return resumeApplication(ctx.deps, requireViewer(ctx), projectName, applicationKey)
  }

  @Mutation(() => ConsumerTransferView, { description: 'Moves a consumer to another organization (spec §4.10); IDENTITY MANAGE' })
  async transferConsumer(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('consumerKey', () => String) consumerKey: string,
    @Arg('organizationCode', () => String) organizationCode: string,
  ) {
    return transferConsumer(ctx.deps, requireViewer(ctx), projectName, consumerKey, { organizationCode })
  }

  @Mutation(() => ApplicationLifecycleView, { description: 'Moves an application with what it owns to another organization (spec §4.10); IDENTITY MANAGE' })
  async transferApplication(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('applicationKey', () => String) applicationKey: string,
    @Arg('organizationCode', () => String) organizationCode: string,
  ) {
    return transferApplication(ctx.deps, requireViewer(ctx), projectName, applicationKey, { organizationCode })
  }

  @Mutation(() => ProductSubscriptionType, { description: 'Records an approved product subscription of an application (IDENTITY MANAGE)' })
  async createProductSubscription(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('applicationName', () => String) applicationName: string,
    @Arg('productName', () => String) productName: string,
  ) {
    const row = await createProductSubscription(ctx.deps.prisma, requireViewer(ctx), projectName, { applicationName, productName })
    return { productName: row.productName, status: row.status, applicationName: row.application.name, organizationCode: row.organization?.code ?? null, createdAt: row.createdAt }
  }
}
