import type { SecretKeyring } from '../../secrets/keyring.js'
import type { Advisory } from '../registry.js'
import type { ObjectFile, SecretHandling } from './format.js'

// How secrets travel in an object file (docs/transfer.md, README "Secrets in export packages"): the one place that
// seals them for a package and opens them on import, for the transfer engine and the API proxy export/import alike.

/** Secrets of an unencrypted package travel as re-sealed ciphertext unless the caller chooses otherwise. */
export const DEFAULT_SECRET_HANDLING: SecretHandling = 'CIPHERTEXT_VERBATIM'

/** Each clear secret as it travels under `handling`: left out (NONE), re-sealed with this keyring, or in clear. */
export function packageSecrets(keyring: SecretKeyring, clear: Record<string, string>, handling: SecretHandling): ObjectFile['secrets'] {
  const secrets: ObjectFile['secrets'] = {}
  for (const [field, value] of Object.entries(clear)) {
    if (handling === 'NONE') secrets[field] = { handling }
    else if (handling === 'CIPHERTEXT_VERBATIM') secrets[field] = { handling, value: keyring.encrypt(value) }
    else secrets[field] = { handling, value }
  }
  return secrets
}

/** The manifest's critical features a package needs for its secrets: a reader must know re-sealed ciphertext. */
export const secretCriticalFeatures = (handling: SecretHandling, anySecret: boolean): string[] =>
  handling === 'CIPHERTEXT_VERBATIM' && anySecret ? ['secrets.ciphertextVerbatim'] : []

export interface OpenedSecrets {
  /** the clear values restored here, by field */
  secrets: Record<string, string>
  /** fields the package names but whose value is not restored here (left out, or sealed under another key) */
  uncarried: string[]
  /** transfer.secretNotCarried / transfer.secretUnavailable, naming the fields */
  advisories: Advisory[]
}

/**
 * The secrets of an object file (`object` names it in advisories): DECRYPTED_FOR_EXPORT values as they are,
 * CIPHERTEXT_VERBATIM ones when this installation's keyring opens them; the others are not restored, and said so.
 */
export function openPackageSecrets(keyring: SecretKeyring, object: string, packaged: ObjectFile['secrets']): OpenedSecrets {
  const secrets: Record<string, string> = {}
  const notCarried: string[] = []
  const unavailable: string[] = []
  for (const [field, s] of Object.entries(packaged)) {
    if (s.handling === 'NONE' || s.value === undefined) notCarried.push(field)
    else if (s.handling === 'DECRYPTED_FOR_EXPORT') secrets[field] = s.value
    else {
      const clear = opened(keyring, s.value)
      if (clear === null) unavailable.push(field)
      else secrets[field] = clear
    }
  }
  const advisories: Advisory[] = []
  if (notCarried.length) advisories.push({ level: 'WARNING', key: 'transfer.secretNotCarried', params: { object, fields: notCarried.sort() } })
  if (unavailable.length) advisories.push({ level: 'WARNING', key: 'transfer.secretUnavailable', params: { object, fields: unavailable.sort() } })
  return { secrets, uncarried: [...notCarried, ...unavailable].sort(), advisories }
}

/** The clear value of a sealed one when this keyring opens it (a tampered value does not), else null. */
function opened(keyring: SecretKeyring, sealed: string): string | null {
  if (!keyring.knows(sealed)) return null
  try {
    return keyring.decrypt(sealed)
  } catch {
    return null
  }
}
