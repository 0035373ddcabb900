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
    password: credential.passwordCipher ? keyring.decrypt(credential.passwordCipher) : null,
  }
}
