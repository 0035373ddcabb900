import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, ArgsType, Ctx, Extensions, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { withoutNulls } from '../../../platform/graphql/inputs.js'
import { hasManyLoader, withToOne, type ToOne } from '../../../platform/graphql/loaders.js'
import { PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import { LimitPlanType, toPlan } from '../plans/graphql.js'
import {
  activateAssignment, createAssignment, endAssignment, getAssignment, listAssignments, updateAssignment, validateAssignment,
} from './operations.js'
import { assignmentsCoveringApiProxy } from './manager.js'
import { assignmentView, type AssignmentRow } from './views.js'

// The GraphQL door of limit assignments (spec §2.13, §4.8): the same operations and errors as REST, plus the
// relations assignment → plans and consumer/application → limitAssignments through DataLoaders.

@ObjectType('LimitSubject')
export class LimitSubjectType {
  @Field(() => String, { description: 'PLATFORM, PROJECT, ORGANIZATION, CONSUMER, APPLICATION, API_CLIENT, API_PROXY, AUDIENCE_RULE' }) type: string
  @Field(() => String, { nullable: true, description: 'username, clientId, application name, organization code or API proxy name; null for PLATFORM, PROJECT, AUDIENCE_RULE' }) key?: string
}

@ObjectType('LimitTarget')
export class LimitTargetType {
  @Field(() => String) type: string
  @Field(() => String, { nullable: true }) apiProxyName?: string
  @Field(() => String, { nullable: true }) apiProxyGroupName?: string
  @Field(() => String, { nullable: true }) environmentName?: string
  @Field(() => String, { nullable: true }) targetKey?: string
  @Field(() => [String], { nullable: true, description: 'API_PROXY and API_PROXY_ENV only; empty means every method' }) httpMethods?: string[]
}

@ObjectType('LimitAssignment', { description: 'A limit assignment (spec §2.13)' })
export class LimitAssignmentType {
  @Field(() => String) bindingKey: string
  @Field(() => LimitSubjectType) subject: LimitSubjectType
  @Field(() => String) family: string
  @Field(() => String) actorScope: string
  @Field(() => LimitTargetType) target: LimitTargetType
  @Field(() => String, { description: 'PLAN, CUSTOM, INHERIT, OFF' }) mode: string
  @Field(() => [String]) planKeys: string[]
  @Field(() => JSONResolver, { nullable: true }) customRuleSpec: unknown
  @Field(() => JSONResolver, { nullable: true }) audienceRule: unknown
  @Field(() => String, { nullable: true }) cacheErrorHandlingType: string | null
  @Field(() => Int, { nullable: true }) cacheConnectionTimeoutInSeconds: number | null
  @Field(() => Boolean, { nullable: true }) showRateLimitStatisticsInResponseHeader: boolean | null
  @Field(() => String, { nullable: true }) customMessageTemplate: string | null
  @Field(() => String, { nullable: true }) customMessageContentType: string | null
  @Field(() => Int, { nullable: true }) customMessageHttpStatusCode: number | null
  @Field(() => String, { description: 'MANUAL, CREATION_DEFAULT, BULK, MIGRATION, IMPORT, PORTAL_SUBSCRIPTION' }) source: string
  @Field(() => String, { description: 'DRAFT, ACTIVE, ENDED' }) status: string
  @Field(() => String, { nullable: true }) validFrom: string | null
  @Field(() => String, { nullable: true }) validUntil: string | null
  @Field(() => String) assignedAt: string
  @Field(() => String) assignedBy: string
  @Field(() => String, { nullable: true }) endedAt: string | null
  @Field(() => String, { nullable: true }) endedBy: string | null
  @Field(() => String, { nullable: true }) endedReason?: string | null
  @Field(() => Boolean) operatorOverride: boolean
  @Field(() => Int) version: number
  @Field(() => String, { nullable: true }) bulkRunId?: string
  @Field(() => String, { nullable: true }) replacedBindingKey?: string
  id: string
  /** `id:<projectId>`: its plans' assignments relation stays inside the assignment's project */
  viewProject: string
}

@ObjectType('LimitAssignmentPage')
export class LimitAssignmentPage extends PageOf(LimitAssignmentType, 'LimitAssignmentPage') {}

@ArgsType()
export class LimitAssignmentListArgs extends PagingArgs {
  @Field(() => String, { nullable: true }) family?: string
  @Field(() => String, { nullable: true }) status?: string
  @Field(() => String, { nullable: true }) subjectType?: string
  @Field(() => String, { nullable: true, description: 'requires subjectType' }) subjectKey?: string
}

@InputType('LimitSubjectInput')
export class LimitSubjectInput {
  @Field(() => String) type: string
  @Field(() => String, { nullable: true }) key?: string
}

@InputType('LimitTargetInput')
export class LimitTargetInput {
  @Field(() => String, { nullable: true, description: 'default ALL' }) type?: string
  @Field(() => String, { nullable: true }) apiProxyName?: string
  @Field(() => String, { nullable: true }) apiProxyGroupName?: string
  @Field(() => String, { nullable: true }) environmentName?: string
  @Field(() => String, { nullable: true }) targetKey?: string
  @Field(() => [String], { nullable: true }) httpMethods?: string[]
}

@InputType('LimitContentInput')
export class LimitContentInput {
  @Field(() => String, { nullable: true, description: 'required' }) family?: string
  @Field(() => String, { nullable: true, description: 'default ANY' }) actorScope?: string
  @Field(() => LimitTargetInput, { nullable: true }) target?: LimitTargetInput
  @Field(() => String, { nullable: true, description: 'default PLAN when planKeys is set' }) mode?: string
  @Field(() => [String], { nullable: true }) planKeys?: string[]
  @Field(() => JSONResolver, { nullable: true, description: 'required with mode CUSTOM' }) customRuleSpec?: unknown
  @Field(() => String, { nullable: true }) cacheErrorHandlingType?: string
  @Field(() => Int, { nullable: true }) cacheConnectionTimeoutInSeconds?: number
  @Field(() => Boolean, { nullable: true }) showRateLimitStatisticsInResponseHeader?: boolean
  @Field(() => String, { nullable: true }) customMessageTemplate?: string
  @Field(() => String, { nullable: true }) customMessageContentType?: string
  @Field(() => Int, { nullable: true }) customMessageHttpStatusCode?: number
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) validFrom?: string
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) validUntil?: string
}

@InputType('LimitAssignmentInput', { description: 'The body of spec §2.13 (status on create only, version on update only)' })
export class LimitAssignmentInput {
  @Field(() => LimitSubjectInput, { nullable: true }) subject?: LimitSubjectInput
  @Field(() => LimitContentInput, { nullable: true }) content?: LimitContentInput
  @Field(() => JSONResolver, { nullable: true, description: 'required when subject.type is AUDIENCE_RULE, forbidden otherwise' }) audienceRule?: unknown
  @Field(() => String, { nullable: true, description: 'create: DRAFT (default) or ACTIVE' }) status?: string
  @Field(() => Int, { nullable: true, description: 'update: must equal the stored version' }) version?: number
}

/** Deeply drops nulls (GraphQL's "absent") so that the REST body rules apply unchanged. */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain)
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => [k, plain(v)]))
  }
  return value
}
/** JSON-typed members (rule specs, audience rules) are taken as sent. */
const body = (input: LimitAssignmentInput) => {
  const b = plain({ ...input, audienceRule: undefined, content: input.content ? { ...input.content, customRuleSpec: undefined } : undefined }) as Record<string, any>
  if (input.audienceRule !== undefined && input.audienceRule !== null) b.audienceRule = input.audienceRule
  if (input.content?.customRuleSpec !== undefined && input.content.customRuleSpec !== null) b.content.customRuleSpec = input.content.customRuleSpec
  return b
}

export const toAssignment = (row: AssignmentRow) =>
  Object.assign(new LimitAssignmentType(), assignmentView(row), { id: row.id, viewProject: `id:${row.projectId}` })

const plansOfAssignmentLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'limitPlansByAssignment', (db, ids) => db.limitAssignmentPlan.findMany({ where: { assignmentId: { in: ids } }, include: { plan: true }, orderBy: { position: 'asc' } }), (l) => l.assignmentId)
const newestFirst = [{ assignedAt: 'desc' as const }, { bindingKey: 'asc' as const }]
// The subject relations of views.ts's assignmentInclude, each read only for the keys the rows have (an assignment
// has one subject: an include would read the four others with WHERE id IN (NULL)).
const subjectRelations = {
  credential: { key: 'credentialId', find: (db, ids) => db.credential.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } }) } satisfies ToOne<{ id: string; username: string }>,
  application: { key: 'applicationId', find: (db, ids) => db.application.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) } satisfies ToOne<{ id: string; name: string }>,
  apiClient: { key: 'apiClientId', find: (db, ids) => db.apiClient.findMany({ where: { id: { in: ids } }, select: { id: true, clientId: true } }) } satisfies ToOne<{ id: string; clientId: string }>,
  organization: { key: 'organizationId', find: (db, ids) => db.organization.findMany({ where: { id: { in: ids } }, select: { id: true, code: true } }) } satisfies ToOne<{ id: string; code: string }>,
  apiProxy: { key: 'apiProxyId', find: (db, ids) => db.apiProxy.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) } satisfies ToOne<{ id: string; name: string }>,
}
export const assignmentsOfConsumerLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'limitAssignmentsByCredential', async (db, ids) => withToOne(db, await db.limitAssignment.findMany({ where: { subjectType: 'CONSUMER', credentialId: { in: ids } }, orderBy: newestFirst }), subjectRelations), (a) => a.credentialId)
export const assignmentsOfApplicationLoader = (ctx: GqlContext) =>
  hasManyLoader(ctx, 'limitAssignmentsByApplication', async (db, ids) => withToOne(db, await db.limitAssignment.findMany({ where: { subjectType: 'APPLICATION', applicationId: { in: ids } }, orderBy: newestFirst }), subjectRelations), (a) => a.applicationId)

@Resolver(() => LimitAssignmentType)
export class LimitAssignmentResolver {
  @Query(() => [LimitAssignmentType], { description: 'Live (DRAFT or ACTIVE) assignments that reach an API proxy: as subject, target ALL, the proxy or one of its groups (GET /api/limit-bindings/covering-api-proxy)' })
  async limitAssignmentsCoveringApiProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('apiProxyName', () => String) apiProxyName: string) {
    return (await assignmentsCoveringApiProxy(ctx.deps.prisma, requireViewer(ctx), projectName, apiProxyName)).map(toAssignment)
  }

  @Query(() => LimitAssignmentPage, { description: 'Assignments of a project; sort assignedAt (default desc), status, family' })
  async limitAssignments(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => LimitAssignmentListArgs) args: LimitAssignmentListArgs) {
    const page = await listAssignments(ctx.deps.prisma, requireViewer(ctx), projectName, withoutNulls(args))
    return { ...page, items: page.items.map(toAssignment) }
  }

  @Query(() => LimitAssignmentType)
  async limitAssignment(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('bindingKey', () => String) bindingKey: string) {
    return toAssignment(await getAssignment(ctx.deps.prisma, requireViewer(ctx), projectName, bindingKey))
  }

  @Mutation(() => LimitAssignmentType, { description: 'Create an assignment; idempotencyKey as the Idempotency-Key header' })
  async createLimitAssignment(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('idempotencyKey', () => String) idempotencyKey: string,
    @Arg('input', () => LimitAssignmentInput) input: LimitAssignmentInput,
  ) {
    return toAssignment(await createAssignment(ctx.deps, requireViewer(ctx), projectName, { idempotencyKey, body: body(input) }))
  }

  @Mutation(() => LimitAssignmentType, { description: 'Replace the editable content' })
  async updateLimitAssignment(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('bindingKey', () => String) bindingKey: string,
    @Arg('input', () => LimitAssignmentInput) input: LimitAssignmentInput,
  ) {
    return toAssignment(await updateAssignment(ctx.deps, requireViewer(ctx), projectName, bindingKey, body(input)))
  }

  @Mutation(() => LimitAssignmentType, { description: 'DRAFT → ACTIVE, pushed to the environments' })
  async activateLimitAssignment(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('bindingKey', () => String) bindingKey: string,
    @Arg('version', () => Int, { nullable: true }) version: number | null,
  ) {
    return toAssignment(await activateAssignment(ctx.deps, requireViewer(ctx), projectName, bindingKey, version === null ? {} : { version }))
  }

  @Mutation(() => LimitAssignmentType, { description: 'ACTIVE → ENDED with the reason recorded, undeployed' })
  async endLimitAssignment(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('bindingKey', () => String) bindingKey: string,
    @Arg('version', () => Int, { nullable: true }) version: number | null,
    @Arg('reason', () => String, { nullable: true }) reason: string | null,
  ) {
    return toAssignment(await endAssignment(ctx.deps, requireViewer(ctx), projectName, bindingKey, withoutNulls({ version, reason })))
  }

  @Extensions({ audit: false })
  @Mutation(() => Boolean, { description: 'The checks of create without writing: true when acceptable, else the create error' })
  async validateLimitAssignment(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => LimitAssignmentInput) input: LimitAssignmentInput) {
    await validateAssignment(ctx.deps.prisma, requireViewer(ctx), projectName, body(input))
    return true
  }

  @FieldResolver(() => [LimitPlanType], { description: 'the plans named by planKeys, in order' })
  async plans(@Root() assignment: LimitAssignmentType, @Ctx() ctx: GqlContext) {
    return (await plansOfAssignmentLoader(ctx).load(assignment.id)).map((l) => toPlan(l.plan, assignment.viewProject))
  }
}


const assignmentsOfPlanLoader = (ctx: GqlContext) =>
  ctx.loaders.get<string, AssignmentRow[]>('limitAssignmentsByPlanInProject', async (keys) => {
    const wanted = keys.map((k) => { const [planId, project] = k.split('|'); return { planId, project } })
    const rows = await withToOne(ctx.deps.prisma, await ctx.deps.prisma.limitAssignment.findMany({
      where: { plans: { some: { planId: { in: [...new Set(wanted.map((w) => w.planId))] } } } },
      include: { project: { select: { name: true } }, plans: { select: { planId: true } } },
      orderBy: newestFirst,
    }), subjectRelations)
    const visible = (r: (typeof rows)[number], view: string) =>
      view === 'admin' || view === `id:${r.projectId}` || view === r.project.name
    return wanted.map((w) => rows.filter((r) => r.plans.some((p) => p.planId === w.planId) && visible(r, w.project)))
  })

/** LimitPlan.assignments: the assignments referencing the plan, inside the project it was reached through. */
@Resolver(() => LimitPlanType)
export class LimitPlanAssignmentsResolver {
  @FieldResolver(() => [LimitAssignmentType], { description: 'assignments referencing the plan (all statuses, newest first) in the project it was read through; every project for the platform catalog' })
  async assignments(@Root() plan: LimitPlanType, @Ctx() ctx: GqlContext) {
    return (await assignmentsOfPlanLoader(ctx).load(`${plan.id}|${plan.viewProject}`)).map(toAssignment)
  }
}
