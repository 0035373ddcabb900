/**
 * The one error type services throw. Renderers (legacy, Common Contract, GraphQL) pick status codes
 * and body shapes from `kind`; services never do.
 */
export type ErrorKind =
  | 'validation'
  | 'notFound'
  | 'conflict'
  | 'permission'
  | 'unauthenticated'
  | 'internal'

export type ErrorParams = Record<string, unknown>

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly errorKey: string,
    message: string,
    readonly params: ErrorParams = {},
  ) {
    super(message)
    this.name = 'DomainError'
  }
}

export const malformed = (message: string, params: ErrorParams = {}) =>
  new DomainError('validation', 'malformedRequest', message, params)

export const notFound = (message: string, params: ErrorParams = {}) =>
  new DomainError('notFound', 'resourceNotFound', message, params)

export const permissionDenied = (message: string, params: ErrorParams = {}) =>
  new DomainError('permission', 'permissionDenied', message, params)

export const lifecycleConflict = (reason: string, message: string, params: ErrorParams = {}) =>
  new DomainError('conflict', 'lifecycleConflict', message, { reason, ...params })

export const unauthenticated = (message = 'Invalid or missing token') =>
  new DomainError('unauthenticated', 'unauthorized', message)

/** Anything that is not a DomainError is an unexpected failure; its text never reaches the client. */
export function asDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err
  return new DomainError('internal', 'internalError', 'Unexpected error')
}
