import { z } from 'zod'
import type { LlmModelDefinition } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { findPage, type Page, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { MODALITIES, PROVIDER_TYPE_NAMES } from '../providers/catalog.js'
import { aiAccess, blankToNull, effectiveName, namedPage, nameKeyOf, pushToProject, requireObjectBody, saveNamed, undeployFromProject } from '../common.js'

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish()
const positiveInt = () => z.number().int('must be an integer').min(1, 'must be at least 1').nullish()
const price = () => z.number().min(0, 'must be at least 0').nullish()

/** An ISO 8601 timestamp (the vendor's deprecatedAt, sunsetAt). */
const timestamp = () => z.iso.datetime({ offset: true, error: 'must be an ISO 8601 timestamp' }).nullish()

/**
 * A model catalog entry: the model fields of spec §2.7 and the vendor page's (api-reference/llm-models).
 * Two shapes (docs/llm.md "Model catalog names"): the vendor's, whose `name` is `{providerCode}/{modelId}`
 * (providerCode and modelId required), and the older one without `name`, whose modelId is the name.
 * isDeprecated is writable here, and providers listing the model show it.
 */
export const modelInput = z.strictObject({
  _class: z.unknown().optional(),
  name: z.string().max(401, 'must be at most 401 characters').nullish(),
  providerCode: z.string().trim().max(100, 'must be at most 100 characters').regex(/^[^/\\?#%\u0000-\u001f]*$/, 'must not contain / \\ ? # % or control characters').nullish(),
  providerDefinitionId: text(200),
  modelId: z.string().max(200, 'must be at most 200 characters').nullish(),
  displayName: text(200),
  description: text(1000),
  providerType: z.enum(PROVIDER_TYPE_NAMES, { error: `must be one of ${PROVIDER_TYPE_NAMES.join(', ')}` }).nullish(),
  contextWindow: positiveInt(),
  maxOutputTokens: positiveInt(),
  pricePerMillionInput: price(),
  pricePerMillionOutput: price(),
  pricePerMillionCached: price(),
  pricePerImage: price(),
  pricePerAudioMinute: price(),
  pricePerCharacterTts: price(),
  capabilities: z.array(z.string().trim().min(1, 'must not be blank').max(100)).max(50).nullish(),
  modality: z.enum(MODALITIES, { error: `must be one of ${MODALITIES.join(', ')}` }).nullish(),
  isDeprecated: z.boolean().nullish(),
  deprecatedAt: timestamp(),
  sunsetAt: timestamp(),
  /** only false: built-in catalog entries are not stored per project here */
  builtIn: z.literal(false, { error: 'must be false: built-in catalog entries cannot be written here' }).nullish(),
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
  /** `{providerCode}/{modelId}`, or the modelId for an entry of the older shape */
  name: string
  providerCode: string | null
  providerDefinitionId: string | null
  modelId: string
  displayName: string | null
  description: string | null
  providerType: string | null
  contextWindow: number | null
  maxOutputTokens: number | null
  pricePerMillionInput: number | null
  pricePerMillionOutput: number | null
  pricePerMillionCached: number | null
  pricePerImage: number | null
  pricePerAudioMinute: number | null
  pricePerCharacterTts: number | null
  capabilities: string[]
  modality: string | null
  isDeprecated: boolean
  deprecatedAt: Date | null
  sunsetAt: Date | null
  builtIn: boolean
  createdAt: Date
  updatedAt: Date
}

const viewOf = (row: LlmModelDefinition, projectName: string): ModelView => ({
  id: row.id,
  projectId: row.projectId,
  projectName,
  name: row.name,
  providerCode: row.providerCode,
  providerDefinitionId: row.providerDefinitionId,
  modelId: row.modelId,
  displayName: row.displayName,
  description: row.description,
  providerType: row.providerType,
  contextWindow: row.contextWindow,
  maxOutputTokens: row.maxOutputTokens,
  pricePerMillionInput: row.pricePerMillionInput,
  pricePerMillionOutput: row.pricePerMillionOutput,
  pricePerMillionCached: row.pricePerMillionCached,
  pricePerImage: row.pricePerImage,
  pricePerAudioMinute: row.pricePerAudioMinute,
  pricePerCharacterTts: row.pricePerCharacterTts,
  capabilities: row.capabilities,
  modality: row.modality,
  isDeprecated: row.isDeprecated,
  deprecatedAt: row.deprecatedAt,
  sunsetAt: row.sunsetAt,
  builtIn: false,
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

/** A part of a catalog name: an object name (no / \\ ? # % or control characters, at most 200). */
const NAME_PART = /^[^/\\?#%\u0000-\u001f]{1,200}$/

/**
 * A catalog name from the path: an object name, or the vendor's `{providerCode}/{modelId}` (one '/', sent
 * percent-encoded as %2F in the path), each part an object name.
 */
export function catalogName(value: string | undefined, field = 'name'): string {
  const v = (value ?? '').trim()
  const parts = v.split('/')
  if (parts.length > 2 || !parts.every((p) => NAME_PART.test(p) && p.trim() !== '')) {
    throw malformed(`${field}: must be a name without \\ ? # % or control characters, or {providerCode}/{modelId} (one '/'), each part at most 200 characters`, { field })
  }
  return v
}

const findModel = (db: Deps['prisma'], projectId: string, name: string) =>
  db.llmModelDefinition.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(name) } } })

/**
 * The name rules of a write, in order. With a body `name` (the vendor's shape): it must equal the path name
 * (case-insensitive), providerCode and modelId are required, and a name with a '/' must be exactly
 * `{providerCode}/{modelId}`. Without one (the older shape): the modelId is the name, required on create and
 * equal to the path; blank on update falls back to the path.
 */
function namesOf(input: z.output<typeof modelInput>, pathValue: string, mode: 'upsert' | 'update'): { name: string; modelId: string; providerCode: string | null } {
  const given = input.name?.trim()
  if (!given) {
    if (pathValue.includes('/')) throw malformed(`name is required with a '/' in the path: {providerCode}/{modelId} names an entry of the vendor's shape`, { field: 'name' })
    const modelId = effectiveName(input.modelId, pathValue, mode === 'upsert', 'modelId')
    return { name: modelId, modelId, providerCode: blankToNull(input.providerCode) }
  }
  if (nameKeyOf(given) !== nameKeyOf(pathValue)) throw malformed(`name '${given}' does not match the name in the path '${pathValue}'`, { field: 'name', path: pathValue, body: given })
  const name = catalogName(given, 'name')
  const providerCode = blankToNull(input.providerCode)
  const modelId = blankToNull(input.modelId)
  if (!providerCode || !modelId) throw malformed('providerCode and modelId are required', { field: providerCode ? 'modelId' : 'providerCode' })
  if (name.includes('/') && nameKeyOf(name) !== nameKeyOf(`${providerCode}/${modelId}`)) {
    throw malformed(`name '${name}' must be {providerCode}/{modelId} ('${providerCode}/${modelId}')`, { field: 'name', expected: `${providerCode}/${modelId}` })
  }
  return { name, modelId, providerCode }
}

/** POST (upsert) and PUT (must exist). Full replacement. The name rules: namesOf. */
export async function saveModel(deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown, mode: 'upsert' | 'update'): Promise<ModelWrite> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const pathValue = catalogName(rawPathName, 'name')
  const body = requireObjectBody(raw)
  const current = await findModel(deps.prisma, access.project.id, pathValue)
  if (mode === 'update' && !current) throw modelNotFound(pathValue, access.project.name)
  const input = parseInput(modelInput, body)
  const { name, modelId, providerCode } = namesOf(input, pathValue, mode)
  const data = {
    name,
    modelId,
    providerCode,
    providerDefinitionId: blankToNull(input.providerDefinitionId),
    displayName: blankToNull(input.displayName),
    description: blankToNull(input.description),
    providerType: input.providerType ?? null,
    contextWindow: input.contextWindow ?? null,
    maxOutputTokens: input.maxOutputTokens ?? null,
    pricePerMillionInput: input.pricePerMillionInput ?? null,
    pricePerMillionOutput: input.pricePerMillionOutput ?? null,
    pricePerMillionCached: input.pricePerMillionCached ?? null,
    pricePerImage: input.pricePerImage ?? null,
    pricePerAudioMinute: input.pricePerAudioMinute ?? null,
    pricePerCharacterTts: input.pricePerCharacterTts ?? null,
    capabilities: [...new Set(input.capabilities ?? [])],
    modality: input.modality ?? null,
    isDeprecated: input.isDeprecated ?? false,
    deprecatedAt: input.deprecatedAt ? new Date(input.deprecatedAt) : null,
    sunsetAt: input.sunsetAt ? new Date(input.sunsetAt) : null,
  }
  const row = await saveNamed('Model', name, () =>
    current
      ? deps.prisma.llmModelDefinition.update({ where: { id: current.id }, data: { ...data, revision: { increment: 1 } } })
      : deps.prisma.llmModelDefinition.create({ data: { ...data, nameKey: nameKeyOf(name), projectId: access.project.id } }),
  )
  const model = viewOf(row, access.project.name)
  const deploymentResult = await pushToProject(deps, access, { action: 'DEPLOY', kind: 'LLM_MODEL', name: row.name, revision: row.revision, config: model })
  return { model, deploymentResult }
}

export async function deleteModel(deps: Deps, actor: Actor, projectName: string, name: string): Promise<{ deploymentResult: DeploymentOutcome }> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const row = await findModel(deps.prisma, access.project.id, name)
  if (!row) throw modelNotFound(name, access.project.name)
  await deps.prisma.llmModelDefinition.delete({ where: { id: row.id } })
  const deploymentResult = await undeployFromProject(deps, access, 'LLM_MODEL', row, row.name)
  return { deploymentResult }
}
