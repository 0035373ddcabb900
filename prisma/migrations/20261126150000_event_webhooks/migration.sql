-- Event webhooks (issue 18 §4): subscriptions of webhook connections and their delivery log. Deliveries are
-- sent through "DeliveryOutbox" (subject `webhookDelivery:<id>`); both tables go with their connection.

-- CreateTable
CREATE TABLE "WebhookEventSubscription" (
    "connectionId" TEXT NOT NULL,
    "eventTypes" TEXT[],
    "signingSecret" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookEventSubscription_pkey" PRIMARY KEY ("connectionId")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "lastStatusCode" INTEGER,
    "lastAttemptAt" TIMESTAMP(3),
    "deliveredAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_connectionId_eventId_key" ON "WebhookDelivery"("connectionId", "eventId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_connectionId_createdAt_idx" ON "WebhookDelivery"("connectionId", "createdAt");

-- AddForeignKey
ALTER TABLE "WebhookEventSubscription" ADD CONSTRAINT "WebhookEventSubscription_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "WebhookConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "WebhookConnection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
