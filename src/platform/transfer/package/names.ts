import type { ObjectRef } from '../registry.js'

/** The integrity manifest of every package (spec §4.3 rule 5); no object may resolve to this name. */
export const MANIFEST_FILE = 'service-transfer-manifest.json'
/** The two entries of an encrypted package's outer ZIP; nothing else, so no object name shows. */
export const ENCRYPTION_HEADER_FILE = 'service-transfer-encryption.json'
export const ENCRYPTED_PAYLOAD_FILE = 'service-transfer-package.bin'
/** Folder of the dependency files, one sub-folder per type (and kind) */
export const DEPENDENCY_DIR = 'dependencies'

const MAX_STEM = 120

/**
 * An object name made safe as one file-name segment: characters other than letters, digits, '.', '_', '-'
 * and space become '_', leading dots and spaces go (no hidden files, no '..'), at most 120 characters.
 */
export function safeFileStem(name: string): string {
  const stem = name
    .normalize('NFC')
    .replace(/[^A-Za-z0-9._ -]/g, '_')
    .replace(/^[. ]+/, '')
    .replace(/[. ]+$/, '')
    .slice(0, MAX_STEM)
  return stem || '_'
}

/** Selected objects sit at the root; dependencies under dependencies/<TYPE>[/<KIND>]/. */
export function objectFileName(ref: ObjectRef, role: 'SELECTED' | 'DEPENDENCY'): string {
  const file = `${safeFileStem(ref.name)}.json`
  if (role === 'SELECTED') return file
  return [DEPENDENCY_DIR, ref.type, ...(ref.kind ? [ref.kind] : []), file].join('/')
}

/**
 * The reserved file name an object name resolves to (as an object file, or as it stands), or null. The
 * encryption header counts too: a plain package holding a file of that name would read as encrypted.
 */
export function reservedFileOf(name: string): string | null {
  const stem = safeFileStem(name).toLowerCase()
  return [MANIFEST_FILE, ENCRYPTION_HEADER_FILE, ENCRYPTED_PAYLOAD_FILE].find((reserved) => {
    const r = reserved.toLowerCase()
    return `${stem}.json` === r || stem === r
  }) ?? null
}

/** A Content-Disposition value with an ASCII fallback and the UTF-8 form (RFC 6266). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_')
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`
}
