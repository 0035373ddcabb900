import { Arg, Args, Ctx, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import { EVENT_TYPES, getEventSubscription, pageDeliveries, setEventSubscription, type DeliveryStatus } from './service.js'

// Event webhooks over GraphQL: the twins of GET/PUT …/connections/{name}/events/ and GET …/deliveries/, same service.

@ObjectType('WebhookEventSubscription', { description: 'The event types a webhook connection receives; the signing secret is write-only' })
export class WebhookEventSubscriptionType {
  @Field(() => String) connectionName: string
  @Field(() => [String]) eventTypes: string[]
  @Field(() => Boolean, { description: 'whether a signing secret is stored' }) signingSecretSet: boolean
  @Field(() => String, { nullable: true, description: 'ISO 8601 instant' }) updatedAt: string | null
}

@ObjectType('WebhookDelivery', { description: 'One event sent to one webhook connection (its delivery log)' })
export class WebhookDeliveryType {
  @Field(() => String) id: string
  @Field(() => String, { description: 'X-Gateway-Event-Id: the same on every attempt' }) eventId: string
  @Field(() => String) eventType: string
  @Field(() => String, { description: 'PENDING, RETRYING, DELIVERED or CANCELLED' }) status: DeliveryStatus
  @Field(() => Int) attempts: number
  @Field(() => String, { nullable: true, description: 'the error of the last failed attempt' }) lastError: string | null
  @Field(() => Int, { nullable: true }) lastStatusCode: number | null
  @Field(() => String) createdAt: string
  @Field(() => String, { nullable: true }) lastAttemptAt: string | null
  @Field(() => String, { nullable: true }) deliveredAt: string | null
  @Field(() => String, { nullable: true }) nextAttemptAt: string | null
}

@ObjectType('WebhookDeliveryPage')
export class WebhookDeliveryPage extends PageOf(WebhookDeliveryType, 'WebhookDeliveryPage') {}

@Resolver()
export class WebhookEventResolver {
  @Query(() => [String], { description: 'Every event type a webhook connection may subscribe to' })
  webhookEventTypes(): string[] {
    return [...EVENT_TYPES]
  }

  @Query(() => WebhookEventSubscriptionType, { description: 'CONNECTION (or PROJECT_MANAGEMENT) VIEW' })
  async webhookEventSubscription(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('connectionName', () => String) connectionName: string) {
    return getEventSubscription(ctx.deps.prisma, requireViewer(ctx), projectName, connectionName)
  }

  @Mutation(() => WebhookEventSubscriptionType, {
    description: 'Same rules as PUT /apiops/projects/{projectName}/connections/{connectionName}/events/: replaces the event types (empty: unsubscribes); signingSecret is write-only, required for the first subscription; CONNECTION (or PROJECT_MANAGEMENT) MANAGE, audit types also PROJECT_MANAGEMENT VIEW',
  })
  async setWebhookEventSubscription(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('connectionName', () => String) connectionName: string,
    @Arg('eventTypes', () => [String]) eventTypes: string[],
    @Arg('signingSecret', () => String, { nullable: true }) signingSecret: string | null,
  ) {
    return setEventSubscription(ctx.deps, requireViewer(ctx), projectName, connectionName, { eventTypes, ...(signingSecret != null ? { signingSecret } : {}) })
  }

  @Query(() => WebhookDeliveryPage, { description: 'The delivery log of a webhook connection, newest first; CONNECTION (or PROJECT_MANAGEMENT) VIEW' })
  async webhookDeliveries(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('connectionName', () => String) connectionName: string, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageDeliveries(ctx.deps.prisma, requireViewer(ctx), projectName, connectionName, paging)
  }
}
