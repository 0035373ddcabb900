import type { z } from 'zod'
import { malformed } from './domain-error.js'

/** Renders a zod path the way clients write fields: `environments[0].workerUrls[1]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out ? `.${String(part)}` : String(part)
  }
  return out
}

/** Validates an input against its one schema; the first problem names the field and nothing is written. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const issue = result.error.issues[0]
  // an unknown field is named itself, not its parent object
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path
  const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message
  return throwMalformed(fieldPath(path), message)
}

function throwMalformed(field: string, message: string): never {
  throw malformed(field ? `${field}: ${message}` : message, field ? { field } : {})
}
