import { Field, Int, ObjectType, ArgsType } from 'type-graphql'
import type { ClassType } from 'type-graphql'
import type { DeploymentOutcome } from '../deploy/pusher.js'

@ObjectType('WorkerDeployment', { description: 'What one worker (pod) of an environment answered to a push' })
export class WorkerDeploymentType {
  @Field(() => String, { description: "the worker's URL host (host name and port as configured)" }) podName: string
  @Field(() => String, { description: 'the address that host resolves to' }) podIp: string
  @Field(() => Boolean) success: boolean
  @Field(() => String) message: string
  @Field(() => Int) responseTimeMs: number
}

@ObjectType('EnvironmentDeployment', { description: 'What one gateway environment answered to a push' })
export class EnvironmentDeploymentType {
  @Field(() => String) environmentName: string
  @Field(() => Boolean) success: boolean
  @Field(() => String) message: string
  @Field(() => Int) responseTimeMs: number
  @Field(() => [WorkerDeploymentType], { nullable: true, description: 'each worker of the environment (empty when it has none); null when the result does not come from a push to the workers' }) workers?: WorkerDeploymentType[] | null
}

@ObjectType('DeploymentResult', { description: 'Outcome of pushing a saved change to the gateway environments' })
export class DeploymentResultType {
  @Field(() => Boolean) success: boolean
  @Field(() => String) message: string
  @Field(() => Int) responseTimeMs: number
  @Field(() => [EnvironmentDeploymentType]) environmentResults: EnvironmentDeploymentType[]

  static from(outcome: DeploymentOutcome): DeploymentResultType {
    return Object.assign(new DeploymentResultType(), outcome)
  }
}

@ArgsType()
export class PagingArgs {
  @Field(() => Int, { nullable: true, description: 'page number from 0' }) page?: number
  @Field(() => Int, { nullable: true, description: 'page size, default 20, at most 200' }) size?: number
  @Field(() => [String], { nullable: true, description: 'field,direction' }) sort?: string[]
}

@ArgsType()
export class SearchPagingArgs extends PagingArgs {
  @Field(() => String, { nullable: true, description: 'case-insensitive contains on the names the list describes; blank is none' }) search?: string
}

/** A paged list of T, the GraphQL twin of the Common Contract paged envelope. */
export function PageOf<T extends object>(item: ClassType<T>, name: string) {
  @ObjectType(name)
  abstract class PageClass {
    @Field(() => [item]) items: T[]
    @Field(() => Int) page: number
    @Field(() => Int) size: number
    @Field(() => Int) totalElements: number
    @Field(() => Int) totalPages: number
    @Field(() => [String]) sort: string[]
  }
  return PageClass
}
