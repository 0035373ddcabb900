import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { looksLikeZip, readPackageZip, writePackageZip } from '../../platform/transfer/package/zip.js'
import { environmentNames } from '../keys/certificates.js'
import { pickEnvironment, type ProjectEnvironment } from '../keys/store.js'

// Per-environment material as files (api-reference/keys-secrets/crud/export-*-file, import-*-file): the export-file
// downloads write one environment's file, or a ZIP of `<name>-<environmentName>.<ext>` per environment; the
// import-file uploads read one file for every environment of environmentList, or that ZIP back, each entry into
// its own environment (environmentMapping renames them; an empty value leaves one out). Anything else in an
// archive is reported (unresolvedReferences), never guessed at: material in the wrong environment is silent.

export interface UploadedFile { bytes: Buffer; fileName?: string }
export interface EnvironmentFile { environment: ProjectEnvironment; bytes: Buffer; fileName: string }
export interface DownloadFile { bytes: Buffer; fileName: string; contentType: string }

/** The environmentMapping form field: a JSON object of archive environment → environment here ('' leaves it out). */
export function parseEnvironmentMapping(raw: unknown): Record<string, string> {
  if (raw === undefined || raw === null || (typeof raw === 'string' && !raw.trim())) return {}
  let value: unknown = raw
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw)
    } catch {
      value = null
    }
  }
  const valid = !!value && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string')
  if (!valid) {
    throw malformed(`environmentMapping must be a JSON object of "archive environment name":"target environment name" pairs (an empty value means "do not transfer this environment"). Received: ${String(raw).slice(0, 200)}`, { field: 'environmentMapping' })
  }
  return value as Record<string, string>
}

export const stemOf = (entry: string) => entry.replace(/^.*\//, '').replace(/\.[^.]*$/, '')

/**
 * The uploaded material per environment. A ZIP (the export-file archive) gives each `<objectName>-<env>.*` entry to
 * its environment (mapped); a single file goes to every environment of environmentList. `label` names the object
 * in the messages ("key (my-key)").
 */
export function environmentFiles(
  upload: UploadedFile, envs: ProjectEnvironment[],
  options: { field: string; objectName: string; label: string; extension: string; environmentList: unknown; environmentMapping: unknown },
): { files: EnvironmentFile[]; unresolved: string[] } {
  const mapping = parseEnvironmentMapping(options.environmentMapping)
  if (!looksLikeZip(upload.bytes)) {
    const fileName = upload.fileName ?? `${options.objectName}.${options.extension}`
    return { files: environmentNames(options.environmentList).map((name) => ({ environment: pickEnvironment(envs, name), bytes: upload.bytes, fileName })), unresolved: [] }
  }
  const entries = readArchive(upload.bytes, options.field)
  const files: EnvironmentFile[] = []
  const unresolved: string[] = []
  const prefix = `${options.objectName}-`
  for (const [entry, bytes] of entries) {
    const stem = stemOf(entry)
    if (!stem.startsWith(prefix) || stem.length === prefix.length) {
      unresolved.push(`Archive entry (${entry}) does not name an environment of ${options.label} and was not imported.`)
      continue
    }
    const archived = stem.slice(prefix.length)
    const target = mapping[archived] ?? archived
    if (!target.trim()) {
      unresolved.push(`Environment (${archived}) was deliberately left out by the caller's mapping.`)
      continue
    }
    const environment = pickEnvironment(envs, target)
    if (files.some((f) => f.environment.name === environment.name)) throw malformed(`${options.field}: two archive entries go to environment (${environment.name})`, { field: options.field })
    files.push({ environment, bytes, fileName: entry.replace(/^.*\//, '') })
  }
  if (!files.length) {
    throw malformed(`This archive holds no importable material for ${options.label}! Entries must be named <${options.field.replace(/File$/, 'Name')}>-<environmentName>.${options.extension}, as the export writes them.`, { field: options.field })
  }
  return { files, unresolved }
}

/** An uploaded ZIP's files, read with the transfer package's bounds (zip-slip, sizes, ratios); its refusals name the field. */
export function readArchive(bytes: Buffer, field: string): Map<string, Buffer> {
  try {
    return new Map([...readPackageZip(bytes)].filter(([name]) => !name.endsWith('/')))
  } catch (err) {
    if (err instanceof DomainError) throw malformed(`${field}: ${err.message}`, { field, reason: err.params.reason ?? err.errorKey })
    throw err
  }
}

/**
 * The export-file answer: `environmentName`'s file alone, or every environment's in `<name>-<suffix>.zip`. A missing
 * environment is an error naming those that have material, never an empty file.
 */
export function environmentDownload(
  name: string, material: Map<string, { bytes: Buffer; extension: string }>, environmentName: string | undefined,
  single: { contentType: string }, zipSuffix: string,
): DownloadFile {
  if (!material.size) throw malformed(`(${name}) carries no environment material to export!`, { reason: 'noMaterial' })
  const fileOf = (env: string, m: { extension: string }) => `${name}-${env}.${m.extension}`
  if (environmentName !== undefined) {
    const chosen = material.get(environmentName)
    if (!chosen) {
      throw malformed(`(${name}) has no material for environment (${environmentName})! Available: ${[...material.keys()].join(', ')}`, { field: 'environmentName' })
    }
    return { bytes: chosen.bytes, fileName: fileOf(environmentName, chosen), contentType: single.contentType }
  }
  const files = [...material].map(([env, m]) => ({ name: fileOf(env, m), bytes: m.bytes }))
  return { bytes: writePackageZip(files), fileName: `${name}-${zipSuffix}.zip`, contentType: 'application/octet-stream' }
}
