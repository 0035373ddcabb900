import { z } from 'zod'
import type { ApiProxy, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { projectEnvironments } from '../../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { fullPathOf, versionField } from './inputs.js'
import { access, endpointProxy, endpointView, findProxy, json, parseVersion, problem, raceChecked, versionLabel } from './rules.js'
import { insertEndpointRows } from './bulk.js'

// Path versions of an API proxy's endpoints (spec §9.6): each version deploys on its own, as kind
// API_PROXY_VERSION named `<proxy>` (unversioned) or `<proxy>/<version>`, so old versions keep running beside new ones.

export const deployNameOf = (proxy: string, version: string) => (version ? `${proxy}/${version}` : proxy)

export interface VersionDeployment {
  version: string
  deploymentResult: DeploymentOutcome
}

/** Bumps the version's revision in the transaction; the push happens after commit. */
export async function touchVersion(db: Tx, apiProxyId: string, version: string, extra: { deprecated?: boolean } = {}) {
  return db.apiEndpointVersion.upsert({
    where: { apiProxyId_version: { apiProxyId, version } },
    create: { apiProxyId, version, revision: 1, ...extra },
    update: { revision: { increment: 1 }, ...extra },
  })
}

/** Pushes one version with all its endpoints; a version left without endpoints is undeployed and forgotten. */
export async function pushVersion(deps: Deps, projectName: string, proxy: ApiProxy, version: string): Promise<DeploymentOutcome> {
  const environments = await projectEnvironments(deps.prisma, proxy.projectId)
  const endpoints = await deps.prisma.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id, version }, orderBy: [{ path: 'asc' }, { method: 'asc' }] })
  const row = await deps.prisma.apiEndpointVersion.findUnique({ where: { apiProxyId_version: { apiProxyId: proxy.id, version } } })
  const name = deployNameOf(proxy.name, version)
  const revision = row?.revision ?? 0
  if (!endpoints.length) {
    await deps.prisma.apiEndpointVersion.deleteMany({ where: { apiProxyId: proxy.id, version } })
    return deps.deployer.push(environments, { action: 'UNDEPLOY', project: projectName, kind: 'API_PROXY_VERSION', name, revision, config: { apiProxy: proxy.name, version } })
  }
  return deps.deployer.push(environments, {
    action: 'DEPLOY',
    project: projectName,
    kind: 'API_PROXY_VERSION',
    name,
    revision,
    config: {
      apiProxy: proxy.name,
      proxyKind: proxy.kind,
      version,
      basePath: fullPathOf(version, '/'),
      deprecated: row?.deprecated ?? false,
      endpoints: endpoints.map((e) => ({ ...endpointView(proxy.name, e), createdAt: undefined, updatedAt: undefined })),
    },
  })
}

export async function listEndpointVersions(db: Tx, actor: Actor, projectName: string, proxyName: string) {
  const { project } = await access(db, actor, projectName, 'VIEW')
  const proxy = await findProxy(db, project.id, proxyName)
  return (await endpointVersionsOf(db, [proxy]))[0]!
}

/** The path versions of several proxies in two queries (versions, endpoint counts), in the order of `proxies`. */
export async function endpointVersionsOf(db: Tx, proxies: readonly { id: string; name: string }[]) {
  const ids = proxies.map((p) => p.id)
  const [versions, counts] = await Promise.all([
    db.apiEndpointVersion.findMany({ where: { apiProxyId: { in: ids } }, orderBy: { version: 'asc' } }),
    db.gatewayEndpoint.groupBy({ by: ['apiProxyId', 'version'], where: { apiProxyId: { in: ids } }, _count: { _all: true } }),
  ])
  const countOf = new Map(counts.map((c) => [`${c.apiProxyId}|${c.version}`, c._count._all]))
  return proxies.map((proxy) =>
    versions
      .filter((v) => v.apiProxyId === proxy.id)
      .map((v) => ({
        version: v.version, basePath: fullPathOf(v.version, '/'), deployName: deployNameOf(proxy.name, v.version), revision: v.revision,
        deprecated: v.deprecated, endpointCount: countOf.get(`${proxy.id}|${v.version}`) ?? 0, createdAt: v.createdAt, updatedAt: v.updatedAt,
      })),
  )
}

/**
 * Starts a new path version from an existing one (every endpoint copied) and deploys it beside the old one,
 * which keeps running unchanged.
 */
export async function copyEndpointVersion(deps: Deps, actor: Actor, projectName: string, proxyName: string, fromRaw: string | null | undefined, toRaw: string): Promise<VersionDeployment> {
  const { project } = await access(deps.prisma, actor, projectName, 'MANAGE')
  const from = parseVersion(fromRaw)
  const to = parseInput(z.object({ toVersion: versionField.refine((v) => v !== '', 'must not be empty') }), { toVersion: toRaw }).toVersion
  if (from === to) throw problem('toVersion', 'must differ from fromVersion')
  const proxy = await raceChecked(deps.prisma.$transaction(async (tx) => {
    const proxy = await findProxy(tx, project.id, proxyName)
    endpointProxy(proxy)
    const source = await tx.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id, version: from } })
    if (!source.length) throw notFound(`API proxy '${proxy.name}' has no endpoints in ${versionLabel(from)}`, { field: 'fromVersion', apiProxy: proxy.name, version: from })
    if (await tx.gatewayEndpoint.count({ where: { apiProxyId: proxy.id, version: to } })) {
      throw new DomainError('conflict', 'versionAlreadyExists', `Version '${to}' of API proxy '${proxy.name}' already exists`, { field: 'toVersion', apiProxy: proxy.name, version: to })
    }
    await insertEndpointRows(tx, source.map(({ id: _id, createdAt: _c, updatedAt: _u, ...e }) => ({
      ...e, version: to, parameters: e.parameters as Prisma.InputJsonValue, responses: e.responses as Prisma.InputJsonValue,
      rewriteRules: e.rewriteRules as Prisma.InputJsonValue, policies: e.policies as Prisma.InputJsonValue, requestBody: json(e.requestBody), routing: json(e.routing), cache: json(e.cache), wsa: json(e.wsa),
    })))
    await touchVersion(tx, proxy.id, to, { deprecated: false })
    return proxy
  }))
  return { version: to, deploymentResult: await pushVersion(deps, project.name, proxy, to) }
}

/** Marks a version deprecated (or not) and redeploys it: it keeps serving, the gateway may announce the deprecation. */
export async function setEndpointVersionDeprecated(deps: Deps, actor: Actor, projectName: string, proxyName: string, versionRaw: string | null | undefined, deprecated: boolean): Promise<VersionDeployment> {
  const { project } = await access(deps.prisma, actor, projectName, 'MANAGE')
  const version = parseVersion(versionRaw)
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const proxy = await findProxy(tx, project.id, proxyName)
    if (!(await tx.apiEndpointVersion.findUnique({ where: { apiProxyId_version: { apiProxyId: proxy.id, version } } }))) {
      throw notFound(`API proxy '${proxy.name}' has no ${versionLabel(version)}`, { field: 'version', apiProxy: proxy.name, version })
    }
    await touchVersion(tx, proxy.id, version, { deprecated })
    return proxy
  })
  return { version, deploymentResult: await pushVersion(deps, project.name, proxy, version) }
}

/** Retires a version: its endpoints are deleted and it is undeployed; other versions are untouched. */
export async function deleteEndpointVersion(deps: Deps, actor: Actor, projectName: string, proxyName: string, versionRaw: string | null | undefined): Promise<VersionDeployment> {
  const { project } = await access(deps.prisma, actor, projectName, 'MANAGE')
  const version = parseVersion(versionRaw)
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const proxy = await findProxy(tx, project.id, proxyName)
    const removed = await tx.gatewayEndpoint.deleteMany({ where: { apiProxyId: proxy.id, version } })
    if (!removed.count) throw notFound(`API proxy '${proxy.name}' has no endpoints in ${versionLabel(version)}`, { field: 'version', apiProxy: proxy.name, version })
    await touchVersion(tx, proxy.id, version)
    return proxy
  })
  return { version, deploymentResult: await pushVersion(deps, project.name, proxy, version) }
}

