-- RLCL identity sources, target audiences and general quotas as the vendor's newest page has them (issue 32 §0,
-- api-reference/rlcl/crud/create-rlcl.mdx): identitySource VARIABLE (the targetVariable) or AUTH_RESOLVED (the
-- authenticated username/key; forces executionOrder AFTER_API_METHOD, targetVariable ignored), the target
-- audience rules (operator, value; OR), and what happens out of target (BLOCK, or a GENERAL_QUOTA counted in
-- TOTAL or PER_IDENTITY). Existing RLCLs read as before: VARIABLE, no audience rules, BLOCK.
ALTER TABLE "Rlcl" ADD COLUMN "identitySource" TEXT NOT NULL DEFAULT 'VARIABLE';
ALTER TABLE "Rlcl" ADD COLUMN "targetAudienceRuleList" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Rlcl" ADD COLUMN "outOfTargetAction" TEXT NOT NULL DEFAULT 'BLOCK';
ALTER TABLE "Rlcl" ADD COLUMN "generalQuotaMode" TEXT NOT NULL DEFAULT 'TOTAL';
ALTER TABLE "Rlcl" ADD COLUMN "generalQuotaPermittedMessageCount" INTEGER;
ALTER TABLE "Rlcl" ADD COLUMN "generalQuotaTimeIntervalPeriodLength" INTEGER;
ALTER TABLE "Rlcl" ADD COLUMN "generalQuotaTimeInterval" TEXT;
