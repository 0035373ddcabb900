import type { DeploymentOutcome } from '../deploy/pusher.js'
import type { DomainError } from '../errors/domain-error.js'

/**
 * Legacy status table (spec §7.1): everything a client did wrong is 400, auth is 401, the rest 500; a database
 * outage is 503 (with Retry-After, set by the router) in the same FAILURE envelope.
 */
export function renderLegacyError(err: DomainError): { status: number; body: unknown } {
  const status = err.kind === 'unauthenticated' ? 401 : err.kind === 'internal' ? 500 : err.kind === 'unavailable' ? 503 : 400
  return { status, body: { status: 'FAILURE', resultMessage: err.message } }
}

export const legacyList = <T>(items: T[]) => ({ status: 'SUCCESS', resultList: items, resultCount: items.length })

export const legacySuccess = <T extends object>(fields: T) => ({ status: 'SUCCESS', ...fields })

/** The legacy deploymentResult of a deploying write (spec §2.1: success, message, environmentResults[]). */
export const legacyDeploymentResult = (outcome: DeploymentOutcome) => ({
  success: outcome.success,
  message: outcome.message,
  environmentResults: outcome.environmentResults.map(({ environmentName, success, message }) => ({ environmentName, success, message })),
})
