import { Args, ArgsType, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { PageOf, PagingArgs } from '../../platform/graphql/types.js'
import { pageAuditEvents } from './service.js'

@ObjectType('AuditEvent', { description: 'One successful write: who, when, where, what, with which outcome. Never a request body.' })
export class AuditEventType {
  @Field(() => String) id: string
  @Field(() => String, { description: 'ISO 8601 instant' }) at: string
  @Field(() => String, { description: 'REST_APIOPS, REST_API, GRAPHQL or BOOTSTRAP' }) surface: string
  @Field(() => String, { description: 'username, `bootstrap` or `system`' }) actor: string
  @Field(() => String, { nullable: true }) projectName: string | null
  @Field(() => String, { description: 'REST: METHOD /path/template; GraphQL: the mutation; bootstrap: bootstrap.create' }) operation: string
  @Field(() => String, { nullable: true }) objectType: string | null
  @Field(() => String, { nullable: true }) objectName: string | null
  @Field(() => String, { description: 'SUCCEEDED, ACCEPTED (finishing in the background) or DEPLOY_FAILED (saved, push failed)' }) outcome: string
  @Field(() => Int, { nullable: true }) httpStatus: number | null
  @Field(() => String) correlationId: string
  @Field(() => String, { nullable: true, description: 'a declarative apply\'s change: the plan applied' }) declarativePlanId?: string | null
  @Field(() => String, { nullable: true, description: 'a declarative apply\'s change: create, update or delete' }) declarativeAction?: string | null
  @Field(() => String, { nullable: true, description: 'a declarative apply\'s change: its X-Change-Reference (e.g. a commit SHA)' }) changeReference?: string | null
}

@ObjectType()
export class AuditEventPage extends PageOf(AuditEventType, 'AuditEventPage') {}

@ArgsType()
export class AuditEventFilterArgs extends PagingArgs {
  @Field(() => String, { nullable: true }) projectName?: string
  @Field(() => String, { nullable: true, description: 'exact username, `bootstrap` or `system`' }) user?: string
  @Field(() => String, { nullable: true }) objectType?: string
  @Field(() => String, { nullable: true }) objectName?: string
  @Field(() => String, { nullable: true }) operation?: string
  @Field(() => String, { nullable: true, description: 'REST_APIOPS, REST_API, GRAPHQL or BOOTSTRAP' }) surface?: string
  @Field(() => String, { nullable: true, description: 'inclusive lower bound, ISO 8601' }) from?: string
  @Field(() => String, { nullable: true, description: 'exclusive upper bound, ISO 8601' }) to?: string
}

@Resolver()
export class AuditEventResolver {
  @Query(() => AuditEventPage, { description: 'The installation\'s audit trail, newest first (system administrators)' })
  async auditEvents(@Ctx() ctx: GqlContext, @Args(() => AuditEventFilterArgs) args: AuditEventFilterArgs) {
    return pageAuditEvents(ctx.deps.prisma, requireViewer(ctx), withoutNulls({ ...args }))
  }
}
