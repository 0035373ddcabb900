import { DomainError } from '../../platform/errors/domain-error.js'
import type { RouteResult } from '../../platform/http/routes.js'
import { USD_PRICE_MISSING } from './price-check.js'

/**
 * The legacy endpoints that answer a stable errorKey do so with a problem-style body (spec §7.1: type,
 * path, numeric status, errorKey), here with the params the client branches on. The legacy renderer
 * only knows status/resultMessage, so the USD price check is rendered here; every other error goes on
 * to the legacy renderer unchanged.
 */
export async function withProblemBody(path: string, correlationId: string, run: () => Promise<RouteResult>): Promise<RouteResult> {
  try {
    return await run()
  } catch (err) {
    if (!(err instanceof DomainError) || err.errorKey !== USD_PRICE_MISSING) throw err
    return {
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
      body: {
        type: 'about:blank',
        title: 'Bad Request',
        status: 400,
        detail: err.message,
        path,
        errorKey: err.errorKey,
        params: err.params,
        correlationId,
      },
    }
  }
}
