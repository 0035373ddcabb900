import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Extensions, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { applyPlan } from './apply.js'
import { declarativeDrift } from './drift.js'
import { dumpState } from './dump.js'
import { createPlan } from './plan.js'
import { validateDocument } from './validate.js'

// The GraphQL twins of the declarative routes (docs/declarative.md): the same service calls, the same answers.

@ObjectType('DeclarativeSummary')
class DeclarativeSummaryType {
  @Field(() => Int) create: number
  @Field(() => Int) update: number
  @Field(() => Int) delete: number
}

@ObjectType('DeclarativeChange')
class DeclarativeChangeType {
  @Field(() => String, { description: 'create, update or delete' }) action: string
  @Field(() => String, { description: 'the collection name' }) type: string
  @Field(() => String, { description: 'the natural key' }) name: string
  @Field(() => String, { nullable: true }) renamedFrom?: string
  @Field(() => [String]) fields: string[]
  @Field(() => JSONResolver, { description: '[{ field, before, after, sensitive }]: a secret field only says it changed' }) details: unknown
  @Field(() => Boolean, { nullable: true }) sensitive?: boolean
}

@ObjectType('DeclarativePlan')
class DeclarativePlanType {
  @Field(() => Int) formatVersion: number
  @Field(() => String) id: string
  @Field(() => String) project: string
  @Field(() => String, { nullable: true }) namespace: string | null
  @Field(() => String) mode: string
  @Field(() => String) baseRevision: string
  @Field(() => [String]) collections: string[]
  @Field(() => [DeclarativeChangeType]) changes: DeclarativeChangeType[]
  @Field(() => DeclarativeSummaryType) summary: DeclarativeSummaryType
}

@ObjectType('DeclarativePush')
class DeclarativePushType {
  @Field(() => String) type: string
  @Field(() => String) name: string
  @Field(() => Boolean) success: boolean
  @Field(() => String, { nullable: true }) message?: string
}

@ObjectType('DeclarativeApplyResult')
class DeclarativeApplyResultType {
  @Field(() => Int) formatVersion: number
  @Field(() => String) planId: string
  @Field(() => String) project: string
  @Field(() => String, { nullable: true }) namespace: string | null
  @Field(() => String) mode: string
  @Field(() => Boolean) applied: boolean
  @Field(() => String, { nullable: true }) changeReference: string | null
  @Field(() => DeclarativeSummaryType) summary: DeclarativeSummaryType
  @Field(() => [DeclarativePushType]) pushes: DeclarativePushType[]
  @Field(() => Boolean) pushFailed: boolean
  @Field(() => [String]) advisories: string[]
}

@ObjectType('DeclarativeDriftEntry')
class DeclarativeDriftEntryType {
  @Field(() => String) type: string
  @Field(() => String) name: string
  @Field(() => String, { description: 'changed or deleted' }) status: string
  @Field(() => [String]) fields: string[]
  @Field(() => String, { nullable: true }) changedBy: string | null
  @Field(() => String, { nullable: true }) changedAt: string | null
  @Field(() => String, { nullable: true }) operation: string | null
}

@ObjectType('DeclarativeDriftSummary')
class DeclarativeDriftSummaryType {
  @Field(() => Int) changed: number
  @Field(() => Int) deleted: number
}

@ObjectType('DeclarativeDrift')
class DeclarativeDriftType {
  @Field(() => Int) formatVersion: number
  @Field(() => String) project: string
  @Field(() => String, { nullable: true }) namespace: string | null
  @Field(() => String, { nullable: true }) planId: string | null
  @Field(() => String, { nullable: true }) appliedAt: string | null
  @Field(() => String, { nullable: true }) appliedBy: string | null
  @Field(() => [DeclarativeDriftEntryType]) drift: DeclarativeDriftEntryType[]
  @Field(() => DeclarativeDriftSummaryType) summary: DeclarativeDriftSummaryType
}

@ObjectType('DeclarativeValidation')
class DeclarativeValidationType {
  @Field(() => Int) formatVersion: number
  @Field(() => Boolean) valid: boolean
  @Field(() => DeclarativeSummaryType) summary: DeclarativeSummaryType
  @Field(() => JSONResolver, { description: '[{ type, name, path, reason, message }]' }) errors: unknown
}

@Resolver()
export class DeclarativeResolver {
  @Query(() => JSONResolver, { description: 'The project as a declarative state document (secrets left out, or ${env:NAME} references with secrets: "refs")' })
  async declarativeState(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('secrets', () => String, { nullable: true, description: 'none (default) or refs' }) secrets: string | null,
    @Arg('namespace', () => String, { nullable: true }) namespace: string | null,
  ) {
    return dumpState(ctx.deps, requireViewer(ctx), projectName, { ...(secrets ? { secrets } : {}), ...(namespace ? { namespace } : {}) })
  }

  @Mutation(() => DeclarativePlanType, { description: 'Plans a state document against the project (REST POST …/declarative-plans). Writes no audit event' })
  @Extensions({ audit: false })
  async createDeclarativePlan(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('document', () => JSONResolver) document: unknown,
    @Arg('mode', () => String, { nullable: true, description: 'apply (default) or sync' }) mode: string | null,
  ) {
    return createPlan(ctx.deps, requireViewer(ctx), projectName, { document, ...(mode ? { mode } : {}) })
  }

  @Mutation(() => DeclarativeApplyResultType, { description: 'Applies a plan in one transaction, or nothing (REST POST …/declarative-plans/{id}/apply)' })
  @Extensions({ audit: false })
  async applyDeclarativePlan(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('planId', () => String) planId: string,
    @Arg('changeReference', () => String, { nullable: true }) changeReference: string | null,
    @Arg('idempotencyKey', () => String, { nullable: true }) idempotencyKey: string | null,
  ) {
    return applyPlan(ctx.deps, requireViewer(ctx), projectName, planId, { changeReference: changeReference ?? undefined, idempotencyKey: idempotencyKey ?? undefined, surface: 'GRAPHQL', operation: 'applyDeclarativePlan', correlationId: ctx.correlationId })
  }

  @Mutation(() => DeclarativeValidationType, { description: 'Validates a state document as an apply would, writing nothing' })
  @Extensions({ audit: false })
  async validateDeclarativeDocument(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('document', () => JSONResolver) document: unknown,
    @Arg('mode', () => String, { nullable: true }) mode: string | null,
  ) {
    return validateDocument(ctx.deps, requireViewer(ctx), projectName, { document, ...(mode ? { mode } : {}) })
  }

  @Query(() => DeclarativeDriftType, { description: 'Objects changed or deleted outside the file since the last apply' })
  async declarativeDrift(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('namespace', () => String, { nullable: true }) namespace: string | null,
  ) {
    return declarativeDrift(ctx.deps, requireViewer(ctx), projectName, namespace ? { namespace } : {})
  }
}
