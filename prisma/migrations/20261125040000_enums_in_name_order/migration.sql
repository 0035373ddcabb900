-- Lists sort enum fields by the constant's name as the client sees it (issue 11 §3), and PostgreSQL sorts an
-- enum by its declaration order: each enum a list sorts on is re-declared here with its values in name order
-- (byte order, as every value is upper-case ASCII and _), so ORDER BY on the column (and its indexes) gives
-- name order on both databases. Values are unchanged; only their order is. A value added later must be put
-- in place with ALTER TYPE ... ADD VALUE ... BEFORE/AFTER (Prisma appends), or the sorting test fails.

-- LimitFamily
CREATE TYPE "LimitFamily_new" AS ENUM ('AI_TOKEN_BUDGET', 'REQUEST_RATE');
ALTER TABLE "LimitPlan" ALTER COLUMN "family" TYPE "LimitFamily_new" USING ("family"::text::"LimitFamily_new");
ALTER TABLE "LimitAssignment" ALTER COLUMN "family" TYPE "LimitFamily_new" USING ("family"::text::"LimitFamily_new");
ALTER TABLE "LimitDefault" ALTER COLUMN "family" TYPE "LimitFamily_new" USING ("family"::text::"LimitFamily_new");
ALTER TYPE "LimitFamily" RENAME TO "LimitFamily_old";
ALTER TYPE "LimitFamily_new" RENAME TO "LimitFamily";
DROP TYPE "LimitFamily_old";

-- LimitAssignmentStatus
CREATE TYPE "LimitAssignmentStatus_new" AS ENUM ('ACTIVE', 'DRAFT', 'ENDED');
ALTER TABLE "LimitAssignment" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "LimitAssignment" ALTER COLUMN "status" TYPE "LimitAssignmentStatus_new" USING ("status"::text::"LimitAssignmentStatus_new");
ALTER TYPE "LimitAssignmentStatus" RENAME TO "LimitAssignmentStatus_old";
ALTER TYPE "LimitAssignmentStatus_new" RENAME TO "LimitAssignmentStatus";
DROP TYPE "LimitAssignmentStatus_old";
ALTER TABLE "LimitAssignment" ALTER COLUMN "status" SET DEFAULT 'DRAFT';

-- LimitDefaultStatus
CREATE TYPE "LimitDefaultStatus_new" AS ENUM ('ACTIVE', 'DISABLED');
ALTER TABLE "LimitDefault" ALTER COLUMN "status" DROP DEFAULT;
ALTER TABLE "LimitDefault" ALTER COLUMN "status" TYPE "LimitDefaultStatus_new" USING ("status"::text::"LimitDefaultStatus_new");
ALTER TYPE "LimitDefaultStatus" RENAME TO "LimitDefaultStatus_old";
ALTER TYPE "LimitDefaultStatus_new" RENAME TO "LimitDefaultStatus";
DROP TYPE "LimitDefaultStatus_old";
ALTER TABLE "LimitDefault" ALTER COLUMN "status" SET DEFAULT 'DISABLED';

-- LimitBulkRunStatus
CREATE TYPE "LimitBulkRunStatus_new" AS ENUM ('CANCELLED', 'FAILED', 'INTERRUPTED', 'LICENSE_REVOKED', 'PARTIAL', 'QUEUED', 'RUNNING', 'SUCCESS');
ALTER TABLE "LimitBulkRun" ALTER COLUMN "runStatus" DROP DEFAULT;
ALTER TABLE "LimitBulkRun" ALTER COLUMN "runStatus" TYPE "LimitBulkRunStatus_new" USING ("runStatus"::text::"LimitBulkRunStatus_new");
ALTER TYPE "LimitBulkRunStatus" RENAME TO "LimitBulkRunStatus_old";
ALTER TYPE "LimitBulkRunStatus_new" RENAME TO "LimitBulkRunStatus";
DROP TYPE "LimitBulkRunStatus_old";
ALTER TABLE "LimitBulkRun" ALTER COLUMN "runStatus" SET DEFAULT 'QUEUED';

-- LimitBulkRunKind
CREATE TYPE "LimitBulkRunKind_new" AS ENUM ('ASSIGN', 'RETRY', 'ROLLBACK');
ALTER TABLE "LimitBulkRun" ALTER COLUMN "kind" TYPE "LimitBulkRunKind_new" USING ("kind"::text::"LimitBulkRunKind_new");
ALTER TYPE "LimitBulkRunKind" RENAME TO "LimitBulkRunKind_old";
ALTER TYPE "LimitBulkRunKind_new" RENAME TO "LimitBulkRunKind";
DROP TYPE "LimitBulkRunKind_old";

-- LimitBulkOutcome
CREATE TYPE "LimitBulkOutcome_new" AS ENUM ('CREATED', 'ENDED', 'FAILED', 'REPLACED', 'RESTORED', 'SKIPPED_EXISTING', 'SKIPPED_LICENSE');
ALTER TABLE "LimitBulkRunSubject" ALTER COLUMN "outcome" TYPE "LimitBulkOutcome_new" USING ("outcome"::text::"LimitBulkOutcome_new");
ALTER TABLE "LimitBulkRunIssue" ALTER COLUMN "outcome" TYPE "LimitBulkOutcome_new" USING ("outcome"::text::"LimitBulkOutcome_new");
ALTER TYPE "LimitBulkOutcome" RENAME TO "LimitBulkOutcome_old";
ALTER TYPE "LimitBulkOutcome_new" RENAME TO "LimitBulkOutcome";
DROP TYPE "LimitBulkOutcome_old";

-- AppStatus
CREATE TYPE "AppStatus_new" AS ENUM ('ACTIVE', 'ARCHIVED', 'PENDING_DELETION', 'SUSPENDED');
ALTER TABLE "Application" ALTER COLUMN "appStatus" DROP DEFAULT;
ALTER TABLE "Application" ALTER COLUMN "appStatus" TYPE "AppStatus_new" USING ("appStatus"::text::"AppStatus_new");
ALTER TYPE "AppStatus" RENAME TO "AppStatus_old";
ALTER TYPE "AppStatus_new" RENAME TO "AppStatus";
DROP TYPE "AppStatus_old";
ALTER TABLE "Application" ALTER COLUMN "appStatus" SET DEFAULT 'ACTIVE';

-- ApiClientOperationalState
CREATE TYPE "ApiClientOperationalState_new" AS ENUM ('ACTIVE', 'DRAFT', 'REVOKED', 'SUSPENDED');
ALTER TABLE "ApiClient" ALTER COLUMN "operationalState" DROP DEFAULT;
ALTER TABLE "ApiClient" ALTER COLUMN "operationalState" TYPE "ApiClientOperationalState_new" USING ("operationalState"::text::"ApiClientOperationalState_new");
ALTER TYPE "ApiClientOperationalState" RENAME TO "ApiClientOperationalState_old";
ALTER TYPE "ApiClientOperationalState_new" RENAME TO "ApiClientOperationalState";
DROP TYPE "ApiClientOperationalState_old";
ALTER TABLE "ApiClient" ALTER COLUMN "operationalState" SET DEFAULT 'DRAFT';
