import { Arg, Field, Int, ObjectType, Resolver, Root, Subscription } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { unauthenticated } from '../../platform/errors/domain-error.js'
import { AuditEventType } from '../audit/graphql.js'
import { getBulkRun } from '../limits/bulk/reads.js'
import { LimitBulkRunType, toRun } from '../limits/bulk/graphql.js'
import { subscribeAuditEvents, subscribeBulkRun, subscribeDeploymentOutcomes, type Subscriber } from './service.js'

@ObjectType('DeploymentOutcome', { description: 'What one environment answered to one push or outbox retry' })
export class DeploymentOutcomeType {
  @Field(() => String) projectName: string
  @Field(() => String) environmentName: string
  @Field(() => String, { description: 'kind of the pushed object (API_PROXY, CREDENTIAL, …)' }) kind: string
  @Field(() => String) name: string
  @Field(() => String, { description: 'DEPLOY, UNDEPLOY, …' }) action: string
  @Field(() => Int) revision: number
  @Field(() => Boolean, { description: 'false: the environment did not acknowledge; the outbox retries' }) acknowledged: boolean
  @Field(() => String, { description: 'ISO 8601 instant' }) at: string
}

/** Subscriptions run over graphql-ws only (same port, path /graphql); the token came in connectionParams. */
function subscriber(ctx: GqlContext): Subscriber {
  const actor = requireViewer(ctx)
  if (!ctx.token) throw unauthenticated('Subscriptions need a token in connectionParams')
  return { actor, token: ctx.token, surface: 'graphql' }
}


@Resolver()
export class EventSubscriptionResolver {
  @Subscription(() => AuditEventType, {
    description: 'Every audited write of the project (the platform project `admin`: also installation-level ones); needs PROJECT_MANAGEMENT VIEW',
    subscribe: ({ args, context }) => subscribeAuditEvents((context as GqlContext).deps, subscriber(context as GqlContext), args.projectName),
  })
  auditEvents(@Root() event: AuditEventType, @Arg('projectName', () => String) _projectName: string): AuditEventType {
    return event
  }

  @Subscription(() => LimitBulkRunType, {
    description: 'A bulk run as it is now, then after every change (phase, counters) until a terminal status',
    subscribe: ({ args, context }) => {
      const ctx = context as GqlContext
      return subscribeBulkRun(ctx.deps, subscriber(ctx), args.runId, async (actor, projectName) => toRun(await getBulkRun(ctx.deps.prisma, actor, projectName, args.runId)))
    },
  })
  limitBulkRunProgress(@Root() run: LimitBulkRunType, @Arg('runId', () => String) _runId: string): LimitBulkRunType {
    return run
  }

  @Subscription(() => DeploymentOutcomeType, {
    description: 'Per environment result of each push and outbox retry in the project',
    subscribe: ({ args, context }) => subscribeDeploymentOutcomes((context as GqlContext).deps, subscriber(context as GqlContext), args.projectName),
  })
  deploymentOutcomes(@Root() outcome: DeploymentOutcomeType, @Arg('projectName', () => String) _projectName: string): DeploymentOutcomeType {
    return outcome
  }
}
