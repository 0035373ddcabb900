import type { DomainError } from '../errors/domain-error.js'

/** Legacy status table (spec §7.1): everything a client did wrong is 400, auth is 401, the rest 500. */
export function renderLegacyError(err: DomainError): { status: number; body: unknown } {
  const status = err.kind === 'unauthenticated' ? 401 : err.kind === 'internal' ? 500 : 400
  return { status, body: { status: 'FAILURE', resultMessage: err.message } }
}

export const legacyList = <T>(items: T[]) => ({ status: 'SUCCESS', resultList: items, resultCount: items.length })

export const legacySuccess = <T extends object>(fields: T) => ({ status: 'SUCCESS', ...fields })
