/**
 * GraphQL sends explicit nulls for omitted optional fields, at any depth. The shared zod schemas read absent
 * as "default", so nulls are dropped before validation. Only the input objects are cleaned (TypeGraphQL makes
 * them class instances): plain objects below the top are JSON scalar values (schemas, policy configs) and are
 * kept exactly as sent.
 */
export function dropNullsDeep<T>(value: T, top = true): T {
  if (Array.isArray(value)) return value.map((v) => dropNullsDeep(v, false)) as T
  if (!value || typeof value !== 'object') return value
  if (!top && Object.getPrototypeOf(value) === Object.prototype) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = dropNullsDeep(v, false)
  return out as T
}
