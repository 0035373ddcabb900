import { Field, Float, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql'
import { DeploymentResultType, PageOf } from '../../platform/graphql/types.js'
import { AUTH_SCHEMES, MODALITIES, PROVIDER_TYPE_NAMES, REQUEST_TYPES, WIRE_PROTOCOLS } from './providers/catalog.js'

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

@ObjectType('LlmProviderConnectionTest', { description: 'The outcome of a provider connection test, run by this service (no worker)' })
export class LlmProviderConnectionTestType {
  @Field(() => Boolean) success: boolean
  @Field(() => String, { description: 'always apimanager: the probe runs here' }) envName: string
  @Field(() => String, { description: 'LLM provider connection test successful, or why the probe failed' }) detail: string
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

@ObjectType('KnowledgeBasePage')
export class KnowledgeBasePage extends PageOf(KnowledgeBaseType, 'KnowledgeBasePage') {}

@ObjectType('KnowledgeDocumentPage')
export class KnowledgeDocumentPage extends PageOf(KnowledgeDocumentType, 'KnowledgeDocumentPage') {}
