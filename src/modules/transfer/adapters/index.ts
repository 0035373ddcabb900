import { apiProxyTransferAdapter } from '../../apiproxies/proxies/transfer-adapter.js'
import { connectionTransferAdapter } from '../../connections/transfer-adapter.js'
import { llmTransferAdapters } from '../../llm/transfer-adapter.js'
import { rlclTransferAdapter } from '../../rlcl/transfer-adapter.js'
import { creatorTransferAdapter } from '../../creators/transfer-adapter.js'
import { applicationTransferAdapter } from '../../apiclients/application-transfer-adapter.js'
import { environmentVariableTransferAdapter } from '../../envvars/transfer-adapter.js'
import { apiProxyGroupTransferAdapter } from '../../apiproxies/groups/transfer-adapter.js'
import { limitPlanTransferAdapter } from '../../limits/plans/transfer-adapter.js'
import { limitAssignmentTransferAdapter } from '../../limits/assignments/transfer-adapter.js'
import { aiBudgetTransferAdapter } from '../../budgets/transfer-adapter.js'
import { aiProxyTransferAdapter } from '../../apiproxies/ai/transfer-adapter.js'
import { findAdapter, registerTransferAdapter, type TransferAdapter } from '../../../platform/transfer/registry.js'
import { credentialAdapter } from './credentials.js'
import { storedObjectAdapters } from '../../objects/transfer-adapter.js'
import { webhookConnectionAdapter } from './webhooks.js'

/**
 * Adapters that modules owning a type contribute: one entry per module. Each replaces the opaque
 * stored-object fallback of its type (registered first), so a type moves from the opaque objects to its
 * module by adding its module's adapters here.
 */
const CONTRIBUTED: TransferAdapter[] = [credentialAdapter, webhookConnectionAdapter, connectionTransferAdapter, ...llmTransferAdapters, apiProxyTransferAdapter, rlclTransferAdapter, creatorTransferAdapter, applicationTransferAdapter, environmentVariableTransferAdapter, apiProxyGroupTransferAdapter, limitPlanTransferAdapter, limitAssignmentTransferAdapter, aiBudgetTransferAdapter, aiProxyTransferAdapter]

let loading: Promise<void> | null = null

/** Registers the opaque fallbacks, then the contributed adapters over them; once per process. */
export function ensureTransferAdapters(): Promise<void> {
  loading ??= (async () => {
    if (findAdapter('IP_GROUP')) return
    for (const adapter of storedObjectAdapters()) registerTransferAdapter(adapter)
    for (const adapter of CONTRIBUTED) registerTransferAdapter(adapter, { replace: true })
  })()
  return loading
}
