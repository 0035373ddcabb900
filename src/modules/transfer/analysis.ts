import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { canonicalHash, sha256Hex } from '../../platform/hashing/canonical.js'
import { refusePlatformScope } from '../../platform/scope/project-scope.js'
import { ensureTransferAdapters } from './adapters/index.js'
import { malformedReason } from '../../platform/errors/domain-error.js'
import { requireExportImport } from './errors.js'
import { lookupObjects, type Lookup } from './lookup.js'
import { decryptPackage, isEncryptedPackage } from '../../platform/transfer/package/encryption.js'
import { digestOf, readPackageFiles, type Blocker, type Manifest, type PackagedObject } from '../../platform/transfer/package/format.js'
import { openPackageSecrets } from '../../platform/transfer/package/secrets.js'
import { readPackageZip } from '../../platform/transfer/package/zip.js'
import { adapterFor, findAdapter, refKey, refLabel, type AdapterContext, type Advisory, type ObjectRef, type PortableObject, type TransferAdapter } from '../../platform/transfer/registry.js'
import { adapterContext } from './selection.js'
import { isStandaloneConnectionType } from '../apiproxies/ai/ai-routing.js'

/** The import's analysis (preflight): a package judged against the project, writing nothing. */

/** Types of standalone MCP / A2A connections: never importable on their own (issue #6). */
const STANDALONE_CONNECTION_KINDS = ['MCP', 'A2A']
const MAX_CANDIDATES = 20

export interface PlannedObject {
  packaged: PackagedObject
  adapter: TransferAdapter
  /** secrets decoded to clear values where the package allows */
  portable: PortableObject
  exists: boolean
  /** advisories about secrets that could not be carried */
  secretAdvisories: Advisory[]
}

export interface DependencyInfo extends ObjectRef {
  secret: boolean
  packaged: boolean
  resolvedByName: boolean
  candidateNames: string[]
}

export interface Analysis {
  packageSha256: string
  type: string
  detectedType: string | null
  manifest: Manifest | null
  objects: PlannedObject[]
  packagedDependencies: PlannedObject[]
  dependencies: DependencyInfo[]
  replaceTargets: string[]
  packageEnvironments: string[]
  installationEnvironments: string[]
  blockers: Blocker[]
  preflightDigest: string
}

export interface ImportSource {
  bytes: Buffer | null | undefined
  passphrase: string | null
}

const isStandaloneConnection = (o: PackagedObject) =>
  isStandaloneConnectionType(o.type) ||
  ['connectionType', 'providerType'].some((f) => STANDALONE_CONNECTION_KINDS.includes(String(o.body.data[f] ?? '').toUpperCase()))

function rankCandidates(name: string, names: string[]): string[] {
  const lower = name.toLowerCase()
  const score = (n: string) => (n.toLowerCase() === lower ? 0 : n.toLowerCase().startsWith(lower.slice(0, 3)) ? 1 : 2)
  return [...names].sort((a, b) => score(a) - score(b) || (a < b ? -1 : a > b ? 1 : 0)).slice(0, MAX_CANDIDATES)
}

export async function existsInTarget(ctx: AdapterContext, adapter: TransferAdapter, ref: ObjectRef): Promise<PortableObject | null> {
  const found = (await adapter.findByName(ctx, ref.name, ref.kind)).filter((f) => f.kind === ref.kind)
  return found[0] ?? null
}

/** The state of a target object that the preflight digest covers: a change to it is drift. */
const targetFingerprint = (o: PortableObject | null, fingerprint: (secret: string) => string) =>
  o ? canonicalHash({ data: o.data, secrets: Object.fromEntries(Object.entries(o.secrets).map(([k, v]) => [k, fingerprint(v)])) }) : null

/**
 * Reads and judges a package against the caller's project, writing nothing: hostile archives and
 * undecryptable packages are refused at once; everything else the import would trip on is a blocker.
 */
export async function analysePackage(ctx: AdapterContext, source: ImportSource, requestedType: string | null | undefined): Promise<Analysis> {
  await ensureTransferAdapters()
  if (!source.bytes) throw malformedReason('exportFileRequired', 'The multipart part exportFile (the package ZIP) is required', { field: 'exportFile' })
  const adapter = adapterFor(requestedType)
  requireExportImport(ctx, adapter)
  const packageSha256 = sha256Hex(source.bytes)
  let files = readPackageZip(source.bytes)
  if (isEncryptedPackage(files)) files = readPackageZip(await decryptPackage(files, source.passphrase))
  const reading = readPackageFiles(files)
  const blockers = [...reading.blockers]
  const fatal = (code: string, entryFileName: string | null, detail: string) => blockers.push({ code, entryFileName, detail, acknowledgeable: false })

  const detectedType = reading.manifest?.type.toUpperCase() ?? reading.objects.find((o) => o.role === 'SELECTED')?.type ?? null
  if (detectedType && detectedType !== adapter.type) fatal('packageTypeMismatch', null, `the package holds ${detectedType} objects, not ${adapter.type}`)
  if (!reading.objects.some((o) => o.role === 'SELECTED')) fatal('packageEmpty', null, 'the package holds no selected object')

  const planned: PlannedObject[] = []
  const seen = new Set<string>()
  for (const o of reading.objects) {
    if (isStandaloneConnection(o)) {
      fatal('standaloneConnectionNotImportable', o.file, `${refLabel(o)} is a standalone MCP/A2A connection, which cannot be imported`)
      continue
    }
    const objectAdapter = findAdapter(o.type)
    if (!objectAdapter) {
      fatal('unknownType', o.file, `${o.type} is not a supported type`)
      continue
    }
    const kindOk = objectAdapter.kinds ? o.kind !== null && objectAdapter.kinds.includes(o.kind) : o.kind === null
    if (!kindOk) {
      fatal('packageEntryInvalid', o.file, `kind ${o.kind ?? 'null'} is not valid for ${o.type}`)
      continue
    }
    if (seen.has(refKey(o))) {
      fatal('packageDuplicateObject', o.file, `${refLabel(o)} appears more than once in the package`)
      continue
    }
    seen.add(refKey(o))
    requireExportImport(ctx, objectAdapter, o)
    const { secrets, uncarried, advisories } = openPackageSecrets(ctx.deps.keyring, refLabel(o), o.body.secrets)
    const portable: PortableObject = { type: o.type, kind: o.kind, name: o.name, data: o.body.data, secrets, dependencies: o.body.dependencies, uncarriedSecrets: uncarried }
    planned.push({ packaged: o, adapter: objectAdapter, portable, exists: false, secretAdvisories: advisories })
  }

  // what the target holds: one batch read per type, for the packaged objects and what they refer to
  const byKey = new Map(planned.map((p) => [refKey(p.packaged), p]))
  const referenced = planned.flatMap((p) => p.portable.dependencies).filter((r) => !byKey.has(refKey(r)))
  const lookups = new Map<string, Lookup>()
  for (const type of new Set([...planned.map((p) => p.packaged.type), ...referenced.map((r) => r.type)])) {
    const typeAdapter = findAdapter(type)
    if (!typeAdapter) continue
    const refs = [...planned.map((p) => p.packaged as ObjectRef), ...referenced].filter((r) => r.type === type)
    lookups.set(type, await lookupObjects(ctx, typeAdapter, refs))
  }
  const inTarget = (ref: ObjectRef): PortableObject | null => lookups.get(ref.type)?.get(ref.name, ref.kind).find((f) => f.kind === ref.kind) ?? null

  const targetState: Record<string, string | null> = {}
  for (const p of planned) {
    const existing = inTarget(p.packaged)
    p.exists = existing !== null
    targetState[refKey(p.packaged)] = targetFingerprint(existing, ctx.deps.keyring.fingerprint)
    const refusal = await p.adapter.checkImport?.(ctx, p.portable)
    if (refusal) fatal(refusal.code, p.packaged.file, refusal.detail)
  }

  const objects = planned.filter((p) => p.packaged.role === 'SELECTED')
  const packagedDependencies = planned.filter((p) => p.packaged.role === 'DEPENDENCY')
  const dependencies: DependencyInfo[] = []
  const listed = new Set<string>()
  const names = new Map<string, Promise<string[]>>()
  const namesOf = (a: TransferAdapter, kind: string | null) => {
    const key = `${a.type}/${kind ?? ''}`
    if (!names.has(key)) names.set(key, a.listNames(ctx, kind))
    return names.get(key)!
  }
  for (const ref of [...packagedDependencies.map((p) => p.packaged as ObjectRef), ...planned.flatMap((p) => p.portable.dependencies)]) {
    const key = refKey(ref)
    if (listed.has(key) || byKey.get(key)?.packaged.role === 'SELECTED') continue
    listed.add(key)
    const packaged = byKey.get(key)
    const refAdapter = findAdapter(ref.type)
    const existing = packaged ? packaged.exists : inTarget(ref) !== null
    if (!packaged && refAdapter) targetState[key] = existing ? 'present' : null
    const candidates = !existing && refAdapter ? rankCandidates(ref.name, await namesOf(refAdapter, ref.kind)) : []
    dependencies.push({
      type: ref.type, kind: ref.kind, name: ref.name,
      secret: packaged ? Object.keys(packaged.packaged.body.secrets).length > 0 : false,
      packaged: !!packaged, resolvedByName: existing, candidateNames: candidates,
    })
  }

  const replaceTargets = planned.filter((p) => p.exists).map((p) => (p.packaged.role === 'SELECTED' ? p.packaged.name : refLabel(p.packaged)))
  const packageEnvironments = [...new Set(planned.flatMap((p) => p.adapter.environmentsOf?.(p.portable) ?? []))].sort()
  const installationEnvironments = (await ctx.db.environment.findMany({ select: { name: true }, orderBy: { name: 'asc' } })).map((e) => e.name)
  const fileDigests = [...files.entries()].map(([name, bytes]) => [name, sha256Hex(bytes)]).sort()

  const preflightDigest = digestOf({
    formatVersion: 1,
    project: ctx.access.project.name,
    type: adapter.type,
    detectedType,
    files: fileDigests,
    targetState,
    replaceTargets,
    dependencies,
    blockers: blockers.map(({ code, entryFileName, detail }) => ({ code, entryFileName, detail })),
    packageEnvironments,
    installationEnvironments,
  })
  return {
    packageSha256, type: adapter.type, detectedType, manifest: reading.manifest, objects, packagedDependencies, dependencies, replaceTargets,
    packageEnvironments, installationEnvironments, blockers, preflightDigest,
  }
}

export const objectView = (p: PlannedObject) => ({ name: p.packaged.name, kind: p.packaged.kind, type: p.packaged.type })

export function preflightView(a: Analysis) {
  return {
    formatVersion: 1,
    type: a.type,
    detectedType: a.detectedType,
    objects: a.objects.map(objectView),
    dependencies: a.dependencies.map(({ type, kind, name, secret, resolvedByName, candidateNames }) => ({ type, kind, name, secret, resolvedByName, candidateNames })),
    replaceTargets: a.replaceTargets,
    packageEnvironments: a.packageEnvironments,
    installationEnvironments: a.installationEnvironments,
    blockers: a.blockers.map(({ code, entryFileName, detail }) => ({ code, entryFileName, detail })),
    advisories: [...a.objects, ...a.packagedDependencies].flatMap((p) => p.secretAdvisories),
    preflightDigest: a.preflightDigest,
  }
}
export type PreflightView = ReturnType<typeof preflightView>

export async function transferContext(deps: Deps, actor: Actor, projectName: string) {
  refusePlatformScope(projectName)
  return adapterContext(deps, actor, projectName)
}

/** POST …/transfer-import-preflights: the analysis of a package against the project. Writes nothing. */
export async function preflightTransferImport(deps: Deps, actor: Actor, projectName: string, source: ImportSource, type: string | null | undefined): Promise<PreflightView> {
  const ctx = await transferContext(deps, actor, projectName)
  return preflightView(await analysePackage(ctx, source, type))
}

