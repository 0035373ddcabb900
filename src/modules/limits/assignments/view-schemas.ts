import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import { ruleSpecSchema } from '../plans/view-schemas.js'
import { rateWindows } from '../shared/rule-spec.js'
import { AUDIENCE_OPERATORS, audienceRuleShape, bodyShape, contentShape, type AudienceRule } from './body.js'
import { actionBody, endBody } from './operations.js'
import type { AssignmentView } from './views.js'

// The answer and body schemas of the limit assignment routes (spec §2.13), tied at compile time to
// assignmentView; the bodies are the validators body.ts and operations.ts parse them with.

const targetSchema = z.object({
  type: z.string(),
  apiProxyName: z.string().optional(),
  apiProxyGroupName: z.string().optional(),
  environmentName: z.string().optional(),
  targetKey: z.string().optional(),
  httpMethods: z.array(z.string()).optional(),
})

/** The stored audience rule (validateAudienceRule's output). */
const audienceRuleSchema = describes<AudienceRule>()(
  z.object({
    identitySource: z.enum(['AUTH_RESOLVED', 'VARIABLE']),
    variableId: z.string().nullable(),
    operator: z.enum(AUDIENCE_OPERATORS),
    value: z.union([z.string(), z.array(z.string())]),
    outOfTargetAction: z.enum(['BLOCK', 'GENERAL_QUOTA', 'NONE']),
    generalQuotaMode: z.enum(['TOTAL', 'PER_IDENTITY']).nullable(),
    generalQuotaWindows: rateWindows.nullable(),
  }),
)

const assignmentFields = {
  bindingKey: z.string(),
  subject: z.object({ type: z.string(), key: z.string().optional() }),
  family: z.string(),
  actorScope: z.string(),
  mode: z.string(),
  planKeys: z.array(z.string()),
  cacheErrorHandlingType: z.string().nullable(),
  cacheConnectionTimeoutInSeconds: z.number().int().nullable(),
  showRateLimitStatisticsInResponseHeader: z.boolean().nullable(),
  customMessageTemplate: z.string().nullable(),
  customMessageContentType: z.string().nullable(),
  customMessageHttpStatusCode: z.number().int().nullable(),
  source: z.string(),
  status: z.string(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  assignedAt: z.string(),
  assignedBy: z.string(),
  endedAt: z.string().nullable(),
  endedBy: z.string().nullable(),
  endedReason: z.string().nullable().optional(),
  operatorOverride: z.boolean(),
  version: z.number().int(),
  bulkRunId: z.string().optional(),
  replacedBindingKey: z.string().optional(),
}
// target is built from the present fields (an index signature to TypeScript) and the rule columns are JSON: the
// compile-time tie checks the rest
describes<Omit<AssignmentView, 'target' | 'customRuleSpec' | 'audienceRule'>>()(z.object(assignmentFields))

export const limitAssignmentSchema = z
  .object({ ...assignmentFields, target: targetSchema, customRuleSpec: ruleSpecSchema.nullable(), audienceRule: audienceRuleSchema.nullable() })
  .meta({ id: 'LimitAssignment', description: 'A limit assignment (spec §2.13)' })

/** The create, update and validate body; content and audienceRule are checked against the subject by validateAssignmentBody. */
export const assignmentBody = bodyShape.extend({
  content: contentShape.extend({ customRuleSpec: ruleSpecSchema.nullish() }).nullish(),
  audienceRule: audienceRuleShape.nullish(),
})
export const assignmentActionBody = actionBody
export const assignmentEndBody = endBody
