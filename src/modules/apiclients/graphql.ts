import { Arg, Ctx, Field, FieldResolver, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql'
import type { ApiClient } from '../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../platform/graphql/context.js'
import { withoutNulls } from '../../platform/graphql/inputs.js'
import { byIdLoader } from '../../platform/graphql/loaders.js'
import { ApiClientType } from '../identity/graphql.js'
import type { CreateApiClientInput, UpdateApiClientInput } from './inputs.js'
import type { EnvironmentAck, RuntimeDeploymentView } from '../identity/api-client-runtime.js'
import { issuanceView } from './views.js'
import {
  activateApiClient, createManagedApiClient, getApiClientRuntimeDeployment, revokeApiClient, rotateApiClientSecret,
  suspendApiClient, updateManagedApiClient, type ApiClientWrite,
} from './service.js'

@ObjectType('RuntimeEnvironmentAck', { description: "One environment's answer to an API client push (spec §2.6)" })
export class RuntimeEnvironmentAckType {
  @Field(() => String) name: string
  @Field(() => Boolean) acknowledged: boolean
  @Field(() => String, { nullable: true, description: 'why it did not acknowledge' }) detail?: string
}

@ObjectType('RuntimeDeployment', { description: 'IN_SYNC: every environment acknowledged; DEGRADED: stored, some did not; PENDING: stored, a revocation is being retried' })
export class RuntimeDeploymentType {
  @Field(() => String) state: string
  @Field(() => Int, { nullable: true, description: 'only on the durable read (apiClientRuntimeDeployment, ApiClient.runtimeDeployment)' }) revision?: number
  @Field(() => [RuntimeEnvironmentAckType]) environments: EnvironmentAck[]
}

@ObjectType('ApiClientDeployment', { description: 'The manager-surface envelope of an API client write or of its durable runtime record' })
export class ApiClientDeploymentType {
  @Field(() => ApiClientType) apiClient: ApiClient
  @Field(() => RuntimeDeploymentType) runtimeDeployment: RuntimeDeploymentView
  @Field(() => String, { nullable: true, description: 'the clear secret, only in the answer of registerApiClient and rotateApiClientSecret; never again' })
  clientSecret?: string
}

@ObjectType('ApiClientIssuance', { description: 'Issuance fields of spec §2.5 (the first three are reserved, no effect); unset booleans read false, the algorithm RS256' })
export class ApiClientIssuanceType {
  @Field(() => [String]) allowedGrantTypes: string[]
  @Field(() => String, { nullable: true }) tokenEndpointAuthMethod: string | null
  @Field(() => String, { nullable: true }) tokenIssuanceProfile: string | null
  @Field(() => Boolean) tokenNeverExpires: boolean
  @Field(() => Number, { nullable: true }) tokenExpiresInAmount: number | null
  @Field(() => String, { nullable: true }) tokenExpiresInUnit: string | null
  @Field(() => Boolean) refreshTokenAllowed: boolean
  @Field(() => Int, { nullable: true }) refreshTokenCount: number | null
  @Field(() => Number, { nullable: true }) refreshTokenExpiresInAmount: number | null
  @Field(() => String, { nullable: true }) refreshTokenExpiresInUnit: string | null
  @Field(() => String) jwtSignatureAlgorithm: string
}

/** Issuance fields as inputs: the same names and rules as the REST bodies (one zod schema validates both). */
@InputType('ApiClientIssuanceFields')
class IssuanceInputFields {
  @Field(() => [String], { nullable: true, description: 'client_credentials and/or refresh_token' }) allowedGrantTypes?: string[]
  @Field(() => String, { nullable: true }) tokenEndpointAuthMethod?: string
  @Field(() => String, { nullable: true }) tokenIssuanceProfile?: string
  @Field(() => Boolean, { nullable: true }) tokenNeverExpires?: boolean
  @Field(() => Number, { nullable: true }) tokenExpiresInAmount?: number
  @Field(() => String, { nullable: true, description: 'MILLI_SECONDS … YEARS' }) tokenExpiresInUnit?: string
  @Field(() => Boolean, { nullable: true }) refreshTokenAllowed?: boolean
  @Field(() => Int, { nullable: true }) refreshTokenCount?: number
  @Field(() => Number, { nullable: true }) refreshTokenExpiresInAmount?: number
  @Field(() => String, { nullable: true }) refreshTokenExpiresInUnit?: string
  @Field(() => String, { nullable: true, description: 'RS256 when unset' }) jwtSignatureAlgorithm?: string
}

@InputType('RegisterApiClientInput', { description: 'Exactly one owner: applicationKey, applicationName, consumerKey or consumerUsername' })
export class RegisterApiClientInputType extends IssuanceInputFields {
  @Field(() => String) projectName: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: 'minted when absent' }) clientId?: string
  @Field(() => String, { nullable: true }) applicationKey?: string
  @Field(() => String, { nullable: true }) applicationName?: string
  @Field(() => String, { nullable: true }) consumerKey?: string
  @Field(() => String, { nullable: true }) consumerUsername?: string
  @Field(() => GraphQLISODateTime, { nullable: true }) validFrom?: Date
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt?: Date
  @Field(() => Boolean, { nullable: true, description: 'false: no secret yet (readiness PENDING_SECRET); default true' }) issueSecret?: boolean
}

@InputType('UpdateApiClientInput', { description: 'Absent fields keep their value; null clears validFrom, expiresAt and issuance fields' })
export class UpdateApiClientInputType extends IssuanceInputFields {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => GraphQLISODateTime, { nullable: true }) validFrom?: Date
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt?: Date
  @Field(() => Int, { nullable: true, description: 'when given, must equal the stored version' }) version?: number
}

/** Drops the keys GraphQL left undefined, so the strict input schema sees only what the caller sent. */
const sent = <T extends object>(input: T) => Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))

const NULL_CLEARS = [
  'validFrom', 'expiresAt', 'allowedGrantTypes', 'tokenEndpointAuthMethod', 'tokenIssuanceProfile', 'tokenNeverExpires', 'tokenExpiresInAmount',
  'tokenExpiresInUnit', 'refreshTokenAllowed', 'refreshTokenCount', 'refreshTokenExpiresInAmount', 'refreshTokenExpiresInUnit', 'jwtSignatureAlgorithm',
] as const

const envelope = (w: ApiClientWrite) => ({ apiClient: w.apiClient, runtimeDeployment: { state: w.runtimeDeployment.state, environments: w.runtimeDeployment.environments }, clientSecret: w.clientSecret })

const liveSecretVersionLoader = (ctx: GqlContext) =>
  ctx.loaders.get<string, number | null>('liveSecretVersionByApiClient', async (ids) => {
    const rows = await ctx.deps.prisma.apiClientSecret.findMany({ where: { apiClientId: { in: [...ids] }, retiredAt: null }, select: { apiClientId: true, version: true } })
    const latest = new Map<string, number>()
    for (const r of rows) latest.set(r.apiClientId, Math.max(r.version, latest.get(r.apiClientId) ?? 0))
    return ids.map((id) => latest.get(id) ?? null)
  })

const runtimeLoader = (ctx: GqlContext) =>
  byIdLoader(ctx, 'apiClientRuntimeById', async (db, ids) =>
    (await db.apiClientRuntime.findMany({ where: { apiClientId: { in: ids } } })).map((r) => ({ ...r, id: r.apiClientId })))

/** The manager-surface API client writes (spec §2.6, §4.11) and the fields they add to ApiClient. */
@Resolver(() => ApiClientType)
export class ApiClientManagerResolver {
  @Mutation(() => ApiClientDeploymentType, { description: 'Creates a DRAFT API client of an application or consumer, issues its first secret (shown once) and pushes it; IDENTITY MANAGE' })
  async registerApiClient(@Ctx() ctx: GqlContext, @Arg('input', () => RegisterApiClientInputType) input: RegisterApiClientInputType) {
    return envelope(await createManagedApiClient(ctx.deps, requireViewer(ctx), sent(withoutNulls(input)) as CreateApiClientInput))
  }

  @Mutation(() => ApiClientDeploymentType, { description: 'Updates name, validity window and issuance fields; IDENTITY MANAGE' })
  async updateApiClient(@Ctx() ctx: GqlContext, @Arg('apiClientKey', () => String) apiClientKey: string, @Arg('input', () => UpdateApiClientInputType) input: UpdateApiClientInputType) {
    return envelope(await updateManagedApiClient(ctx.deps, requireViewer(ctx), apiClientKey, sent(withoutNulls(input, [...NULL_CLEARS])) as UpdateApiClientInput))
  }

  @Mutation(() => ApiClientDeploymentType, { description: 'DRAFT or SUSPENDED → ACTIVE; IDENTITY MANAGE' })
  async activateApiClient(@Ctx() ctx: GqlContext, @Arg('apiClientKey', () => String) apiClientKey: string) {
    return envelope(await activateApiClient(ctx.deps, requireViewer(ctx), apiClientKey))
  }

  @Mutation(() => ApiClientDeploymentType, { description: 'ACTIVE → SUSPENDED; IDENTITY MANAGE' })
  async suspendApiClient(@Ctx() ctx: GqlContext, @Arg('apiClientKey', () => String) apiClientKey: string) {
    return envelope(await suspendApiClient(ctx.deps, requireViewer(ctx), apiClientKey))
  }

  @Mutation(() => ApiClientDeploymentType, { description: 'Issues the next secret version (clientSecret, shown once) and retires the previous; IDENTITY MANAGE' })
  async rotateApiClientSecret(@Ctx() ctx: GqlContext, @Arg('apiClientKey', () => String) apiClientKey: string) {
    return envelope(await rotateApiClientSecret(ctx.deps, requireViewer(ctx), apiClientKey))
  }

  @Mutation(() => ApiClientDeploymentType, { description: 'Revokes (final) and undeploys; state PENDING when delivery was handed to the retry outbox; IDENTITY MANAGE' })
  async revokeApiClient(@Ctx() ctx: GqlContext, @Arg('apiClientKey', () => String) apiClientKey: string) {
    return envelope(await revokeApiClient(ctx.deps, requireViewer(ctx), apiClientKey))
  }

  @Query(() => ApiClientDeploymentType, { nullable: true, description: 'The durable runtime record with its revision; null when the client was never pushed; IDENTITY VIEW' })
  async apiClientRuntimeDeployment(@Ctx() ctx: GqlContext, @Arg('apiClientKey', () => String) apiClientKey: string) {
    return getApiClientRuntimeDeployment(ctx.deps, requireViewer(ctx), apiClientKey)
  }

  // Named without "secret" so that no ApiClient field reads as secret material (REST calls it secretVersion).
  @FieldResolver(() => Int, { nullable: true, description: 'version of the live secret material (never its value); null while PENDING_SECRET or after revocation' })
  async materialVersion(@Root() client: ApiClient, @Ctx() ctx: GqlContext) {
    return liveSecretVersionLoader(ctx).load(client.id)
  }

  @FieldResolver(() => RuntimeDeploymentType, { nullable: true, description: 'the durable runtime record; null when never pushed' })
  async runtimeDeployment(@Root() client: ApiClient, @Ctx() ctx: GqlContext) {
    const record = await runtimeLoader(ctx).load(client.id)
    return record ? { state: record.state, revision: record.revision, environments: record.environments as unknown as EnvironmentAck[] } : null
  }

  @FieldResolver(() => ApiClientIssuanceType)
  issuance(@Root() client: ApiClient) {
    return issuanceView(client)
  }
}
