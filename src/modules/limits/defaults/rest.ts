import { defineRoutes, requireActor, type RouteAccess, type RouteDef } from '../../../platform/http/routes.js'
import { ASSIGNMENT_CATEGORIES } from '../assignments/access.js'
import { emptyBody, pageBody, plainBody } from '../../../platform/http/response-schemas.js'
import { limitDefaultSchema } from './view-schemas.js'
import { createDefaultInput, listDefaultsQuery, updateDefaultInput, versionInput } from './inputs.js'
import {
  activateLimitDefault, createLimitDefault, defaultNotFound, deleteLimitDefault, disableLimitDefault, getLimitDefault, limitDefaultProjectName, listLimitDefaults,
  ownerProjectNamed, updateLimitDefault, validateLimitDefault,
} from './service.js'

// Default limit policies on the manager surface (spec §4.11; bodies documented in docs/limits-bulk.md).

const BASE = '/api/limit-defaults'
const refusals = {
  400: 'malformedRequest (params.field; content rules of §2.13 with their reasons; bodyRequired), unsupportedSortField',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: a system administrator for PLATFORM defaults; IDENTITY or AI_BUDGETS (VIEW reads, MANAGE writes) in the owner project',
  404: 'resourceNotFound: default, project, organization, plan (params.plan)',
  409: 'lifecycleConflict (limit.default.scopeAlreadyActive, alreadyActive, alreadyDisabled, notDisabled; limit.binding.planRetired, planNotPublished) or versionConflict (entity, expected, current)',
}

// Access before validation (issue 28 §6): decided by the router on the project owning the default the key names (a
// caller who cannot see it gets the key's not found, as for an unknown key), or on the project a create body's owner
// names; platform defaults are left to the operation (system administrators write them).
const MANAGE: RouteAccess = { category: ASSIGNMENT_CATEGORIES, level: 'MANAGE' }
const VIEW: RouteAccess = { category: ASSIGNMENT_CATEGORIES, level: 'VIEW' }
const keyProject: RouteDef['accessProject'] = async (db, { params }) => {
  const name = await limitDefaultProjectName(db, params.defaultKey!)
  return name === undefined ? undefined : { name, unseen: defaultNotFound(params.defaultKey!) }
}
const bodyProject: RouteDef['accessProject'] = async (_db, request) => {
  const name = ownerProjectNamed(await request.body())
  return name === undefined ? undefined : { name }
}

export const limitDefaultRoutes = defineRoutes([
  {
    method: 'get', path: BASE, style: 'common', auth: 'token', tag: 'limit-defaults',
    summary: 'Defaults of one owner, paged: the platform (no projectId), a project (projectId) or an organization (projectId + organizationCode)',
    query: listDefaultsQuery,
    response: pageBody(limitDefaultSchema),
    responses: { 200: 'paged envelope of defaults', ...refusals },
    async handle(ctx, input) {
      return { body: await listLimitDefaults(ctx.deps.prisma, requireActor(ctx), input.query) }
    },
  },
  {
    method: 'post', path: BASE, style: 'common', auth: 'token', tag: 'limit-defaults',
    summary: 'Create a default (DISABLED until activated)',
    access: MANAGE, accessProject: bodyProject,
    body: { kind: 'json', required: true, schema: createDefaultInput },
    response: plainBody(limitDefaultSchema),
    responses: { 201: 'the default; Location', ...refusals },
    async handle(ctx, input) {
      const created = await createLimitDefault(ctx.deps.prisma, requireActor(ctx), input.body)
      return { status: 201, headers: { Location: `${BASE}/${encodeURIComponent(created.defaultKey)}` }, body: created }
    },
  },
  {
    method: 'post', path: `${BASE}/actions/validate`, style: 'common', auth: 'token', tag: 'limit-defaults', audit: false,
    summary: 'Validate a create body: 200 with an empty body, or the 400/404/409 the create would give. Writes nothing',
    access: MANAGE, accessProject: bodyProject,
    body: { kind: 'json', schema: createDefaultInput },
    response: emptyBody,
    responses: { 200: 'empty body: acceptable', ...refusals },
    async handle(ctx, input) {
      await validateLimitDefault(ctx.deps.prisma, requireActor(ctx), input.body)
      return { status: 200 }
    },
  },
  {
    method: 'get', path: `${BASE}/:defaultKey`, style: 'common', auth: 'token', tag: 'limit-defaults',
    summary: 'One default',
    access: VIEW, accessProject: keyProject,
    response: plainBody(limitDefaultSchema),
    responses: { 200: 'the default', ...refusals },
    async handle(ctx, input) {
      return { body: await getLimitDefault(ctx.deps.prisma, requireActor(ctx), input.params.defaultKey) }
    },
  },
  {
    method: 'put', path: `${BASE}/:defaultKey`, style: 'common', auth: 'token', tag: 'limit-defaults',
    summary: 'Replace name, description and content (optional version must match)',
    access: MANAGE, accessProject: keyProject,
    body: { kind: 'json', required: true, schema: updateDefaultInput },
    response: plainBody(limitDefaultSchema),
    responses: { 200: 'the default', ...refusals },
    async handle(ctx, input) {
      return { body: await updateLimitDefault(ctx.deps.prisma, requireActor(ctx), input.params.defaultKey, input.body) }
    },
  },
  {
    method: 'post', path: `${BASE}/:defaultKey/actions/activate`, style: 'common', auth: 'token', tag: 'limit-defaults',
    summary: 'DISABLED → ACTIVE: the owner\'s enabled default for its family and actor scope',
    access: MANAGE, accessProject: keyProject,
    body: { kind: 'json', required: false, schema: versionInput },
    response: plainBody(limitDefaultSchema),
    responses: { 200: 'the default', ...refusals },
    async handle(ctx, input) {
      return { body: await activateLimitDefault(ctx.deps.prisma, requireActor(ctx), input.params.defaultKey, input.body) }
    },
  },
  {
    method: 'post', path: `${BASE}/:defaultKey/actions/disable`, style: 'common', auth: 'token', tag: 'limit-defaults',
    summary: 'ACTIVE → DISABLED',
    access: MANAGE, accessProject: keyProject,
    body: { kind: 'json', required: false, schema: versionInput },
    response: plainBody(limitDefaultSchema),
    responses: { 200: 'the default', ...refusals },
    async handle(ctx, input) {
      return { body: await disableLimitDefault(ctx.deps.prisma, requireActor(ctx), input.params.defaultKey, input.body) }
    },
  },
  {
    method: 'delete', path: `${BASE}/:defaultKey`, style: 'common', auth: 'token', tag: 'limit-defaults',
    summary: 'Delete a DISABLED default (204)',
    access: MANAGE, accessProject: keyProject,
    responses: { 204: 'deleted', ...refusals },
    async handle(ctx, input) {
      await deleteLimitDefault(ctx.deps.prisma, requireActor(ctx), input.params.defaultKey)
      return { status: 204 }
    },
  },
])
