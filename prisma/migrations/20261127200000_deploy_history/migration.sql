-- CreateTable
CREATE TABLE "ApiDeployHistory" (
    "id" TEXT NOT NULL,
    "apiProxyId" TEXT,
    "groupId" TEXT,
    "revision" INTEGER NOT NULL,
    "username" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "deploy" BOOLEAN NOT NULL,
    "description" TEXT NOT NULL,
    "persistent" BOOLEAN NOT NULL DEFAULT false,
    "backendApiVersion" TEXT,
    "snapshot" JSONB,
    "deployedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ApiDeployHistory_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ApiDeployHistory_apiProxyId_revision_key" ON "ApiDeployHistory"("apiProxyId", "revision");

-- CreateIndex
CREATE UNIQUE INDEX "ApiDeployHistory_groupId_revision_key" ON "ApiDeployHistory"("groupId", "revision");

-- AddForeignKey
ALTER TABLE "ApiDeployHistory" ADD CONSTRAINT "ApiDeployHistory_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiDeployHistory" ADD CONSTRAINT "ApiDeployHistory_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "ApiProxyGroup"("id") ON DELETE CASCADE ON UPDATE CASCADE;
