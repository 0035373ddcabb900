import type { Budget } from './budget-object.js'
import type { BudgetChain } from './chain.js'

// The effective limit object of spec §2.9: a manager-side preview computed from the chain resolved by
// chain.ts. Only enabled budgets limit anything; the effective values are the minimum of the non-null
// values along the chain.

export type BudgetStatus = 'NORMAL' | 'LOCKED' | 'AT_CAPACITY'

export interface EffectiveLimit {
  credentialLeafTokensPerMonth: number | null
  orgChain: { orgId: string; orgName: string; tokensPerMonth: number | null }[]
  appCapTokensPerMonth: number | null
  tenantCapTokensPerMonth: number | null
  effectiveMonthlyTokens: number | null
  effectiveDailyTokens: number | null
  effectiveMinuteTokens: number | null
  status: BudgetStatus
}

/** A budget that limits: enabled, else nothing. */
const active = (budget: Budget | null | undefined): Budget | null => (budget?.enabled ? budget : null)

const minOf = (values: (number | null)[]): number | null => {
  const set = values.filter((v): v is number => v !== null)
  return set.length ? Math.min(...set) : null
}

/** The project's cap: its own budget row when it has one (enabled or not), else the installation default. */
export const tenantBudget = (chain: BudgetChain): Budget | null =>
  chain.projectBudget.budget ? active(chain.projectBudget.budget) : active(chain.settingsDefault)

/**
 * Which budgets count for each node type (spec §2.9 chains):
 * - CREDENTIAL: leaf binding, organization chain, application (API proxy) cap, tenant cap. The binding's
 *   budgetSource picks the credential's own level: CREDENTIAL counts the binding's budget and skips the
 *   organizations, ORGANIZATION counts the organizations and skips the binding, INHERIT counts both.
 * - CREDENTIAL_ORGANIZATION: its own budget and its parents', then the tenant cap.
 * - API_PROXY: the application (proxy) budget, then the tenant cap.
 * - PROJECT: the tenant budget only.
 */
export function effectiveLimit(chain: BudgetChain): EffectiveLimit {
  const credentialNode = chain.nodeType === 'CREDENTIAL' || chain.nodeType === 'CREDENTIAL_ALLOWED_API_PROXY'
  const source = chain.binding?.budgetSource ?? 'INHERIT'
  const leaf = credentialNode && source !== 'ORGANIZATION' ? active(chain.binding?.budget) : null
  const orgs = credentialNode && source === 'CREDENTIAL' ? [] : chain.organizations
  const app = chain.nodeType === 'PROJECT' || chain.nodeType === 'CREDENTIAL_ORGANIZATION' ? null : active(chain.apiProxy?.budget)
  const tenant = tenantBudget(chain)

  const counted = [leaf, ...orgs.map((o) => active(o.budget)), app, tenant]
  const pick = (field: 'tokensPerMonth' | 'tokensPerDay' | 'tokensPerMinute') => minOf(counted.map((b) => b?.[field] ?? null))
  const result: Omit<EffectiveLimit, 'status'> = {
    credentialLeafTokensPerMonth: leaf?.tokensPerMonth ?? null,
    orgChain: credentialNode ? orgs.map((o) => ({ orgId: o.id, orgName: o.name, tokensPerMonth: active(o.budget)?.tokensPerMonth ?? null })) : [],
    appCapTokensPerMonth: app?.tokensPerMonth ?? null,
    tenantCapTokensPerMonth: tenant?.tokensPerMonth ?? null,
    effectiveMonthlyTokens: pick('tokensPerMonth'),
    effectiveDailyTokens: pick('tokensPerDay'),
    effectiveMinuteTokens: pick('tokensPerMinute'),
  }
  return { ...result, status: statusOf(chain, result, ownBudget(chain, leaf)) }
}

/** The node's own budget: the one a save on this node writes. */
function ownBudget(chain: BudgetChain, leaf: Budget | null): Budget | null {
  switch (chain.nodeType) {
    case 'CREDENTIAL':
    case 'CREDENTIAL_ALLOWED_API_PROXY':
      return leaf
    case 'CREDENTIAL_ORGANIZATION':
      return active(chain.organizations[0]?.budget)
    case 'API_PROXY':
      return active(chain.apiProxy?.budget)
    case 'PROJECT':
      return tenantBudget(chain)
  }
}

/**
 * LOCKED: nothing can flow through the node (credential disabled or revoked, binding not ACTIVE, an
 * organization on the chain suspended or not ACTIVE). AT_CAPACITY: the node's own limit is clipped by a
 * lower limit above it, so it can never be used up. NORMAL otherwise. The manager keeps no usage counters;
 * runtime enforcement may differ under concurrency (spec §2.9).
 */
function statusOf(chain: BudgetChain, limit: Omit<EffectiveLimit, 'status'>, own: Budget | null): BudgetStatus {
  const lockedCredential = chain.credential && (!chain.credential.enabled || chain.credential.revoked)
  const lockedBinding = chain.binding && chain.binding.status !== 'ACTIVE'
  const lockedOrg = chain.organizations.some((o) => o.suspended || o.state !== 'ACTIVE')
  if (lockedCredential || lockedBinding || lockedOrg) return 'LOCKED'
  if (!own) return 'NORMAL'
  const clipped = (mine: number | null, effective: number | null) => mine !== null && effective !== null && effective < mine
  if (clipped(own.tokensPerMonth, limit.effectiveMonthlyTokens) || clipped(own.tokensPerDay, limit.effectiveDailyTokens) || clipped(own.tokensPerMinute, limit.effectiveMinuteTokens)) {
    return 'AT_CAPACITY'
  }
  return 'NORMAL'
}
