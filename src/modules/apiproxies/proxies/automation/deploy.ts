import type { ApiProxy } from '../../../../generated/prisma/client.js'
import { can, type ProjectAccess } from '../../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../../platform/context.js'
import { notDeployed, projectEnvironments } from '../../../../platform/deploy/project.js'
import type { DeployEnvironment, DeploymentOutcome } from '../../../../platform/deploy/pusher.js'
import { notFound } from '../../../../platform/errors/domain-error.js'
import type { SecretKeyring } from '../../../../platform/secrets/keyring.js'
import { runtimeRouting } from '../../ai/routing-store.js'
import { openPolicySecrets } from '../../policies/policy-secrets.js'
import { runtimeSettings } from '../../settings/service.js'
import { proxySnapshot, recordProxyHistory, type HistoryMeta } from '../../deployments/record.js'
import { runtimeGlobalPolicies } from '../../global-policies/runtime.js'
import { expandPolicyGroups } from '../../policy-groups/runtime.js'
import { runtimeTrafficLog, trafficLogConnectionIds } from '../../traffic-log/service.js'

// Per-environment deployment of a whole API proxy (kind API_PROXY): its settings, policies and endpoints in one
// message. What each environment acknowledged is recorded (ApiProxyDeployment), so reads can say deployed and
// redeployRequired (the proxy's revision moved on since).

const ROUTED_KINDS = ['AI', 'MCP', 'A2A']
const PIPELINES = ['REQUEST', 'RESPONSE', 'ERROR'] as const

/** The project's environments named in `names` (all of them when `names` is empty); an unknown name is a 400. */
export async function environmentsNamed(db: Tx, access: ProjectAccess, names: readonly string[], field = 'deployTargetEnvironmentNameList'): Promise<DeployEnvironment[]> {
  const all = await projectEnvironments(db, access.project.id)
  if (!names.length) return all
  return [...new Set(names)].map((name, i) => {
    const env = all.find((e) => e.name === name)
    if (!env) throw notFound(`${field}[${i}]: environment '${name}' not found in project '${access.project.name}'`, { field: `${field}[${i}]`, environment: name })
    return env
  })
}

type PolicyRow = { name: string; type: string; description: string | null; active: boolean; pipeline: string; position: number; endpointId: string | null; config: unknown }

/** Each pipeline's policies as the gateway runs them: their secrets opened (sealed at rest, policies/policy-secrets.ts). */
const byPipeline = (keyring: SecretKeyring, rows: PolicyRow[]) =>
  Object.fromEntries(PIPELINES.map((p) => [p.toLowerCase(), rows.filter((r) => r.pipeline === p).sort((a, b) => a.position - b.position).map((r) => ({ ...(openPolicySecrets(keyring, r.config) as object), name: r.name, type: r.type, active: r.active }))]))

/** The proxies as the gateway runs them (settings, proxy-wide policies, endpoints with their own), in two queries. */
export async function runtimeConfigsOf(deps: Deps, proxies: ApiProxy[]) {
  const ids = proxies.map((p) => p.id)
  const connectionIds = trafficLogConnectionIds(proxies)
  const [rows, endpoints, globals, connections] = await Promise.all([
    deps.prisma.apiProxyPolicy.findMany({ where: { apiProxyId: { in: ids } } }),
    deps.prisma.gatewayEndpoint.findMany({ where: { apiProxyId: { in: ids }, version: '' }, orderBy: [{ path: 'asc' }, { method: 'asc' }] }),
    runtimeGlobalPolicies(deps, proxies.map((p) => p.projectId)),
    connectionIds.length ? deps.prisma.connection.findMany({ where: { id: { in: connectionIds } }, select: { id: true, name: true } }) : [],
  ])
  // traffic log settings name connections and endpoints by id; the gateway knows them by name and by method and path
  const connectionNames = new Map(connections.map((c) => [c.id, c.name]))
  const endpointsById = new Map(endpoints.map((e) => [e.id, { method: e.method, path: e.path }]))
  // a policy-group entry runs the group's policies, as the group is now (policy-groups/runtime.ts)
  const policies = await expandPolicyGroups(deps, rows, new Map(proxies.map((p) => [p.id, p.projectId])))
  return proxies.map((proxy) => ({
    proxyKind: proxy.kind,
    description: proxy.description,
    creationType: proxy.creationType,
    settings: runtimeTrafficLog(runtimeSettings(deps, proxy.settings), connectionNames, endpointsById),
    ...(ROUTED_KINDS.includes(proxy.kind) ? { routingMode: proxy.routingMode, routing: runtimeRouting(deps.keyring, proxy.routing) } : {}),
    policies: byPipeline(deps.keyring, policies.filter((p) => p.apiProxyId === proxy.id && p.endpointId === null)),
    globalPolicies: globals.get(proxy.projectId) ?? [],
    endpoints: endpoints
      .filter((e) => e.apiProxyId === proxy.id)
      .map((e) => ({
        operationId: e.operationId, method: e.method, path: e.path, backendPath: e.backendPath, backendMethod: e.backendMethod, enabled: e.enabled,
        cache: e.cache, wsa: e.wsa,
        policies: byPipeline(deps.keyring, policies.filter((p) => p.endpointId === e.id)),
      })),
  }))
}

/** Records which environments now run `revision` of the proxy (acknowledged ones) or no longer run it. */
export async function record(db: Tx, proxy: Pick<ApiProxy, 'id' | 'revision'>, outcome: DeploymentOutcome, action: 'DEPLOY' | 'UNDEPLOY') {
  const names = outcome.environmentResults.filter((r) => r.success).map((r) => r.environmentName)
  if (!names.length) return
  if (action === 'UNDEPLOY') {
    await db.apiProxyDeployment.deleteMany({ where: { apiProxyId: proxy.id, environmentName: { in: names } } })
    return
  }
  await db.apiProxyDeployment.deleteMany({ where: { apiProxyId: proxy.id, environmentName: { in: names } } })
  await db.apiProxyDeployment.createMany({ data: names.map((environmentName) => ({ apiProxyId: proxy.id, environmentName, revision: proxy.revision })) })
}

/**
 * Pushes the proxy to `environments` and records the acknowledgements; with `history` (an explicit deploy, not the
 * redeploy that follows a change) each acknowledging environment also gets a deploy history row with the snapshot.
 */
export async function pushProxy(deps: Deps, projectName: string, proxy: ApiProxy, environments: DeployEnvironment[], history?: HistoryMeta): Promise<DeploymentOutcome> {
  const [[config], snapshot] = await Promise.all([runtimeConfigsOf(deps, [proxy]), history ? proxySnapshot(deps.prisma, deps.keyring, proxy) : null])
  const outcome = await deps.deployer.push(environments, { action: 'DEPLOY', project: projectName, kind: 'API_PROXY', name: proxy.name, revision: proxy.revision, config })
  await record(deps.prisma, proxy, outcome, 'DEPLOY')
  if (history) await recordProxyHistory(deps, proxy, outcome, 'DEPLOY', history, snapshot)
  return outcome
}

export async function unpushProxy(deps: Deps, projectName: string, proxy: ApiProxy, environments: DeployEnvironment[], history?: HistoryMeta): Promise<DeploymentOutcome> {
  const outcome = await deps.deployer.push(environments, { action: 'UNDEPLOY', project: projectName, kind: 'API_PROXY', name: proxy.name, revision: proxy.revision, config: { proxyKind: proxy.kind } })
  await record(deps.prisma, proxy, outcome, 'UNDEPLOY')
  if (history) await recordProxyHistory(deps, proxy, outcome, 'UNDEPLOY', history, null)
  return outcome
}

/**
 * A write's requested deployment (`deploy: true`): pushed when the caller holds API_MANAGEMENT DEPLOY_UNDEPLOY,
 * otherwise saved and reported as not deployed (spec §5's pattern). null when no deployment was asked for.
 */
export async function requestedDeployment(deps: Deps, access: ProjectAccess, proxy: ApiProxy, deploy: boolean, environments: DeployEnvironment[], history?: HistoryMeta): Promise<DeploymentOutcome | null> {
  if (!deploy) return null
  if (!can(access, 'API_MANAGEMENT', 'DEPLOY_UNDEPLOY')) {
    return notDeployed(environments, `deploying needs API_MANAGEMENT DEPLOY_UNDEPLOY in project '${access.project.name}'`)
  }
  return pushProxy(deps, access.project.name, proxy, environments, history)
}

/** Redeploys the proxy where it runs now (after a change to its policies): the environments with a deployment row. */
export async function deployedEnvironments(db: Tx, access: ProjectAccess, proxyId: string): Promise<DeployEnvironment[]> {
  const rows = await db.apiProxyDeployment.findMany({ where: { apiProxyId: proxyId }, select: { environmentName: true } })
  const names = new Set(rows.map((r) => r.environmentName))
  return (await projectEnvironments(db, access.project.id)).filter((e) => names.has(e.name))
}

/** deployed / redeployRequired per environment of the project, for the proxy reads. */
export async function deploymentListOf(db: Tx, projectId: string, proxy: Pick<ApiProxy, 'id' | 'revision'>) {
  const [environments, rows] = await Promise.all([projectEnvironments(db, projectId), db.apiProxyDeployment.findMany({ where: { apiProxyId: proxy.id } })])
  return environments.map((e) => {
    const row = rows.find((r) => r.environmentName === e.name)
    return { environmentName: e.name, deployed: !!row, redeployRequired: !!row && row.revision < proxy.revision, deployedAt: row?.deployedAt ?? null }
  })
}

/**
 * After a change to what the project's proxies run (a global policy, a policy group): each proxy (all of the project's,
 * or those named) gets a new revision, so reads show redeployRequired, and is redeployed where it runs now when the
 * caller holds API_MANAGEMENT DEPLOY_UNDEPLOY (otherwise reported as saved but not deployed). null: none runs anywhere.
 */
export async function redeployWhereDeployed(deps: Deps, access: ProjectAccess, proxyIds?: string[]): Promise<DeploymentOutcome | null> {
  const where = { projectId: access.project.id, ...(proxyIds ? { id: { in: proxyIds } } : {}) }
  await deps.prisma.apiProxy.updateMany({ where, data: { revision: { increment: 1 } } })
  const proxies = await deps.prisma.apiProxy.findMany({ where, orderBy: { name: 'asc' } })
  const outcomes: DeploymentOutcome[] = []
  const redeployed: string[] = []
  for (const proxy of proxies) {
    const environments = await deployedEnvironments(deps.prisma, access, proxy.id)
    if (!environments.length) continue
    redeployed.push(proxy.name)
    outcomes.push(can(access, 'API_MANAGEMENT', 'DEPLOY_UNDEPLOY')
      ? await pushProxy(deps, access.project.name, proxy, environments)
      : notDeployed(environments, `deploying needs API_MANAGEMENT DEPLOY_UNDEPLOY in project '${access.project.name}'`))
  }
  if (!outcomes.length) return null
  return {
    success: outcomes.every((o) => o.success),
    message: `API proxies redeployed: ${redeployed.map((name, i) => `${name} (${outcomes[i]!.message})`).join('; ')}`,
    responseTimeMs: outcomes.reduce((t, o) => t + o.responseTimeMs, 0),
    environmentResults: outcomes.flatMap((o) => o.environmentResults),
  }
}
