-- Declarative configuration (issue 29): plans and the last applied state per project and namespace.
CREATE TABLE "DeclarativePlan" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL DEFAULT '',
    "mode" TEXT NOT NULL,
    "baseRevision" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "appliedAt" TIMESTAMP(3),
    "idempotencyKey" TEXT,
    "result" JSONB,

    CONSTRAINT "DeclarativePlan_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "DeclarativePlan_projectId_createdAt_idx" ON "DeclarativePlan"("projectId", "createdAt");

CREATE TABLE "DeclarativeState" (
    "projectId" TEXT NOT NULL,
    "namespace" TEXT NOT NULL DEFAULT '',
    "planId" TEXT NOT NULL,
    "objects" JSONB NOT NULL,
    "appliedBy" TEXT NOT NULL,
    "appliedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeclarativeState_pkey" PRIMARY KEY ("projectId","namespace")
);
