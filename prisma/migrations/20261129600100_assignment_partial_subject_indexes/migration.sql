-- Issue 31 §4: an assignment names one subject, its other references are null. A full index holds an entry for
-- every row, null or not, so each insert paid five index entries for nothing; these hold only the rows with the
-- reference (an equality on the column, as every lookup and cascade writes it, implies IS NOT NULL). Not declared in
-- prisma/schema (see the comment in limits.prisma): the schema engine ignores partial indexes.

-- DropIndex
DROP INDEX "LimitAssignment_apiClientId_idx";

-- DropIndex
DROP INDEX "LimitAssignment_apiProxyId_idx";

-- DropIndex
DROP INDEX "LimitAssignment_applicationId_idx";

-- DropIndex
DROP INDEX "LimitAssignment_bulkRunId_idx";

-- DropIndex
DROP INDEX "LimitAssignment_credentialId_idx";

-- DropIndex
DROP INDEX "LimitAssignment_organizationId_idx";

-- CreateIndex
CREATE INDEX "LimitAssignment_credentialId_idx" ON "LimitAssignment"("credentialId") WHERE ("credentialId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "LimitAssignment_applicationId_idx" ON "LimitAssignment"("applicationId") WHERE ("applicationId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "LimitAssignment_apiClientId_idx" ON "LimitAssignment"("apiClientId") WHERE ("apiClientId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "LimitAssignment_organizationId_idx" ON "LimitAssignment"("organizationId") WHERE ("organizationId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "LimitAssignment_apiProxyId_idx" ON "LimitAssignment"("apiProxyId") WHERE ("apiProxyId" IS NOT NULL);

-- CreateIndex
CREATE INDEX "LimitAssignment_bulkRunId_idx" ON "LimitAssignment"("bulkRunId") WHERE ("bulkRunId" IS NOT NULL);
