import { z } from 'zod'
import { enumOf, objectName } from '../../../platform/validation/common.js'
import { ENDPOINT_METHODS } from '../endpoints/inputs.js'
import { checkPolicyOfType, policyTypeField } from './catalogue/index.js'

// Policies of the automation surface (vendor 05-policies/crud): the operation metadata is typed; a policy is the
// vendor's typed JSON ("type": "policy-…"), validated against its type's entry in the catalogue (./catalogue/,
// docs/policy-catalogue.md) and stored as validated.

export const PIPELINES = ['REQUEST', 'RESPONSE', 'ERROR'] as const
export type Pipeline = (typeof PIPELINES)[number]

/** A policy document is stored whole: bounded so one request cannot store megabytes or nest past what JSONB parses. */
export const MAX_POLICY_BYTES = 256 * 1024
export const MAX_POLICY_DEPTH = 32

function depthOf(value: unknown, limit: number, depth = 0): number {
  if (depth > limit || !value || typeof value !== 'object') return depth
  let max = depth
  for (const v of Object.values(value)) {
    max = Math.max(max, depthOf(v, limit, depth + 1))
    if (max > limit) break
  }
  return max
}

const hasNul = (value: unknown): boolean => JSON.stringify(value).includes('\\u0000')

export const operationMetadataInput = z
  .object({
    targetScope: enumOf(['ALL', 'ENDPOINT'] as const),
    targetEndpoint: z.string().trim().min(1, 'must not be blank').max(1000, 'must be at most 1000 characters').nullish(),
    targetEndpointHTTPMethod: enumOf(ENDPOINT_METHODS).nullish(),
    targetPipeline: enumOf(PIPELINES),
    deploy: z.boolean().nullish(),
    deployTargetEnvironmentNameList: z.array(objectName).max(100, 'at most 100 entries').nullish(),
    order: z.number().int('must be an integer').min(1, 'must be at least 1').max(100_000, 'must be at most 100000').nullish(),
  })
  .superRefine((m, ctx) => {
    if (m.targetScope !== 'ENDPOINT') return
    if (!m.targetEndpoint) ctx.addIssue({ code: 'custom', path: ['targetEndpoint'], message: 'is required when targetScope is ENDPOINT' })
    if (!m.targetEndpointHTTPMethod) ctx.addIssue({ code: 'custom', path: ['targetEndpointHTTPMethod'], message: 'is required when targetScope is ENDPOINT' })
  })
export type OperationMetadata = z.output<typeof operationMetadataInput>

/** The envelope every policy shares, checked first so its fields are named the same for every type. */
const policyEnvelope = z.looseObject({
  type: policyTypeField,
  description: z.string().max(2000, 'must be at most 2000 characters').nullish(),
  active: z.boolean().default(true),
  policyCondition: z.looseObject({ conditionRuleList: z.array(z.record(z.string(), z.unknown())).max(100, 'at most 100 rules').nullish() }).nullish(),
  errorMessageList: z.array(z.unknown()).max(100, 'at most 100 entries').nullish(),
})

export type PolicyDocument = Record<string, unknown> & { type: string; description?: string | null; active: boolean }

/**
 * A policy: the envelope, the bounds on the whole document, then the fields of its type as the catalogue
 * (./catalogue/) describes them. Unknown fields are kept and stored as given.
 */
export const policyDocument = policyEnvelope.transform((p, ctx): PolicyDocument => {
  if (depthOf(p, MAX_POLICY_DEPTH) > MAX_POLICY_DEPTH) ctx.addIssue({ code: 'custom', message: `nests deeper than ${MAX_POLICY_DEPTH} levels` })
  else if (Buffer.byteLength(JSON.stringify(p)) > MAX_POLICY_BYTES) ctx.addIssue({ code: 'custom', message: `is larger than ${MAX_POLICY_BYTES} bytes` })
  else if (hasNul(p)) ctx.addIssue({ code: 'custom', message: 'must not contain NUL characters' })
  else {
    const typed = checkPolicyOfType(p, ctx)
    if (typed) return typed as PolicyDocument
  }
  return z.NEVER
})

/**
 * A policy inside a proxy package (import, transfer): the same rules, except that a `policy-script` without
 * `executionType` runs SYNC, as it did before the field was required (packages exported earlier omit it).
 */
export const portablePolicyDocument = z.preprocess(
  (p) => (p && typeof p === 'object' && !Array.isArray(p) && (p as { type?: unknown }).type === 'policy-script' && (p as { executionType?: unknown }).executionType == null ? { ...p, executionType: 'SYNC' } : p),
  policyDocument,
)

/** Add and update: operation metadata and the policy. */
export const policyWriteInput = z.object({ operationMetadata: operationMetadataInput, policy: policyDocument })
/** Delete: where the policy is (the order is not used). */
export const policyDeleteInput = z.object({ operationMetadata: operationMetadataInput })
