import { z } from 'zod'
import type { LlmProvider, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { findPage, type Page, type PagingQuery } from '../../../platform/envelopes/paging.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { headerNameField } from './auth-headers.js'
import {
  AUTH_SCHEMES, builtInDefinitionForType, DEFAULT_PROVIDER_TYPE, DEPLOYMENT_TYPES, MODALITIES, PATH_FIELDS, PROVIDER_TYPE_NAMES, providerTypeEntry,
  REQUEST_TYPES, type DefaultPaths, type ProviderDefinitionValues,
} from './catalog.js'
import {
  aiAccess, blankToNull, deleteUnlessKnowledgeBasesUse, namedPage, nameKeyOf, open, openNamedWrite, pushToProject, saveNamed, sealSecret,
  undeployFromProject,
} from '../common.js'
import { findDefinition } from './definitions.js'
import { aiProxiesUsingProvider } from '../proxy-references.js'
import { resolveProviderUrls, type ResolvedRequest } from './urls.js'

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish()
const positiveInt = () => z.number().int('must be an integer').min(1, 'must be at least 1')
const price = () => z.number().min(0, 'must be at least 0').nullish()
/** accepted on write and ignored (spec §2.7 read-only fields) */
const readOnly = () => z.unknown().optional()

/** A model definition (spec §2.7); isDeprecated is read-only here (it comes from the model catalog). */
export const modelDefinitionInput = z.strictObject({
  modelId: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  displayName: text(200),
  contextWindow: positiveInt().nullish(),
  maxOutputTokens: positiveInt().nullish(),
  pricePerMillionInput: price(),
  pricePerMillionOutput: price(),
  pricePerMillionCached: price(),
  capabilities: z.array(z.string().trim().min(1, 'must not be blank').max(100)).max(50).nullish(),
  modality: z.enum(MODALITIES, { error: `must be one of ${MODALITIES.join(', ')}` }).nullish(),
  isDeprecated: readOnly(),
})
export type ModelDefinitionValues = {
  modelId: string; displayName: string | null; contextWindow: number | null; maxOutputTokens: number | null
  pricePerMillionInput: number | null; pricePerMillionOutput: number | null; pricePerMillionCached: number | null
  capabilities: string[]; modality: string | null
}

const metadataEntry = z.strictObject({
  key: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
  value: z.string().max(10_000).nullish(),
  secret: z.boolean().nullish(),
})

/** The write body of spec §2.7 (after `_class` is checked). Unknown fields are refused; read-only ones ignored. */
export const providerInput = z.strictObject({
  _class: z.literal('llm'),
  name: z.string().nullish(),
  description: text(1000),
  enabled: z.boolean().nullish(),
  providerType: z.enum(PROVIDER_TYPE_NAMES, { error: `must be one of ${PROVIDER_TYPE_NAMES.join(', ')}` }).nullish(),
  endpoint: text(2000),
  apiVersion: text(100),
  organizationId: text(200),
  authScheme: z.enum(AUTH_SCHEMES, { error: `must be one of ${AUTH_SCHEMES.join(', ')}` }).nullish(),
  authHeaderName: headerNameField(),
  apiKey: text(10_000),
  apiSecret: text(10_000),
  region: text(100),
  serviceAccountJson: text(100_000),
  supportedModels: z.array(modelDefinitionInput).max(1000).nullish(),
  providerRpmLimit: positiveInt().nullish(),
  providerTpmLimit: positiveInt().nullish(),
  coldStartRetryEnabled: z.boolean().nullish(),
  deploymentType: z.enum(DEPLOYMENT_TYPES, { error: `must be one of ${DEPLOYMENT_TYPES.join(', ')}` }).nullish(),
  providerDefinitionId: text(200),
  allowedModelIds: z.array(z.string().trim().min(1, 'must not be blank').max(200)).max(1000).nullish(),
  metadata: z.array(metadataEntry).max(200).nullish(),
  id: readOnly(), projectId: readOnly(), projectName: readOnly(), apiKeySet: readOnly(), apiSecretSet: readOnly(), serviceAccountJsonSet: readOnly(),
  wireProtocol: readOnly(), defaultChatCompletionPath: readOnly(), defaultEmbeddingPath: readOnly(), defaultAudioTranscriptionPath: readOnly(),
  defaultAudioSpeechPath: readOnly(), defaultImageGenerationPath: readOnly(), defaultResponsesPath: readOnly(), lastHealthCheckAt: readOnly(),
  healthStatus: readOnly(), lastLatencyMs: readOnly(), builtIn: readOnly(), usedByRefs: readOnly(), resolvedUrls: readOnly(),
  createdAt: readOnly(), updatedAt: readOnly(),
})
export type ProviderInput = z.input<typeof providerInput>

/** How metadata is stored: a secret value only sealed. */
export interface StoredMetadata { key: string; value: string | null; secret: boolean; valueCipher: string | null }

export interface ProviderView extends DefaultPaths {
  _class: 'llm'
  id: string
  projectId: string
  projectName: string
  name: string
  description: string | null
  enabled: boolean
  providerType: string
  endpoint: string
  apiVersion: string | null
  organizationId: string | null
  authScheme: string
  authHeaderName: string | null
  apiKeySet: boolean
  apiSecretSet: boolean
  serviceAccountJsonSet: boolean
  region: string | null
  supportedModels: (ModelDefinitionValues & { isDeprecated: boolean })[]
  providerRpmLimit: number | null
  providerTpmLimit: number | null
  coldStartRetryEnabled: boolean
  deploymentType: string
  providerDefinitionId: string | null
  allowedModelIds: string[]
  metadata: { key: string; value: string | null; secret: boolean }[]
  wireProtocol: string
  lastHealthCheckAt: Date | null
  healthStatus: string
  lastLatencyMs: number | null
  builtIn: boolean
  createdAt: Date
  updatedAt: Date
  usedByRefs?: string[]
}

const pathsOf = (row: DefaultPaths): DefaultPaths =>
  Object.fromEntries(REQUEST_TYPES.map((t) => [PATH_FIELDS[t], row[PATH_FIELDS[t]]])) as DefaultPaths

/** Deprecation flags of the model catalog, for the models providers list (one query per read). */
async function deprecatedModelKeys(db: Tx, projectId: string, rows: LlmProvider[]): Promise<Set<string>> {
  const keys = [...new Set(rows.flatMap((r) => (r.supportedModels as ModelDefinitionValues[]).map((m) => nameKeyOf(m.modelId))))]
  if (!keys.length) return new Set()
  // compared on the catalog entry's modelId (its name may be {providerCode}/{modelId})
  const deprecated = await db.llmModelDefinition.findMany({ where: { projectId, isDeprecated: true }, select: { modelId: true } })
  const wanted = new Set(keys)
  return new Set(deprecated.map((d) => nameKeyOf(d.modelId)).filter((k) => wanted.has(k)))
}

function viewOf(row: LlmProvider, projectName: string, deprecated: Set<string>): ProviderView {
  return {
    _class: 'llm',
    id: row.id,
    projectId: row.projectId,
    projectName,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    providerType: row.providerType,
    endpoint: row.endpoint,
    apiVersion: row.apiVersion,
    organizationId: row.organizationId,
    authScheme: row.authScheme,
    authHeaderName: row.authHeaderName,
    apiKeySet: row.apiKeyCipher !== null,
    apiSecretSet: row.apiSecretCipher !== null,
    serviceAccountJsonSet: row.serviceAccountJsonCipher !== null,
    region: row.region,
    supportedModels: (row.supportedModels as ModelDefinitionValues[]).map((m) => ({ ...m, isDeprecated: deprecated.has(nameKeyOf(m.modelId)) })),
    providerRpmLimit: row.providerRpmLimit,
    providerTpmLimit: row.providerTpmLimit,
    coldStartRetryEnabled: row.coldStartRetryEnabled,
    deploymentType: row.deploymentType,
    providerDefinitionId: row.providerDefinitionId,
    allowedModelIds: row.allowedModelIds,
    metadata: (row.metadata as unknown as StoredMetadata[]).map((m) => ({ key: m.key, value: m.secret ? null : m.value, secret: m.secret })),
    wireProtocol: row.wireProtocol,
    ...pathsOf(row),
    lastHealthCheckAt: row.lastHealthCheckAt,
    healthStatus: row.healthStatus,
    lastLatencyMs: row.lastLatencyMs,
    builtIn: false,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  }
}

export const resolvedUrlsOf = (p: Pick<ProviderView, 'providerType' | 'endpoint' | 'apiVersion'> & DefaultPaths): ResolvedRequest[] => resolveProviderUrls(p)

/** What the gateway needs: every field, secrets opened, and the resolved URL of each request type. */
export function providerRuntimeConfig(row: LlmProvider, keyring: SecretKeyring) {
  const view = viewOf(row, '', new Set())
  return {
    ...view,
    apiKey: open(keyring, row.apiKeyCipher),
    apiSecret: open(keyring, row.apiSecretCipher),
    serviceAccountJson: open(keyring, row.serviceAccountJsonCipher),
    metadata: (row.metadata as unknown as StoredMetadata[]).map((m) => ({ key: m.key, secret: m.secret, value: m.secret ? open(keyring, m.valueCipher) : m.value })),
    resolvedUrls: resolveProviderUrls(row),
  }
}

/** Pushes a provider as it now stands (after an import). */
export async function pushProvider(deps: Deps, access: ProjectAccess, name: string): Promise<DeploymentOutcome | null> {
  const row = await findProvider(deps.prisma, access.project.id, name)
  if (!row) return null
  return pushToProject(deps, access, { action: 'DEPLOY', kind: 'LLM_PROVIDER', name: row.name, revision: row.revision, config: providerRuntimeConfig(row, deps.keyring) })
}

export const providerNotFound = (name: string, projectName: string) =>
  notFound(`LLM provider '${name}' not found in project '${projectName}'`, { provider: name })

export async function findProvider(db: Tx, projectId: string, name: string): Promise<LlmProvider | null> {
  return db.llmProvider.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(name) } } })
}

export async function listProviders(deps: Deps, actor: Actor, projectName: string): Promise<ProviderView[]> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const rows = await deps.prisma.llmProvider.findMany({ where: { projectId: access.project.id }, orderBy: { nameKey: 'asc' } })
  const deprecated = await deprecatedModelKeys(deps.prisma, access.project.id, rows)
  return rows.map((r) => viewOf(r, access.project.name, deprecated))
}

/** A page of providers (the GraphQL list), sorted in the database. */
export async function pageProviders(deps: Deps, actor: Actor, projectName: string, paging: PagingQuery): Promise<Page<ProviderView>> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const { request, ...window } = namedPage(paging)
  const where = { projectId: access.project.id }
  const page = await findPage(request, deps.prisma.llmProvider.findMany({ where, ...window }), deps.prisma.llmProvider.count({ where }))
  const deprecated = await deprecatedModelKeys(deps.prisma, access.project.id, page.items)
  return { ...page, items: page.items.map((r) => viewOf(r, access.project.name, deprecated)) }
}

/** One provider, plus usedByRefs (the AI proxies that reference it); the list has no usedByRefs. */
export async function getProvider(deps: Deps, actor: Actor, projectName: string, name: string): Promise<ProviderView> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const row = await findProvider(deps.prisma, access.project.id, name)
  if (!row) throw providerNotFound(name, access.project.name)
  const view = viewOf(row, access.project.name, await deprecatedModelKeys(deps.prisma, access.project.id, [row]))
  return { ...view, usedByRefs: await aiProxiesUsingProvider(deps.prisma, access.project.id, row.name) }
}

/**
 * The definition whose wireProtocol and paths the provider copies: the one named in the body (it must exist
 * and be of the provider's type), else the stored one when it still exists and fits the type, else the
 * type's built-in. `null` only when a stored custom definition vanished: the stored values are then kept.
 */
async function selectDefinition(
  db: Tx, projectId: string, providerType: string | undefined, requested: string | null, current: LlmProvider | null,
): Promise<{ definition: ProviderDefinitionValues | null; providerType: string }> {
  if (requested) {
    const definition = await findDefinition(db, projectId, requested)
    if (!definition) throw malformed(`providerDefinitionId: unknown provider definition '${requested}'`, { field: 'providerDefinitionId' })
    if (providerType && definition.providerType !== providerType) {
      throw malformed(`providerDefinitionId: definition '${definition.name}' is for providerType ${definition.providerType}, not ${providerType}`, { field: 'providerDefinitionId' })
    }
    return { definition, providerType: providerType ?? definition.providerType }
  }
  const type = providerType ?? DEFAULT_PROVIDER_TYPE
  if (current?.providerDefinitionId) {
    const stored = await findDefinition(db, projectId, current.providerDefinitionId)
    if (stored && stored.providerType === type) return { definition: stored, providerType: type }
    if (!stored && current.providerType === type) return { definition: null, providerType: type }
  }
  return { definition: builtInDefinitionForType(type), providerType: type }
}

function metadataToStore(keyring: SecretKeyring, entries: z.output<typeof metadataEntry>[], stored: StoredMetadata[]): StoredMetadata[] {
  const seen = new Set<string>()
  return entries.map((e, i) => {
    if (seen.has(e.key)) throw malformed(`metadata[${i}].key: duplicate key '${e.key}'`, { field: `metadata[${i}].key` })
    seen.add(e.key)
    if (!e.secret) return { key: e.key, value: e.value ?? null, secret: false, valueCipher: null }
    const previous = stored.find((s) => s.key === e.key && s.secret)
    return { key: e.key, value: null, secret: true, valueCipher: sealSecret(keyring, e.value, previous?.valueCipher ?? null) }
  })
}

/** Every column of a save: full replacement of the non-secret fields, defaults from the type and the definition. */
export async function providerData(db: Tx, k: SecretKeyring, projectId: string, input: z.output<typeof providerInput>, current: LlmProvider | null) {
  const { definition, providerType } = await selectDefinition(db, projectId, input.providerType ?? undefined, blankToNull(input.providerDefinitionId), current)
  const type = providerTypeEntry(providerType)
  const copied = definition
    ? {
        wireProtocol: definition.wireProtocol,
        ...(Object.fromEntries(REQUEST_TYPES.map((t) => [PATH_FIELDS[t], blankToNull(definition[PATH_FIELDS[t]]) ?? type.paths[PATH_FIELDS[t]]])) as DefaultPaths),
      }
    : { wireProtocol: current!.wireProtocol, ...pathsOf(current!) }
  const models = (input.supportedModels ?? []).map((m): ModelDefinitionValues => ({
    modelId: m.modelId,
    displayName: blankToNull(m.displayName),
    contextWindow: m.contextWindow ?? null,
    maxOutputTokens: m.maxOutputTokens ?? null,
    pricePerMillionInput: m.pricePerMillionInput ?? null,
    pricePerMillionOutput: m.pricePerMillionOutput ?? null,
    pricePerMillionCached: m.pricePerMillionCached ?? null,
    capabilities: m.capabilities ?? [],
    modality: m.modality ?? null,
  }))
  const dup = models.findIndex((m, i) => models.findIndex((o) => nameKeyOf(o.modelId) === nameKeyOf(m.modelId)) !== i)
  if (dup >= 0) throw malformed(`supportedModels[${dup}].modelId: duplicate model '${models[dup].modelId}'`, { field: `supportedModels[${dup}].modelId` })
  return {
    description: blankToNull(input.description),
    enabled: input.enabled ?? true,
    providerType,
    endpoint: blankToNull(input.endpoint) ?? definition?.defaultEndpoint ?? type.endpoint,
    apiVersion: blankToNull(input.apiVersion) ?? definition?.defaultApiVersion ?? type.apiVersion,
    organizationId: blankToNull(input.organizationId),
    authScheme: input.authScheme ?? definition?.defaultAuthScheme ?? type.authScheme,
    authHeaderName: blankToNull(input.authHeaderName) ?? definition?.defaultAuthHeaderName ?? type.authHeaderName,
    apiKeyCipher: sealSecret(k, input.apiKey, current?.apiKeyCipher ?? null),
    apiSecretCipher: sealSecret(k, input.apiSecret, current?.apiSecretCipher ?? null),
    serviceAccountJsonCipher: sealSecret(k, input.serviceAccountJson, current?.serviceAccountJsonCipher ?? null),
    region: blankToNull(input.region),
    supportedModels: models as unknown as Prisma.InputJsonValue,
    providerRpmLimit: input.providerRpmLimit ?? null,
    providerTpmLimit: input.providerTpmLimit ?? null,
    coldStartRetryEnabled: input.coldStartRetryEnabled ?? false,
    deploymentType: input.deploymentType ?? definition?.deploymentType ?? type.deploymentType,
    providerDefinitionId: definition ? definition.id : current!.providerDefinitionId,
    allowedModelIds: [...new Set(input.allowedModelIds ?? [])],
    metadata: metadataToStore(k, input.metadata ?? [], (current?.metadata ?? []) as unknown as StoredMetadata[]) as unknown as Prisma.InputJsonValue,
    ...copied,
  }
}

export interface ProviderWrite { provider: ProviderView; deploymentResult: DeploymentOutcome }

/**
 * POST (upsert: name required) and PUT (the provider must exist; a blank name falls back to the path).
 * Secrets: blank keeps the stored value, non-blank rotates. Saves, then pushes to every environment.
 */
export async function saveProvider(deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown, mode: 'upsert' | 'update'): Promise<ProviderWrite> {
  const { access, body, current, finalName } = await openNamedWrite(deps, actor, projectName, rawPathName, raw, mode, {
    bodyClass: 'llm', find: (projectId, name) => findProvider(deps.prisma, projectId, name), notFound: providerNotFound,
  })
  const input = parseInput(providerInput, body)
  const data = await providerData(deps.prisma, deps.keyring, access.project.id, input, current)
  const row = await saveNamed('LLM provider', finalName, () =>
    current
      ? deps.prisma.llmProvider.update({ where: { id: current.id }, data: { ...data, name: finalName, revision: { increment: 1 } } })
      : deps.prisma.llmProvider.create({ data: { ...data, name: finalName, nameKey: nameKeyOf(finalName), projectId: access.project.id } }),
  )
  const deploymentResult = await pushToProject(deps, access, {
    action: 'DEPLOY', kind: 'LLM_PROVIDER', name: row.name, revision: row.revision, config: providerRuntimeConfig(row, deps.keyring),
  })
  const provider = viewOf(row, access.project.name, await deprecatedModelKeys(deps.prisma, access.project.id, [row]))
  return { provider, deploymentResult }
}

/** Deletes and undeploys. A provider a knowledge base embeds with cannot go (the knowledge base would break). */
export async function deleteProvider(deps: Deps, actor: Actor, projectName: string, name: string): Promise<{ deploymentResult: DeploymentOutcome }> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  const row = await removeProvider(deps.prisma, access, name)
  const deploymentResult = await undeployFromProject(deps, access, 'LLM_PROVIDER', row, row.name)
  return { deploymentResult }
}

/** The delete itself, in `db` (DELETE, or a declarative sync's transaction); undeployFromProject after the commit. */
export async function removeProvider(db: Tx, access: ProjectAccess, name: string): Promise<LlmProvider> {
  const row = await findProvider(db, access.project.id, name)
  if (!row) throw providerNotFound(name, access.project.name)
  await deleteUnlessKnowledgeBasesUse(db, { embeddingProviderId: row.id }, `LLM provider '${row.name}'`, 'is the embedding provider of', () =>
    db.llmProvider.delete({ where: { id: row.id } }))
  return row
}
