import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { environmentsNamed } from '../proxies/automation/deploy.js'
import { pathName, type ProxySettings } from '../proxies/automation/inputs.js'
import { findProxy } from '../proxies/automation/service.js'

// Deploy status and route health of an API proxy in one environment (vendor api-proxies/deployment get-deploy-status
// and get-route-health), both read-only (API_MANAGEMENT VIEW).

async function target(db: Tx, actor: Actor, projectName: string, proxyName: string, environmentName: string) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const proxy = await findProxy(db, access.project.id, proxyName)
  const [environment] = await environmentsNamed(db, access, [pathName(environmentName, 'environmentName')], 'environmentName')
  return { access, proxy, environment: environment! }
}

/**
 * GET …/environments/{env}/deploy-status/: deployed (the manager's deployment record), the revision and time of the
 * newest deploy history record of that environment (what a rollback names; null when never deployed with history),
 * and redeployRequired (deployed, and the proxy changed since).
 */
export async function deployStatus(db: Tx, actor: Actor, projectName: string, proxyName: string, environmentName: string) {
  const { proxy, environment } = await target(db, actor, projectName, proxyName, environmentName)
  const [row, last] = await Promise.all([
    db.apiProxyDeployment.findUnique({ where: { apiProxyId_environmentName: { apiProxyId: proxy.id, environmentName: environment.name } } }),
    db.apiDeployHistory.findFirst({ where: { apiProxyId: proxy.id, environmentName: environment.name, deploy: true }, orderBy: { revision: 'desc' } }),
  ])
  return {
    deployed: !!row,
    lastDeployTime: (last?.deployedAt ?? row?.deployedAt ?? null)?.toISOString() ?? null,
    revision: last?.revision ?? null,
    redeployRequired: !!row && row.revision < proxy.revision,
  }
}

/**
 * GET …/environments/{env}/route-health/. *Chosen*: the runtime contract (RUNTIME.md §4) gives workers no probe, only
 * pushes, so each pod is a worker URL of the environment answered from what it last acknowledged: the proxy is
 * active there when the newest push of the proxy (or of a group holding it) to the environment was a DEPLOY that
 * every worker acknowledged. A push that was not acknowledged gives each pod `error` (its state is then unknown)
 * and counts it as answered but not active. `apinizerRootContext` is "" (the gateway serves proxies at its root).
 */
export async function routeHealth(db: Tx, actor: Actor, projectName: string, proxyName: string, environmentName: string) {
  const { access, proxy, environment } = await target(db, actor, projectName, proxyName, environmentName)
  const groups = await db.apiProxyGroup.findMany({ where: { proxies: { some: { id: proxy.id } } }, select: { name: true } })
  const [row, records, endpoints] = await Promise.all([
    db.apiProxyDeployment.findUnique({ where: { apiProxyId_environmentName: { apiProxyId: proxy.id, environmentName: environment.name } } }),
    db.deploymentRecord.findMany({
      where: { projectName: access.project.name, environmentName: environment.name, OR: [{ kind: 'API_PROXY', name: proxy.name }, ...(groups.length ? [{ kind: 'API_PROXY_GROUP', name: { in: groups.map((g) => g.name) } }] : [])] },
    }),
    db.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id, version: '', enabled: true }, select: { method: true }, distinct: ['method'], orderBy: { method: 'asc' } }),
  ])
  const settings = (proxy.settings ?? null) as ProxySettings | null
  const active = records.some((r) => r.action === 'DEPLOY' && r.acknowledged)
  const failed = records.find((r) => !r.acknowledged)
  const routeMethods = settings?.clientRoute?.methodList?.length ? settings.clientRoute.methodList : endpoints.map((e) => e.method)
  const servedPath = proxy.relativePath ?? null
  const rootContext = ''
  const pods = environment.workerUrls.map((workerPodIp) => ({
    routeActive: active,
    servedPath: active ? servedPath : null,
    methods: active ? routeMethods : [],
    workerPodIp,
    apinizerRootContext: rootContext,
    ...(!active && failed ? { error: `the last ${failed.action.toLowerCase()} of ${failed.kind === 'API_PROXY' ? 'the proxy' : `group '${failed.name}'`} was not acknowledged (${failed.at.toISOString()})` } : {}),
  }))
  const podsActive = pods.filter((p) => p.routeActive).length
  const routeActive = pods.length > 0 && podsActive === pods.length
  return {
    routeActive,
    servedPath: routeActive ? servedPath : null,
    methods: routeActive ? routeMethods : [],
    apinizerRootContext: rootContext,
    podsResponded: pods.length,
    podsActive,
    deployedInManager: !!row,
    inconsistent: pods.length > 0 && !!row !== routeActive,
    pods,
  }
}

/**
 * GET …/apiProxies/{name}/invoke-info/ (vendor crud/get-invoke-info): one entry per environment of the project with
 * its access URL, the proxy's full paths (root context "" + each relative path of its client route), the methods of
 * its enabled endpoints, the schemes of the access URL (http when it has none) and whether the proxy runs there.
 */
export async function invokeInfo(db: Tx, actor: Actor, projectName: string, proxyName: string) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const proxy = await findProxy(db, access.project.id, proxyName)
  const [environments, rows, endpoints] = await Promise.all([
    db.environment.findMany({ where: { projects: { some: { projectId: access.project.id } } }, orderBy: { name: 'asc' }, select: { name: true, accessUrl: true } }),
    db.apiProxyDeployment.findMany({ where: { apiProxyId: proxy.id }, select: { environmentName: true } }),
    db.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id, version: '', enabled: true }, select: { method: true }, distinct: ['method'], orderBy: { method: 'asc' } }),
  ])
  const settings = (proxy.settings ?? null) as ProxySettings | null
  const paths = settings?.clientRoute?.relativePathList?.length ? settings.clientRoute.relativePathList : proxy.relativePath ? [proxy.relativePath] : []
  const deployed = new Set(rows.map((r) => r.environmentName))
  return environments.map((e) => ({
    environmentName: e.name,
    gatewayBaseUrl: e.accessUrl,
    rootContext: '',
    fullPaths: paths,
    methods: endpoints.map((x) => x.method.toUpperCase()),
    schemes: [e.accessUrl?.startsWith('https:') ? 'https' : 'http'],
    deployed: deployed.has(e.name),
  }))
}
