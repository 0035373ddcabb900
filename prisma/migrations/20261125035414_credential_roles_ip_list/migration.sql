-- AlterTable
ALTER TABLE "Credential" ADD COLUMN     "ipList" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "CredentialRole" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CredentialRole_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CredentialRoleGrant" (
    "credentialId" TEXT NOT NULL,
    "roleId" TEXT NOT NULL,

    CONSTRAINT "CredentialRoleGrant_pkey" PRIMARY KEY ("credentialId","roleId")
);

-- CreateIndex
CREATE UNIQUE INDEX "CredentialRole_projectId_name_key" ON "CredentialRole"("projectId", "name");

-- CreateIndex
CREATE INDEX "CredentialRoleGrant_roleId_idx" ON "CredentialRoleGrant"("roleId");

-- AddForeignKey
ALTER TABLE "CredentialRole" ADD CONSTRAINT "CredentialRole_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "Project"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CredentialRoleGrant" ADD CONSTRAINT "CredentialRoleGrant_credentialId_fkey" FOREIGN KEY ("credentialId") REFERENCES "Credential"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CredentialRoleGrant" ADD CONSTRAINT "CredentialRoleGrant_roleId_fkey" FOREIGN KEY ("roleId") REFERENCES "CredentialRole"("id") ON DELETE NO ACTION ON UPDATE CASCADE;
