import { Arg, Args, Ctx, Field, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType, PageOf, SearchPagingArgs } from '../../platform/graphql/types.js'
import {
  createEnvironmentVariable, deleteEnvironmentVariable, getEnvironmentVariable, listEnvironmentVariables, pageEnvironmentVariables, updateEnvironmentVariable,
  type EnvironmentVariableWrite,
} from './service.js'

@ObjectType('EnvironmentVariableValue', { description: 'One environment\'s value; a secret (visible false) is null, valueSet says whether one is stored' })
export class EnvironmentVariableValueType {
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true }) value: string | null
  @Field(() => Boolean) visible: boolean
  @Field(() => Boolean) valueSet: boolean
}

@ObjectType('EnvironmentVariable', { description: 'A project\'s environment variable: global or per environment; secret values are write-only' })
export class EnvironmentVariableType {
  @Field(() => String) projectName: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) global: boolean
  @Field(() => String, { nullable: true, description: 'null when secret (globalVisible false) or not global' }) globalValue: string | null
  @Field(() => Boolean) globalVisible: boolean
  @Field(() => Boolean) globalValueSet: boolean
  @Field(() => [EnvironmentVariableValueType], { nullable: true, description: 'null for a global variable' }) environmentValueList: EnvironmentVariableValueType[] | null
  @Field(() => Int) revision: number
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@InputType('EnvironmentVariableValueInput')
export class EnvironmentVariableValueInputType {
  @Field(() => String) environmentName: string
  @Field(() => String, { nullable: true, description: 'a secret left null on update keeps its stored value' }) value?: string | null
  @Field(() => Boolean, { nullable: true, description: 'false (default) marks the value secret' }) visible?: boolean | null
}

@InputType('EnvironmentVariableInput', { description: 'The same body as POST/PUT /apiops/projects/{projectName}/environmentVariables/{name}/' })
export class EnvironmentVariableInputType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description?: string | null
  @Field(() => Boolean, { nullable: true, description: 'default false' }) global?: boolean | null
  @Field(() => String, { nullable: true }) globalValue?: string | null
  @Field(() => Boolean, { nullable: true, description: 'default true; false marks the global value secret' }) globalVisible?: boolean | null
  @Field(() => [EnvironmentVariableValueInputType], { nullable: true }) environmentValueList?: EnvironmentVariableValueInputType[] | null
}

@ObjectType('EnvironmentVariableWriteResult')
export class EnvironmentVariableWriteResult {
  @Field(() => EnvironmentVariableType) environmentVariable: EnvironmentVariableType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

const writeResult = (write: EnvironmentVariableWrite) =>
  Object.assign(new EnvironmentVariableWriteResult(), { environmentVariable: write.variable, deploymentResult: DeploymentResultType.from(write.deploymentResult) })

/** Drops the GraphQL nulls of optional booleans so the service's defaults apply, as on REST. */
const body = (input: EnvironmentVariableInputType) => ({
  ...input,
  global: input.global ?? undefined,
  globalVisible: input.globalVisible ?? undefined,
  environmentValueList: input.environmentValueList?.map((v) => ({ ...v, visible: v.visible ?? undefined })),
})

@ObjectType('EnvironmentVariablePage')
export class EnvironmentVariablePage extends PageOf(EnvironmentVariableType, 'EnvironmentVariablePage') {}

@Resolver(() => EnvironmentVariableType)
export class EnvironmentVariableResolver {
  @Query(() => EnvironmentVariablePage, { description: 'One page of environmentVariables, searched on the name (PROJECT_MANAGEMENT VIEW)' })
  async environmentVariablesPage(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Args(() => SearchPagingArgs) paging: SearchPagingArgs) {
    return pageEnvironmentVariables(ctx.deps.prisma, requireViewer(ctx), projectName, paging)
  }

  @Query(() => [EnvironmentVariableType], { description: 'PROJECT_MANAGEMENT VIEW; in project admin every project\'s variables' })
  async environmentVariables(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string) {
    return listEnvironmentVariables(ctx.deps.prisma, requireViewer(ctx), projectName)
  }

  @Query(() => EnvironmentVariableType, { description: 'PROJECT_MANAGEMENT VIEW; the name is matched case-insensitively' })
  async environmentVariable(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return getEnvironmentVariable(ctx.deps.prisma, requireViewer(ctx), projectName, name)
  }

  @Mutation(() => EnvironmentVariableWriteResult, { description: 'PROJECT_MANAGEMENT MANAGE; deploys with PROJECT_MANAGEMENT DEPLOY_UNDEPLOY' })
  async createEnvironmentVariable(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('input', () => EnvironmentVariableInputType) input: EnvironmentVariableInputType) {
    return writeResult(await createEnvironmentVariable(ctx.deps, requireViewer(ctx), projectName, input.name, body(input)))
  }

  @Mutation(() => EnvironmentVariableWriteResult, { description: 'Replaces the variable named `name` (input.name may rename it); PROJECT_MANAGEMENT MANAGE, deploys with DEPLOY_UNDEPLOY' })
  async updateEnvironmentVariable(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('input', () => EnvironmentVariableInputType) input: EnvironmentVariableInputType,
  ) {
    return writeResult(await updateEnvironmentVariable(ctx.deps, requireViewer(ctx), projectName, name, body(input)))
  }

  @Mutation(() => DeploymentResultType, { description: 'Deletes and undeploys; PROJECT_MANAGEMENT MANAGE, undeploys with DEPLOY_UNDEPLOY' })
  async deleteEnvironmentVariable(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return DeploymentResultType.from(await deleteEnvironmentVariable(ctx.deps, requireViewer(ctx), projectName, name))
  }
}
