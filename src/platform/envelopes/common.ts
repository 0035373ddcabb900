import type { DomainError } from '../errors/domain-error.js'

const statusByKind: Record<DomainError['kind'], number> = {
  validation: 400,
  notFound: 404,
  conflict: 409,
  permission: 403,
  unauthenticated: 401,
  internal: 500,
  unavailable: 503,
}

/** Common Contract error body (spec §7.3): branch on errorKey; correlationId ties it to the logs. */
export function renderCommonError(err: DomainError, correlationId: string): { status: number; body: unknown } {
  return {
    status: statusByKind[err.kind],
    body: { errorKey: err.errorKey, message: err.message, params: err.params, correlationId },
  }
}
