-- Vector store connections as the vendor's newest pages have them (issue 32 §0, api-reference/vector-dbs):
-- enabled, maxBatchSize, the http family's apiSecret (sealed), and the redis family (its password sealed in
-- passwordCipher, as the jdbc family's). Transport timeouts, pool and regionCode live in the transport JSON.
-- Spec §2.11 names eight vendor constants: ELASTICSEARCH, an early guess, is not one of them; stored ones become OTHER.
ALTER TABLE "VectorDb" ADD COLUMN "enabled" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "VectorDb" ADD COLUMN "maxBatchSize" INTEGER;
ALTER TABLE "VectorDb" ADD COLUMN "apiSecretCipher" TEXT;
UPDATE "VectorDb" SET "dbType" = 'OTHER' WHERE "dbType" = 'ELASTICSEARCH';
