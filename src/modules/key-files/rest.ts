import { z } from 'zod'
import { legacySuccess } from '../../platform/envelopes/legacy.js'
import { fileBody, legacyBody, legacyListBody, plainBody } from '../../platform/http/response-schemas.js'
import { requireActor, type MultipartBody, type RouteAccess, type RouteDef, type RouteInput, type RouteResult } from '../../platform/http/routes.js'
import { decodePassphrase, PASSPHRASE_HEADER } from '../../platform/transfer/package/encryption.js'
import { SECRET_HANDLINGS } from '../../platform/transfer/package/format.js'
import { attachmentDisposition } from '../../platform/transfer/package/names.js'
import { MAX_KEYSTORE_BYTES } from '../keys/keystores.js'
import { AUTH_401, BASE, DENIED, project, TAG, written, writtenBody } from '../keys/rest.js'
import { certificateSchema, cryptoKeySchema, jwkSchema, keystoreSchema } from '../keys/view-schemas.js'
import { FILE_CATEGORIES } from './access.js'
import type { DownloadFile } from './archive.js'
import { exportTruststoreFile, importCertificateFile, importTruststoreFile } from './certificates.js'
import { exportJwkFile, importJwkFile } from './jwks.js'
import { exportKeyFile, importKeyFile } from './keys.js'
import { exportKeystoreFile, importKeystoreFile } from './keystores.js'
import { exportTrustPackage, importTrustPackage } from './packages.js'
import { legacyImportFields } from '../transfer/catalog/service.js'
import { certificateFileForm, jwkFileForm, keyFileForm, keystoreFileForm, truststoreFileForm } from './inputs.js'

// The file doors of the keys pages (api-reference/keys-secrets/crud/import-*-file, export-*-file), legacy envelope.
// Private material (keys, keystores, JWKs) and every import need EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT;
// an import also CERTIFICATE MANAGE, as the create it stands for (decided by the router before the upload is read;
// EXPORT_IMPORT then by the operation). The trust store download carries certificates only and is read with VIEW,
// as the trust store list is.

const FILE_ACCESS: RouteAccess = { category: FILE_CATEGORIES, level: 'EXPORT_IMPORT' }
/** The import's first rule; EXPORT_IMPORT is then checked by the operation (files/access.ts). */
const IMPORT_ACCESS: RouteAccess = { category: 'CERTIFICATE', level: 'MANAGE' }
const EXPORT_IMPORT = '(permission: EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT)'
const IMPORTS = '(permission: CERTIFICATE MANAGE and EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT; pushed with CERTIFICATE DEPLOY_UNDEPLOY)'
/** Room for an export ZIP of every environment's material. */
const MAX_UPLOAD_BYTES = 8 * MAX_KEYSTORE_BYTES

const download = (file: DownloadFile): RouteResult => ({
  body: file.bytes,
  headers: { 'content-type': file.contentType, 'content-disposition': attachmentDisposition(file.fileName), 'cache-control': 'no-store' },
})
const upload = (input: RouteInput, field: string) => (input.body as MultipartBody).files[field] ?? null
const fields = (input: RouteInput) => (input.body as MultipartBody).fields
const formName = (field: string) => (input: RouteInput) => (input.body as MultipartBody | undefined)?.fields?.[field] ?? null
const queryText = (v: unknown) => (typeof v === 'string' ? v : undefined)
const unresolved = (list: string[]) => (list.length ? { unresolvedReferences: list } : {})
const unresolvedField = { unresolvedReferences: z.array(z.string()).optional().describe('what the upload held that was not imported, and why') }
const multipart = (schema: z.ZodObject, file: string) => ({ kind: 'multipart' as const, schema, required: true, files: [file], maxFileBytes: MAX_UPLOAD_BYTES })
const environmentQuery = z.object({ environmentName: z.string().optional().describe('only this environment\'s file; without it a ZIP of every environment\'s') })

const IMPORT_400 = 'a required field empty (named); unknown environment; environmentMapping not a JSON object; an archive without entries of the object; a file that is not what the page accepts'

export const keyFileRoutes: RouteDef[] = [
  {
    method: 'post', path: `${BASE}/certificates/import-file/`, style: 'legacy', auth: 'token', tag: TAG, access: IMPORT_ACCESS,
    body: multipart(certificateFileForm, 'certificateFile'), audit: { objectType: 'CERTIFICATE', objectName: formName('certificateName') },
    summary: `Import a certificate file (PEM or DER) into environmentList, or the export ZIP, each entry into its environment; the environments not named keep theirs ${IMPORTS}`,
    response: writtenBody(certificateSchema, { warnings: z.array(z.string()), ...unresolvedField }),
    responses: { 200: 'status SUCCESS, success, deploymentResult, warnings, resultList with the certificate, unresolvedReferences when part of the upload was not carried over', 400: `${DENIED}; ${IMPORT_400}; alias used by another certificate`, 401: AUTH_401 },
    async handle(ctx, input) {
      const r = await importCertificateFile(ctx.deps, requireActor(ctx), project(input), fields(input), upload(input, 'certificateFile'))
      return { body: written(r.outcome, r.certificate, { warnings: r.warnings, ...unresolved(r.unresolvedReferences) }) }
    },
  },
  {
    method: 'post', path: `${BASE}/certificates/truststore/:environmentName/import-file/`, style: 'legacy', auth: 'token', tag: TAG, access: IMPORT_ACCESS,
    body: multipart(truststoreFileForm, 'truststoreFile'), audit: { objectType: 'CERTIFICATE', objectName: (input) => input.params.environmentName ?? null },
    summary: `Register every certificate of a bundle (a ZIP of certificate files, or one file) for the environment, in the admin project: each named and aliased after its file (namePrefix first); an existing one gets this environment's entry replaced ${IMPORTS}`,
    response: legacyListBody(z.string(), unresolvedField),
    responses: { 200: 'status SUCCESS, resultList (the certificate names registered), resultCount, unresolvedReferences (the entries that failed, with why)', 400: `${DENIED}; not the admin project; unknown environment; empty bundle; no certificate of the bundle could be imported`, 401: AUTH_401 },
    async handle(ctx, input) {
      const r = await importTruststoreFile(ctx.deps, requireActor(ctx), project(input), input.params.environmentName!, fields(input), upload(input, 'truststoreFile'))
      return { body: legacySuccess({ resultList: r.imported, resultCount: r.imported.length, ...unresolved(r.unresolvedReferences) }) }
    },
  },
  {
    method: 'get', path: `${BASE}/certificates/truststore/:environmentName/export-file/`, style: 'legacy', auth: 'token', tag: TAG, access: { category: 'CERTIFICATE', level: 'VIEW' },
    summary: 'Download what an environment trusts (the admin project\'s certificates deployed to it) as a ZIP of PEM files named <alias>.cer (permission: CERTIFICATE VIEW)',
    response: fileBody('application/octet-stream'),
    responses: { 200: 'the ZIP (application/octet-stream), Content-Disposition <environmentName>-truststore.zip', 400: `${DENIED}; not the admin project; unknown environment; no certificate deployed to it`, 401: AUTH_401 },
    handle: async (ctx, input) => download(await exportTruststoreFile(ctx.deps, requireActor(ctx), project(input), input.params.environmentName!)),
  },
  {
    method: 'post', path: `${BASE}/keys/import-file/`, style: 'legacy', auth: 'token', tag: TAG, access: IMPORT_ACCESS,
    body: multipart(keyFileForm, 'keyFile'), audit: { objectType: 'CRYPTO_KEY_INFO', objectName: formName('keyName') },
    summary: `Import a key file (PEM, or base64; a SECRET_KEY's bytes or their base64) into environmentList, or the export ZIP; a new key, or with override=true the existing one (the environments not named keep theirs) ${IMPORTS}`,
    response: writtenBody(cryptoKeySchema, unresolvedField),
    responses: { 200: 'status SUCCESS, success, deploymentResult, resultList with the key (public parts only), unresolvedReferences', 400: `${DENIED}; ${IMPORT_400}; name taken without override; override of an unknown key; unknown keyType or algorithm; algorithm missing for a new SECRET_KEY`, 401: AUTH_401 },
    async handle(ctx, input) {
      const r = await importKeyFile(ctx.deps, requireActor(ctx), project(input), fields(input), upload(input, 'keyFile'))
      return { body: written(r.outcome, r.key, unresolved(r.unresolvedReferences)) }
    },
  },
  {
    method: 'get', path: `${BASE}/keys/:keyName/export-file/`, style: 'legacy', auth: 'token', tag: TAG, access: FILE_ACCESS, query: environmentQuery,
    summary: `Download a key's material (decrypted: the PKCS#8 PEM of a PRIVATE_KEY, the PEM of a PUBLIC_KEY, the base64 of a SECRET_KEY): one environment's <keyName>-<environmentName>.pem, or all in <keyName>-keys.zip ${EXPORT_IMPORT}`,
    response: fileBody('application/x-pem-file', 'application/octet-stream'),
    responses: { 200: 'the file (application/x-pem-file) or the ZIP (application/octet-stream)', 400: `${DENIED}; key not found; no material for the environment (the message lists those that have it); no material at all`, 401: AUTH_401 },
    handle: async (ctx, input) => download(await exportKeyFile(ctx.deps, requireActor(ctx), project(input), input.params.keyName!, queryText(input.query.environmentName))),
  },
  {
    method: 'post', path: `${BASE}/keystores/import-file/`, style: 'legacy', auth: 'token', tag: TAG, access: IMPORT_ACCESS,
    body: multipart(keystoreFileForm, 'keystoreFile'), audit: { objectType: 'KEY_STORE', objectName: formName('keystoreName') },
    summary: `Import a keystore file (.jks, .p12, .pfx) into environmentList, or the export ZIP, opened with password; a new keystore, or with override=true the existing one (the environments not named keep theirs) ${IMPORTS}`,
    response: writtenBody(keystoreSchema, unresolvedField),
    responses: { 200: 'status SUCCESS, success, deploymentResult, resultList with the keystore (type and entries), unresolvedReferences', 400: `${DENIED}; ${IMPORT_400}; name taken without override; override of an unknown keystore; unknown keyStoreType; wrong password; alias not an entry`, 401: AUTH_401 },
    async handle(ctx, input) {
      const r = await importKeystoreFile(ctx.deps, requireActor(ctx), project(input), fields(input), upload(input, 'keystoreFile'))
      return { body: written(r.outcome, r.keystore, unresolved(r.unresolvedReferences)) }
    },
  },
  {
    method: 'get', path: `${BASE}/keystores/:keystoreName/export-file/`, style: 'legacy', auth: 'token', tag: TAG, access: FILE_ACCESS, query: environmentQuery,
    summary: `Download a keystore file as it was uploaded (its extension kept; else .p12 for PKCS12, .jks): one environment's, or all in <keystoreName>-keystores.zip; the password is never in it ${EXPORT_IMPORT}`,
    response: fileBody('application/octet-stream'),
    responses: { 200: 'the file or the ZIP (application/octet-stream)', 400: `${DENIED}; keystore not found; no material for the environment (the message lists those that have it); no material at all`, 401: AUTH_401 },
    handle: async (ctx, input) => download(await exportKeystoreFile(ctx.deps, requireActor(ctx), project(input), input.params.keystoreName!, queryText(input.query.environmentName))),
  },
  {
    method: 'post', path: `${BASE}/jwks/import-file/`, style: 'legacy', auth: 'token', tag: TAG, access: IMPORT_ACCESS,
    body: multipart(jwkFileForm, 'jwkFile'), audit: { objectType: 'JWK', objectName: formName('jwkName') },
    summary: `Create a JWK from an uploaded JWK or JWK Set document (parsed as the clipboard create parses jwkStr; kid picks the key) ${IMPORTS}`,
    response: writtenBody(jwkSchema),
    responses: { 200: 'status SUCCESS, success, deploymentResult, resultList with the JWK (public members)', 400: `${DENIED}; jwkName, kid or jwkFile empty; not a JWK document; kid not in it; name taken`, 401: AUTH_401 },
    async handle(ctx, input) {
      const r = await importJwkFile(ctx.deps, requireActor(ctx), project(input), fields(input), upload(input, 'jwkFile'))
      return { body: written(r.outcome, r.jwk) }
    },
  },
  {
    method: 'get', path: `${BASE}/jwks/:jwkName/export-file/`, style: 'legacy', auth: 'token', tag: TAG, access: FILE_ACCESS,
    query: z.object({ publicOnly: z.enum(['true', 'false']).optional().describe('true: only the public members (what a published JWKS serves); default false: the stored material, private members included') }),
    summary: `Download a JWK as a JWK Set document <jwkName>.json (private members included), or with publicOnly=true <jwkName>-public.json ${EXPORT_IMPORT}`,
    // the document itself, as JSON (Content-Disposition names the file)
    response: plainBody(z.object({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string().optional() })).length(1) })),
    responses: { 200: 'the JWK Set document (application/json)', 400: `${DENIED}; JWK not found; publicOnly not true or false; publicOnly=true for a symmetric (oct) key`, 401: AUTH_401 },
    handle: async (ctx, input) => download(await exportJwkFile(ctx.deps, requireActor(ctx), project(input), input.params.jwkName!, input.query.publicOnly)),
  },
  ...([['keys', 'keyName', 'key', 'CRYPTO_KEY_INFO'], ['keystores', 'keystoreName', 'keystore', 'KEY_STORE']] as const).map(([segment, param, what, kind]): RouteDef => ({
    method: 'get', path: `${BASE}/${segment}/:${param}/export/`, style: 'legacy', auth: 'token', tag: TAG, access: FILE_ACCESS,
    query: z.object({
      encrypt: z.enum(['true', 'false']).optional().describe('encrypt the whole package with the passphrase header (default false)'),
      secretHandling: z.enum(SECRET_HANDLINGS).optional().describe('how the secrets travel in an unencrypted package: CIPHERTEXT_VERBATIM (default), DECRYPTED_FOR_EXPORT or NONE'),
    }),
    headers: [{ name: 'X-Service-Package-Passphrase', description: 'Base64 of the UTF-8 passphrase; required with encrypt=true' }],
    summary: `Export a ${what} as a transfer package (<name>.zip: the object file and the manifest, as every export writes it; importable by the transfer import) ${EXPORT_IMPORT}`,
    response: fileBody('application/octet-stream'),
    responses: { 200: 'the ZIP (application/octet-stream), Content-Disposition <name>.zip', 400: `${DENIED}; ${what} not found; encrypt=true without the passphrase header; unknown secretHandling`, 401: AUTH_401 },
    async handle(ctx, input) {
      const pkg = await exportTrustPackage(ctx.deps, requireActor(ctx), project(input), kind, input.params[param]!, input.query, decodePassphrase(input.headers[PASSPHRASE_HEADER]))
      return download({ bytes: pkg.bytes, fileName: pkg.fileName, contentType: 'application/octet-stream' })
    },
  })),
  // the import side of the package exports above (api-reference/keys-secrets/crud/import-key, import-keystore)
  ...([['keys', 'keyExportFile', 'key', 'CRYPTO_KEY_INFO'], ['keystores', 'keystoreExportFile', 'keystore', 'KEY_STORE']] as const).map(([segment, file, what, kind]): RouteDef => ({
    method: 'post', path: `${BASE}/${segment}/import/`, style: 'legacy', auth: 'token', tag: TAG, access: IMPORT_ACCESS,
    query: z.object({ override: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().describe(`replace a same-named ${what} (default false: a taken name is imported as <name>-imported)`) }),
    headers: [{ name: 'X-Apinizer-Package-Passphrase', description: 'Base64 of the UTF-8 passphrase; only for an encrypted package (detected)' }, { name: 'X-Service-Package-Passphrase', description: 'the same, as our exports name it' }],
    body: multipart(legacyImportFields.extend({ [file]: z.string().meta({ contentMediaType: 'application/zip', description: `the package ${what} export wrote (.zip)` }) }), file),
    audit: { objectType: kind, objectName: () => null },
    summary: `Import a ${what} package (the ZIP GET …/${segment}/{name}/export/ writes; encrypted or not): override=true replaces the same-named ${what} (certEnvironmentMergeMethod, certEnvironmentUncoveredAction), else a taken name gets -imported and environmentMapping maps environments; not deployed ${IMPORTS}`,
    response: legacyBody({ unresolvedReferences: z.array(z.string()).optional().describe('what could not be carried over; absent when everything was') }),
    responses: {
      200: 'status SUCCESS; unresolvedReferences[] when part of the package could not be carried over',
      400: `${DENIED}; ${file} value can not be empty!; ${file} not a ZIP or not named .zip; the package holds other objects than ${what}s; passphrase missing or wrong; override, environmentMapping or cert options invalid; an environment the package does not cover without certEnvironmentUncoveredAction`,
      401: AUTH_401,
    },
    async handle(ctx, input) {
      const part = upload(input, file)
      const result = await importTrustPackage(ctx.deps, requireActor(ctx), project(input), kind, {
        bytes: part?.bytes ?? null, fileName: part?.fileName, fields: fields(input), override: queryText(input.query.override),
        passphrase: decodePassphrase(input.headers['x-apinizer-package-passphrase'] ?? input.headers[PASSPHRASE_HEADER]),
      })
      return { body: legacySuccess(result.unresolvedReferences.length ? result : {}) }
    },
  })),
]
