import type { Tx } from '../../../platform/context.js'
import { nameKeyOf } from '../common.js'

/** The comparison form of a model id (also for ids a budget names): model ids are case-insensitive. */
export const modelKeyOf = (modelId: string) => nameKeyOf(modelId)

export interface CoveredModelPrice {
  modelId: string
  /**
   * modelId as the LLM module compares model ids (trimmed, lower case; see modelKeyOf): `gpt-4o` in the
   * catalog and `GPT-4o` in a provider's supportedModels are the same model. Compare on this, not on modelId.
   */
  modelKey: string
  pricePerMillionInput: number | null
  /** `catalog` for a model catalog entry, `provider:<name>` for an entry of a provider's supportedModels */
  source: string
}

/**
 * Every model known in the project with its input price, one row per place it is declared: the model catalog
 * first, then each provider's supportedModels (providers by name). The USD budget check (spec §7.1) decides
 * what "priced" means; a model listed by a provider but priced in the catalog has two rows.
 */
export async function coveredModelPrices(db: Tx, projectId: string): Promise<CoveredModelPrice[]> {
  const [catalog, providers] = await Promise.all([
    db.llmModelDefinition.findMany({ where: { projectId }, select: { modelId: true, pricePerMillionInput: true }, orderBy: { nameKey: 'asc' } }),
    db.llmProvider.findMany({ where: { projectId }, select: { name: true, supportedModels: true }, orderBy: { nameKey: 'asc' } }),
  ])
  const rows: CoveredModelPrice[] = catalog.map((m) => ({ modelId: m.modelId, modelKey: modelKeyOf(m.modelId), pricePerMillionInput: m.pricePerMillionInput, source: 'catalog' }))
  for (const p of providers) {
    for (const m of (p.supportedModels ?? []) as { modelId?: unknown; pricePerMillionInput?: unknown }[]) {
      if (typeof m?.modelId !== 'string') continue
      rows.push({
        modelId: m.modelId,
        modelKey: modelKeyOf(m.modelId),
        pricePerMillionInput: typeof m.pricePerMillionInput === 'number' ? m.pricePerMillionInput : null,
        source: `provider:${p.name}`,
      })
    }
  }
  return rows
}
