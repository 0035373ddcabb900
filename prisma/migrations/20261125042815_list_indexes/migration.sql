-- DropIndex
DROP INDEX "Credential_projectId_fullName_idx";

-- DropIndex
DROP INDEX "LimitAssignment_projectId_assignedAt_idx";

-- DropIndex
DROP INDEX "LimitBulkRun_projectId_startedAt_idx";

-- CreateIndex
CREATE INDEX "Application_name_trgm_idx" ON "Application" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Credential_projectId_fullName_username_idx" ON "Credential"("projectId", "fullName", "username");

-- CreateIndex
CREATE INDEX "Credential_username_trgm_idx" ON "Credential" USING GIN ("username" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "Credential_fullName_trgm_idx" ON "Credential" USING GIN ("fullName" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "LimitAssignment_projectId_assignedAt_bindingKey_idx" ON "LimitAssignment"("projectId", "assignedAt" DESC, "bindingKey");

-- CreateIndex
CREATE INDEX "LimitBulkRun_projectId_startedAt_runId_idx" ON "LimitBulkRun"("projectId", "startedAt" DESC, "runId");
