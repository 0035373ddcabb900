import type { Credential, Organization, Application } from '../../generated/prisma/client.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'

export type CredentialWithOwners = Credential & { organization: Organization | null; application: Application | null }

export const credentialOwners = { organization: true, application: true } as const

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
    password: runtimePassword(credential, keyring),
  }
}

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
