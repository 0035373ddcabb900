/**
 * The one catalog of provider types (spec §2.7): every type's wire protocol, defaults and request paths.
 * It fills blank provider fields and is also the source of the built-in provider definitions.
 */

export const WIRE_PROTOCOLS = ['OPENAI', 'ANTHROPIC', 'GEMINI', 'BEDROCK', 'COHERE'] as const
export type WireProtocol = (typeof WIRE_PROTOCOLS)[number]

/** AWS_SIGV4 is the cloud-signature constant: the request is signed with apiKey/apiSecret as access key pair. */
export const AUTH_SCHEMES = ['BEARER', 'API_KEY_HEADER', 'BASIC', 'OAUTH2', 'NONE', 'CUSTOM', 'AWS_SIGV4'] as const
export type AuthScheme = (typeof AUTH_SCHEMES)[number]

export const DEPLOYMENT_TYPES = ['CLOUD', 'ON_PREM'] as const
export type DeploymentType = (typeof DEPLOYMENT_TYPES)[number]

export const MODALITIES = ['TEXT', 'VISION', 'AUDIO', 'EMBEDDING', 'RERANK', 'MULTIMODAL', 'IMAGE'] as const

export const HEALTH_STATUSES = ['UNKNOWN', 'HEALTHY', 'DOWN'] as const

/** The request types a provider serves, each with its path field (spec §2.7). */
export const REQUEST_TYPES = ['CHAT_COMPLETION', 'EMBEDDING', 'AUDIO_TRANSCRIPTION', 'AUDIO_SPEECH', 'IMAGE_GENERATION', 'RESPONSES'] as const
export type RequestType = (typeof REQUEST_TYPES)[number]

export const PATH_FIELDS = {
  CHAT_COMPLETION: 'defaultChatCompletionPath',
  EMBEDDING: 'defaultEmbeddingPath',
  AUDIO_TRANSCRIPTION: 'defaultAudioTranscriptionPath',
  AUDIO_SPEECH: 'defaultAudioSpeechPath',
  IMAGE_GENERATION: 'defaultImageGenerationPath',
  RESPONSES: 'defaultResponsesPath',
} as const satisfies Record<RequestType, string>
export type PathField = (typeof PATH_FIELDS)[RequestType]
export type DefaultPaths = Record<PathField, string | null>

/** How apiVersion reaches the provider (spec §2.7): a query parameter, a header, or not at all. */
export type VersionPlacement = { kind: 'query'; name: string } | { kind: 'header'; name: string } | { kind: 'none' }

export interface ProviderTypeEntry {
  displayName: string
  wireProtocol: WireProtocol
  endpoint: string
  apiVersion: string | null
  authScheme: AuthScheme
  authHeaderName: string | null
  deploymentType: DeploymentType
  version: VersionPlacement
  paths: DefaultPaths
}

const OPENAI_PATHS: DefaultPaths = {
  defaultChatCompletionPath: '/chat/completions',
  defaultEmbeddingPath: '/embeddings',
  defaultAudioTranscriptionPath: '/audio/transcriptions',
  defaultAudioSpeechPath: '/audio/speech',
  defaultImageGenerationPath: '/images/generations',
  defaultResponsesPath: '/responses',
}
const chatOnly = (chat: string, embedding: string | null = null): DefaultPaths => ({
  defaultChatCompletionPath: chat,
  defaultEmbeddingPath: embedding,
  defaultAudioTranscriptionPath: null,
  defaultAudioSpeechPath: null,
  defaultImageGenerationPath: null,
  defaultResponsesPath: null,
})

const NO_VERSION: VersionPlacement = { kind: 'none' }

/** An OpenAI-compatible vendor: bearer key, OpenAI paths, no version. */
const openAiCompatible = (displayName: string, endpoint: string, deploymentType: DeploymentType = 'CLOUD', paths = OPENAI_PATHS): ProviderTypeEntry => ({
  displayName, wireProtocol: 'OPENAI', endpoint, apiVersion: null, authScheme: 'BEARER', authHeaderName: 'Authorization', deploymentType, version: NO_VERSION, paths,
})

/** 17 vendor-named types plus OTHER. Variable references (`${name}`) in endpoints and paths are resolved at request time. */
export const PROVIDER_TYPES = {
  OPENAI: openAiCompatible('OpenAI', 'https://api.openai.com/v1'),
  // the one cloud-hosted type whose apiVersion is an api-version query parameter
  AZURE_OPENAI: {
    displayName: 'Azure OpenAI', wireProtocol: 'OPENAI', endpoint: 'https://${resourceName}.openai.azure.com/openai', apiVersion: '2024-10-21',
    authScheme: 'API_KEY_HEADER', authHeaderName: 'api-key', deploymentType: 'CLOUD', version: { kind: 'query', name: 'api-version' },
    paths: {
      defaultChatCompletionPath: '/deployments/${model}/chat/completions',
      defaultEmbeddingPath: '/deployments/${model}/embeddings',
      defaultAudioTranscriptionPath: '/deployments/${model}/audio/transcriptions',
      defaultAudioSpeechPath: '/deployments/${model}/audio/speech',
      defaultImageGenerationPath: '/deployments/${model}/images/generations',
      defaultResponsesPath: '/responses',
    },
  },
  // the type whose apiVersion travels as a version header
  ANTHROPIC: {
    displayName: 'Anthropic', wireProtocol: 'ANTHROPIC', endpoint: 'https://api.anthropic.com/v1', apiVersion: '2023-06-01',
    authScheme: 'API_KEY_HEADER', authHeaderName: 'x-api-key', deploymentType: 'CLOUD', version: { kind: 'header', name: 'anthropic-version' },
    paths: chatOnly('/messages'),
  },
  GOOGLE_GEMINI: {
    displayName: 'Google Gemini', wireProtocol: 'GEMINI', endpoint: 'https://generativelanguage.googleapis.com/v1beta', apiVersion: null,
    authScheme: 'API_KEY_HEADER', authHeaderName: 'x-goog-api-key', deploymentType: 'CLOUD', version: NO_VERSION,
    paths: chatOnly('/models/${model}:generateContent', '/models/${model}:batchEmbedContents'),
  },
  // the two cloud-native types: apiVersion has no effect
  GOOGLE_VERTEX_AI: {
    displayName: 'Google Vertex AI', wireProtocol: 'GEMINI', endpoint: 'https://${region}-aiplatform.googleapis.com/v1', apiVersion: null,
    authScheme: 'OAUTH2', authHeaderName: 'Authorization', deploymentType: 'CLOUD', version: NO_VERSION,
    paths: chatOnly(
      '/projects/${gcpProject}/locations/${region}/publishers/google/models/${model}:generateContent',
      '/projects/${gcpProject}/locations/${region}/publishers/google/models/${model}:predict',
    ),
  },
  AWS_BEDROCK: {
    displayName: 'AWS Bedrock', wireProtocol: 'BEDROCK', endpoint: 'https://bedrock-runtime.${region}.amazonaws.com', apiVersion: null,
    authScheme: 'AWS_SIGV4', authHeaderName: null, deploymentType: 'CLOUD', version: NO_VERSION,
    paths: chatOnly('/model/${model}/converse', '/model/${model}/invoke'),
  },
  MISTRAL: openAiCompatible('Mistral AI', 'https://api.mistral.ai/v1', 'CLOUD', { ...chatOnly('/chat/completions', '/embeddings') }),
  COHERE: {
    displayName: 'Cohere', wireProtocol: 'COHERE', endpoint: 'https://api.cohere.com/v2', apiVersion: null,
    authScheme: 'BEARER', authHeaderName: 'Authorization', deploymentType: 'CLOUD', version: NO_VERSION,
    paths: chatOnly('/chat', '/embed'),
  },
  GROQ: openAiCompatible('Groq', 'https://api.groq.com/openai/v1', 'CLOUD', { ...OPENAI_PATHS, defaultEmbeddingPath: null, defaultImageGenerationPath: null }),
  DEEPSEEK: openAiCompatible('DeepSeek', 'https://api.deepseek.com/v1', 'CLOUD', chatOnly('/chat/completions')),
  XAI: openAiCompatible('xAI', 'https://api.x.ai/v1'),
  TOGETHER_AI: openAiCompatible('Together AI', 'https://api.together.xyz/v1'),
  FIREWORKS_AI: openAiCompatible('Fireworks AI', 'https://api.fireworks.ai/inference/v1'),
  PERPLEXITY: openAiCompatible('Perplexity', 'https://api.perplexity.ai', 'CLOUD', chatOnly('/chat/completions')),
  OPENROUTER: openAiCompatible('OpenRouter', 'https://openrouter.ai/api/v1', 'CLOUD', chatOnly('/chat/completions', '/embeddings')),
  HUGGING_FACE: openAiCompatible('Hugging Face', 'https://router.huggingface.co/v1'),
  OLLAMA: { ...openAiCompatible('Ollama', 'http://localhost:11434/v1', 'ON_PREM'), authScheme: 'NONE', authHeaderName: null },
  OTHER: openAiCompatible('Other (OpenAI-compatible)', 'http://localhost:8000/v1', 'ON_PREM'),
} as const satisfies Record<string, ProviderTypeEntry>

export type ProviderType = keyof typeof PROVIDER_TYPES
export const PROVIDER_TYPE_NAMES = Object.keys(PROVIDER_TYPES) as ProviderType[]
/** providerType when none is sent */
export const DEFAULT_PROVIDER_TYPE: ProviderType = 'OTHER'

export const providerTypeEntry = (type: string): ProviderTypeEntry => PROVIDER_TYPES[type as ProviderType] ?? PROVIDER_TYPES.OTHER

/** A provider definition as every surface shows it; built-ins are derived from PROVIDER_TYPES. */
export interface ProviderDefinitionValues extends DefaultPaths {
  id: string
  name: string
  displayName: string | null
  description: string | null
  providerType: string
  wireProtocol: string
  defaultEndpoint: string | null
  defaultApiVersion: string | null
  defaultAuthScheme: string | null
  defaultAuthHeaderName: string | null
  deploymentType: string | null
  builtIn: boolean
}

/** Built-in definition names are the lower-case type with '-' (e.g. azure-openai); the id equals the name. */
export const builtInDefinitionName = (type: ProviderType) => type.toLowerCase().replace(/_/g, '-')

export const BUILT_IN_DEFINITIONS: ProviderDefinitionValues[] = PROVIDER_TYPE_NAMES.map((type) => {
  const e: ProviderTypeEntry = PROVIDER_TYPES[type]
  const name = builtInDefinitionName(type)
  return {
    id: name,
    name,
    displayName: e.displayName,
    description: `Built-in definition for ${e.displayName}`,
    providerType: type,
    wireProtocol: e.wireProtocol,
    defaultEndpoint: e.endpoint,
    defaultApiVersion: e.apiVersion,
    defaultAuthScheme: e.authScheme,
    defaultAuthHeaderName: e.authHeaderName,
    deploymentType: e.deploymentType,
    builtIn: true,
    ...e.paths,
  }
})

export const builtInDefinition = (nameOrId: string) => BUILT_IN_DEFINITIONS.find((d) => d.name === nameOrId.trim().toLowerCase()) ?? null
export const builtInDefinitionForType = (type: string) => builtInDefinition(builtInDefinitionName((PROVIDER_TYPES[type as ProviderType] ? type : 'OTHER') as ProviderType))!
