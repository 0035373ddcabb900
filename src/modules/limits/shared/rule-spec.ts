import { z } from 'zod'
import { malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { canonicalHash } from '../../../platform/hashing/canonical.js'
import type { LimitFamily } from './enums.js'

// The rule spec of a plan revision and of a CUSTOM assignment (spec §2.12): exactly one arm, the one of the
// family. Windows are read back exactly as sent: no defaults are filled in for unset optional members.

export const WINDOW_INTERVALS = ['ONE_SECOND', 'ONE_MINUTE', 'ONE_HOUR', 'ONE_DAY', 'ONE_MONTH'] as const
export const WINDOW_TYPES = ['FIXED', 'SLIDING'] as const
export const COUNTING_MODES = ['ALL_REQUESTS', 'ACCEPTED_ONLY'] as const
export const RATE_OVERFLOW_ACTIONS = ['BLOCK', 'COUNT_ONLY'] as const
export const BUDGET_OVERFLOW_ACTIONS = ['BLOCK', 'FAILOVER', 'ALERT_ONLY', 'CHEAPER_MODEL'] as const
/** §8: at most 50 model and 50 provider budget entries */
export const MAX_BUDGET_ENTRIES = 50

const positiveInt = z.number().int().min(1).max(2_147_483_647)
const tokenCap = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).nullish()
const usdCap = z.number().gt(0, 'must be greater than 0').nullish()

/** One request-rate window; also the shape of an audience rule's generalQuotaWindows. */
export const rateWindow = z.strictObject({
  permittedMessageCount: positiveInt,
  interval: z.enum(WINDOW_INTERVALS),
  periodLength: positiveInt.optional(),
  windowType: z.enum(WINDOW_TYPES).optional(),
  countingMode: z.enum(COUNTING_MODES).optional(),
})
export const rateWindows = z.array(rateWindow).min(1, 'at least one window is required').max(20, 'at most 20 windows')

export const requestRateArm = z.strictObject({
  windows: rateWindows,
  overflowAction: z.enum(RATE_OVERFLOW_ACTIONS).optional(),
})

const budgetEntryCaps = {
  tokensPerHour: tokenCap,
  tokensPerDay: tokenCap,
  tokensPerMonth: tokenCap,
  monthlyBudgetUsd: usdCap,
  usdPerHour: usdCap,
  usdPerDay: usdCap,
  overflowAction: z.enum(BUDGET_OVERFLOW_ACTIONS).optional(),
}

/** The §2.9 budget object without targets. */
export const aiBudgetArm = z.strictObject({
  enabled: z.boolean().optional(),
  tokensPerHour: tokenCap,
  tokensPerMinute: tokenCap,
  tokensPerDay: tokenCap,
  tokensPerMonth: tokenCap,
  monthlyBudgetUsd: usdCap,
  usdPerHour: usdCap,
  usdPerDay: usdCap,
  softCapPercents: z.array(z.number().int().min(0).max(100)).max(100).nullish(),
  hardCapPercent: z.number().int().min(1).max(100).nullish(),
  overflowAction: z.enum(BUDGET_OVERFLOW_ACTIONS).nullish(),
  cheaperModelId: z.string().trim().min(1).max(200).nullish(),
  modelBudgets: z.array(z.strictObject({ modelId: z.string().trim().min(1).max(200), ...budgetEntryCaps })).max(MAX_BUDGET_ENTRIES).nullish(),
  providerBudgets: z.array(z.strictObject({ providerRef: z.string().trim().min(1).max(200), ...budgetEntryCaps })).max(MAX_BUDGET_ENTRIES).nullish(),
})

const ARM_OF: Record<LimitFamily, 'requestRate' | 'aiBudget'> = { REQUEST_RATE: 'requestRate', AI_TOKEN_BUDGET: 'aiBudget' }

export type RuleSpec = { requestRate: z.output<typeof requestRateArm> } | { aiBudget: z.output<typeof aiBudgetArm> }

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * Validates a rule spec for a family. `field` is where the spec sits in the body (`ruleSpec`,
 * `initialRuleSpec`, `content.customRuleSpec`): absent → limit.plan.ruleSpecRequired; not exactly the arm of
 * the family → limit.plan.ruleSpecFamilyMismatch; a broken member → malformedRequest naming the member.
 * Returns the spec as sent (validated, nothing filled in).
 */
export function validateRuleSpec(family: LimitFamily, ruleSpec: unknown, field: string): RuleSpec {
  if (ruleSpec === undefined || ruleSpec === null) {
    throw malformed(`${field} is required`, { field, reason: 'limit.plan.ruleSpecRequired' })
  }
  if (!isObject(ruleSpec)) throw malformed(`${field} must be an object`, { field })
  const arm = ARM_OF[family]
  const keys = Object.keys(ruleSpec).filter((k) => ruleSpec[k] !== undefined)
  if (keys.length !== 1 || keys[0] !== arm) {
    throw malformed(`${field} must carry exactly one arm, ${arm}, for family ${family}`, {
      field,
      reason: 'limit.plan.ruleSpecFamilyMismatch',
      family,
      expectedArm: arm,
    })
  }
  const schema = arm === 'requestRate' ? z.strictObject({ requestRate: requestRateArm }) : z.strictObject({ aiBudget: aiBudgetArm })
  try {
    parseInput(schema, ruleSpec)
  } catch (err) {
    // name the member relative to the body, e.g. initialRuleSpec.requestRate.windows[0].interval
    const e = err as { params?: { field?: string }; message: string }
    const inner = e.params?.field
    throw malformed(`${field}.${e.message}`, { field: inner ? `${field}.${inner}` : field })
  }
  return ruleSpec as RuleSpec
}

/** A stable hash of the canonical rule spec: equal specs (whatever the key order) hash equally. */
export const semanticChecksum = (ruleSpec: unknown) => `sha256:${canonicalHash(ruleSpec)}`
