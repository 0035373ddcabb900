import { z } from 'zod'

// The multipart forms of the file imports, as the pages list their fields (one schema per form: the OpenAPI
// document and the GraphQL inputs are generated from these; the file part is the GraphQL `file` argument).

const file = (mediaType: string, description: string) => z.string().meta({ contentMediaType: mediaType, description })
const environmentList = z.string().optional().describe('comma-separated environment names; required for a single file, ignored for a ZIP (its entries name the environments)')
const environmentMapping = z.string().optional().describe('JSON object mapping an environment named in the ZIP to one here, e.g. {"UAT":"Production"}; an empty value leaves that environment out')
const override = z.enum(['true', 'false']).optional().describe('true updates the existing object of that name (its environments not named keep theirs); default false creates')

export const certificateFileFields = z.object({
  certificateName: z.string().describe('the certificate to create or update'),
  alias: z.string().describe('the alias the certificate is stored under (unique per environment)'),
  environmentList,
  environmentMapping,
  certificateDescription: z.string().optional(),
})
export const certificateFileForm = certificateFileFields.extend({ certificateFile: file('application/octet-stream', 'a PEM or DER certificate, or the ZIP of …/export-file/ (<certificateName>-<environmentName>.cer entries)') })

export const truststoreFileFields = z.object({ namePrefix: z.string().optional().describe('put before every certificate name, e.g. partner-') })
export const truststoreFileForm = truststoreFileFields.extend({ truststoreFile: file('application/zip', 'a ZIP of certificate files (each named after its file), or one certificate file') })

export const keyFileFields = z.object({
  keyName: z.string().describe('the key to create, or with override=true update'),
  keyType: z.string().describe('SECRET_KEY, PRIVATE_KEY or PUBLIC_KEY'),
  algorithm: z.string().optional().describe('AES, DES, DESede or RSA (any case): required for a new SECRET_KEY; with override the stored one is kept when absent'),
  environmentList,
  environmentMapping,
  keyDescription: z.string().optional(),
  alias: z.string().optional(),
  override,
})
export const keyFileForm = keyFileFields.extend({ keyFile: file('application/x-pem-file', 'the key: PEM, or base64 of PEM or DER; a SECRET_KEY\'s raw bytes or their base64; or the ZIP of …/export-file/') })

export const keystoreFileFields = z.object({
  keystoreName: z.string().describe('the keystore to create, or with override=true update'),
  password: z.string().describe('the keystore password'),
  environmentList,
  environmentMapping,
  keyStoreType: z.string().optional().describe('JKS or PKCS12; by the file extension (.jks, .keystore, .p12, .pfx), else the file itself, when absent'),
  keystoreDescription: z.string().optional(),
  alias: z.string().optional().describe('the default alias: an entry of the keystore'),
  override,
})
export const keystoreFileForm = keystoreFileFields.extend({ keystoreFile: file('application/octet-stream', 'the .jks, .p12 or .pfx file, or the ZIP of …/export-file/') })

export const jwkFileFields = z.object({
  jwkName: z.string().describe('the JWK to create'),
  kid: z.string().describe('the key ID of the key to load from the document'),
  jwkDescription: z.string().optional(),
})
export const jwkFileForm = jwkFileFields.extend({ jwkFile: file('application/json', 'a JWK or JWK Set JSON document') })
