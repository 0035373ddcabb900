import { can, type ProjectAccess } from '../auth/permissions.js'
import type { Deps, Tx } from '../context.js'
import type { DeployEnvironment, DeployMessage, DeploymentOutcome } from './pusher.js'

/** Every environment of the installation, sorted by name: for installation-wide settings and catalogs. */
export async function installationEnvironments(db: Tx): Promise<DeployEnvironment[]> {
  const rows = await db.environment.findMany({ orderBy: { name: 'asc' } })
  return rows.map((e) => ({ name: e.name, workerUrls: e.workerUrls }))
}

export async function projectEnvironments(db: Tx, projectId: string): Promise<DeployEnvironment[]> {
  const links = await db.projectEnvironment.findMany({ where: { projectId }, include: { environment: true } })
  return links.map((l) => ({ name: l.environment.name, workerUrls: l.environment.workerUrls })).sort((a, b) => a.name.localeCompare(b.name))
}

/** The outcome when a change was saved but the caller may not deploy it: every environment says why. */
export function notDeployed(environments: DeployEnvironment[], reason: string): DeploymentOutcome {
  return {
    success: false,
    message: `Saved but not deployed: ${reason}`,
    responseTimeMs: 0,
    environmentResults: environments.map((e) => ({ environmentName: e.name, success: false, message: `Not deployed: ${reason}`, responseTimeMs: 0 })),
  }
}

/**
 * Pushes a saved change to every environment of the project when the caller holds `category`
 * DEPLOY_UNDEPLOY; otherwise reports it as saved but not deployed. Never undoes the save.
 */
export async function deployIfPermitted(
  deps: Deps,
  access: ProjectAccess,
  category: string,
  message: Omit<DeployMessage, 'project'>,
): Promise<DeploymentOutcome> {
  const environments = await projectEnvironments(deps.prisma, access.project.id)
  if (!can(access, category, 'DEPLOY_UNDEPLOY')) {
    return notDeployed(environments, `deploying needs ${category} DEPLOY_UNDEPLOY in project '${access.project.name}'`)
  }
  return deps.deployer.push(environments, { ...message, project: access.project.name })
}
