import maxDepth from '@escape.tech/graphql-armor-max-depth'
import costLimit from '@escape.tech/graphql-armor-cost-limit'
import type { GraphQLError, ValidationContext } from 'graphql'

// The armor packages are CommonJS with conditional re-exports, so named ESM imports are not detected.
const { maxDepthRule } = maxDepth
const { costLimitRule } = costLimit

export const MAX_QUERY_DEPTH = 10
export const MAX_QUERY_COST = 5000

// Report a refusal as a validation error (HTTP 400) instead of throwing, which Apollo would turn into a 500.
const reportAsValidationError = {
  propagateOnRejection: false,
  onReject: [(ctx: ValidationContext | null, error: GraphQLError) => ctx?.reportError(error)],
}

/** Validation rules that refuse operations too deep or too costly before anything runs. */
export const operationLimits = [
  maxDepthRule({ n: MAX_QUERY_DEPTH, ignoreIntrospection: true, exposeLimits: true, ...reportAsValidationError }),
  costLimitRule({ maxCost: MAX_QUERY_COST, ignoreIntrospection: true, exposeLimits: true, ...reportAsValidationError }),
]
