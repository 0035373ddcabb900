import { z } from 'zod'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { asMalformedReason, DomainError, malformed, malformedReason } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { sha256Hex } from '../../platform/hashing/canonical.js'
import { claimIdempotencyKey, completeClaim, releaseClaim, type Claim } from '../../platform/idempotency/claims.js'
import { settleWhenReachable } from '../../platform/db/outage.js'
import { analysePackage, existsInTarget, objectView, transferContext, type Analysis, type ImportSource, type PlannedObject } from './analysis.js'
import { checkFormatVersion } from './errors.js'
import { findAdapter, refKey, refLabel, type AdapterContext, type Advisory, type ImportWriteOptions, type ObjectRef, type TransferAdapter } from '../../platform/transfer/registry.js'

/** The import run: options, the Idempotency-Key table, and the one-transaction import of an analysed package. */

export const importOptionsSchema = z
  .object({
    formatVersion: z.unknown().optional(),
    type: z.string().optional(),
    preflightDigest: z.string({ error: 'is required: the preflightDigest of the preflight' }).trim().min(1, 'is required: the preflightDigest of the preflight'),
    conflictPolicy: z.enum(['NEW', 'REPLACE'], { error: 'must be NEW or REPLACE' }).default('NEW'),
    environmentMapping: z.record(z.string(), z.string().trim().min(1, 'must name an environment')).default({}),
    certEnvironmentMergeMethod: z.enum(['MATCH_BY_NAME', 'OVERWRITE_ALL'], { error: 'must be MATCH_BY_NAME or OVERWRITE_ALL' }).default('MATCH_BY_NAME'),
    certEnvironmentUncoveredAction: z.enum(['FILL_FROM_PACKAGE', 'REMOVE_FROM_TARGET'], { error: 'must be FILL_FROM_PACKAGE or REMOVE_FROM_TARGET' }).default('FILL_FROM_PACKAGE'),
    acknowledgeChecksumMismatch: z.boolean().default(false),
  })
  .strict()
export type ImportOptions = z.output<typeof importOptionsSchema>
export type ImportOptionsInput = z.input<typeof importOptionsSchema>

/** The options part as received: a JSON text (form field or file part), or an object from GraphQL. */
export function parseImportOptions(raw: unknown): ImportOptions {
  if (raw === undefined || raw === null || raw === '') throw malformedReason('optionsRequired', 'The multipart part options (JSON) is required', { field: 'options' })
  let value = raw
  if (typeof raw === 'string' || Buffer.isBuffer(raw)) {
    try {
      value = JSON.parse(raw.toString())
    } catch {
      throw malformed('options: must be a JSON object', { field: 'options', reason: 'bodyNotJson' })
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw malformed('options: must be a JSON object', { field: 'options' })
  const options = parseInput(importOptionsSchema, value)
  checkFormatVersion(options.formatVersion, 'options.formatVersion')
  return options
}

export interface ImportResult {
  formatVersion: 1
  type: string
  conflictPolicy: 'NEW' | 'REPLACE'
  imported: { name: string; kind: string | null; type: string }[]
  advisories: Advisory[]
  unresolvedReferences: string[]
}

/** An advisory as one plain line (unresolvedReferences). */
export function advisoryLine(a: Advisory): string {
  const p = a.params
  switch (a.key) {
    case 'transfer.unresolvedReference':
      return `${p.object} refers to ${[p.type, p.kind, p.name].filter(Boolean).join('/')}, which does not exist in the target`
    case 'deployRequired':
      return `deploy required for ${p.type} ${(p.names as string[]).join(', ')}: ${p.reason}`
    case 'transfer.checksumMismatchAcknowledged':
      return `${p.entryCount} package entr${p.entryCount === 1 ? 'y' : 'ies'} changed after export; accepted by ${p.acknowledgedBy}`
    case 'transfer.secretNotCarried':
      return `${p.object}: secret field(s) ${(p.fields as string[]).join(', ')} were not in the package; set them in the target`
    case 'transfer.secretUnavailable':
      return `${p.object}: secret field(s) ${(p.fields as string[]).join(', ')} are sealed under another installation's key; set them in the target`
    default:
      return `${a.key} ${JSON.stringify(p)}`
  }
}

function refuseBlocked(a: Analysis, options: Pick<ImportOptions, 'acknowledgeChecksumMismatch'>): Advisory[] {
  const fatal = a.blockers.find((b) => !b.acknowledgeable)
  if (fatal) {
    throw malformedReason(fatal.code, `The package cannot be imported: ${fatal.entryFileName ? `${fatal.entryFileName}: ` : ''}${fatal.detail}`, {
      entryFileName: fatal.entryFileName, blockers: a.blockers.filter((b) => !b.acknowledgeable).map(({ code, entryFileName }) => ({ code, entryFileName })),
    })
  }
  const mismatched = [...new Set(a.blockers.map((b) => b.entryFileName ?? ''))]
  if (!mismatched.length) return []
  if (!options.acknowledgeChecksumMismatch) {
    throw malformedReason('manifestChecksumMismatch',
      `The package was changed after export (${mismatched.length} entr${mismatched.length === 1 ? 'y' : 'ies'}); set acknowledgeChecksumMismatch to import it anyway`,
      { entryCount: mismatched.length, entries: mismatched })
  }
  return []
}

function mapEnvironments(a: Analysis, options: Pick<ImportOptions, 'environmentMapping'>): void {
  const known = new Set(a.installationEnvironments)
  for (const [source, target] of Object.entries(options.environmentMapping)) {
    if (!known.has(target)) {
      throw malformed(`environmentMapping.${source}: environment '${target}' does not exist in this installation`, {
        field: `environmentMapping.${source}`, reason: 'transfer.environmentUnknown', environment: target,
      })
    }
  }
  const map = (env: string) => options.environmentMapping[env] ?? env
  for (const p of [...a.objects, ...a.packagedDependencies]) {
    if (p.adapter.mapEnvironments) p.portable = p.adapter.mapEnvironments(p.portable, map)
    if (!p.adapter.environmentsRequired) continue
    for (const env of p.adapter.environmentsOf?.(p.portable) ?? []) {
      if (!known.has(env)) {
        throw malformed(`${refLabel(p.packaged)} names environment '${env}', which does not exist here; map it in environmentMapping`, {
          field: `environmentMapping.${env}`, reason: 'transfer.environmentUnmapped', environment: env, object: refLabel(p.packaged),
        })
      }
    }
  }
}

/**
 * What every import checks of an analysed package before writing: blockers (a changed package only when
 * acknowledged), names taken under NEW, environments mapped. Returns the advisories so far.
 */
export function checkImportable(actor: Actor, analysis: Analysis, options: Omit<ImportOptions, 'preflightDigest' | 'formatVersion' | 'type'>): Advisory[] {
  const advisories = refuseBlocked(analysis, options)
  if (analysis.blockers.length) {
    const entries = [...new Set(analysis.blockers.map((b) => b.entryFileName ?? ''))]
    advisories.push({ level: 'WARNING', key: 'transfer.checksumMismatchAcknowledged', params: { entryCount: entries.length, acknowledgedBy: actorName(actor), entries } })
  }
  if (options.conflictPolicy === 'NEW') {
    const taken = analysis.objects.filter((p) => p.exists).map((p) => p.packaged.name)
    if (taken.length) {
      throw malformedReason('importNameCollision', `${analysis.type} ${taken.map((n) => `'${n}'`).join(', ')} already exist${taken.length === 1 ? 's' : ''}; use conflictPolicy REPLACE or rename`, {
        names: taken,
      })
    }
  }
  mapEnvironments(analysis, options)
  return advisories
}

/**
 * POST …/transfer-import-runs: re-analyses the package, compares with preflightDigest (before claiming the
 * Idempotency-Key), then imports every object in ONE transaction, all or nothing. An existing claim is
 * answered by the Idempotency-Key table first (in progress, replay expired, key reused).
 */
export async function runTransferImport(
  deps: Deps,
  actor: Actor,
  projectName: string,
  input: { source: ImportSource; options: unknown; idempotencyKey: string | undefined; queryType?: string | null },
): Promise<ImportResult> {
  const ctx = await transferContext(deps, actor, projectName)
  const key = input.idempotencyKey?.trim()
  if (!key) throw new DomainError('validation', 'idempotencyKeyRequired', 'Header Idempotency-Key is required')
  const options = parseImportOptions(input.options)
  if (!input.source.bytes) throw malformedReason('exportFileRequired', 'The multipart part exportFile (the package ZIP) is required', { field: 'exportFile' })
  const type = options.type ?? input.queryType ?? null
  const claimRequest = {
    scope: ctx.access.project.id,
    operation: 'transfer.importRun',
    key,
    body: { packageSha256: sha256Hex(input.source.bytes), options: { ...options, type: type?.toUpperCase() ?? null } },
  }
  // the table of spec §4.4 for a key already claimed: the claim's own rules answer (409s)
  let claim: Claim | null = null
  const existing = await deps.prisma.idempotencyClaim.findUnique({ where: { scope_operation_key: { scope: claimRequest.scope, operation: claimRequest.operation, key } } })
  if (existing) claim = await claimIdempotencyKey(deps.prisma, claimRequest)
  try {
    const analysis = await analysePackage(ctx, input.source, type)
    if (analysis.preflightDigest !== options.preflightDigest) {
      throw new DomainError('conflict', 'dependencyConflict', 'The package or the project changed since the preflight: run the preflight again', {
        reason: 'transfer.preflightDrift', expectedPreflightDigest: options.preflightDigest, currentPreflightDigest: analysis.preflightDigest,
      })
    }
    const advisories = checkImportable(actor, analysis, options)
    claim ??= await claimIdempotencyKey(deps.prisma, claimRequest)
    const result = await importAnalysed(deps, ctx, analysis, options, advisories)
    const done = claim
    // the import is committed: a claim that cannot be completed during an outage is completed when the database is back
    await settleWhenReachable(() => completeClaim(deps.prisma, done, `${analysis.type}:${result.imported.map((i) => i.name).join(',')}`.slice(0, 500)))
    return result
  } catch (err) {
    // a claim taken by this call is released on any failure (engine errors included), so the client may retry
    const taken = claim
    if (taken) await settleWhenReachable(() => releaseClaim(deps.prisma, taken))
    throw err
  }
}

export async function importAnalysed(deps: Deps, ctx: AdapterContext, a: Analysis, options: Omit<ImportOptions, 'preflightDigest' | 'formatVersion' | 'type'>, advisories: Advisory[]): Promise<ImportResult> {
  const targetEnvironments = (await ctx.db.projectEnvironment.findMany({ where: { projectId: ctx.access.project.id }, include: { environment: true } }))
    .map((l) => l.environment.name)
  const writeOptions: ImportWriteOptions = {
    certEnvironmentMergeMethod: options.certEnvironmentMergeMethod,
    certEnvironmentUncoveredAction: options.certEnvironmentUncoveredAction,
    targetEnvironments,
  }
  const replace = options.conflictPolicy === 'REPLACE'
  // dependencies first; under NEW a dependency already in the target is kept as found by name
  const toWrite = [...a.packagedDependencies.filter((p) => replace || !p.exists), ...a.objects]
  const present = new Set([...a.objects, ...a.packagedDependencies].map((p) => refKey(p.packaged)))
  const written: PlannedObject[] = []

  const writeAll = async (tx: AdapterContext['db']) => {
    const txCtx: AdapterContext = { ...ctx, db: tx }
    // in order (dependencies first), consecutive objects of one type in one batch when the adapter can
    for (let i = 0; i < toWrite.length; ) {
      let j = i + 1
      while (j < toWrite.length && toWrite[j].adapter === toWrite[i].adapter) j++
      const batch = toWrite.slice(i, j)
      const adapter = batch[0].adapter
      advisories.push(...batch.flatMap((p) => p.secretAdvisories))
      if (adapter.writeMany && batch.length > 1) {
        advisories.push(...(await adapter.writeMany(txCtx, batch.map((p) => ({ object: p.portable, existing: p.exists })), writeOptions)))
      } else {
        for (const p of batch) advisories.push(...(await adapter.write(txCtx, p.portable, p.exists, writeOptions)))
      }
      written.push(...batch)
      i = j
    }
    for (const p of written) {
      for (const dep of p.portable.dependencies) {
        if (present.has(refKey(dep))) continue
        const depAdapter = findAdapter(dep.type)
        if (depAdapter && (await existsInTarget(txCtx, depAdapter, dep))) continue
        advisories.push({ level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: refLabel(p.packaged), type: dep.type, kind: dep.kind, name: dep.name } })
      }
    }
  }
  try {
    await deps.prisma.$transaction(writeAll, { maxWait: 30_000, timeout: 600_000 })
  } catch (err) {
    // another import (or a write) created one of the names after the analysis: the same answer as the check
    if ((err as { code?: string } | null)?.code === 'P2002') {
      throw malformedReason('importNameCollision', 'An object of the package was created in the target meanwhile; run the preflight again')
    }
    // an import cause an adapter's service throws under its own key is a malformedRequest reason (spec §7.3)
    throw asMalformedReason(err)
  }

  const byAdapter = new Map<TransferAdapter, ObjectRef[]>()
  for (const p of written) byAdapter.set(p.adapter, [...(byAdapter.get(p.adapter) ?? []), p.packaged])
  for (const [adapter, refs] of byAdapter) if (adapter.afterImport) advisories.push(...(await adapter.afterImport(deps, ctx.access, refs)))

  const ordered = [...written.filter((p) => p.packaged.role === 'SELECTED'), ...written.filter((p) => p.packaged.role === 'DEPENDENCY')]
  return {
    formatVersion: 1,
    type: a.type,
    conflictPolicy: options.conflictPolicy,
    imported: ordered.map(objectView),
    advisories,
    unresolvedReferences: advisories.map(advisoryLine),
  }
}

