-- CreateTable
CREATE TABLE "GeolocationDatabase" (
    "id" TEXT NOT NULL DEFAULT 'current',
    "fileName" TEXT NOT NULL,
    "content" BYTEA NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "databaseType" TEXT NOT NULL,
    "ipVersion" INTEGER NOT NULL,
    "nodeCount" INTEGER NOT NULL,
    "buildEpoch" TIMESTAMP(3) NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "uploadedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uploadedBy" TEXT NOT NULL,

    CONSTRAINT "GeolocationDatabase_pkey" PRIMARY KEY ("id")
);
