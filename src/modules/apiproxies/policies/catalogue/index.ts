import { z } from 'zod'
import { ADVANCED } from './advanced.js'
import { AUTHENTICATION } from './authentication.js'
import { FAMILIES, type PolicyFamily, type PolicyTypeDef } from './common.js'
import { CONTENT } from './content.js'
import { IP_FILTERING } from './ip-filtering.js'
import { MESSAGE_SECURITY } from './message-security.js'
import { TRAFFIC } from './traffic.js'
import { TRANSFORMATION } from './transformation.js'
import { VALIDATION } from './validation.js'
import { WS_SECURITY } from './ws-security.js'

// The policy catalogue: every type of the vendor's folder 02-api-reference/05-policies/policies/, one entry per
// page, grouped by family (one file each). The union over them is what a policy write is validated against.

export { FAMILIES, type PolicyFamily, type PolicyReference, type PolicyTypeDef, type ReferenceKind } from './common.js'

export const CATALOGUE: readonly PolicyTypeDef[] = [...AUTHENTICATION, ...WS_SECURITY, ...MESSAGE_SECURITY, ...TRAFFIC, ...IP_FILTERING, ...TRANSFORMATION, ...VALIDATION, ...CONTENT, ...ADVANCED]

export const POLICY_TYPES = CATALOGUE.map((d) => d.type) as [string, ...string[]]
const byType = new Map(CATALOGUE.map((d) => [d.type, d]))

export const policyTypeDef = (type: string): PolicyTypeDef | undefined => byType.get(type)

/** The discriminated union of every policy type (exported for documentation and typing; writes go through policyDocument). */
export const policyUnion = z.discriminatedUnion('type', CATALOGUE.map((d) => d.schema) as unknown as [z.ZodObject, ...z.ZodObject[]])

export const unknownTypeMessage = `must be a policy type, one of: ${POLICY_TYPES.join(', ')}`

/** The `type` field: one of the catalogue's types (the message lists them). */
export const policyTypeField = z.string({ error: unknownTypeMessage }).trim().refine((t) => byType.has(t), unknownTypeMessage)

/** A policy of a known type validated as its page describes; issues are reported at their path inside the policy. */
export function checkPolicyOfType(policy: { type: string }, ctx: z.RefinementCtx): Record<string, unknown> | undefined {
  if (!byType.has(policy.type)) return undefined
  // the union picks the option by `type`; its issues are that option's, at their paths inside the policy
  const parsed = policyUnion.safeParse(policy)
  if (parsed.success) return parsed.data as Record<string, unknown>
  for (const issue of parsed.error.issues) {
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path
    ctx.addIssue({ code: 'custom', path: path as (string | number)[], message: issue.message })
  }
  return undefined
}

/**
 * Fields that hold secrets, at any depth of a policy: sealed when written, shown as `<field>Set`, opened only for
 * the workers (../policy-secrets.ts), unless they hold a `${NAME}` environment variable reference.
 */
export const SECRET_FIELDS = new Set(['password', 'clientSecret', 'unPassword'])

/** The JSON Schema (2020-12) of one type's policy object, for console authors' forms. */
export function policyJsonSchema(type: string): Record<string, unknown> | null {
  const def = byType.get(type)
  if (!def) return null
  const schema = z.toJSONSchema(def.schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return { ...schema, $id: `policy-types/${type}`, 'x-family': def.family }
}

/** The catalogue as the listing shows it. */
export const policyTypeList = () =>
  CATALOGUE.map((d) => ({ type: d.type, family: d.family, title: d.title, description: d.description }))

/** How many types each family has (the docs and a test check the total). */
export const familyCounts = (): Record<PolicyFamily, number> =>
  Object.fromEntries(FAMILIES.map((f) => [f, CATALOGUE.filter((d) => d.family === f).length])) as Record<PolicyFamily, number>
