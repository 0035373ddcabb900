-- CreateEnum
CREATE TYPE "AiBudgetTargetType" AS ENUM ('CREDENTIAL_ORGANIZATION', 'API_PROXY', 'PROJECT', 'CREDENTIAL_ALLOWED_API_PROXY');

-- CreateEnum
CREATE TYPE "AiBudgetSource" AS ENUM ('CREDENTIAL', 'ORGANIZATION', 'INHERIT');

-- CreateEnum
CREATE TYPE "AiPresetFamily" AS ENUM ('DLP', 'PRIVACY', 'PROMPT_GUARD', 'PROMPT_DECORATOR', 'TOPIC_CATEGORY', 'PROMPT_TEMPLATE');

-- CreateTable
CREATE TABLE "AiGatewaySettings" (
    "id" TEXT NOT NULL DEFAULT 'current',
    "defaultConnectTimeoutSeconds" INTEGER NOT NULL DEFAULT 10,
    "defaultStreamTimeoutSeconds" INTEGER NOT NULL DEFAULT 120,
    "defaultRetryCount" INTEGER NOT NULL DEFAULT 0,
    "maxAiRequestBodyBytes" INTEGER NOT NULL DEFAULT 10485760,
    "maxAiBinaryRequestBodyBytes" INTEGER NOT NULL DEFAULT 26214400,
    "maxAiBinaryResponseBodyBytes" INTEGER NOT NULL DEFAULT 26214400,
    "maxToolTurns" INTEGER NOT NULL DEFAULT 5,
    "defaultBudget" JSONB,
    "defaultAnonymousBudget" JSONB,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "AiGatewaySettings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AiBudget" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "targetType" "AiBudgetTargetType" NOT NULL,
    "targetId" TEXT NOT NULL,
    "budgetSource" "AiBudgetSource",
    "budget" JSONB NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "AiBudget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AiPreset" (
    "id" TEXT NOT NULL,
    "presetKey" TEXT NOT NULL,
    "family" "AiPresetFamily" NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "content" JSONB NOT NULL,
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "overridden" BOOLEAN NOT NULL DEFAULT false,
    "builtInDigest" TEXT,
    "deletedAt" TIMESTAMP(3),
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AiPreset_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AiBudget_projectId_idx" ON "AiBudget"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "AiBudget_targetType_targetId_key" ON "AiBudget"("targetType", "targetId");

-- CreateIndex
CREATE UNIQUE INDEX "AiPreset_presetKey_key" ON "AiPreset"("presetKey");

-- CreateIndex
CREATE INDEX "AiPreset_family_projectId_deletedAt_idx" ON "AiPreset"("family", "projectId", "deletedAt");

-- CreateIndex
CREATE UNIQUE INDEX "AiPreset_family_projectId_nameKey_key" ON "AiPreset"("family", "projectId", "nameKey");

-- AddForeignKey
ALTER TABLE "AiBudget" ADD CONSTRAINT "AiBudget_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AiPreset" ADD CONSTRAINT "AiPreset_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
