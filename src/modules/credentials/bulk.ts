import crypto from 'node:crypto'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Tx } from '../../platform/context.js'
import { utcTimestamp as utc } from '../../platform/db/timestamps.js'

/**
 * Set-based writes of many credentials in one transaction (the bootstrap file and declarative applies): one
 * statement per batch instead of several per credential. The rows come validated by the callers (credentialInput,
 * newCredentialRow); these functions only move them to the database.
 */

/** Rows per statement: one JSON parameter each, far below any statement limit. */
export const CREDENTIAL_BATCH = 1000


export type NewCredentialRow = Prisma.CredentialCreateManyInput & { id?: string }

/**
 * One INSERT … SELECT per batch from a single JSON parameter: Prisma's createMany costs milliseconds per row on
 * batches this large, and one JSON text is cheaper to send than a PostgreSQL array per column. The id and
 * timestamps are Prisma-side defaults (uuid(), now(), @updatedAt), so they are supplied here. Returns the ids.
 */
export async function insertCredentialRows(tx: Tx, rows: NewCredentialRow[]): Promise<string[]> {
  const now = utc(new Date())
  const ids: string[] = []
  for (let i = 0; i < rows.length; i += CREDENTIAL_BATCH) {
    const records = rows.slice(i, i + CREDENTIAL_BATCH).map((r) => ({
      id: r.id ?? crypto.randomUUID(), projectId: r.projectId, username: r.username, consumerKey: r.consumerKey, passwordCipher: r.passwordCipher ?? null,
      passwordFormat: r.passwordFormat ?? 'SEALED', fullName: r.fullName ?? null, email: r.email ?? null, description: r.description ?? null,
      enabled: r.enabled ?? true, organizationId: r.organizationId ?? null, applicationId: r.applicationId ?? null, expireDate: utc(r.expireDate),
      syncManaged: r.syncManaged ?? false, trafficLogDisabled: r.trafficLogDisabled ?? null, tokenSettings: r.tokenSettings ?? null,
      ipList: Array.isArray(r.ipList) ? r.ipList : [],
    }))
    ids.push(...records.map((r) => r.id))
    await tx.$executeRaw`
      INSERT INTO "Credential" (id, "projectId", username, "consumerKey", "passwordCipher", "passwordFormat", "fullName", email, description,
        enabled, "organizationId", "applicationId", "expireDate", "syncManaged", "trafficLogDisabled", "tokenSettings", "ipList", "createdAt", "updatedAt")
      SELECT id, "projectId", username, "consumerKey", "passwordCipher", "passwordFormat"::"SecretFormat", "fullName", email, description,
        enabled, "organizationId", "applicationId", "expireDate", "syncManaged", "trafficLogDisabled", "tokenSettings", "ipList",
        ${now}::timestamp(3), ${now}::timestamp(3)
      FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
        AS c(id text, "projectId" text, username text, "consumerKey" text, "passwordCipher" text, "passwordFormat" text, "fullName" text,
          email text, description text, enabled boolean, "organizationId" text, "applicationId" text, "expireDate" timestamp(3),
          "syncManaged" boolean, "trafficLogDisabled" boolean, "tokenSettings" jsonb, "ipList" text[])`
  }
  return ids
}

/** What an update replaces on a stored credential (a null passwordCipher keeps the stored password). */
export interface CredentialRowUpdate {
  id: string
  fullName: string | null
  email: string | null
  description: string | null
  enabled: boolean
  organizationId: string | null
  applicationId: string | null
  expireDate: Date | null
  syncManaged: boolean
  trafficLogDisabled: boolean | null
  tokenSettings: unknown
  ipList: string[]
  passwordCipher: string | null
  passwordFormat: 'SEALED' | 'REFERENCE' | null
}

/**
 * One UPDATE … FROM per batch: the fields replaced, the revision bumped; a revoked credential stays disabled (as the
 * one-object write keeps it), a null password keeps the stored one.
 */
export async function updateCredentialRows(tx: Tx, rows: CredentialRowUpdate[]): Promise<void> {
  const now = utc(new Date())
  for (let i = 0; i < rows.length; i += CREDENTIAL_BATCH) {
    const records = rows.slice(i, i + CREDENTIAL_BATCH).map((r) => ({ ...r, expireDate: utc(r.expireDate), tokenSettings: r.tokenSettings ?? null }))
    await tx.$executeRaw`
      UPDATE "Credential" AS t SET
        "fullName" = u."fullName", email = u.email, description = u.description,
        enabled = CASE WHEN t."revokedAt" IS NULL THEN u.enabled ELSE false END,
        "organizationId" = u."organizationId", "applicationId" = u."applicationId", "expireDate" = u."expireDate",
        "syncManaged" = u."syncManaged", "trafficLogDisabled" = u."trafficLogDisabled", "tokenSettings" = u."tokenSettings", "ipList" = u."ipList",
        "passwordCipher" = COALESCE(u."passwordCipher", t."passwordCipher"),
        "passwordFormat" = COALESCE(u."passwordFormat"::"SecretFormat", t."passwordFormat"),
        revision = t.revision + 1, "updatedAt" = ${now}::timestamp(3)
      FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
        AS u(id text, "fullName" text, email text, description text, enabled boolean, "organizationId" text, "applicationId" text,
          "expireDate" timestamp(3), "syncManaged" boolean, "trafficLogDisabled" boolean, "tokenSettings" jsonb, "ipList" text[],
          "passwordCipher" text, "passwordFormat" text)
      WHERE t.id = u.id`
  }
}

/** The role grants of many credentials replaced at once (replaceCredentialRoles for a batch). */
export async function replaceRolesOfMany(tx: Tx, grants: { credentialId: string; roleIds: string[] }[]): Promise<void> {
  for (let i = 0; i < grants.length; i += CREDENTIAL_BATCH) {
    const batch = grants.slice(i, i + CREDENTIAL_BATCH)
    await tx.credentialRoleGrant.deleteMany({ where: { credentialId: { in: batch.map((g) => g.credentialId) } } })
    const rows = batch.flatMap((g) => g.roleIds.map((roleId) => ({ credentialId: g.credentialId, roleId })))
    if (rows.length) await tx.credentialRoleGrant.createMany({ data: rows })
  }
}

/**
 * The credentials holding these usernames, in any project: joined on the unique username index. A long
 * `username IN (…)` can be planned on the username trigram index (statistics are stale right after a bulk insert),
 * whose pending list that insert has just filled: seconds per thousand names instead of milliseconds. Probed name
 * by name (LATERAL … LIMIT 1): a plain join of 10,000 names was planned as a hash of the whole table.
 */
export async function credentialHolders(tx: Tx, usernames: string[]): Promise<{ id: string; username: string; projectId: string }[]> {
  if (!usernames.length) return []
  return tx.$queryRaw<{ id: string; username: string; projectId: string }[]>`
    SELECT c.id, c.username, c."projectId" FROM unnest(${usernames}::text[]) AS u(username)
      CROSS JOIN LATERAL (SELECT id, username, "projectId" FROM "Credential" WHERE username = u.username LIMIT 1) c`
}
