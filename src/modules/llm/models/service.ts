import { z } from 'zod'
import type { LlmModelDefinition } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { findPage, type Page, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { MODALITIES, PROVIDER_TYPE_NAMES } from '../providers/catalog.js'
import { aiAccess, blankToNull, namedPage, nameKeyOf, openNamedWrite, pushToProject, saveNamed, undeployFromProject } from '../common.js'

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish()
const positiveInt = () => z.number().int('must be an integer').min(1, 'must be at least 1').nullish()
const price = () => z.number().min(0, 'must be at least 0').nullish()

/**
 * A model catalog entry: the model fields of spec §2.7. Its name is the modelId (the path segment);
 * isDeprecated is writable here, and providers listing the model show it.
 */
export const modelInput = z.strictObject({
  _class: z.unknown().optional(),
  modelId: z.string().nullish(),
  displayName: text(200),
  description: text(1000),
  providerType: z.enum(PROVIDER_TYPE_NAMES, { error: `must be one of ${PROVIDER_TYPE_NAMES.join(', ')}` }).nullish(),
  contextWindow: positiveInt(),
  maxOutputTokens: positiveInt(),
  pricePerMillionInput: price(),
  pricePerMillionOutput: price(),
  pricePerMillionCached: price(),
  capabilities: z.array(z.string().trim().min(1, 'must not be blank').max(100)).max(50).nullish(),
  modality: z.enum(MODALITIES, { error: `must be one of ${MODALITIES.join(', ')}` }).nullish(),
  isDeprecated: z.boolean().nullish(),
  id: z.unknown().optional(),
  projectId: z.unknown().optional(),
  projectName: z.unknown().optional(),
  createdAt: z.unknown().optional(),
  updatedAt: z.unknown().optional(),
})

export interface ModelView {
  id: string
  projectId: string
  projectName: string
  modelId: string
  displayName: string | null
  description: string | null
  providerType: string | null
  contextWindow: number | null
  maxOutputTokens: number | null
  pricePerMillionInput: number | null
  pricePerMillionOutput: number | null
  pricePerMillionCached: number | null
  capabilities: string[]
  modality: string | null
  isDeprecated: boolean
  createdAt: Date
  updatedAt: Date
}

const viewOf = (row: LlmModelDefinition, projectName: string): ModelView => ({
  id: row.id,
  projectId: row.projectId,
  projectName,
  modelId: row.modelId,
  displayName: row.displayName,
  description: row.description,
  providerType: row.providerType,
  contextWindow: row.contextWindow,
  maxOutputTokens: row.maxOutputTokens,
  pricePerMillionInput: row.pricePerMillionInput,
  pricePerMillionOutput: row.pricePerMillionOutput,
  pricePerMillionCached: row.pricePerMillionCached,
  capabilities: row.capabilities,
  modality: row.modality,
  isDeprecated: row.isDeprecated,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
})

const modelNotFound = (name: string, projectName: string) => notFound(`Model '${name}' not found in the model catalog of project '${projectName}'`, { model: name })

export async function listModels(deps: Deps, actor: Actor, projectName: string): Promise<ModelView[]> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const rows = await deps.prisma.llmModelDefinition.findMany({ where: { projectId: access.project.id }, orderBy: { nameKey: 'asc' } })
  return rows.map((r) => viewOf(r, access.project.name))
}

const MODEL_SORT = { defaultSort: 'modelId,asc', supported: ['modelId', 'pricePerMillionInput', 'createdAt', 'updatedAt'] }

/** A page of the model catalog (the GraphQL list). */
export async function pageModels(deps: Deps, actor: Actor, projectName: string, paging: PagingQuery): Promise<Page<ModelView>> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const { request, ...window } = namedPage(paging, MODEL_SORT, { modelId: 'nameKey' })
  const where = { projectId: access.project.id }
  const page = await findPage(request, deps.prisma.llmModelDefinition.findMany({ where, ...window }), deps.prisma.llmModelDefinition.count({ where }))
  return { ...page, items: page.items.map((r) => viewOf(r, access.project.name)) }
}

export async function getModel(deps: Deps, actor: Actor, projectName: string, name: string): Promise<ModelView> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const row = await deps.prisma.llmModelDefinition.findUnique({ where: { projectId_nameKey: { projectId: access.project.id, nameKey: nameKeyOf(name) } } })
  if (!row) throw modelNotFound(name, access.project.name)
  return viewOf(row, access.project.name)
}

export interface ModelWrite { model: ModelView; deploymentResult: DeploymentOutcome }

/** POST (upsert; modelId required and equal to the path) and PUT (must exist; blank modelId = the path). Full replacement. */
export async function saveModel(deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown, mode: 'upsert' | 'update'): Promise<ModelWrite> {
  const { access, body, current, finalName: modelId } = await openNamedWrite(deps, actor, projectName, rawPathName, raw, mode, {
    nameField: 'modelId',
    find: (projectId, name) => deps.prisma.llmModelDefinition.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(name) } } }),
    notFound: modelNotFound,
  })
  const input = parseInput(modelInput, body)
  const data = {
    modelId,
    displayName: blankToNull(input.displayName),
    description: blankToNull(input.description),
    providerType: input.providerType ?? null,
    contextWindow: input.contextWindow ?? null,
    maxOutputTokens: input.maxOutputTokens ?? null,
    pricePerMillionInput: input.pricePerMillionInput ?? null,
    pricePerMillionOutput: input.pricePerMillionOutput ?? null,
    pricePerMillionCached: input.pricePerMillionCached ?? null,
    capabilities: [...new Set(input.capabilities ?? [])],
    modality: input.modality ?? null,
    isDeprecated: input.isDeprecated ?? false,
  }
  const row = await saveNamed('Model', modelId, () =>
    current
      ? deps.prisma.llmModelDefinition.update({ where: { id: current.id }, data: { ...data, revision: { increment: 1 } } })
      : deps.prisma.llmModelDefinition.create({ data: { ...data, nameKey: nameKeyOf(modelId), projectId: access.project.id } }),
  )
  const model = viewOf(row, access.project.name)
  const deploymentResult = await pushToProject(deps, access, { action: 'DEPLOY', kind: 'LLM_MODEL', name: row.modelId, revision: row.revision, config: model })
  return { model, deploymentResult }
}

export async function deleteModel(deps: Deps, actor: Actor, projectName: string, name: string): Promise<{ deploymentResult: DeploymentOutcome }> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const row = await deps.prisma.llmModelDefinition.findUnique({ where: { projectId_nameKey: { projectId: access.project.id, nameKey: nameKeyOf(name) } } })
  if (!row) throw modelNotFound(name, access.project.name)
  await deps.prisma.llmModelDefinition.delete({ where: { id: row.id } })
  const deploymentResult = await undeployFromProject(deps, access, 'LLM_MODEL', row, row.modelId)
  return { deploymentResult }
}
