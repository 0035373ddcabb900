import { z } from 'zod'
import type { LlmProviderDefinition } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { headerNameField } from './auth-headers.js'
import {
  AUTH_SCHEMES, builtInDefinition, BUILT_IN_DEFINITIONS, DEPLOYMENT_TYPES, PATH_FIELDS, PROVIDER_TYPE_NAMES, providerTypeEntry, REQUEST_TYPES,
  WIRE_PROTOCOLS, type ProviderDefinitionValues,
} from './catalog.js'
import { aiAccess, blankToNull, nameKeyOf, openNamedWrite, pushToProject, saveNamed, undeployFromProject } from '../common.js'

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish()
const path = text(2000)

/** Body of a custom provider definition; read-only fields are accepted and ignored, anything else unknown is refused. */
export const definitionInput = z.strictObject({
  _class: z.unknown().optional(),
  name: z.string().nullish(),
  /** the vendor's provider type code; the name falls back to it when blank */
  code: text(200),
  displayName: text(200),
  description: text(1000),
  iconUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000, 'must be at most 2000 characters').nullish(),
  docsUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000, 'must be at most 2000 characters').nullish(),
  providerType: z.enum(PROVIDER_TYPE_NAMES, { error: `must be one of ${PROVIDER_TYPE_NAMES.join(', ')}` }).nullish(),
  wireProtocol: z.enum(WIRE_PROTOCOLS, { error: `must be one of ${WIRE_PROTOCOLS.join(', ')}` }).nullish(),
  defaultEndpoint: text(2000),
  defaultApiVersion: text(100),
  defaultAuthScheme: z.enum(AUTH_SCHEMES, { error: `must be one of ${AUTH_SCHEMES.join(', ')}` }).nullish(),
  defaultAuthHeaderName: headerNameField(),
  deploymentType: z.enum(DEPLOYMENT_TYPES, { error: `must be one of ${DEPLOYMENT_TYPES.join(', ')}` }).nullish(),
  defaultChatCompletionPath: path,
  defaultEmbeddingPath: path,
  defaultAudioTranscriptionPath: path,
  defaultAudioSpeechPath: path,
  defaultImageGenerationPath: path,
  defaultResponsesPath: path,
  id: z.unknown().optional(),
  projectId: z.unknown().optional(),
  projectName: z.unknown().optional(),
  lastUpdatedAt: z.unknown().optional(),
  /** ignored when false; true is refused (the vendor page: built-in definitions are read-only) */
  builtIn: z.unknown().optional(),
})

export interface DefinitionView extends ProviderDefinitionValues {
  projectId: string | null
  projectName: string | null
  /** the vendor's provider type code: a built-in's is its name */
  code: string | null
  iconUrl: string | null
  docsUrl: string | null
  /** null for a built-in */
  lastUpdatedAt: Date | null
}

const viewOf = (row: LlmProviderDefinition, projectName: string): DefinitionView => ({
  id: row.id,
  name: row.name,
  code: row.code,
  displayName: row.displayName,
  description: row.description,
  iconUrl: row.iconUrl,
  docsUrl: row.docsUrl,
  providerType: row.providerType,
  wireProtocol: row.wireProtocol,
  defaultEndpoint: row.defaultEndpoint,
  defaultApiVersion: row.defaultApiVersion,
  defaultAuthScheme: row.defaultAuthScheme,
  defaultAuthHeaderName: row.defaultAuthHeaderName,
  deploymentType: row.deploymentType,
  defaultChatCompletionPath: row.defaultChatCompletionPath,
  defaultEmbeddingPath: row.defaultEmbeddingPath,
  defaultAudioTranscriptionPath: row.defaultAudioTranscriptionPath,
  defaultAudioSpeechPath: row.defaultAudioSpeechPath,
  defaultImageGenerationPath: row.defaultImageGenerationPath,
  defaultResponsesPath: row.defaultResponsesPath,
  builtIn: false,
  projectId: row.projectId,
  projectName,
  lastUpdatedAt: row.updatedAt,
})

const builtInView = (d: ProviderDefinitionValues): DefinitionView => ({ ...d, code: d.name, iconUrl: null, docsUrl: null, lastUpdatedAt: null, projectId: null, projectName: null })

const builtInReadOnly = (name: string) =>
  new DomainError('validation', 'builtInReadOnly', `Provider definition '${name}' is built-in and read-only; create a custom definition under another name`, { name })

const definitionNotFound = (name: string, projectName: string) =>
  notFound(`Provider definition '${name}' not found in project '${projectName}'`, { definition: name })

/**
 * The definition a provider selects by providerDefinitionId: a built-in by name, or a custom one of the
 * project by id or by name. null when nothing matches.
 */
export async function findDefinition(db: Tx, projectId: string, ref: string): Promise<ProviderDefinitionValues | null> {
  const builtIn = builtInDefinition(ref)
  if (builtIn) return builtIn
  const row = await db.llmProviderDefinition.findFirst({ where: { projectId, OR: [{ id: ref.trim() }, { nameKey: nameKeyOf(ref) }] } })
  return row ? { ...viewOf(row, ''), builtIn: false } : null
}

export async function listDefinitions(deps: Deps, actor: Actor, projectName: string): Promise<DefinitionView[]> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const rows = await deps.prisma.llmProviderDefinition.findMany({ where: { projectId: access.project.id }, orderBy: { nameKey: 'asc' } })
  return [...BUILT_IN_DEFINITIONS.map(builtInView), ...rows.map((r) => viewOf(r, access.project.name))]
}

export async function getDefinition(deps: Deps, actor: Actor, projectName: string, name: string): Promise<DefinitionView> {
  const access = await aiAccess(deps, actor, projectName, 'VIEW')
  const builtIn = builtInDefinition(name)
  if (builtIn) return builtInView(builtIn)
  const row = await deps.prisma.llmProviderDefinition.findUnique({ where: { projectId_nameKey: { projectId: access.project.id, nameKey: nameKeyOf(name) } } })
  if (!row) throw definitionNotFound(name, access.project.name)
  return viewOf(row, access.project.name)
}

export interface DefinitionWrite { definition: DefinitionView; deploymentResult: DeploymentOutcome }

/** Full replacement: omitted fields take the provider type's defaults; an empty path falls back to the type default. */
function definitionData(input: z.output<typeof definitionInput>) {
  const providerType = input.providerType ?? 'OTHER'
  const type = providerTypeEntry(providerType)
  const paths = Object.fromEntries(
    REQUEST_TYPES.map((t) => [PATH_FIELDS[t], blankToNull(input[PATH_FIELDS[t]]) ?? type.paths[PATH_FIELDS[t]]]),
  ) as Record<(typeof PATH_FIELDS)[keyof typeof PATH_FIELDS], string | null>
  return {
    code: blankToNull(input.code),
    displayName: blankToNull(input.displayName),
    description: blankToNull(input.description),
    iconUrl: blankToNull(input.iconUrl),
    docsUrl: blankToNull(input.docsUrl),
    providerType,
    wireProtocol: input.wireProtocol ?? type.wireProtocol,
    defaultEndpoint: blankToNull(input.defaultEndpoint) ?? type.endpoint,
    defaultApiVersion: blankToNull(input.defaultApiVersion) ?? type.apiVersion,
    defaultAuthScheme: input.defaultAuthScheme ?? type.authScheme,
    defaultAuthHeaderName: blankToNull(input.defaultAuthHeaderName) ?? type.authHeaderName,
    deploymentType: input.deploymentType ?? type.deploymentType,
    ...paths,
  }
}

/** The vendor page's name fallback: a blank name takes `code` (then, on update, the path). */
function withNameFallback(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw
  const body = raw as Record<string, unknown>
  const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '')
  return blank(body.name) && typeof body.code === 'string' && !blank(body.code) ? { ...body, name: body.code } : body
}

/** `builtIn: true` is refused whatever the name (the vendor page); false or absent is ignored. */
function refuseBuiltInFlag(body: Record<string, unknown>) {
  if (body.builtIn === true) throw new DomainError('validation', 'builtInReadOnly', 'Built-in provider definitions are read-only.', { field: 'builtIn' })
  if (body.builtIn !== undefined && body.builtIn !== null && body.builtIn !== false) throw malformed('builtIn: must be false (or absent)', { field: 'builtIn' })
}

/** POST (upsert, requireExisting false) and PUT (must exist) of a custom definition. */
export async function saveDefinition(
  deps: Deps, actor: Actor, projectName: string, rawPathName: string, raw: unknown, mode: 'upsert' | 'update',
): Promise<DefinitionWrite> {
  const { access, body, current, finalName } = await openNamedWrite(deps, actor, projectName, rawPathName, withNameFallback(raw), mode, {
    guard: (name) => {
      if (builtInDefinition(name)) throw builtInReadOnly(name)
    },
    find: (projectId, name) => deps.prisma.llmProviderDefinition.findUnique({ where: { projectId_nameKey: { projectId, nameKey: nameKeyOf(name) } } }),
    notFound: definitionNotFound,
  })
  refuseBuiltInFlag(body)
  const data = definitionData(parseInput(definitionInput, body))
  const row = await saveNamed('Provider definition', finalName, () =>
    current
      ? deps.prisma.llmProviderDefinition.update({ where: { id: current.id }, data: { ...data, name: finalName, revision: { increment: 1 } } })
      : deps.prisma.llmProviderDefinition.create({ data: { ...data, name: finalName, nameKey: nameKeyOf(finalName), projectId: access.project.id } }),
  )
  const definition = viewOf(row, access.project.name)
  const deploymentResult = await pushToProject(deps, access, {
    action: 'DEPLOY', kind: 'LLM_PROVIDER_DEFINITION', name: row.name, revision: row.revision, config: definition,
  })
  return { definition, deploymentResult }
}

export async function deleteDefinition(deps: Deps, actor: Actor, projectName: string, name: string): Promise<{ deploymentResult: DeploymentOutcome }> {
  const access = await aiAccess(deps, actor, projectName, 'MANAGE')
  if (builtInDefinition(name)) throw builtInReadOnly(name.trim())
  const row = await deps.prisma.llmProviderDefinition.findUnique({ where: { projectId_nameKey: { projectId: access.project.id, nameKey: nameKeyOf(name) } } })
  if (!row) throw definitionNotFound(name, access.project.name)
  await deps.prisma.llmProviderDefinition.delete({ where: { id: row.id } })
  const deploymentResult = await undeployFromProject(deps, access, 'LLM_PROVIDER_DEFINITION', row, row.name)
  return { deploymentResult }
}

