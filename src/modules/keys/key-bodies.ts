import crypto from 'node:crypto'
import { z } from 'zod'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Deps } from '../../platform/context.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { parseKeyPair, parsePrivateKey, parsePublicKey, pkcs8Pem, publicKeyFingerprint, spkiDer, spkiPem } from './crypto/pem-keys.js'
import { keyFacts } from './crypto/x509.js'
import { checkBody, contentOf, environmentsOf, isRecord, optionalText, pickEnvironment, requiredName, seal, type ProjectEnvironment } from './store.js'

// The body of a key write (api-reference/keys-secrets/crud/create-key, update-key): `keyType` SECRET_KEY,
// PRIVATE_KEY or PUBLIC_KEY, `algorithm` (AES, DES, DESede or RSA; SECRET_KEY only), and per environment a base64
// `content` and an optional `alias`. The older shape (08-keys-secrets: keyType RSA or EC, per environment PEM
// `privateKey`/`publicKey` and the `password` of an encrypted PKCS#8 key) stays accepted and is stored the same way:
// a key with a private key is a PRIVATE_KEY, one with public keys only a PUBLIC_KEY. Private and secret material is
// sealed at rest and never answered.

export const KEY_KINDS = ['SECRET_KEY', 'PRIVATE_KEY', 'PUBLIC_KEY'] as const
export type KeyKind = (typeof KEY_KINDS)[number]
/** The algorithm families of the older pages' keyType (any case): a PRIVATE_KEY or PUBLIC_KEY of that family. */
export const KEY_FAMILIES = ['RSA', 'EC'] as const
export const SECRET_ALGORITHMS = ['AES', 'DES', 'DESede', 'RSA'] as const
/** The byte lengths a secret of each algorithm may have (RSA: any; the page lists it without a length rule). */
const SECRET_LENGTHS: Record<string, number[] | null> = { AES: [16, 24, 32], DES: [8], DESede: [16, 24], RSA: null }

export const LIST = 'cryptoKeyInfoEnvironmentList'
const text = z.string().nullable().optional()

/** The body of a key write (POST: name, keyType and the list required; PUT: every field optional, a new name renames). */
export const keyBodySchema = z.looseObject({
  name: text.describe('The key name (required on create; on update a different name renames)'),
  description: z.string().max(2000).nullable().optional().describe('absent on update keeps the description'),
  keyType: text.describe(`${KEY_KINDS.join(', ')} (exact case; required with content entries); the older ${KEY_FAMILIES.join(' or ')} (any case) for PEM entries. Absent on update keeps the stored one`),
  algorithm: text.describe(`${SECRET_ALGORITHMS.join(', ')} (exact case): required for SECRET_KEY, not given for PRIVATE_KEY and PUBLIC_KEY; absent on update keeps the stored one`),
  [LIST]: z.array(z.looseObject({
    environmentName: z.string(),
    content: text.describe('base64 of the key: for SECRET_KEY the raw key bytes (AES 16, 24 or 32 bytes; DES 8; DESede 16 or 24), for PRIVATE_KEY and PUBLIC_KEY the PEM (raw PEM accepted); write-only, absent on update keeps the stored one'),
    alias: text.describe('the key alias in that environment'),
    publicKey: text.describe('older shape: PEM (SPKI) or base64 of PEM or DER; derived from privateKey when absent'),
    privateKey: text.describe('older shape: PEM (PKCS#1, PKCS#8, encrypted PKCS#8, SEC1) or base64; write-only'),
    password: text.describe('the password of an encrypted PKCS#8 private key (privateKey or PRIVATE_KEY content)'),
  })).min(1).nullable().optional().describe('required on create; absent on update keeps the stored environments, given it replaces them (a dropped one is undeployed)'),
}).meta({ id: 'KeyWriteBody' })

export interface KeyEntry {
  alias: string | null
  publicKey: string | null
  keyAlgorithm: string
  keySize: number | null
  curve: string | null
  publicKeyFingerprint: string | null
  privateKeyPresent: boolean
  secretKeyPresent: boolean
  /** sealed PKCS#8 PEM */
  privateKey?: string
  /** sealed base64 of the secret key bytes */
  secretKey?: string
}

export interface KeyContent {
  description: string
  keyType: KeyKind
  algorithm: string | null
  environments: Record<string, KeyEntry>
}

/** The kind of a stored key: its keyType, or for a key stored by the older pages (RSA, EC) what its entries hold. */
export function kindOf(row: StoredObject): KeyKind {
  const c = contentOf(row)
  if ((KEY_KINDS as readonly unknown[]).includes(c.keyType)) return c.keyType as KeyKind
  return Object.values(environmentsOf(row)).some((e) => typeof e.privateKey === 'string' && e.privateKey) ? 'PRIVATE_KEY' : 'PUBLIC_KEY'
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined)
const given = (v: unknown) => v !== undefined && v !== null

export function decodeSecret(value: string, algorithm: string, field: string): Buffer {
  const compact = value.replace(/\s+/g, '')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw malformed(`${field} must be the base64 of the secret key bytes`, { field, reason: 'notBase64' })
  const bytes = Buffer.from(compact, 'base64')
  const lengths = SECRET_LENGTHS[algorithm]
  if (!bytes.length) throw malformed(`${field} value can not be empty!`, { field })
  if (lengths && !lengths.includes(bytes.length)) {
    throw malformed(`${field} holds ${bytes.length} bytes: a ${algorithm} key has ${lengths.join(' or ')} bytes`, { field, reason: 'secretKeyLength' })
  }
  return bytes
}

const secretEntry = (deps: Deps, bytes: Buffer, algorithm: string, alias: string | null): KeyEntry => ({
  alias, publicKey: null, keyAlgorithm: algorithm, keySize: bytes.length * 8, curve: null, publicKeyFingerprint: null,
  privateKeyPresent: false, secretKeyPresent: true, secretKey: seal(deps, bytes.toString('base64')),
})

const asymmetricEntry = (deps: Deps, privateKey: crypto.KeyObject | null, publicKey: crypto.KeyObject, alias: string | null): KeyEntry => ({
  alias, publicKey: spkiPem(publicKey), ...keyFacts(publicKey), publicKeyFingerprint: publicKeyFingerprint(publicKey),
  privateKeyPresent: !!privateKey, secretKeyPresent: false, ...(privateKey ? { privateKey: seal(deps, pkcs8Pem(privateKey)) } : {}),
})

/** The kind the body asks for: a keyType of the newest pages, an older family, or (absent) the stored kind. */
function requestedType(body: Record<string, unknown>, current: StoredObject | null, list: unknown[] | null) {
  const raw = str(body.keyType)?.trim()
  if (raw && (KEY_KINDS as readonly string[]).includes(raw)) return { kind: raw as KeyKind, family: null }
  if (raw && (KEY_FAMILIES as readonly string[]).includes(raw.toUpperCase())) return { kind: null, family: raw.toUpperCase() }
  if (raw) throw malformed(`keyType '${raw}' is not supported: one of ${[...KEY_KINDS, ...KEY_FAMILIES].join(', ')}`, { field: 'keyType' })
  if (current) return { kind: kindOf(current), family: null }
  if (list?.some((e) => isRecord(e) && given(e.content))) throw malformed('keyType value can not be empty!', { field: 'keyType' })
  return { kind: null, family: null }
}

/** Reads and checks a key body; `current` is the stored key an update starts from (kept fields, kept material). */
export function parseKeyBody(deps: Deps, body: Record<string, unknown>, envs: ProjectEnvironment[], current: StoredObject | null): KeyContent {
  checkBody(keyBodySchema, body)
  const stored = current ? contentOf(current) : {}
  const description = given(body.description) ? optionalText(body.description, 'description') : typeof stored.description === 'string' ? stored.description : ''
  const rawList = body[LIST]
  const list = Array.isArray(rawList) ? rawList : null
  if (!current && !list) throw malformed(`${LIST} value can not be empty!`, { field: LIST })
  const asked = requestedType(body, current, list)
  const storedKind = current ? kindOf(current) : null

  // SECRET_KEY needs an algorithm (given, or stored when it stays a SECRET_KEY); the others take none
  let algorithm: string | null = null
  const algorithmGiven = str(body.algorithm)?.trim()
  if (asked.kind === 'SECRET_KEY') {
    algorithm = algorithmGiven ?? (storedKind === 'SECRET_KEY' && typeof stored.algorithm === 'string' ? stored.algorithm : null)
    if (!algorithm) throw malformed(`algorithm is required for SECRET_KEY! Supported values: ${SECRET_ALGORITHMS.join(', ')}`, { field: 'algorithm' })
    if (!(SECRET_ALGORITHMS as readonly string[]).includes(algorithm)) {
      throw malformed(`algorithm '${algorithm}' is not supported! Supported values: ${SECRET_ALGORITHMS.join(', ')}`, { field: 'algorithm' })
    }
  } else if (algorithmGiven) {
    throw malformed(`algorithm applies to SECRET_KEY only: omit it for ${asked.kind ?? 'an RSA or EC key'}`, { field: 'algorithm' })
  }

  const kept = current ? (environmentsOf(current) as unknown as Record<string, KeyEntry>) : {}
  const kindChanges = storedKind !== null && asked.kind !== null && asked.kind !== storedKind
  const environments: Record<string, KeyEntry> = {}
  if (!list) {
    // an update without the list keeps the stored environments: only when they still fit the kind and algorithm
    if (kindChanges) throw malformed(`${LIST} value can not be empty! keyType changes from ${storedKind} to ${asked.kind}: give every environment's content`, { field: LIST })
    for (const [env, entry] of Object.entries(kept)) {
      if (asked.kind === 'SECRET_KEY' && entry.keyAlgorithm !== algorithm) {
        throw malformed(`algorithm changes to ${algorithm}: give the content of environment '${env}' again`, { field: LIST })
      }
      environments[env] = { ...entry }
    }
  }
  list?.forEach((raw, i) => {
    const at = `${LIST}[${i}]`
    if (!isRecord(raw)) throw malformed(`${at} must be an object`, { field: at })
    const env = pickEnvironment(envs, requiredName(raw.environmentName, `${at}.environmentName`))
    if (env.name in environments) throw malformed(`${at}.environmentName '${env.name}' is listed twice`, { field: `${at}.environmentName` })
    const alias = given(raw.alias) ? optionalText(raw.alias, `${at}.alias`, 200) || null : null
    const content = str(raw.content)
    if (content && (str(raw.privateKey) || str(raw.publicKey))) throw malformed(`${at}: give content, or the older privateKey/publicKey, not both`, { field: `${at}.content` })
    if (content) {
      if (!asked.kind) throw malformed('keyType value can not be empty!', { field: 'keyType' })
      if (asked.kind === 'SECRET_KEY') environments[env.name] = secretEntry(deps, decodeSecret(content, algorithm!, `${at}.content`), algorithm!, alias)
      else if (asked.kind === 'PRIVATE_KEY') {
        const privateKey = parsePrivateKey(content, `${at}.content`, str(raw.password), `${at}.password`)
        environments[env.name] = asymmetricEntry(deps, privateKey, crypto.createPublicKey(privateKey), alias)
      } else environments[env.name] = asymmetricEntry(deps, null, parsePublicKey(content, `${at}.content`), alias)
      return
    }
    const keep = kept[env.name]
    const keepFits = keep && !kindChanges && !(asked.kind === 'SECRET_KEY' && keep.keyAlgorithm !== algorithm)
    if (!str(raw.privateKey) && keepFits && (keep.privateKey || keep.secretKey || !str(raw.publicKey))) {
      // an update without new material keeps the stored one (a different public key needs its private key too)
      if (str(raw.publicKey) && keep.publicKey && !spkiDer(parsePublicKey(str(raw.publicKey)!, `${at}.publicKey`)).equals(spkiDer(crypto.createPublicKey(keep.publicKey)))) {
        throw malformed(`${at}.publicKey differs from the stored key: give the matching privateKey too`, { field: `${at}.privateKey` })
      }
      environments[env.name] = { ...keep, alias: given(raw.alias) ? alias : keep.alias ?? null }
      return
    }
    if (asked.kind === 'SECRET_KEY') throw malformed(`${at}.content value can not be empty!`, { field: `${at}.content` })
    if (asked.kind && !str(raw.privateKey) && !str(raw.publicKey)) throw malformed(`${at}.content value can not be empty!`, { field: `${at}.content` })
    const pair = parseKeyPair({ publicKey: str(raw.publicKey), privateKey: str(raw.privateKey), password: str(raw.password) }, at)
    if (asked.kind === 'PRIVATE_KEY' && !pair.privateKey) throw malformed(`${at}: a PRIVATE_KEY needs the private key (content or privateKey)`, { field: `${at}.content` })
    environments[env.name] = asymmetricEntry(deps, pair.privateKey, pair.publicKey, alias)
  })

  // one algorithm for every environment: the older family keyType, else the first entry's
  const entries = Object.entries(environments)
  const family = asked.family ?? entries[0]?.[1].keyAlgorithm ?? null
  if (family) {
    const i = entries.findIndex(([, e]) => e.keyAlgorithm !== family)
    if (i >= 0) throw malformed(`${LIST}[${i}] holds an ${entries[i]![1].keyAlgorithm} key but keyType is ${family}`, { field: asked.family ? 'keyType' : `${LIST}[${i}]` })
  }
  if (!asked.kind && entries.some(([, e]) => e.secretKeyPresent)) throw malformed(`keyType ${family} does not take a secret key`, { field: 'keyType' })
  const kind: KeyKind = asked.kind ?? (entries.some(([, e]) => e.privateKeyPresent) ? 'PRIVATE_KEY' : 'PUBLIC_KEY')
  return { description, keyType: kind, algorithm, environments }
}
