-- CreateEnum
CREATE TYPE "LimitFamily" AS ENUM ('REQUEST_RATE', 'AI_TOKEN_BUDGET');

-- CreateEnum
CREATE TYPE "LimitPlanLifecycle" AS ENUM ('DRAFT', 'PUBLISHED', 'RETIRED');

-- CreateEnum
CREATE TYPE "LimitRevisionStatus" AS ENUM ('DRAFT', 'PUBLISHED', 'SUPERSEDED');

-- CreateEnum
CREATE TYPE "LimitSubjectType" AS ENUM ('PLATFORM', 'PROJECT', 'ORGANIZATION', 'CONSUMER', 'APPLICATION', 'API_CLIENT', 'API_PROXY', 'AUDIENCE_RULE');

-- CreateEnum
CREATE TYPE "LimitActorScope" AS ENUM ('ANY', 'AUTHENTICATED', 'ANONYMOUS');

-- CreateEnum
CREATE TYPE "LimitTargetType" AS ENUM ('ALL', 'API_PROXY', 'API_PROXY_ENV', 'API_PROXY_GROUP', 'API_PROXY_GROUP_ENV', 'API_ENDPOINT', 'AI_MODEL', 'AI_PROVIDER');

-- CreateEnum
CREATE TYPE "LimitContentMode" AS ENUM ('PLAN', 'CUSTOM', 'INHERIT', 'OFF');

-- CreateEnum
CREATE TYPE "LimitAssignmentSource" AS ENUM ('MANUAL', 'CREATION_DEFAULT', 'BULK', 'MIGRATION', 'IMPORT', 'PORTAL_SUBSCRIPTION');

-- CreateEnum
CREATE TYPE "LimitAssignmentStatus" AS ENUM ('DRAFT', 'ACTIVE', 'ENDED');

-- CreateTable
CREATE TABLE "LimitPlan" (
    "id" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "projectId" TEXT,
    "planKey" TEXT NOT NULL,
    "family" "LimitFamily" NOT NULL,
    "name" TEXT NOT NULL,
    "nameTr" TEXT,
    "description" TEXT,
    "labels" TEXT[],
    "lifecycle" "LimitPlanLifecycle" NOT NULL DEFAULT 'DRAFT',
    "currentPublishedRevision" INTEGER NOT NULL DEFAULT 0,
    "managedBySubscriptionPlanId" TEXT,
    "managedBySubscriptionPlanName" TEXT,
    "retiredAt" TIMESTAMP(3),
    "retiredBy" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LimitPlan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LimitPlanRevision" (
    "id" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "status" "LimitRevisionStatus" NOT NULL DEFAULT 'DRAFT',
    "ruleSpec" JSONB NOT NULL,
    "semanticChecksum" TEXT NOT NULL,
    "changeReason" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "publishedAt" TIMESTAMP(3),
    "publishedBy" TEXT,
    "openDraftOf" TEXT,

    CONSTRAINT "LimitPlanRevision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LimitAssignment" (
    "id" TEXT NOT NULL,
    "bindingKey" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "subjectType" "LimitSubjectType" NOT NULL,
    "credentialId" TEXT,
    "applicationId" TEXT,
    "apiClientId" TEXT,
    "organizationId" TEXT,
    "apiProxyId" TEXT,
    "family" "LimitFamily" NOT NULL,
    "actorScope" "LimitActorScope" NOT NULL DEFAULT 'ANY',
    "targetType" "LimitTargetType" NOT NULL DEFAULT 'ALL',
    "targetApiProxyName" TEXT,
    "targetApiProxyGroupName" TEXT,
    "targetEnvironmentName" TEXT,
    "targetKey" TEXT,
    "targetHttpMethods" TEXT[],
    "mode" "LimitContentMode" NOT NULL,
    "planKeys" TEXT[],
    "customRuleSpec" JSONB,
    "audienceRule" JSONB,
    "cacheErrorHandlingType" TEXT,
    "cacheConnectionTimeoutInSeconds" INTEGER,
    "showRateLimitStatisticsInResponseHeader" BOOLEAN,
    "customMessageTemplate" TEXT,
    "customMessageContentType" TEXT,
    "customMessageHttpStatusCode" INTEGER,
    "validFrom" TIMESTAMP(3),
    "validUntil" TIMESTAMP(3),
    "source" "LimitAssignmentSource" NOT NULL DEFAULT 'MANUAL',
    "status" "LimitAssignmentStatus" NOT NULL DEFAULT 'DRAFT',
    "assignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "assignedBy" TEXT NOT NULL,
    "endedAt" TIMESTAMP(3),
    "endedBy" TEXT,
    "endedReason" TEXT,
    "operatorOverride" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "runtimeRevision" INTEGER NOT NULL DEFAULT 1,
    "bulkRunId" TEXT,
    "replacedBindingKey" TEXT,
    "liveScopeKey" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LimitAssignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LimitAssignmentPlan" (
    "assignmentId" TEXT NOT NULL,
    "planId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "LimitAssignmentPlan_pkey" PRIMARY KEY ("assignmentId","planId")
);

-- CreateIndex
CREATE INDEX "LimitPlan_projectId_idx" ON "LimitPlan"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "LimitPlan_scope_planKey_key" ON "LimitPlan"("scope", "planKey");

-- CreateIndex
CREATE UNIQUE INDEX "LimitPlan_scope_family_name_key" ON "LimitPlan"("scope", "family", "name");

-- CreateIndex
CREATE UNIQUE INDEX "LimitPlanRevision_openDraftOf_key" ON "LimitPlanRevision"("openDraftOf");

-- CreateIndex
CREATE UNIQUE INDEX "LimitPlanRevision_planId_revision_key" ON "LimitPlanRevision"("planId", "revision");

-- CreateIndex
CREATE UNIQUE INDEX "LimitAssignment_bindingKey_key" ON "LimitAssignment"("bindingKey");

-- CreateIndex
CREATE UNIQUE INDEX "LimitAssignment_liveScopeKey_key" ON "LimitAssignment"("liveScopeKey");

-- CreateIndex
CREATE INDEX "LimitAssignment_projectId_assignedAt_idx" ON "LimitAssignment"("projectId", "assignedAt");

-- CreateIndex
CREATE INDEX "LimitAssignment_projectId_subjectType_status_idx" ON "LimitAssignment"("projectId", "subjectType", "status");

-- CreateIndex
CREATE INDEX "LimitAssignment_credentialId_idx" ON "LimitAssignment"("credentialId");

-- CreateIndex
CREATE INDEX "LimitAssignment_applicationId_idx" ON "LimitAssignment"("applicationId");

-- CreateIndex
CREATE INDEX "LimitAssignment_apiClientId_idx" ON "LimitAssignment"("apiClientId");

-- CreateIndex
CREATE INDEX "LimitAssignment_organizationId_idx" ON "LimitAssignment"("organizationId");

-- CreateIndex
CREATE INDEX "LimitAssignment_apiProxyId_idx" ON "LimitAssignment"("apiProxyId");

-- CreateIndex
CREATE INDEX "LimitAssignment_bulkRunId_idx" ON "LimitAssignment"("bulkRunId");

-- CreateIndex
CREATE INDEX "LimitAssignmentPlan_planId_idx" ON "LimitAssignmentPlan"("planId");

-- AddForeignKey
ALTER TABLE "LimitPlan" ADD CONSTRAINT "LimitPlan_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitPlanRevision" ADD CONSTRAINT "LimitPlanRevision_planId_fkey" FOREIGN KEY ("planId") REFERENCES "LimitPlan"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignment" ADD CONSTRAINT "LimitAssignment_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignment" ADD CONSTRAINT "LimitAssignment_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignment" ADD CONSTRAINT "LimitAssignment_applicationId_fkey" FOREIGN KEY ("applicationId") REFERENCES "Application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignment" ADD CONSTRAINT "LimitAssignment_apiClientId_fkey" FOREIGN KEY ("apiClientId") REFERENCES "ApiClient"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignment" ADD CONSTRAINT "LimitAssignment_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignment" ADD CONSTRAINT "LimitAssignment_apiProxyId_fkey" FOREIGN KEY ("apiProxyId") REFERENCES "ApiProxy"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignmentPlan" ADD CONSTRAINT "LimitAssignmentPlan_assignmentId_fkey" FOREIGN KEY ("assignmentId") REFERENCES "LimitAssignment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LimitAssignmentPlan" ADD CONSTRAINT "LimitAssignmentPlan_planId_fkey" FOREIGN KEY ("planId") REFERENCES "LimitPlan"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
