// The export operations of the doors: legacy export, transfer preview and run, the webhook connection export.
import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { DomainError, malformed, malformedReason } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { PLATFORM_PROJECT, refusePlatformScope } from '../../platform/scope/project-scope.js'
import { ensureTransferAdapters } from './adapters/index.js'
import { buildPackage, type BuiltPackage } from './build.js'
import { checkFormatVersion } from './errors.js'
import { SECRET_HANDLINGS, type SecretHandling } from '../../platform/transfer/package/format.js'
import { adapterFor } from '../../platform/transfer/registry.js'
import { adapterContext, DEFAULT_SECRET_HANDLING, exportDigest, normalizeNames, previewOf, resolveSelection, type ExportPreview } from './selection.js'

const booleanQuery = (field: string) =>
  z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.enum(['true', 'false'], { error: 'must be true or false' }).optional())
    .transform((v) => v === 'true')
    .describe(field)

export const exportQuery = z.object({
  encrypt: booleanQuery('encrypt'),
  withDependencies: booleanQuery('withDependencies'),
  secretHandling: z.enum(SECRET_HANDLINGS).optional(),
})

export const legacyExportBody = z.object({
  names: z.array(z.string()).optional(),
  kind: z.string().nullish(),
})

/** The passphrase an encrypting export needs (spec §4.3: required only with encrypt=true). */
export function passphraseForEncrypt(encrypt: boolean, passphrase: string | null): string | null {
  if (!encrypt) return null
  if (!passphrase) {
    throw malformedReason('packagePassphraseRequired', 'encrypt=true needs the X-Service-Package-Passphrase header (Base64 of the UTF-8 passphrase)', {
      field: 'X-Service-Package-Passphrase',
    })
  }
  return passphrase
}

/** POST /apiops/projects/{projectName}/export-import/{type}/export/ (spec §4.3, legacy envelope). */
export async function exportObjects(
  deps: Deps,
  actor: Actor,
  input: { projectName: string; type: string; query: unknown; body: unknown; passphrase: string | null },
): Promise<BuiltPackage> {
  const ctx = await adapterContext(deps, actor, input.projectName)
  const query = parseInput(exportQuery, input.query ?? {})
  const body = parseInput(legacyExportBody, input.body ?? {})
  await ensureTransferAdapters()
  adapterFor(input.type)
  normalizeNames(body.names)
  const passphrase = passphraseForEncrypt(query.encrypt, input.passphrase)
  const sel = await resolveSelection(ctx, { type: input.type, names: body.names, kind: body.kind, withDependencies: query.withDependencies })
  return buildPackage(ctx, sel, { passphrase, secretHandling: query.secretHandling })
}

export const transferExportInput = z.object({
  formatVersion: z.unknown().optional(),
  type: z.string().optional(),
  names: z.array(z.string()).optional(),
  kind: z.string().nullish(),
  withDependencies: z.boolean().default(false),
  secretHandling: z.enum(SECRET_HANDLINGS).optional(),
}).strict()
export const transferExportRunInput = transferExportInput.extend({ expectedExportDigest: z.string().optional() })
export type TransferExportInput = z.input<typeof transferExportInput>
export type TransferExportRunInput = z.input<typeof transferExportRunInput>

async function transferSelection(deps: Deps, actor: Actor, projectName: string, raw: unknown, schema: typeof transferExportInput | typeof transferExportRunInput) {
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  refusePlatformScope(projectName)
  const ctx = await adapterContext(deps, actor, projectName)
  const body = parseInput(schema, raw) as z.output<typeof transferExportRunInput>
  checkFormatVersion(body.formatVersion)
  const sel = await resolveSelection(ctx, { type: body.type ?? '', names: body.names, kind: body.kind, withDependencies: body.withDependencies })
  return { ctx, body, sel }
}

/** POST …/transfer-export-previews: what a run would package, and its digest. Writes nothing. */
export async function previewTransferExport(deps: Deps, actor: Actor, projectName: string, raw: unknown): Promise<ExportPreview> {
  const { body, sel } = await transferSelection(deps, actor, projectName, raw, transferExportInput)
  return previewOf(sel, body.secretHandling ?? DEFAULT_SECRET_HANDLING)
}

/** POST …/transfer-export-runs: re-resolves, compares with expectedExportDigest, then builds the ZIP. */
export async function runTransferExport(
  deps: Deps,
  actor: Actor,
  projectName: string,
  raw: unknown,
  options: { encrypt: boolean; passphrase: string | null },
): Promise<BuiltPackage> {
  const { ctx, body, sel } = await transferSelection(deps, actor, projectName, raw, transferExportRunInput)
  if (!body.expectedExportDigest?.trim()) {
    throw malformed('expectedExportDigest is required: the exportDigest of the preview', { field: 'expectedExportDigest' })
  }
  const passphrase = passphraseForEncrypt(options.encrypt, options.passphrase)
  const current = exportDigest(sel)
  if (current !== body.expectedExportDigest) {
    throw new DomainError('conflict', 'dependencyConflict', 'The selection changed since the preview: preview again', {
      reason: 'transfer.exportDigestMismatch', expectedExportDigest: body.expectedExportDigest, currentExportDigest: current,
    })
  }
  return buildPackage(ctx, sel, { passphrase, secretHandling: body.secretHandling })
}

/**
 * The webhook connection export of spec §2.17: `<date>-<connection-name>-export.zip` holding the connection
 * JSON, the manifest (metadata) and its trust/key stores as dependencies, resolved in `projectName`
 * (default: the platform project). Importable through the transfer import like any package.
 */
export async function exportWebhookConnection(
  deps: Deps,
  actor: Actor,
  input: { name: string; projectName?: string | null; withDependencies?: boolean | null; passphrase?: string | null; secretHandling?: SecretHandling | null },
): Promise<BuiltPackage> {
  const ctx = await adapterContext(deps, actor, input.projectName?.trim() || PLATFORM_PROJECT)
  const sel = await resolveSelection(ctx, { type: 'WEBHOOK_CONNECTION', names: [input.name], kind: null, withDependencies: input.withDependencies ?? true })
  return buildPackage(ctx, sel, { passphrase: input.passphrase || null, secretHandling: input.secretHandling ?? undefined })
}

