-- AlterEnum (values kept in name order, see migration enums_in_name_order)
ALTER TYPE "UserRole" ADD VALUE 'ANALYZER' BEFORE 'USER';

-- CreateTable
CREATE TABLE "Rlcl" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "executionOrder" TEXT NOT NULL DEFAULT 'FIRST',
    "cacheConnectionTimeoutInSeconds" INTEGER NOT NULL DEFAULT 3,
    "cacheErrorHandlingType" TEXT NOT NULL DEFAULT 'FAIL',
    "timeIntervalWindowType" TEXT NOT NULL DEFAULT 'FIXED',
    "showRateLimitStatisticsInResponseHeader" BOOLEAN NOT NULL DEFAULT false,
    "targetVariable" JSONB,
    "condition" JSONB,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Rlcl_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RlclCredential" (
    "rlclId" TEXT NOT NULL,
    "credentialId" TEXT NOT NULL,

    CONSTRAINT "RlclCredential_pkey" PRIMARY KEY ("rlclId","credentialId")
);

-- CreateTable
CREATE TABLE "RlclEndpoint" (
    "id" TEXT NOT NULL,
    "rlclId" TEXT NOT NULL,
    "apiProxyId" TEXT NOT NULL,
    "endpointId" TEXT,
    "entryKey" TEXT NOT NULL,
    "ruleSpec" JSONB NOT NULL,
    "settings" JSONB NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "RlclEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Rlcl_projectId_name_key" ON "Rlcl"("projectId", "name");

-- CreateIndex
CREATE INDEX "RlclCredential_credentialId_idx" ON "RlclCredential"("credentialId");

-- CreateIndex
CREATE INDEX "RlclEndpoint_apiProxyId_idx" ON "RlclEndpoint"("apiProxyId");

-- CreateIndex
CREATE INDEX "RlclEndpoint_endpointId_idx" ON "RlclEndpoint"("endpointId");

-- CreateIndex
CREATE UNIQUE INDEX "RlclEndpoint_rlclId_entryKey_key" ON "RlclEndpoint"("rlclId", "entryKey");

-- AddForeignKey
ALTER TABLE "Rlcl" ADD CONSTRAINT "Rlcl_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RlclCredential" ADD CONSTRAINT "RlclCredential_rlclId_fkey" FOREIGN KEY ("rlclId") REFERENCES "Rlcl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RlclCredential" ADD CONSTRAINT "RlclCredential_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RlclEndpoint" ADD CONSTRAINT "RlclEndpoint_rlclId_fkey" FOREIGN KEY ("rlclId") REFERENCES "Rlcl"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RlclEndpoint" ADD CONSTRAINT "RlclEndpoint_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RlclEndpoint" ADD CONSTRAINT "RlclEndpoint_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "GatewayEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
