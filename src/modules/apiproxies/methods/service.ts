import { z } from 'zod'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { listVendorEndpoints } from '../endpoints/vendor.js'

// The "methods" of an API proxy (vendor api-reference/api-proxies/endpoints list-methods and get-method-policies):
// its endpoints as the endpoint pages show them, optionally with their policy lists. The reads of endpoints/vendor.ts,
// so both pages answer alike.

export const methodsQuery = z.object({ withPolicies: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().describe('include requestPolicyList, responsePolicyList and errorPolicyList per method (default false)') })

const PIPELINES = { REQUEST: 'requestPolicyList', RESPONSE: 'responsePolicyList', ERROR: 'errorPolicyList' } as const

/** GET …/apiProxies/{name}/methods/?withPolicies=: every endpoint, with its policy lists when asked (one query for them). */
export async function listMethods(db: Tx, actor: Actor, projectName: string, proxyName: string, query: unknown) {
  const withPolicies = parseInput(methodsQuery, query ?? {}).withPolicies === 'true'
  const endpoints = await listVendorEndpoints(db, actor, projectName, proxyName)
  if (!withPolicies) return endpoints
  const policies = await db.apiProxyPolicy.findMany({ where: { endpointId: { in: endpoints.map((e) => e.id) } }, orderBy: [{ pipeline: 'asc' }, { position: 'asc' }] })
  return endpoints.map((e) => {
    const own = policies.filter((p) => p.endpointId === e.id)
    const lists = Object.fromEntries(Object.entries(PIPELINES).map(([pipeline, field]) => [field, own.filter((p) => p.pipeline === pipeline).map((p) => ({ type: p.type, name: p.name, description: p.description, active: p.active }))]))
    return { ...e, ...(lists as Record<(typeof PIPELINES)[keyof typeof PIPELINES], { type: string; name: string; description: string | null; active: boolean }[]>) }
  })
}
