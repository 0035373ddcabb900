import crypto from 'node:crypto'

/** Permanent, URL-safe public keys (consumerKey, applicationKey, apiClientKey): random, never derived from ids. */
export const mintPublicKey = (prefix: string) => `${prefix}_${crypto.randomBytes(16).toString('base64url')}`
