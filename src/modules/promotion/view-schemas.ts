import { z } from 'zod'
import { proxyDeploymentResult } from '../../platform/http/response-schemas.js'
import { transferAdvisorySchema } from '../../platform/transfer/view-schemas.js'
import { objectFileSchema } from '../../platform/transfer/package/format.js'

/** One proxy of List API Proxies for Promotion (views.ts promotionEntryOf). */
export const promotionEntrySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.string().describe('the proxy kind: REST, AI, MCP, A2A…'),
    enumProxyCreationType: z.string().nullable(),
    protocolTransformation: z.boolean(),
    relativePath: z.string().nullable(),
    clientRoute: z.record(z.string(), z.unknown()).nullable(),
    routing: z.record(z.string(), z.unknown()).nullable().describe('the stored routing, with the vendor\'s apiRoutingList[].url beside routingAddressList'),
    categoryList: z.array(z.string()),
    apiProxyDeployList: z.array(z.object({
      environmentSettingsId: z.string(),
      environmentName: z.string(),
      accessUrl: z.string().nullable(),
      deploy: z.boolean(),
      redeployRequired: z.boolean(),
    })).describe('the source project\'s deployments: informational, never applied by the promotion'),
    transfer: objectFileSchema.describe('the transfer engine\'s API_PROXY object file (secrets CIPHERTEXT_VERBATIM); send it back to carry endpoints, policies and settings'),
  })
  .meta({ id: 'ApiProxyForPromotion' })

export const promotionAdvisories = z.array(transferAdvisorySchema)
export const promotionDeploymentResult = proxyDeploymentResult

export const promotedGroupSchema = z
  .object({ id: z.string(), name: z.string(), description: z.string().nullable(), clientRoute: z.record(z.string(), z.unknown()).nullable() })
  .meta({ id: 'ApiProxyGroupPromoted' })

const nullText = z.string().nullable()
/** A promotion execution (executions.ts executionView): the vendor's PromotionExecution fields and the run's result. */
export const promotionExecutionSchema = z
  .object({
    id: z.string(), executionId: z.string(), executionStatus: z.string().describe('COMPLETED (the envelope\'s status is SUCCESS)'),
    mappingId: nullText, mappingName: nullText, sourceInstanceId: nullText, sourceInstanceName: nullText, sourceInstanceColor: nullText,
    targetInstanceId: nullText, targetInstanceName: nullText, targetInstanceColor: nullText,
    sourceProjectName: z.string(), targetProjectName: z.string(), sourceApiName: nullText, targetApiName: nullText,
    approvalRequired: z.boolean(), approvedBy: nullText, approvedAt: nullText, scheduledAt: nullText,
    progress: z.number().int(), currentStep: z.number().int(), totalSteps: z.number().int(),
    executionName: nullText, executionDescription: nullText, executionNotes: nullText, executedBy: z.string(),
    startedAt: z.string(), completedAt: nullText, errorMessage: nullText, errorDetail: nullText,
    result: z.record(z.string(), z.unknown()).describe('type, conflictPolicy, exportDigest, preflightDigest, imported[], advisories[], unresolvedReferences[]'),
  })
  .describe('a promotion execution')
