import crypto from 'node:crypto'
import type { Tx } from '../../platform/context.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'

/** A freshly issued client secret: the clear value exists only in this object, for the one response that shows it. */
export interface IssuedSecret { clientSecret: string; secretVersion: number }

const SECRET_PREFIX = 'acs_'

/**
 * Issues the next secret version of a client: sealed under the master key, previous live versions retired
 * in the same transaction. Nothing in the service decrypts these values again.
 */
export async function issueClientSecret(tx: Tx, keyring: SecretKeyring, apiClientId: string): Promise<IssuedSecret> {
  const clientSecret = SECRET_PREFIX + crypto.randomBytes(32).toString('base64url')
  const latest = await tx.apiClientSecret.findFirst({ where: { apiClientId }, orderBy: { version: 'desc' }, select: { version: true } })
  const secretVersion = (latest?.version ?? 0) + 1
  await tx.apiClientSecret.updateMany({ where: { apiClientId, retiredAt: null }, data: { retiredAt: new Date() } })
  await tx.apiClientSecret.create({ data: { apiClientId, version: secretVersion, secretCipher: keyring.encrypt(clientSecret), origin: 'ISSUED', recoveryState: 'AVAILABLE' } })
  return { clientSecret, secretVersion }
}

/** A revoked client keeps its history but no live secret. */
export async function retireClientSecrets(tx: Tx, apiClientId: string): Promise<void> {
  await tx.apiClientSecret.updateMany({ where: { apiClientId, retiredAt: null }, data: { retiredAt: new Date() } })
}

/**
 * A secret a declarative state file carries (resolved by gwctl from a `${env:…}` or `${file:…}` reference): the next
 * secret version, sealed under the master key (origin CARRIED), the previous live versions retired in the same
 * transaction. The value is never logged nor answered.
 */
export async function carryClientSecret(tx: Tx, keyring: SecretKeyring, apiClientId: string, clientSecret: string): Promise<number> {
  const latest = await tx.apiClientSecret.findFirst({ where: { apiClientId }, orderBy: { version: 'desc' }, select: { version: true } })
  const secretVersion = (latest?.version ?? 0) + 1
  await tx.apiClientSecret.updateMany({ where: { apiClientId, retiredAt: null }, data: { retiredAt: new Date() } })
  await tx.apiClientSecret.create({ data: { apiClientId, version: secretVersion, secretCipher: keyring.encrypt(clientSecret), origin: 'CARRIED', recoveryState: 'AVAILABLE' } })
  return secretVersion
}

/** The clear value of a client's live secret, for the keyed fingerprint a declarative plan compares (never shown). */
export const liveSecretValue = (keyring: SecretKeyring, sealed: string | undefined): string | undefined =>
  sealed && keyring.knows(sealed) ? keyring.decrypt(sealed) : undefined
