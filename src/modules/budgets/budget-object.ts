import { z } from 'zod'

// The budget object of spec §2.9, shared by AI budgets and the default budgets of the AI gateway settings.
// Scalars are replaced by every write (absent → default); the two override lists keep the stored entries
// when absent or null, and an empty array wipes them.

export const OVERFLOW_ACTIONS = ['BLOCK', 'FAILOVER', 'ALERT_ONLY', 'CHEAPER_MODEL'] as const
export type OverflowAction = (typeof OVERFLOW_ACTIONS)[number]

/** Spec §8: at most 50 model and 50 provider entries per budget. */
export const MAX_BUDGET_ENTRIES = 50

const tokenCap = () => z.int('must be an integer of at least 1').min(1, 'must be at least 1 (null means no limit)').nullish()
const usdCap = () => z.number('must be a number greater than 0').gt(0, 'must be greater than 0 (null means no limit)').nullish()
const overflowAction = () => z.enum(OVERFLOW_ACTIONS, { error: `must be one of ${OVERFLOW_ACTIONS.join(', ')}` }).nullish()
const reference = (what: string) => z.string(`${what} is required`).trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters')

const entryLimits = {
  tokensPerHour: tokenCap(),
  tokensPerDay: tokenCap(),
  tokensPerMonth: tokenCap(),
  monthlyBudgetUsd: usdCap(),
  usdPerHour: usdCap(),
  usdPerDay: usdCap(),
  overflowAction: overflowAction(),
}

const modelEntry = z.strictObject({ modelId: reference('modelId'), ...entryLimits })
const providerEntry = z.strictObject({ providerRef: reference('providerRef'), ...entryLimits })

const entries = <T extends z.ZodType>(entry: T, field: string) =>
  z.array(entry).max(MAX_BUDGET_ENTRIES, `at most ${MAX_BUDGET_ENTRIES} entries (${field})`).nullish()

/** The budget object as written: every field optional, bounds of spec §2.9 and §8. */
export const budgetInput = z
  .strictObject({
    enabled: z.boolean().nullish(),
    tokensPerHour: tokenCap(),
    tokensPerMinute: tokenCap(),
    tokensPerDay: tokenCap(),
    tokensPerMonth: tokenCap(),
    monthlyBudgetUsd: usdCap(),
    usdPerHour: usdCap(),
    usdPerDay: usdCap(),
    softCapPercents: z.array(z.int('must be an integer between 0 and 100').min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100')).nullish(),
    hardCapPercent: z.int('must be an integer between 1 and 100').min(1, 'must be between 1 and 100').max(100, 'must be between 1 and 100').nullish(),
    overflowAction: overflowAction(),
    cheaperModelId: z.string().trim().max(200, 'must be at most 200 characters').nullish(),
    modelBudgets: entries(modelEntry, 'modelBudgets'),
    providerBudgets: entries(providerEntry, 'providerBudgets'),
  }, { error: (issue) => (issue.input === undefined || issue.input === null ? 'is required' : 'must be a budget object') })
  .superRefine((b, ctx) => {
    if (b.overflowAction === 'CHEAPER_MODEL' && !b.cheaperModelId) {
      ctx.addIssue({ code: 'custom', path: ['cheaperModelId'], message: 'is required when overflowAction is CHEAPER_MODEL' })
    }
    duplicates(b.modelBudgets?.map((e) => e.modelId), 'modelBudgets', 'modelId', ctx)
    duplicates(b.providerBudgets?.map((e) => e.providerRef), 'providerBudgets', 'providerRef', ctx)
  })
export type BudgetInput = z.input<typeof budgetInput>

function duplicates(keys: string[] | undefined, list: string, field: string, ctx: z.RefinementCtx) {
  const seen = new Map<string, number>()
  keys?.forEach((key, i) => {
    const first = seen.get(key)
    if (first !== undefined) ctx.addIssue({ code: 'custom', path: [list, i, field], message: `duplicates ${list}[${first}] ('${key}')` })
    else seen.set(key, i)
  })
}

export interface EntryLimits {
  tokensPerHour: number | null
  tokensPerDay: number | null
  tokensPerMonth: number | null
  monthlyBudgetUsd: number | null
  usdPerHour: number | null
  usdPerDay: number | null
  overflowAction: OverflowAction
}
export interface ModelBudget extends EntryLimits { modelId: string }
export interface ProviderBudget extends EntryLimits { providerRef: string }

/** A budget object with every default applied: what is stored and returned. */
export interface Budget {
  enabled: boolean
  tokensPerHour: number | null
  tokensPerMinute: number | null
  tokensPerDay: number | null
  tokensPerMonth: number | null
  monthlyBudgetUsd: number | null
  usdPerHour: number | null
  usdPerDay: number | null
  softCapPercents: number[]
  hardCapPercent: number
  overflowAction: OverflowAction
  cheaperModelId: string | null
  modelBudgets: ModelBudget[]
  providerBudgets: ProviderBudget[]
}

/** The disabled budget: the default of the settings' budgets and of a target without one. */
export const DISABLED_BUDGET: Budget = Object.freeze({
  enabled: false,
  tokensPerHour: null,
  tokensPerMinute: null,
  tokensPerDay: null,
  tokensPerMonth: null,
  monthlyBudgetUsd: null,
  usdPerHour: null,
  usdPerDay: null,
  softCapPercents: [],
  hardCapPercent: 100,
  overflowAction: 'BLOCK',
  cheaperModelId: null,
  modelBudgets: [],
  providerBudgets: [],
}) as Budget

export type ParsedBudget = z.output<typeof budgetInput>
type ParsedEntry = z.output<typeof modelEntry> | z.output<typeof providerEntry>

const limitsOf = (e: ParsedEntry): EntryLimits => ({
  tokensPerHour: e.tokensPerHour ?? null,
  tokensPerDay: e.tokensPerDay ?? null,
  tokensPerMonth: e.tokensPerMonth ?? null,
  monthlyBudgetUsd: e.monthlyBudgetUsd ?? null,
  usdPerHour: e.usdPerHour ?? null,
  usdPerDay: e.usdPerDay ?? null,
  overflowAction: e.overflowAction ?? 'BLOCK',
})

/**
 * The budget a write produces: scalars from the request (absent → default), override lists from the
 * request when sent (an empty array wipes), else the stored ones.
 */
export function mergeBudget(input: ParsedBudget, stored: Budget | null): Budget {
  return {
    enabled: input.enabled ?? false,
    tokensPerHour: input.tokensPerHour ?? null,
    tokensPerMinute: input.tokensPerMinute ?? null,
    tokensPerDay: input.tokensPerDay ?? null,
    tokensPerMonth: input.tokensPerMonth ?? null,
    monthlyBudgetUsd: input.monthlyBudgetUsd ?? null,
    usdPerHour: input.usdPerHour ?? null,
    usdPerDay: input.usdPerDay ?? null,
    softCapPercents: input.softCapPercents ?? [],
    hardCapPercent: input.hardCapPercent ?? 100,
    overflowAction: input.overflowAction ?? 'BLOCK',
    cheaperModelId: input.cheaperModelId || null,
    modelBudgets: input.modelBudgets ? input.modelBudgets.map((e) => ({ modelId: e.modelId, ...limitsOf(e) })) : (stored?.modelBudgets ?? []),
    providerBudgets: input.providerBudgets ? input.providerBudgets.map((e) => ({ providerRef: e.providerRef, ...limitsOf(e) })) : (stored?.providerBudgets ?? []),
  }
}

/** A stored budget (JSON column) read back; anything missing takes its default. */
export function storedBudget(json: unknown): Budget | null {
  if (json === null || json === undefined || typeof json !== 'object') return null
  return { ...DISABLED_BUDGET, ...(json as Partial<Budget>) }
}

export const hasUsdLimit = (l: { monthlyBudgetUsd: number | null; usdPerHour: number | null; usdPerDay: number | null }) =>
  l.monthlyBudgetUsd !== null || l.usdPerHour !== null || l.usdPerDay !== null
