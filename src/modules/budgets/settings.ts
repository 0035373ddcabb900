import { z } from 'zod'
import type { AiGatewaySettings, Prisma } from '../../generated/prisma/client.js'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Deps, Tx } from '../../platform/context.js'
import { installationEnvironments } from '../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { budgetInput, DISABLED_BUDGET, mergeBudget, storedBudget, type Budget } from './budget-object.js'
import { checkProviderRefs, checkUsdPrices, type BudgetToCheck } from './price-check.js'

// AI gateway settings (spec §2.8, §4.6): an installation-wide singleton for system administrators.

const CURRENT = 'current'
/** Kind of the runtime push (RUNTIME.md §4); the settings belong to no project. */
export const AI_SETTINGS_KIND = 'AI_GATEWAY_SETTINGS'

/** Spec §2.8: defaults and bounds, one place. */
export const AI_SETTINGS_BOUNDS = {
  defaultConnectTimeoutSeconds: { default: 10, min: 1, max: 300 },
  defaultStreamTimeoutSeconds: { default: 120, min: 1, max: 3600 },
  defaultRetryCount: { default: 0, min: 0, max: 10 },
  maxAiRequestBodyBytes: { default: 10_485_760, min: 1, max: 1_073_741_824 },
  maxAiBinaryRequestBodyBytes: { default: 26_214_400, min: 1, max: 1_073_741_824 },
  maxAiBinaryResponseBodyBytes: { default: 26_214_400, min: 1, max: 1_073_741_824 },
} as const
export const MAX_TOOL_TURNS = 100
export const DEFAULT_MAX_TOOL_TURNS = 5
/** the column is a 32-bit integer; any value at or below 0 disables the agentic loop */
const INT32_MIN = -2_147_483_648

const bounded = ({ min, max }: { min: number; max: number }) => {
  const message = `must be an integer between ${min} and ${max}`
  return z.int(message).min(min, message).max(max, message).nullish()
}

/** The PUT body: every field optional; omitted or null keeps the stored value. */
export const aiSettingsUpdate = z.strictObject(
  {
    defaultConnectTimeoutSeconds: bounded(AI_SETTINGS_BOUNDS.defaultConnectTimeoutSeconds),
    defaultStreamTimeoutSeconds: bounded(AI_SETTINGS_BOUNDS.defaultStreamTimeoutSeconds),
    defaultRetryCount: bounded(AI_SETTINGS_BOUNDS.defaultRetryCount),
    maxAiRequestBodyBytes: bounded(AI_SETTINGS_BOUNDS.maxAiRequestBodyBytes),
    maxAiBinaryRequestBodyBytes: bounded(AI_SETTINGS_BOUNDS.maxAiBinaryRequestBodyBytes),
    maxAiBinaryResponseBodyBytes: bounded(AI_SETTINGS_BOUNDS.maxAiBinaryResponseBodyBytes),
    maxToolTurns: z
      .int(`must be an integer of at most ${MAX_TOOL_TURNS} (0 or below disables the agentic loop)`)
      .max(MAX_TOOL_TURNS, `must be at most ${MAX_TOOL_TURNS} (0 or below disables the agentic loop)`)
      .min(INT32_MIN, `must be at least ${INT32_MIN}`)
      .nullish(),
    defaultBudget: budgetInput.nullish(),
    defaultAnonymousBudget: budgetInput.nullish(),
  },
  { error: 'Request body must be a JSON object with at least one AI gateway setting' },
)
export type AiSettingsUpdate = z.input<typeof aiSettingsUpdate>

/** The full effective settings document (what GET and PUT answer). */
export interface AiSettingsView {
  defaultConnectTimeoutSeconds: number
  defaultStreamTimeoutSeconds: number
  defaultRetryCount: number
  maxAiRequestBodyBytes: number
  maxAiBinaryRequestBodyBytes: number
  maxAiBinaryResponseBodyBytes: number
  maxToolTurns: number
  /** derived: false when maxToolTurns is 0 or below */
  agenticLoopEnabled: boolean
  defaultBudget: Budget
  defaultAnonymousBudget: Budget
  revision: number
  updatedAt: Date | null
  updatedBy: string | null
}

export interface AiSettingsWrite { settings: AiSettingsView; deploymentResult: DeploymentOutcome }

function viewOf(row: AiGatewaySettings | null): AiSettingsView {
  const d = AI_SETTINGS_BOUNDS
  const maxToolTurns = row?.maxToolTurns ?? DEFAULT_MAX_TOOL_TURNS
  return {
    defaultConnectTimeoutSeconds: row?.defaultConnectTimeoutSeconds ?? d.defaultConnectTimeoutSeconds.default,
    defaultStreamTimeoutSeconds: row?.defaultStreamTimeoutSeconds ?? d.defaultStreamTimeoutSeconds.default,
    defaultRetryCount: row?.defaultRetryCount ?? d.defaultRetryCount.default,
    maxAiRequestBodyBytes: row?.maxAiRequestBodyBytes ?? d.maxAiRequestBodyBytes.default,
    maxAiBinaryRequestBodyBytes: row?.maxAiBinaryRequestBodyBytes ?? d.maxAiBinaryRequestBodyBytes.default,
    maxAiBinaryResponseBodyBytes: row?.maxAiBinaryResponseBodyBytes ?? d.maxAiBinaryResponseBodyBytes.default,
    maxToolTurns,
    agenticLoopEnabled: maxToolTurns > 0,
    defaultBudget: storedBudget(row?.defaultBudget) ?? DISABLED_BUDGET,
    defaultAnonymousBudget: storedBudget(row?.defaultAnonymousBudget) ?? DISABLED_BUDGET,
    revision: row?.revision ?? 0,
    updatedAt: row?.updatedAt ?? null,
    updatedBy: row?.updatedBy ?? null,
  }
}

/** The effective settings without a permission check: the budget chain reads the default budget. */
export async function readAiSettings(db: Tx): Promise<AiSettingsView> {
  return viewOf(await db.aiGatewaySettings.findUnique({ where: { id: CURRENT } }))
}

export async function getAiSettings(db: Tx, actor: Actor): Promise<AiSettingsView> {
  requireSystemAdmin(actor)
  return readAiSettings(db)
}

/**
 * PUT /apiops/settings/ai-gateway: partial update (omitted or null keeps the stored value, at least one
 * value required), bounds of §2.8, the USD price check over the default budgets written (covering every
 * project's models: the defaults apply installation-wide); then pushed to every environment.
 */
export async function updateAiSettings(deps: Deps, actor: Actor, raw: unknown): Promise<AiSettingsWrite> {
  requireSystemAdmin(actor)
  if (raw === null || raw === undefined) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const input = parseInput(aiSettingsUpdate, raw)
  const given = Object.entries(input).filter(([, v]) => v !== null && v !== undefined)
  if (!given.length) throw malformed('Request body must carry at least one AI gateway setting with a value', { reason: 'bodyRequired' })

  const current = await readAiSettings(deps.prisma)
  const data: Prisma.AiGatewaySettingsUncheckedCreateInput = { ...scalarsOf(current), updatedBy: actorName(actor) }
  for (const key of Object.keys(AI_SETTINGS_BOUNDS) as (keyof typeof AI_SETTINGS_BOUNDS)[]) {
    const value = input[key]
    if (value !== null && value !== undefined) data[key] = value
  }
  if (input.maxToolTurns !== null && input.maxToolTurns !== undefined) data.maxToolTurns = input.maxToolTurns

  const checks: BudgetToCheck[] = []
  const projectIds = (await deps.prisma.project.findMany({ select: { id: true } })).map((p) => p.id)
  for (const field of ['defaultBudget', 'defaultAnonymousBudget'] as const) {
    const sent = input[field]
    if (!sent) continue
    const budget = mergeBudget(sent, current[field])
    if (sent.providerBudgets) await checkProviderRefs(deps.prisma, field, budget, null)
    checks.push({ field, budget, projectIds })
    data[field] = budget as unknown as Prisma.InputJsonValue
  }
  await checkUsdPrices(deps.prisma, checks)

  const { id: _id, ...update } = data
  const row = await deps.prisma.aiGatewaySettings.upsert({
    where: { id: CURRENT },
    create: { ...data, id: CURRENT },
    update: { ...update, revision: { increment: 1 } },
  })
  const settings = viewOf(row)
  const deploymentResult = await deps.deployer.push(await installationEnvironments(deps.prisma), {
    action: 'DEPLOY',
    project: '',
    kind: AI_SETTINGS_KIND,
    name: 'ai-gateway',
    revision: settings.revision,
    config: runtimeConfig(settings),
  })
  return { settings, deploymentResult }
}

function scalarsOf(v: AiSettingsView) {
  return {
    defaultConnectTimeoutSeconds: v.defaultConnectTimeoutSeconds,
    defaultStreamTimeoutSeconds: v.defaultStreamTimeoutSeconds,
    defaultRetryCount: v.defaultRetryCount,
    maxAiRequestBodyBytes: v.maxAiRequestBodyBytes,
    maxAiBinaryRequestBodyBytes: v.maxAiBinaryRequestBodyBytes,
    maxAiBinaryResponseBodyBytes: v.maxAiBinaryResponseBodyBytes,
    maxToolTurns: v.maxToolTurns,
  }
}

/** What the gateway receives: the effective document without bookkeeping. */
const runtimeConfig = ({ revision: _r, updatedAt: _u, updatedBy: _b, ...rest }: AiSettingsView) => rest
