import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { AccessReportEntry, ApiReportEntry } from './service.js'

// The JSON answers of the reports (rest.ts), tied at compile time to the entries the service builds.

export const apiReportEntrySchema = describes<ApiReportEntry>()(
  z.object({
    objectType: z.enum(['API_PROXY', 'API_PROXY_GROUP']),
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.string(),
    projectName: z.string(),
    relativePath: z.string().nullable(),
    groups: z.array(z.string()).optional().describe('an API proxy\'s groups'),
    apiProxies: z.array(z.string()).optional().describe('a group\'s member API proxies'),
    endpointCount: z.number().int(),
    policyCount: z.number().int(),
    deploymentState: z.enum(['DEPLOYED', 'PARTIALLY_DEPLOYED', 'NOT_DEPLOYED']),
    environments: z.array(z.object({ environmentName: z.string(), deployed: z.boolean(), revision: z.number().int().nullable(), redeployRequired: z.boolean() })),
    endpoints: z.array(z.object({ id: z.string(), name: z.string(), method: z.string(), path: z.string(), version: z.string(), enabled: z.boolean(), apiProxyName: z.string().optional().describe("a group's endpoint: the member API proxy it belongs to") }))
      .optional().describe("with includeEndpoints=true, on every entry: an API proxy's endpoints; a group's are its members' ([] when none)"),
  }).meta({ id: 'ApiReportEntry' }),
)

export const accessReportEntrySchema = describes<AccessReportEntry>()(
  z.object({
    apiProxyName: z.string(),
    projectName: z.string(),
    sharingType: z.string().nullable().describe('EXTERNAL or BOTH: the report lists only API proxies shared outside'),
    accessList: z.array(z.object({
      organizationCode: z.string().nullable(),
      organizationName: z.string().nullable(),
      applicationName: z.string().nullable(),
      credentialUsername: z.string().nullable(),
      environmentName: z.string().nullable(),
      source: z.string().describe('ENTITLEMENT or RLCL'),
      via: z.string().describe('API_PROXY, API_PROXY_ENV, API_PROXY_GROUP:<group> or RLCL:<rlcl>'),
    })),
  }).meta({ id: 'AccessReportEntry' }),
)

/** page, size and totalCount: only when page or size was given (one page instead of the stream). */
export const reportPageFields = {
  success: z.literal(true),
  page: z.number().int().optional(),
  size: z.number().int().optional(),
  totalCount: z.number().int().optional(),
}

/** The access report's `result`: dataModelList is always empty (no data models are stored). */
export const accessReportResultSchema = z.object({
  apiProxyList: z.array(accessReportEntrySchema),
  dataModelList: z.array(z.never()).describe('always empty'),
})
