import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import { policyDeploymentResult } from '../shared/deployment-shapes.js'
import { FAMILIES } from './catalogue/index.js'
import type { listPolicies } from './service.js'
import type { policyTypeDetail, policyTypeSummaries } from './types/service.js'

// The answer schemas of the policy pages and the policy type catalogue, tied at compile time to what the REST routes
// answer (rest.ts, types/rest.ts).

/** The policy pages' deploymentResult: responseTime and detailList[], one entry per worker (pod) of each environment (the message as detail). */
export const policyDeploymentResultSchema = describes<ReturnType<typeof policyDeploymentResult>>()(
  z.object({
    success: z.boolean(),
    message: z.string(),
    responseTime: z.number().describe('milliseconds'),
    detailList: z.array(z.object({
      envName: z.string(),
      podName: z.string().describe("the worker: its URL's host (empty when the environment has no worker)"),
      podIp: z.string().describe("the worker's address: its host name resolved (empty when the environment has no worker)"),
      success: z.boolean(),
      responseTime: z.number(),
      detail: z.string(),
    })),
  }).meta({ id: 'PolicyDeploymentResult' }),
)

const policySummary = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string().optional().describe('absent when blank'),
  active: z.boolean(),
  order: z.number().int().describe('1-based position in its pipeline'),
})
const pipelines = { requestPolicyList: z.array(policySummary), responsePolicyList: z.array(policySummary), errorPolicyList: z.array(policySummary) }

/** GET …/policies/: the proxy with its pipelines, and each endpoint with its own (summaries, without configuration). */
export const proxyPoliciesSchema = describes<Awaited<ReturnType<typeof listPolicies>>>()(
  z.object({
    name: z.string(),
    type: z.string().describe('the proxy kind'),
    relativePath: z.string().nullable(),
    soapToRest: z.boolean(),
    ...pipelines,
    endpointList: z.array(z.object({ endpoint: z.string(), active: z.boolean(), httpMethod: z.string(), ...pipelines })),
  }).meta({ id: 'ApiProxyPolicies' }),
)

const typeSummaryFields = { type: z.string(), family: z.enum(FAMILIES), title: z.string(), description: z.string() }

export const policyTypeSummarySchema = describes<ReturnType<typeof policyTypeSummaries>[number]>()(
  z.object(typeSummaryFields).meta({ id: 'PolicyTypeSummary' }),
)

/** GET /apiops/policy-types/{type}/schema, beside status SUCCESS. */
export const policyTypeDetailFields = describes<NonNullable<ReturnType<typeof policyTypeDetail>>>()(
  z.object({ ...typeSummaryFields, schema: z.record(z.string(), z.unknown()).describe('JSON Schema (draft 2020-12) of the policy object of a write') }),
)
