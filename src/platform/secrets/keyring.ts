import crypto from 'node:crypto'

const ALGORITHM = 'aes-256-gcm'
const FORMAT = 'v1'

export interface SecretKeyring {
  /** AES-256-GCM under the current key; the key id travels in the ciphertext so keys can rotate. */
  encrypt(plain: string): string
  /** Decrypts with whichever known key sealed the value; throws when none did or it was tampered with. */
  decrypt(sealed: string): string
  /** Whether a stored value was sealed under the current key (a rotation re-encrypts the others). */
  isCurrent(sealed: string): boolean
  /** Whether a stored value is in our format under one of the keys this installation holds. */
  knows(sealed: string): boolean
  /**
   * A keyed fingerprint (HMAC-SHA256 under a key derived from the current master key) for comparing secrets
   * without revealing them: unlike a plain hash, it cannot be used to test guessed values offline.
   */
  fingerprint(secret: string): string
  readonly currentKeyId: string
}

/** Whether a value has the shape of a sealed secret (format, key id, payload), under whichever installation's key. */
export const looksSealed = (value: string) => /^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/.test(value)

export const keyIdOf = (key: Buffer) => crypto.createHash('sha256').update(key).digest('hex').slice(0, 8)

export function decodeMasterKey(base64: string, name = 'GATEWAY_SECRET_KEY'): Buffer {
  const key = Buffer.from(base64, 'base64')
  if (key.length !== 32) throw new Error(`${name} must be base64 of exactly 32 bytes (got ${key.length})`)
  return key
}

export function createKeyring(current: Buffer, previous: Buffer[] = []): SecretKeyring {
  const keys = new Map<string, Buffer>()
  for (const key of [...previous, current]) keys.set(keyIdOf(key), key)
  const currentKeyId = keyIdOf(current)
  const fingerprintKey = crypto.createHmac('sha256', current).update('gateway-secret-fingerprint-v1').digest()

  return {
    currentKeyId,
    encrypt(plain) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv(ALGORITHM, current, iv)
      cipher.setAAD(Buffer.from(currentKeyId))
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return [FORMAT, currentKeyId, Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')].join('.')
    },
    decrypt(sealed) {
      const [format, keyId, payload] = sealed.split('.')
      const key = keys.get(keyId ?? '')
      if (format !== FORMAT || !key || !payload) throw new Error('Secret was sealed under an unknown key or format')
      const raw = Buffer.from(payload, 'base64url')
      const decipher = crypto.createDecipheriv(ALGORITHM, key, raw.subarray(0, 12))
      decipher.setAAD(Buffer.from(keyId))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    },
    fingerprint: (secret) => crypto.createHmac('sha256', fingerprintKey).update(secret, 'utf8').digest('hex'),
    isCurrent: (sealed) => sealed.split('.')[1] === currentKeyId,
    knows: (sealed) => {
      const [format, keyId] = sealed.split('.')
      return format === FORMAT && keys.has(keyId ?? '')
    },
  }
}
