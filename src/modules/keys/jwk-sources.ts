import crypto, { X509Certificate } from 'node:crypto'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Deps } from '../../platform/context.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { fetchSpecDocument } from '../../platform/http/outbound-fetch.js'
import { jwkOfKeyObject, validateJwk, type Jwk } from './crypto/jwk-material.js'
import { certificateNotFound, keyMaterial, keyNotFound, keystoreEntryMaterial, keystoreNotFound } from './materials.js'
import { environmentsOf, findObject, isRecord, requiredName } from './store.js'

// Where a JWK comes from (the pages' sourceType): a certificate, a key or a keystore entry of the project, a
// pasted JWK or JWK Set, or one fetched from a URL. Each gives the key (private members included when the
// source has them) and what to remember of the source.

export const SOURCE_TYPES = ['URL', 'COPY_PASTE', 'CERTIFICATE', 'PUBLIC_KEY', 'PRIVATE_KEY', 'KEYSTORE', 'GENERATE'] as const
export type SourceType = (typeof SOURCE_TYPES)[number]

export interface DerivedJwk {
  jwk: Jwk
  sourceType: SourceType
  sourceId: string | null
  sourceUrl: string | null
  sourceEnvironment: string | null
  sourceAlias: string | null
}

/** x5c (leaf first) and the SHA-256 certificate thumbprint: public, so they travel with the public members. */
const certificateMembers = (chain: X509Certificate[]) =>
  chain.length ? { x5c: chain.map((c) => c.raw.toString('base64')), 'x5t#S256': crypto.createHash('sha256').update(chain[0]!.raw).digest('base64url') } : {}

export function fromCertificateRow(row: StoredObject, envName: string): DerivedJwk {
  const entry = environmentsOf(row)[envName]
  if (!entry || typeof entry.base64EncodedContent !== 'string') {
    throw malformed(`Certificate (name: ${row.name}) has no environment '${envName}'`, { field: 'environmentName' })
  }
  const leaf = new X509Certificate(Buffer.from(entry.base64EncodedContent, 'base64'))
  const chain = [leaf, ...(Array.isArray(entry.chain) ? entry.chain.map((c) => new X509Certificate(Buffer.from(String(c), 'base64'))) : [])]
  return { jwk: { ...jwkOfKeyObject(leaf.publicKey), ...certificateMembers(chain) }, sourceType: 'CERTIFICATE', sourceId: row.id, sourceUrl: null, sourceEnvironment: envName, sourceAlias: null }
}

export function fromKeyRow(deps: Deps, row: StoredObject, envName: string, sourceType: 'PUBLIC_KEY' | 'PRIVATE_KEY'): DerivedJwk {
  const { privateKey, publicKey } = keyMaterial(deps, row, envName)
  if (sourceType === 'PRIVATE_KEY' && !privateKey) throw malformed(`Key (name: ${row.name}) has no private key in environment '${envName}': use sourceType PUBLIC_KEY`, { field: 'sourceType' })
  const jwk = jwkOfKeyObject(sourceType === 'PRIVATE_KEY' ? privateKey! : publicKey)
  return { jwk, sourceType, sourceId: row.id, sourceUrl: null, sourceEnvironment: envName, sourceAlias: null }
}

export function fromKeystoreRow(deps: Deps, row: StoredObject, envName: string, alias: string): DerivedJwk {
  const material = keystoreEntryMaterial(deps, row, envName, alias)
  const base = material.privateKey ? jwkOfKeyObject(material.privateKey) : jwkOfKeyObject(material.chain[0]!.publicKey)
  return { jwk: { ...base, ...certificateMembers(material.chain) }, sourceType: 'KEYSTORE', sourceId: row.id, sourceUrl: null, sourceEnvironment: envName, sourceAlias: alias }
}

/** The source object of the project by name: certificate, key or keystore. */
export async function sourceRow(deps: Deps, projectId: string, kind: 'CERTIFICATE' | 'CRYPTO_KEY_INFO' | 'KEY_STORE', rawName: unknown, field: string) {
  const name = requiredName(rawName, field)
  const row = await findObject(deps.prisma, projectId, kind, name)
  if (!row) throw kind === 'CERTIFICATE' ? certificateNotFound(name) : kind === 'CRYPTO_KEY_INFO' ? keyNotFound(name) : keystoreNotFound(name)
  return row
}

/**
 * A JWK or a JWK Set as JSON text. A set with one key gives it; with several, `kid` picks one (required).
 * `field` names where the text came from.
 */
export function selectJwk(text: string, kid: string | undefined, field: string): Jwk {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw malformed(`${field} is not valid JSON`, { field })
  }
  if (isRecord(parsed) && Array.isArray(parsed.keys)) {
    const keys = parsed.keys.filter(isRecord)
    if (!keys.length) throw malformed(`${field} holds a JWK Set without keys`, { field })
    let chosen: Record<string, unknown> | undefined
    if (kid) {
      chosen = keys.find((k) => k.kid === kid)
      if (!chosen) throw malformed(`kid '${kid}' is not in the JWK Set of ${field} (kids: ${keys.map((k) => String(k.kid ?? '-')).join(', ')})`, { field: 'kid' })
    } else if (keys.length === 1) chosen = keys[0]
    else throw malformed(`kid is required: the JWK Set of ${field} holds ${keys.length} keys`, { field: 'kid' })
    return validateJwk(chosen, field)
  }
  const jwk = validateJwk(parsed, field)
  if (kid && jwk.kid !== undefined && jwk.kid !== kid) throw malformed(`kid '${kid}' does not match the kid '${String(jwk.kid)}' of ${field}`, { field: 'kid' })
  return jwk
}

export interface UrlOptions { urlOptionConnectTimeout?: unknown; urlOptionReadTimeout?: unknown; urlOptionSizeLimit?: unknown }

const bounded = (value: unknown, field: string, fallback: number, max: number) => {
  if (value === undefined || value === null || value === '') return fallback
  const n = typeof value === 'string' ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) throw malformed(`${field} must be a whole number from 1 to ${max}`, { field })
  return n
}

/** The page's defaults: connect 5 s, read 10 s, 1 MiB; the service caps them at 60 s and 5 MiB. */
export async function fromUrl(deps: Deps, rawUrl: unknown, kid: string | undefined, options: UrlOptions): Promise<DerivedJwk> {
  if (typeof rawUrl !== 'string' || !rawUrl.trim()) throw malformed('URL is required for URL source type!', { field: 'url' })
  const connect = bounded(options.urlOptionConnectTimeout, 'urlOptionConnectTimeout', 5000, 60_000)
  const read = bounded(options.urlOptionReadTimeout, 'urlOptionReadTimeout', 10_000, 60_000)
  const size = bounded(options.urlOptionSizeLimit, 'urlOptionSizeLimit', 1024 * 1024, 5 * 1024 * 1024)
  const text = await fetchSpecDocument(rawUrl.trim(), {
    allowPrivateAddresses: deps.config.specFetch.allowPrivateAddresses, timeoutMs: connect + read, connectTimeoutMs: connect, maxBytes: size, field: 'url',
  })
  return { jwk: selectJwk(text, kid, 'url'), sourceType: 'URL', sourceId: null, sourceUrl: rawUrl.trim(), sourceEnvironment: null, sourceAlias: null }
}
