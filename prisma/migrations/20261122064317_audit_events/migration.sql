-- CreateEnum
CREATE TYPE "AuditSurface" AS ENUM ('REST_APIOPS', 'REST_API', 'GRAPHQL', 'BOOTSTRAP');

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "surface" "AuditSurface" NOT NULL,
    "actor" TEXT NOT NULL,
    "projectName" TEXT,
    "operation" TEXT NOT NULL,
    "objectType" TEXT,
    "objectName" TEXT,
    "outcome" TEXT NOT NULL,
    "httpStatus" INTEGER,
    "correlationId" TEXT NOT NULL,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE INDEX "AuditEvent_projectName_at_idx" ON "AuditEvent"("projectName", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_actor_at_idx" ON "AuditEvent"("actor", "at");

-- CreateIndex
CREATE INDEX "AuditEvent_objectType_objectName_at_idx" ON "AuditEvent"("objectType", "objectName", "at");
