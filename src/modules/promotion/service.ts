import type { ApiProxy } from '../../generated/prisma/client.js'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import { requirePermission, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { mergeOutcomes, type DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed, malformedReason, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { createGroup, findGroup, updateGroup } from '../apiproxies/groups/service.js'
import { portableProxies } from '../apiproxies/proxies/portable.js'
import { pushProxy } from '../apiproxies/proxies/automation/deploy.js'
import { clientRouteOf, routingInfoInput, routingOf, type ProxySettings } from '../apiproxies/proxies/automation/inputs.js'
import { ensureTransferAdapters } from '../transfer/adapters/index.js'
import { openPackageSecrets } from '../../platform/transfer/package/secrets.js'
import { existsInTarget } from '../transfer/analysis.js'
import { adapterFor, findAdapter, refLabel, type AdapterContext, type Advisory, type PortableObject } from '../../platform/transfer/registry.js'
import { deployEnvironmentIdsOf, proxyPromotionBody, type ProxyPromotionBody } from './inputs.js'
import { promotionEntryOf, type PromotionEnvironment } from './views.js'

// API proxy promotion between projects of one installation (vendor api-reference/api-proxies/promotion): the source
// side lists each proxy with its portable object of the transfer engine; the target side writes that object (the
// vendor fields of the body laid over it) through the engine's API_PROXY adapter in one transaction, then deploys
// best-effort to the environments the query names. No serializer of its own: the engine's portable form is the payload.

const TYPE = 'API_PROXY'

/** The project's environments with their ids, by name. */
async function environmentsOf(db: Tx, projectId: string): Promise<PromotionEnvironment[]> {
  const links = await db.projectEnvironment.findMany({ where: { projectId }, include: { environment: true } })
  return links.map((l) => ({ id: l.environment.id, name: l.environment.name, accessUrl: l.environment.accessUrl, workerUrls: l.environment.workerUrls })).sort((a, b) => a.name.localeCompare(b.name))
}

/** The promotion entries of some proxies of a project: the portable objects in two queries, deployments in one. */
async function entriesOf(deps: Deps, access: ProjectAccess, proxies: ApiProxy[]) {
  const [portables, environments, deployments] = await Promise.all([
    portableProxies(deps.prisma, deps.keyring, proxies),
    environmentsOf(deps.prisma, access.project.id),
    deps.prisma.apiProxyDeployment.findMany({ where: { apiProxyId: { in: proxies.map((p) => p.id) } } }),
  ])
  return proxies.map((proxy, i) => promotionEntryOf(deps.keyring, proxy, portables[i]!, environments, deployments.filter((d) => d.apiProxyId === proxy.id)))
}

/** GET …/apiProxies/forpromotion: every proxy of the source project, as a promotion sends it (API_MANAGEMENT VIEW). */
export async function proxiesForPromotion(deps: Deps, actor: Actor, projectName: string) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const proxies = await deps.prisma.apiProxy.findMany({ where: { projectId: access.project.id }, orderBy: { name: 'asc' } })
  return entriesOf(deps, access, proxies)
}

/** GET …/apiProxyGroups/{group}/proxies/forpromotion: the group's proxies, as above. */
export async function groupProxiesForPromotion(deps: Deps, actor: Actor, projectName: string, groupName: string) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const group = await findGroup(deps.prisma, access.project.id, groupName)
  const proxies = await deps.prisma.apiProxy.findMany({ where: { projectId: access.project.id, groups: { some: { id: group.id } } }, orderBy: { name: 'asc' } })
  return entriesOf(deps, access, proxies)
}

/** The vendor's type: REST (our kind) or REVERSE_PROXY (its REST creation type); any other kind is not promoted. */
function checkType(body: ProxyPromotionBody) {
  const type = body.type?.trim().toUpperCase()
  if (!type || type === 'REST' || type === 'REVERSE_PROXY' || type === 'HTTP') return
  throw malformedReason('apiProxyKindNotTransferable', `type: ${body.type} proxies are not promoted; only REST proxies are`, { field: 'type' })
}

/** The portable object the body describes: its `transfer` object (or the target's own), the vendor fields laid over it. */
function portableOf(deps: Deps, body: ProxyPromotionBody, base: PortableObject | null): { object: PortableObject; advisories: Advisory[] } {
  const label = `${TYPE}/${body.name}`
  const opened = body.transfer ? openPackageSecrets(deps.keyring, label, body.transfer.secrets) : { secrets: base?.secrets ?? {}, uncarried: [], advisories: [] }
  const data = structuredClone(body.transfer?.data ?? base?.data ?? { kind: 'REST', endpoints: [], policies: [], settings: {} }) as Record<string, unknown>
  if (body.transfer && body.transfer.type.toUpperCase() !== TYPE) throw malformed(`transfer.type: must be ${TYPE}`, { field: 'transfer.type' })
  const settings = { ...((data.settings ?? {}) as Record<string, unknown>) } as Partial<ProxySettings> & Record<string, unknown>
  if (body.description !== undefined) data.description = body.description
  if (body.enumProxyCreationType) data.creationType = body.enumProxyCreationType
  else if (body.type?.toUpperCase() === 'REVERSE_PROXY') data.creationType = 'REVERSE_PROXY'
  if (body.clientRoute) {
    settings.clientRoute = clientRouteOf(body.clientRoute)
    data.relativePath = settings.clientRoute.relativePathList[0] ?? null
  }
  if (body.routing) {
    const { apiRoutingList, ...routing } = body.routing
    const raw = { ...routing, routingAddressList: routing.routingAddressList ?? apiRoutingList?.map((r) => ({ address: r.url })) }
    let parsed
    try {
      parsed = parseInput(routingInfoInput, raw)
    } catch (err) {
      if (err instanceof DomainError) throw malformed(`routing.${err.message}`, { field: 'routing' })
      throw err
    }
    settings.routing = routingOf(parsed, settings.routing as ProxySettings['routing'] | undefined)
  }
  if (body.categoryList) settings.categoryList = [...new Set(body.categoryList)]
  data.settings = settings
  if (!data.kind) data.kind = 'REST'
  return {
    object: { type: TYPE, kind: null, name: body.name, data, secrets: opened.secrets, dependencies: [], uncarriedSecrets: opened.uncarried },
    advisories: opened.advisories,
  }
}

export interface PromotionResult {
  entry: Awaited<ReturnType<typeof entriesOf>>[number]
  deploymentResult: DeploymentOutcome | null
  advisories: Advisory[]
}

/**
 * PUT …/apiProxies/promotion: creates (no id) or overwrites (the id of a proxy of the target project) the proxy, through
 * the transfer engine's API_PROXY adapter in one transaction. A create starts undeployed everywhere; an overwrite keeps
 * the target's deployments (shown redeployRequired). Then deploys, best-effort, to deployEnvironmentIds (unknown ids
 * skipped and said so). Checks before anything is written: MANAGE, DEPLOY_UNDEPLOY when deploying, the body.
 */
export async function promoteApiProxy(deps: Deps, actor: Actor, projectName: string, raw: unknown, query: Record<string, unknown>): Promise<PromotionResult> {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'MANAGE')
  const deployIds = deployEnvironmentIdsOf(query.deployEnvironmentIds)
  if (deployIds.length) requirePermission(access, 'API_MANAGEMENT', 'DEPLOY_UNDEPLOY')
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const body = parseInput(proxyPromotionBody, raw)
  checkType(body)
  await ensureTransferAdapters()
  const adapter = adapterFor(TYPE)
  const ctx: AdapterContext = { db: deps.prisma, deps, actor, access }
  const projectId = access.project.id

  const target = body.id?.trim() ? await deps.prisma.apiProxy.findFirst({ where: { id: body.id.trim(), projectId } }) : null
  if (body.id?.trim() && !target) throw notFound(`id: API proxy '${body.id}' not found in project '${access.project.name}'`, { field: 'id', apiProxyId: body.id })
  if (target && target.name !== body.name) {
    throw malformedReason('promotionRenameRefused', `name: the target proxy with id '${target.id}' is named '${target.name}'; a promotion does not rename`, { field: 'name', apiProxy: target.name })
  }
  if (!target) {
    const taken = await deps.prisma.apiProxy.findFirst({ where: { projectId, name: { equals: body.name, mode: 'insensitive' } }, select: { name: true } })
    if (taken) throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${taken.name}' already exists in project '${access.project.name}'; send its id to overwrite it`, { field: 'name', apiProxy: taken.name })
  }
  if (!target && !body.clientRoute && !body.transfer?.data.relativePath) {
    throw malformed('clientRoute: is required to create an API proxy (or a transfer object with its relativePath)', { field: 'clientRoute' })
  }
  const base = !body.transfer && target ? ((await adapter.findByName(ctx, target.name, null))[0] ?? null) : null
  const { object, advisories } = portableOf(deps, body, base)
  const refusal = await adapter.checkImport?.(ctx, object)
  if (refusal) throw malformedReason(refusal.code, refusal.detail, { field: 'transfer.data.kind' })

  const environments = await environmentsOf(deps.prisma, projectId)
  await deps.prisma.$transaction(async (tx) => {
    advisories.push(...(await adapter.write({ ...ctx, db: tx }, object, !!target, {
      certEnvironmentMergeMethod: 'MATCH_BY_NAME', certEnvironmentUncoveredAction: 'FILL_FROM_PACKAGE', targetEnvironments: environments.map((e) => e.name),
    })))
  }, { maxWait: 30_000, timeout: 120_000 })
  const saved = await deps.prisma.apiProxy.findUniqueOrThrow({ where: { projectId_name: { projectId, name: body.name } } })
  // what the carried object refers to and the target lacks, as the engine's import says it
  for (const dep of body.transfer?.dependencies ?? []) {
    const depAdapter = findAdapter(dep.type)
    if (depAdapter && (await existsInTarget(ctx, depAdapter, dep))) continue
    advisories.push({ level: 'WARNING', key: 'transfer.unresolvedReference', params: { object: refLabel(object), type: dep.type, kind: dep.kind, name: dep.name } })
  }

  let deploymentResult: DeploymentOutcome | null = null
  if (deployIds.length) {
    const chosen = environments.filter((e) => deployIds.includes(e.id))
    const unknown = deployIds.filter((id) => !environments.some((e) => e.id === id))
    if (unknown.length) advisories.push({ level: 'WARNING', key: 'promotion.environmentSkipped', params: { environmentIds: unknown } })
    const outcomes: DeploymentOutcome[] = []
    // independent per environment: one failing does not stop the others nor undo the save
    for (const env of chosen) outcomes.push(await pushProxy(deps, access.project.name, saved, [env], { username: actorName(actor), description: 'Deployed by promotion' }))
    deploymentResult = outcomes.length ? { ...mergeOutcomes(outcomes), message: outcomes.every((o) => o.success) ? `Deployed to ${outcomes.length} environment(s)` : mergeOutcomes(outcomes).message } : null
  }
  const [entry] = await entriesOf(deps, access, [saved])
  return { entry: entry!, deploymentResult, advisories }
}

/** PUT …/apiProxyGroups/promotion: the group (name, description, client route) created or updated in the target project. */
export async function promoteApiProxyGroup(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'MANAGE')
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const name = typeof (raw as { name?: unknown }).name === 'string' ? ((raw as { name: string }).name).trim() : ''
  const existing = name ? await deps.prisma.apiProxyGroup.findFirst({ where: { projectId: access.project.id, name: { equals: name, mode: 'insensitive' } } }) : null
  const body = existing ? { ...(raw as object), name: existing.name } : raw
  const group = existing ? await updateGroup(deps.prisma, actor, projectName, body) : await createGroup(deps.prisma, actor, projectName, body)
  return { group, created: !existing }
}
