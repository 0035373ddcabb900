import { z } from 'zod'
import { EC_CURVES, JWK_TYPES, KEY_ID_TYPES, OKP_CURVES, USE_TYPES } from './crypto/jwk-material.js'
import type { SourceType } from './jwk-sources.js'

// The bodies of the JWK writes (08-keys-secrets/crud/*jwk*): what createJwk and generateJwkObject check first, so the
// OpenAPI document and the check are one. Types only: the rules of values (required per source, one of a list in
// any case, bounds, dates) stay with the writers, which name the field in their words. Unknown fields are accepted
// (the pages show fields this service does not read).

const text = (description?: string) => (description ? z.string().nullable().optional().describe(description) : z.string().nullable().optional())
const anyCase = (values: readonly string[], extra = '') => text(`one of ${values.join(', ')} (any case)${extra}`)
const dateTime = (description: string) =>
  z.union([z.string(), z.number()]).nullable().optional().describe(`${description}: ISO 8601 date-time (or epoch milliseconds)`)
const whole = (description: string) => z.union([z.number(), z.string()]).nullable().optional().describe(description)

const naming = {
  name: z.string().nullable().optional().describe('the JWK name, unique in the project (required)'),
  description: z.string().max(2000).nullable().optional(),
}

/** What every source takes besides its own fields. */
const sourceCommon = {
  ...naming,
  kid: text('the key ID; with a JWK Set (URL, COPY_PASTE) it picks the key'),
  useType: anyCase(USE_TYPES, '; required for CERTIFICATE, PUBLIC_KEY, PRIVATE_KEY and KEYSTORE sources'),
  algorithm: text('the JWA algorithm of the key and use (e.g. RS256); required for CERTIFICATE, PUBLIC_KEY, PRIVATE_KEY and KEYSTORE sources'),
  keyIdType: anyCase(KEY_ID_TYPES, '; default SHA256'),
  notBeforeTime: dateTime('when the key becomes valid'),
  expirationTime: dateTime('when the key expires'),
}

const sourceFields = {
  URL: {
    url: text('the http(s) URL of a JWK or a JWK Set'),
    urlOptionConnectTimeout: whole('milliseconds, 1 to 60000 (default 5000)'),
    urlOptionReadTimeout: whole('milliseconds, 1 to 60000 (default 10000)'),
    urlOptionSizeLimit: whole('bytes, 1 to 5242880 (default 1048576)'),
  },
  COPY_PASTE: { jwkStr: text('a JWK or a JWK Set as JSON text') },
  CERTIFICATE: { certificateName: text('a certificate of the project'), environmentName: text('the environment whose certificate is read') },
  KEY: { keyName: text('a key of the project'), environmentName: text('the environment whose key is read') },
  KEYSTORE: { keyStoreName: text('a keystore of the project'), environmentName: text('the environment whose keystore is read'), aliasName: text('the keystore entry') },
}

/** POST /jwks/: any source but GENERATE, named by sourceType. */
export const jwkCreateBodySchema = z.looseObject({
  ...sourceCommon,
  sourceType: anyCase(['URL', 'COPY_PASTE', 'CERTIFICATE', 'PUBLIC_KEY', 'PRIVATE_KEY', 'KEYSTORE'], '; required'),
  ...sourceFields.URL, ...sourceFields.COPY_PASTE, ...sourceFields.CERTIFICATE, ...sourceFields.KEY, ...sourceFields.KEYSTORE,
}).meta({ id: 'JwkCreateBody' })

const door = (fields: z.ZodRawShape, id: string) => z.looseObject({ ...sourceCommon, ...fields }).meta({ id })

/** The parse-from-* doors: the source is the door's, the body carries its fields. */
export const jwkDoorBodySchemas = {
  URL: door(sourceFields.URL, 'JwkFromUrlBody'),
  COPY_PASTE: door(sourceFields.COPY_PASTE, 'JwkFromClipboardBody'),
  CERTIFICATE: door(sourceFields.CERTIFICATE, 'JwkFromCertificateBody'),
  KEY: door(sourceFields.KEY, 'JwkFromKeyBody'),
  KEYSTORE: door(sourceFields.KEYSTORE, 'JwkFromKeystoreBody'),
} satisfies Partial<Record<SourceType | 'KEY', z.ZodType>>

/** The body schema of POST /jwks/ (no fixed source) or of a door. */
export const jwkSourceBodyOf = (fixedSource?: SourceType | 'KEY'): z.ZodType =>
  (fixedSource && fixedSource in jwkDoorBodySchemas ? jwkDoorBodySchemas[fixedSource as keyof typeof jwkDoorBodySchemas] : jwkCreateBodySchema)

const generated = (extra: z.ZodRawShape) =>
  z.looseObject({
    keyUseType: anyCase(USE_TYPES, '; default SIGNATURE (ENCRYPTION for X25519)'),
    algorithm: text('the JWA algorithm for the type and use; by default the first one of them'),
    keyIdType: anyCase(KEY_ID_TYPES, '; default TIMESTAMP'),
    notBeforeTime: dateTime('when the key becomes valid (default now)'),
    expirationTime: dateTime('when the key expires (default one year after notBeforeTime)'),
    ...extra,
  }).nullable().optional()
const size = (sizes: number[], fallback = '') => z.number().nullable().optional().describe(`bits: ${sizes.join(', ')}${fallback}`)

/** POST /jwks/generate: the type and the object of its parameters (rsa, ec, oct or okp). */
export const jwkGenerateBodySchema = z.looseObject({
  ...naming,
  type: anyCase(JWK_TYPES, '; required'),
  kid: text('the key ID; by keyIdType when absent'),
  rsa: generated({ keySize: size([2048, 3072, 4096]) }).describe('the parameters of an RSA key'),
  ec: generated({ curveType: anyCase(Object.keys(EC_CURVES)), curve: text('another name of curveType') }).describe('the parameters of an EC key'),
  oct: generated({
    keySize: size([128, 192, 256, 384, 512], ' (default 256)'),
    passwordSaltLength: z.number().nullable().optional().describe('accepted, not used'),
    passwordIterationCount: z.number().nullable().optional().describe('accepted, not used'),
  }).describe('the parameters of a symmetric key'),
  okp: generated({ curveType: anyCase(OKP_CURVES), curve: text('another name of curveType') }).describe('the parameters of an OKP key'),
}).meta({ id: 'JwkGenerateBody' })
