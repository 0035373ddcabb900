import { Field, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql'
import { DeploymentResultType, PageOf } from '../../../platform/graphql/types.js'
import { VECTOR_AUTH_SCHEMES, VECTOR_DB_TYPES } from './service.js'

// The GraphQL types of vector store connections (spec §2.11): the vendor read fields flattened, the nested transport.

const list = (values: readonly string[]) => values.join(', ')

@ObjectType('VectorDbPool', { description: 'HikariCP settings of the jdbc family (null: the pool default)' })
export class VectorDbPoolType {
  @Field(() => Int, { nullable: true }) minimumIdle: number | null
  @Field(() => Int, { nullable: true }) maximumPoolSize: number | null
  @Field(() => Int, { nullable: true }) connectionTimeoutMs: number | null
  @Field(() => Int, { nullable: true }) idleTimeoutMs: number | null
  @Field(() => Int, { nullable: true }) maxLifetimeMs: number | null
}

@ObjectType('VectorDbTransport', {
  description: 'all: connectTimeoutMs, requestTimeoutMs; jdbc: jdbcUrl, username, pool, passwordSet; http: endpoint, apiVersion, authScheme, authHeaderName, regionCode, apiKeySet, apiSecretSet; redis: uri, username, passwordSet',
})
export class VectorDbTransportType {
  @Field(() => String, { description: 'jdbc, http or redis' }) family: string
  @Field(() => Int, { nullable: true }) connectTimeoutMs?: number | null
  @Field(() => Int, { nullable: true }) requestTimeoutMs?: number | null
  @Field(() => String, { nullable: true }) jdbcUrl?: string
  @Field(() => String, { nullable: true }) username?: string | null
  @Field(() => VectorDbPoolType, { nullable: true }) pool?: VectorDbPoolType | null
  @Field(() => Boolean, { nullable: true }) passwordSet?: boolean
  @Field(() => String, { nullable: true }) endpoint?: string
  @Field(() => String, { nullable: true }) apiVersion?: string | null
  @Field(() => String, { nullable: true }) authScheme?: string
  @Field(() => String, { nullable: true }) authHeaderName?: string | null
  @Field(() => String, { nullable: true }) regionCode?: string | null
  @Field(() => Boolean, { nullable: true }) apiKeySet?: boolean
  @Field(() => Boolean, { nullable: true }) apiSecretSet?: boolean
  @Field(() => String, { nullable: true }) uri?: string
}

@ObjectType('VectorDb', { description: 'A vector store connection (spec §2.11; the vendor read fields, flattened, and the nested transport)' })
export class VectorDbType {
  @Field(() => String) id: string
  @Field(() => String) projectName: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => String, { description: list(VECTOR_DB_TYPES) }) dbType: string
  @Field(() => String, { description: 'jdbc, http or redis' }) family: string
  @Field(() => Int, { nullable: true }) connectTimeoutMs: number | null
  @Field(() => Int, { nullable: true }) requestTimeoutMs: number | null
  @Field(() => String, { nullable: true, description: 'jdbc' }) jdbcUrl?: string
  @Field(() => String, { nullable: true, description: 'jdbc' }) jdbcUsername?: string | null
  @Field(() => Boolean, { nullable: true, description: 'jdbc' }) jdbcPasswordSet?: boolean
  @Field(() => Int, { nullable: true, description: 'jdbc' }) poolMinimumIdle?: number | null
  @Field(() => Int, { nullable: true, description: 'jdbc' }) poolMaximumPoolSize?: number | null
  @Field(() => Int, { nullable: true, description: 'jdbc' }) poolConnectionTimeoutMs?: number | null
  @Field(() => Int, { nullable: true, description: 'jdbc' }) poolIdleTimeoutMs?: number | null
  @Field(() => Int, { nullable: true, description: 'jdbc' }) poolMaxLifetimeMs?: number | null
  @Field(() => String, { nullable: true, description: 'http' }) endpoint?: string
  @Field(() => String, { nullable: true, description: 'http' }) apiVersion?: string | null
  @Field(() => String, { nullable: true, description: 'http' }) authScheme?: string
  @Field(() => String, { nullable: true, description: 'http' }) authHeaderName?: string | null
  @Field(() => Boolean, { nullable: true, description: 'http' }) apiKeySet?: boolean
  @Field(() => Boolean, { nullable: true, description: 'http' }) apiSecretSet?: boolean
  @Field(() => String, { nullable: true, description: 'http' }) regionCode?: string | null
  @Field(() => String, { nullable: true, description: 'redis' }) redisUri?: string
  @Field(() => String, { nullable: true, description: 'redis' }) redisUsername?: string | null
  @Field(() => Boolean, { nullable: true, description: 'redis' }) redisPasswordSet?: boolean
  @Field(() => String, { nullable: true }) defaultCollectionName: string | null
  @Field(() => Int, { nullable: true }) embeddingDimension: number | null
  @Field(() => String, { nullable: true }) distanceMetric: string | null
  @Field(() => Int, { nullable: true }) maxBatchSize: number | null
  @Field(() => Boolean) builtIn: boolean
  @Field(() => VectorDbTransportType) transport: VectorDbTransportType
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@InputType('VectorDbPoolInput', { description: 'jdbc: HikariCP settings (null: the pool default)' })
export class VectorDbPoolInputType {
  @Field(() => Int, { nullable: true }) minimumIdle?: number
  @Field(() => Int, { nullable: true }) maximumPoolSize?: number
  @Field(() => Int, { nullable: true }) connectionTimeoutMs?: number
  @Field(() => Int, { nullable: true }) idleTimeoutMs?: number
  @Field(() => Int, { nullable: true }) maxLifetimeMs?: number
}

@InputType('VectorDbTransportInput', { description: 'Set the fields of the chosen family only' })
export class VectorDbTransportInputType {
  @Field(() => String, { description: 'jdbc, http or redis (the family dbType is reached with; OTHER takes any)' }) family: string
  @Field(() => Int, { nullable: true, description: 'all families; jdbc default 10000' }) connectTimeoutMs?: number
  @Field(() => Int, { nullable: true, description: 'all families' }) requestTimeoutMs?: number
  @Field(() => String, { nullable: true, description: 'jdbc; required' }) jdbcUrl?: string
  @Field(() => String, { nullable: true, description: 'jdbc, redis' }) username?: string
  @Field(() => String, { nullable: true, description: 'jdbc, redis; secret, write-only; blank keeps the stored value on update' }) password?: string
  @Field(() => VectorDbPoolInputType, { nullable: true, description: 'jdbc' }) pool?: VectorDbPoolInputType
  @Field(() => String, { nullable: true, description: 'http; required' }) endpoint?: string
  @Field(() => String, { nullable: true, description: 'http' }) apiVersion?: string
  @Field(() => String, { nullable: true, description: `http; ${list(VECTOR_AUTH_SCHEMES)}; default BEARER` }) authScheme?: string
  @Field(() => String, { nullable: true, description: 'http' }) authHeaderName?: string
  @Field(() => String, { nullable: true, description: 'http; secret, write-only; blank keeps the stored value on update' }) apiKey?: string
  @Field(() => String, { nullable: true, description: 'http; secret, write-only; blank keeps the stored value on update' }) apiSecret?: string
  @Field(() => String, { nullable: true, description: 'http' }) regionCode?: string
  @Field(() => String, { nullable: true, description: 'redis; required: redis://, rediss:// or host:port' }) uri?: string
}

@InputType('VectorDbInput', { description: 'The create body of spec §2.11 without _class (implied). Full replacement' })
export class VectorDbInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => Boolean, { nullable: true, description: 'default true' }) enabled?: boolean
  @Field(() => String, { description: list(VECTOR_DB_TYPES) }) dbType: string
  @Field(() => String, { nullable: true }) defaultCollectionName?: string
  @Field(() => Int, { nullable: true }) embeddingDimension?: number
  @Field(() => String, { nullable: true, description: 'COSINE, EUCLIDEAN, DOT_PRODUCT; default COSINE' }) distanceMetric?: string
  @Field(() => Int, { nullable: true, description: 'default 100' }) maxBatchSize?: number
  @Field(() => VectorDbTransportInputType) transport: VectorDbTransportInputType
}

@ObjectType('VectorDbWrite')
export class VectorDbWriteType {
  @Field(() => VectorDbType) vectorDb: VectorDbType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

@ObjectType('VectorDbConnectionTest', { description: 'Outcome of a connection test; a failed test is success false, never an error' })
export class VectorDbConnectionTestType {
  @Field(() => Boolean) success: boolean
  @Field(() => String) message: string
  @Field(() => String, { description: 'always apimanager: the test runs in this service' }) envName: string
  @Field(() => String, { description: 'the message (the vendor page\'s name)' }) detail: string
  @Field(() => Int, { description: 'milliseconds' }) responseTime: number
  @Field(() => Boolean) reachable: boolean
  @Field(() => Int, { nullable: true }) statusCode: number | null
  @Field(() => String, { nullable: true, description: 'pgvector version (jdbc family)' }) extensionVersion: string | null
}

@ObjectType('VectorDbPage')
export class VectorDbPage extends PageOf(VectorDbType, 'VectorDbPage') {}
