import { z } from 'zod'

/** Names that appear in paths: no leading/trailing space, no slash or control characters. */
export const objectName = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(200, 'must be at most 200 characters')
  .regex(/^[^/\\?#%\u0000-\u001f]+$/, 'must not contain / \\ ? # % or control characters')

/** A closed set of values whose refusal lists them. */
export const enumOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` })

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })

/**
 * The text at a path of a body not validated yet (trimmed; undefined when absent, blank or not a string): the project
 * a body names, read to decide access before the body's rules are applied (issue 28 §6).
 */
export function unvalidatedText(value: unknown, ...path: string[]): string | undefined {
  let at = value
  for (const key of path) at = at && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined
  return typeof at === 'string' ? at.trim() || undefined : undefined
}
