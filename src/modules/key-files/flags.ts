import { malformed } from '../../platform/errors/domain-error.js'

/** A true/false form field or query parameter (absent: false). */
export function booleanField(value: unknown, field: string): boolean {
  const v = Array.isArray(value) ? value[0] : value
  if (v === undefined || v === null || v === '' || v === false || v === 'false') return false
  if (v === true || v === 'true') return true
  throw malformed(`${field} must be true or false`, { field })
}

/** One of `allowed`, matched without regard to case; the page's refusal lists them. */
export function oneOfAnyCase<T extends string>(value: string, allowed: readonly T[], field: string): T {
  const found = allowed.find((a) => a.toUpperCase() === value.trim().toUpperCase())
  if (!found) throw malformed(`Unknown ${field} (${value})! Supported values: ${allowed.join(', ')}`, { field })
  return found
}

/** A text form field: absent or blank is undefined. */
export const textField = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined)
