// The GraphQL door's sign-in: the token is judged before Apollo runs the operation, and with it (in the same
// statement, as the REST door does for a GET) the project a query names, so that the operation's own project
// check does not read it again. The result waits in res.locals for the context; a refusal is thrown from there.
import type { NextFunction, Request, Response } from 'express'
import { GraphQLError } from 'graphql'
import type { Actor } from '../auth/actor.js'
import { authenticateRequest, presentedToken, type PrefetchedProject } from '../auth/tokens.js'
import type { Deps } from '../context.js'
import { isDatabaseOutage } from '../db/outage.js'
import { outageMonitor } from '../db/outage-monitor.js'
import { DomainError } from '../errors/domain-error.js'
import { PLATFORM_PROJECT, withPrefetchedProject } from '../scope/project-scope.js'
import { objectName } from '../validation/common.js'
import { unavailableContextError } from './errors.js'

type Signed = { actor: Actor | null } | { refusal: unknown }

/**
 * The project a query's first `projectName` argument names, literally or through a variable: only a hint (the
 * prefetched project is used by the first check of that very name by that caller, and by nothing else). Mutations
 * read their project themselves, as REST writes do; an impossible name or the platform project is no hint.
 */
export function projectHint(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return undefined
  const { query, variables } = body as { query?: unknown; variables?: unknown }
  if (typeof query !== 'string' || /\b(mutation|subscription)\b/.test(query)) return undefined
  const arg = /\bprojectName\s*:\s*(?:"([^"\\]*)"|\$(\w+))/.exec(query)
  const value = arg?.[1] ?? (arg?.[2] && variables && typeof variables === 'object' ? (variables as Record<string, unknown>)[arg[2]] : undefined)
  const name = typeof value === 'string' ? value.trim() : ''
  if (!name || name === PLATFORM_PROJECT || !objectName.safeParse(name).success) return undefined
  return name
}

export function graphqlAuthentication(deps: Deps) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = presentedToken(req.headers)
    let signed: Signed = { actor: null }
    let project: PrefetchedProject | undefined
    if (token) {
      try {
        const done = await authenticateRequest(deps.prisma, token, 'graphql', projectHint(req.body))
        signed = { actor: done.actor }
        project = done.project
      } catch (err) {
        signed = { refusal: err }
      }
    }
    res.locals.graphqlSignIn = signed
    withPrefetchedProject(project, () => next())
  }
}

/** The caller the context carries: the signed-in actor, null without a token, or the refusal as a GraphQL error. */
export function graphqlActor(deps: Deps, res: Response): Actor | null {
  const signed = res.locals.graphqlSignIn as Signed | undefined
  if (!signed) throw new Error('graphqlAuthentication did not run before the GraphQL context')
  if (!('refusal' in signed)) return signed.actor
  const err = signed.refusal
  if (isDatabaseOutage(err)) {
    outageMonitor(deps).report(err)
    throw unavailableContextError()
  }
  if (!(err instanceof DomainError)) throw err
  throw new GraphQLError(err.message, { extensions: { code: 'UNAUTHENTICATED', errorKey: err.errorKey, params: {}, http: { status: 401 } } })
}
