import type { Credential, Prisma } from '../../generated/prisma/client.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'

/** The access-list targets (the legacy grant/revoke endpoints) among a credential's entitlements. */
export const ACCESS_TARGET_TYPES = ['API_PROXY', 'API_PROXY_GROUP'] as const

/** What every credential read includes: its owners, its roles and its live access list (for the gateway and the views). */
export const credentialOwners = {
  organization: true,
  application: true,
  roleGrants: { select: { role: { select: { name: true } } }, orderBy: { role: { name: 'asc' } } },
  entitlements: {
    where: { status: 'ACTIVE', targetType: { in: [...ACCESS_TARGET_TYPES] } },
    select: { targetType: true, targetRef: true, validUntil: true },
    orderBy: [{ targetType: 'asc' }, { targetRef: 'asc' }],
  },
  material: { select: { slot: true, object: { select: { name: true, kind: true, project: { select: { name: true } } } } }, orderBy: { slot: 'asc' } },
} as const satisfies Prisma.CredentialInclude

export type CredentialWithOwners = Prisma.CredentialGetPayload<{ include: typeof credentialOwners }>

export const roleNamesOf = (credential: CredentialWithOwners) => credential.roleGrants.map((g) => g.role.name)

/** One access item: `{ name, type }`, and the grant's expireTime (the entitlement's validUntil) when it has one. */
export const accessItemOf = (e: { targetType: string; targetRef: string; validUntil: Date | null }) =>
  ({ name: e.targetRef, type: e.targetType, ...(e.validUntil ? { expireTime: e.validUntil.toISOString() } : {}) })

/** The access list as the credential endpoints (and the gateway) see it, API proxies first. */
export const accessListOf = (credential: CredentialWithOwners) => credential.entitlements.map(accessItemOf)

/**
 * What a gateway worker receives for a credential. The password is decrypted here because the gateway
 * authenticates with it; a suspended organization or application stops the credential's traffic.
 */
export function credentialRuntimeConfig(credential: CredentialWithOwners, keyring: SecretKeyring) {
  const trafficAllowed =
    credential.enabled && !credential.organization?.suspended && (credential.application?.appStatus ?? 'ACTIVE') === 'ACTIVE'
  return {
    username: credential.username,
    consumerKey: credential.consumerKey,
    enabled: credential.enabled,
    trafficAllowed,
    fullName: credential.fullName,
    email: credential.email,
    organizationCode: credential.organization?.code ?? null,
    applicationName: credential.application?.name ?? null,
    expireDate: credential.expireDate?.toISOString() ?? null,
    trafficLogDisabled: Boolean(credential.trafficLogDisabled || credential.application?.trafficLogDisabled),
    tokenSettings: credential.tokenSettings,
    roleNameList: roleNamesOf(credential),
    /** allowed client addresses (IP or CIDR); empty = any */
    ipList: credential.ipList,
    access: accessListOf(credential),
    password: runtimePassword(credential, keyring),
    /** the security material (modules/credentials/material.ts): per slot the object's project, kind and name */
    material: runtimeMaterial(credential),
  }
}

const runtimeMaterial = (credential: CredentialWithOwners) =>
  Object.fromEntries(credential.material.map((m) => [m.slot, { project: m.object.project.name, kind: m.object.kind, name: m.object.name }]))

/**
 * The password as the gateway needs it: decrypted when sealed under a key we hold; a reference or a legacy
 * plain value as stored; nothing when it is sealed under a key this installation does not hold.
 */
function runtimePassword(credential: Credential, keyring: SecretKeyring): string | null {
  const stored = credential.passwordCipher
  if (!stored) return null
  if (credential.passwordFormat !== 'SEALED') return stored
  return keyring.knows(stored) ? keyring.decrypt(stored) : null
}
