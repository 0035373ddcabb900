-- DropForeignKey
ALTER TABLE "LimitAssignmentPlan" DROP CONSTRAINT "LimitAssignmentPlan_planId_fkey";

-- AddForeignKey
ALTER TABLE "LimitAssignmentPlan" ADD CONSTRAINT "LimitAssignmentPlan_planId_fkey" FOREIGN KEY ("planId") REFERENCES "LimitPlan"("id") ON DELETE NO ACTION ON UPDATE CASCADE;
