import { isDatabaseOutage } from '../db/outage.js'

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
  /** the database is unreachable (an outage, db/outage.ts): 503 with Retry-After, whatever the door */
  | 'unavailable'

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

/**
 * A malformedRequest whose cause is params.reason (spec §7.3: platformScopeNotSupported, unknownType,
 * importNameCollision…). A cause is never an errorKey of its own: clients branch on errorKey, then reason.
 */
export const malformedReason = (reason: string, message: string, params: ErrorParams = {}) =>
  new DomainError('validation', 'malformedRequest', message, { reason, ...params })

/**
 * The same error as a malformedRequest: a validation error thrown under its own key by a service shared with
 * the legacy surface (credentialUsernameTaken…) keeps that key as params.reason. Other kinds pass unchanged.
 */
export function asMalformedReason(err: unknown): unknown {
  if (!(err instanceof DomainError) || err.kind !== 'validation' || OWN_400_KEYS.has(err.errorKey)) return err
  return malformedReason(err.errorKey, err.message, { ...err.params, reason: err.errorKey })
}

/** The 400 errorKeys of spec §7.3 that are keys of their own, not causes of malformedRequest. */
const OWN_400_KEYS = new Set(['malformedRequest', 'idempotencyKeyRequired', 'unsupportedSortField'])

export const notFound = (message: string, params: ErrorParams = {}) =>
  new DomainError('notFound', 'resourceNotFound', message, params)

export const permissionDenied = (message: string, params: ErrorParams = {}) =>
  new DomainError('permission', 'permissionDenied', message, params)

export const lifecycleConflict = (reason: string, message: string, params: ErrorParams = {}) =>
  new DomainError('conflict', 'lifecycleConflict', message, { reason, ...params })

export const unauthenticated = (message = 'Invalid or missing token') =>
  new DomainError('unauthenticated', 'unauthorized', message)

/** Seconds a client is asked to wait before retrying after a database outage (the Retry-After header). */
export const OUTAGE_RETRY_AFTER_SECONDS = 1

export const databaseUnavailable = () =>
  new DomainError('unavailable', 'serviceUnavailable', 'The database is temporarily unavailable; retry later', { retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS })

/** Anything that is not a DomainError is an unexpected failure (its text never reaches the client), or an outage. */
export function asDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err
  if (isDatabaseOutage(err)) return databaseUnavailable()
  return new DomainError('internal', 'internalError', 'Unexpected error')
}
