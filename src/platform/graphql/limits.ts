import maxDepth from '@escape.tech/graphql-armor-max-depth'
import costLimit from '@escape.tech/graphql-armor-cost-limit'
import { GraphQLError, type ASTNode, type ASTVisitor, type ValidationContext } from 'graphql'
import type { NextFunction, Request, Response } from 'express'
import { DomainError, malformed } from '../errors/domain-error.js'
import { BodyTooLargeError, guardUrlInput, guardValue, readRawBody, REQUEST_LIMITS } from '../http/input-guards.js'
import { correlationOf } from '../http/request-context.js'

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
  inputLiteralGuard,
]

/** Inline arguments meet the same input guards as variables: no NUL in a string, no value nested too deep. */
export function inputLiteralGuard(context: ValidationContext): ASTVisitor {
  let depth = 0
  const refuse = (node: ASTNode, message: string, params: Record<string, unknown>) =>
    context.reportError(new GraphQLError(message, { nodes: [node], extensions: { code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params } }))
  const nest = {
    enter(node: ASTNode) {
      depth += 1
      if (depth === REQUEST_LIMITS.jsonDepth + 1) {
        refuse(node, `An argument value is nested deeper than ${REQUEST_LIMITS.jsonDepth} levels`, { reason: 'nestingTooDeep', maxDepth: REQUEST_LIMITS.jsonDepth })
      }
    },
    leave() {
      depth -= 1
    },
  }
  return {
    ObjectValue: nest,
    ListValue: nest,
    StringValue(node) {
      if (node.value.includes('\u0000')) refuse(node, 'A string argument must not contain the NUL character', { reason: 'nulCharacter' })
    },
  }
}

/** A refusal at the GraphQL door, before any operation runs, in the GraphQL error format. */
export const graphqlRefusal = (res: Response, status: number, err: DomainError) =>
  res.status(status).json({
    errors: [{ message: err.message, extensions: { code: 'BAD_USER_INPUT', errorKey: err.errorKey, params: err.params, correlationId: correlationOf(res) } }],
  })

/**
 * The GraphQL door's body: JSON read through the REST door's guards (size, NUL, depth) into req.body, or the
 * operations of a multipart upload (already parsed) guarded the same; refusals in the GraphQL error format.
 */
export function graphqlBodyGuard() {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (!('body' in req) || req.body === undefined) req.body = await readGraphqlJson(req)
      guardValue(req.body)
      // GET carries the operation in the query string
      guardUrlInput({}, req.query as Record<string, unknown>)
    } catch (err) {
      if (!(err instanceof DomainError)) return next(err)
      return graphqlRefusal(res, err instanceof BodyTooLargeError ? 413 : 400, err)
    }
    next()
  }
}

async function readGraphqlJson(req: Request): Promise<unknown> {
  if (req.method !== 'POST' || !req.is(['json', '+json'])) return undefined
  const text = (await readRawBody(req, REQUEST_LIMITS.jsonBodyBytes)).toString('utf8')
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    throw malformed('Request body is not valid JSON', { reason: 'bodyNotJson' })
  }
}
