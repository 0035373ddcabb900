import type { Credential } from '../../generated/prisma/client.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'

export type CarryKind = 'CARRIED' | 'CARRIED_RAW' | 'CARRIED_REFERENCE'

export type SourceMaterial =
  | { kind: CarryKind; material: string; recoveryState: 'AVAILABLE' | 'UNAVAILABLE'; detail: string }
  | { kind: 'SKIPPED_BLANK_SECRET' | 'FAILED_DECRYPT'; detail: string }

const REFERENCE = /^\$\{[^}]+\}$/

/**
 * What a credential's stored password can become as client secret material:
 * sealed under a key we hold → decrypted and re-sealed (CARRIED); plain or sealed under a key we do not
 * hold → the stored bytes as they are (CARRIED_RAW); a `${variable}` reference → kept as a reference,
 * which cannot be recovered (CARRIED_REFERENCE). A value sealed under one of our keys that will not
 * open is FAILED_DECRYPT.
 */
export function sourceMaterial(credential: Credential, keyring: SecretKeyring): SourceMaterial {
  const stored = credential.passwordCipher
  if (!stored || !stored.trim()) return { kind: 'SKIPPED_BLANK_SECRET', detail: 'the credential has no password' }
  if (credential.passwordFormat === 'REFERENCE' || REFERENCE.test(stored)) {
    return { kind: 'CARRIED_REFERENCE', material: stored, recoveryState: 'UNAVAILABLE', detail: 'password is a variable reference' }
  }
  if (credential.passwordFormat === 'PLAIN') {
    return { kind: 'CARRIED_RAW', material: stored, recoveryState: 'AVAILABLE', detail: 'password was stored plain' }
  }
  if (!keyring.knows(stored)) {
    return { kind: 'CARRIED_RAW', material: stored, recoveryState: 'UNAVAILABLE', detail: 'password is sealed under a key this installation does not hold' }
  }
  try {
    return { kind: 'CARRIED', material: keyring.decrypt(stored), recoveryState: 'AVAILABLE', detail: 'password decrypted and re-sealed' }
  } catch {
    return { kind: 'FAILED_DECRYPT', detail: 'password is sealed under a known key but does not decrypt' }
  }
}
