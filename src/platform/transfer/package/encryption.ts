import crypto from 'node:crypto'
import { malformedReason } from '../../errors/domain-error.js'
import { canonicalJson } from '../../hashing/canonical.js'
import { ENCRYPTED_PAYLOAD_FILE, ENCRYPTION_HEADER_FILE } from './names.js'
import { writePackageZip } from './zip.js'

/**
 * Whole-package encryption (spec §4.3 rule 6). The plain package ZIP, names included, is sealed with
 * AES-256-GCM under a key derived from the passphrase by scrypt (memory-hard) with a random 16-byte salt.
 * The outer ZIP holds only the header (algorithm, KDF parameters, salt, IV; bound as GCM additional data,
 * so it cannot be edited either) and the ciphertext. The passphrase is used once and never stored.
 */
export const PASSPHRASE_HEADER = 'x-service-package-passphrase'

export const KDF = { name: 'scrypt', N: 2 ** 15, r: 8, p: 1, keyLength: 32 } as const
/**
 * Bounds accepted from a package header, so a hostile header cannot make the server run an expensive
 * scrypt: memory (128·N·r bytes) at most 128 MiB, work (N·r·p) at most 4 times what this version writes.
 */
export const KDF_LIMITS = { maxN: 2 ** 17, maxR: 16, maxP: 4, maxMemoryBytes: 128 * 1024 * 1024, maxWork: 4 * KDF.N * KDF.r * KDF.p, saltBytes: [16, 64], ivBytes: 12 } as const

interface EncryptionHeader {
  format: 1
  cipher: 'AES-256-GCM'
  kdf: { name: 'scrypt'; N: number; r: number; p: number; salt: string }
  iv: string
}

/** every refusal of a package is a malformedRequest with its cause as params.reason (spec §7.3) */
const validation = malformedReason

/** The passphrase of the header (Base64 of its UTF-8 bytes), or null when the header is absent or blank. */
export function decodePassphrase(raw: string | string[] | undefined): string | null {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim()
  if (!value) return null
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 === 1) {
    throw validation('packagePassphraseInvalid', 'X-Service-Package-Passphrase must be the Base64 of the UTF-8 passphrase', { field: 'X-Service-Package-Passphrase' })
  }
  const passphrase = Buffer.from(value, 'base64').toString('utf8')
  if (!passphrase) throw validation('packagePassphraseInvalid', 'The package passphrase must not be empty', { field: 'X-Service-Package-Passphrase' })
  return passphrase
}

const base64Length = (value: string) => (/^[A-Za-z0-9+/]*={0,2}$/.test(value) ? Buffer.from(value, 'base64').length : -1)

function deriveKey(passphrase: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(passphrase.normalize('NFC'), salt, KDF.keyLength, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  )
}

export async function encryptPackage(plainZip: Buffer, passphrase: string): Promise<Buffer> {
  const salt = crypto.randomBytes(16)
  const iv = crypto.randomBytes(12)
  const header: EncryptionHeader = {
    format: 1,
    cipher: 'AES-256-GCM',
    kdf: { name: 'scrypt', N: KDF.N, r: KDF.r, p: KDF.p, salt: salt.toString('base64') },
    iv: iv.toString('base64'),
  }
  const headerBytes = Buffer.from(canonicalJson(header))
  const key = await deriveKey(passphrase, salt, KDF.N, KDF.r, KDF.p)
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(headerBytes)
  const body = Buffer.concat([cipher.update(plainZip), cipher.final(), cipher.getAuthTag()])
  return writePackageZip([
    { name: ENCRYPTION_HEADER_FILE, bytes: headerBytes },
    { name: ENCRYPTED_PAYLOAD_FILE, bytes: body },
  ])
}

export const isEncryptedPackage = (files: Map<string, Buffer>) => files.has(ENCRYPTION_HEADER_FILE) || files.has(ENCRYPTED_PAYLOAD_FILE)

/** Opens an encrypted package's outer files; a wrong passphrase and a tampered package look the same. */
export async function decryptPackage(files: Map<string, Buffer>, passphrase: string | null): Promise<Buffer> {
  if (!passphrase) {
    throw validation('packagePassphraseRequired', 'The package is encrypted: send its passphrase in X-Service-Package-Passphrase', { field: 'X-Service-Package-Passphrase' })
  }
  const headerBytes = files.get(ENCRYPTION_HEADER_FILE)
  const body = files.get(ENCRYPTED_PAYLOAD_FILE)
  if (!headerBytes || !body || files.size !== 2 || body.length < 17) {
    throw validation('packageEncryptionInvalid', 'The encrypted package is incomplete or holds unexpected entries')
  }
  let header: EncryptionHeader
  try {
    header = JSON.parse(headerBytes.toString('utf8')) as EncryptionHeader
  } catch {
    throw validation('packageEncryptionInvalid', 'The encryption header of the package is not JSON')
  }
  const { kdf } = header ?? {}
  const ok =
    header?.format === 1 && header.cipher === 'AES-256-GCM' && kdf?.name === 'scrypt' &&
    Number.isInteger(kdf.N) && kdf.N > 1 && kdf.N <= KDF_LIMITS.maxN && (kdf.N & (kdf.N - 1)) === 0 &&
    Number.isInteger(kdf.r) && kdf.r >= 1 && kdf.r <= KDF_LIMITS.maxR && Number.isInteger(kdf.p) && kdf.p >= 1 && kdf.p <= KDF_LIMITS.maxP &&
    128 * kdf.N * kdf.r <= KDF_LIMITS.maxMemoryBytes && kdf.N * kdf.r * kdf.p <= KDF_LIMITS.maxWork &&
    typeof kdf.salt === 'string' && typeof header.iv === 'string' &&
    base64Length(kdf.salt) >= KDF_LIMITS.saltBytes[0] && base64Length(kdf.salt) <= KDF_LIMITS.saltBytes[1] &&
    base64Length(header.iv) === KDF_LIMITS.ivBytes
  if (!ok) throw validation('packageEncryptionUnsupported', 'The package uses an encryption format or parameters this installation does not accept')
  const key = await deriveKey(passphrase, Buffer.from(kdf.salt, 'base64'), kdf.N, kdf.r, kdf.p)
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(header.iv, 'base64'))
    decipher.setAAD(headerBytes)
    decipher.setAuthTag(body.subarray(body.length - 16))
    return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()])
  } catch {
    throw validation('packagePassphraseIncorrect', 'The package cannot be decrypted: wrong passphrase, or the package was altered')
  }
}
