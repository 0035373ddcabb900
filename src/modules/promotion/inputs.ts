import { z } from 'zod'
import { malformed } from '../../platform/errors/domain-error.js'
import { objectName } from '../../platform/validation/common.js'
import { clientRouteInput, routingInfoInput } from '../apiproxies/proxies/automation/inputs.js'
import { objectFileSchema } from '../../platform/transfer/package/format.js'

// The bodies of the promotion pages (vendor api-reference/api-proxies/promotion): the proxy as List API Proxies for
// Promotion answers it, sent back to the target project. The portable object of the transfer engine rides along in
// `transfer` (the object file of a package, secrets sealed under this installation's key), so a promotion carries the
// proxy's endpoints, policies and settings through the engine's one serializer.

/** The vendor's routing: its `apiRoutingList[].url` beside our `routingAddressList[].address` (both accepted). */
export const promotionRouting = routingInfoInput
  .extend({ apiRoutingList: z.array(z.object({ url: z.string().max(2000, 'must be at most 2000 characters') }).loose()).max(50, 'at most 50 entries').nullish() })
  .loose()
  .meta({ id: 'PromotionRouting', description: 'routingAddressList[] (address, weight…) or the vendor\'s apiRoutingList[] (url); other vendor routing fields are ignored' })

export const promotionTransferObject = objectFileSchema
  .extend({ role: objectFileSchema.shape.role.optional() })
  .meta({ id: 'PromotionTransferObject', description: 'the API_PROXY object of the transfer engine as List API Proxies for Promotion answers it (data, secrets sealed under this installation\'s key)' })

/** PUT …/apiProxies/promotion. Other fields of the vendor's ApiProxy object are accepted and not applied. */
export const proxyPromotionBody = z
  .object({
    id: z.string().max(200, 'must be at most 200 characters').nullish().describe('absent: create; present: the id of the target project\'s proxy to overwrite'),
    name: objectName,
    description: z.string().max(2000, 'must be at most 2000 characters').refine((s) => !s.includes('\u0000'), 'must not contain NUL characters').nullish(),
    type: z.string().max(50).nullish().describe('REST (or the vendor\'s REVERSE_PROXY); AI, MCP and A2A proxies are not promoted'),
    enumProxyCreationType: z.enum(['OPEN_API', 'SWAGGER', 'REVERSE_PROXY']).nullish(),
    protocolTransformation: z.boolean().nullish(),
    relativePath: z.string().max(500).nullish().describe('informational: the client route\'s first path is the relative path'),
    clientRoute: clientRouteInput.nullish(),
    routing: promotionRouting.nullish(),
    categoryList: z.array(z.string().trim().min(1, 'must not be blank').max(100, 'must be at most 100 characters')).max(50, 'at most 50 entries').nullish(),
    apiProxyDeployList: z.array(z.record(z.string(), z.unknown())).max(1000).nullish().describe('the source\'s deployment records: never applied'),
    transfer: promotionTransferObject.nullish(),
  })
  .loose()
  .meta({ id: 'ApiProxyPromotionInput' })
export type ProxyPromotionBody = z.output<typeof proxyPromotionBody>

export const promotionQuery = z.object({
  deployEnvironmentIds: z.string().max(10_000).optional().describe('comma-separated environment ids of this installation to deploy to after the save (best-effort, per environment)'),
})

/** deployEnvironmentIds as a list: comma-separated, repeated parameters too; blanks dropped. */
export function deployEnvironmentIdsOf(raw: unknown): string[] {
  const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
  if (values.some((v) => typeof v !== 'string')) throw malformed('deployEnvironmentIds: must be a comma-separated list of environment ids', { field: 'deployEnvironmentIds' })
  const ids = [...new Set((values as string[]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))]
  if (ids.length > 100) throw malformed('deployEnvironmentIds: at most 100 environments', { field: 'deployEnvironmentIds' })
  return ids
}
