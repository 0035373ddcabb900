import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, Ctx, Extensions, Field, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { DeploymentResultType, PageOf, SearchPagingArgs } from '../../platform/graphql/types.js'
import { createConnection, deleteConnection, getConnection, listConnections, pageConnections, updateConnection, type ConnectionWrite } from './service.js'
import { testConnection } from './testers/index.js'
import { CONNECTION_TYPES, TYPE_DEFS, type ConnectionType } from './types/index.js'
import type { ConnectionView } from './views.js'

const TYPES = CONNECTION_TYPES.join(', ')
const COMMON = new Set(['type', 'name', 'description', 'deployToWorker', 'enabled'])

@ObjectType('Connection', {
  description: 'A typed connection of a project (vendor 06-connections). The common fields are typed; the type\'s own fields are `config`, exactly as the REST door shows them (secret fields null with a <field>Set flag). A `webhook` connection is also the WebhookConnection of the webhook API.',
})
export class ConnectionGqlType {
  @Field(() => String, { description: TYPES }) type: ConnectionType
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) deployToWorker: boolean
  @Field(() => Boolean) enabled: boolean
  @Field(() => JSONResolver, { description: 'the type\'s own fields, as on GET /apiops/projects/{projectName}/connections/{connectionName}/' }) config: Record<string, unknown>
  @Field(() => [String], { description: 'the type\'s write-only fields (never returned)' }) secretFields: string[]
  @Field(() => [String], { description: 'the secret fields that hold a value' }) secretsSet: string[]
}

@ObjectType('ConnectionWriteResult')
export class ConnectionWriteResult {
  @Field(() => ConnectionGqlType) connection: ConnectionGqlType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

@ObjectType('ConnectionTestResult', { description: 'The outcome of a real connection to the server, bounded by CONNECTION_TEST_TIMEOUT_MS; nothing is written' })
export class ConnectionTestResultType {
  @Field(() => Boolean) success: boolean
  @Field(() => String) message: string
  @Field(() => Int) durationMs: number
}

function toGql(view: ConnectionView): ConnectionGqlType {
  const secretFields = view.type === 'webhook' ? [] : [...TYPE_DEFS[view.type].secrets]
  const config = Object.fromEntries(Object.entries(view).filter(([k]) => !COMMON.has(k)))
  return Object.assign(new ConnectionGqlType(), {
    type: view.type,
    name: view.name,
    description: view.description,
    deployToWorker: view.deployToWorker,
    enabled: view.enabled,
    config,
    secretFields,
    secretsSet: secretFields.filter((s) => view[`${s}Set`] === true),
  })
}

const writeResult = (w: ConnectionWrite) => Object.assign(new ConnectionWriteResult(), { connection: toGql(w.connection), deploymentResult: DeploymentResultType.from(w.deploymentResult) })

/** The body of the REST door: `config` holds the type's own fields (secrets included, write-only). */
const bodyOf = (type: string, name: string, fields: { description?: string | null; deployToWorker?: boolean | null; enabled?: boolean | null; config?: Record<string, unknown> | null }) => ({
  ...(fields.config ?? {}),
  type,
  name,
  ...(fields.description !== undefined ? { description: fields.description } : {}),
  ...(fields.deployToWorker != null ? { deployToWorker: fields.deployToWorker } : {}),
  ...(fields.enabled != null ? { enabled: fields.enabled } : {}),
})

@ObjectType('ConnectionPage')
export class ConnectionPage extends PageOf(ConnectionGqlType, 'ConnectionPage') {}

@Resolver(() => ConnectionGqlType)
export class ConnectionResolver {
  @Query(() => ConnectionPage, { description: 'One page of connections (every type, or one), searched on the name; CONNECTION (or PROJECT_MANAGEMENT) VIEW' })
  async connectionsPage(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('type', () => String, { nullable: true }) type: string | null,
    @Args(() => SearchPagingArgs) paging: SearchPagingArgs,
  ) {
    const page = await pageConnections(ctx.deps.prisma, requireViewer(ctx), projectName, { ...paging, type })
    return { ...page, items: page.items.map(toGql) }
  }

  @Query(() => [ConnectionGqlType], { description: `CONNECTION (or PROJECT_MANAGEMENT) VIEW; of one type (${TYPES}) when given` })
  async connections(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('type', () => String, { nullable: true }) type: string | null) {
    return (await listConnections(ctx.deps.prisma, requireViewer(ctx), projectName, type)).map(toGql)
  }

  @Query(() => ConnectionGqlType, { description: 'CONNECTION (or PROJECT_MANAGEMENT) VIEW; the name is matched case-insensitively' })
  async connection(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return toGql(await getConnection(ctx.deps.prisma, requireViewer(ctx), projectName, name))
  }

  @Mutation(() => ConnectionWriteResult, { description: 'Same rules as POST /apiops/projects/{projectName}/connections/{name}/; CONNECTION (or PROJECT_MANAGEMENT) MANAGE, deploys with DEPLOY_UNDEPLOY' })
  async createConnection(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('type', () => String, { description: TYPES }) type: string,
    @Arg('name', () => String) name: string,
    @Arg('config', () => JSONResolver, { description: 'the type\'s own fields as the page lists them, secrets included' }) config: Record<string, unknown>,
    @Arg('description', () => String, { nullable: true }) description: string | null,
    @Arg('deployToWorker', () => Boolean, { nullable: true, description: 'default true' }) deployToWorker: boolean | null,
    @Arg('enabled', () => Boolean, { nullable: true, description: 'default true' }) enabled: boolean | null,
  ) {
    return writeResult(await createConnection(ctx.deps, requireViewer(ctx), projectName, name, bodyOf(type, name, { config, description, deployToWorker, enabled })))
  }

  @Mutation(() => ConnectionWriteResult, { description: 'Applies the given fields over the connection `name` (newName renames; absent fields and secrets keep their value); the type cannot change' })
  async updateConnection(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('type', () => String, { description: 'the connection\'s type (it cannot change)' }) type: string,
    @Arg('config', () => JSONResolver, { nullable: true }) config: Record<string, unknown> | null,
    @Arg('newName', () => String, { nullable: true }) newName: string | null,
    @Arg('description', () => String, { nullable: true }) description: string | null,
    @Arg('deployToWorker', () => Boolean, { nullable: true }) deployToWorker: boolean | null,
    @Arg('enabled', () => Boolean, { nullable: true }) enabled: boolean | null,
  ) {
    return writeResult(await updateConnection(ctx.deps, requireViewer(ctx), projectName, name, bodyOf(type, newName ?? name, { config, description: description ?? undefined, deployToWorker, enabled })))
  }

  @Mutation(() => DeploymentResultType, { description: 'Deletes and undeploys; CONNECTION (or PROJECT_MANAGEMENT) MANAGE, undeploys with DEPLOY_UNDEPLOY' })
  async deleteConnection(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return DeploymentResultType.from(await deleteConnection(ctx.deps, requireViewer(ctx), projectName, name))
  }

  @Mutation(() => ConnectionTestResultType, { description: 'The twin of POST …/connections/{name}/test: connects with the type\'s client; writes nothing; CONNECTION (or PROJECT_MANAGEMENT) MANAGE' })
  @Extensions({ audit: false })
  async testConnection(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string) {
    return Object.assign(new ConnectionTestResultType(), await testConnection(ctx.deps, requireViewer(ctx), projectName, name))
  }
}
