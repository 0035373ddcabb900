-- AlterTable
ALTER TABLE "ApiProxy" ADD COLUMN     "description" TEXT,
ADD COLUMN     "revision" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "routing" JSONB,
ADD COLUMN     "routingMode" TEXT;

-- CreateTable
CREATE TABLE "AiProxyProviderRef" (
    "id" TEXT NOT NULL,
    "apiProxyId" TEXT NOT NULL,
    "providerName" TEXT NOT NULL,

    CONSTRAINT "AiProxyProviderRef_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiEndpointVersion" (
    "id" TEXT NOT NULL,
    "apiProxyId" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "deprecated" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApiEndpointVersion_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GatewayEndpoint" (
    "id" TEXT NOT NULL,
    "apiProxyId" TEXT NOT NULL,
    "version" TEXT NOT NULL DEFAULT '',
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "pathKey" TEXT NOT NULL,
    "operationId" TEXT NOT NULL,
    "description" TEXT,
    "kind" TEXT NOT NULL,
    "parameters" JSONB NOT NULL,
    "requestBody" JSONB,
    "responses" JSONB NOT NULL,
    "consumes" TEXT[],
    "produces" TEXT[],
    "backendPath" TEXT,
    "backendMethod" TEXT,
    "rewriteRules" JSONB NOT NULL,
    "policies" JSONB NOT NULL,
    "routing" JSONB,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "GatewayEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmProvider" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "providerType" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "apiVersion" TEXT,
    "organizationId" TEXT,
    "authScheme" TEXT NOT NULL,
    "authHeaderName" TEXT,
    "apiKeyCipher" TEXT,
    "apiSecretCipher" TEXT,
    "region" TEXT,
    "serviceAccountJsonCipher" TEXT,
    "supportedModels" JSONB NOT NULL,
    "providerRpmLimit" INTEGER,
    "providerTpmLimit" INTEGER,
    "coldStartRetryEnabled" BOOLEAN NOT NULL DEFAULT false,
    "deploymentType" TEXT NOT NULL,
    "providerDefinitionId" TEXT,
    "allowedModelIds" TEXT[],
    "metadata" JSONB NOT NULL,
    "wireProtocol" TEXT NOT NULL,
    "defaultChatCompletionPath" TEXT,
    "defaultEmbeddingPath" TEXT,
    "defaultAudioTranscriptionPath" TEXT,
    "defaultAudioSpeechPath" TEXT,
    "defaultImageGenerationPath" TEXT,
    "defaultResponsesPath" TEXT,
    "lastHealthCheckAt" TIMESTAMP(3),
    "healthStatus" TEXT NOT NULL DEFAULT 'UNKNOWN',
    "lastLatencyMs" INTEGER,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LlmProvider_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmProviderDefinition" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "displayName" TEXT,
    "description" TEXT,
    "providerType" TEXT NOT NULL,
    "wireProtocol" TEXT NOT NULL,
    "defaultEndpoint" TEXT,
    "defaultApiVersion" TEXT,
    "defaultAuthScheme" TEXT,
    "defaultAuthHeaderName" TEXT,
    "deploymentType" TEXT,
    "defaultChatCompletionPath" TEXT,
    "defaultEmbeddingPath" TEXT,
    "defaultAudioTranscriptionPath" TEXT,
    "defaultAudioSpeechPath" TEXT,
    "defaultImageGenerationPath" TEXT,
    "defaultResponsesPath" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LlmProviderDefinition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmModelDefinition" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "displayName" TEXT,
    "description" TEXT,
    "providerType" TEXT,
    "contextWindow" INTEGER,
    "maxOutputTokens" INTEGER,
    "pricePerMillionInput" DOUBLE PRECISION,
    "pricePerMillionOutput" DOUBLE PRECISION,
    "pricePerMillionCached" DOUBLE PRECISION,
    "capabilities" TEXT[],
    "modality" TEXT,
    "isDeprecated" BOOLEAN NOT NULL DEFAULT false,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LlmModelDefinition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "VectorDb" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "description" TEXT,
    "dbType" TEXT NOT NULL,
    "defaultCollectionName" TEXT,
    "embeddingDimension" INTEGER,
    "distanceMetric" TEXT,
    "transportFamily" TEXT NOT NULL,
    "transport" JSONB NOT NULL,
    "passwordCipher" TEXT,
    "apiKeyCipher" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "VectorDb_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeBase" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "description" TEXT,
    "embeddingProviderId" TEXT NOT NULL,
    "embeddingModel" TEXT NOT NULL,
    "vectorDbId" TEXT,
    "collectionName" TEXT,
    "chunkSize" INTEGER NOT NULL,
    "chunkOverlap" INTEGER NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KnowledgeBase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeDocument" (
    "id" TEXT NOT NULL,
    "knowledgeBaseId" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "mimeType" TEXT NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "chunkCount" INTEGER NOT NULL,
    "embeddingModel" TEXT NOT NULL,
    "dimension" INTEGER NOT NULL,
    "indexedAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "KnowledgeDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "KnowledgeChunk" (
    "id" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "knowledgeBaseId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "embedding" DOUBLE PRECISION[],

    CONSTRAINT "KnowledgeChunk_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AiProxyProviderRef_providerName_idx" ON "AiProxyProviderRef"("providerName");

-- CreateIndex
CREATE UNIQUE INDEX "AiProxyProviderRef_apiProxyId_providerName_key" ON "AiProxyProviderRef"("apiProxyId", "providerName");

-- CreateIndex
CREATE UNIQUE INDEX "ApiEndpointVersion_apiProxyId_version_key" ON "ApiEndpointVersion"("apiProxyId", "version");

-- CreateIndex
CREATE INDEX "GatewayEndpoint_apiProxyId_version_path_idx" ON "GatewayEndpoint"("apiProxyId", "version", "path");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayEndpoint_apiProxyId_version_method_pathKey_key" ON "GatewayEndpoint"("apiProxyId", "version", "method", "pathKey");

-- CreateIndex
CREATE UNIQUE INDEX "GatewayEndpoint_apiProxyId_version_operationId_key" ON "GatewayEndpoint"("apiProxyId", "version", "operationId");

-- CreateIndex
CREATE UNIQUE INDEX "LlmProvider_projectId_name_key" ON "LlmProvider"("projectId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "LlmProvider_projectId_nameKey_key" ON "LlmProvider"("projectId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "LlmProviderDefinition_projectId_nameKey_key" ON "LlmProviderDefinition"("projectId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "LlmModelDefinition_projectId_nameKey_key" ON "LlmModelDefinition"("projectId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "VectorDb_projectId_nameKey_key" ON "VectorDb"("projectId", "nameKey");

-- CreateIndex
CREATE INDEX "KnowledgeBase_embeddingProviderId_idx" ON "KnowledgeBase"("embeddingProviderId");

-- CreateIndex
CREATE INDEX "KnowledgeBase_vectorDbId_idx" ON "KnowledgeBase"("vectorDbId");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeBase_projectId_nameKey_key" ON "KnowledgeBase"("projectId", "nameKey");

-- CreateIndex
CREATE INDEX "KnowledgeDocument_knowledgeBaseId_createdAt_idx" ON "KnowledgeDocument"("knowledgeBaseId", "createdAt");

-- CreateIndex
CREATE INDEX "KnowledgeChunk_knowledgeBaseId_idx" ON "KnowledgeChunk"("knowledgeBaseId");

-- CreateIndex
CREATE UNIQUE INDEX "KnowledgeChunk_documentId_ordinal_key" ON "KnowledgeChunk"("documentId", "ordinal");

-- AddForeignKey
ALTER TABLE "AiProxyProviderRef" ADD CONSTRAINT "AiProxyProviderRef_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiEndpointVersion" ADD CONSTRAINT "ApiEndpointVersion_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GatewayEndpoint" ADD CONSTRAINT "GatewayEndpoint_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmProvider" ADD CONSTRAINT "LlmProvider_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmProviderDefinition" ADD CONSTRAINT "LlmProviderDefinition_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LlmModelDefinition" ADD CONSTRAINT "LlmModelDefinition_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "VectorDb" ADD CONSTRAINT "VectorDb_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeBase" ADD CONSTRAINT "KnowledgeBase_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeBase" ADD CONSTRAINT "KnowledgeBase_embeddingProviderId_fkey" FOREIGN KEY ("embeddingProviderId") REFERENCES "LlmProvider"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeBase" ADD CONSTRAINT "KnowledgeBase_vectorDbId_fkey" FOREIGN KEY ("vectorDbId") REFERENCES "VectorDb"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeDocument" ADD CONSTRAINT "KnowledgeDocument_knowledgeBaseId_fkey" FOREIGN KEY ("knowledgeBaseId") REFERENCES "KnowledgeBase"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "KnowledgeChunk" ADD CONSTRAINT "KnowledgeChunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "KnowledgeDocument"("id") ON DELETE CASCADE ON UPDATE CASCADE;
