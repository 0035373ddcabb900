import { policyJsonSchema, policyTypeDef, policyTypeList } from '../catalogue/index.js'

// The catalogue as both doors publish it (GET /apiops/policy-types/…, GraphQL apiProxyPolicyTypes).

export const policyTypeSummaries = policyTypeList

/** One type with its JSON Schema; null for a type the catalogue does not know. */
export function policyTypeDetail(type: string) {
  const def = policyTypeDef(type)
  if (!def) return null
  return { type: def.type, family: def.family, title: def.title, description: def.description, schema: policyJsonSchema(type)! }
}
