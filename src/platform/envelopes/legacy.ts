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

/**
 * The one rule of a legacy success (issue 28 §2): `success: true` beside `status: SUCCESS`, as the vendor pages show
 * it, on every legacy JSON answer; the router applies it to each one, so no route chooses. An answer that reports an
 * outcome of its own under that name (a connection test that ran and failed: `success: false`) keeps it. Failures
 * never get it: their body stays status FAILURE and resultMessage (spec §7.1), as the pages show no `success` there.
 */
export function withLegacySuccess(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Buffer.isBuffer(body)) return body
  const { status, ...rest } = body as Record<string, unknown>
  if (status !== 'SUCCESS' || 'success' in rest) return body
  return { status, success: true, ...rest }
}

export const legacySuccess = <T extends object>(fields: T) => ({ status: 'SUCCESS', ...fields })

/** The legacy deploymentResult of a deploying write (spec §2.1: success, message, environmentResults[]). */
export const legacyDeploymentResult = (outcome: DeploymentOutcome) => ({
  success: outcome.success,
  message: outcome.message,
  environmentResults: outcome.environmentResults.map(({ environmentName, success, message }) => ({ environmentName, success, message })),
})
