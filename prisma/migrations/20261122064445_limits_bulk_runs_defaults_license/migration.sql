-- CreateEnum
CREATE TYPE "LimitBulkRunKind" AS ENUM ('ASSIGN', 'ROLLBACK', 'RETRY');

-- CreateEnum
CREATE TYPE "LimitBulkRunStatus" AS ENUM ('QUEUED', 'RUNNING', 'SUCCESS', 'PARTIAL', 'FAILED', 'CANCELLED', 'INTERRUPTED', 'LICENSE_REVOKED');

-- CreateEnum
CREATE TYPE "LimitBulkRunPhase" AS ENUM ('PREPARE', 'APPLY', 'DEPLOY', 'FINALIZE');

-- CreateEnum
CREATE TYPE "LimitBulkOutcome" AS ENUM ('CREATED', 'REPLACED', 'SKIPPED_EXISTING', 'SKIPPED_LICENSE', 'FAILED', 'ENDED', 'RESTORED');

-- CreateEnum
CREATE TYPE "LimitDefaultOwnerType" AS ENUM ('PLATFORM', 'PROJECT', 'ORGANIZATION');

-- CreateEnum
CREATE TYPE "LimitDefaultStatus" AS ENUM ('DISABLED', 'ACTIVE');

-- CreateTable
CREATE TABLE "LimitBulkRun" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "activeProjectId" TEXT,
    "kind" "LimitBulkRunKind" NOT NULL,
    "runStatus" "LimitBulkRunStatus" NOT NULL DEFAULT 'QUEUED',
    "phase" "LimitBulkRunPhase" NOT NULL DEFAULT 'PREPARE',
    "trigger" TEXT NOT NULL,
    "triggeredBy" TEXT NOT NULL,
    "selector" JSONB,
    "content" JSONB,
    "conflictPolicy" TEXT NOT NULL DEFAULT 'KEEP_EXISTING',
    "selectorFingerprint" TEXT,
    "includedSubjectCount" INTEGER NOT NULL DEFAULT 0,
    "excludedSubjectCount" INTEGER NOT NULL DEFAULT 0,
    "expectedCount" INTEGER,
    "actualCount" INTEGER NOT NULL DEFAULT 0,
    "processedCount" INTEGER NOT NULL DEFAULT 0,
    "createdCount" INTEGER NOT NULL DEFAULT 0,
    "replacedCount" INTEGER NOT NULL DEFAULT 0,
    "skippedCount" INTEGER NOT NULL DEFAULT 0,
    "failedCount" INTEGER NOT NULL DEFAULT 0,
    "licenseSkippedCount" INTEGER NOT NULL DEFAULT 0,
    "endedCount" INTEGER NOT NULL DEFAULT 0,
    "restoredCount" INTEGER NOT NULL DEFAULT 0,
    "issueCount" INTEGER NOT NULL DEFAULT 0,
    "issuesTruncated" BOOLEAN NOT NULL DEFAULT false,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "rollbackOfRunId" TEXT,
    "retryOfRunId" TEXT,
    "idempotencyKey" TEXT,
    "deploymentState" "RuntimeDeploymentState",
    "messageKey" TEXT,
    "messageParams" JSONB,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "runningAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "leaseOwner" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "cursor" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "LimitBulkRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LimitBulkRunSubject" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "subjectName" TEXT NOT NULL,
    "outcome" "LimitBulkOutcome",
    "bindingKey" TEXT,
    "replacedBindingKey" TEXT,

    CONSTRAINT "LimitBulkRunSubject_pkey" PRIMARY KEY ("runId","seq")
);

-- CreateTable
CREATE TABLE "LimitBulkRunIssue" (
    "runId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "subjectType" TEXT NOT NULL,
    "subjectName" TEXT NOT NULL,
    "outcome" "LimitBulkOutcome" NOT NULL,
    "bindingKey" TEXT,
    "messageKey" TEXT,
    "messageParams" JSONB,
    "occurredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LimitBulkRunIssue_pkey" PRIMARY KEY ("runId","seq")
);

-- CreateTable
CREATE TABLE "InstallationLicense" (
    "id" TEXT NOT NULL DEFAULT 'current',
    "modules" TEXT[],
    "source" TEXT NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InstallationLicense_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LimitDefault" (
    "id" TEXT NOT NULL,
    "defaultKey" TEXT NOT NULL,
    "ownerType" "LimitDefaultOwnerType" NOT NULL,
    "projectId" TEXT,
    "organizationId" TEXT,
    "family" "LimitFamily" NOT NULL,
    "actorScope" "LimitActorScope" NOT NULL DEFAULT 'ANY',
    "name" TEXT,
    "description" TEXT,
    "mode" "LimitContentMode" NOT NULL,
    "planKeys" TEXT[],
    "customRuleSpec" JSONB,
    "status" "LimitDefaultStatus" NOT NULL DEFAULT 'DISABLED',
    "activeScopeKey" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT NOT NULL,
    "activatedAt" TIMESTAMP(3),
    "disabledAt" TIMESTAMP(3),

    CONSTRAINT "LimitDefault_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "LimitBulkRun_runId_key" ON "LimitBulkRun"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "LimitBulkRun_activeProjectId_key" ON "LimitBulkRun"("activeProjectId");

-- CreateIndex
CREATE INDEX "LimitBulkRun_projectId_startedAt_idx" ON "LimitBulkRun"("projectId", "startedAt");

-- CreateIndex
CREATE INDEX "LimitBulkRun_runStatus_leaseUntil_idx" ON "LimitBulkRun"("runStatus", "leaseUntil");

-- CreateIndex
CREATE INDEX "LimitBulkRunSubject_runId_outcome_idx" ON "LimitBulkRunSubject"("runId", "outcome");

-- CreateIndex
CREATE UNIQUE INDEX "LimitDefault_defaultKey_key" ON "LimitDefault"("defaultKey");

-- CreateIndex
CREATE UNIQUE INDEX "LimitDefault_activeScopeKey_key" ON "LimitDefault"("activeScopeKey");

-- CreateIndex
CREATE INDEX "LimitDefault_ownerType_projectId_organizationId_idx" ON "LimitDefault"("ownerType", "projectId", "organizationId");

-- AddForeignKey
ALTER TABLE "LimitBulkRunSubject" ADD CONSTRAINT "LimitBulkRunSubject_runId_fkey" FOREIGN KEY ("runId") REFERENCES "LimitBulkRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitBulkRunIssue" ADD CONSTRAINT "LimitBulkRunIssue_runId_fkey" FOREIGN KEY ("runId") REFERENCES "LimitBulkRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;
