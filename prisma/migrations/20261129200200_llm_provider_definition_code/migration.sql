-- Custom LLM provider definitions as the vendor's newest pages have them (issue 32 §0,
-- api-reference/llm-provider-definitions): the provider type code (the name's fallback), an icon and a docs link.
ALTER TABLE "LlmProviderDefinition" ADD COLUMN "code" TEXT;
ALTER TABLE "LlmProviderDefinition" ADD COLUMN "iconUrl" TEXT;
ALTER TABLE "LlmProviderDefinition" ADD COLUMN "docsUrl" TEXT;
