import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { notFound } from '../../../platform/errors/domain-error.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'

const proxyNotFound = (name: string) => notFound(`API proxy '${name}' not found`, { apiProxy: name })

/**
 * Deletes an API proxy (its routing, endpoints and versions go with it) and then undeploys what the gateway
 * holds of it: the proxy itself when it was ever deployed, and every endpoint version.
 */
export async function deleteApiProxyAndUndeploy(deps: Deps, actor: Actor, projectName: string, name: string): Promise<DeploymentOutcome[]> {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'API_MANAGEMENT', 'MANAGE')
  const { proxy, versions, deployedTo } = await deps.prisma.$transaction(async (tx) => {
    const proxy = await tx.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name } } })
    if (!proxy) throw proxyNotFound(name)
    const versions = await tx.apiEndpointVersion.findMany({ where: { apiProxyId: proxy.id }, select: { version: true, revision: true } })
    const deployedTo = await tx.apiProxyDeployment.findMany({ where: { apiProxyId: proxy.id }, select: { environmentName: true } })
    await tx.apiProxy.delete({ where: { id: proxy.id } })
    return { proxy, versions, deployedTo }
  })
  const environments = await projectEnvironments(deps.prisma, proxy.projectId)
  const undeploy = (kind: string, deployName: string, revision: number, config: Record<string, unknown>, to = environments) =>
    deps.deployer.push(to, { action: 'UNDEPLOY', project: access.project.name, kind, name: deployName, revision, config })
  // AI, MCP and A2A proxies are pushed to every environment on each write; the others run where they were deployed
  const routed = ['AI', 'MCP', 'A2A'].includes(proxy.kind) && proxy.revision > 0
  const running = new Set(deployedTo.map((d) => d.environmentName))
  const proxyTargets = routed ? environments : environments.filter((e) => running.has(e.name))
  return Promise.all([
    ...(proxyTargets.length ? [undeploy('API_PROXY', proxy.name, proxy.revision, { proxyKind: proxy.kind }, proxyTargets)] : []),
    ...versions.map((v) => undeploy('API_PROXY_VERSION', v.version ? `${proxy.name}/${v.version}` : proxy.name, v.revision, { apiProxy: proxy.name, version: v.version })),
  ])
}
