import { z } from 'zod'
import { canonicalHash, sha256Hex } from '../../hashing/canonical.js'
import type { ObjectRef } from '../registry.js'
import { MANIFEST_FILE } from './names.js'

/**
 * The package format (docs/transfer.md): one JSON file per object, self-describing, plus the integrity
 * manifest `service-transfer-manifest.json` listing every file with its SHA-256 fingerprint.
 */
export const FORMAT_VERSION = 1
/** the newest manifest format this installation understands; a newer one is always refused (spec §9.2) */
export const MANIFEST_FORMAT = 1
export const CHECKSUM_ALGORITHM = 'SHA-256'
/** features a reader must understand to import the package correctly; an unknown one is always refused */
export const KNOWN_CRITICAL_FEATURES = ['secrets.ciphertextVerbatim'] as const

export const SECRET_HANDLINGS = ['DECRYPTED_FOR_EXPORT', 'CIPHERTEXT_VERBATIM', 'NONE'] as const
export type SecretHandling = (typeof SECRET_HANDLINGS)[number]
export type ObjectRole = 'SELECTED' | 'DEPENDENCY'

const refSchema = z.object({ type: z.string().min(1), kind: z.string().min(1).nullable(), name: z.string().min(1) })

export const objectFileSchema = z.object({
  formatVersion: z.literal(FORMAT_VERSION),
  role: z.enum(['SELECTED', 'DEPENDENCY']),
  type: z.string().min(1),
  kind: z.string().min(1).nullable(),
  name: z.string().min(1),
  data: z.record(z.string(), z.unknown()),
  /** per secret field: how it travels; `value` is absent with NONE */
  secrets: z.record(z.string(), z.object({ handling: z.enum(SECRET_HANDLINGS), value: z.string().optional() })),
  dependencies: z.array(refSchema),
})
export type ObjectFile = z.output<typeof objectFileSchema>

export const manifestSchema = z.object({
  manifestFormat: z.number().int(),
  checksumAlgorithm: z.string(),
  criticalFeatures: z.array(z.string()),
  formatVersion: z.literal(FORMAT_VERSION),
  generator: z.string(),
  type: z.string(),
  kind: z.string().nullable(),
  withDependencies: z.boolean(),
  secretHandling: z.enum(SECRET_HANDLINGS),
  exportedAt: z.string(),
  exportedBy: z.string(),
  sourceProject: z.string(),
  exportDigest: z.string(),
  objects: z.array(refSchema.extend({ role: z.enum(['SELECTED', 'DEPENDENCY']), file: z.string() })),
  files: z.array(z.object({ name: z.string(), sha256: z.string(), size: z.number().int() })),
  /** objects the resolver found referenced but could not write, with why */
  notWritten: z.array(refSchema.extend({ reason: z.string() })),
  /** SHA-256 of the canonical manifest without this field: an edited manifest no longer matches itself */
  manifestSha256: z.string(),
})
export type Manifest = z.output<typeof manifestSchema>

/** Builds the manifest over the files (the fingerprints) and the descriptive fields. */
export function buildManifest(
  fields: Omit<Manifest, 'manifestFormat' | 'checksumAlgorithm' | 'files' | 'manifestSha256'>,
  files: { name: string; bytes: Buffer }[],
): Manifest {
  const body = {
    manifestFormat: MANIFEST_FORMAT,
    checksumAlgorithm: CHECKSUM_ALGORITHM,
    ...fields,
    files: files.map((f) => ({ name: f.name, sha256: sha256Hex(f.bytes), size: f.bytes.length })),
  }
  return { ...body, manifestSha256: canonicalHash(body) }
}

export const encodeJson = (value: unknown) => Buffer.from(JSON.stringify(value, null, 2) + '\n', 'utf8')

/** A problem found in a package. acknowledgeable: what acknowledgeChecksumMismatch accepts. */
export interface Blocker {
  code: string
  entryFileName: string | null
  detail: string
  acknowledgeable: boolean
}

export interface PackagedObject extends ObjectRef {
  file: string
  role: ObjectRole
  body: ObjectFile
}

export interface PackageReading {
  manifest: Manifest | null
  objects: PackagedObject[]
  blockers: Blocker[]
}

const mismatch = (entryFileName: string | null, detail: string): Blocker => ({ code: 'manifestChecksumMismatch', entryFileName, detail, acknowledgeable: true })
const fatal = (code: string, entryFileName: string | null, detail: string): Blocker => ({ code, entryFileName, detail, acknowledgeable: false })

function readManifest(bytes: Buffer | undefined, blockers: Blocker[]): Manifest | null {
  if (!bytes) {
    blockers.push(mismatch(MANIFEST_FILE, 'the manifest is missing'))
    return null
  }
  let raw: unknown
  try {
    raw = JSON.parse(bytes.toString('utf8'))
  } catch {
    blockers.push(mismatch(MANIFEST_FILE, 'the manifest is not readable JSON'))
    return null
  }
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>
  // never acknowledgeable: what this installation cannot interpret safely
  if (typeof r.manifestFormat === 'number' && r.manifestFormat > MANIFEST_FORMAT) {
    blockers.push(fatal('manifestFormatUnsupported', MANIFEST_FILE, `manifest format ${r.manifestFormat} is newer than the supported ${MANIFEST_FORMAT}`))
    return null
  }
  if (r.checksumAlgorithm !== undefined && r.checksumAlgorithm !== CHECKSUM_ALGORITHM) {
    blockers.push(fatal('manifestChecksumAlgorithmUnsupported', MANIFEST_FILE, `checksum algorithm '${String(r.checksumAlgorithm)}' is not supported; only ${CHECKSUM_ALGORITHM}`))
    return null
  }
  if (Array.isArray(r.criticalFeatures)) {
    const unknown = r.criticalFeatures.filter((f) => !(KNOWN_CRITICAL_FEATURES as readonly unknown[]).includes(f))
    if (unknown.length) {
      blockers.push(fatal('manifestCriticalFeatureUnsupported', MANIFEST_FILE, `unrecognised critical feature(s): ${unknown.map(String).join(', ')}`))
      return null
    }
  }
  const parsed = manifestSchema.safeParse(raw)
  if (!parsed.success) {
    blockers.push(mismatch(MANIFEST_FILE, 'the manifest does not have the expected shape'))
    return null
  }
  const { manifestSha256, ...body } = parsed.data
  if (canonicalHash(body) !== manifestSha256) blockers.push(mismatch(MANIFEST_FILE, 'the manifest was edited after export'))
  return parsed.data
}

/**
 * Verifies a plain package's files against its manifest and reads every object file. Changed contents,
 * missing or undeclared files and an unreadable or disagreeing manifest are acknowledgeable mismatches;
 * a newer manifest format, an unknown critical feature, another checksum algorithm and object files that
 * are not JSON (or not object files) never are.
 */
export function readPackageFiles(files: Map<string, Buffer>): PackageReading {
  const blockers: Blocker[] = []
  const manifest = readManifest(files.get(MANIFEST_FILE), blockers)
  if (manifest) {
    const declared = new Map(manifest.files.map((f) => [f.name, f]))
    for (const f of manifest.files) {
      const bytes = files.get(f.name)
      if (!bytes) blockers.push(mismatch(f.name, 'a file listed in the manifest is missing'))
      else if (sha256Hex(bytes) !== f.sha256 || bytes.length !== f.size) blockers.push(mismatch(f.name, 'the file content differs from its fingerprint'))
    }
    for (const name of files.keys()) {
      if (name !== MANIFEST_FILE && !declared.has(name)) blockers.push(mismatch(name, 'a file not listed in the manifest was added'))
    }
  }
  const objects: PackagedObject[] = []
  for (const [name, bytes] of [...files.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (name === MANIFEST_FILE) continue
    let raw: unknown
    try {
      raw = JSON.parse(bytes.toString('utf8'))
    } catch {
      blockers.push(fatal('packageEntryJsonInvalid', name, 'the file is not valid JSON'))
      continue
    }
    const parsed = objectFileSchema.safeParse(raw)
    if (!parsed.success) {
      const formatVersion = (raw as { formatVersion?: unknown } | null)?.formatVersion
      const detail = typeof formatVersion === 'number' && formatVersion !== FORMAT_VERSION
        ? `object format ${formatVersion} is not supported`
        : `not an object file: ${parsed.error.issues[0]?.path.join('.') || 'root'} ${parsed.error.issues[0]?.message ?? ''}`.trim()
      blockers.push(fatal('packageEntryInvalid', name, detail))
      continue
    }
    const body = parsed.data
    objects.push({ type: body.type.toUpperCase(), kind: body.kind, name: body.name, file: name, role: body.role, body })
  }
  if (manifest) {
    const listed = new Map(manifest.objects.map((o) => [o.file, o]))
    const declared = new Set(manifest.files.map((f) => f.name))
    for (const o of objects) {
      if (!declared.has(o.file)) continue // already reported as undeclared
      const m = listed.get(o.file)
      if (!m || m.type !== o.type || m.kind !== o.kind || m.name !== o.name || m.role !== o.role) {
        blockers.push(mismatch(o.file, 'the manifest disagrees with the object file'))
      }
    }
  }
  return { manifest, objects, blockers }
}

/** The digest of a value without its volatile parts: the caller passes only stable fields. */
export const digestOf = (value: unknown) => `sha256:${canonicalHash(value)}`
