import { JSONResolver } from 'graphql-scalars'
import { Arg, Ctx, Field, GraphQLISODateTime, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { plainInput, zodGraphqlType } from '../../platform/graphql/zod-types.js'
import { CREATOR_KIND_NAMES, db2ApiInput, mockApiInput, script2ApiInput, type CreatorKind } from './inputs.js'
import { creatorKindOf, creatorNameById, creatorNamesByIds, getCreator, listCreators, saveCreator } from './service.js'

// The GraphQL door of the creators (rest.ts): the same services. Reads take the kind; saves are one mutation per
// kind with the input generated from the REST body's schema.

@ObjectType('ApiCreator', { description: 'A DB2API, MockAPI or Script2API creator: an API_CREATOR object of that kind' })
export class ApiCreatorType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { description: CREATOR_KIND_NAMES.join(', ') }) kind: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String) projectId: string
  @Field(() => JSONResolver, { description: 'the methods as saved (see the save mutation of the kind for their fields)' }) endpointList: unknown[]
  @Field(() => Int) revision: number
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@ObjectType('ApiCreatorName', { description: 'The id and name of a creator (the vendor\'s NameByIdDTO)' })
export class ApiCreatorNameType {
  @Field(() => String) id: string
  @Field(() => String) name: string
}

const Db2ApiInput = zodGraphqlType(db2ApiInput, 'input', 'Db2ApiInput', 'The body of POST /apiops/projects/{projectName}/db2apis/{db2ApiName}/')
const MockApiInput = zodGraphqlType(mockApiInput, 'input', 'MockApiInput', 'The body of POST /apiops/projects/{projectName}/mockapis/{mockApiName}/')
const Script2ApiInput = zodGraphqlType(script2ApiInput, 'input', 'Script2ApiInput', 'The body of POST /apiops/projects/{projectName}/script2apis/{script2ApiName}/')

const KIND = { description: `one of ${CREATOR_KIND_NAMES.join(', ')} (case-insensitive)` }
const PERMISSION = 'API_MANAGEMENT (or API_CREATOR)'

@Resolver(() => ApiCreatorType)
export class ApiCreatorResolver {
  @Query(() => [ApiCreatorType], { description: `The creators of one kind in a project; ${PERMISSION} VIEW` })
  async apiCreators(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('kind', () => String, KIND) kind: string) {
    const k = creatorKindOf(kind)
    return (await listCreators(ctx.deps.prisma, requireViewer(ctx), k, projectName)).map((c) => ({ ...c, kind: k }))
  }

  @Query(() => ApiCreatorType, { description: `One creator by kind and name; ${PERMISSION} VIEW` })
  async apiCreator(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('kind', () => String, KIND) kind: string, @Arg('name', () => String) name: string) {
    const k = creatorKindOf(kind)
    return { ...(await getCreator(ctx.deps.prisma, requireViewer(ctx), k, projectName, name)), kind: k }
  }

  @Query(() => ApiCreatorNameType, { description: `A creator's name by id; only creators of projects where the caller holds ${PERMISSION} VIEW are found` })
  async apiCreatorName(@Ctx() ctx: GqlContext, @Arg('kind', () => String, KIND) kind: string, @Arg('id', () => String) id: string) {
    return creatorNameById(ctx.deps.prisma, requireViewer(ctx), creatorKindOf(kind), id)
  }

  @Query(() => [ApiCreatorNameType], { description: 'Creators\' names by id; unknown ids and creators the caller may not view are left out' })
  async apiCreatorNames(@Ctx() ctx: GqlContext, @Arg('kind', () => String, KIND) kind: string, @Arg('ids', () => [String]) ids: string[]) {
    return creatorNamesByIds(ctx.deps.prisma, requireViewer(ctx), kind, ids)
  }

  @Mutation(() => ApiCreatorType, { description: `Creates a DB2API creator or replaces the one of that name; ${PERMISSION} MANAGE` })
  async saveDb2Api(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => Db2ApiInput) input: unknown) {
    return save(ctx, 'DB2API', projectName, name, input)
  }

  @Mutation(() => ApiCreatorType, { description: `Creates a MockAPI creator or replaces the one of that name; ${PERMISSION} MANAGE` })
  async saveMockApi(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => MockApiInput) input: unknown) {
    return save(ctx, 'MOCKAPI', projectName, name, input)
  }

  @Mutation(() => ApiCreatorType, { description: `Creates a Script2API creator or replaces the one of that name; ${PERMISSION} MANAGE` })
  async saveScript2Api(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => Script2ApiInput) input: unknown) {
    return save(ctx, 'SCRIPT2API', projectName, name, input)
  }
}

async function save(ctx: GqlContext, kind: CreatorKind, projectName: string, name: string, input: unknown) {
  const { creator } = await saveCreator(ctx.deps.prisma, requireViewer(ctx), kind, projectName, name, plainInput(input))
  return { ...creator, kind }
}
