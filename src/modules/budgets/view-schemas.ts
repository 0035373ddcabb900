import { z } from 'zod'
import { describes, type AsJson } from '../../platform/http/response-schemas.js'
import { OVERFLOW_ACTIONS, type Budget } from './budget-object.js'
import { BUDGET_SOURCES, TARGET_TYPES } from './chain.js'
import type { EffectiveLimit } from './effective.js'
import type { HierarchyNode } from './hierarchy.js'
import type { BudgetView } from './service.js'
import type { AiSettingsView } from './settings.js'

// The answer schemas of the AI budgets and AI gateway settings (spec §2.8, §2.9, §4.5, §4.6), tied at compile time
// to the views rest.ts answers (Dates as ISO 8601 strings).

const cap = z.number().nullable().describe('null: no limit')
const entryLimits = {
  tokensPerHour: cap, tokensPerDay: cap, tokensPerMonth: cap, monthlyBudgetUsd: cap, usdPerHour: cap, usdPerDay: cap,
  overflowAction: z.enum(OVERFLOW_ACTIONS),
}

/** A budget object with every default applied (spec §2.9). */
export const budgetSchema = describes<Budget>()(
  z.object({
    enabled: z.boolean(),
    tokensPerHour: cap,
    tokensPerMinute: cap,
    tokensPerDay: cap,
    tokensPerMonth: cap,
    monthlyBudgetUsd: cap,
    usdPerHour: cap,
    usdPerDay: cap,
    softCapPercents: z.array(z.number().int()),
    hardCapPercent: z.number().int(),
    overflowAction: z.enum(OVERFLOW_ACTIONS),
    cheaperModelId: z.string().nullable(),
    modelBudgets: z.array(z.object({ modelId: z.string(), ...entryLimits })),
    providerBudgets: z.array(z.object({ providerRef: z.string(), ...entryLimits })),
  }).meta({ id: 'AiBudget' }),
)

export const aiSettingsSchema = describes<AsJson<AiSettingsView>>()(
  z.object({
    defaultConnectTimeoutSeconds: z.number().int(),
    defaultStreamTimeoutSeconds: z.number().int(),
    defaultRetryCount: z.number().int(),
    maxAiRequestBodyBytes: z.number().int(),
    maxAiBinaryRequestBodyBytes: z.number().int(),
    maxAiBinaryResponseBodyBytes: z.number().int(),
    maxToolTurns: z.number().int(),
    agenticLoopEnabled: z.boolean().describe('false when maxToolTurns is 0 or below'),
    defaultBudget: budgetSchema,
    defaultAnonymousBudget: budgetSchema,
    revision: z.number().int(),
    updatedAt: z.iso.datetime().nullable(),
    updatedBy: z.string().nullable(),
  }).meta({ id: 'AiGatewaySettings' }),
)

export const budgetViewSchema = describes<AsJson<BudgetView>>()(
  z.object({
    targetType: z.enum(TARGET_TYPES),
    targetId: z.string(),
    targetName: z.string(),
    targetProjectId: z.string(),
    budgetSource: z.enum(BUDGET_SOURCES).nullable(),
    budget: budgetSchema,
    revision: z.number().int(),
    updatedAt: z.iso.datetime(),
    updatedBy: z.string(),
  }).meta({ id: 'AiBudgetRule' }),
)

export const effectiveLimitSchema = describes<EffectiveLimit>()(
  z.object({
    credentialLeafTokensPerMonth: cap,
    orgChain: z.array(z.object({ orgId: z.string(), orgName: z.string(), tokensPerMonth: cap })),
    appCapTokensPerMonth: cap,
    tenantCapTokensPerMonth: cap,
    effectiveMonthlyTokens: cap,
    effectiveDailyTokens: cap,
    effectiveMinuteTokens: cap,
    status: z.enum(['NORMAL', 'LOCKED', 'AT_CAPACITY']),
  }),
)

const HIERARCHY_NODE_TYPES = ['PROJECT', 'API_PROXY', 'CREDENTIAL_ORGANIZATION', 'CREDENTIAL', 'CREDENTIAL_ALLOWED_API_PROXY'] as const

/** One node of the budget tree, its children nested (recursive: a $ref to itself). */
export const hierarchyNodeSchema: z.ZodType<HierarchyNode> = describes<HierarchyNode>()(
  z.object({
    nodeType: z.enum(HIERARCHY_NODE_TYPES),
    nodeId: z.string().describe('entity id: what targetId and the effective-limit nodeId take'),
    name: z.string(),
    key: z.string().describe('organization code, credential username or API proxy name'),
    budget: budgetSchema.nullable(),
    budgetSource: z.enum(BUDGET_SOURCES).nullable(),
    get children(): z.ZodArray<z.ZodType<HierarchyNode>> {
      return z.array(hierarchyNodeSchema)
    },
  }).meta({ id: 'AiBudgetHierarchyNode' }),
)
