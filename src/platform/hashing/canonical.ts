import crypto from 'node:crypto'

/** JSON with object keys sorted at every level, so equal values always serialise (and hash) equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    )
  }
  return value
}

export const sha256Hex = (text: string | Buffer) => crypto.createHash('sha256').update(text).digest('hex')

export const canonicalHash = (value: unknown) => sha256Hex(canonicalJson(value))
