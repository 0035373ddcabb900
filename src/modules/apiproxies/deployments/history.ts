import { z } from 'zod'
import type { ApiDeployHistory, ApiProxy, ApiProxyGroup, Prisma } from '../../../generated/prisma/client.js'
import { actorName, type Actor } from '../../../platform/auth/actor.js'
import { can, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { notDeployed } from '../../../platform/deploy/project.js'
import type { DeployEnvironment, DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { openPackageSecrets } from '../../../platform/transfer/package/secrets.js'
import { deployGroupTo, findGroup } from '../groups/service.js'
import { preparePackage, replaceFromPackage } from '../proxies/portable.js'
import { deployedEnvironments, environmentsNamed, pushProxy } from '../proxies/automation/deploy.js'
import { pathName } from '../proxies/automation/inputs.js'
import { findProxy } from '../proxies/automation/service.js'
import type { GroupSnapshot, ProxySnapshot } from './record.js'

// Deploy histories of API proxies and groups (vendor api-proxies/deployment and api-proxy-groups/deployment pages):
// list, detail, delete, and rollback to a revision. A proxy's rollback writes back the portable form its history row
// keeps (proxies/portable.ts, the same code as the proxy import), then redeploys it: to `environmentName` when given,
// else where the proxy runs now (spec §1 rule 6: a change to deployable configuration is pushed).

type Level = 'VIEW' | 'MANAGE'
const authorize = (db: Tx, actor: Actor, projectName: string, level: Level) => authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', level)

/** The `revision` path parameter: a positive integer. */
export function revisionOf(raw: string | undefined): number {
  if (!raw || !/^[0-9]{1,9}$/.test(raw) || Number(raw) < 1) throw malformed(`revision: must be a positive integer, got '${raw ?? ''}'`, { field: 'revision' })
  return Number(raw)
}

/** The rollback's one query parameter. */
export const rollbackQuery = z.object({ environmentName: z.string().max(255).optional().describe('deploy the rolled-back configuration to this environment (default: redeploy where it runs now)') })

export const proxyHistoryView = (r: ApiDeployHistory) => ({
  revision: r.revision, username: r.username, deploymentTime: r.deployedAt.toISOString(), description: r.description, environment: r.environmentName,
  deploy: r.deploy, persistent: r.persistent, backendApiVersion: r.backendApiVersion,
})
export const groupHistoryView = (r: ApiDeployHistory) => ({
  revision: r.revision, username: r.username, date: r.deployedAt.toISOString(), description: r.description, environment: r.environmentName, deploy: r.deploy, persistent: r.persistent,
})

type Owner = { kind: 'proxy'; row: ApiProxy } | { kind: 'group'; row: ApiProxyGroup }
const ownerWhere = (o: Owner) => (o.kind === 'proxy' ? { apiProxyId: o.row.id } : { groupId: o.row.id })
const ownerLabel = (o: Owner) => (o.kind === 'proxy' ? `ApiProxy (${o.row.name})` : `ApiProxyGroup (${o.row.name})`)

async function ownerOf(db: Tx, access: ProjectAccess, kind: Owner['kind'], name: string): Promise<Owner> {
  return kind === 'proxy' ? { kind, row: await findProxy(db, access.project.id, name) } : { kind, row: await findGroup(db, access.project.id, name) }
}

async function historyRow(db: Tx, owner: Owner, revision: number): Promise<ApiDeployHistory> {
  const row = await db.apiDeployHistory.findFirst({ where: { ...ownerWhere(owner), revision } })
  if (!row) throw notFound(`Deploy history with revision (${revision}) is not found for ${ownerLabel(owner)}!`, { revision, ...(owner.kind === 'proxy' ? { apiProxy: owner.row.name } : { apiProxyGroup: owner.row.name }) })
  return row
}

/** GET …/deploy-histories/: newest first (API_MANAGEMENT VIEW). */
export async function listHistory(db: Tx, actor: Actor, projectName: string, kind: Owner['kind'], name: string): Promise<ApiDeployHistory[]> {
  const access = await authorize(db, actor, projectName, 'VIEW')
  const owner = await ownerOf(db, access, kind, name)
  return db.apiDeployHistory.findMany({ where: ownerWhere(owner), orderBy: { revision: 'desc' } })
}

/** GET …/deploy-histories/{revision}/ (API_MANAGEMENT VIEW). */
export async function historyDetail(db: Tx, actor: Actor, projectName: string, kind: Owner['kind'], name: string, rawRevision: string | undefined): Promise<ApiDeployHistory> {
  const access = await authorize(db, actor, projectName, 'VIEW')
  const owner = await ownerOf(db, access, kind, name)
  return historyRow(db, owner, revisionOf(rawRevision))
}

/** DELETE …/deploy-histories/{revision}/: the record and its snapshot go; nothing is pushed (API_MANAGEMENT MANAGE). */
export async function deleteHistory(db: Tx, actor: Actor, projectName: string, kind: Owner['kind'], name: string, rawRevision: string | undefined): Promise<ApiDeployHistory> {
  const access = await authorize(db, actor, projectName, 'MANAGE')
  const owner = await ownerOf(db, access, kind, name)
  const row = await historyRow(db, owner, revisionOf(rawRevision))
  await db.apiDeployHistory.delete({ where: { id: row.id } })
  return row
}

export interface RollbackResult {
  revision: number
  /** null when there was nowhere to deploy (not deployed anywhere, no environmentName) */
  deploymentResult: DeploymentOutcome | null
  resultMessage: string
}

function rollbackRefused(owner: Owner, revision: number, why: string) {
  return malformed(`Rollback failed for deploy history revision (${revision})! ${why}`, { revision, reason: why })
}

/** The environments the rollback deploys to: the one named, else where the owner runs now. */
async function rollbackTargets(db: Tx, access: ProjectAccess, owner: Owner, environmentName: string | undefined): Promise<DeployEnvironment[]> {
  if (environmentName !== undefined) return environmentsNamed(db, access, [pathName(environmentName, 'environmentName')], 'environmentName')
  if (owner.kind === 'proxy') return deployedEnvironments(db, access, owner.row.id)
  const names = new Set((await db.apiProxyGroupDeployment.findMany({ where: { groupId: owner.row.id }, select: { environmentName: true } })).map((d) => d.environmentName))
  return (await environmentsNamed(db, access, [])).filter((e) => names.has(e.name))
}

function rollbackMessage(revision: number, kind: Owner['kind'], outcome: DeploymentOutcome | null, environmentName: string | undefined) {
  const done = `${kind === 'proxy' ? 'API Proxy' : 'API Proxy Group'} rolled back successfully to deploy history revision (${revision}).`
  if (!outcome) return done
  if (outcome.success) return `${done} Deployed to environment${outcome.environmentResults.length === 1 ? '' : 's'}: ${outcome.environmentResults.map((r) => r.environmentName).join(', ')}`
  const failure = outcome.environmentResults.find((r) => !r.success)
  return `${kind === 'proxy' ? 'API Proxy' : 'API Proxy Group'} rolled back successfully but deployment failed${environmentName ? '' : ` in ${failure?.environmentName}`}: ${failure?.message ?? outcome.message}`
}

/**
 * POST …/apiProxies/{name}/deploy-histories/{revision}/rollback/?environmentName=: the proxy's configuration,
 * endpoints and policies as that deploy pushed them (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY, else
 * saved and reported as not deployed). Its name and its deployments stay those of today.
 */
export async function rollbackProxy(deps: Deps, actor: Actor, projectName: string, proxyName: string, rawRevision: string | undefined, query: unknown): Promise<RollbackResult> {
  const access = await authorize(deps.prisma, actor, projectName, 'MANAGE')
  const { environmentName } = parseInput(rollbackQuery, query ?? {})
  const owner = await ownerOf(deps.prisma, access, 'proxy', proxyName)
  const revision = revisionOf(rawRevision)
  const row = await historyRow(deps.prisma, owner, revision)
  const proxy = owner.row as ApiProxy
  if (!row.deploy) throw rollbackRefused(owner, revision, 'it records an undeploy, which has no configuration to restore')
  if (!row.snapshot) throw rollbackRefused(owner, revision, `it keeps no configuration (${proxy.kind} proxies are not kept in portable form)`)
  const targets = await rollbackTargets(deps.prisma, access, owner, environmentName)
  const snapshot = row.snapshot as unknown as ProxySnapshot
  const label = `deploy history revision (${revision})`
  const opened = openPackageSecrets(deps.keyring, label, snapshot.secrets ?? {})
  if (opened.uncarried.length) throw rollbackRefused(owner, revision, `its secrets (${opened.uncarried.join(', ')}) no longer open with this installation's keys`)
  const pkg = preparePackage(label, proxy.name, structuredClone(snapshot.data), opened.secrets, [])
  const restored = await deps.prisma.$transaction((tx) => replaceFromPackage(tx, deps.keyring, access.project.id, proxy.name, pkg))
  const deploymentResult = await deployRolledBack(access, targets, (envs) =>
    pushProxy(deps, access.project.name, restored, envs, { username: actorName(actor), description: `Rollback to deploy history revision (${revision})` }),
  )
  return { revision, deploymentResult, resultMessage: rollbackMessage(revision, 'proxy', deploymentResult, environmentName) }
}

async function deployRolledBack(access: ProjectAccess, targets: DeployEnvironment[], push: (envs: DeployEnvironment[]) => Promise<DeploymentOutcome>): Promise<DeploymentOutcome | null> {
  if (!targets.length) return null
  if (!can(access, 'API_MANAGEMENT', 'DEPLOY_UNDEPLOY')) return notDeployed(targets, `deploying needs API_MANAGEMENT DEPLOY_UNDEPLOY in project '${access.project.name}'`)
  return push(targets)
}

/**
 * POST …/apiProxyGroups/{name}/deploy-histories/{revision}/rollback/?environmentName= (*chosen*, the group pages
 * have none): the group's description, client route and members as that deploy pushed them, then redeployed like
 * the proxy's rollback. A member that no longer exists is refused by name, nothing written.
 */
export async function rollbackGroup(deps: Deps, actor: Actor, projectName: string, groupName: string, rawRevision: string | undefined, query: unknown): Promise<RollbackResult> {
  const access = await authorize(deps.prisma, actor, projectName, 'MANAGE')
  const { environmentName } = parseInput(rollbackQuery, query ?? {})
  const owner = await ownerOf(deps.prisma, access, 'group', groupName)
  const revision = revisionOf(rawRevision)
  const row = await historyRow(deps.prisma, owner, revision)
  if (!row.deploy || !row.snapshot) throw rollbackRefused(owner, revision, 'it records an undeploy, which has no configuration to restore')
  const snapshot = row.snapshot as unknown as GroupSnapshot
  const targets = await rollbackTargets(deps.prisma, access, owner, environmentName)
  const group = await deps.prisma.$transaction(async (tx) => {
    const members = await tx.apiProxy.findMany({ where: { projectId: access.project.id, name: { in: snapshot.apiProxies } }, select: { id: true, name: true } })
    const missing = snapshot.apiProxies.filter((n) => !members.some((m) => m.name === n))
    if (missing.length) throw rollbackRefused(owner, revision, `its member API proxies ${missing.map((n) => `'${n}'`).join(', ')} no longer exist`)
    return tx.apiProxyGroup.update({
      where: { id: owner.row.id },
      data: { description: snapshot.description, clientRoute: (snapshot.clientRoute ?? undefined) as Prisma.InputJsonValue | undefined, proxies: { set: members.map((m) => ({ id: m.id })) } },
    })
  })
  const deploymentResult = await deployRolledBack(access, targets, (envs) => deployGroupTo(deps, access, group, envs, { username: actorName(actor), description: `Rollback to deploy history revision (${revision})` }))
  return { revision, deploymentResult, resultMessage: rollbackMessage(revision, 'group', deploymentResult, environmentName) }
}
