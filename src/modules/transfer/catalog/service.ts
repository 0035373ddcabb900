import { z } from 'zod'
import { isSystemAdmin, type Actor } from '../../../platform/auth/actor.js'
import { ASSET_CATEGORIES, can } from '../../../platform/auth/permissions.js'
import type { Deps } from '../../../platform/context.js'
import { DomainError, malformedReason } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { ensureTransferAdapters } from '../adapters/index.js'
import { checkImportable, importAnalysed } from '../import.js'
import { analysePackage, type Analysis } from '../analysis.js'
import { adapterFor, supportedTypes, type AdapterContext, type TransferAdapter } from '../../../platform/transfer/registry.js'
import { adapterContext } from '../selection.js'

// The legacy export-import surface beside the export of spec §4.3 (vendor api-reference/export-import: list supported
// types, list objects, import objects), on the transfer engine: the registry's types, its adapters' listings, and its
// one import (analysePackage, checkImportable, importAnalysed). No serializer of its own.

/** GET …/export-import/types/: every type the installation can export and import (VIEW in some category of the project). */
export async function listTransferTypes(deps: Deps, actor: Actor, projectName: string): Promise<string[]> {
  const access = await resolveProjectAccess(deps.prisma, actor, projectName)
  if (!ASSET_CATEGORIES.some((c) => can(access, c, 'VIEW'))) {
    throw new DomainError('permission', 'permissionDenied', `User lacks permission PROJECT_MANAGEMENT VIEW (or VIEW in some other category) in project '${access.project.name}'`, { category: 'PROJECT_MANAGEMENT', level: 'VIEW' })
  }
  await ensureTransferAdapters()
  return supportedTypes()
}

/** Reading a type's objects: VIEW on its category or PROJECT_MANAGEMENT; an installation-wide type, a system administrator. */
function requireListable(ctx: AdapterContext, adapter: TransferAdapter): void {
  if (adapter.scope === 'installation' && !isSystemAdmin(ctx.actor)) {
    throw new DomainError('permission', 'permissionDenied', `Only a system administrator may list ${adapter.type} objects`, { reason: 'systemAdminRequired', type: adapter.type })
  }
  if (can(ctx.access, adapter.category, 'VIEW') || can(ctx.access, 'PROJECT_MANAGEMENT', 'VIEW')) return
  throw new DomainError('permission', 'permissionDenied', `User lacks permission ${adapter.category} VIEW (or PROJECT_MANAGEMENT VIEW) in project '${ctx.access.project.name}'`, { category: adapter.category, level: 'VIEW' })
}

export const objectsQuery = z.object({ filter: z.string().max(200, 'must be at most 200 characters').optional().describe('only the objects whose name contains this text (case-insensitive)') })

export interface TransferObjectEntry { name: string; kind?: string }

/** GET …/export-import/{type}/objects/: the names the export expects, with the kind for the multi-kind types. */
export async function listTransferObjects(deps: Deps, actor: Actor, projectName: string, type: string, query: unknown): Promise<TransferObjectEntry[]> {
  const ctx = await adapterContext(deps, actor, projectName)
  await ensureTransferAdapters()
  const adapter = adapterFor(type)
  requireListable(ctx, adapter)
  const filter = parseInput(objectsQuery, query ?? {}).filter?.trim().toLowerCase() ?? ''
  const entries: TransferObjectEntry[] = []
  for (const kind of adapter.kinds ?? [null]) {
    for (const name of await adapter.listNames(ctx, kind)) if (name.toLowerCase().includes(filter)) entries.push(kind ? { name, kind } : { name })
  }
  return entries
}

/** The form fields of the legacy import, beside exportFile (multipart text fields). */
export const legacyImportFields = z.object({
  override: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  environmentMapping: z.string().optional(),
  certEnvironmentMergeMethod: z.enum(['MATCH_BY_NAME', 'OVERWRITE_ALL'], { error: 'must be MATCH_BY_NAME or OVERWRITE_ALL' }).default('MATCH_BY_NAME'),
  certEnvironmentUncoveredAction: z.enum(['FILL_FROM_PACKAGE', 'REMOVE_FROM_TARGET'], { error: 'must be FILL_FROM_PACKAGE or REMOVE_FROM_TARGET' }).default('FILL_FROM_PACKAGE'),
})
const environmentMapping = z.record(z.string(), z.string().trim().min(1, 'must name an environment'), { error: 'must be a JSON object of environment names' })

function mappingOf(raw: string | undefined): Record<string, string> {
  if (!raw?.trim()) return {}
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw malformedReason('bodyNotJson', 'environmentMapping: must be a JSON object of environment names', { field: 'environmentMapping' })
  }
  const parsed = environmentMapping.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = ['environmentMapping', ...issue.path].join('.')
    throw malformedReason('invalidField', `${field}: ${issue.message}`, { field })
  }
  return parsed.data
}

export interface LegacyImportInput { bytes: Buffer | null; fileName: string | undefined; passphrase: string | null; fields: Record<string, string> }

/**
 * How a page of one object type imports through importObjects (keys/import/, keystores/import/): the name of its file
 * part in refusals, and a step on the analysed package before the import (check what it holds, rename under NEW).
 */
export interface LegacyImportShape {
  fileField: string
  prepare(analysis: Analysis, conflictPolicy: 'NEW' | 'REPLACE'): Promise<void> | void
}

/**
 * POST …/export-import/{type}/import/: the package imported in one transaction (all or nothing), as new objects or,
 * with override=true, replacing same-named ones; what could not be carried over is reported as plain lines.
 * Imported objects are not deployed (the page: "Deploy them afterwards").
 */
export async function importObjects(deps: Deps, actor: Actor, projectName: string, type: string, input: LegacyImportInput, shape?: LegacyImportShape): Promise<{ unresolvedReferences: string[] }> {
  const ctx = await adapterContext(deps, actor, projectName)
  const fileField = shape?.fileField ?? 'exportFile'
  if (input.bytes && input.fileName !== undefined && !input.fileName.toLowerCase().endsWith('.zip')) {
    throw malformedReason('exportFileMustBeZip', `${fileField} parameter must be in zip file format and must end with zip extension!`, { field: fileField })
  }
  const fields = parseInput(legacyImportFields, input.fields)
  const options = {
    conflictPolicy: fields.override === 'true' ? ('REPLACE' as const) : ('NEW' as const),
    environmentMapping: mappingOf(fields.environmentMapping),
    certEnvironmentMergeMethod: fields.certEnvironmentMergeMethod,
    certEnvironmentUncoveredAction: fields.certEnvironmentUncoveredAction,
    acknowledgeChecksumMismatch: false,
  }
  const analysis = await analysePackage(ctx, { bytes: input.bytes, passphrase: input.passphrase }, type)
  await shape?.prepare(analysis, options.conflictPolicy)
  const advisories = checkImportable(actor, analysis, options)
  const result = await importAnalysed(deps, ctx, analysis, options, advisories)
  return { unresolvedReferences: result.unresolvedReferences }
}
