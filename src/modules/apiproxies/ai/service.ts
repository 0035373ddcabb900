import { z } from 'zod'
import type { ApiProxy, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { objectName } from '../../../platform/validation/common.js'
import { checkA2aRouting, checkAiRouting, checkMcpRouting, pageTargetsOf } from './routing-rules.js'
import {
  createInputOf, FLAT_ROUTING_FIELDS, refuseStandaloneConnectionReferences, routingSchemaOf,
  type A2aRoutingValues, type AiRoutingValues, type McpRoutingValues, type RoutedKind, type RoutingValues,
} from './ai-routing.js'
import { kindWithArticle } from '../shared/kinds.js'
import { relativePath as relativePathSchema } from '../proxies/automation/inputs.js'
import { runtimeRouting, sealRouting } from './routing-store.js'
import { checkBackendMaterial } from './backend-auth.js'

// AI, MCP and A2A proxies (spec §4.5): creation with an optional first routing, routing replacement. Every write
// saves in one transaction, then pushes the proxy to the project's environments (the push never undoes the save).

export interface RoutedProxyWrite {
  proxy: ApiProxy
  deploymentResult: DeploymentOutcome
}

const routingPathOf = (kind: string) => `${kind.toLowerCase()}-routing`

const manage = (db: Tx, actor: Actor, projectName: string) => authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'MANAGE')

function pathName(raw: string): string {
  const parsed = objectName.safeParse(raw)
  if (!parsed.success) throw malformed(`apiProxyName: ${parsed.error.issues[0]?.message ?? 'is invalid'}`, { field: 'apiProxyName' })
  return parsed.data
}

const proxyNotFound = (name: string) => notFound(`API proxy '${name}' not found`, { apiProxy: name })

/** Mode-specific rules, then (AI) the provider references: every one must name an LLM provider of the project. */
async function checkRouting(db: Tx, projectId: string, kind: RoutedKind, mode: string | null, routing: RoutingValues): Promise<string[]> {
  if (kind === 'MCP') checkMcpRouting(mode ?? '', routing as McpRoutingValues)
  if (kind === 'A2A') checkA2aRouting(mode ?? '', routing as A2aRoutingValues)
  if (kind !== 'AI') {
    await checkBackendMaterial(db, projectId, (routing as McpRoutingValues | A2aRoutingValues).backendServers)
    return []
  }
  const ai = routing as AiRoutingValues
  // the newest page's form names its providers in llmProviderRefName, primaryPool and providerFailoverChain
  const page = pageTargetsOf(ai)
  if (page.length) ai.targets = page.map((p) => p.target)
  const fieldOf = (i: number) => page[i]?.field ?? `targets[${i}].providerName`
  checkAiRouting(ai)
  const keys = [...new Set(ai.targets.map((t) => t.providerName.toLowerCase()))]
  const providers = await db.llmProvider.findMany({ where: { projectId, nameKey: { in: keys } }, select: { name: true, nameKey: true, allowedModelIds: true } })
  const byKey = new Map(providers.map((p) => [p.nameKey, p]))
  ai.targets.forEach((t, i) => {
    const provider = byKey.get(t.providerName.toLowerCase())
    if (!provider) throw notFound(`${fieldOf(i)}: LLM provider '${t.providerName}' not found in the project`, { field: fieldOf(i), llmProvider: t.providerName })
    const modelField = page[i] ? fieldOf(i).replace(/llmProviderRefName$/, 'modelId') : `targets[${i}].model`
    if (t.model && provider.allowedModelIds.length && !provider.allowedModelIds.includes(t.model)) {
      throw malformed(`${modelField}: model '${t.model}' is not allowed by LLM provider '${provider.name}' (allowed: ${provider.allowedModelIds.join(', ')})`, { field: modelField })
    }
    t.providerName = provider.name
    if (page[i]?.field === 'llmProviderRefName') ai.llmProviderRefName = provider.name
  })
  return [...new Set(ai.targets.map((t) => t.providerName))]
}

/** Pushes the proxy's runtime form (backend secrets opened for the gateway) to every environment of its project. */
export async function pushRoutedProxy(deps: Deps, projectName: string, proxy: ApiProxy): Promise<DeploymentOutcome> {
  const environments = await projectEnvironments(deps.prisma, proxy.projectId)
  return deps.deployer.push(environments, {
    action: 'DEPLOY',
    project: projectName,
    kind: 'API_PROXY',
    name: proxy.name,
    revision: proxy.revision,
    config: {
      proxyKind: proxy.kind,
      description: proxy.description,
      relativePath: proxy.relativePath,
      routingMode: proxy.routingMode,
      routing: runtimeRouting(deps.keyring, proxy.routing),
    },
  })
}

/** Runs a check whose errors name fields relative to `prefix` (the routing inside a creation body). */
async function nested<T>(prefix: string | null, check: () => Promise<T>): Promise<T> {
  try {
    return await check()
  } catch (err) {
    if (!(err instanceof DomainError) || typeof err.params.field !== 'string') throw err
    if (prefix === null) {
      // the newest create page's flat AI fields: the routing's llmProviderRefName is the body's llmProviderName
      if (!err.params.field.startsWith('llmProviderRefName')) throw err
      const field = err.params.field.replace(/^llmProviderRefName/, 'llmProviderName')
      throw new DomainError(err.kind, err.errorKey, err.message.replace(/^llmProviderRefName/, 'llmProviderName'), { ...err.params, field })
    }
    throw new DomainError(err.kind, err.errorKey, `${prefix}.${err.message}`, { ...err.params, field: `${prefix}.${err.params.field}` })
  }
}

const json = (v: unknown) => (v === null ? undefined : (v as Prisma.InputJsonValue))

/**
 * Creates an AI, MCP or A2A proxy named by the path. MCP needs `routingMode`; A2A defaults it to AGENT_EXPOSE;
 * AI proxies have no mode. A body naming a standalone outbound connection is refused.
 */
/** A routed proxy's relativePath is unique in its project (another proxy than `exceptId` holding it is a 409). */
async function requireFreeRelativePath(tx: Tx, projectId: string, relativePath: string, exceptId?: string) {
  const taken = await tx.apiProxy.findFirst({ where: { projectId, relativePath, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { name: true } })
  if (taken) throw new DomainError('conflict', 'relativePathAlreadyUsed', `relativePath: '${relativePath}' is already the relative path of API proxy '${taken.name}'`, { field: 'relativePath', apiProxy: taken.name })
}

export async function createRoutedProxy(deps: Deps, actor: Actor, projectName: string, kind: RoutedKind, rawName: string, body: unknown): Promise<RoutedProxyWrite> {
  refuseStandaloneConnectionReferences(body)
  const access = await manage(deps.prisma, actor, projectName)
  const name = pathName(rawName)
  const input = parseInput(createInputOf[kind], body ?? {}) as Record<string, unknown> & {
    name?: string | null; description?: string | null; groups: string[]; routingMode?: string; routing?: RoutingValues | null; relativePath?: string | null
  }
  if (input.name != null && input.name.trim() !== '' && input.name.trim().toLowerCase() !== name.toLowerCase()) {
    throw malformed(`name: '${input.name}' differs from the path name '${name}'`, { field: 'name' })
  }
  const routingInput = firstRouting(kind, input)
  const projectId = access.project.id
  const mode = input.routingMode ?? null
  const relativePath = input.relativePath ?? null
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const clash = await tx.apiProxy.findFirst({ where: { projectId, name: { equals: name, mode: 'insensitive' } }, select: { name: true } })
    if (clash) throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${clash.name}' already exists`, { field: 'name', apiProxy: clash.name })
    if (relativePath) await requireFreeRelativePath(tx, projectId, relativePath)
    const providerNames = routingInput ? await nested(routingInput.prefix, () => checkRouting(tx, projectId, kind, mode, routingInput.routing)) : []
    return tx.apiProxy.create({
      data: {
        projectId,
        name,
        kind,
        description: input.description ?? null,
        relativePath,
        routingMode: mode,
        routing: json(routingInput ? sealRouting(deps.keyring, routingInput.routing, null) : null),
        revision: 1,
        groups: { connectOrCreate: input.groups.map((g) => ({ where: { projectId_name: { projectId, name: g } }, create: { projectId, name: g } })) },
        providerRefs: { create: providerNames.map((providerName) => ({ providerName })) },
      },
    })
  }).catch((err: unknown) => {
    // a concurrent create of the same name won the unique index between our check and our insert
    if ((err as { code?: string } | null)?.code === 'P2002') throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${name}' already exists`, { field: 'name', apiProxy: name })
    throw err
  })
  return { proxy, deploymentResult: await pushRoutedProxy(deps, access.project.name, proxy) }
}

/**
 * The first routing of a creation: `routing` as sent, or the newest pages' flat fields folded into one (AI:
 * llmProviderName → llmProviderRefName, modelId, streaming; MCP/A2A: protocolVersion, backendServers), whose errors
 * then name the flat fields; both at once are refused.
 */
function firstRouting(kind: RoutedKind, input: Record<string, unknown>): { routing: RoutingValues; prefix: string | null } | null {
  const flat = FLAT_ROUTING_FIELDS[kind].filter((f) => input[f] !== undefined && input[f] !== null)
  if (flat.length && input.routing) throw malformed(`${flat[0]}: cannot be sent with routing: send the first routing in one form`, { field: flat[0] })
  if (input.routing) return { routing: input.routing as RoutingValues, prefix: 'routing' }
  if (!flat.length) return null
  const defaults = parseInput(routingSchemaOf[kind], {}) as Record<string, unknown>
  if (kind === 'AI') {
    const { llmProviderName, modelId, streaming } = input as { llmProviderName?: string; modelId?: string; streaming?: boolean }
    if (modelId && !llmProviderName) throw malformed('llmProviderName: is required with modelId', { field: 'llmProviderName' })
    return { routing: { ...defaults, llmProviderRefName: llmProviderName ?? null, modelId: modelId ?? null, streaming: streaming ?? null } as RoutingValues, prefix: null }
  }
  const { protocolVersion, backendServers } = input as { protocolVersion?: string; backendServers?: unknown[] }
  return { routing: { ...defaults, protocolVersion: protocolVersion ?? null, backendServers: backendServers ?? [] } as RoutingValues, prefix: null }
}

/**
 * Replaces the routing config of an AI, MCP or A2A proxy (inline backend servers included). MCP and A2A keep
 * their routing mode when the body omits it. Blank backend secrets keep the stored ones.
 */
export async function replaceRouting(deps: Deps, actor: Actor, projectName: string, proxyName: string, kind: RoutedKind, body: unknown): Promise<RoutedProxyWrite> {
  refuseStandaloneConnectionReferences(body)
  const access = await manage(deps.prisma, actor, projectName)
  const projectId = access.project.id
  const input = parseInput(routingSchemaOf[kind], body ?? {}) as RoutingValues & { routingMode?: string | null }
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const current = await tx.apiProxy.findUnique({ where: { projectId_name: { projectId, name: proxyName } } })
    if (!current) throw proxyNotFound(proxyName)
    if (current.kind !== kind) {
      const hint = (['AI', 'MCP', 'A2A'] as string[]).includes(current.kind) ? `; use /${routingPathOf(current.kind)}/` : ''
      throw malformed(`API proxy '${proxyName}' is ${kindWithArticle(current.kind)} proxy, not ${kindWithArticle(kind)} proxy${hint}`, { apiProxy: proxyName, kind: current.kind })
    }
    const { routingMode, ...routing } = input
    const mode = kind === 'AI' ? null : (routingMode ?? current.routingMode)
    // an MCP proxy declared without a mode (bootstrap file) gets one with its first routing
    if (kind === 'MCP' && !mode) throw malformed('routingMode: is required: the proxy has no routing mode yet', { field: 'routingMode' })
    const providerNames = await checkRouting(tx, projectId, kind, mode, routing as RoutingValues)
    await tx.aiProxyProviderRef.deleteMany({ where: { apiProxyId: current.id } })
    return tx.apiProxy.update({
      where: { id: current.id },
      data: {
        routingMode: mode,
        routing: json(sealRouting(deps.keyring, routing as RoutingValues, current.routing)),
        revision: { increment: 1 },
        providerRefs: { create: providerNames.map((providerName) => ({ providerName })) },
      },
    })
  })
  return { proxy, deploymentResult: await pushRoutedProxy(deps, access.project.name, proxy) }
}

/** One proxy with API_MANAGEMENT VIEW, for the REST routing reads. */
export async function getRoutedProxy(db: Tx, actor: Actor, projectName: string, proxyName: string, kind: RoutedKind): Promise<ApiProxy> {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name: proxyName } } })
  if (!proxy) throw proxyNotFound(proxyName)
  if (proxy.kind !== kind) throw malformed(`API proxy '${proxyName}' is ${kindWithArticle(proxy.kind)} proxy, not ${kindWithArticle(kind)} proxy`, { apiProxy: proxyName, kind: proxy.kind })
  return proxy
}

// ---- declarative state (issue 29): AI, MCP and A2A proxies as a collection, written with the rules above ----

/** A routed proxy as a state file declares it: kind, description, routingMode and routing (backend secrets apart). */
/** A backend server's secrets as an export or a state file carries them apart from its data. */
export type BackendSecrets = { token?: string; password?: string; clientSecret?: string }

export interface DeclaredRoutedProxy { kind?: unknown; description?: unknown; relativePath?: unknown; routingMode?: unknown; routing?: unknown }

/**
 * Creates (existing false) or replaces (existing true) an AI, MCP or A2A proxy inside the caller's transaction: the
 * creation body's schema for a new one (name free in the project, routing checked: modes, LLM providers of the
 * project), the routing replacement's for an existing one (its kind never changes). `secrets` are the backend servers'
 * token, password and OAuth2 client secret by server name (`{ "<server>": { token?, password?, clientSecret? } }`); a secret left out keeps the stored one
 * (sealRouting). Does not push: pushRoutedProxy after the commit. Errors name their field (`routing.targets[0]…`).
 */
export async function writeDeclaredRoutedProxy(
  tx: Tx, keyring: Deps['keyring'], projectId: string, name: string, d: DeclaredRoutedProxy, secrets: Record<string, BackendSecrets>, existing: boolean,
): Promise<ApiProxy> {
  const kind = d.kind as RoutedKind
  if (!['AI', 'MCP', 'A2A'].includes(String(kind))) throw malformed('kind: must be one of AI, MCP, A2A', { field: 'kind' })
  const withSecrets = (routing: unknown) => {
    if (!routing || typeof routing !== 'object' || !Array.isArray((routing as { backendServers?: unknown }).backendServers)) return routing
    const r = routing as { backendServers: Record<string, unknown>[] }
    return { ...r, backendServers: r.backendServers.map((s) => ({ ...s, auth: { ...(s.auth as object | undefined), ...(secrets[String(s.name).toLowerCase()] ?? {}) } })) }
  }
  const routing = d.routing == null ? null : withSecrets(d.routing)
  if (!existing) {
    pathName(name)
    const body = { description: d.description ?? null, ...(d.relativePath != null ? { relativePath: d.relativePath } : {}), ...(kind !== 'AI' && d.routingMode != null ? { routingMode: d.routingMode } : {}), ...(routing ? { routing } : {}) }
    const input = parseInput(createInputOf[kind], body) as { description?: string | null; relativePath?: string | null; routingMode?: string; routing?: RoutingValues | null }
    const clash = await tx.apiProxy.findFirst({ where: { projectId, name: { equals: name, mode: 'insensitive' } }, select: { name: true } })
    if (clash) throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${clash.name}' already exists`, { field: 'name', apiProxy: clash.name })
    if (input.relativePath) await requireFreeRelativePath(tx, projectId, input.relativePath)
    const mode = input.routingMode ?? null
    const providerNames = input.routing ? await nested('routing', () => checkRouting(tx, projectId, kind, mode, input.routing!)) : []
    return tx.apiProxy.create({
      data: {
        projectId, name, kind, description: input.description ?? null, relativePath: input.relativePath ?? null, routingMode: mode,
        routing: json(input.routing ? sealRouting(keyring, input.routing, null) : null), revision: 1,
        providerRefs: { create: providerNames.map((providerName) => ({ providerName })) },
      },
    })
  }
  const current = await tx.apiProxy.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!current) throw proxyNotFound(name)
  if (current.kind !== kind) throw malformed(`kind: API proxy '${name}' is ${kindWithArticle(current.kind)} proxy; its kind never changes`, { field: 'kind' })
  const description = d.description === undefined ? current.description : (parseInput(createInputOf.AI.pick({ description: true }), { description: d.description }).description ?? null)
  let data: Prisma.ApiProxyUpdateInput = { description, revision: { increment: 1 } }
  if (d.relativePath !== undefined) {
    const relativePath = parseInput(z.object({ relativePath: relativePathSchema.nullish() }), { relativePath: d.relativePath }).relativePath ?? null
    if (relativePath && relativePath !== current.relativePath) await requireFreeRelativePath(tx, projectId, relativePath, current.id)
    data = { ...data, relativePath }
  }
  if (routing) {
    const input = await nested('routing', async () => parseInput(routingSchemaOf[kind], { ...(routing as object), ...(kind !== 'AI' ? { routingMode: d.routingMode ?? current.routingMode } : {}) }) as RoutingValues & { routingMode?: string | null })
    const { routingMode, ...values } = input
    const mode = kind === 'AI' ? null : (routingMode ?? current.routingMode)
    if (kind === 'MCP' && !mode) throw malformed('routingMode: is required: the proxy has no routing mode yet', { field: 'routingMode' })
    const providerNames = await nested('routing', () => checkRouting(tx, projectId, kind, mode, values as RoutingValues))
    await tx.aiProxyProviderRef.deleteMany({ where: { apiProxyId: current.id } })
    data = { ...data, routingMode: mode, routing: json(sealRouting(keyring, values as RoutingValues, current.routing)), providerRefs: { create: providerNames.map((providerName) => ({ providerName })) } }
  }
  return tx.apiProxy.update({ where: { id: current.id }, data })
}
