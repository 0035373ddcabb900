import { Arg, Args, ArgsType, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { PageOf, PagingArgs } from '../../../platform/graphql/types.js'
import { searchSubjects, selectorOrganizations } from './subjects.js'

// The bulk selector's pickers on GraphQL: the same service as /api/limit-assignment-subjects.

@ObjectType('LimitAssignmentSubject', { description: 'A subject a bulk selector can name' })
export class LimitAssignmentSubjectType {
  @Field(() => String) subjectType: string
  @Field(() => String, { description: 'username, clientId, application name or organization code' }) subjectKey: string
  @Field(() => String, { nullable: true }) displayName: string | null
  @Field(() => String, { nullable: true, description: 'its organization (for an organization: its parent)' }) organizationCode: string | null
  @Field(() => Boolean) enabled: boolean
}

@ObjectType('LimitAssignmentSubjectPage')
export class LimitAssignmentSubjectPage extends PageOf(LimitAssignmentSubjectType, 'LimitAssignmentSubjectPage') {}

@ObjectType('LimitSelectorOrganization', { description: 'An organization of the selector tree, parents first' })
export class LimitSelectorOrganizationType {
  @Field(() => String) code: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) parentCode: string | null
  @Field(() => Int) depth: number
  @Field(() => String) state: string
  @Field(() => Boolean) suspended: boolean
  @Field(() => Int) subOrganizationCount: number
}

@ArgsType()
class SubjectSearchArgs extends PagingArgs {
  @Field(() => String) projectName: string
  @Field(() => String, { description: 'CONSUMER, API_CLIENT, APPLICATION or ORGANIZATION' }) subjectType: string
  @Field(() => String, { nullable: true }) search?: string
  @Field(() => String, { nullable: true }) organizationCode?: string
  @Field(() => Boolean, { nullable: true }) enabledOnly?: boolean
}

@Resolver()
export class LimitSelectorResolver {
  @Query(() => LimitAssignmentSubjectPage, { description: 'Subjects of one type for a bulk selector, paged (sort subjectKey)' })
  async limitAssignmentSubjects(@Ctx() ctx: GqlContext, @Args(() => SubjectSearchArgs) args: SubjectSearchArgs) {
    const { projectName, enabledOnly, ...rest } = args
    const query = Object.fromEntries(Object.entries({ ...rest, projectId: projectName, enabledOnly: enabledOnly == null ? undefined : String(enabledOnly) }).filter(([, v]) => v !== null && v !== undefined))
    return searchSubjects(ctx.deps.prisma, requireViewer(ctx), query)
  }

  @Query(() => [LimitSelectorOrganizationType], { description: 'The organization tree of a project for a bulk selector' })
  async limitSelectorOrganizations(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return selectorOrganizations(ctx.deps.prisma, requireViewer(ctx), { projectId: projectName })
  }
}
