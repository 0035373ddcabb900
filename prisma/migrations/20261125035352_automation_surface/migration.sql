-- AlterTable
ALTER TABLE "Environment" ADD COLUMN     "accessUrl" TEXT,
ADD COLUMN     "description" TEXT,
ADD COLUMN     "type" TEXT NOT NULL DEFAULT 'PRODUCTION';

-- CreateTable
CREATE TABLE "EnvironmentVariable" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "description" TEXT,
    "global" BOOLEAN NOT NULL DEFAULT false,
    "globalVisible" BOOLEAN NOT NULL DEFAULT true,
    "globalValue" TEXT,
    "globalValueCipher" TEXT,
    "environmentValues" JSONB NOT NULL DEFAULT '[]',
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EnvironmentVariable_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DeploymentRecord" (
    "projectName" TEXT NOT NULL,
    "environmentName" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "acknowledged" BOOLEAN NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DeploymentRecord_pkey" PRIMARY KEY ("projectName","environmentName","kind","name")
);

-- CreateTable
CREATE TABLE "GeolocationSetting" (
    "id" TEXT NOT NULL DEFAULT 'current',
    "enabled" BOOLEAN NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL,

    CONSTRAINT "GeolocationSetting_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "EnvironmentVariable_projectId_nameKey_key" ON "EnvironmentVariable"("projectId", "nameKey");

-- CreateIndex
CREATE INDEX "DeploymentRecord_environmentName_idx" ON "DeploymentRecord"("environmentName");

-- AddForeignKey
ALTER TABLE "EnvironmentVariable" ADD CONSTRAINT "EnvironmentVariable_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
