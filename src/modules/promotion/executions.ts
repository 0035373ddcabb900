import { z } from 'zod'
import type { Prisma, PromotionExecution } from '../../generated/prisma/client.js'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import type { Deps, Tx } from '../../platform/context.js'
import { malformed, malformedReason, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { requirePermission } from '../../platform/auth/permissions.js'
import { analysePackage, transferContext } from '../transfer/analysis.js'
import { buildPackage } from '../transfer/build.js'
import { checkImportable, importAnalysed } from '../transfer/import.js'
import { resolveSelection } from '../transfer/selection.js'

// Promotion executions (the Promotion tag of the vendor's openapi.yaml, which shows no request body: the fields below
// are ours, and the spec has no such operation). One execution carries API proxies from a source project to a target
// project of this installation with the transfer engine, step for step as a client would: the selection of an export
// (its exportDigest), the package built in memory (secrets CIPHERTEXT_VERBATIM), the preflight in the target (its
// preflightDigest), the import in ONE transaction. EXPORT_IMPORT (API_MANAGEMENT or PROJECT_MANAGEMENT) is needed in
// both projects, as for an export there and an import here. Nothing is deployed (the import never deploys).

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')

export const executionInput = z
  .object({
    sourceProjectName: objectName.describe('the project the proxies come from'),
    targetProjectName: objectName.describe('the project they are written to'),
    apiProxyNames: z.array(objectName).min(1, 'needs at least one API proxy').max(100, 'at most 100 API proxies'),
    withDependencies: z.boolean().default(false).describe('also carry the keys, certificates, connections and IP groups the proxies name'),
    conflictPolicy: z.enum(['NEW', 'REPLACE'], { error: 'must be NEW or REPLACE' }).default('REPLACE').describe('REPLACE (default): a proxy of the same name in the target is overwritten; NEW: refused'),
    environmentMapping: z.record(z.string(), z.string().trim().min(1, 'must name an environment')).default({}),
    executionName: text(200).nullish(),
    executionDescription: text(2000).nullish(),
    executionNotes: text(10_000).nullish(),
  })
  .strict()
  .meta({ id: 'PromotionExecutionInput' })

/** The target project an execution body names, for the access decision (undefined when it names none). */
export function targetProjectNamed(body: unknown): string | undefined {
  const name = body && typeof body === 'object' ? (body as { targetProjectName?: unknown }).targetProjectName : undefined
  return typeof name === 'string' && name.trim() ? name.trim() : undefined
}

const executionNotFound = (id: string) => notFound(`Promotion execution '${id}' not found`, { executionId: id })

/** The vendor's PromotionExecution fields (instances, mappings and approvals are not ours: null) and what the run did. */
export function executionView(e: PromotionExecution) {
  const result = e.result as { imported?: { name: string; type: string }[] } & Record<string, unknown>
  const names = (result.imported ?? []).filter((o) => o.type === 'API_PROXY').map((o) => o.name)
  return {
    id: e.id,
    executionId: e.id,
    executionStatus: e.status,
    mappingId: null,
    mappingName: null,
    sourceInstanceId: null,
    sourceInstanceName: null,
    sourceInstanceColor: null,
    targetInstanceId: null,
    targetInstanceName: null,
    targetInstanceColor: null,
    sourceProjectName: e.sourceProjectName,
    targetProjectName: e.targetProjectName,
    sourceApiName: names.join(', ') || null,
    targetApiName: names.join(', ') || null,
    approvalRequired: false,
    approvedBy: null,
    approvedAt: null,
    scheduledAt: null,
    progress: e.status === 'COMPLETED' ? 100 : 0,
    currentStep: e.totalSteps,
    totalSteps: e.totalSteps,
    executionName: e.executionName,
    executionDescription: e.executionDescription,
    executionNotes: e.executionNotes,
    executedBy: e.executedBy,
    startedAt: e.startedAt.toISOString(),
    completedAt: e.completedAt?.toISOString() ?? null,
    errorMessage: null,
    errorDetail: null,
    result,
  }
}
export type ExecutionView = ReturnType<typeof executionView>

/** POST /apiops/promotion/executions: runs the promotion and keeps the execution. A refusal writes nothing. */
export async function runPromotionExecution(deps: Deps, actor: Actor, raw: unknown): Promise<ExecutionView> {
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const body = parseInput(executionInput, raw)
  if (body.sourceProjectName === body.targetProjectName) {
    throw malformedReason('promotionSameProject', 'targetProjectName: must differ from sourceProjectName', { field: 'targetProjectName' })
  }
  const startedAt = new Date()
  const target = await transferContext(deps, actor, body.targetProjectName)
  const source = await transferContext(deps, actor, body.sourceProjectName)
  const selection = await resolveSelection(source, { type: 'API_PROXY', names: body.apiProxyNames, kind: null, withDependencies: body.withDependencies })
  const pkg = await buildPackage(source, selection, { passphrase: null, secretHandling: 'CIPHERTEXT_VERBATIM' })
  const analysis = await analysePackage(target, { bytes: pkg.bytes, passphrase: null }, 'API_PROXY')
  const options = { conflictPolicy: body.conflictPolicy, environmentMapping: body.environmentMapping, certEnvironmentMergeMethod: 'MATCH_BY_NAME' as const, certEnvironmentUncoveredAction: 'FILL_FROM_PACKAGE' as const, acknowledgeChecksumMismatch: false }
  const advisories = checkImportable(actor, analysis, options)
  const imported = await importAnalysed(deps, target, analysis, options, advisories)
  const execution = await deps.prisma.promotionExecution.create({
    data: {
      projectId: target.access.project.id,
      sourceProjectName: source.access.project.name,
      targetProjectName: target.access.project.name,
      status: 'COMPLETED',
      executionName: body.executionName ?? null,
      executionDescription: body.executionDescription ?? null,
      executionNotes: body.executionNotes ?? null,
      executedBy: actorName(actor),
      totalSteps: imported.imported.length,
      result: JSON.parse(JSON.stringify({ type: 'API_PROXY', conflictPolicy: body.conflictPolicy, exportDigest: pkg.exportDigest, preflightDigest: analysis.preflightDigest, imported: imported.imported, advisories: imported.advisories, unresolvedReferences: imported.unresolvedReferences })) as Prisma.InputJsonValue,
      startedAt,
      completedAt: new Date(),
    },
  })
  return executionView(execution)
}

/** The target project's name of an execution, for the access decision; undefined when there is no such execution. */
export async function executionProjectName(db: Tx, id: string): Promise<string | undefined> {
  const e = await db.promotionExecution.findUnique({ where: { id }, select: { targetProjectName: true, projectId: true } })
  if (!e) return undefined
  const project = await db.project.findUnique({ where: { id: e.projectId }, select: { name: true } })
  return project?.name
}

/** GET /apiops/promotion/executions/{executionId}: API_MANAGEMENT VIEW in the target project; otherwise not found. */
export async function getPromotionExecution(deps: Deps, actor: Actor, id: string): Promise<ExecutionView> {
  const execution = await deps.prisma.promotionExecution.findUnique({ where: { id } })
  if (!execution) throw executionNotFound(id)
  const project = await deps.prisma.project.findUnique({ where: { id: execution.projectId }, select: { name: true } })
  if (!project) throw executionNotFound(id)
  const access = await resolveProjectAccess(deps.prisma, actor, project.name).catch(() => {
    throw executionNotFound(id)
  })
  requirePermission(access, 'API_MANAGEMENT', 'VIEW')
  return executionView(execution)
}

export { executionNotFound }
