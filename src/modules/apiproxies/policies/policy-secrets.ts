import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { ENV_REFERENCE } from './catalogue/common.js'
import { SECRET_FIELDS } from './catalogue/index.js'

// Policy secrets are write-only (docs/policy-catalogue.md, "Secrets"): the fields of SECRET_FIELDS, at any depth of
// a policy, are sealed with the keyring when written (as the settings pages seal the NTLM and proxy-server
// passwords), shown as `<field>Set` on every read, opened only in the config pushed to the workers, and never put in
// an export package. A value `${NAME}` (an environment variable reference) is not a secret: stored and shown as is.

export type SecretPath = (string | number)[]
type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v)
/** A secret value: a non-empty string that is not a `${NAME}` reference. */
export const isSecretLiteral = (v: unknown): v is string => typeof v === 'string' && v !== '' && !ENV_REFERENCE.test(v.trim())

/** Paths of the secret fields holding a secret (sealed, or still clear), at any depth. */
export function secretPaths(value: unknown, path: SecretPath = []): SecretPath[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => secretPaths(v, [...path, i]))
  if (!isObject(value)) return []
  return Object.entries(value).flatMap(([k, v]) => (SECRET_FIELDS.has(k) && isSecretLiteral(v) ? [[...path, k]] : secretPaths(v, [...path, k])))
}

export function getAt(value: unknown, path: SecretPath): unknown {
  let at = value
  for (const step of path) {
    if (!at || typeof at !== 'object') return undefined
    at = (at as Record<string | number, unknown>)[step]
  }
  return at
}

/** The object holding the last step of `path` (null when the path does not lead to one). */
const parentOf = (value: unknown, path: SecretPath): Record<string | number, unknown> | null => {
  const parent = getAt(value, path.slice(0, -1))
  return parent && typeof parent === 'object' ? (parent as Record<string | number, unknown>) : null
}

/** Sets `path` in `value` (in place) when its parent exists; `undefined` removes the field. */
export function setAt(value: unknown, path: SecretPath, v: unknown): boolean {
  const parent = parentOf(value, path)
  if (!parent) return false
  const key = path.at(-1)!
  if (v === undefined) delete parent[key]
  else parent[key] = v
  return true
}

/** `a.b[0].c` for messages and the package's secrets map. */
export const pathLabel = (path: SecretPath) => path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i ? `.${s}` : s)).join('')
const PLACEHOLDER = '(kept)'

/**
 * Before validation: every secret `stored` holds whose field `raw` leaves absent (its parent present) is filled
 * with a placeholder, so a required secret need not be sent again. Returns the filled copy and the paths filled;
 * keepStoredSecrets puts the stored values there after validation.
 */
export function markAbsentSecrets(raw: unknown, paths: SecretPath[]): { policy: unknown; kept: SecretPath[] } {
  if (!isObject(raw) || !paths.length) return { policy: raw, kept: [] }
  const policy = structuredClone(raw)
  const kept = paths.filter((p) => {
    const parent = parentOf(policy, p)
    return !!parent && !Array.isArray(parent) && parent[p.at(-1)!] === undefined && setAt(policy, p, PLACEHOLDER)
  })
  return { policy, kept }
}

/**
 * The validated policy as stored: every secret it carries sealed, the `kept` paths given the value `from` holds
 * there (a stored value still in clear, from before secrets were sealed, is sealed now); `from` null drops them.
 */
export function sealPolicySecrets(keyring: SecretKeyring, policy: Json, kept: SecretPath[] = [], from: unknown = null): Json {
  const out = structuredClone(policy)
  const keptKeys = new Set(kept.map((p) => JSON.stringify(p)))
  for (const path of kept) {
    const stored = getAt(from, path)
    setAt(out, path, isSecretLiteral(stored) ? stored : undefined)
  }
  for (const path of secretPaths(out)) {
    const value = getAt(out, path) as string
    // a kept value is already ours when sealed; anything written now is sealed, whatever it looks like
    if (keptKeys.has(JSON.stringify(path)) && keyring.knows(value)) continue
    setAt(out, path, keyring.encrypt(value))
  }
  return out
}

/** The stored policy as the gateway runs it: its secrets opened (a value still in clear, stored before sealing, as is). */
export function openPolicySecrets(keyring: SecretKeyring, config: unknown): unknown {
  const paths = secretPaths(config)
  if (!paths.length) return config
  const out = structuredClone(config)
  for (const path of paths) {
    const value = getAt(out, path) as string
    if (keyring.knows(value)) setAt(out, path, keyring.decrypt(value))
  }
  return out
}

/** The stored policy as the doors show it: each secret field replaced by `<field>Set` (true when it holds one). */
export function policySecretsView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(policySecretsView)
  if (!isObject(value)) return value
  const out: Json = {}
  for (const [k, v] of Object.entries(value)) {
    if (!SECRET_FIELDS.has(k)) out[k] = policySecretsView(v)
    else if (isSecretLiteral(v)) out[`${k}Set`] = true
    else if (v === null || v === '') out[`${k}Set`] = false
    else out[k] = v // a `${NAME}` reference is not a secret
  }
  return out
}

/** The policy for an export package: its secrets left out, and the paths of those it had. */
export function withoutSecretValues(config: unknown): { config: unknown; removed: SecretPath[] } {
  const removed = secretPaths(config)
  if (!removed.length) return { config, removed }
  const out = structuredClone(config)
  for (const path of removed) setAt(out, path, undefined)
  return { config: out, removed }
}

/** Parses `a.b[0].c` back into a path (the package's secrets map). */
export function parsePathLabel(label: string): SecretPath | null {
  const path: SecretPath = []
  const re = /([A-Za-z_$][\w$-]*)|\[(\d{1,6})\]|\./g
  let m: RegExpExecArray | null
  let consumed = 0
  while ((m = re.exec(label))) {
    if (m.index !== consumed) return null
    consumed = m.index + m[0].length
    if (m[1] !== undefined) path.push(m[1])
    else if (m[2] !== undefined) path.push(Number(m[2]))
  }
  return consumed === label.length && path.length && typeof path.at(-1) === 'string' && SECRET_FIELDS.has(path.at(-1) as string) ? path : null
}
