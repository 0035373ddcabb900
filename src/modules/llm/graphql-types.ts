import { Field, Float, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql'
import { DeploymentResultType, PageOf } from '../../platform/graphql/types.js'
import { AUTH_SCHEMES, MODALITIES, PROVIDER_TYPE_NAMES, REQUEST_TYPES, WIRE_PROTOCOLS } from './providers/catalog.js'
import { VECTOR_AUTH_SCHEMES, VECTOR_DB_TYPES } from './vector-dbs/service.js'

const list = (values: readonly string[]) => values.join(', ')

// ---- providers -------------------------------------------------------------------------------------------

@ObjectType('LlmModelDefinition', { description: 'A model a provider serves (spec §2.7 model definition)' })
export class LlmModelDefinitionType {
  @Field(() => String) modelId: string
  @Field(() => String, { nullable: true }) displayName: string | null
  @Field(() => Int, { nullable: true }) contextWindow: number | null
  @Field(() => Int, { nullable: true }) maxOutputTokens: number | null
  @Field(() => Float, { nullable: true, description: 'USD; a USD budget needs it' }) pricePerMillionInput: number | null
  @Field(() => Float, { nullable: true, description: 'USD' }) pricePerMillionOutput: number | null
  @Field(() => Float, { nullable: true, description: 'USD' }) pricePerMillionCached: number | null
  @Field(() => [String]) capabilities: string[]
  @Field(() => String, { nullable: true, description: list(MODALITIES) }) modality: string | null
  @Field(() => Boolean, { description: 'read-only: true when the model catalog marks the model deprecated' }) isDeprecated: boolean
}

@ObjectType('LlmMetadataEntry')
export class LlmMetadataEntryType {
  @Field(() => String) key: string
  @Field(() => String, { nullable: true, description: 'always null for a secret entry' }) value: string | null
  @Field(() => Boolean) secret: boolean
}

@ObjectType('HttpHeader')
export class HttpHeaderType {
  @Field(() => String) name: string
  @Field(() => String) value: string
}

@ObjectType('ResolvedProviderUrl', { description: 'Where one request type goes (spec §2.7 URL rules); variable references stay for request time' })
export class ResolvedProviderUrlType {
  @Field(() => String, { description: list(REQUEST_TYPES) }) requestType: string
  @Field(() => String, { nullable: true, description: 'null when neither the provider nor its type has a path for this request type' }) url: string | null
  @Field(() => [HttpHeaderType], { description: 'extra headers, e.g. the version header of ANTHROPIC' }) headers: HttpHeaderType[]
}

@ObjectType('LlmProvider', { description: 'An LLM provider connection (spec §2.7). Secrets are write-only: reads show presence flags' })
export class LlmProviderType {
  @Field(() => String) id: string
  @Field(() => String) projectId: string
  @Field(() => String) projectName: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => Boolean) enabled: boolean
  @Field(() => String, { description: list(PROVIDER_TYPE_NAMES) }) providerType: string
  @Field(() => String) endpoint: string
  @Field(() => String, { nullable: true }) apiVersion: string | null
  @Field(() => String, { nullable: true }) organizationId: string | null
  @Field(() => String, { description: list(AUTH_SCHEMES) }) authScheme: string
  @Field(() => String, { nullable: true }) authHeaderName: string | null
  @Field(() => Boolean) apiKeySet: boolean
  @Field(() => Boolean) apiSecretSet: boolean
  @Field(() => Boolean) serviceAccountJsonSet: boolean
  @Field(() => String, { nullable: true }) region: string | null
  @Field(() => [LlmModelDefinitionType]) supportedModels: LlmModelDefinitionType[]
  @Field(() => Int, { nullable: true }) providerRpmLimit: number | null
  @Field(() => Int, { nullable: true }) providerTpmLimit: number | null
  @Field(() => Boolean) coldStartRetryEnabled: boolean
  @Field(() => String, { description: 'CLOUD or ON_PREM' }) deploymentType: string
  @Field(() => String, { nullable: true, description: 'built-in definition name or custom definition id' }) providerDefinitionId: string | null
  @Field(() => [String], { description: 'empty: every model allowed' }) allowedModelIds: string[]
  @Field(() => [LlmMetadataEntryType]) metadata: LlmMetadataEntryType[]
  @Field(() => String, { description: `read-only, copied from the definition: ${list(WIRE_PROTOCOLS)}` }) wireProtocol: string
  @Field(() => String, { nullable: true, description: 'read-only, copied from the definition' }) defaultChatCompletionPath: string | null
  @Field(() => String, { nullable: true, description: 'read-only, copied from the definition' }) defaultEmbeddingPath: string | null
  @Field(() => String, { nullable: true, description: 'read-only, copied from the definition' }) defaultAudioTranscriptionPath: string | null
  @Field(() => String, { nullable: true, description: 'read-only, copied from the definition' }) defaultAudioSpeechPath: string | null
  @Field(() => String, { nullable: true, description: 'read-only, copied from the definition' }) defaultImageGenerationPath: string | null
  @Field(() => String, { nullable: true, description: 'read-only, copied from the definition' }) defaultResponsesPath: string | null
  @Field(() => GraphQLISODateTime, { nullable: true }) lastHealthCheckAt: Date | null
  @Field(() => String, { description: 'UNKNOWN, HEALTHY, DOWN' }) healthStatus: string
  @Field(() => Int, { nullable: true }) lastLatencyMs: number | null
  @Field(() => Boolean) builtIn: boolean
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@InputType('LlmModelDefinitionInput')
export class LlmModelDefinitionInputType {
  @Field(() => String) modelId: string
  @Field(() => String, { nullable: true }) displayName?: string
  @Field(() => Int, { nullable: true }) contextWindow?: number
  @Field(() => Int, { nullable: true }) maxOutputTokens?: number
  @Field(() => Float, { nullable: true }) pricePerMillionInput?: number
  @Field(() => Float, { nullable: true }) pricePerMillionOutput?: number
  @Field(() => Float, { nullable: true }) pricePerMillionCached?: number
  @Field(() => [String], { nullable: true }) capabilities?: string[]
  @Field(() => String, { nullable: true, description: list(MODALITIES) }) modality?: string
}

@InputType('LlmMetadataInput')
export class LlmMetadataInputType {
  @Field(() => String) key: string
  @Field(() => String, { nullable: true, description: 'for a secret entry: blank keeps the stored value' }) value?: string
  @Field(() => Boolean, { nullable: true }) secret?: boolean
}

/** The write body of spec §2.7 without _class (implied). Full replacement; blank secrets keep the stored ones. */
@InputType('LlmProviderInput')
export class LlmProviderInputType {
  @Field(() => String, { nullable: true, description: 'must equal the name argument (case-insensitive); defaults to it' }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => Boolean, { nullable: true, description: 'default true' }) enabled?: boolean
  @Field(() => String, { nullable: true, description: `${list(PROVIDER_TYPE_NAMES)}; default: the definition's type, else OTHER` }) providerType?: string
  @Field(() => String, { nullable: true, description: 'blank: the type default' }) endpoint?: string
  @Field(() => String, { nullable: true, description: 'blank: the type default' }) apiVersion?: string
  @Field(() => String, { nullable: true }) organizationId?: string
  @Field(() => String, { nullable: true, description: `${list(AUTH_SCHEMES)}; null: the type default` }) authScheme?: string
  @Field(() => String, { nullable: true, description: 'blank: the type default' }) authHeaderName?: string
  @Field(() => String, { nullable: true, description: 'secret, write-only; blank keeps the stored value' }) apiKey?: string
  @Field(() => String, { nullable: true, description: 'secret, write-only; blank keeps the stored value' }) apiSecret?: string
  @Field(() => String, { nullable: true }) region?: string
  @Field(() => String, { nullable: true, description: 'secret, write-only; blank keeps the stored value' }) serviceAccountJson?: string
  @Field(() => [LlmModelDefinitionInputType], { nullable: true }) supportedModels?: LlmModelDefinitionInputType[]
  @Field(() => Int, { nullable: true }) providerRpmLimit?: number
  @Field(() => Int, { nullable: true }) providerTpmLimit?: number
  @Field(() => Boolean, { nullable: true }) coldStartRetryEnabled?: boolean
  @Field(() => String, { nullable: true, description: 'CLOUD or ON_PREM; null: the type default' }) deploymentType?: string
  @Field(() => String, { nullable: true, description: 'a definition name or id; omitted on update: the stored selection' }) providerDefinitionId?: string
  @Field(() => [String], { nullable: true }) allowedModelIds?: string[]
  @Field(() => [LlmMetadataInputType], { nullable: true }) metadata?: LlmMetadataInputType[]
}

@ObjectType('LlmProviderWrite')
export class LlmProviderWriteType {
  @Field(() => LlmProviderType) provider: LlmProviderType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

// ---- definitions and catalog -----------------------------------------------------------------------------

@ObjectType('LlmProviderDefinition', { description: 'A provider definition: built-in (read-only) or custom to the project' })
export class LlmProviderDefinitionType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: "the provider type code; a built-in's is its name" }) code: string | null
  @Field(() => String, { nullable: true }) displayName: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { nullable: true }) iconUrl: string | null
  @Field(() => String, { nullable: true }) docsUrl: string | null
  @Field(() => GraphQLISODateTime, { nullable: true, description: 'null for built-ins' }) lastUpdatedAt: Date | null
  @Field(() => String) providerType: string
  @Field(() => String) wireProtocol: string
  @Field(() => String, { nullable: true }) defaultEndpoint: string | null
  @Field(() => String, { nullable: true }) defaultApiVersion: string | null
  @Field(() => String, { nullable: true }) defaultAuthScheme: string | null
  @Field(() => String, { nullable: true }) defaultAuthHeaderName: string | null
  @Field(() => String, { nullable: true }) deploymentType: string | null
  @Field(() => String, { nullable: true }) defaultChatCompletionPath: string | null
  @Field(() => String, { nullable: true }) defaultEmbeddingPath: string | null
  @Field(() => String, { nullable: true }) defaultAudioTranscriptionPath: string | null
  @Field(() => String, { nullable: true }) defaultAudioSpeechPath: string | null
  @Field(() => String, { nullable: true }) defaultImageGenerationPath: string | null
  @Field(() => String, { nullable: true }) defaultResponsesPath: string | null
  @Field(() => Boolean) builtIn: boolean
  @Field(() => String, { nullable: true, description: 'null for built-ins' }) projectName: string | null
}

@InputType('LlmProviderDefinitionInput', { description: 'Full replacement; omitted fields take the provider type defaults' })
export class LlmProviderDefinitionInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true, description: 'the provider type code' }) code?: string
  @Field(() => String, { nullable: true }) displayName?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true, description: 'http(s) URL' }) iconUrl?: string
  @Field(() => String, { nullable: true, description: 'http(s) URL' }) docsUrl?: string
  @Field(() => String, { nullable: true, description: 'default OTHER' }) providerType?: string
  @Field(() => String, { nullable: true }) wireProtocol?: string
  @Field(() => String, { nullable: true }) defaultEndpoint?: string
  @Field(() => String, { nullable: true }) defaultApiVersion?: string
  @Field(() => String, { nullable: true }) defaultAuthScheme?: string
  @Field(() => String, { nullable: true }) defaultAuthHeaderName?: string
  @Field(() => String, { nullable: true }) deploymentType?: string
  @Field(() => String, { nullable: true }) defaultChatCompletionPath?: string
  @Field(() => String, { nullable: true }) defaultEmbeddingPath?: string
  @Field(() => String, { nullable: true }) defaultAudioTranscriptionPath?: string
  @Field(() => String, { nullable: true }) defaultAudioSpeechPath?: string
  @Field(() => String, { nullable: true }) defaultImageGenerationPath?: string
  @Field(() => String, { nullable: true }) defaultResponsesPath?: string
}

@ObjectType('LlmProviderDefinitionWrite')
export class LlmProviderDefinitionWriteType {
  @Field(() => LlmProviderDefinitionType) definition: LlmProviderDefinitionType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

@ObjectType('LlmCatalogModel', { description: 'An entry of the project model catalog; its name is {providerCode}/{modelId}, or the modelId (older shape)' })
export class LlmCatalogModelType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) providerCode: string | null
  @Field(() => String, { nullable: true }) providerDefinitionId: string | null
  @Field(() => String) modelId: string
  @Field(() => String, { nullable: true }) displayName: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { nullable: true }) providerType: string | null
  @Field(() => Int, { nullable: true }) contextWindow: number | null
  @Field(() => Int, { nullable: true }) maxOutputTokens: number | null
  @Field(() => Float, { nullable: true }) pricePerMillionInput: number | null
  @Field(() => Float, { nullable: true }) pricePerMillionOutput: number | null
  @Field(() => Float, { nullable: true }) pricePerMillionCached: number | null
  @Field(() => Float, { nullable: true }) pricePerImage: number | null
  @Field(() => Float, { nullable: true }) pricePerAudioMinute: number | null
  @Field(() => Float, { nullable: true }) pricePerCharacterTts: number | null
  @Field(() => [String]) capabilities: string[]
  @Field(() => String, { nullable: true }) modality: string | null
  @Field(() => Boolean) isDeprecated: boolean
  @Field(() => GraphQLISODateTime, { nullable: true }) deprecatedAt: Date | null
  @Field(() => GraphQLISODateTime, { nullable: true }) sunsetAt: Date | null
  @Field(() => Boolean) builtIn: boolean
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@InputType('LlmCatalogModelInput', { description: 'Full replacement. With name: the vendor shape (providerCode and modelId required; name {providerCode}/{modelId}); without: modelId is the name' })
export class LlmCatalogModelInputType {
  @Field(() => String, { nullable: true, description: 'must equal the modelId argument (the entry name); {providerCode}/{modelId}' }) name?: string
  @Field(() => String, { nullable: true }) providerCode?: string
  @Field(() => String, { nullable: true }) providerDefinitionId?: string
  @Field(() => String, { nullable: true, description: 'without name: must equal the modelId argument; defaults to it' }) modelId?: string
  @Field(() => String, { nullable: true }) displayName?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true }) providerType?: string
  @Field(() => Int, { nullable: true }) contextWindow?: number
  @Field(() => Int, { nullable: true }) maxOutputTokens?: number
  @Field(() => Float, { nullable: true }) pricePerMillionInput?: number
  @Field(() => Float, { nullable: true }) pricePerMillionOutput?: number
  @Field(() => Float, { nullable: true }) pricePerMillionCached?: number
  @Field(() => Float, { nullable: true }) pricePerImage?: number
  @Field(() => Float, { nullable: true }) pricePerAudioMinute?: number
  @Field(() => Float, { nullable: true }) pricePerCharacterTts?: number
  @Field(() => [String], { nullable: true }) capabilities?: string[]
  @Field(() => String, { nullable: true }) modality?: string
  @Field(() => Boolean, { nullable: true }) isDeprecated?: boolean
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) deprecatedAt?: string
  @Field(() => String, { nullable: true, description: 'ISO 8601' }) sunsetAt?: string
  @Field(() => Boolean, { nullable: true, description: 'only false' }) builtIn?: boolean
}

@ObjectType('LlmCatalogModelWrite')
export class LlmCatalogModelWriteType {
  @Field(() => LlmCatalogModelType) model: LlmCatalogModelType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

// ---- vector stores -----------------------------------------------------------------------------------------

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

@ObjectType('LlmProviderConnectionTest', { description: 'The outcome of a provider connection test, run by this service (no worker)' })
export class LlmProviderConnectionTestType {
  @Field(() => Boolean) success: boolean
  @Field(() => String, { description: 'always apimanager: the probe runs here' }) envName: string
  @Field(() => String, { description: 'LLM provider connection test successful, or why the probe failed' }) detail: string
}

// ---- knowledge bases ---------------------------------------------------------------------------------------

@ObjectType('KnowledgeChunk')
export class KnowledgeChunkType {
  @Field(() => Int) ordinal: number
  @Field(() => String) content: string
}

@ObjectType('KnowledgeDocument', { description: 'A document of a knowledge base, addressed by its id' })
export class KnowledgeDocumentType {
  @Field(() => String) id: string
  @Field(() => String) knowledgeBaseName: string
  @Field(() => String) fileName: string
  @Field(() => String) mimeType: string
  @Field(() => Int) sizeBytes: number
  @Field(() => String) sha256: string
  @Field(() => Int) chunkCount: number
  @Field(() => String) embeddingModel: string
  @Field(() => Int) dimension: number
  @Field(() => GraphQLISODateTime) indexedAt: Date
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => [KnowledgeChunkType], { nullable: true, description: 'only on the single-document query' }) chunks?: KnowledgeChunkType[]
}

@ObjectType('KnowledgeBase')
export class KnowledgeBaseType {
  @Field(() => String) id: string
  @Field(() => String) projectName: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { description: 'id of the LLM provider that embeds (connection references are ids)' }) embeddingProviderId: string
  @Field(() => String) embeddingProviderName: string
  @Field(() => String) embeddingModel: string
  @Field(() => String, { nullable: true }) vectorDbId: string | null
  @Field(() => String, { nullable: true }) vectorDbName: string | null
  @Field(() => String, { nullable: true }) collectionName: string | null
  @Field(() => Int) chunkSize: number
  @Field(() => Int) chunkOverlap: number
  @Field(() => Int) documentCount: number
  @Field(() => Int) chunkCount: number
  @Field(() => GraphQLISODateTime) createdAt: Date
  @Field(() => GraphQLISODateTime) updatedAt: Date
}

@InputType('KnowledgeBaseInput', { description: 'Full replacement; POST reindexKnowledgeBase after changing provider, model or chunking' })
export class KnowledgeBaseInputType {
  @Field(() => String, { nullable: true }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { description: 'id of an LLM provider of the project with an embeddings path' }) embeddingProviderId: string
  @Field(() => String) embeddingModel: string
  @Field(() => String, { nullable: true, description: 'id of a vector store of the project' }) vectorDbId?: string
  @Field(() => String, { nullable: true }) collectionName?: string
  @Field(() => Int, { nullable: true, description: 'characters, 100..8000, default 1000' }) chunkSize?: number
  @Field(() => Int, { nullable: true, description: 'characters, 0..chunkSize/2, default min(100, chunkSize/2)' }) chunkOverlap?: number
}

@ObjectType('KnowledgeBaseWrite')
export class KnowledgeBaseWriteType {
  @Field(() => KnowledgeBaseType) knowledgeBase: KnowledgeBaseType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

@ObjectType('KnowledgeDocumentWrite')
export class KnowledgeDocumentWriteType {
  @Field(() => KnowledgeDocumentType) document: KnowledgeDocumentType
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

// ---- pages ----------------------------------------------------------------------------------------------------

@ObjectType('LlmProviderPage')
export class LlmProviderPage extends PageOf(LlmProviderType, 'LlmProviderPage') {}

@ObjectType('LlmCatalogModelPage')
export class LlmCatalogModelPage extends PageOf(LlmCatalogModelType, 'LlmCatalogModelPage') {}

@ObjectType('VectorDbPage')
export class VectorDbPage extends PageOf(VectorDbType, 'VectorDbPage') {}

@ObjectType('KnowledgeBasePage')
export class KnowledgeBasePage extends PageOf(KnowledgeBaseType, 'KnowledgeBasePage') {}

@ObjectType('KnowledgeDocumentPage')
export class KnowledgeDocumentPage extends PageOf(KnowledgeDocumentType, 'KnowledgeDocumentPage') {}
