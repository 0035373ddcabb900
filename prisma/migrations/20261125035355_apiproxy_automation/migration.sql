-- AlterTable
ALTER TABLE "ApiProxy" ADD COLUMN     "creationType" TEXT,
ADD COLUMN     "relativePath" TEXT,
ADD COLUMN     "settings" JSONB;

-- AlterTable
ALTER TABLE "ApiProxyGroup" ADD COLUMN     "clientRoute" JSONB,
ADD COLUMN     "description" TEXT;

-- CreateTable
CREATE TABLE "ApiProxyPolicy" (
    "id" TEXT NOT NULL,
    "apiProxyId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "endpointId" TEXT,
    "pipeline" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "description" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "config" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApiProxyPolicy_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiProxyDeployment" (
    "id" TEXT NOT NULL,
    "apiProxyId" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "deployedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiProxyDeployment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiProxyGroupDeployment" (
    "id" TEXT NOT NULL,
    "groupId" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "deployedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiProxyGroupDeployment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ApiProxyPolicy_apiProxyId_endpointId_pipeline_position_idx" ON "ApiProxyPolicy"("apiProxyId", "endpointId", "pipeline", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ApiProxyPolicy_apiProxyId_nameKey_key" ON "ApiProxyPolicy"("apiProxyId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "ApiProxyDeployment_apiProxyId_environmentName_key" ON "ApiProxyDeployment"("apiProxyId", "environmentName");

-- CreateIndex
CREATE UNIQUE INDEX "ApiProxyGroupDeployment_groupId_environmentName_key" ON "ApiProxyGroupDeployment"("groupId", "environmentName");

-- CreateIndex
CREATE INDEX "ApiProxy_projectId_relativePath_idx" ON "ApiProxy"("projectId", "relativePath");

-- AddForeignKey
ALTER TABLE "ApiProxyPolicy" ADD CONSTRAINT "ApiProxyPolicy_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiProxyPolicy" ADD CONSTRAINT "ApiProxyPolicy_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "GatewayEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiProxyDeployment" ADD CONSTRAINT "ApiProxyDeployment_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiProxyGroupDeployment" ADD CONSTRAINT "ApiProxyGroupDeployment_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ApiProxyGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;
