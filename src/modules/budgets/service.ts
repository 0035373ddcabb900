import { z } from 'zod'
import type { AiBudget, Prisma } from '../../generated/prisma/client.js'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import type { PermissionLevel, ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { budgetInput, mergeBudget, storedBudget, type Budget } from './budget-object.js'
import { BUDGET_SOURCES, NODE_TYPES, resolveBudgetChain, TARGET_TYPES, type BudgetChain, type BudgetSource, type TargetType } from './chain.js'
import { effectiveLimit, type EffectiveLimit } from './effective.js'
import { checkProviderRefs, checkUsdPrices } from './price-check.js'

// AI budgets (spec §2.9, §4.5): one budget per target, written by PUT …/ai-budgets/, previewed along the
// chain resolved by chain.ts. Permission AI_BUDGETS with VIEW (reads) or MANAGE (writes).

export const AI_BUDGETS = 'AI_BUDGETS'
/** Kind of the project redeploy a PROJECT budget triggers (RUNTIME.md §4). */
export const PROJECT_KIND = 'PROJECT'

export const budgetAccess = (db: Tx, actor: Actor, projectName: string, level: PermissionLevel) =>
  authorizeInProject(db, actor, projectName, AI_BUDGETS, level)

const blank = (input: unknown) => input === undefined || input === null || (typeof input === 'string' && !input.trim())
const requiredOr = (otherwise: string) => ({ error: (issue: { input: unknown }) => (blank(issue.input) ? 'is required' : otherwise) })

/** The update body of spec §2.9. targetProjectId is accepted and ignored: the path project wins. */
export const budgetUpdate = z.strictObject(
  {
    targetType: z.enum(TARGET_TYPES, requiredOr(`must be one of ${TARGET_TYPES.join(', ')}`)),
    targetId: z.string(requiredOr('must be a string')).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
    targetProjectId: z.string().nullish(),
    budgetSource: z.enum(BUDGET_SOURCES, { error: `must be one of ${BUDGET_SOURCES.join(', ')}` }).nullish(),
    budget: budgetInput,
  },
  { error: 'Request body must be a JSON object with targetType, targetId and budget' },
)
export type BudgetUpdate = z.input<typeof budgetUpdate>

/** The resulting budget (update-body shape, every default applied), as PUT answers and reads show it. */
export interface BudgetView {
  targetType: TargetType
  targetId: string
  targetName: string
  targetProjectId: string
  budgetSource: BudgetSource | null
  budget: Budget
  revision: number
  updatedAt: Date
  updatedBy: string
}

export interface BudgetWrite { budget: BudgetView; deploymentResult: DeploymentOutcome | null }

export const budgetView = (row: AiBudget, targetName: string): BudgetView => ({
  targetType: row.targetType,
  targetId: row.targetId,
  targetName,
  targetProjectId: row.projectId,
  budgetSource: row.budgetSource,
  budget: storedBudget(row.budget)!,
  revision: row.revision,
  updatedAt: row.updatedAt,
  updatedBy: row.updatedBy,
})

/** The entity a target names, found through the one chain resolver: what it is called and whose models it covers. */
function targetOf(chain: BudgetChain, type: TargetType) {
  switch (type) {
    case 'PROJECT':
      return { name: chain.project.name, stored: chain.projectBudget.budget }
    case 'API_PROXY':
      return { name: chain.apiProxy!.name, stored: chain.apiProxy!.budget }
    case 'CREDENTIAL_ORGANIZATION':
      return { name: chain.organizations[0].name, stored: chain.organizations[0].budget }
    case 'CREDENTIAL_ALLOWED_API_PROXY':
      return { name: chain.binding!.name, stored: chain.binding!.budget }
  }
}

/**
 * PUT …/ai-budgets/: validates the body (bounds, at most 50 overrides per list), resolves the target in
 * the path project, merges the override lists (absent or null keeps, [] wipes), runs the USD price check
 * for project and proxy budgets, saves, and for a PROJECT target redeploys the project.
 */
export async function updateBudget(deps: Deps, actor: Actor, projectName: string, raw: unknown): Promise<BudgetWrite> {
  const access = await budgetAccess(deps.prisma, actor, projectName, 'MANAGE')
  if (raw === null || raw === undefined || (typeof raw === 'object' && !Array.isArray(raw) && !Object.keys(raw).length)) {
    throw malformed('Request body is required: targetType, targetId and budget', { reason: 'bodyRequired' })
  }
  const { row, targetName, input } = await deps.prisma.$transaction((tx) => saveBudgetIn(tx, actor, access, raw), { maxWait: 10_000, timeout: 20_000 })
  const view = budgetView(row, targetName)
  const deploymentResult = input.targetType === 'PROJECT' ? await redeployProject(deps, access, view) : null
  return { budget: view, deploymentResult }
}

/**
 * The save of an update body in `tx` (PUT's transaction, or a declarative apply's): validated, the target resolved in
 * the project, the override lists merged, provider references and USD prices checked, saved. Does not push: a PROJECT
 * target is redeployed after the commit (redeployProjectBudget).
 */
export async function saveBudgetIn(tx: Tx, actor: Actor, access: ProjectAccess, raw: unknown) {
  const input = parseInput(budgetUpdate, raw)
  if (input.budgetSource && input.targetType !== 'CREDENTIAL_ALLOWED_API_PROXY') {
    throw malformed('budgetSource: only allowed for target type CREDENTIAL_ALLOWED_API_PROXY', { field: 'budgetSource' })
  }
  // the merge reads the stored lists: saves on one target run one after another, else one keeps a stale list
  await lockTarget(tx, input.targetType, input.targetId)
  const chain = await resolveTarget(tx, access, input.targetType, input.targetId)
  const target = targetOf(chain, input.targetType)
  const budget = mergeBudget(input.budget, target.stored)
  if (input.budget.providerBudgets) await checkProviderRefs(tx, 'budget', budget, [access.project.id])
  // organization and binding budgets are not price-checked at save time (spec §7.1)
  if (input.targetType === 'PROJECT' || input.targetType === 'API_PROXY') {
    await checkUsdPrices(tx, [{ field: 'budget', budget, projectIds: [access.project.id] }])
  }
  return { row: await saveBudget(tx, actor, access, input, budget), targetName: target.name, input }
}

/** After a PROJECT budget was saved (a declarative apply): the project's AI budget pushed, as PUT pushes it. */
export async function redeployProjectBudget(deps: Deps, access: ProjectAccess): Promise<DeploymentOutcome | null> {
  const row = await deps.prisma.aiBudget.findUnique({ where: { targetType_targetId: { targetType: 'PROJECT', targetId: access.project.id } } })
  return row ? redeployProject(deps, access, budgetView(row, access.project.name)) : null
}

/** A transaction-scoped advisory lock on one budget target (the row may not exist yet, so no row lock). */
const lockTarget = (tx: Tx, targetType: TargetType, targetId: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('AiBudget'), hashtext(${`${targetType}:${targetId}`}::text))`

function saveBudget(tx: Tx, actor: Actor, access: ProjectAccess, input: z.output<typeof budgetUpdate>, budget: Budget) {
  const binding = input.targetType === 'CREDENTIAL_ALLOWED_API_PROXY'
  const json = budget as unknown as Prisma.InputJsonValue
  return tx.aiBudget.upsert({
    where: { targetType_targetId: { targetType: input.targetType, targetId: input.targetId } },
    create: {
      projectId: access.project.id,
      targetType: input.targetType,
      targetId: input.targetId,
      budgetSource: binding ? (input.budgetSource ?? 'INHERIT') : null,
      budget: json,
      updatedBy: actorName(actor),
    },
    update: {
      budget: json,
      // null leaves the binding's source unchanged
      ...(binding && input.budgetSource ? { budgetSource: input.budgetSource } : {}),
      revision: { increment: 1 },
      updatedBy: actorName(actor),
    },
  })
}

/** A target resolves through the chain resolver; an unknown or foreign id is a 400 naming it. */
function resolveTarget(db: Tx, access: ProjectAccess, targetType: TargetType, targetId: string) {
  return resolveBudgetChain(db, access.project, targetType, targetId).catch((err: unknown) => {
    if (!(err instanceof DomainError)) throw err
    throw malformed(`targetId: no ${targetType} with id '${targetId}' in project '${access.project.name}'`, { field: 'targetId', targetType, targetId })
  })
}

/** A PROJECT budget changes what every gateway of the project enforces: push the project's AI budget. */
async function redeployProject(deps: Deps, access: ProjectAccess, view: BudgetView): Promise<DeploymentOutcome> {
  return deps.deployer.push(await projectEnvironments(deps.prisma, access.project.id), {
    action: 'DEPLOY',
    project: access.project.name,
    kind: PROJECT_KIND,
    name: access.project.name,
    revision: view.revision,
    config: { aiBudget: view.budget },
  })
}

/** One target's budget (GraphQL read); null when none was saved. */
export async function getBudget(db: Tx, actor: Actor, projectName: string, targetType: string, targetId: string): Promise<BudgetView | null> {
  const access = await budgetAccess(db, actor, projectName, 'VIEW')
  if (!(TARGET_TYPES as readonly string[]).includes(targetType)) throw malformed(`targetType: must be one of ${TARGET_TYPES.join(', ')}`, { field: 'targetType' })
  const chain = await resolveTarget(db, access, targetType as TargetType, targetId)
  const row = await db.aiBudget.findUnique({ where: { targetType_targetId: { targetType: targetType as TargetType, targetId } } })
  return row ? budgetView(row, targetOf(chain, targetType as TargetType).name) : null
}

/** GET …/hierarchy/{nodeType}/{nodeId}/effective-limit/: nodeType is case-sensitive; an unresolvable node is a 400. */
export async function budgetEffectiveLimit(db: Tx, actor: Actor, projectName: string, nodeType: string, nodeId: string): Promise<EffectiveLimit> {
  const access = await budgetAccess(db, actor, projectName, 'VIEW')
  if (!(NODE_TYPES as readonly string[]).includes(nodeType)) {
    throw malformed(`nodeType '${nodeType}' is not supported: use one of ${NODE_TYPES.join(', ')}`, { field: 'nodeType' })
  }
  return effectiveLimit(await resolveBudgetChain(db, access.project, nodeType, nodeId))
}
