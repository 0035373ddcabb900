import { z } from 'zod'

/** An HTTP header name (RFC 9110 token): anything else would make every request with it fail. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** The authHeaderName field of providers, definitions and vector stores: blank means the scheme's default. */
export const headerNameField = () =>
  z.string().max(200, 'must be at most 200 characters')
    .refine((v) => v.trim() === '' || HEADER_NAME.test(v.trim()), "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-, no spaces)")
    .nullish()

/**
 * The headers an auth scheme asks for, the one reading of the schemes for every call this service makes
 * itself (embedding at ingest through a provider, a vector store connection test). BEARER and OAUTH2 send
 * `Bearer <key>` in authHeaderName (default Authorization); API_KEY_HEADER and CUSTOM send the key in
 * authHeaderName (default api-key); BASIC sends key (or key:secret when a secret is given) base64-encoded;
 * NONE and a blank key send nothing. null for a scheme only the gateway can apply (the cloud signature).
 */
export function authHeaders(scheme: string, headerName: string | null | undefined, key: string | null | undefined, secret?: string | null): Record<string, string> | null {
  const value = key != null && key.trim() !== '' ? key : null
  const header = headerName?.trim()
  switch (scheme) {
    case 'NONE':
      return {}
    case 'BEARER':
    case 'OAUTH2':
      return value ? { [header || 'Authorization']: `Bearer ${value}` } : {}
    case 'BASIC':
      return value ? { authorization: `Basic ${Buffer.from(secret === undefined ? value : `${value}:${secret ?? ''}`).toString('base64')}` } : {}
    case 'API_KEY_HEADER':
    case 'CUSTOM':
      return value ? { [header || 'api-key']: value } : {}
    default:
      return null
  }
}
