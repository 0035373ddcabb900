import { z } from 'zod'
import { malformed } from '../../platform/errors/domain-error.js'
import { ANY_CATEGORY, defineRoutes, requireActor, type MultipartBody, type RouteAccess, type RouteInput, type RouteResult } from '../../platform/http/routes.js'
import { decodePassphrase, PASSPHRASE_HEADER } from '../../platform/transfer/package/encryption.js'
import { attachmentDisposition } from '../../platform/transfer/package/names.js'
import { PACKAGE_LIMITS } from '../../platform/transfer/package/zip.js'
import { exportObjects, exportQuery, legacyExportBody, previewTransferExport, runTransferExport, transferExportInput, transferExportRunInput } from './export.js'
import type { BuiltPackage } from './build.js'
import { preflightTransferImport } from './analysis.js'
import { runTransferImport } from './import.js'
import { findAdapter } from '../../platform/transfer/registry.js'
import { importObjects, legacyImportFields, listTransferObjects, listTransferTypes, objectsQuery } from './catalog/service.js'
import { legacyList, legacySuccess } from '../../platform/envelopes/legacy.js'
import { fileBody, legacyBody, legacyListBody, plainBody } from '../../platform/http/response-schemas.js'
import { transferExportPreviewSchema, transferImportResultSchema, transferPreflightSchema } from './view-schemas.js'

const BASE = '/apiops/projects/:projectName'
const PASSPHRASE_DOC = { name: 'X-Service-Package-Passphrase', description: 'Base64 of the UTF-8 passphrase; required with encrypt=true and for encrypted packages' }

/** The ZIP as the response: application/octet-stream with its file name; the digest travels as a header. */
const zipResult = (pkg: BuiltPackage): RouteResult => ({
  body: pkg.bytes,
  headers: {
    'Content-Type': 'application/octet-stream',
    'Content-Disposition': attachmentDisposition(pkg.fileName),
    'X-Transfer-Export-Digest': pkg.exportDigest,
    'X-Transfer-Secret-Handling': pkg.secretHandling,
    'Cache-Control': 'no-store',
  },
})

const passphraseOf = (input: RouteInput) => decodePassphrase(input.headers[PASSPHRASE_HEADER])
/** the legacy import also takes the header the vendor's page names */
const importPassphraseOf = (input: RouteInput) => decodePassphrase(input.headers[PASSPHRASE_HEADER] ?? input.headers['x-apinizer-package-passphrase'])
const firstQuery = (v: unknown) => (Array.isArray(v) ? v[0] : v) as string | undefined

const exportFile = (body: MultipartBody) => body.files.exportFile?.bytes ?? null
/** the options part: a form field, or a file part holding the JSON */
const optionsPart = (body: MultipartBody) => body.fields.options ?? body.files.options?.bytes.toString('utf8')

const importForm = z.object({
  exportFile: z.string().meta({ contentMediaType: 'application/zip', description: 'the package (.zip)' }),
})
const runForm = importForm.extend({
  options: z.string().meta({ contentMediaType: 'application/json', description: 'import options (JSON): formatVersion, type, preflightDigest, conflictPolicy, environmentMapping, certEnvironmentMergeMethod, certEnvironmentUncoveredAction, acknowledgeChecksumMismatch' }),
})
const multipart = (schema: z.ZodType, files: string[]) => ({ kind: 'multipart' as const, schema, required: true, files, maxFileBytes: PACKAGE_LIMITS.maxPackageBytes })

const COMMON_ERRORS = {
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: EXPORT_IMPORT on the type\'s category (or PROJECT_MANAGEMENT) is needed, also for every carried object',
  404: 'resourceNotFound: project out of scope, or a named object that does not exist',
}

/** Decided before the body (issue 28 §6): EXPORT_IMPORT in some category; the operation then checks each type's own. */
const EXPORT_IMPORT_ACCESS: RouteAccess = { category: ['PROJECT_MANAGEMENT', ANY_CATEGORY], level: 'EXPORT_IMPORT' }
/** VIEW on the type's own category or PROJECT_MANAGEMENT (listing its objects). */
const TYPE_VIEW_ACCESS: RouteAccess = {
  category: (params) => {
    const adapter = findAdapter(params.type ?? '')
    return adapter ? [adapter.category, 'PROJECT_MANAGEMENT'] : ['PROJECT_MANAGEMENT', ANY_CATEGORY]
  },
  level: 'VIEW',
}
/** The same, for the type the path or the query names: its own category or PROJECT_MANAGEMENT, as the operation words it. */
const TYPE_EXPORT_IMPORT_ACCESS: RouteAccess = {
  category: (params, query) => {
    const adapter = findAdapter(params.type ?? firstQuery(query.type) ?? '')
    return adapter ? [adapter.category, 'PROJECT_MANAGEMENT'] : ['PROJECT_MANAGEMENT', ANY_CATEGORY]
  },
  level: 'EXPORT_IMPORT',
}

const legacyImportForm = legacyImportFields.extend({
  exportFile: z.string().meta({ contentMediaType: 'application/zip', description: 'the package; its file name must end with .zip' }),
})
const objectEntry = z.object({ name: z.string(), kind: z.string().optional().describe('only for the multi-kind types (CERTIFICATE, API_CREATOR, IDENTITY_SERVICE)') }).meta({ id: 'ExportImportObject' })

/** Vendor api-reference/export-import: the supported types, a type's objects and the import, on the transfer engine. */
const exportImportRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/export-import/types/`,
    access: { category: ['PROJECT_MANAGEMENT', ANY_CATEGORY], level: 'VIEW' },
    style: 'legacy',
    auth: 'token',
    tag: 'export',
    summary: 'The object types this installation can export and import (VIEW in some category of the project)',
    response: legacyListBody(z.string()),
    responses: { 200: 'status SUCCESS, resultList[] of type names (upper case), resultCount', 400: 'project not found, or no VIEW in it', 401: COMMON_ERRORS[401] },
    async handle(ctx, input) {
      return { body: legacyList(await listTransferTypes(ctx.deps, requireActor(ctx), input.params.projectName)) }
    },
  },
  {
    method: 'get',
    path: `${BASE}/export-import/:type/objects/`,
    access: TYPE_VIEW_ACCESS,
    style: 'legacy',
    auth: 'token',
    tag: 'export',
    summary: 'The objects of one type in the project: the names the export expects, with their kind for the multi-kind types (VIEW on the type\'s category or PROJECT_MANAGEMENT)',
    query: objectsQuery,
    response: legacyListBody(objectEntry),
    responses: { 200: 'status SUCCESS, resultList[] of name (and kind), resultCount', 400: 'unknown type, project not found, lacking VIEW, filter too long', 401: COMMON_ERRORS[401] },
    async handle(ctx, input) {
      return { body: legacyList(await listTransferObjects(ctx.deps, requireActor(ctx), input.params.projectName, input.params.type!, input.query)) }
    },
  },
  {
    method: 'post',
    path: `${BASE}/export-import/:type/import/`,
    access: TYPE_EXPORT_IMPORT_ACCESS,
    style: 'legacy',
    auth: 'token',
    tag: 'export',
    summary: 'Import a package of one type (all or nothing); override=true replaces same-named objects. Imported objects are not deployed',
    body: multipart(legacyImportForm, ['exportFile']),
    headers: [PASSPHRASE_DOC, { name: 'X-Apinizer-Package-Passphrase', description: 'the same, as the vendor page names it' }],
    audit: { objectName: (input) => input.params.type ?? null },
    response: legacyBody({ unresolvedReferences: z.array(z.string()).optional().describe('what could not be carried over; absent when everything was') }),
    responses: {
      200: 'status SUCCESS; unresolvedReferences[] when part of the package could not be carried over',
      400: 'exportFile missing, not a ZIP or not named .zip; unknown type; the package holds another type; an object already exists (override=false); lacking EXPORT_IMPORT; passphrase missing or wrong; a changed package; invalid override, environmentMapping or cert options',
      401: COMMON_ERRORS[401],
    },
    async handle(ctx, input) {
      const body = input.body as MultipartBody
      const file = body.files.exportFile
      const result = await importObjects(ctx.deps, requireActor(ctx), input.params.projectName, input.params.type!, {
        bytes: file?.bytes ?? null, fileName: file?.fileName, passphrase: importPassphraseOf(input), fields: body.fields,
      })
      return { body: legacySuccess(result.unresolvedReferences.length ? result : {}) }
    },
  },
])

export const transferRoutes = defineRoutes([
  ...exportImportRoutes,
  {
    method: 'post',
    path: `${BASE}/export-import/:type/export/`,
    access: TYPE_EXPORT_IMPORT_ACCESS,
    style: 'legacy',
    auth: 'token',
    tag: 'export',
    summary: 'Export objects of one type into a ZIP package with an integrity manifest (spec §4.3)',
    body: { kind: 'json', schema: legacyExportBody, required: false },
    query: exportQuery.pick({ secretHandling: true }).extend({
      encrypt: z.enum(['true', 'false']).optional().describe('encrypt the whole package (default false)'),
      withDependencies: z.enum(['true', 'false']).optional().describe('also package every referenced object (default false)'),
    }),
    headers: [PASSPHRASE_DOC],
    response: fileBody('application/octet-stream'),
    responses: {
      200: 'the ZIP (application/octet-stream); Content-Disposition filename <name>.zip for one object, otherwise <type>-export.zip',
      400: 'unknown type, empty names, unknown name, name shared by several kinds, file-name clash, unknown kind, lacking EXPORT_IMPORT, encrypt without passphrase, reserved manifest name',
      401: 'missing, invalid, expired or revoked token',
    },
    async handle(ctx, input) {
      const pkg = await exportObjects(ctx.deps, requireActor(ctx), {
        projectName: input.params.projectName, type: input.params.type, query: input.query, body: input.body, passphrase: passphraseOf(input),
      })
      return zipResult(pkg)
    },
  },
  {
    method: 'post',
    path: `${BASE}/transfer-export-previews`,
    access: EXPORT_IMPORT_ACCESS,
    style: 'common',
    auth: 'token',
    tag: 'transfer',
    summary: 'Preview an export: the objects, the dependencies, how secrets travel, and the exportDigest. Writes nothing',
    body: { kind: 'json', schema: transferExportInput, required: true },
    audit: false,
    response: plainBody(transferExportPreviewSchema),
    responses: { 200: 'preview: formatVersion, type, withDependencies, objects, dependencies, secretHandling, advisories, exportDigest', 400: 'malformedRequest, params.reason transfer.formatVersionUnsupported, unknownType, namesRequired, unknownKind, nameAmbiguous, fileNameClash, reservedFileName', ...COMMON_ERRORS },
    async handle(ctx, input) {
      return { body: await previewTransferExport(ctx.deps, requireActor(ctx), input.params.projectName, input.body) }
    },
  },
  {
    method: 'post',
    path: `${BASE}/transfer-export-runs`,
    access: EXPORT_IMPORT_ACCESS,
    style: 'common',
    auth: 'token',
    tag: 'transfer',
    summary: 'Export the previewed selection as a ZIP if it still has the expected digest',
    body: { kind: 'json', schema: transferExportRunInput, required: true },
    query: z.object({ encrypt: z.enum(['true', 'false']).optional().describe('encrypt the whole package (default false)') }),
    headers: [PASSPHRASE_DOC],
    response: fileBody('application/octet-stream'),
    responses: { 200: 'the ZIP', 400: 'as the preview, plus malformedRequest reason packagePassphraseRequired', 409: 'dependencyConflict, reason transfer.exportDigestMismatch (nothing streamed)', ...COMMON_ERRORS },
    async handle(ctx, input) {
      const encrypt = parseEncrypt(input.query.encrypt)
      return zipResult(await runTransferExport(ctx.deps, requireActor(ctx), input.params.projectName, input.body, { encrypt, passphrase: passphraseOf(input) }))
    },
  },
  {
    method: 'post',
    path: `${BASE}/transfer-import-preflights`,
    access: TYPE_EXPORT_IMPORT_ACCESS,
    style: 'common',
    auth: 'token',
    tag: 'transfer',
    summary: 'Analyse a package against the project: objects, dependencies, replace targets, environments, blockers, preflightDigest. Writes nothing',
    body: multipart(importForm, ['exportFile']),
    query: z.object({ type: z.string().describe('the object type of the package') }),
    headers: [PASSPHRASE_DOC],
    audit: false,
    response: plainBody(transferPreflightSchema),
    responses: { 200: 'preflight analysis', 400: 'malformedRequest, params.reason exportFileRequired, exportFileMustBeZip, unknownType, packagePassphraseRequired, packagePassphraseIncorrect, hostile-package refusals (packageEntryPathUnsafe, packageEntrySymlink, packageDuplicateEntry, packageTooManyEntries, packageEntryTooLarge, packageTooLarge, packageCompressionRatioExceeded…)', ...COMMON_ERRORS },
    async handle(ctx, input) {
      const body = input.body as MultipartBody
      return {
        body: await preflightTransferImport(ctx.deps, requireActor(ctx), input.params.projectName, { bytes: exportFile(body), passphrase: passphraseOf(input) }, firstQuery(input.query.type)),
      }
    },
  },
  {
    method: 'post',
    path: `${BASE}/transfer-import-runs`,
    access: EXPORT_IMPORT_ACCESS,
    style: 'common',
    auth: 'token',
    tag: 'transfer',
    summary: 'Import a package in one transaction (all or nothing) after comparing with the preflightDigest',
    body: multipart(runForm, ['exportFile', 'options']),
    headers: [{ name: 'Idempotency-Key', description: 'required', required: true }, PASSPHRASE_DOC],
    response: plainBody(transferImportResultSchema),
    responses: {
      200: 'import result: formatVersion, type, conflictPolicy, imported, advisories, unresolvedReferences',
      400: 'idempotencyKeyRequired; malformedRequest, params.reason optionsRequired, exportFileRequired, exportFileMustBeZip, importNameCollision, manifestChecksumMismatch, credentialUsernameTaken, packagePassphraseRequired, hostile-package refusals, blockers of the preflight',
      409: 'dependencyConflict (transfer.preflightDrift), idempotencyInProgress, idempotencyReplayExpired, idempotencyKeyReused',
      ...COMMON_ERRORS,
    },
    async handle(ctx, input) {
      const body = input.body as MultipartBody
      const key = input.headers['idempotency-key']
      return {
        body: await runTransferImport(ctx.deps, requireActor(ctx), input.params.projectName, {
          source: { bytes: exportFile(body), passphrase: passphraseOf(input) },
          options: optionsPart(body),
          idempotencyKey: Array.isArray(key) ? key[0] : key,
          queryType: firstQuery(input.query.type),
        }),
      }
    },
  },
])

function parseEncrypt(raw: unknown): boolean {
  const value = firstQuery(raw)
  if (value === undefined || value === 'false') return false
  if (value === 'true') return true
  throw malformed('encrypt: must be true or false', { field: 'encrypt' })
}
