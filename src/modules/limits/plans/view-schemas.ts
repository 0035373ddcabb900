import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import { aiBudgetArm, requestRateArm } from '../shared/rule-spec.js'
import { createShape, draftShape, publishShape, updateShape } from './inputs.js'
import type { PlanView, RevisionView } from './views.js'

// The answer and body schemas of the limit plan routes (spec §2.12), tied at compile time to planView and
// revisionView; the bodies are the validators inputs.ts parses them with.

/** A rule spec: exactly one arm, the plan family's (validateRuleSpec). */
export const ruleSpecSchema = z
  .union([z.strictObject({ requestRate: requestRateArm }), z.strictObject({ aiBudget: aiBudgetArm })])
  .meta({ id: 'LimitRuleSpec', description: 'A limit rule spec: requestRate for REQUEST_RATE plans, aiBudget for AI_TOKEN_BUDGET plans' })

export const limitPlanSchema = describes<PlanView>()(
  z
    .object({
      planKey: z.string(),
      family: z.string(),
      name: z.string(),
      nameTr: z.string().nullable(),
      description: z.string().nullable(),
      labels: z.array(z.string()),
      lifecycle: z.string(),
      currentPublishedRevision: z.number().int().nullable(),
      platformScoped: z.boolean(),
      managedBySubscriptionPlanId: z.string().nullable(),
      managedBySubscriptionPlanName: z.string().nullable(),
      retiredAt: z.string().nullable(),
      retiredBy: z.string().nullable(),
      version: z.number().int(),
    })
    .meta({ id: 'LimitPlan', description: 'A limit plan (spec §2.12)' }),
)

const revisionFields = {
  planKey: z.string(),
  revision: z.number().int(),
  status: z.string(),
  semanticChecksum: z.string(),
  changeReason: z.string().nullable(),
  publishedAt: z.string().nullable(),
  publishedBy: z.string().nullable(),
}
// the stored rule spec is a JSON column (any JSON value to Prisma): the tie leaves it out
describes<Omit<RevisionView, 'ruleSpec'>>()(z.object(revisionFields))

/** A revision with its rule spec exactly as sent. */
export const limitPlanRevisionSchema = z
  .object({ ...revisionFields, ruleSpec: ruleSpecSchema })
  .meta({ id: 'LimitPlanRevision', description: 'A revision of a limit plan with its rule spec (spec §2.12)' })

/** The bodies, as parsed; the rule specs are checked against the plan's family by validateRuleSpec. */
export const planCreateBody = createShape.extend({ initialRuleSpec: ruleSpecSchema.optional() })
export const planUpdateBody = updateShape
export const draftRevisionBody = draftShape.extend({ ruleSpec: ruleSpecSchema.optional() })
export const publishRevisionBody = publishShape
