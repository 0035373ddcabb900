import AdmZip from 'adm-zip'
import { malformedReason } from '../../errors/domain-error.js'

/**
 * Bounds of an uploaded package, checked on the ZIP's central directory BEFORE any entry is inflated
 * (docs/transfer.md). The inflater is itself capped at the declared size, so a lying header cannot
 * inflate further, and every entry's CRC is checked.
 */
export const PACKAGE_LIMITS = {
  /** uploaded file (compressed), as the multipart reader accepts it */
  maxPackageBytes: 64 * 1024 * 1024,
  maxEntries: 10_000,
  maxEntryNameLength: 512,
  /** path segments of an entry name (packages use at most dependencies/<TYPE>/<KIND>/<file>) */
  maxPathSegments: 8,
  /** uncompressed size of one entry */
  maxEntryBytes: 16 * 1024 * 1024,
  /** uncompressed size of all entries together */
  maxTotalBytes: 256 * 1024 * 1024,
  /** uncompressed / compressed, checked for entries above ratioFloorBytes (tiny entries have odd ratios) */
  maxCompressionRatio: 200,
  ratioFloorBytes: 64 * 1024,
} as const

const STORED = 0
const DEFLATED = 8
const S_IFMT = 0o170000
const S_IFLNK = 0o120000

/** every refusal of a package is a malformedRequest with its cause as params.reason (spec §7.3) */
const refuse = malformedReason

/** The problem with an entry name, or null: absolute, drive-letter, backslash, '..', control characters. */
export function unsafeEntryName(name: string): string | null {
  if (!name) return 'empty name'
  if (name.length > PACKAGE_LIMITS.maxEntryNameLength) return `name longer than ${PACKAGE_LIMITS.maxEntryNameLength} characters`
  if (name.includes('\\')) return 'backslash in path'
  if (name.startsWith('/')) return 'absolute path'
  if (/^[A-Za-z]:/.test(name)) return 'drive-letter path'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'control character in path'
  if (name.split('/').some((segment) => segment === '..' || segment === '.')) return "'..' or '.' path segment"
  if (name.split('/').length > PACKAGE_LIMITS.maxPathSegments) return `more than ${PACKAGE_LIMITS.maxPathSegments} path segments`
  return null
}

const EOCD_SIG = 0x06054b50
const ZIP64_LOCATOR_SIG = 0x07064b50
const ZIP64_EOCD_SIG = 0x06064b50
const CENTRAL_SIG = 0x02014b50

/**
 * Walks the central directory itself BEFORE adm-zip parses it: adm-zip materialises every entry and a
 * virtual folder for every parent path of every name, so a package with a huge entry count or very long,
 * deeply nested names would cost memory and CPU before any bound of ours could answer. Checks the entry
 * count and each name's length and depth on the raw bytes. Structural nonsense is left to adm-zip to refuse.
 */
function precheckCentralDirectory(bytes: Buffer): void {
  let eocd = -1
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (bytes[i] === 0x50 && bytes.readUInt32LE(i) === EOCD_SIG) { eocd = i; break }
  }
  if (eocd < 0) return
  let count = bytes.readUInt16LE(eocd + 10)
  let offset = bytes.readUInt32LE(eocd + 16)
  const locator = eocd - 20
  if (locator >= 0 && bytes.readUInt32LE(locator) === ZIP64_LOCATOR_SIG) {
    const record = Number(bytes.readBigUInt64LE(locator + 8))
    if (record + 56 <= bytes.length && bytes.readUInt32LE(record) === ZIP64_EOCD_SIG) {
      count = Number(bytes.readBigUInt64LE(record + 32))
      offset = Number(bytes.readBigUInt64LE(record + 48))
    }
  }
  if (count > PACKAGE_LIMITS.maxEntries) {
    throw refuse('packageTooManyEntries', `The package has ${count} entries; at most ${PACKAGE_LIMITS.maxEntries} are accepted`, {
      entryCount: count, limit: PACKAGE_LIMITS.maxEntries,
    })
  }
  for (let i = 0, at = offset; i < count && at + 46 <= bytes.length && bytes.readUInt32LE(at) === CENTRAL_SIG; i++) {
    const nameLength = bytes.readUInt16LE(at + 28)
    const name = bytes.subarray(at + 46, Math.min(at + 46 + nameLength, bytes.length))
    let separators = 0
    for (const byte of name) if (byte === 0x2f || byte === 0x5c) separators++
    // 4 bytes per character at most in UTF-8; the exact character bound is checked on the decoded name
    const problem = nameLength > 4 * PACKAGE_LIMITS.maxEntryNameLength
      ? `name longer than ${PACKAGE_LIMITS.maxEntryNameLength} characters`
      : separators >= PACKAGE_LIMITS.maxPathSegments ? `more than ${PACKAGE_LIMITS.maxPathSegments} path segments` : null
    if (problem) {
      const shown = name.subarray(0, 120).toString('utf8')
      throw refuse('packageEntryPathUnsafe', `Package entry '${shown}' is refused: ${problem}`, { entryFileName: shown })
    }
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
  }
}

export const looksLikeZip = (bytes: Buffer) =>
  bytes.length >= 22 && bytes[0] === 0x50 && bytes[1] === 0x4b && [0x0304, 0x0506, 0x0708].includes(bytes.readUInt16BE(2))

/**
 * Reads a ZIP held in memory into its files (name → bytes), never touching the disk. Refuses, with a
 * distinct errorKey each: not a ZIP, too many entries, unsafe paths (zip-slip), symbolic links, duplicate
 * names (also case-insensitively), encrypted or unsupported entries, entries or totals over the size
 * bounds, compression ratios over the bound (zip bombs), and corrupt data.
 */
export function readPackageZip(bytes: Buffer): Map<string, Buffer> {
  if (!looksLikeZip(bytes)) throw refuse('exportFileMustBeZip', 'The export file is not a ZIP package')
  precheckCentralDirectory(bytes)
  let zip: AdmZip
  let entries: AdmZip.IZipEntry[]
  try {
    zip = new AdmZip(bytes, { noSort: true } as AdmZip.InitOptions)
    entries = zip.getEntries()
  } catch (err) {
    throw refuse('exportFileMustBeZip', `The export file is not a readable ZIP package: ${(err as Error).message}`)
  }
  if (entries.length > PACKAGE_LIMITS.maxEntries) {
    throw refuse('packageTooManyEntries', `The package has ${entries.length} entries; at most ${PACKAGE_LIMITS.maxEntries} are accepted`, {
      entryCount: entries.length, limit: PACKAGE_LIMITS.maxEntries,
    })
  }
  const seen = new Set<string>()
  let total = 0
  for (const entry of entries) {
    const name = entry.entryName
    const problem = unsafeEntryName(name)
    if (problem) throw refuse('packageEntryPathUnsafe', `Package entry '${name}' is refused: ${problem}`, { entryFileName: name })
    const mode = (entry.header.attr >>> 16) & S_IFMT
    if (mode === S_IFLNK) throw refuse('packageEntrySymlink', `Package entry '${name}' is a symbolic link`, { entryFileName: name })
    const folded = name.toLowerCase()
    if (seen.has(folded)) throw refuse('packageDuplicateEntry', `Package entry '${name}' appears more than once`, { entryFileName: name })
    seen.add(folded)
    if (entry.isDirectory) continue
    if ((entry.header.flags & 1) === 1) throw refuse('packageEntryEncrypted', `Package entry '${name}' uses ZIP encryption, which is not supported`, { entryFileName: name })
    if (entry.header.method !== STORED && entry.header.method !== DEFLATED) {
      throw refuse('packageEntryCompressionUnsupported', `Package entry '${name}' uses compression method ${entry.header.method}`, { entryFileName: name })
    }
    const size = entry.header.size
    if (size > PACKAGE_LIMITS.maxEntryBytes) {
      throw refuse('packageEntryTooLarge', `Package entry '${name}' is ${size} bytes uncompressed; at most ${PACKAGE_LIMITS.maxEntryBytes} are accepted`, {
        entryFileName: name, size, limit: PACKAGE_LIMITS.maxEntryBytes,
      })
    }
    total += size
    if (total > PACKAGE_LIMITS.maxTotalBytes) {
      throw refuse('packageTooLarge', `The package holds more than ${PACKAGE_LIMITS.maxTotalBytes} bytes uncompressed`, { limit: PACKAGE_LIMITS.maxTotalBytes })
    }
  }
  // ratios after the totals: the cheap size bounds answer first, whichever entry comes first
  for (const entry of entries) {
    const { size, compressedSize } = entry.header
    if (!entry.isDirectory && size > PACKAGE_LIMITS.ratioFloorBytes && size / Math.max(compressedSize, 1) > PACKAGE_LIMITS.maxCompressionRatio) {
      throw refuse('packageCompressionRatioExceeded', `Package entry '${entry.entryName}' expands more than ${PACKAGE_LIMITS.maxCompressionRatio} times`, {
        entryFileName: entry.entryName, ratio: Math.round(size / Math.max(compressedSize, 1)), limit: PACKAGE_LIMITS.maxCompressionRatio,
      })
    }
  }
  const files = new Map<string, Buffer>()
  for (const entry of entries) {
    if (entry.isDirectory) continue
    let data: Buffer
    try {
      data = entry.getData()
    } catch (err) {
      throw refuse('packageEntryCorrupt', `Package entry '${entry.entryName}' cannot be read: ${(err as Error).message}`, { entryFileName: entry.entryName })
    }
    if (data.length !== entry.header.size) {
      throw refuse('packageEntryCorrupt', `Package entry '${entry.entryName}' does not have its declared size`, { entryFileName: entry.entryName })
    }
    files.set(entry.entryName, data)
  }
  return files
}

/** Builds a package ZIP in memory, entries in the given order. */
export function writePackageZip(files: { name: string; bytes: Buffer }[]): Buffer {
  const zip = new AdmZip()
  for (const f of files) zip.addFile(f.name, f.bytes)
  return zip.toBuffer()
}
