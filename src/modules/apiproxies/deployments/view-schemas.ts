import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import type { groupHistoryView, proxyHistoryView } from './history.js'
import type { deployStatus, invokeInfo, routeHealth } from './status.js'

// The answers of the deployment pages (rest.ts), checked against the views they describe.

export const deployStatusSchema = describes<Awaited<ReturnType<typeof deployStatus>>>()(
  z
    .object({ deployed: z.boolean(), lastDeployTime: z.string().nullable(), revision: z.number().int().nullable(), redeployRequired: z.boolean() })
    .meta({ id: 'ApiProxyDeployStatus' }),
)

const routeFields = { routeActive: z.boolean(), servedPath: z.string().nullable(), methods: z.array(z.string()), apinizerRootContext: z.string() }

export const routeHealthSchema = describes<Awaited<ReturnType<typeof routeHealth>>>()(
  z
    .object({
      ...routeFields,
      podsResponded: z.number().int(),
      podsActive: z.number().int(),
      deployedInManager: z.boolean(),
      inconsistent: z.boolean(),
      pods: z.array(z.object({ ...routeFields, workerPodIp: z.string(), error: z.string().optional() })),
    })
    .meta({ id: 'ApiProxyRouteHealth' }),
)

const historyFields = { revision: z.number().int(), username: z.string(), description: z.string(), environment: z.string(), deploy: z.boolean(), persistent: z.boolean() }

export const proxyHistorySchema = describes<ReturnType<typeof proxyHistoryView>>()(
  z.object({ ...historyFields, deploymentTime: z.string(), backendApiVersion: z.string().nullable() }).meta({ id: 'ApiProxyDeployHistory' }),
)

export const groupHistorySchema = describes<ReturnType<typeof groupHistoryView>>()(z.object({ ...historyFields, date: z.string() }).meta({ id: 'ApiProxyGroupDeployHistory' }))

export const invokeInfoSchema = describes<Awaited<ReturnType<typeof invokeInfo>>[number]>()(
  z
    .object({
      environmentName: z.string(), gatewayBaseUrl: z.string().nullable(), rootContext: z.string(), fullPaths: z.array(z.string()), methods: z.array(z.string()),
      schemes: z.array(z.string()), deployed: z.boolean(),
    })
    .meta({ id: 'ApiProxyInvokeInfo' }),
)
