import type { Tx } from '../../platform/context.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { coveredModelPrices, modelKeyOf, type CoveredModelPrice } from '../llm/models/prices.js'
import { hasUsdLimit, type Budget } from './budget-object.js'

/** The stable key of the USD price check (spec §7.1). */
export const USD_PRICE_MISSING = 'aiQuota.usdBudgetModelPriceMissing'

/** One budget about to be saved, with the projects whose models it covers. */
export interface BudgetToCheck {
  /** the field of the request that carries it (for messages), e.g. `budget` or `defaultBudget` */
  field: string
  budget: Budget
  projectIds: string[]
}

/**
 * The USD price check of spec §7.1, over every budget of one request: a USD limit (top level, a model
 * override or a provider override) needs an input price for every model it covers. Covered models:
 * top level → every model known in the covered projects; model override → its modelId; provider
 * override → the provider connection's supportedModels. A model counts as priced when any place that
 * declares it (catalog entry or a provider's supportedModels) carries pricePerMillionInput. One missing
 * price rejects the whole request with every unpriced model named; nothing is saved.
 */
export async function checkUsdPrices(db: Tx, budgets: BudgetToCheck[]): Promise<void> {
  // models compare as the LLM module compares them (trimmed, case-insensitive); messages name the id first seen
  const missing = new Map<string, string>()
  const pricesByProject = new Map<string, CoveredModelPrice[]>()
  const pricesOf = async (projectId: string) => {
    let rows = pricesByProject.get(projectId)
    if (!rows) pricesByProject.set(projectId, (rows = await coveredModelPrices(db, projectId)))
    return rows
  }
  for (const { budget, projectIds } of budgets) {
    const rows = (await Promise.all(projectIds.map(pricesOf))).flat()
    const priced = new Set(rows.filter((r) => r.pricePerMillionInput !== null).map((r) => r.modelKey))
    const flag = (modelId: string) => {
      const key = modelKeyOf(modelId)
      if (!priced.has(key) && !missing.has(key)) missing.set(key, modelId)
    }
    if (hasUsdLimit(budget)) rows.forEach((r) => flag(r.modelId))
    for (const entry of budget.modelBudgets) if (hasUsdLimit(entry)) flag(entry.modelId)
    const usdProviders = budget.providerBudgets.filter(hasUsdLimit).map((e) => e.providerRef)
    if (usdProviders.length) {
      const providers = await db.llmProvider.findMany({ where: { id: { in: usdProviders } }, select: { name: true, projectId: true } })
      const sources = new Set(providers.map((p) => `${p.projectId}\u0000provider:${p.name}`))
      for (const projectId of new Set(providers.map((p) => p.projectId))) {
        for (const r of await pricesOf(projectId)) if (sources.has(`${projectId}\u0000${r.source}`)) flag(r.modelId)
      }
    }
  }
  if (!missing.size) return
  const models = [...missing.values()].sort()
  throw new DomainError(
    'validation',
    USD_PRICE_MISSING,
    `A USD budget limit needs an input price for every covered model: ${models.length} model(s) have no pricePerMillionInput ` +
      `(${models.join(', ')}). Add pricePerMillionInput in the model catalog or use a token limit.`,
    { modelCount: models.length, models },
  )
}

/**
 * Provider overrides name provider connections by id (spec §2.9). Each must exist, within the given
 * projects (a project budget) or anywhere (the installation-wide defaults, projectIds null).
 */
export async function checkProviderRefs(db: Tx, field: string, budget: Budget, projectIds: string[] | null): Promise<void> {
  const refs = budget.providerBudgets.map((e) => e.providerRef)
  if (!refs.length) return
  const found = await db.llmProvider.findMany({
    where: { id: { in: refs }, ...(projectIds ? { projectId: { in: projectIds } } : {}) },
    select: { id: true },
  })
  const known = new Set(found.map((p) => p.id))
  const index = refs.findIndex((r) => !known.has(r))
  if (index >= 0) {
    const at = `${field}.providerBudgets[${index}].providerRef`
    throw malformed(`${at}: no LLM provider connection with id '${refs[index]}'${projectIds ? ' in the project' : ''}`, { field: at })
  }
}
