-- Credential organizations over REST (issue 32 §1, vendor api-reference/credential-organizations): a secondary
-- display name and metadata entries (key, value, secret, includeInJwt, includeInTokenResponse, jwtClaimName;
-- secret values sealed with the keyring, never shown).
ALTER TABLE "Organization" ADD COLUMN "nameSecondary" TEXT;
ALTER TABLE "Organization" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '[]';
