import type { Express, Request, Response } from 'express'
import { authenticateRequest, presentedToken, type PrefetchedProject, type Surface } from '../auth/tokens.js'
import type { Actor } from '../auth/actor.js'
import { PLATFORM_PROJECT, withPrefetchedProject } from '../scope/project-scope.js'
import { objectName } from '../validation/common.js'
import type { Deps } from '../context.js'
import { asDomainError, DomainError, malformed, OUTAGE_RETRY_AFTER_SECONDS } from '../errors/domain-error.js'
import { outageMonitor } from '../db/outage-monitor.js'
import { renderCommonError } from '../envelopes/common.js'
import { renderLegacyError, withLegacySuccess } from '../envelopes/legacy.js'
import { correlationOf, loggerOf } from './request-context.js'
import { readMultipart, type MultipartLimits } from './multipart.js'
import { bodyRequired, type EnvelopeStyle, type MultipartBody, type RouteDef, type RouteInput } from './routes.js'
import { BodyTooLargeError, guardUrlInput, guardValue, readFormBody, readJsonBody, REQUEST_LIMITS, refuseDeclaredOversize } from './input-guards.js'
import { auditedRestCall } from './audit.js'
import { decideRouteAccess } from './access.js'

/** Reads the declared body through the input guards (size, NUL, depth); bodyRequired before any field rule. */
async function readBody(route: RouteDef, req: Request): Promise<unknown> {
  const kind = route.body?.kind
  if (!kind) return undefined
  if (route.body?.kind === 'multipart') {
    return withQueryFields(route.body, req.query as Record<string, unknown>, guardedMultipart(await readMultipart(req, multipartLimits(route.body))))
  }
  if (kind === 'form') return readFormBody(req)
  const body = await readJsonBody(req)
  if (body === undefined && bodyRequired(route)) throw malformed('Request body is required', { reason: 'bodyRequired' })
  return body
}

/** The most a route's body may declare in Content-Length (its reader refuses beyond, 413). */
function declaredBodyLimit(route: RouteDef): number | undefined {
  const kind = route.body?.kind
  if (!kind) return undefined
  if (route.body?.kind === 'multipart') return multipartLimits(route.body).maxBodyBytes
  return kind === 'form' ? REQUEST_LIMITS.formBodyBytes : REQUEST_LIMITS.jsonBodyBytes
}

/** A multipart body: each file part within the route's bound, the whole within all its file parts plus the overhead. */
export const multipartLimits = (body: { files: string[]; maxFileBytes: number }): MultipartLimits => ({
  maxFileBytes: body.maxFileBytes,
  maxBodyBytes: body.maxFileBytes * body.files.length + REQUEST_LIMITS.multipartOverheadBytes,
})

function guardedMultipart(body: MultipartBody): MultipartBody {
  guardValue(body.fields)
  for (const [name, file] of Object.entries(body.files)) if (file.fileName !== undefined) guardValue(file.fileName, [name])
  return body
}

/**
 * A multipart route's text fields may also come as query parameters, as the vendor's server takes them (Spring
 * `@RequestParam`: its openapi.yaml lists them `in: query`): a field the route declares, not a file, that the form
 * lacks is read from the query (repeated values joined with commas, the form's list separator); a form field wins.
 */
function withQueryFields(declared: { schema?: unknown; files: string[] }, query: Record<string, unknown>, body: MultipartBody): MultipartBody {
  const shape = (declared.schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {}
  for (const name of Object.keys(shape)) {
    if (declared.files.includes(name) || body.fields[name] !== undefined) continue
    const value = query[name]
    const text = Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join(',') : typeof value === 'string' ? value : undefined
    if (text !== undefined) body.fields[name] = text
  }
  return body
}

/** OAuth error codes (RFC 6749 §5.2) the token endpoint may answer; anything else a client got wrong is invalid_request. */
const oauthErrors = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'])

export function renderError(style: EnvelopeStyle, err: DomainError, correlationId: string): { status: number; body: unknown } {
  if (style === 'common') return renderCommonError(err, correlationId)
  if (style === 'oauth') {
    const status = err.kind === 'unauthenticated' ? 401 : err.kind === 'internal' ? 500 : err.kind === 'unavailable' ? 503 : 400
    // RFC 6749 §4.1.2.1 names temporarily_unavailable for a server that cannot answer for now
    const error = err.kind === 'internal' ? 'server_error' : err.kind === 'unavailable' ? 'temporarily_unavailable' : oauthErrors.has(err.errorKey) ? err.errorKey : status === 401 ? 'unauthorized_client' : 'invalid_request'
    return { status, body: { error, error_description: err.message } }
  }
  return renderLegacyError(err)
}

/**
 * Sends a streamed body chunk by chunk, waiting for the socket to drain. Once the first chunk is out the status is
 * sent, so a failure later can only cut the response short (the client sees an incomplete body), never re-render.
 */
async function writeStream(res: Response, chunks: AsyncIterable<string>): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]()
  let first = await iterator.next()
  try {
    while (!first.done) {
      if (!res.write(first.value)) await new Promise<void>((resolve, reject) => { res.once('drain', resolve); res.once('close', resolve); res.once('error', reject) })
      if (res.destroyed) return void (await iterator.return?.())
      first = await iterator.next()
    }
    res.end()
  } catch (err) {
    res.destroy(err as Error)
  }
}

/** renderError, with 413 for a body over its limit whatever the surface's envelope. */
function renderRefusal(style: EnvelopeStyle, err: DomainError, correlationId: string): { status: number; body: unknown } {
  const rendered = renderError(style, err, correlationId)
  return err instanceof BodyTooLargeError ? { ...rendered, status: 413 } : rendered
}

/**
 * The project a GET names in its path, when it can be one (the platform project and impossible names are left to
 * the operation): read with the token, in the same statement, for the operation's preamble.
 */
function prefetchableProject(route: RouteDef, req: Request): string | undefined {
  if (route.method !== 'get') return undefined
  const raw = (req.params as Record<string, string | undefined>).projectName
  const name = raw?.trim()
  if (!name || name === PLATFORM_PROJECT || !objectName.safeParse(name).success) return undefined
  return name
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
        let actor: Actor | null = null
        let prefetched: PrefetchedProject | undefined
        if (route.auth !== 'public') {
          ;({ actor, project: prefetched } = await authenticateRequest(deps.prisma, presentedToken(req.headers), surface, prefetchableProject(route, req)))
        }
        if (actor?.kind === 'user') res.locals.username = actor.username
        guardUrlInput(req.params, req.query as Record<string, unknown>)
        const result = await withPrefetchedProject(prefetched, async () => {
          // access first: a caller without it learns nothing of the body's rules or the objects the path names
          const params = req.params as Record<string, string>
          const query = req.query as Record<string, unknown>
          // read once: an accessProject hook may need it to find the project (e.g. a create naming it in the body)
          let body: Promise<unknown> | undefined
          const bodyOnce = () => (body ??= readBody(route, req))
          // a body declared over the limit is refused before anything is looked up, as it is before it is read
          const limit = declaredBodyLimit(route)
          if (limit !== undefined) refuseDeclaredOversize(req, limit)
          await decideRouteAccess(deps.prisma, route, actor, { params, query, body: bodyOnce })
          const input: RouteInput = {
            params,
            query,
            body: await bodyOnce(),
            headers: req.headers,
            clientAddress: req.socket.remoteAddress ?? 'unknown',
          }
          return auditedRestCall(deps, route, { actor, input, correlationId, surface }, () => route.handle({ deps, actor, correlationId, logger, surface }, input))
        })
        for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value)
        const status = result.status ?? 200
        if (result.stream) await writeStream(res.status(status), result.stream)
        else if (result.body === undefined) res.status(status).end()
        else if (Buffer.isBuffer(result.body)) res.status(status).send(result.body)
        else res.status(status).json(route.style === 'legacy' ? withLegacySuccess(result.body) : result.body)
      } catch (err) {
        const domain = asDomainError(err)
        if (domain.kind === 'internal') logger.error({ err }, 'unexpected error')
        if (domain.kind === 'unavailable') {
          // logged once per outage by the monitor, not once per request
          outageMonitor(deps).report(err)
          res.setHeader('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS))
        }
        const { status, body } = renderRefusal(route.style, domain, correlationId)
        if (status === 401 && route.style !== 'oauth') res.setHeader('WWW-Authenticate', 'Bearer')
        res.status(status).json(body)
      }
    })
  }
}
