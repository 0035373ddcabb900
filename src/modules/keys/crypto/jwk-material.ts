import crypto from 'node:crypto'
import * as jose from 'jose'
import { malformed } from '../../../platform/errors/domain-error.js'

// JSON Web Keys: generated (jose for RSA and the NIST curves; node's crypto for secp256k1, which jose does not
// support, for OKP and for symmetric keys), read from key objects, validated, split into the public members
// (shown) and the private ones (sealed at rest, never shown), identified by RFC 7638 thumbprints.

export type Jwk = Record<string, unknown> & { kty: string }
export const JWK_TYPES = ['RSA', 'EC', 'OCT', 'OKP'] as const
export type JwkType = (typeof JWK_TYPES)[number]
export const USE_TYPES = ['SIGNATURE', 'ENCRYPTION'] as const
export type UseType = (typeof USE_TYPES)[number]
export const KEY_ID_TYPES = ['TIMESTAMP', 'SHA256', 'SHA1', 'ISO_DATE', 'NONE'] as const
export type KeyIdType = (typeof KEY_ID_TYPES)[number]

const KW = ['A128KW', 'A192KW', 'A256KW']
const ECDH = ['ECDH-ES', ...KW.map((k) => `ECDH-ES+${k}`), 'ECDH-1PU', ...KW.map((k) => `ECDH-1PU+${k}`)]
/** The algorithms the pages list per key type and use. */
export const ALGORITHMS: Record<JwkType, Record<UseType, string[]>> = {
  RSA: { SIGNATURE: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'], ENCRYPTION: ['RSA1_5', 'RSA-OAEP', 'RSA-OAEP-256', 'RSA-OAEP-384', 'RSA-OAEP-512'] },
  EC: { SIGNATURE: ['ES256', 'ES384', 'ES512', 'ES256K'], ENCRYPTION: ECDH },
  OCT: {
    SIGNATURE: ['HS256', 'HS384', 'HS512'],
    ENCRYPTION: [...KW, 'A128GCMKW', 'A192GCMKW', 'A256GCMKW', 'dir', 'PBES2-HS256+A128KW', 'PBES2-HS384+A192KW', 'PBES2-HS512+A256KW'],
  },
  OKP: { SIGNATURE: ['EdDSA'], ENCRYPTION: ECDH },
}
const EC_SIGNATURE_CURVE: Record<string, string> = { ES256: 'P-256', ES384: 'P-384', ES512: 'P-521', ES256K: 'secp256k1' }

/** `RSA256`, `RSA_OAEP_256`, `ECDH_ES_A128KW` (the generate page's enum names) → the JOSE names. */
export function normalizeAlgorithm(raw: string): string {
  const t = raw.trim()
  const alias: Record<string, string> = { RSA256: 'RS256', RSA384: 'RS384', RSA512: 'RS512' }
  if (alias[t.toUpperCase()]) return alias[t.toUpperCase()]!
  const u = t
    .replace(/^RSA_OAEP/i, 'RSA-OAEP').replace(/^ECDH_ES/i, 'ECDH-ES').replace(/^ECDH_1PU/i, 'ECDH-1PU').replace(/^PBES2_HS(\d+)/i, 'PBES2-HS$1')
    .replace(/_(A\d+KW)$/i, '+$1').replace(/^(RSA-OAEP)_(\d+)$/i, '$1-$2')
  const all = Object.values(ALGORITHMS).flatMap((byUse) => [...byUse.SIGNATURE, ...byUse.ENCRYPTION])
  return all.find((a) => a.toUpperCase() === u.toUpperCase()) ?? t
}

export const jwkTypeOf = (kty: string): JwkType => (kty === 'oct' ? 'OCT' : (kty.toUpperCase() as JwkType))

/**
 * The algorithm for a key of `type` (curve `crv`) used for `use`: the one given (checked against the page's
 * table and, for EC signatures, the curve), else the default for the key.
 */
export function algorithmFor(type: JwkType, use: UseType, given: string | undefined | null, crv: string | undefined, field: string, octBits?: number): string {
  const allowed = ALGORITHMS[type][use]
  if (given && given.trim()) {
    const alg = normalizeAlgorithm(given)
    if (!allowed.includes(alg)) throw malformed(`${field} '${given}' is not valid for a ${type} key used for ${use}: one of ${allowed.join(', ')}`, { field, allowed })
    if (type === 'EC' && use === 'SIGNATURE' && crv && EC_SIGNATURE_CURVE[alg] !== crv) {
      throw malformed(`${field} '${alg}' needs curve ${EC_SIGNATURE_CURVE[alg]}, the key is on ${crv}`, { field, curve: crv })
    }
    if (type === 'OKP' && crv && ((crv === 'X25519') !== (use === 'ENCRYPTION'))) {
      throw malformed(`${field}: a ${crv} key is for ${crv === 'X25519' ? 'ENCRYPTION' : 'SIGNATURE'} only`, { field, curve: crv })
    }
    return alg
  }
  if (type === 'EC' && use === 'SIGNATURE') return Object.entries(EC_SIGNATURE_CURVE).find(([, c]) => c === crv)?.[0] ?? 'ES256'
  if (type === 'OCT') return use === 'SIGNATURE' ? 'HS256' : `A${[128, 192, 256].includes(octBits ?? 0) ? octBits : 256}KW`
  if (type === 'OKP' && crv === 'X25519') return 'ECDH-ES'
  return allowed[use === 'ENCRYPTION' && type === 'RSA' ? 2 : 0]!
}

const PRIVATE_MEMBERS: Record<string, string[]> = { RSA: ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth'], EC: ['d'], OKP: ['d'], oct: ['k'] }

/** The public members (shown) and the private ones (sealed); an oct key's `k` is all private. */
export function splitJwk(jwk: Jwk): { publicJwk: Jwk; privateMembers: Record<string, unknown> | null } {
  const privateNames = PRIVATE_MEMBERS[jwk.kty] ?? []
  const publicJwk = Object.fromEntries(Object.entries(jwk).filter(([k]) => !privateNames.includes(k))) as Jwk
  const privateEntries = Object.entries(jwk).filter(([k]) => privateNames.includes(k))
  return { publicJwk, privateMembers: privateEntries.length ? Object.fromEntries(privateEntries) : null }
}

/** RFC 7638: the required members in lexicographic order, no whitespace. */
const THUMBPRINT_MEMBERS: Record<string, string[]> = { RSA: ['e', 'kty', 'n'], EC: ['crv', 'kty', 'x', 'y'], OKP: ['crv', 'kty', 'x'], oct: ['k', 'kty'] }

export async function thumbprint(jwk: Jwk, digest: 'sha256' | 'sha1'): Promise<string> {
  const members = THUMBPRINT_MEMBERS[jwk.kty]
  if (!members) throw malformed(`kty '${jwk.kty}' has no RFC 7638 thumbprint`, { field: 'kty' })
  if (digest === 'sha256') return jose.calculateJwkThumbprint(jwk as jose.JWK, 'sha256')
  const canonical = JSON.stringify(Object.fromEntries(members.map((m) => [m, jwk[m]])))
  return crypto.createHash('sha1').update(canonical).digest('base64url')
}

export async function keyIdFor(type: KeyIdType, jwk: Jwk, now = new Date()): Promise<string | null> {
  switch (type) {
    case 'TIMESTAMP': return String(now.getTime())
    case 'ISO_DATE': return now.toISOString()
    case 'SHA256': return thumbprint(jwk, 'sha256')
    case 'SHA1': return thumbprint(jwk, 'sha1')
    case 'NONE': return null
  }
}

/** A key object (public or private) as a JWK; `kid`/`use`/`alg` are added by the caller. */
export function jwkOfKeyObject(key: crypto.KeyObject): Jwk {
  return key.export({ format: 'jwk' }) as Jwk
}

export const EC_CURVES: Record<string, { jose: string; node: string }> = {
  P256: { jose: 'P-256', node: 'prime256v1' },
  P384: { jose: 'P-384', node: 'secp384r1' },
  P521: { jose: 'P-521', node: 'secp521r1' },
  SECP256K1: { jose: 'secp256k1', node: 'secp256k1' },
}
export const OKP_CURVES = ['ED25519', 'X25519'] as const

/** A new private JWK of the type. RSA and the NIST curves through jose; secp256k1, OKP and oct through node. */
export async function generateJwk(type: JwkType, params: { keySize?: number; curveType?: string }): Promise<Jwk> {
  if (type === 'RSA') {
    const { privateKey } = await jose.generateKeyPair('RS256', { modulusLength: params.keySize, extractable: true })
    return (await jose.exportJWK(privateKey)) as Jwk
  }
  if (type === 'EC') {
    const curve = EC_CURVES[params.curveType!]!
    if (curve.jose === 'secp256k1') return jwkOfKeyObject(crypto.generateKeyPairSync('ec', { namedCurve: curve.node }).privateKey)
    const alg = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' }[curve.jose]!
    const { privateKey } = await jose.generateKeyPair(alg, { extractable: true })
    return (await jose.exportJWK(privateKey)) as Jwk
  }
  if (type === 'OKP') {
    const pair = params.curveType === 'X25519' ? crypto.generateKeyPairSync('x25519') : crypto.generateKeyPairSync('ed25519')
    return jwkOfKeyObject(pair.privateKey)
  }
  return { kty: 'oct', k: crypto.randomBytes((params.keySize ?? 256) / 8).toString('base64url') }
}

/**
 * A JWK from outside (pasted, fetched): an object with a known kty whose key members make a key. RSA, EC
 * (secp256k1 included) and OKP are imported with node's crypto; an oct key needs a non-empty `k`.
 */
const KEY_MEMBERS = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi', 'x', 'y']
const MIN_RSA_BITS = 512

export function validateJwk(value: unknown, field: string): Jwk {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw malformed(`${field} is not a JWK (a JSON object)`, { field })
  const jwk = value as Jwk
  if (typeof jwk.kty !== 'string' || !['RSA', 'EC', 'OKP', 'oct'].includes(jwk.kty)) {
    throw malformed(`${field}: kty must be one of RSA, EC, OKP, oct`, { field: `${field}.kty` })
  }
  if (jwk.kty === 'oct') {
    if (typeof jwk.k !== 'string' || !Buffer.from(jwk.k, 'base64url').length) throw malformed(`${field}: an oct JWK needs its key value k`, { field: `${field}.k` })
    return jwk
  }
  // key members are base64url: a placeholder ("n": "...") would make a key of no bits, which node accepts
  const badMember = KEY_MEMBERS.find((m) => m in jwk && (typeof jwk[m] !== 'string' || !/^[A-Za-z0-9_-]+$/.test(jwk[m] as string)))
  if (badMember) throw malformed(`${field} is not a valid ${jwk.kty} JWK: ${badMember} must be base64url`, { field: `${field}.${badMember}` })
  try {
    const { publicJwk, privateMembers } = splitJwk(jwk)
    const pub = crypto.createPublicKey({ key: publicJwk as crypto.JsonWebKey, format: 'jwk' })
    const bits = pub.asymmetricKeyDetails?.modulusLength
    if (jwk.kty === 'RSA' && (bits === undefined || bits < MIN_RSA_BITS)) throw new Error(`an RSA modulus of ${bits ?? 0} bits (at least ${MIN_RSA_BITS})`)
    if (privateMembers) {
      const priv = crypto.createPrivateKey({ key: jwk as crypto.JsonWebKey, format: 'jwk' })
      const a = crypto.createPublicKey(priv).export({ type: 'spki', format: 'der' })
      if (!a.equals(pub.export({ type: 'spki', format: 'der' }))) throw new Error('private members do not match the public ones')
    }
  } catch (err) {
    throw malformed(`${field} is not a valid ${jwk.kty} JWK: ${(err as Error).message}`, { field })
  }
  return jwk
}
