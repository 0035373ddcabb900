/**
 * A tiny MaxMind DB (MMDB, format 2.0) writer for tests: IPv4 only, record size 24, no pointer
 * de-duplication. Values may be strings, non-negative integers (uint32, or uint64 above 2^32-1),
 * booleans, arrays and plain objects (maps). Nothing is downloaded: the fixture is built in memory.
 */

export interface MmdbNetwork {
  /** CIDR, e.g. "81.2.69.0/24" */
  cidr: string
  data: MmdbValue
}
export type MmdbValue = string | number | bigint | boolean | MmdbValue[] | { [key: string]: MmdbValue }

export interface MmdbOptions {
  databaseType?: string
  buildEpoch?: number
  description?: Record<string, string>
  languages?: string[]
}

const METADATA_MARKER = Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex')

/** The control byte(s) of a field of `type` and `size` (format spec "Output Data Section"). */
function control(type: number, size: number): Buffer {
  const extended = type > 7
  let sizeBits: number
  let sizeBytes: Buffer
  if (size < 29) [sizeBits, sizeBytes] = [size, Buffer.alloc(0)]
  else if (size < 29 + 256) [sizeBits, sizeBytes] = [29, Buffer.from([size - 29])]
  else if (size < 285 + 65536) [sizeBits, sizeBytes] = [30, Buffer.from([(size - 285) >> 8, (size - 285) & 0xff])]
  else {
    const n = size - 65821
    ;[sizeBits, sizeBytes] = [31, Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff])]
  }
  const first = ((extended ? 0 : type) << 5) | sizeBits
  return Buffer.concat([Buffer.from([first]), extended ? Buffer.from([type - 7]) : Buffer.alloc(0), sizeBytes])
}

function unsigned(type: number, value: bigint): Buffer {
  const bytes: number[] = []
  for (let v = value; v > 0n; v >>= 8n) bytes.unshift(Number(v & 0xffn))
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)])
}

export function encodeValue(value: MmdbValue): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8')
    return Buffer.concat([control(2, bytes.length), bytes])
  }
  if (typeof value === 'boolean') return control(14, value ? 1 : 0)
  if (typeof value === 'number' || typeof value === 'bigint') {
    const big = BigInt(value)
    if (big < 0n) throw new Error('negative integers are not supported by this writer')
    if (typeof value === 'number' && !Number.isInteger(value)) throw new Error('doubles are not supported by this writer')
    return big <= 0xffffffffn ? unsigned(6, big) : unsigned(9, big)
  }
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encodeValue)])
  const entries = Object.entries(value)
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encodeValue(k), encodeValue(v)])])
}

type Child = { node: number } | { data: number } | null

function parseCidr(cidr: string): { bits: number[]; prefix: number } {
  const [address, prefixText] = cidr.split('/')
  const octets = address.split('.').map(Number)
  const prefix = Number(prefixText ?? 32)
  if (octets.length !== 4 || octets.some((o) => !(o >= 0 && o <= 255)) || !(prefix >= 1 && prefix <= 32)) throw new Error(`bad IPv4 CIDR ${cidr}`)
  const bits: number[] = []
  for (const o of octets) for (let i = 7; i >= 0; i--) bits.push((o >> i) & 1)
  return { bits: bits.slice(0, prefix), prefix }
}

/** Builds an IPv4 MMDB holding `networks` (they must not overlap). */
export function buildMmdb(networks: MmdbNetwork[], options: MmdbOptions = {}): Buffer {
  const dataParts: Buffer[] = []
  let dataSize = 0
  const nodes: [Child, Child][] = [[null, null]]
  for (const network of networks) {
    const offset = dataSize
    const encoded = encodeValue(network.data)
    dataParts.push(encoded)
    dataSize += encoded.length
    const { bits } = parseCidr(network.cidr)
    let node = 0
    bits.forEach((bit, depth) => {
      const last = depth === bits.length - 1
      const child = nodes[node][bit]
      if (last) {
        if (child) throw new Error(`network ${network.cidr} overlaps another`)
        nodes[node][bit] = { data: offset }
      } else if (child && 'node' in child) {
        node = child.node
      } else {
        if (child) throw new Error(`network ${network.cidr} overlaps another`)
        nodes.push([null, null])
        nodes[node][bit] = { node: nodes.length - 1 }
        node = nodes.length - 1
      }
    })
  }
  const nodeCount = nodes.length
  const tree = Buffer.alloc(nodeCount * 6)
  const recordValue = (c: Child) => (c === null ? nodeCount : 'node' in c ? c.node : nodeCount + 16 + c.data)
  nodes.forEach(([left, right], i) => {
    tree.writeUIntBE(recordValue(left), i * 6, 3)
    tree.writeUIntBE(recordValue(right), i * 6 + 3, 3)
  })
  const metadata = encodeValue({
    node_count: nodeCount,
    record_size: 24,
    ip_version: 4,
    database_type: options.databaseType ?? 'Test-City',
    languages: options.languages ?? ['en'],
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: BigInt(options.buildEpoch ?? 1_767_225_600),
    description: options.description ?? { en: 'Test geolocation database' },
  })
  return Buffer.concat([tree, Buffer.alloc(16), ...dataParts, METADATA_MARKER, metadata])
}

/** A city record in the common MaxMind layout. */
export const cityRecord = (isoCode: string, country: string, city: string): MmdbValue => ({
  country: { iso_code: isoCode, names: { en: country } },
  city: { names: { en: city } },
})

/** Three networks: London, Paris, Berlin. */
export function sampleMmdb(options: MmdbOptions = {}): Buffer {
  return buildMmdb(
    [
      { cidr: '81.2.69.0/24', data: cityRecord('GB', 'United Kingdom', 'London') },
      { cidr: '2.2.2.0/24', data: cityRecord('FR', 'France', 'Paris') },
      { cidr: '89.160.20.112/28', data: cityRecord('DE', 'Germany', 'Berlin') },
    ],
    options,
  )
}
