-- Promotion executions (issue 32 §4): API proxies carried between projects by the transfer engine, kept for
-- GET /apiops/promotion/executions/{executionId}.
CREATE TABLE "PromotionExecution" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "sourceProjectName" TEXT NOT NULL,
    "targetProjectName" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "executionName" TEXT,
    "executionDescription" TEXT,
    "executionNotes" TEXT,
    "executedBy" TEXT NOT NULL,
    "totalSteps" INTEGER NOT NULL,
    "result" JSONB NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "PromotionExecution_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "PromotionExecution_projectId_startedAt_idx" ON "PromotionExecution"("projectId", "startedAt");
