import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import type { getVendorEndpoint, vendorEndpointView } from './vendor.js'

// The answer schemas of the endpoint pages (vendor 04-api-proxies/endpoints), tied at compile time to the views.

const endpointFields = {
  id: z.string(),
  endpoint: z.string(),
  description: z.string().nullable(),
  active: z.boolean(),
  httpMethod: z.string(),
  backendResourceUrl: z.string(),
  backendHttpMethod: z.string(),
  version: z.string(),
  operationId: z.string(),
}

/** An endpoint as the list shows it (vendorEndpointView). */
export const vendorEndpointSchema = describes<ReturnType<typeof vendorEndpointView>>()(
  z.object(endpointFields).meta({ id: 'ApiProxyEndpoint', description: 'An endpoint of an API proxy, without policies' }),
)

// the stored settings objects (a JSON column: the parsed body of the cache or wsa page), null when never set
const storedSettings = z.record(z.string(), z.unknown()).nullable()
const policyItem = z.object({ type: z.string(), name: z.string(), description: z.string().nullable(), active: z.boolean() })

type EndpointDetail = Awaited<ReturnType<typeof getVendorEndpoint>>

/** One endpoint read (GET …/endpoints/{id}/): the list fields and its settings; …/policies/ adds the three lists. */
export const vendorEndpointDetailFields = {
  ...endpointFields,
  cacheSettings: storedSettings,
  wsaSettings: storedSettings,
}
export const vendorEndpointPolicyLists = {
  requestPolicyList: z.array(policyItem),
  responsePolicyList: z.array(policyItem),
  errorPolicyList: z.array(policyItem),
}
// compile-time tie of the two reads to the view (the policy lists are present only on the …/policies/ read); the
// settings are typed by Prisma as any JSON value, so the tie leaves them out
type DetailWithoutSettings = EndpointDetail extends infer D ? (D extends unknown ? Omit<D, 'cacheSettings' | 'wsaSettings'> : never) : never
describes<DetailWithoutSettings>()(z.object({ ...endpointFields, ...z.object(vendorEndpointPolicyLists).partial().shape }))
