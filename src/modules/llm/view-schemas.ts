import { z } from 'zod'
import { describes, type AsJson } from '../../platform/http/response-schemas.js'
import { PATH_FIELDS } from './providers/catalog.js'
import type { DefinitionView } from './providers/definitions.js'
import type { KnowledgeBaseView } from './knowledge/service.js'
import type { ModelView } from './models/service.js'
import type { ProviderView } from './providers/service.js'
import type { VectorDbView } from './vector-dbs/service.js'
import type { DocumentView } from './knowledge/documents.js'
import type { ConnectionTestResult } from './vector-dbs/connection-test.js'
import type { ProviderConnectionTest } from './providers/connection-test.js'

// The answer schemas of the AI gateway objects (spec §2.7, §2.10, §2.11, §4.5), tied at compile time to the views
// the REST routes answer (Dates as ISO 8601 strings). Secrets are only ever …Set flags.

const nullableText = z.string().nullable()
const defaultPaths = Object.fromEntries(Object.values(PATH_FIELDS).map((f) => [f, nullableText])) as Record<(typeof PATH_FIELDS)[keyof typeof PATH_FIELDS], typeof nullableText>

export const llmProviderSchema = describes<AsJson<ProviderView>>()(
  z
    .object({
      _class: z.literal('llm'),
      id: z.string(),
      projectId: z.string(),
      projectName: z.string(),
      name: z.string(),
      description: nullableText,
      enabled: z.boolean(),
      providerType: z.string(),
      endpoint: z.string(),
      apiVersion: nullableText,
      organizationId: nullableText,
      authScheme: z.string(),
      authHeaderName: nullableText,
      apiKeySet: z.boolean(),
      apiSecretSet: z.boolean(),
      serviceAccountJsonSet: z.boolean(),
      region: nullableText,
      supportedModels: z.array(
        z.object({
          modelId: z.string(),
          displayName: nullableText,
          contextWindow: z.number().nullable(),
          maxOutputTokens: z.number().nullable(),
          pricePerMillionInput: z.number().nullable(),
          pricePerMillionOutput: z.number().nullable(),
          pricePerMillionCached: z.number().nullable(),
          capabilities: z.array(z.string()),
          modality: nullableText,
          isDeprecated: z.boolean(),
        }),
      ),
      providerRpmLimit: z.number().int().nullable(),
      providerTpmLimit: z.number().int().nullable(),
      coldStartRetryEnabled: z.boolean(),
      deploymentType: z.string(),
      providerDefinitionId: nullableText,
      allowedModelIds: z.array(z.string()),
      metadata: z.array(z.object({ key: z.string(), value: nullableText, secret: z.boolean() })),
      wireProtocol: z.string(),
      lastHealthCheckAt: nullableText,
      healthStatus: z.string(),
      lastLatencyMs: z.number().nullable(),
      builtIn: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
      usedByRefs: z.array(z.string()).optional(),
      ...defaultPaths,
    })
    .meta({ id: 'LlmProvider', description: 'An LLM provider (spec §2.7): secrets as apiKeySet, apiSecretSet, serviceAccountJsonSet' }),
)

export const llmProviderDefinitionSchema = describes<AsJson<DefinitionView>>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      code: nullableText,
      displayName: nullableText,
      description: nullableText,
      iconUrl: nullableText,
      docsUrl: nullableText,
      lastUpdatedAt: z.string().nullable(),
      providerType: z.string(),
      wireProtocol: z.string(),
      defaultEndpoint: nullableText,
      defaultApiVersion: nullableText,
      defaultAuthScheme: nullableText,
      defaultAuthHeaderName: nullableText,
      deploymentType: nullableText,
      builtIn: z.boolean(),
      projectId: nullableText,
      projectName: nullableText,
      ...defaultPaths,
    })
    .meta({ id: 'LlmProviderDefinition', description: 'An LLM provider definition: built-in (projectId null) or the project’s own' }),
)

export const llmModelSchema = describes<AsJson<ModelView>>()(
  z
    .object({
      id: z.string(),
      projectId: z.string(),
      projectName: z.string(),
      name: z.string().meta({ description: '{providerCode}/{modelId}, or the modelId for an entry of the older shape' }),
      providerCode: nullableText,
      providerDefinitionId: nullableText,
      modelId: z.string(),
      displayName: nullableText,
      description: nullableText,
      providerType: nullableText,
      contextWindow: z.number().nullable(),
      maxOutputTokens: z.number().nullable(),
      pricePerMillionInput: z.number().nullable(),
      pricePerMillionOutput: z.number().nullable(),
      pricePerMillionCached: z.number().nullable(),
      pricePerImage: z.number().nullable(),
      pricePerAudioMinute: z.number().nullable(),
      pricePerCharacterTts: z.number().nullable(),
      capabilities: z.array(z.string()),
      modality: nullableText,
      isDeprecated: z.boolean(),
      deprecatedAt: z.string().nullable(),
      sunsetAt: z.string().nullable(),
      builtIn: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: 'LlmModel', description: 'A model catalog entry of a project' }),
)

const timeoutFields = { connectTimeoutMs: z.number().int().nullable(), requestTimeoutMs: z.number().int().nullable() }
const secretFlags = { passwordSet: z.boolean().optional(), apiKeySet: z.boolean().optional(), apiSecretSet: z.boolean().optional() }
const poolSchema = z.object({
  minimumIdle: z.number().int().nullable(), maximumPoolSize: z.number().int().nullable(), connectionTimeoutMs: z.number().int().nullable(),
  idleTimeoutMs: z.number().int().nullable(), maxLifetimeMs: z.number().int().nullable(),
})
const transportSchema = z.union([
  z.object({ family: z.literal('jdbc'), ...timeoutFields, connectTimeoutMs: z.number().int(), jdbcUrl: z.string(), username: nullableText, pool: poolSchema.nullable(), ...secretFlags }),
  z.object({ family: z.literal('http'), ...timeoutFields, endpoint: z.string(), apiVersion: nullableText, authScheme: z.string(), authHeaderName: nullableText, regionCode: nullableText, ...secretFlags }),
  z.object({ family: z.literal('redis'), ...timeoutFields, uri: z.string(), username: nullableText, ...secretFlags }),
])

const optionalInt = z.number().int().nullable().optional()
export const vectorDbSchema = describes<AsJson<VectorDbView>>()(
  z
    .object({
      _class: z.literal('vector-db'),
      id: z.string(),
      projectId: z.string(),
      projectName: z.string(),
      name: z.string(),
      description: nullableText,
      enabled: z.boolean(),
      dbType: z.string(),
      family: z.string().meta({ description: 'jdbc, http or redis; the flattened fields below are those of this family only' }),
      ...timeoutFields,
      jdbcUrl: z.string().optional(),
      jdbcUsername: nullableText.optional(),
      jdbcPasswordSet: z.boolean().optional(),
      poolMinimumIdle: optionalInt,
      poolMaximumPoolSize: optionalInt,
      poolConnectionTimeoutMs: optionalInt,
      poolIdleTimeoutMs: optionalInt,
      poolMaxLifetimeMs: optionalInt,
      endpoint: z.string().optional(),
      apiVersion: nullableText.optional(),
      authScheme: z.string().optional(),
      authHeaderName: nullableText.optional(),
      apiKeySet: z.boolean().optional(),
      apiSecretSet: z.boolean().optional(),
      regionCode: nullableText.optional(),
      redisUri: z.string().optional(),
      redisUsername: nullableText.optional(),
      redisPasswordSet: z.boolean().optional(),
      defaultCollectionName: nullableText,
      embeddingDimension: z.number().int().nullable(),
      distanceMetric: nullableText,
      maxBatchSize: z.number().int().nullable(),
      builtIn: z.boolean(),
      transport: transportSchema,
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: 'VectorDb', description: 'A vector store connection (spec §2.11; read fields of the vendor page, flattened, and the nested transport): secrets as *Set flags' }),
)

export const knowledgeBaseSchema = describes<AsJson<KnowledgeBaseView>>()(
  z
    .object({
      id: z.string(),
      projectId: z.string(),
      projectName: z.string(),
      name: z.string(),
      description: nullableText,
      embeddingProviderId: z.string(),
      embeddingProviderName: z.string(),
      embeddingModel: z.string(),
      vectorDbId: nullableText,
      vectorDbName: nullableText,
      collectionName: nullableText,
      chunkSize: z.number().int(),
      chunkOverlap: z.number().int(),
      documentCount: z.number().int(),
      chunkCount: z.number().int(),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .meta({ id: 'KnowledgeBase', description: 'A knowledge base (spec §2.10) with its document and chunk counts' }),
)

export const knowledgeDocumentSchema = describes<AsJson<DocumentView>>()(
  z
    .object({
      id: z.string(),
      knowledgeBaseName: z.string(),
      fileName: z.string(),
      mimeType: z.string(),
      sizeBytes: z.number().int(),
      sha256: z.string(),
      chunkCount: z.number().int(),
      embeddingModel: z.string(),
      dimension: z.number().int(),
      indexedAt: z.string(),
      createdAt: z.string(),
      // only on the single-document read: the chunks' text in order (vectors are not returned)
      chunks: z.array(z.object({ ordinal: z.number().int(), content: z.string() })).optional(),
    })
    .meta({ id: 'KnowledgeDocument', description: 'A document of a knowledge base' }),
)

/** The deploymentResult of a vector store connection test (a failed test is success false). */
export const providerConnectionTestSchema = describes<ProviderConnectionTest>()(
  z.object({ success: z.boolean(), envName: z.literal('apimanager'), detail: z.string() }),
)
export const vectorDbTestSchema = describes<ConnectionTestResult>()(
  z.object({
    success: z.boolean(), message: z.string(), envName: z.literal('apimanager'), detail: z.string(), responseTime: z.number(), reachable: z.boolean(),
    statusCode: z.number().int().nullable(), extensionVersion: nullableText,
  }),
)
