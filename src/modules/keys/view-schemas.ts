import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { CertificateView } from './certificates.js'
import type { KeyView } from './crypto-keys.js'
import type { JwkView } from './jwks.js'
import type { KeystoreView } from './keystores.js'

// The answer schemas of the keys and secrets pages (certificates, keys, keystores, JWKs), tied at compile time to
// the views. Private material is write-only: reads carry only …Present flags.

const text = z.string().nullable()

const certificateFacts = z.object({
  subjectDn: z.string(),
  issuerDn: z.string(),
  serialNumber: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  sha1Thumbprint: z.string(),
  sha256Fingerprint: z.string(),
  keyAlgorithm: z.string(),
  keySize: z.number().int().nullable(),
  curve: text,
  subjectAltNames: z.array(z.string()),
  selfSigned: z.boolean(),
})

export const certificateSchema = describes<CertificateView>()(
  z
    .object({
      name: z.string(),
      description: z.string(),
      certificateEnvironmentList: z.array(
        z.object({
          environmentId: text,
          environmentName: z.string(),
          alias: text,
          startDate: text,
          endDate: text,
          base64EncodedContent: z.string().optional(),
          sha1Thumbprint: text,
          sha256Fingerprint: text,
          subjectDn: text,
          issuerDn: text,
          serialNumber: text,
          keyAlgorithm: text,
          keySize: z.number().int().nullable(),
          curve: text,
          subjectAltNames: z.array(z.string()),
          expired: z.boolean(),
          notYetValid: z.boolean(),
          chainLength: z.number().int(),
        }),
      ),
    })
    .meta({ id: 'Certificate', description: 'A certificate of a project, per environment' }),
)

export const cryptoKeySchema = describes<KeyView>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      projectId: z.string(),
      keyType: z.enum(['SECRET_KEY', 'PRIVATE_KEY', 'PUBLIC_KEY']),
      algorithm: text.describe('AES, DES, DESede or RSA for a SECRET_KEY; null otherwise'),
      cryptoKeyInfoEnvironmentList: z.array(
        z.object({
          environmentId: text,
          environmentName: z.string(),
          alias: text,
          source: text.describe('origin marker of an entry merged by an import; null here'),
          publicKey: text,
          keyAlgorithm: text,
          keySize: z.number().int().nullable(),
          curve: text,
          publicKeyFingerprint: text,
          privateKeyPresent: z.boolean(),
          secretKeyPresent: z.boolean(),
        }),
      ),
    })
    .meta({ id: 'CryptoKey', description: 'A key of a project, per environment: the public key and metadata (the private and secret keys are write-only)' }),
)

export const keystoreSchema = describes<KeystoreView>()(
  z
    .object({
      name: z.string(),
      description: z.string(),
      projectId: z.string(),
      keyStoreEnvironmentList: z.array(
        z.object({
          environmentId: text,
          environmentName: z.string(),
          type: text,
          keyStoreType: text.describe('the same as type (the newest pages\' name)'),
          alias: text.describe('the default alias'),
          fileSize: z.number().int().nullable(),
          entries: z.array(
            z.object({
              alias: z.string(),
              entryType: z.enum(['PRIVATE_KEY', 'TRUSTED_CERTIFICATE']),
              privateKeyPresent: z.boolean(),
              certificateChain: z.array(certificateFacts),
            }),
          ),
        }),
      ),
    })
    .meta({ id: 'Keystore', description: 'A keystore of a project, per environment: type, size and entries (the file and passwords are write-only)' }),
)

const members = z.record(z.string(), z.unknown()).optional()
export const jwkSchema = describes<JwkView>()(
  z
    .object({
      name: z.string(),
      description: z.string(),
      projectId: z.string(),
      sourceType: text,
      sourceId: text,
      sourceUrl: text,
      type: text,
      kid: text,
      use: text,
      alg: text,
      notBeforeTime: text,
      expirationTime: text,
      privateKeyPresent: z.boolean(),
      // the key members of its type (one of rsa, ec, oct, okp) and the public JWK, on one JWK's read and writes
      rsa: members,
      ec: members,
      oct: members,
      okp: members,
      jwk: members,
    })
    .meta({ id: 'Jwk', description: 'A JWK of a project: public members only (private members are write-only)' }),
)
