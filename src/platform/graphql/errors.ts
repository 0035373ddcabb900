import { unwrapResolverError } from '@apollo/server/errors'
import type { ApolloServerPlugin } from '@apollo/server'
import type { GraphQLFormattedError } from 'graphql'
import type { GqlContext } from './context.js'
import { DomainError } from '../errors/domain-error.js'

const codeByKind: Record<DomainError['kind'], string> = {
  validation: 'BAD_USER_INPUT',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  permission: 'FORBIDDEN',
  unauthenticated: 'UNAUTHENTICATED',
  internal: 'INTERNAL_SERVER_ERROR',
}

/** Domain errors keep their errorKey and params in extensions; anything unexpected loses its details. */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error)
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
