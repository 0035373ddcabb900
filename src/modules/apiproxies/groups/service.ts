import { z } from 'zod'
import type { ApiProxyGroup, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeployEnvironment, DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { objectName } from '../../../platform/validation/common.js'
import { environmentsNamed, runtimeConfigsOf } from '../proxies/automation/deploy.js'
import { deployHistoryInput, recordGroupHistory, type HistoryMeta } from '../deployments/record.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import { actorName } from '../../../platform/auth/actor.js'
import { clientRouteInput, clientRouteOf, pathName } from '../proxies/automation/inputs.js'

// API proxy groups (vendor 09-api-proxy-groups): a named set of the project's API proxies with a shared client
// route, deployed per environment as one message (kind API_PROXY_GROUP) carrying its members. The group is the
// ApiProxyGroup row the proxies' `groups` (GraphQL, bootstrap) already name.

export const groupInput = z.object({
  name: objectName,
  description: z.string().max(2000, 'must be at most 2000 characters').refine((s) => !s.includes('\u0000'), 'must not contain NUL characters').nullish(),
  clientRoute: clientRouteInput,
})

const groupNotFound = (name: string) => notFound(`API proxy group '${name}' not found`, { apiProxyGroup: name })
const json = (v: unknown) => v as Prisma.InputJsonValue

const authorize = (db: Tx, actor: Actor, projectName: string, level: 'VIEW' | 'MANAGE' | 'DEPLOY_UNDEPLOY') => authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', level)

export async function findGroup(db: Tx, projectId: string, rawName: string): Promise<ApiProxyGroup> {
  const name = pathName(rawName, 'apiProxyGroupName')
  const group = await db.apiProxyGroup.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!group) throw groupNotFound(name)
  return group
}

/** A group as its list reads it: the vendor's id, name and description, and the client route its create and update pages write (as GraphQL's ApiProxyGroup). */
export const groupView = (g: ApiProxyGroup) => ({ id: g.id, name: g.name, description: g.description, clientRoute: g.clientRoute as Record<string, unknown> | null })

/** GET …/apiProxyGroups/: id, name and description of every group, by name (API_MANAGEMENT VIEW). */
export async function listGroups(db: Tx, actor: Actor, projectName: string) {
  const access = await authorize(db, actor, projectName, 'VIEW')
  return db.apiProxyGroup.findMany({ where: { projectId: access.project.id }, orderBy: { name: 'asc' } })
}

/** POST …/apiProxyGroups/: a new group; an existing name is refused (use the update). */
export async function createGroup(db: Tx, actor: Actor, projectName: string, body: unknown): Promise<ApiProxyGroup> {
  const access = await authorize(db, actor, projectName, 'MANAGE')
  const input = parseInput(groupInput, body ?? {})
  const projectId = access.project.id
  const clash = await db.apiProxyGroup.findFirst({ where: { projectId, name: { equals: input.name, mode: 'insensitive' } }, select: { name: true } })
  const exists = () => new DomainError('conflict', 'nameAlreadyExists', `API proxy group '${clash?.name ?? input.name}' already exists; use the update endpoint to change it`, { field: 'name', apiProxyGroup: clash?.name ?? input.name })
  if (clash) throw exists()
  return db.apiProxyGroup
    .create({ data: { projectId, name: input.name, description: input.description || null, clientRoute: json(clientRouteOf(input.clientRoute)) } })
    .catch((err: unknown) => {
      if ((err as { code?: string } | null)?.code === 'P2002') throw exists()
      throw err
    })
}

/** PUT …/apiProxyGroups/: replaces the description and client route of the group the body names. */
export async function updateGroup(db: Tx, actor: Actor, projectName: string, body: unknown): Promise<ApiProxyGroup> {
  const access = await authorize(db, actor, projectName, 'MANAGE')
  const input = parseInput(groupInput, body ?? {})
  const group = await findGroup(db, access.project.id, input.name)
  return db.apiProxyGroup.update({ where: { id: group.id }, data: { description: input.description || null, clientRoute: json(clientRouteOf(input.clientRoute)) } })
}

/** DELETE …/apiProxyGroups/{name}/: the group goes, its proxies stay; it is undeployed where it ran. */
export async function deleteGroup(deps: Deps, actor: Actor, projectName: string, name: string): Promise<DeploymentOutcome | null> {
  const access = await authorize(deps.prisma, actor, projectName, 'MANAGE')
  const removed = await deps.prisma.$transaction((tx) => removeGroup(tx, access.project.id, name))
  return undeployRemovedGroup(deps, access, removed)
}

/** The removal of DELETE inside the caller's transaction (also a declarative sync's): what the undeploy needs after it. */
export async function removeGroup(tx: Tx, projectId: string, name: string) {
  const group = await findGroup(tx, projectId, name)
  const deployedTo = (await tx.apiProxyGroupDeployment.findMany({ where: { groupId: group.id }, select: { environmentName: true } })).map((d) => d.environmentName)
  await tx.apiProxyGroup.delete({ where: { id: group.id } })
  return { group, deployedTo }
}

/** After the commit: the removed group is undeployed where it ran (null when it ran nowhere). */
export async function undeployRemovedGroup(deps: Deps, access: ProjectAccess, { group, deployedTo }: Awaited<ReturnType<typeof removeGroup>>): Promise<DeploymentOutcome | null> {
  if (!deployedTo.length) return null
  const environments = (await environmentsNamed(deps.prisma, access, [])).filter((e) => deployedTo.includes(e.name))
  if (!environments.length) return null
  return deps.deployer.push(environments, { action: 'UNDEPLOY', project: access.project.name, kind: 'API_PROXY_GROUP', name: group.name, revision: 0, config: {} })
}

/** POST / DELETE …/apiProxyGroups/{group}/apiProxies/{proxy}/: membership; adding twice or removing a non-member succeeds. */
export async function setGroupMembership(db: Tx, actor: Actor, projectName: string, groupName: string, proxyName: string, member: boolean): Promise<void> {
  const access = await authorize(db, actor, projectName, 'MANAGE')
  const group = await findGroup(db, access.project.id, groupName)
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name: pathName(proxyName, 'apiProxyName') } }, select: { id: true } })
  if (!proxy) throw notFound(`API proxy '${proxyName}' not found`, { apiProxy: proxyName })
  await db.apiProxyGroup.update({ where: { id: group.id }, data: { proxies: member ? { connect: { id: proxy.id } } : { disconnect: { id: proxy.id } } } })
}

async function groupTarget(deps: Deps, actor: Actor, projectName: string, groupName: string, environmentName: string) {
  const access = await authorize(deps.prisma, actor, projectName, 'DEPLOY_UNDEPLOY')
  const group = await findGroup(deps.prisma, access.project.id, groupName)
  const [environment] = await environmentsNamed(deps.prisma, access, [pathName(environmentName, 'environmentName')], 'environmentName')
  return { access, group, environment: environment! }
}

/**
 * POST …/apiProxyGroups/{group}/environments/{env}/: deploys the group with all its proxies to one environment in
 * one message; each acknowledged member counts as deployed there at its current revision. The optional body
 * (description, persistent) annotates the deploy history record.
 */
export async function deployGroup(deps: Deps, actor: Actor, projectName: string, groupName: string, environmentName: string, body?: unknown): Promise<DeploymentOutcome> {
  const { access, group, environment } = await groupTarget(deps, actor, projectName, groupName, environmentName)
  const notes = parseInput(deployHistoryInput, body ?? {})
  return deployGroupTo(deps, access, group, [environment], { ...notes, username: actorName(actor) })
}

/** Pushes the group with its members to `environments`, records where it runs and its deploy history. */
export async function deployGroupTo(deps: Deps, access: ProjectAccess, group: ApiProxyGroup, environments: DeployEnvironment[], history: HistoryMeta): Promise<DeploymentOutcome> {
  const members = await deps.prisma.apiProxy.findMany({ where: { groups: { some: { id: group.id } } }, orderBy: { name: 'asc' } })
  const configs = await runtimeConfigsOf(deps, members)
  const outcome = await deps.deployer.push(environments, {
    action: 'DEPLOY', project: access.project.name, kind: 'API_PROXY_GROUP', name: group.name, revision: 0,
    config: { description: group.description, clientRoute: group.clientRoute, apiProxies: members.map((m, i) => ({ name: m.name, revision: m.revision, config: configs[i] })) },
  })
  const names = outcome.environmentResults.filter((r) => r.success).map((r) => r.environmentName)
  if (names.length) {
    const ids = members.map((m) => m.id)
    await deps.prisma.$transaction([
      deps.prisma.apiProxyGroupDeployment.deleteMany({ where: { groupId: group.id, environmentName: { in: names } } }),
      deps.prisma.apiProxyGroupDeployment.createMany({ data: names.map((environmentName) => ({ groupId: group.id, environmentName })) }),
      deps.prisma.apiProxyDeployment.deleteMany({ where: { apiProxyId: { in: ids }, environmentName: { in: names } } }),
      deps.prisma.apiProxyDeployment.createMany({ data: names.flatMap((environmentName) => members.map((m) => ({ apiProxyId: m.id, environmentName, revision: m.revision }))) }),
    ])
  }
  const snapshot = { description: group.description, clientRoute: group.clientRoute, apiProxies: members.map((m) => m.name) }
  await recordGroupHistory(deps, group, outcome, 'DEPLOY', history, snapshot)
  return outcome
}

/** DELETE …/apiProxyGroups/{group}/environments/{env}/: undeploys the group and its proxies from one environment. */
export async function undeployGroup(deps: Deps, actor: Actor, projectName: string, groupName: string, environmentName: string, body?: unknown): Promise<DeploymentOutcome> {
  const { access, group, environment } = await groupTarget(deps, actor, projectName, groupName, environmentName)
  const notes = parseInput(deployHistoryInput, body ?? {})
  const members = await deps.prisma.apiProxy.findMany({ where: { groups: { some: { id: group.id } } }, select: { id: true, name: true } })
  const outcome = await deps.deployer.push([environment], {
    action: 'UNDEPLOY', project: access.project.name, kind: 'API_PROXY_GROUP', name: group.name, revision: 0, config: { apiProxies: members.map((m) => m.name) },
  })
  if (outcome.success) {
    await deps.prisma.$transaction([
      deps.prisma.apiProxyGroupDeployment.deleteMany({ where: { groupId: group.id, environmentName: environment.name } }),
      deps.prisma.apiProxyDeployment.deleteMany({ where: { apiProxyId: { in: members.map((m) => m.id) }, environmentName: environment.name } }),
    ])
  }
  await recordGroupHistory(deps, group, outcome, 'UNDEPLOY', { ...notes, username: actorName(actor) }, null)
  return outcome
}

/** GET …/apiProxyGroups/{group}/environments/: every environment of the project and whether the group runs there. */
export async function groupEnvironments(db: Tx, actor: Actor, projectName: string, groupName: string) {
  const access = await authorize(db, actor, projectName, 'VIEW')
  const group = await findGroup(db, access.project.id, groupName)
  const [environments, rows] = await Promise.all([environmentsNamed(db, access, []), db.apiProxyGroupDeployment.findMany({ where: { groupId: group.id } })])
  const deployed = new Set(rows.map((r) => r.environmentName))
  return environments.map((e) => ({ environmentName: e.name, deployed: deployed.has(e.name) }))
}
