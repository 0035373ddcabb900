import type { EnvironmentVariable } from '../../generated/prisma/client.js'
import { can, type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import { notDeployed, projectEnvironments } from '../../platform/deploy/project.js'
import type { DeployEnvironment, DeployMessage, DeploymentOutcome, EnvironmentResult } from '../../platform/deploy/pusher.js'
import type { SecretKeyring } from '../../platform/secrets/keyring.js'
import { storedValues } from './values.js'

export const ENVIRONMENT_VARIABLE_KIND = 'ENVIRONMENT_VARIABLE'
const CATEGORY = 'PROJECT_MANAGEMENT'

/**
 * The message one environment gets: its own value (a per-environment variable must not carry another
 * environment's secret), decrypted because the gateway needs it; UNDEPLOY where the variable has no value.
 */
export function messageFor(keyring: SecretKeyring, variable: EnvironmentVariable, environmentName: string): Omit<DeployMessage, 'project'> {
  const base = { kind: ENVIRONMENT_VARIABLE_KIND, name: variable.name, revision: variable.revision }
  if (variable.global) {
    const value = variable.globalVisible ? variable.globalValue : variable.globalValueCipher ? keyring.decrypt(variable.globalValueCipher) : null
    return { ...base, action: 'DEPLOY', config: { name: variable.name, secret: !variable.globalVisible, value } }
  }
  const entry = storedValues(variable).find((v) => v.environmentName === environmentName)
  if (!entry) return { ...base, action: 'UNDEPLOY', config: { name: variable.name } }
  const value = entry.visible ? entry.value : entry.valueCipher ? keyring.decrypt(entry.valueCipher) : null
  return { ...base, action: 'DEPLOY', config: { name: variable.name, secret: !entry.visible, value } }
}

/** Several pushes' outcomes as one deployment result: an environment succeeded when each of its pushes did. */
function combine(perEnvironment: EnvironmentResult[][]): DeploymentOutcome {
  const environmentResults = perEnvironment.map((results) => ({
    environmentName: results[0].environmentName,
    success: results.every((r) => r.success),
    message: results.map((r) => r.message).join('; '),
    responseTimeMs: results.reduce((sum, r) => sum + r.responseTimeMs, 0),
  }))
  const failed = environmentResults.filter((r) => !r.success)
  return {
    success: failed.length === 0,
    message: failed.length
      ? `Failed in ${failed.length} of ${environmentResults.length} environment(s): ${failed.map((f) => f.environmentName).join(', ')}`
      : `Deployment completed in ${environmentResults.length} environment(s)`,
    responseTimeMs: environmentResults.reduce((max, r) => Math.max(max, r.responseTimeMs), 0),
    environmentResults,
  }
}

/**
 * Pushes a saved change to every environment of the project, in parallel; per environment the messages
 * go in order (an UNDEPLOY of a renamed variable's old name before the DEPLOY of its new one). Without
 * PROJECT_MANAGEMENT DEPLOY_UNDEPLOY the change stays saved and the result says it was not deployed.
 */
export async function pushVariable(
  deps: Deps,
  access: ProjectAccess,
  messages: (environment: DeployEnvironment) => Omit<DeployMessage, 'project'>[],
): Promise<DeploymentOutcome> {
  const environments = await projectEnvironments(deps.prisma, access.project.id)
  if (!can(access, CATEGORY, 'DEPLOY_UNDEPLOY')) {
    return notDeployed(environments, `deploying needs ${CATEGORY} DEPLOY_UNDEPLOY in project '${access.project.name}'`)
  }
  const perEnvironment = await Promise.all(
    environments.map(async (environment) => {
      const results: EnvironmentResult[] = []
      for (const message of messages(environment)) {
        const outcome = await deps.deployer.push([environment], { ...message, project: access.project.name })
        results.push(...outcome.environmentResults)
      }
      return results
    }),
  )
  return combine(perEnvironment.filter((r) => r.length > 0))
}
