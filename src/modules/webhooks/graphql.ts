import { Arg, Args, Ctx, Extensions, Field, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { PageOf, PagingArgs } from '../../platform/graphql/types.js'
import {
  createWebhookConnection, deleteWebhookConnection, getWebhookConnection, pageWebhookConnections, testWebhookConnection,
  updateWebhookConnection, webhookConnectionNameExists, WEBHOOK_METHODS, type WebhookConnectionInput,
} from './service.js'

const METHODS = WEBHOOK_METHODS.join(', ')

@ObjectType('WebhookHeader')
export class WebhookHeaderType {
  @Field(() => String) name: string
  @Field(() => String) value: string
}

@ObjectType('WebhookBatching', { description: 'One request carries line-separated JSON events' })
export class WebhookBatchingType {
  @Field(() => Boolean) enabled: boolean
  @Field(() => Int) maxEvents: number
  @Field(() => Int) maxBytes: number
  @Field(() => Int) maxDelayMs: number
  @Field(() => Int) bufferCapBytes: number
}

@ObjectType('WebhookRetry')
export class WebhookRetryType {
  @Field(() => Int) maxRetries: number
  @Field(() => Int) waitMs: number
  @Field(() => Int, { description: 'largest Retry-After honoured' }) maxRetryAfterSeconds: number
  @Field(() => Boolean, { description: 'retry POST and PATCH too' }) retryNonIdempotent: boolean
}

@ObjectType('WebhookCollectorMode', { description: 'Event-collector envelope mode' })
export class WebhookCollectorModeType {
  @Field(() => Boolean) enabled: boolean
  @Field(() => String) index: string
  @Field(() => String) sourcetype: string
  @Field(() => String) source: string
  @Field(() => String) host: string
  @Field(() => Boolean) acknowledgements: boolean
  @Field(() => Int) acknowledgementTimeoutSeconds: number
  @Field(() => Int) maxAcknowledgementResends: number
}

@ObjectType('WebhookCircuitBreaker')
export class WebhookCircuitBreakerType {
  @Field(() => Boolean) enabled: boolean
  @Field(() => Int, { nullable: true, description: '1..10000; null = installation-wide default' }) failureThreshold: number | null
  @Field(() => Int, { nullable: true, description: '1..3600 seconds; null = installation-wide default' }) coolDownSeconds: number | null
}

@ObjectType('WebhookConnection', { description: 'Installation-wide webhook connection (system administrators only)' })
export class WebhookConnectionType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { description: 'name of the linked environment' }) environment: string
  @Field(() => String, { description: METHODS }) method: string
  @Field(() => String) fullUrl: string
  @Field(() => Int, { description: 'seconds' }) timeout: number
  @Field(() => [WebhookHeaderType]) headers: WebhookHeaderType[]
  @Field(() => Boolean) enabled: boolean
  @Field(() => Int, { nullable: true, description: 'null: falls back to timeout' }) connectTimeoutSeconds: number | null
  @Field(() => Int, { nullable: true, description: 'null: falls back to timeout' }) responseTimeoutSeconds: number | null
  @Field(() => Int, { nullable: true, description: 'null: falls back to timeout' }) connectionRequestTimeoutSeconds: number | null
  @Field(() => Int, { nullable: true, description: 'null: falls back to timeout' }) socketTimeoutSeconds: number | null
  @Field(() => Int) effectiveConnectTimeoutSeconds: number
  @Field(() => Int) effectiveResponseTimeoutSeconds: number
  @Field(() => Int) effectiveConnectionRequestTimeoutSeconds: number
  @Field(() => Int) effectiveSocketTimeoutSeconds: number
  @Field(() => Int, { description: '≤ 0 disables the write-stall guard' }) writeStallTimeoutSeconds: number
  @Field(() => Boolean) writeStallGuardEnabled: boolean
  @Field(() => Int) connectionsPerHost: number
  @Field(() => Int) totalPoolConnections: number
  @Field(() => Int, { description: 'max(totalPoolConnections, connectionsPerHost): what the runtime uses' }) effectiveTotalPoolConnections: number
  @Field(() => String, { nullable: true }) trustStoreName: string | null
  @Field(() => String, { nullable: true }) keyStoreName: string | null
  @Field(() => Boolean) serverNameVerification: boolean
  @Field(() => WebhookBatchingType) batching: WebhookBatchingType
  @Field(() => Boolean) gzip: boolean
  @Field(() => Int, { description: '0..2000' }) bufferFullWaitMs: number
  @Field(() => WebhookRetryType) retry: WebhookRetryType
  @Field(() => WebhookCollectorModeType) collectorMode: WebhookCollectorModeType
  @Field(() => WebhookCircuitBreakerType) circuitBreaker: WebhookCircuitBreakerType
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@ObjectType('WebhookConnectionPage')
export class WebhookConnectionPage extends PageOf(WebhookConnectionType, 'WebhookConnectionPage') {}

@ObjectType('WebhookTestResult')
export class WebhookTestResultType {
  @Field(() => Boolean, { description: 'true when a 2xx answer came' }) success: boolean
  @Field(() => Int, { nullable: true }) status: number | null
  @Field(() => Int) latencyMs: number
  @Field(() => String, { nullable: true }) error: string | null
}

@InputType('WebhookHeaderInput')
export class WebhookHeaderInputType {
  @Field(() => String) name: string
  @Field(() => String) value: string
}

@InputType('WebhookBatchingInput')
export class WebhookBatchingInputType {
  @Field(() => Boolean, { nullable: true, description: 'default false' }) enabled?: boolean
  @Field(() => Int, { nullable: true, description: 'default 100' }) maxEvents?: number
  @Field(() => Int, { nullable: true, description: 'default 1048576' }) maxBytes?: number
  @Field(() => Int, { nullable: true, description: 'default 200' }) maxDelayMs?: number
  @Field(() => Int, { nullable: true, description: 'default 33554432' }) bufferCapBytes?: number
}

@InputType('WebhookRetryInput')
export class WebhookRetryInputType {
  @Field(() => Int, { nullable: true, description: 'default 1' }) maxRetries?: number
  @Field(() => Int, { nullable: true, description: 'default 200' }) waitMs?: number
  @Field(() => Int, { nullable: true, description: 'default 5' }) maxRetryAfterSeconds?: number
  @Field(() => Boolean, { nullable: true, description: 'default false' }) retryNonIdempotent?: boolean
}

@InputType('WebhookCollectorModeInput')
export class WebhookCollectorModeInputType {
  @Field(() => Boolean, { nullable: true, description: 'default false' }) enabled?: boolean
  @Field(() => String, { nullable: true }) index?: string
  @Field(() => String, { nullable: true }) sourcetype?: string
  @Field(() => String, { nullable: true }) source?: string
  @Field(() => String, { nullable: true }) host?: string
  @Field(() => Boolean, { nullable: true, description: 'default false' }) acknowledgements?: boolean
  @Field(() => Int, { nullable: true, description: 'default 30' }) acknowledgementTimeoutSeconds?: number
  @Field(() => Int, { nullable: true, description: 'default 2' }) maxAcknowledgementResends?: number
}

@InputType('WebhookCircuitBreakerInput')
export class WebhookCircuitBreakerInputType {
  @Field(() => Boolean, { nullable: true, description: 'default false' }) enabled?: boolean
  @Field(() => Int, { nullable: true, description: '1..10000, default 5; explicit null = installation-wide default' }) failureThreshold?: number | null
  @Field(() => Int, { nullable: true, description: '1..3600, default 30; explicit null = installation-wide default' }) coolDownSeconds?: number | null
}

/** Create: name, environment, method and fullUrl are required (checked by the service so the error names the field). Update: absent or null keeps. */
@InputType('WebhookConnectionInput')
export class WebhookConnectionInputType {
  @Field(() => String, { nullable: true, description: "required on create; letters, digits, space, '-', '_', '.'; no leading space" }) name?: string
  @Field(() => String, { nullable: true, description: 'at most 1000 characters' }) description?: string
  @Field(() => String, { nullable: true, description: 'required on create; an existing environment name' }) environment?: string
  @Field(() => String, { nullable: true, description: `required on create; ${METHODS}` }) method?: string
  @Field(() => String, { nullable: true, description: 'required on create; http(s) URL' }) fullUrl?: string
  @Field(() => Int, { nullable: true, description: 'seconds, at least 1, default 2' }) timeout?: number
  @Field(() => [WebhookHeaderInputType], { nullable: true }) headers?: WebhookHeaderInputType[]
  @Field(() => Boolean, { nullable: true, description: 'default true' }) enabled?: boolean
  @Field(() => Int, { nullable: true }) connectTimeoutSeconds?: number
  @Field(() => Int, { nullable: true }) responseTimeoutSeconds?: number
  @Field(() => Int, { nullable: true }) connectionRequestTimeoutSeconds?: number
  @Field(() => Int, { nullable: true }) socketTimeoutSeconds?: number
  @Field(() => Int, { nullable: true, description: 'default 30; ≤ 0 disables' }) writeStallTimeoutSeconds?: number
  @Field(() => Int, { nullable: true, description: 'default 24' }) connectionsPerHost?: number
  @Field(() => Int, { nullable: true, description: 'default 48' }) totalPoolConnections?: number
  @Field(() => String, { nullable: true }) trustStoreName?: string
  @Field(() => String, { nullable: true }) keyStoreName?: string
  @Field(() => Boolean, { nullable: true, description: 'default false' }) serverNameVerification?: boolean
  @Field(() => WebhookBatchingInputType, { nullable: true }) batching?: WebhookBatchingInputType
  @Field(() => Boolean, { nullable: true, description: 'default false' }) gzip?: boolean
  @Field(() => Int, { nullable: true, description: '0..2000, default 100' }) bufferFullWaitMs?: number
  @Field(() => WebhookRetryInputType, { nullable: true }) retry?: WebhookRetryInputType
  @Field(() => WebhookCollectorModeInputType, { nullable: true }) collectorMode?: WebhookCollectorModeInputType
  @Field(() => WebhookCircuitBreakerInputType, { nullable: true }) circuitBreaker?: WebhookCircuitBreakerInputType
}

const plain = (input: WebhookConnectionInputType) => withoutNulls({ ...input }) as unknown as WebhookConnectionInput

@Resolver(() => WebhookConnectionType)
export class WebhookConnectionResolver {
  @Query(() => WebhookConnectionPage, { description: 'Webhook connections (system administrators only)' })
  async webhookConnections(@Ctx() ctx: GqlContext, @Args(() => PagingArgs) paging: PagingArgs) {
    return pageWebhookConnections(ctx.deps.prisma, requireViewer(ctx), paging)
  }

  @Query(() => WebhookConnectionType)
  async webhookConnection(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return getWebhookConnection(ctx.deps.prisma, requireViewer(ctx), name)
  }

  @Query(() => Boolean, { description: 'Whether a webhook connection with exactly this name exists (the check while typing)' })
  async webhookConnectionNameExists(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return webhookConnectionNameExists(ctx.deps.prisma, requireViewer(ctx), name)
  }

  @Mutation(() => WebhookConnectionType)
  async createWebhookConnection(@Ctx() ctx: GqlContext, @Arg('input', () => WebhookConnectionInputType) input: WebhookConnectionInputType) {
    return createWebhookConnection(ctx.deps.prisma, requireViewer(ctx), plain(input))
  }

  @Mutation(() => WebhookConnectionType, { description: 'Partial update: absent or null fields keep their value' })
  async updateWebhookConnection(
    @Ctx() ctx: GqlContext,
    @Arg('name', () => String) name: string,
    @Arg('input', () => WebhookConnectionInputType) input: WebhookConnectionInputType,
  ) {
    return updateWebhookConnection(ctx.deps.prisma, requireViewer(ctx), name, plain(input))
  }

  @Mutation(() => Boolean)
  async deleteWebhookConnection(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return deleteWebhookConnection(ctx.deps.prisma, requireViewer(ctx), name)
  }

  @Mutation(() => WebhookTestResultType, { description: 'Sends one request to fullUrl with the method, headers and connect/response timeouts' })
  @Extensions({ audit: false })
  async testWebhookConnection(@Ctx() ctx: GqlContext, @Arg('name', () => String) name: string) {
    return testWebhookConnection(ctx.deps, requireViewer(ctx), name)
  }
}
