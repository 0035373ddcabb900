import crypto from 'node:crypto'

/** Permanent, URL-safe public keys (consumerKey, applicationKey, apiClientKey): random, never derived from ids. */
export const mintPublicKey = (prefix: string) => `${prefix}_${crypto.randomBytes(16).toString('base64url')}`

/** n keys as mintPublicKey makes them, from one call for random bytes (a bulk chunk mints 200 at once). */
export function mintPublicKeys(prefix: string, n: number): string[] {
  const bytes = crypto.randomBytes(16 * n)
  return Array.from({ length: n }, (_, i) => `${prefix}_${bytes.subarray(16 * i, 16 * i + 16).toString('base64url')}`)
}
