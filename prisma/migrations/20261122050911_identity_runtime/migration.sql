-- CreateEnum
CREATE TYPE "EntitlementSubjectType" AS ENUM ('CONSUMER', 'APPLICATION');

-- CreateEnum
CREATE TYPE "EntitlementTargetType" AS ENUM ('API_PROXY', 'API_PROXY_GROUP', 'API_PRODUCT', 'API_PROXY_ENV');

-- CreateEnum
CREATE TYPE "EntitlementStatus" AS ENUM ('DRAFT', 'ACTIVE', 'ENDED');

-- CreateEnum
CREATE TYPE "EntitlementSource" AS ENUM ('LEGACY_CAP', 'MANUAL', 'IMPORT', 'PORTAL', 'MIGRATION');

-- CreateEnum
CREATE TYPE "RuntimeDeploymentState" AS ENUM ('IN_SYNC', 'DEGRADED', 'PENDING');

-- CreateEnum
CREATE TYPE "SecretFormat" AS ENUM ('SEALED', 'PLAIN', 'REFERENCE');

-- AlterTable
ALTER TABLE "ApiClient" ADD COLUMN     "allowedGrantTypes" TEXT[],
ADD COLUMN     "jwtSignatureAlgorithm" TEXT,
ADD COLUMN     "migratedFromCredentialId" TEXT,
ADD COLUMN     "organizationId" TEXT,
ADD COLUMN     "refreshTokenAllowed" BOOLEAN,
ADD COLUMN     "refreshTokenCount" INTEGER,
ADD COLUMN     "refreshTokenExpiresInAmount" BIGINT,
ADD COLUMN     "refreshTokenExpiresInUnit" TEXT,
ADD COLUMN     "tokenEndpointAuthMethod" TEXT,
ADD COLUMN     "tokenExpiresInAmount" BIGINT,
ADD COLUMN     "tokenExpiresInUnit" TEXT,
ADD COLUMN     "tokenIssuanceProfile" TEXT,
ADD COLUMN     "tokenNeverExpires" BOOLEAN;

-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "passwordFormat" "SecretFormat" NOT NULL DEFAULT 'SEALED',
ADD COLUMN     "revokedAt" TIMESTAMP(3),
ADD COLUMN     "suspendedByApplication" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ApiClientSecret" (
    "id" TEXT NOT NULL,
    "apiClientId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "secretCipher" TEXT NOT NULL,
    "origin" TEXT NOT NULL DEFAULT 'ISSUED',
    "recoveryState" TEXT NOT NULL DEFAULT 'AVAILABLE',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "ApiClientSecret_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiClientRuntime" (
    "apiClientId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "state" "RuntimeDeploymentState" NOT NULL,
    "environments" JSONB NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApiClientRuntime_pkey" PRIMARY KEY ("apiClientId")
);

-- CreateTable
CREATE TABLE "DeliveryOutbox" (
    "id" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "workerUrls" TEXT[],
    "message" JSONB NOT NULL,
    "subject" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "leaseUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeliveryOutbox_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Entitlement" (
    "id" TEXT NOT NULL,
    "entitlementKey" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "subjectType" "EntitlementSubjectType" NOT NULL,
    "credentialId" TEXT,
    "applicationId" TEXT,
    "targetType" "EntitlementTargetType" NOT NULL,
    "targetRef" TEXT NOT NULL,
    "environmentRef" TEXT,
    "status" "EntitlementStatus" NOT NULL DEFAULT 'ACTIVE',
    "validFrom" TIMESTAMP(3),
    "validUntil" TIMESTAMP(3),
    "source" "EntitlementSource" NOT NULL DEFAULT 'MANUAL',
    "version" INTEGER NOT NULL DEFAULT 1,
    "assignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "assignedBy" TEXT NOT NULL,
    "endedAt" TIMESTAMP(3),
    "endedBy" TEXT,
    "endedReason" TEXT,
    "organizationId" TEXT,

    CONSTRAINT "Entitlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProductSubscription" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "applicationId" TEXT NOT NULL,
    "productName" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'APPROVED',
    "organizationId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProductSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiClientSecret_apiClientId_version_key" ON "ApiClientSecret"("apiClientId", "version");

-- CreateIndex
CREATE INDEX "DeliveryOutbox_deliveredAt_nextAttemptAt_idx" ON "DeliveryOutbox"("deliveredAt", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "DeliveryOutbox_subject_idx" ON "DeliveryOutbox"("subject");

-- CreateIndex
CREATE UNIQUE INDEX "Entitlement_entitlementKey_key" ON "Entitlement"("entitlementKey");

-- CreateIndex
CREATE INDEX "Entitlement_credentialId_idx" ON "Entitlement"("credentialId");

-- CreateIndex
CREATE INDEX "Entitlement_applicationId_idx" ON "Entitlement"("applicationId");

-- CreateIndex
CREATE UNIQUE INDEX "ProductSubscription_applicationId_productName_key" ON "ProductSubscription"("applicationId", "productName");

-- CreateIndex
CREATE INDEX "ApiClient_organizationId_idx" ON "ApiClient"("organizationId");

-- CreateIndex
CREATE INDEX "Credential_projectId_fullName_idx" ON "Credential"("projectId", "fullName");

-- AddForeignKey
ALTER TABLE "ApiClient" ADD CONSTRAINT "ApiClient_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiClientSecret" ADD CONSTRAINT "ApiClientSecret_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiClientRuntime" ADD CONSTRAINT "ApiClientRuntime_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProductSubscription" ADD CONSTRAINT "ProductSubscription_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ProductSubscription" ADD CONSTRAINT "ProductSubscription_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE SET NULL ON UPDATE CASCADE;
