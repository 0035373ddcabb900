// Routing configs, backend addresses and policy configs are returned on every read. Whatever would carry a secret
// there in clear is refused: credentials go through `auth` (sealed, never returned) or a variable reference
// `${name}` resolved by the gateway at request time.

/** A URL with a user name or password in it. */
export function hasNoCredentials(url: string): boolean {
  if (!URL.canParse(url)) return true // the URL rule reports it
  const parsed = new URL(url)
  return parsed.username === '' && parsed.password === ''
}
export const CREDENTIALS_IN_URL = 'must not carry a user name or password: set credentials through auth, where they are stored encrypted and never returned'

/** Header names that carry a credential: the standard ones and any naming a token, secret, key or password. */
export function isCredentialHeader(name: string): boolean {
  return /^(authorization|proxy-authorization|cookie)$/i.test(name) || /(token|secret|password|passwd|api-?key|private-?key)/i.test(name)
}

/** Secret-named keys of a JSON config: `token`, or ending in password, secret, apiKey, privateKey, accessToken, bearerToken. */
const SECRET_KEY = /^(token|.*(password|passwd|secret|api[-_]?key|private[-_]?key|access[-_]?token|bearer[-_]?token))$/i
const VARIABLE_REFERENCE = /^\$\{[^{}]+\}$/
export const SECRET_IN_CONFIG = 'carries a literal secret, which would be returned on every read: reference it as a variable (${name}) resolved by the gateway'

/** Paths of the secret-named keys, at any depth, that hold a literal (non-empty, not a variable reference) string. */
export function literalSecrets(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => literalSecrets(v, [...path, i]))
  if (!value || typeof value !== 'object') return []
  return Object.entries(value).flatMap(([key, v]) =>
    typeof v === 'string' && v !== '' && SECRET_KEY.test(key) && !VARIABLE_REFERENCE.test(v.trim()) ? [[...path, key]] : literalSecrets(v, [...path, key]))
}
