import type { IncomingHttpHeaders } from 'node:http'
import type { z } from 'zod'
import type { Actor } from '../auth/actor.js'
import type { PermissionLevel } from '../auth/permissions.js'
import type { Surface } from '../auth/tokens.js'
import type { Deps, Tx } from '../context.js'
import { unauthenticated, type DomainError } from '../errors/domain-error.js'
import type { Logger } from './logger.js'
import type { ResponseBody } from './response-schemas.js'

/** How a route renders errors: legacy (status/resultMessage), Common Contract, or OAuth (token endpoint). */
export type EnvelopeStyle = 'legacy' | 'common' | 'oauth'
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

export interface RouteInput {
  params: Record<string, string>
  query: Record<string, unknown>
  body: unknown
  headers: IncomingHttpHeaders
  clientAddress: string
}

/** One file part of a multipart/form-data body, fully read. */
export interface MultipartFile {
  bytes: Buffer
  /** the filename of its Content-Disposition, when the client sent one */
  fileName?: string
  mimeType: string
}

/** A multipart/form-data body: text fields and file parts by name (the first part of a name wins). */
export interface MultipartBody {
  fields: Record<string, string>
  files: Record<string, MultipartFile>
}

export interface RouteContext {
  deps: Deps
  /** null only on public routes */
  actor: Actor | null
  correlationId: string
  logger: Logger
  surface: Surface
}

export interface RouteResult {
  status?: number
  body?: unknown
  headers?: Record<string, string>
  /** a body written as it is produced (large reports): chunks are sent with back-pressure, `body` is ignored */
  stream?: AsyncIterable<string>
  /** false when this call wrote nothing after all (a dry run): the audit trail skips it */
  audit?: false
}

/** One declared REST operation: the table a module exports is mounted and documented from the same data. */
export interface RouteDef {
  method: HttpMethod
  /** Express path, e.g. `/apiops/projects/:projectName/credentials/:username/token/` */
  path: string
  style: EnvelopeStyle
  auth: 'public' | 'token'
  summary: string
  tag: string
  /**
   * request body: JSON (default for POST/PUT/PATCH), form-encoded only, multipart/form-data, or none.
   * A multipart body arrives as a MultipartBody; `files` names its file parts (for the OpenAPI document).
   * `required` defaults by style (see bodyRequired): say `required: false` for an optional Common Contract body.
   */
  body?:
    | { kind: 'json' | 'form'; schema?: z.ZodType; required?: boolean }
    | { kind: 'multipart'; schema?: z.ZodType; required?: boolean; files: string[]; maxFileBytes: number }
  query?: z.ZodObject
  /** extra request headers worth documenting */
  headers?: { name: string; description: string; required?: boolean }[]
  responses: Record<number, string>
  /**
   * The JSON body of the 2xx answers (see response-schemas.ts: legacyBody, legacyListBody, pageBody, plainBody).
   * Documented in the OpenAPI document and checked against every answer in the integration tests. A route
   * without it still works; it is listed in test/openapi/known-gaps.json until it gets one.
   */
  response?: ResponseBody
  /**
   * The audit trail records every successful non-GET call. `false` for calls that write nothing
   * (previews, validations, connection tests); `objectType` names the object when the tag does not;
   * `objectName` names it when the last path parameter or an identifier field does not (a multipart
   * create, a deploy whose last parameter is the environment). Null falls back to those.
   */
  audit?: false | { objectType?: string; objectName?: (input: RouteInput, answer: unknown) => string | null }
  /**
   * What the caller needs, decided by the router before the query or the body is read (issue 28 §6: a caller
   * without access learns nothing of the body's rules or of the objects the path names; see access.ts). Absent:
   * on a route under /projects/:projectName the caller must see the project (else the unknown-project answer),
   * the operation decides the rest. Declare the permission when the operation reads its input before checking it.
   */
  access?: RouteAccess
  /**
   * The project of a request whose path and query do not name it, for the access decision (access.ts): the project
   * the body names, or the one owning the object a key of the path names. Absent: the path's projectName, or on
   * the manager surface the projectId query parameter.
   */
  accessProject?: (db: Tx, request: AccessRequest) => Promise<RequestProject | undefined>
  handle(ctx: RouteContext, input: RouteInput): Promise<RouteResult>
}

/**
 * A route's access, decided before its input is read: `{ category, level }` in the project of the path (a list of
 * categories: any one of them, the first named in the refusal; ANY_CATEGORY: the level in some category, the
 * operation then checks which; a function: the list from the path's and the query's parameters), or `systemAdmin`. Never wider than
 * what the operation checks itself: the GraphQL door goes through the operation alone.
 */
export type RouteAccess =
  | { category: string | readonly string[] | ((params: Record<string, string>, query: Record<string, unknown>) => readonly string[]); level: PermissionLevel }
  | 'systemAdmin'

/** What an accessProject hook may read: the body only on demand (read once, through the input guards, not validated). */
export interface AccessRequest {
  params: Record<string, string>
  query: Record<string, unknown>
  body(): Promise<unknown>
}

/**
 * The project a request addresses. `unseen`: the refusal for a caller who cannot see it, when the request names an
 * object rather than the project (the object's own not found, which the hook also throws for an unknown key, so the
 * keys of other projects cannot be probed). undefined from the hook: no project (a platform-owned object or a body
 * that names none); the operation decides.
 */
export interface RequestProject {
  name: string
  unseen?: DomainError
}

/** In a RouteAccess category list: the level held in any category (an export whose type the body names). */
export const ANY_CATEGORY = '*'

export const defineRoutes = (routes: RouteDef[]) => routes

/**
 * Whether a call without a body is refused (400 malformedRequest, reason bodyRequired) by the router, before
 * any field rule or Idempotency-Key claim. A Common Contract route that declares a JSON body takes one unless
 * it says `required: false`; form and multipart bodies are required unless they say otherwise; a legacy JSON
 * body only when it says so.
 */
export function bodyRequired(route: Pick<RouteDef, 'body' | 'style'>): boolean {
  if (!route.body) return false
  if (route.body.required !== undefined) return route.body.required
  return route.body.kind !== 'json' || route.style === 'common'
}

export function requireActor(ctx: RouteContext): Actor {
  if (!ctx.actor) throw unauthenticated()
  return ctx.actor
}
