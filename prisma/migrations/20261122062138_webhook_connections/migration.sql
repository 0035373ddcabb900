-- CreateTable
CREATE TABLE "WebhookConnection" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "environment" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "fullUrl" TEXT NOT NULL,
    "timeout" INTEGER NOT NULL,
    "headers" JSONB NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "connectTimeoutSeconds" INTEGER,
    "responseTimeoutSeconds" INTEGER,
    "connectionRequestTimeoutSeconds" INTEGER,
    "socketTimeoutSeconds" INTEGER,
    "writeStallTimeoutSeconds" INTEGER NOT NULL,
    "connectionsPerHost" INTEGER NOT NULL,
    "totalPoolConnections" INTEGER NOT NULL,
    "trustStoreName" TEXT,
    "keyStoreName" TEXT,
    "serverNameVerification" BOOLEAN NOT NULL,
    "batching" JSONB NOT NULL,
    "gzip" BOOLEAN NOT NULL,
    "bufferFullWaitMs" INTEGER NOT NULL,
    "retry" JSONB NOT NULL,
    "collectorMode" JSONB NOT NULL,
    "circuitBreaker" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookConnection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookConnection_name_key" ON "WebhookConnection"("name");
