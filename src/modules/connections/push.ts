import { can, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import { notDeployed, projectEnvironments } from '../../platform/deploy/project.js'
import type { DeployMessage, DeploymentOutcome, EnvironmentResult } from '../../platform/deploy/pusher.js'

export const CONNECTION_KIND = 'CONNECTION'
/** The connection's own asset category; PROJECT_MANAGEMENT is accepted in its place at every level. */
export const CONNECTION_CATEGORY = 'CONNECTION'
export const CONNECTION_CATEGORIES = [CONNECTION_CATEGORY, 'PROJECT_MANAGEMENT']

export const canDeploy = (access: ProjectAccess) => CONNECTION_CATEGORIES.some((c) => can(access, c, 'DEPLOY_UNDEPLOY'))

type Message = Omit<DeployMessage, 'project'>

/**
 * Pushes a saved change (RUNTIME.md §4, kind CONNECTION) to every environment of the project, the messages
 * one after the other (a renamed connection's UNDEPLOY before its new name's DEPLOY), so each environment
 * sees them in order. Without DEPLOY_UNDEPLOY the change stays saved and the result says it was not deployed.
 */
export async function pushConnection(deps: Deps, access: ProjectAccess, messages: Message[]): Promise<DeploymentOutcome> {
  const environments = await projectEnvironments(deps.prisma, access.project.id)
  if (!canDeploy(access)) {
    return notDeployed(environments, `deploying needs ${CONNECTION_CATEGORY} (or PROJECT_MANAGEMENT) DEPLOY_UNDEPLOY in project '${access.project.name}'`)
  }
  const outcomes: DeploymentOutcome[] = []
  for (const message of messages) outcomes.push(await deps.deployer.push(environments, { ...message, project: access.project.name }))
  if (outcomes.length === 1) return outcomes[0]!
  const byEnvironment = new Map<string, EnvironmentResult[]>()
  for (const r of outcomes.flatMap((o) => o.environmentResults)) byEnvironment.set(r.environmentName, [...(byEnvironment.get(r.environmentName) ?? []), r])
  const environmentResults = [...byEnvironment.values()].map((rs) => ({
    environmentName: rs[0]!.environmentName,
    success: rs.every((r) => r.success),
    message: rs.map((r) => r.message).join('; '),
    responseTimeMs: rs.reduce((sum, r) => sum + r.responseTimeMs, 0),
  }))
  const failed = environmentResults.filter((r) => !r.success)
  return {
    success: failed.length === 0,
    message: failed.length ? `Failed in ${failed.length} of ${environmentResults.length} environment(s): ${failed.map((f) => f.environmentName).join(', ')}` : `Deployment completed in ${environmentResults.length} environment(s)`,
    responseTimeMs: environmentResults.reduce((max, r) => Math.max(max, r.responseTimeMs), 0),
    environmentResults,
  }
}

/** The outcome of a save that is not pushed because the connection says deployToWorker false. */
export const notPushed = (): DeploymentOutcome => ({ success: true, message: 'Not deployed: deployToWorker is false', responseTimeMs: 0, environmentResults: [] })
