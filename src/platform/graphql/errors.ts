import { unwrapResolverError } from '@apollo/server/errors'
import type { ApolloServerPlugin } from '@apollo/server'
import { GraphQLError, type GraphQLFormattedError } from 'graphql'
import { HeaderMap } from '@apollo/server'
import type { GqlContext } from './context.js'
import { databaseUnavailable, DomainError, OUTAGE_RETRY_AFTER_SECONDS } from '../errors/domain-error.js'
import { isDatabaseOutage } from '../db/outage.js'

const codeByKind: Record<DomainError['kind'], string> = {
  validation: 'BAD_USER_INPUT',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  permission: 'FORBIDDEN',
  unauthenticated: 'UNAUTHENTICATED',
  internal: 'INTERNAL_SERVER_ERROR',
  unavailable: 'SERVICE_UNAVAILABLE',
}

/** Domain errors keep their errorKey and params in extensions; anything unexpected loses its details. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const unwrapped = unwrapResolverError(error)
  const original = isOutage(unwrapped) && !(unwrapped instanceof DomainError) ? databaseUnavailable() : unwrapped
  if (original instanceof DomainError) {
    const message = original.kind === 'internal' ? 'Unexpected error' : original.message
    return {
      message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: codeByKind[original.kind], errorKey: original.errorKey, params: original.params },
    }
  }
  const code = formatted.extensions?.code
  if (code === 'INTERNAL_SERVER_ERROR' || code === undefined) {
    return { message: 'Unexpected error', locations: formatted.locations, path: formatted.path, extensions: { code: 'INTERNAL_SERVER_ERROR', errorKey: 'internalError', params: {} } }
  }
  return formatted
}

/**
 * Adds the request's correlationId to every error's extensions, as the Common Contract bodies carry it
 * (formatError has no access to the request context, a plugin does).
 */
export const correlationIdOnErrors: ApolloServerPlugin<GqlContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response, contextValue }) {
        if (response.body.kind !== 'single' || !response.body.singleResult.errors || !contextValue?.correlationId) return
        response.body.singleResult.errors = response.body.singleResult.errors.map((e) => ({
          ...e,
          extensions: { ...e.extensions, correlationId: contextValue.correlationId },
        }))
      },
    }
  },
}

const isOutage = (err: unknown) => (err instanceof DomainError && err.kind === 'unavailable') || isDatabaseOutage(err)

/**
 * A GraphQL answer that met a database outage is HTTP 503 with Retry-After, its errors carrying the code
 * SERVICE_UNAVAILABLE and errorKey serviceUnavailable (formatGraphqlError); `report` logs the outage once.
 */
export function outageAnswers(report: (err: unknown) => void): ApolloServerPlugin<GqlContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, response }) {
          const outage = errors.map((e) => unwrapResolverError(e)).find(isOutage)
          if (outage === undefined) return
          report(outage)
          response.http.status = 503
          response.http.headers.set('retry-after', String(OUTAGE_RETRY_AFTER_SECONDS))
        },
      }
    },
  }
}

/** The error a failed GraphQL context creation (authentication) throws for an outage: 503 with Retry-After. */
export function unavailableContextError(): GraphQLError {
  const err = databaseUnavailable()
  return new GraphQLError(err.message, {
    extensions: {
      code: codeByKind.unavailable, errorKey: err.errorKey, params: err.params,
      http: { status: 503, headers: new HeaderMap([['retry-after', String(OUTAGE_RETRY_AFTER_SECONDS)]]) },
    },
  })
}
