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

/**
 * Whether canonicalJson(a) === canonicalJson(b), without building either text: plain JSON values (strings, booleans,
 * finite numbers, null, arrays, plain objects; a key holding undefined is absent) are compared in place, and a value
 * of any other kind (a Date, a non-finite number, a class instance…) sends the comparison to the texts.
 */
export function canonicallyEqual(a: unknown, b: unknown): boolean {
  const same = plainEqual(a, b)
  return same === undefined ? canonicalJson(a) === canonicalJson(b) : same
}

/**
 * true or false when the answer is certain from plain JSON values (a difference between two plain values at the same
 * place, or a key one side lacks), undefined when a value of another kind could decide it.
 */
function plainEqual(a: unknown, b: unknown): boolean | undefined {
  if (a === b) return true
  if (!isPlainValue(a) || !isPlainValue(b)) return undefined
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const other = b as unknown[]
    if (a.length !== other.length) return false
    // JSON writes undefined in an array as null
    for (let i = 0; i < a.length; i++) {
      const same = plainEqual(a[i] ?? null, other[i] ?? null)
      if (same !== true) return same
    }
    return true
  }
  const x = a as Record<string, unknown>
  const y = b as Record<string, unknown>
  let keys = 0
  for (const k in x) {
    const v = x[k]
    if (v === undefined) continue
    keys++
    const w = y[k]
    if (w === undefined) return isPlainValue(v) ? false : undefined
    const same = plainEqual(v, w)
    if (same !== true) return same
  }
  for (const k in y) {
    const w = y[k]
    if (w === undefined) continue
    if (!isPlainValue(w)) return undefined
    keys--
  }
  return keys === 0
}

const isPlainValue = (v: unknown): boolean => {
  if (v === null) return true
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(v)
    case 'object': {
      if (Array.isArray(v)) return true
      const proto = Object.getPrototypeOf(v)
      // an own toJSON decides its text
      return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function'
    }
    default:
      return false
  }
}

export const sha256Hex = (text: string | Buffer) => crypto.createHash('sha256').update(text).digest('hex')

export const canonicalHash = (value: unknown) => sha256Hex(canonicalJson(value))
