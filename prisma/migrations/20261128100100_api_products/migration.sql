-- API products promoted from a portal (issue 32 §4), by the portal's referenceId; their name is the productName of
-- the product subscriptions.
CREATE TABLE "ApiProduct" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "referenceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameDefault" TEXT,
    "nameSecondary" TEXT,
    "titleDefault" TEXT,
    "titleSecondary" TEXT,
    "descriptionDefault" TEXT,
    "descriptionSecondary" TEXT,
    "portalId" TEXT,
    "type" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApiProduct_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "ApiProduct_projectId_referenceId_key" ON "ApiProduct"("projectId", "referenceId");
CREATE UNIQUE INDEX "ApiProduct_projectId_name_key" ON "ApiProduct"("projectId", "name");
