ALTER TABLE "GatewayEndpoint" ADD COLUMN "cache" JSONB,
ADD COLUMN "wsa" JSONB;
