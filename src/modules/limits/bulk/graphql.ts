import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, ArgsType, Ctx, Extensions, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { LimitBulkRun } from '../../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { projectLoader } from '../../../platform/graphql/loaders.js'
import { PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import { findPage, orderByFor, parsePaging } from '../../../platform/envelopes/paging.js'
import { assignmentInclude } from '../assignments/service.js'
import { LimitAssignmentPage, LimitContentInput, toAssignment } from '../assignments/graphql.js'
import { previewBulkAssignment } from './preview.js'
import { getBulkRun, listBulkRunIssues, pageBulkRuns } from './reads.js'
import { cancelBulkRun, createBulkRun, retryFailedBulkRun, rollbackBulkRun } from './runs.js'
import { runView, type RunView } from './views.js'

// The GraphQL door of bulk assignment (spec §4.9): the same services and errors as REST; a run's progress is
// queryable (limitBulkRun) and it relates to its issues, the assignments it created, and its source run.

@ObjectType('LimitBulkRun', { description: 'A bulk assignment run (spec §2.14); poll it for progress' })
export class LimitBulkRunType {
  @Field(() => String) runId: string
  @Field(() => String, { description: 'QUEUED, RUNNING, SUCCESS, PARTIAL, FAILED, CANCELLED, INTERRUPTED, LICENSE_REVOKED' }) runStatus: string
  @Field(() => String, { description: 'ASSIGN, ROLLBACK, RETRY' }) kind: string
  @Field(() => String, { description: 'PREPARE, APPLY, DEPLOY, FINALIZE' }) phase: string
  @Field(() => String, { description: 'ISO 8601; when the run was queued' }) startedAt: string
  @Field(() => String, { nullable: true }) runningAt: string | null
  @Field(() => String, { nullable: true }) heartbeatAt: string | null
  @Field(() => String, { nullable: true }) finishedAt: string | null
  @Field(() => Int, { nullable: true }) durationMs: number | null
  @Field(() => String, { description: 'MANUAL or APIOPS' }) trigger: string
  @Field(() => String) triggeredBy: string
  @Field(() => JSONResolver, { nullable: true }) selector: unknown
  @Field(() => JSONResolver, { nullable: true }) content: unknown
  @Field(() => Int) includedSubjectCount: number
  @Field(() => Int) excludedSubjectCount: number
  @Field(() => String, { nullable: true }) selectorFingerprint: string | null
  @Field(() => String) conflictPolicy: string
  @Field(() => Int, { nullable: true }) expectedCount: number | null
  @Field(() => Int) actualCount: number
  @Field(() => Int) processedCount: number
  @Field(() => Int) createdCount: number
  @Field(() => Int) replacedCount: number
  @Field(() => Int) skippedCount: number
  @Field(() => Int) failedCount: number
  @Field(() => Int) licenseSkippedCount: number
  @Field(() => Int, { description: 'ROLLBACK: assignments ended' }) endedCount: number
  @Field(() => Int, { description: 'ROLLBACK: replaced assignments reopened as new rows' }) restoredCount: number
  @Field(() => Int, { description: 'kept issues (at most 1000)' }) issueCount: number
  @Field(() => Boolean) issuesTruncated: boolean
  @Field(() => Boolean) cancelRequested: boolean
  @Field(() => String, { nullable: true }) rollbackOfRunId: string | null
  @Field(() => String, { nullable: true }) retryOfRunId: string | null
  @Field(() => String, { nullable: true }) idempotencyKey: string | null
  @Field(() => String, { nullable: true, description: 'IN_SYNC, DEGRADED, PENDING' }) deploymentState: string | null
  @Field(() => String, { nullable: true }) messageKey: string | null
  @Field(() => JSONResolver, { nullable: true }) messageParams: unknown
  projectId: string
}

@ObjectType('LimitBulkRunPage')
export class LimitBulkRunPage extends PageOf(LimitBulkRunType, 'LimitBulkRunPage') {}

@ObjectType('LimitBulkRunIssue', { description: 'A kept issue of a run: FAILED and SKIPPED_* only' })
export class LimitBulkRunIssueType {
  @Field(() => Int) seq: number
  @Field(() => String) subjectType: string
  @Field(() => String) subjectName: string
  @Field(() => String, { description: 'FAILED, SKIPPED_EXISTING, SKIPPED_LICENSE' }) outcome: string
  @Field(() => String, { nullable: true }) bindingKey: string | null
  @Field(() => String, { nullable: true }) messageKey: string | null
  @Field(() => JSONResolver, { nullable: true }) messageParams: unknown
  @Field(() => String) occurredAt: string
}

@ObjectType('LimitBulkRunIssuePage')
export class LimitBulkRunIssuePage extends PageOf(LimitBulkRunIssueType, 'LimitBulkRunIssuePage') {}

@ObjectType('LimitBulkPreviewSample')
export class LimitBulkPreviewSampleType {
  @Field(() => String) subjectName: string
  @Field(() => String, { description: 'CREATED, REPLACED, SKIPPED_EXISTING, SKIPPED_LICENSE' }) outcome: string
  @Field(() => String, { nullable: true }) existingBindingKey?: string
}

@ObjectType('LimitBulkPreview', { description: 'What a run with this body would do now (spec §2.14)' })
export class LimitBulkPreviewType {
  @Field(() => String) selectorFingerprint: string
  @Field(() => Int) expectedCount: number
  @Field(() => Int) willCreate: number
  @Field(() => Int) willSkip: number
  @Field(() => Int) willReplace: number
  @Field(() => Int) licenseBlocked: number
  @Field(() => Int) includedSubjectCount: number
  @Field(() => Int) excludedSubjectCount: number
  @Field(() => Boolean, { description: 'true above 5000 subjects' }) estimated: boolean
  @Field(() => [LimitBulkPreviewSampleType]) sample: LimitBulkPreviewSampleType[]
}

@InputType('LimitBulkSelectorInput')
export class LimitBulkSelectorInput {
  @Field(() => String, { description: 'CONSUMER, API_CLIENT, APPLICATION, ORGANIZATION' }) subjectType: string
  @Field(() => [String], { nullable: true }) organizationCodes?: string[]
  @Field(() => Boolean, { nullable: true }) includeSubOrganizations?: boolean
  @Field(() => String, { nullable: true }) search?: string
  @Field(() => Boolean, { nullable: true }) enabledOnly?: boolean
  @Field(() => String, { nullable: true, description: 'ANY (default), NONE, EXISTS' }) existingAssignment?: string
  @Field(() => [String], { nullable: true, description: 'at most 5000' }) subjectKeys?: string[]
  @Field(() => [String], { nullable: true, description: 'at most 5000' }) excludeSubjectKeys?: string[]
}

@InputType('LimitBulkInput', { description: 'The body of spec §2.14; previewFingerprint (required) and expectedCount for runs only' })
export class LimitBulkInput {
  @Field(() => LimitBulkSelectorInput) selector: LimitBulkSelectorInput
  @Field(() => LimitContentInput) content: LimitContentInput
  @Field(() => String, { nullable: true, description: 'KEEP_EXISTING (default) or REPLACE' }) conflictPolicy?: string
  @Field(() => String, { nullable: true }) previewFingerprint?: string
  @Field(() => Int, { nullable: true }) expectedCount?: number
}

@ArgsType()
class RunArgs {
  @Field(() => String) projectName: string
  @Field(() => String) runId: string
}

/** GraphQL nulls are "absent"; JSON-typed members (the custom rule spec) are taken as sent. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain)
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, plain(v)]))
  return value
}
function bodyOf(input: LimitBulkInput) {
  const body = plain({ ...input, content: { ...input.content, customRuleSpec: undefined } }) as Record<string, any>
  if (input.content.customRuleSpec !== undefined && input.content.customRuleSpec !== null) body.content.customRuleSpec = input.content.customRuleSpec
  return body
}

export const toRun = (run: LimitBulkRun) => Object.assign(new LimitBulkRunType(), runView(run) as RunView, { projectId: run.projectId })

const runByPublicIdLoader = (ctx: GqlContext) =>
  ctx.loaders.get<string, LimitBulkRun | null>('limitBulkRunByRunId', async (runIds) => {
    const rows = await ctx.deps.prisma.limitBulkRun.findMany({ where: { runId: { in: [...runIds] } } })
    return runIds.map((id) => rows.find((r) => r.runId === id) ?? null)
  })
const projectOfRunLoader = (ctx: GqlContext) => projectLoader(ctx)

const trigger = 'MANUAL' as const

@Resolver(() => LimitBulkRunType)
export class LimitBulkRunResolver {
  @Query(() => LimitBulkRunPage, { description: 'Bulk runs of a project; sort startedAt (default desc), status, kind' })
  async limitBulkRuns(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => PagingArgs) paging: PagingArgs) {
    const page = await pageBulkRuns(ctx.deps.prisma, requireViewer(ctx), projectName, paging)
    return { ...page, items: page.items.map(toRun) }
  }

  @Query(() => LimitBulkRunType, { description: 'One run with its progress' })
  async limitBulkRun(@Ctx() ctx: GqlContext, @Args(() => RunArgs) args: RunArgs) {
    return toRun(await getBulkRun(ctx.deps.prisma, requireViewer(ctx), args.projectName, args.runId))
  }

  @Query(() => LimitBulkRunIssuePage, { description: 'Kept issues of a run; sort seq (default asc), outcome, occurredAt' })
  async limitBulkRunIssues(@Ctx() ctx: GqlContext, @Args(() => RunArgs) args: RunArgs, @Args(() => PagingArgs) paging: PagingArgs) {
    return listBulkRunIssues(ctx.deps.prisma, requireViewer(ctx), args.projectName, args.runId, paging)
  }

  @Mutation(() => LimitBulkPreviewType, { description: 'Preview of a bulk assignment; writes nothing' })
  @Extensions({ audit: false })
  async previewLimitBulkAssignment(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => LimitBulkInput) input: LimitBulkInput) {
    return previewBulkAssignment(ctx.deps.prisma, requireViewer(ctx), projectName, bodyOf(input))
  }

  @Mutation(() => LimitBulkRunType, { description: 'Queues a bulk ASSIGN run (the receipt fields are the run\'s)' })
  async startLimitBulkRun(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('input', () => LimitBulkInput) input: LimitBulkInput,
    @Arg('idempotencyKey', () => String) idempotencyKey: string,
  ) {
    return toRun(await createBulkRun(ctx.deps.prisma, requireViewer(ctx), projectName, bodyOf(input), { idempotencyKey, trigger }))
  }

  @Mutation(() => LimitBulkRunType, { description: 'Cancels a queued run, or a running one at its next chunk boundary' })
  async cancelLimitBulkRun(@Ctx() ctx: GqlContext, @Args(() => RunArgs) args: RunArgs) {
    return toRun(await cancelBulkRun(ctx.deps.prisma, requireViewer(ctx), args.projectName, args.runId))
  }

  @Mutation(() => LimitBulkRunType, { description: 'Queues a ROLLBACK run of a finished ASSIGN or RETRY run' })
  async rollbackLimitBulkRun(@Ctx() ctx: GqlContext, @Args(() => RunArgs) args: RunArgs, @Arg('idempotencyKey', () => String) idempotencyKey: string) {
    return toRun(await rollbackBulkRun(ctx.deps.prisma, requireViewer(ctx), args.projectName, args.runId, { idempotencyKey, trigger }))
  }

  @Mutation(() => LimitBulkRunType, { description: 'Queues a RETRY run over the failed subjects of a finished run' })
  async retryFailedLimitBulkRun(@Ctx() ctx: GqlContext, @Args(() => RunArgs) args: RunArgs, @Arg('idempotencyKey', () => String) idempotencyKey: string) {
    return toRun(await retryFailedBulkRun(ctx.deps.prisma, requireViewer(ctx), args.projectName, args.runId, { idempotencyKey, trigger }))
  }

  @FieldResolver(() => String, { description: 'the project the run belongs to' })
  async projectName(@Root() run: LimitBulkRunType, @Ctx() ctx: GqlContext) {
    return (await projectOfRunLoader(ctx).load(run.projectId))?.name ?? ''
  }

  @FieldResolver(() => LimitBulkRunType, { nullable: true, description: 'the run this ROLLBACK undoes' })
  async rollbackOf(@Root() run: LimitBulkRunType, @Ctx() ctx: GqlContext) {
    const source = run.rollbackOfRunId ? await runByPublicIdLoader(ctx).load(run.rollbackOfRunId) : null
    return source ? toRun(source) : null
  }

  @FieldResolver(() => LimitBulkRunType, { nullable: true, description: 'the run whose failed subjects this RETRY retries' })
  async retryOf(@Root() run: LimitBulkRunType, @Ctx() ctx: GqlContext) {
    const source = run.retryOfRunId ? await runByPublicIdLoader(ctx).load(run.retryOfRunId) : null
    return source ? toRun(source) : null
  }

  @FieldResolver(() => LimitBulkRunIssuePage, { description: 'the run\'s kept issues, paged (seq order by default)' })
  async issues(@Root() run: LimitBulkRunType, @Ctx() ctx: GqlContext, @Args(() => PagingArgs) paging: PagingArgs) {
    const project = await projectOfRunLoader(ctx).load(run.projectId)
    return listBulkRunIssues(ctx.deps.prisma, requireViewer(ctx), project?.name ?? '', run.runId, paging)
  }

  @FieldResolver(() => LimitAssignmentPage, { description: 'the assignments this run created (source BULK, bulkRunId = runId), newest first' })
  async assignments(@Root() run: LimitBulkRunType, @Ctx() ctx: GqlContext, @Args(() => PagingArgs) paging: PagingArgs) {
    const page = parsePaging(paging, { defaultSort: 'assignedAt,desc', supported: ['assignedAt', 'status'] })
    const where = { bulkRunId: run.runId, projectId: run.projectId }
    const result = await findPage(
      page,
      ctx.deps.prisma.limitAssignment.findMany({ where, include: assignmentInclude, orderBy: orderByFor(page, 'bindingKey'), skip: page.skip, take: page.take }),
      ctx.deps.prisma.limitAssignment.count({ where }),
    )
    return { ...result, items: result.items.map(toAssignment) }
  }
}
