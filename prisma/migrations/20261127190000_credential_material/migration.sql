-- A credential's security material (issue 32 §1): per slot the certificate, keystore, key or JWK it names.
-- CreateTable
CREATE TABLE "CredentialMaterial" (
    "credentialId" TEXT NOT NULL,
    "slot" TEXT NOT NULL,
    "objectId" TEXT NOT NULL,
    "assignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CredentialMaterial_pkey" PRIMARY KEY ("credentialId","slot")
);

-- CreateIndex
CREATE INDEX "CredentialMaterial_objectId_idx" ON "CredentialMaterial"("objectId");

-- AddForeignKey
ALTER TABLE "CredentialMaterial" ADD CONSTRAINT "CredentialMaterial_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CredentialMaterial" ADD CONSTRAINT "CredentialMaterial_objectId_fkey" FOREIGN KEY ("objectId") REFERENCES "StoredObject"("id") ON DELETE NO ACTION ON UPDATE CASCADE;
