-- The model catalog as the vendor's newest pages have it (issue 32 §0, api-reference/llm-models): an entry's
-- name is `{providerCode}/{modelId}` (e.g. openai/gpt-5-mini), apart from the provider-facing modelId; entries
-- of the older shape keep their modelId as their name. Also the page's provider code and definition reference,
-- the per-image / audio-minute / TTS-character prices and the deprecation dates.
ALTER TABLE "LlmModelDefinition" ADD COLUMN "name" TEXT;
UPDATE "LlmModelDefinition" SET "name" = "modelId";
ALTER TABLE "LlmModelDefinition" ALTER COLUMN "name" SET NOT NULL;
ALTER TABLE "LlmModelDefinition" ADD COLUMN "providerCode" TEXT;
ALTER TABLE "LlmModelDefinition" ADD COLUMN "providerDefinitionId" TEXT;
ALTER TABLE "LlmModelDefinition" ADD COLUMN "pricePerImage" DOUBLE PRECISION;
ALTER TABLE "LlmModelDefinition" ADD COLUMN "pricePerAudioMinute" DOUBLE PRECISION;
ALTER TABLE "LlmModelDefinition" ADD COLUMN "pricePerCharacterTts" DOUBLE PRECISION;
ALTER TABLE "LlmModelDefinition" ADD COLUMN "deprecatedAt" TIMESTAMP(3);
ALTER TABLE "LlmModelDefinition" ADD COLUMN "sunsetAt" TIMESTAMP(3);
