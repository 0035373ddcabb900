import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { malformedReason, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { ensureTransferAdapters } from './adapters/index.js'
import { requireExportImport } from './errors.js'
import { lookupObjects, type Lookup } from './lookup.js'
import { digestOf, type ObjectRole, type SecretHandling } from '../../platform/transfer/package/format.js'
import { objectFileName, reservedFileOf } from '../../platform/transfer/package/names.js'
import { adapterFor, findAdapter, refKey, refLabel, type AdapterContext, type ObjectRef, type PortableObject, type TransferAdapter } from '../../platform/transfer/registry.js'

/** Resolving what an export carries: names to objects, dependencies, file names, and the digest. */
export interface SelectionRequest {
  type: string
  names: unknown
  kind?: string | null
  withDependencies: boolean
}

export interface SelectedObject extends PortableObject {
  role: ObjectRole
  file: string
}

/** What an export resolved: the selected objects, what they carry along, and what could not be written. */
export interface Selection {
  adapter: TransferAdapter
  kind: string | null
  withDependencies: boolean
  objects: SelectedObject[]
  dependencies: SelectedObject[]
  notWritten: (ObjectRef & { reason: string })[]
  /** keyed fingerprint of a secret (the installation keyring's), so digests never expose a plain hash of one */
  fingerprint: (secret: string) => string
}

export { DEFAULT_SECRET_HANDLING } from '../../platform/transfer/package/secrets.js'

export const adapterContext = async (deps: Deps, actor: Actor, projectName: string): Promise<AdapterContext> => ({
  db: deps.prisma,
  deps,
  actor,
  access: await resolveProjectAccess(deps.prisma, actor, projectName),
})

export function normalizeNames(raw: unknown): string[] {
  if (raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0)) {
    throw malformedReason('namesRequired', 'names is required: at least one object name', { field: 'names' })
  }
  const names = parseInput(z.array(z.string().trim().min(1, 'must not be blank'), { error: 'must be an array of names' }), raw)
  return [...new Set(names)]
}

function checkKind(adapter: TransferAdapter, kind: string | null | undefined): string | null {
  const k = kind?.trim() || null
  if (k === null) return null
  if (!adapter.kinds) {
    throw malformedReason('unknownKind', `${adapter.type} has no kinds; do not set kind`, { field: 'kind', kind: k, supported: [] })
  }
  const match = adapter.kinds.find((x) => x.toUpperCase() === k.toUpperCase())
  if (!match) {
    throw malformedReason('unknownKind', `Unknown kind '${k}' of ${adapter.type}; supported kinds: ${adapter.kinds.join(', ')}`, {
      field: 'kind', kind: k, supported: adapter.kinds,
    })
  }
  return match
}

/** Gives every object its file name; a clash (case-insensitive) or the reserved manifest name fails the call. */
function assignFile(taken: Map<string, ObjectRef>, object: PortableObject, role: ObjectRole): SelectedObject {
  const reserved = reservedFileOf(object.name)
  if (reserved) {
    throw malformedReason('reservedFileName', `${refLabel(object)}: the name resolves to the reserved file name ${reserved}; rename the object`, {
      field: 'names', name: object.name, file: reserved,
    })
  }
  const file = objectFileName(object, role)
  const folded = file.toLowerCase()
  const other = taken.get(folded)
  if (other) {
    throw malformedReason('fileNameClash', `'${other.name}' and '${object.name}' both become the file ${file}; rename one of them`, {
      field: 'names', names: [other.name, object.name], file,
    })
  }
  taken.set(folded, object)
  return { ...object, role, file }
}

/**
 * Resolves an export selection in the caller's project: one type per call, every name must exist (an
 * unknown name fails the whole call), a name shared by several kinds needs `kind`, and with dependencies
 * everything the resolver finds is carried, each needing EXPORT_IMPORT on its own category.
 */
export async function resolveSelection(ctx: AdapterContext, request: SelectionRequest): Promise<Selection> {
  await ensureTransferAdapters()
  const adapter = adapterFor(request.type)
  const names = normalizeNames(request.names)
  const kind = checkKind(adapter, request.kind)
  requireExportImport(ctx, adapter)

  const taken = new Map<string, ObjectRef>()
  const objects: SelectedObject[] = []
  const seen = new Set<string>()
  const selected = await lookupObjects(ctx, adapter, names.map((name) => ({ name, kind })))
  for (const name of names) {
    const found = selected.get(name, kind)
    if (!found.length) {
      throw notFound(`${adapter.type}${kind ? ` ${kind}` : ''} '${name}' not found in project '${ctx.access.project.name}'`, {
        type: adapter.type, ...(kind ? { kind } : {}), name,
      })
    }
    if (found.length > 1) {
      const kinds = found.map((f) => f.kind)
      throw malformedReason('nameAmbiguous', `'${name}' names ${adapter.type} objects of several kinds (${kinds.join(', ')}); set kind`, {
        field: 'kind', name, kinds,
      })
    }
    objects.push(assignFile(taken, found[0], 'SELECTED'))
    seen.add(refKey(found[0]))
  }

  const dependencies: SelectedObject[] = []
  const notWritten: Selection['notWritten'] = []
  // breadth first, one batch read per type and level: everything the resolver finds is carried
  let frontier: ObjectRef[] = request.withDependencies ? objects.flatMap((o) => o.dependencies) : []
  while (frontier.length) {
    const level = frontier.filter((ref) => !seen.has(refKey(ref)) && !!seen.add(refKey(ref)))
    frontier = []
    const lookups = new Map<string, Lookup>()
    for (const type of new Set(level.map((r) => r.type))) {
      const depAdapter = findAdapter(type)
      if (!depAdapter) continue
      const refs = level.filter((r) => r.type === type)
      requireExportImport(ctx, depAdapter, refs[0])
      lookups.set(type, await lookupObjects(ctx, depAdapter, refs))
    }
    for (const ref of level) {
      const lookup = lookups.get(ref.type)
      if (!lookup) {
        notWritten.push({ ...ref, reason: 'unknownType' })
        continue
      }
      const found = lookup.get(ref.name, ref.kind)
      if (found.length !== 1) {
        notWritten.push({ ...ref, reason: found.length ? 'ambiguousKind' : 'notFound' })
        continue
      }
      dependencies.push(assignFile(taken, found[0], 'DEPENDENCY'))
      frontier.push(...found[0].dependencies)
    }
  }
  return { adapter, kind, withDependencies: request.withDependencies, objects, dependencies, notWritten, fingerprint: ctx.deps.keyring.fingerprint }
}

const byRef = (a: ObjectRef, b: ObjectRef) => (refKey(a) < refKey(b) ? -1 : refKey(a) > refKey(b) ? 1 : 0)

/**
 * The digest of a selection: SHA-256 over its canonical form without volatile fields (ids, timestamps and
 * revisions never enter the portable form; secrets enter as their keyed fingerprint), so the same state always
 * gives the same digest, whatever the order of the names.
 */
export function exportDigest(sel: Selection): string {
  const stable = (o: SelectedObject) => ({
    role: o.role, type: o.type, kind: o.kind, name: o.name, file: o.file, data: o.data, dependencies: [...o.dependencies].sort(byRef),
    secrets: Object.fromEntries(Object.entries(o.secrets).map(([k, v]) => [k, sel.fingerprint(v)])),
  })
  return digestOf({
    formatVersion: 1,
    type: sel.adapter.type,
    kind: sel.kind,
    withDependencies: sel.withDependencies,
    objects: [...sel.objects].sort(byRef).map(stable),
    dependencies: [...sel.dependencies].sort(byRef).map(stable),
    notWritten: [...sel.notWritten].sort(byRef),
  })
}

export const hasSecrets = (o: PortableObject) => Object.keys(o.secrets).length > 0

export function previewOf(sel: Selection, secretHandling: SecretHandling) {
  return {
    formatVersion: 1,
    type: sel.adapter.type,
    withDependencies: sel.withDependencies,
    objects: sel.objects.map((o) => ({ name: o.name, kind: o.kind, type: o.type })),
    dependencies: sel.dependencies.map((d) => ({ type: d.type, kind: d.kind, name: d.name, secret: hasSecrets(d) })),
    secretHandling,
    advisories: sel.notWritten.map((n) => ({
      level: 'WARNING' as const,
      key: n.reason === 'notFound' ? 'transfer.dependencyNotFound' : 'transfer.dependencyNotWritten',
      params: { type: n.type, kind: n.kind, name: n.name, reason: n.reason },
    })),
    exportDigest: exportDigest(sel),
  }
}
export type ExportPreview = ReturnType<typeof previewOf>

