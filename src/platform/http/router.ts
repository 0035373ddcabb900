import express, { type Express, type Request, type RequestHandler, type Response } from 'express'
import { authenticate, presentedToken, type Surface } from '../auth/tokens.js'
import type { Deps } from '../context.js'
import { asDomainError, DomainError, malformed } from '../errors/domain-error.js'
import { renderCommonError } from '../envelopes/common.js'
import { renderLegacyError } from '../envelopes/legacy.js'
import { correlationOf, loggerOf } from './request-context.js'
import { readMultipart } from './multipart.js'
import type { EnvelopeStyle, RouteDef, RouteInput } from './routes.js'
import { auditedRestCall } from './audit.js'

const jsonParser = express.json({ limit: '10mb' })
const formParser = express.urlencoded({ extended: false, limit: '1mb' })

function run(middleware: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => middleware(req, res, (err?: unknown) => (err ? reject(err) : resolve())))
}

async function readBody(route: RouteDef, req: Request, res: Response): Promise<unknown> {
  const kind = route.body?.kind
  if (!kind) return undefined
  if (route.body?.kind === 'multipart') return readMultipart(req, route.body.maxFileBytes)
  if (kind === 'form') {
    if (!req.is('application/x-www-form-urlencoded')) {
      throw new DomainError('validation', 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded')
    }
    await run(formParser, req, res)
    return req.body ?? {}
  }
  try {
    await run(jsonParser, req, res)
  } catch {
    throw malformed('Request body is not valid JSON', { reason: 'bodyNotJson' })
  }
  // express.json leaves the body undefined when the request sent none (or not as JSON)
  if (req.body === undefined && route.body?.required) throw malformed('Request body is required', { reason: 'bodyRequired' })
  return req.body
}

export function renderError(style: EnvelopeStyle, err: DomainError, correlationId: string): { status: number; body: unknown } {
  if (style === 'common') return renderCommonError(err, correlationId)
  if (style === 'oauth') {
    const status = err.kind === 'unauthenticated' ? 401 : err.kind === 'internal' ? 500 : 400
    return { status, body: { error: err.errorKey, error_description: err.message } }
  }
  return renderLegacyError(err)
}

export const surfaceOf = (path: string): Surface => (path.startsWith('/apiops') ? 'apiops' : 'api')

/** Mounts a module's route table: body parsing, authentication, the operation, and the style's renderer. */
export function mountRoutes(app: Express, routes: RouteDef[], deps: Deps): void {
  for (const route of routes) {
    app[route.method](route.path, async (req: Request, res: Response) => {
      res.locals.routeTemplate = route.path
      const correlationId = correlationOf(res)
      const logger = loggerOf(res)
      const surface = surfaceOf(route.path)
      try {
        const actor = route.auth === 'public' ? null : await authenticate(deps.prisma, presentedToken(req.headers), surface)
        if (actor?.kind === 'user') res.locals.username = actor.username
        const input: RouteInput = {
          params: req.params as Record<string, string>,
          query: req.query as Record<string, unknown>,
          body: await readBody(route, req, res),
          headers: req.headers,
          clientAddress: req.socket.remoteAddress ?? 'unknown',
        }
        const result = await auditedRestCall(deps, route, { actor, input, correlationId, surface }, () => route.handle({ deps, actor, correlationId, logger, surface }, input))
        for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value)
        const status = result.status ?? 200
        if (result.body === undefined) res.status(status).end()
        else if (Buffer.isBuffer(result.body)) res.status(status).send(result.body)
        else res.status(status).json(result.body)
      } catch (err) {
        const domain = asDomainError(err)
        if (domain.kind === 'internal') logger.error({ err }, 'unexpected error')
        const { status, body } = renderError(route.style, domain, correlationId)
        if (status === 401 && route.style !== 'oauth') res.setHeader('WWW-Authenticate', 'Bearer')
        res.status(status).json(body)
      }
    })
  }
}
