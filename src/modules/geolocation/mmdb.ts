import { Reader, type Response } from 'mmdb-lib'
import { malformed } from '../../platform/errors/domain-error.js'

/** "\xAB\xCD\xEFMaxMind.com": the start of the metadata section of every MaxMind DB (format spec 2.0). */
const METADATA_MARKER = Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex')
/** The format spec limits the metadata section to the last 128 KiB of the file. */
const METADATA_MAX_SIZE = 128 * 1024
const DATA_SECTION_SEPARATOR_SIZE = 16

export interface MmdbMetadata {
  databaseType: string
  ipVersion: number
  nodeCount: number
  recordSize: number
  buildEpoch: Date
  description: unknown
  languages: string[]
}

const notMmdb = (problem: string) =>
  malformed(`The file is not a MaxMind DB (MMDB) geolocation database: ${problem}`, { reason: 'notMaxMindDb' })

/**
 * Opens `bytes` with mmdb-lib and checks what the gateway relies on: the metadata marker, a readable
 * metadata map of format version 2 with a database type, IP version, node count and build epoch, a
 * search tree that fits in the file, and a lookup that walks the tree. Any problem is a 400 naming it.
 */
export function openMmdb(bytes: Buffer): { reader: Reader<Response>; metadata: MmdbMetadata } {
  const markerAt = bytes.lastIndexOf(METADATA_MARKER)
  if (markerAt < 0 || bytes.length - markerAt > METADATA_MAX_SIZE + METADATA_MARKER.length) {
    throw notMmdb('the metadata marker "\\xAB\\xCD\\xEFMaxMind.com" was not found near the end of the file')
  }
  let reader: Reader<Response>
  try {
    reader = new Reader<Response>(bytes)
  } catch (err) {
    throw notMmdb(`its metadata cannot be read (${(err as Error).message})`)
  }
  const m = reader.metadata as Partial<Reader<Response>['metadata']> | undefined
  if (!m || typeof m !== 'object') throw notMmdb('its metadata is not a map')
  if (m.binaryFormatMajorVersion !== 2) throw notMmdb(`unsupported binary format major version ${String(m.binaryFormatMajorVersion)} (expected 2)`)
  if (typeof m.databaseType !== 'string' || !m.databaseType) throw notMmdb('the metadata has no database_type')
  if (m.ipVersion !== 4 && m.ipVersion !== 6) throw notMmdb(`unsupported ip_version ${String(m.ipVersion)} (expected 4 or 6)`)
  if (!Number.isSafeInteger(m.nodeCount) || (m.nodeCount as number) <= 0) throw notMmdb('the metadata has no valid node_count')
  if (!(m.buildEpoch instanceof Date) || Number.isNaN(m.buildEpoch.getTime())) throw notMmdb('the metadata has no valid build_epoch')
  const searchTreeSize = ((m.nodeCount as number) * (m.recordSize as number)) / 4
  if (searchTreeSize + DATA_SECTION_SEPARATOR_SIZE > markerAt) {
    throw notMmdb(`its search tree (${m.nodeCount} nodes) is larger than the file`)
  }
  try {
    reader.get(m.ipVersion === 6 ? '::1' : '127.0.0.1')
    reader.get(m.ipVersion === 6 ? '2001:db8::1' : '8.8.8.8')
  } catch (err) {
    throw notMmdb(`a lookup in its search tree failed (${(err as Error).message})`)
  }
  return {
    reader,
    metadata: {
      databaseType: m.databaseType,
      ipVersion: m.ipVersion,
      nodeCount: m.nodeCount as number,
      recordSize: m.recordSize as number,
      buildEpoch: m.buildEpoch,
      description: m.description ?? null,
      languages: Array.isArray(m.languages) ? m.languages : [],
    },
  }
}
