import { legacyList } from '../../platform/envelopes/legacy.js'
import { legacyListBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../platform/http/routes.js'
import { batchIds } from './inputs.js'
import { registerUtilityKinds } from './kinds.js'
import { lookupKinds, type LookupKind } from './registry.js'
import { lookupById, lookupNames } from './service.js'
import { nameByIdSchema } from './view-schemas.js'

const BASE = '/apiops/utility'
const TOKEN_401 = 'missing, invalid, expired or revoked token'
const NOT_SEEN = 'an unknown id, or one naming an object the caller may not see, is answered as not there'

// Each lookup reads objects of many projects and checks VIEW on each object's own project and category (the
// registry's kinds); the declared access documents that and lets the router pass (no project in the path).
const VIEW_ACCESS = { category: ['API_MANAGEMENT', 'PROJECT_MANAGEMENT', 'CONNECTION'], level: 'VIEW' } as const

function batchRoute(kind: LookupKind): RouteDef {
  return {
    method: 'post',
    path: `${BASE}/${kind.segment}/batch-names`,
    access: VIEW_ACCESS,
    style: 'legacy',
    auth: 'token',
    tag: 'utility',
    summary: `Names of ${kind.label}s by id, in a batch (VIEW on each one's project)`,
    body: { kind: 'json', schema: batchIds, required: true },
    audit: false,
    response: legacyListBody(nameByIdSchema),
    responses: { 200: `status SUCCESS, resultList[] of id and name in the order asked, resultCount; ${NOT_SEEN} (left out)`, 400: 'body not a JSON array of at most 1000 non-blank ids', 401: TOKEN_401 },
    async handle(ctx, input) {
      return { body: legacyList(await lookupNames(ctx.deps.prisma, requireActor(ctx), kind.segment, input.body)) }
    },
  }
}

function singleRoute(kind: LookupKind & { single: NonNullable<LookupKind['single']> }): RouteDef {
  return {
    method: 'get',
    path: `${BASE}/${kind.singlePath ?? `${kind.segment}/:${kind.idParam}`}`,
    access: VIEW_ACCESS,
    style: 'legacy',
    auth: 'token',
    tag: 'utility',
    summary: `One ${kind.label} by id (VIEW on its project)`,
    response: legacyListBody(kind.single),
    responses: { 200: `status SUCCESS, resultList with the ${kind.label} (resultCount 1); ${NOT_SEEN} (resultList empty, resultCount 0)`, 401: TOKEN_401 },
    async handle(ctx, input) {
      return { body: legacyList(await lookupById(ctx.deps.prisma, requireActor(ctx), kind.segment, input.params[kind.idParam] ?? '')) }
    },
  }
}

/** Vendor tag Utility: the routes of every registered lookup kind. */
export function utilityRouteTable(): RouteDef[] {
  registerUtilityKinds()
  return defineRoutes(lookupKinds().flatMap((kind) => [...(kind.batch ? [batchRoute(kind)] : []), ...(kind.single ? [singleRoute({ ...kind, single: kind.single })] : [])]))
}

export const utilityRoutes = utilityRouteTable()
