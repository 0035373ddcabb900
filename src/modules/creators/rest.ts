import { z } from 'zod'
import { legacySuccess } from '../../platform/envelopes/legacy.js'
import { legacyListBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../platform/http/routes.js'
import { CREATOR_INPUTS, CREATOR_KIND_NAMES, CREATOR_KINDS, creatorIdList, creatorTypeQuery, type CreatorKind } from './inputs.js'
import { CREATOR_CATEGORIES, creatorNameById, creatorNamesByIds, getCreator, listCreators, saveCreator } from './service.js'
import { CREATOR_SCHEMAS, nameByIdSchema } from './view-schemas.js'

// Vendor openapi.yaml tags Db2Api, MockAPI, Script2Api and the creator lookups of the Utility tag (legacy envelope,
// spec §7.1). Reads need API_MANAGEMENT (or API_CREATOR) VIEW, saves MANAGE.

const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const ok = (fields: object = {}) => ({ body: legacySuccess({ success: true, ...fields }) })
const success = z.literal(true)
const NAME_LIST = legacyListBody(nameByIdSchema, { success })

function creatorRoutes(kind: CreatorKind): RouteDef[] {
  const { segment, param, label } = CREATOR_KINDS[kind]
  const base = `/apiops/projects/:projectName/${segment}`
  const read = { category: CREATOR_CATEGORIES, level: 'VIEW' } as const
  return [
    {
      method: 'get',
      path: `${base}/`,
      style: 'legacy',
      auth: 'token',
      tag: 'creators',
      summary: `List the ${label} creators of a project (API_MANAGEMENT or API_CREATOR VIEW)`,
      access: read,
      response: legacyListBody(CREATOR_SCHEMAS[kind], { success }),
      responses: { 200: 'status SUCCESS, success true, resultList, resultCount', 400: 'unknown project, missing API_MANAGEMENT VIEW', ...COMMON },
      async handle(ctx, input) {
        const items = await listCreators(ctx.deps.prisma, requireActor(ctx), kind, input.params.projectName!)
        return ok({ resultList: items, resultCount: items.length })
      },
    },
    {
      method: 'get',
      path: `${base}/:${param}/`,
      style: 'legacy',
      auth: 'token',
      tag: 'creators',
      summary: `One ${label} creator with its methods (API_MANAGEMENT or API_CREATOR VIEW)`,
      access: read,
      response: legacyListBody(CREATOR_SCHEMAS[kind], { success }),
      responses: { 200: 'status SUCCESS, success true, resultList [the creator], resultCount 1', 400: `unknown project, missing API_MANAGEMENT VIEW, ${label} not found`, ...COMMON },
      async handle(ctx, input) {
        return ok({ resultList: [await getCreator(ctx.deps.prisma, requireActor(ctx), kind, input.params.projectName!, input.params[param]!)], resultCount: 1 })
      },
    },
    {
      method: 'post',
      path: `${base}/:${param}/`,
      style: 'legacy',
      auth: 'token',
      tag: 'creators',
      summary: `Create a ${label} creator, or replace the one of that name (promotion); nothing is deployed (API_MANAGEMENT or API_CREATOR MANAGE)`,
      access: { category: CREATOR_CATEGORIES, level: 'MANAGE' },
      body: { kind: 'json', required: true, schema: CREATOR_INPUTS[kind] },
      audit: { objectType: CREATOR_KINDS[kind].label },
      response: legacyListBody(z.string(), { success }),
      responses: {
        200: 'status SUCCESS, success true, resultList [the creator id], resultCount 1',
        400: `unknown project, missing API_MANAGEMENT MANAGE, a field invalid (named), the body's name not the path's, a method defined twice${kind === 'DB2API' ? ', a database connection not found in the project' : ''}`,
        ...COMMON,
      },
      async handle(ctx, input) {
        const { creator } = await saveCreator(ctx.deps.prisma, requireActor(ctx), kind, input.params.projectName!, input.params[param]!, input.body)
        return ok({ resultList: [creator.id], resultCount: 1 })
      },
    },
  ]
}

function lookupRoute(kind: CreatorKind): RouteDef {
  const { segment, idParam, label } = CREATOR_KINDS[kind]
  return {
    method: 'get',
    path: `/apiops/utility/${segment}/:${idParam}`,
    style: 'legacy',
    auth: 'token',
    tag: 'creators',
    summary: `The name of a ${label} creator by id; only creators of projects where the caller holds API_MANAGEMENT (or API_CREATOR) VIEW are found`,
    response: NAME_LIST,
    responses: { 200: 'status SUCCESS, success true, resultList [{ id, name }], resultCount 1', 400: `${label} not found (or not visible to the caller)`, ...COMMON },
    async handle(ctx, input) {
      return ok({ resultList: [await creatorNameById(ctx.deps.prisma, requireActor(ctx), kind, input.params[idParam]!)], resultCount: 1 })
    },
  }
}

export const creatorApiRoutes = defineRoutes([
  ...CREATOR_KIND_NAMES.flatMap(creatorRoutes),
  ...CREATOR_KIND_NAMES.map(lookupRoute),
  {
    method: 'post',
    path: '/apiops/utility/creators/batch-names',
    style: 'legacy',
    auth: 'token',
    tag: 'creators',
    summary: `The names of creators of one kind by id (type: ${CREATOR_KIND_NAMES.join(', ')}); unknown ids and creators the caller may not view are left out; writes nothing`,
    query: creatorTypeQuery,
    body: { kind: 'json', required: true, schema: creatorIdList },
    audit: false,
    response: NAME_LIST,
    responses: { 200: 'status SUCCESS, success true, resultList [{ id, name }], resultCount', 400: 'type missing or not a creator kind, the body not a list of ids', ...COMMON },
    async handle(ctx, input) {
      const names = await creatorNamesByIds(ctx.deps.prisma, requireActor(ctx), input.query.type, input.body)
      return ok({ resultList: names, resultCount: names.length })
    },
  },
])
