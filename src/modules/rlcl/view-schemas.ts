import { z } from 'zod'
import { describes } from '../../platform/http/response-schemas.js'
import type { RlclView } from './views.js'

// The answer schema of the RLCL read surface (vendor pages 02-api-reference/12-rlcl), tied at compile time to rlclView.

const entrySchema = z.object({
  apiProxyName: z.string(),
  endpointId: z.string().nullable().describe('the endpoint id; null for an ALL entry'),
  endpointName: z.string(),
  endpointHTTPMethod: z.string(),
  permittedMessageCount: z.number(),
  timeIntervalPeriodLength: z.number(),
  timeInterval: z.string(),
  cacheConnectionTimeoutInSeconds: z.number(),
  cacheErrorHandlingType: z.string(),
  timeIntervalWindowType: z.string(),
  targetVariable: z.unknown(),
  targetIdentityValue: z.string().nullable(),
  showRateLimitStatisticsInResponseHeader: z.boolean(),
  enabled: z.boolean(),
})

export const rlclSchema = describes<RlclView>()(
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string().nullable(),
      enabled: z.boolean(),
      executionOrder: z.string(),
      cacheConnectionTimeoutInSeconds: z.number().int(),
      cacheErrorHandlingType: z.string(),
      timeIntervalWindowType: z.string(),
      showRateLimitStatisticsInResponseHeader: z.boolean(),
      targetVariable: z.unknown(),
      identitySource: z.string().describe('VARIABLE or AUTH_RESOLVED'),
      targetAudienceRuleList: z.array(z.object({ operator: z.string(), value: z.string() })),
      outOfTargetAction: z.string().describe('BLOCK or GENERAL_QUOTA'),
      generalQuotaMode: z.string().describe('TOTAL or PER_IDENTITY'),
      generalQuotaPermittedMessageCount: z.number().int().nullable(),
      generalQuotaTimeIntervalPeriodLength: z.number().int().nullable(),
      generalQuotaTimeInterval: z.string().nullable(),
      condition: z.object({ conditionRuleList: z.unknown() }).nullable(),
      credentialNameList: z.array(z.string()),
      endpointRateLimitList: z.array(entrySchema),
    })
    .meta({ id: 'Rlcl' }),
)
