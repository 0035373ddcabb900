import crypto from 'node:crypto'
import { malformed } from '../../../platform/errors/domain-error.js'
import { keyFacts } from './x509.js'

// RSA and EC keys given as PEM (PKCS#1, PKCS#8, encrypted PKCS#8, SEC1, SPKI), as base64 of such a PEM, or as
// base64 of the DER. Parsed with node's crypto; a value that is not a key of the expected kind is a 400 naming
// the field it came in.

export interface ParsedKey {
  /** present when a private key was given */
  privateKey: crypto.KeyObject | null
  publicKey: crypto.KeyObject
  keyAlgorithm: string
  keySize: number | null
  curve: string | null
}

const SUPPORTED = new Set(['rsa', 'ec'])

/** The value as PEM text, or DER bytes when it is base64 of something that is not PEM. */
function decodeInput(value: string): { pem: string } | { der: Buffer } {
  const trimmed = value.trim()
  if (trimmed.includes('-----BEGIN')) return { pem: trimmed }
  const bytes = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64')
  const text = bytes.toString('latin1')
  return text.includes('-----BEGIN') ? { pem: text } : { der: bytes }
}

const errCode = (err: unknown) => (err as { code?: string }).code ?? ''
const errText = (err: unknown) => `${(err as Error).message ?? ''} ${((err as { reason?: string }).reason ?? '')}`

/** Reads a private key; `passwordField` names where an encrypted one's password comes from. */
export function parsePrivateKey(value: string, field: string, password: string | undefined, passwordField: string): crypto.KeyObject {
  const input = decodeInput(value)
  const encrypted = 'pem' in input ? input.pem.includes('ENCRYPTED') : false
  const attempts: crypto.PrivateKeyInput[] = 'pem' in input
    ? [{ key: input.pem, format: 'pem', ...(password ? { passphrase: password } : {}) }]
    : (['pkcs8', 'pkcs1', 'sec1'] as const).map((type) => ({ key: input.der, format: 'der' as const, type, ...(password && type === 'pkcs8' ? { passphrase: password } : {}) }))
  let last: unknown = null
  for (const attempt of attempts) {
    try {
      const key = crypto.createPrivateKey(attempt)
      return supported(key, field)
    } catch (err) {
      if (err instanceof Error && err.name === 'DomainError') throw err
      last = err
    }
  }
  if (errCode(last) === 'ERR_MISSING_PASSPHRASE' || (encrypted && !password)) {
    throw malformed(`${field} is an encrypted private key: give its password in ${passwordField}`, { field: passwordField, reason: 'passwordRequired' })
  }
  if (encrypted || /bad decrypt|decrypt/i.test(errText(last))) {
    throw malformed(`${passwordField} does not decrypt ${field} (wrong password)`, { field: passwordField, reason: 'wrongPassword' })
  }
  throw malformed(`${field} is not a PEM-encoded RSA or EC private key (PKCS#1, PKCS#8, encrypted PKCS#8 or SEC1)`, { field, reason: 'notAKey' })
}

/** Reads a public key (SPKI or PKCS#1 RSA public key). A private key in a public-key field is refused. */
export function parsePublicKey(value: string, field: string): crypto.KeyObject {
  const input = decodeInput(value)
  if ('pem' in input && /PRIVATE KEY/.test(input.pem)) throw malformed(`${field} holds a private key: give it as privateKey`, { field, reason: 'privateKeyInPublicField' })
  if ('pem' in input && /CERTIFICATE/.test(input.pem)) throw malformed(`${field} holds a certificate: create a certificate for it`, { field, reason: 'certificateInKeyField' })
  const attempts: crypto.PublicKeyInput[] = 'pem' in input
    ? [{ key: input.pem, format: 'pem' }]
    : (['spki', 'pkcs1'] as const).map((type) => ({ key: input.der, format: 'der' as const, type }))
  for (const attempt of attempts) {
    try {
      return supported(crypto.createPublicKey(attempt), field)
    } catch (err) {
      if (err instanceof Error && err.name === 'DomainError') throw err
    }
  }
  throw malformed(`${field} is not a PEM-encoded RSA or EC public key (SPKI or PKCS#1)`, { field, reason: 'notAKey' })
}

function supported(key: crypto.KeyObject, field: string): crypto.KeyObject {
  if (!SUPPORTED.has(key.asymmetricKeyType ?? '')) {
    throw malformed(`${field} is a ${key.asymmetricKeyType ?? 'unknown'} key: only RSA and EC keys are supported`, { field, reason: 'unsupportedKeyType' })
  }
  return key
}

const publicOf = (key: crypto.KeyObject) => (key.type === 'public' ? key : crypto.createPublicKey(key))
export const spkiDer = (key: crypto.KeyObject) => publicOf(key).export({ type: 'spki', format: 'der' })
export const spkiPem = (key: crypto.KeyObject) => publicOf(key).export({ type: 'spki', format: 'pem' }).toString()
export const pkcs8Pem = (key: crypto.KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }).toString()

/** A key pair from the fields of one entry: the public part derived from the private one, or checked against it. */
export function parseKeyPair(entry: { publicKey?: string; privateKey?: string; password?: string }, at: string): ParsedKey {
  const privateKey = entry.privateKey ? parsePrivateKey(entry.privateKey, `${at}.privateKey`, entry.password, `${at}.password`) : null
  const givenPublic = entry.publicKey ? parsePublicKey(entry.publicKey, `${at}.publicKey`) : null
  if (!privateKey && !givenPublic) throw malformed(`${at}: publicKey or privateKey is required`, { field: `${at}.publicKey` })
  const publicKey = givenPublic ?? crypto.createPublicKey(privateKey!)
  if (privateKey && givenPublic && !spkiDer(givenPublic).equals(spkiDer(privateKey))) {
    throw malformed(`${at}.publicKey does not belong to ${at}.privateKey`, { field: `${at}.publicKey`, reason: 'keyPairMismatch' })
  }
  return { privateKey, publicKey, ...keyFacts(publicKey) }
}

/** SHA-256 of the SPKI DER, hex: identifies a public key without showing it. */
export const publicKeyFingerprint = (key: crypto.KeyObject) => crypto.createHash('sha256').update(spkiDer(key)).digest('hex').toUpperCase()
