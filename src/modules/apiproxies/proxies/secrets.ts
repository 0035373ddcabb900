import { looksSealed, type SecretKeyring } from '../../../platform/secrets/keyring.js'
import type { ObjectFile } from '../../../platform/transfer/package/format.js'
import { SETTINGS_SECRETS } from '../settings/service.js'
import { getAt, markAbsentSecrets, openPolicySecrets, parsePathLabel, pathLabel, secretPaths, setAt, withoutSecretValues, type SecretPath } from '../policies/policy-secrets.js'

// The one rule for every secret of an API proxy package, settings and policies alike (docs/apiproxies.md, "Export
// and import"): `data` never holds one; each travels in the object file's `secrets` under a key
// (`settings/<section>.<field>`, `policies/<policy>/<field path>`) per secretHandling, sealed and opened by the
// transfer module's package/secrets.ts. On import a secret that opens is restored (sealed again here); one the package
// names but does not restore stays empty on a new proxy and keeps the target's value when a proxy is replaced.

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v)
const settingsKey = (s: (typeof SETTINGS_SECRETS)[number]) => `settings/${s.section}.${s.field}`
const policyPrefix = (policyName: string) => `policies/${policyName}/`
const sectionOf = (settings: unknown, section: string): Json | null => (isObject(settings) && isObject(settings[section]) ? settings[section] : null)

/** Export: the stored settings without their secrets, and each secret in clear by its package key. */
export function splitSettingsSecrets(keyring: SecretKeyring, stored: unknown): { settings: unknown; secrets: Record<string, string> } {
  if (!isObject(stored)) return { settings: stored ?? null, secrets: {} }
  const settings = structuredClone(stored)
  const secrets: Record<string, string> = {}
  for (const s of SETTINGS_SECRETS) {
    const part = sectionOf(settings, s.section)
    const value = part?.[s.field]
    if (!part || !(s.field in part)) continue
    delete part[s.field]
    if (typeof value === 'string' && value) secrets[settingsKey(s)] = keyring.knows(value) ? keyring.decrypt(value) : value
  }
  return { settings, secrets }
}

/** Export: a stored policy config without its secrets, and each secret in clear by its package key. */
export function splitPolicySecrets(keyring: SecretKeyring, policyName: string, stored: unknown): { config: unknown; secrets: Record<string, string> } {
  const { config, removed } = withoutSecretValues(stored)
  const open = removed.length ? openPolicySecrets(keyring, stored) : stored
  return { config, secrets: Object.fromEntries(removed.map((path) => [`${policyPrefix(policyName)}${pathLabel(path)}`, getAt(open, path) as string])) }
}

/**
 * Import: moves any secret value a package holds in `data` (exported before this rule, or written by hand) out of
 * it, into object-file entries that the transfer module's openPackageSecrets opens like any other: one in the
 * sealed format as CIPHERTEXT_VERBATIM (opened only under this installation's keys), any other as a clear value.
 */
export function hoistInlineSecrets(data: unknown): ObjectFile['secrets'] {
  const entries: ObjectFile['secrets'] = {}
  const hoist = (key: string, value: string) => {
    entries[key] = looksSealed(value) ? { handling: 'CIPHERTEXT_VERBATIM', value } : { handling: 'DECRYPTED_FOR_EXPORT', value }
  }
  if (!isObject(data)) return entries
  for (const s of SETTINGS_SECRETS) {
    const part = sectionOf(data.settings, s.section)
    const value = part?.[s.field]
    if (!part || value === undefined) continue
    delete part[s.field]
    if (typeof value === 'string' && value) hoist(settingsKey(s), value)
  }
  for (const entry of Array.isArray(data.policies) ? data.policies : []) {
    if (!isObject(entry) || typeof entry.name !== 'string' || !isObject(entry.policy)) continue
    for (const path of secretPaths(entry.policy)) {
      hoist(`${policyPrefix(entry.name)}${pathLabel(path)}`, getAt(entry.policy, path) as string)
      setAt(entry.policy, path, undefined)
    }
  }
  return entries
}

/** Per part of the proxy: the secrets the package names but does not restore, kept from the target on a replace. */
export interface UnrestoredSecrets {
  /** settings package keys */
  settings: string[]
  /** per policy name (lower case): the secret paths */
  policies: Map<string, SecretPath[]>
}

/**
 * Import, before validation: puts the restored secrets (clear, by package key) into `data` (in place) and marks
 * the named ones it cannot restore, so a policy's required secret the package left out does not fail validation.
 */
export function placePackageSecrets(data: unknown, restored: Record<string, string>, unrestored: string[]): UnrestoredSecrets {
  const out: UnrestoredSecrets = { settings: [], policies: new Map() }
  if (!isObject(data)) return out
  const missing = new Set(unrestored)
  for (const s of SETTINGS_SECRETS) {
    const key = settingsKey(s)
    const part = sectionOf(data.settings, s.section)
    if (restored[key] !== undefined && part) part[s.field] = restored[key]
    else if (missing.has(key) || restored[key] !== undefined) out.settings.push(key)
  }
  for (const entry of Array.isArray(data.policies) ? data.policies : []) {
    if (!isObject(entry) || typeof entry.name !== 'string' || !isObject(entry.policy)) continue
    const prefix = policyPrefix(entry.name)
    const absent: SecretPath[] = []
    for (const key of [...Object.keys(restored), ...missing]) {
      const path = key.startsWith(prefix) ? parsePathLabel(key.slice(prefix.length)) : null
      if (!path) continue
      if (restored[key] === undefined || !setAt(entry.policy, path, restored[key])) absent.push(path)
    }
    const marked = markAbsentSecrets(entry.policy, absent)
    entry.policy = marked.policy
    if (marked.kept.length) out.policies.set(entry.name.toLowerCase(), marked.kept)
  }
  return out
}

/**
 * Import, when writing: the settings as stored, every secret they carry sealed, the unrestored ones given the
 * target's stored value (`from`: the replaced proxy's settings; null for a new proxy).
 */
export function sealSettingsSecrets(keyring: SecretKeyring, settings: unknown, unrestored: string[], from: unknown): unknown {
  if (!isObject(settings)) return settings
  const out = structuredClone(settings)
  for (const s of SETTINGS_SECRETS) {
    const part = sectionOf(out, s.section)
    if (!part) continue
    const value = part[s.field]
    const kept = sectionOf(from, s.section)?.[s.field]
    if (typeof value === 'string' && value) part[s.field] = keyring.encrypt(value)
    else if (unrestored.includes(settingsKey(s)) && typeof kept === 'string' && kept) part[s.field] = kept
  }
  return out
}
