-- Promotion executions and API products belong to their project: a deleted project takes them with it, as every other
-- project-scoped table does (rows already orphaned by a deleted project are removed first).
DELETE FROM "PromotionExecution" e WHERE NOT EXISTS (SELECT 1 FROM "Project" p WHERE p."id" = e."projectId");
DELETE FROM "ApiProduct" a WHERE NOT EXISTS (SELECT 1 FROM "Project" p WHERE p."id" = a."projectId");
ALTER TABLE "PromotionExecution" ADD CONSTRAINT "PromotionExecution_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ApiProduct" ADD CONSTRAINT "ApiProduct_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;
