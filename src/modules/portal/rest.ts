import { z } from 'zod'
import { legacyList, legacySuccess } from '../../platform/envelopes/legacy.js'
import { legacyBody, legacyListBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../platform/http/routes.js'
import { apiClientSummary } from '../identity/views.js'
import { apiClientSummarySchema } from '../identity/view-schemas.js'
import { optionalProjectQuery, productsOf, projectNameOf, projectQuery, provisionInput, reportQuery } from './inputs.js'
import {
  applicationNotFound, portalApplicationCredentials, portalApplicationProjectName, portalApplicationUsage, portalOrganizations, portalTrafficSummary, portalUsage, provisionPortalApplication,
} from './service.js'
import { apiProductPlans, listApiProducts, productNotFound, productProjectName, productPromoteInput, productsQuery, promoteApiProduct } from './products.js'
import { apiProductPlansFields, apiProductSchema, portalOrganizationSchema, portalTrafficSummaryFields, portalUsageSchema, provisionResultFields } from './view-schemas.js'

// The portal operations of the vendor's openapi.yaml (PortalAppProvision, PortalAppCredential, PortalReport), legacy
// envelope (spec §7.1). Their paths name no project: the query's projectName does, or the application a referenceId
// names; access is decided on that project before anything else (issue 28 §6).

const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const first = (v: unknown) => (Array.isArray(v) ? v[0] : v)
const queryProject: RouteDef['accessProject'] = async (_db, { query }) => {
  const name = first(query.projectName)
  return typeof name === 'string' && name.trim() ? { name: name.trim() } : undefined
}
const referenceProject: RouteDef['accessProject'] = async (db, { params, query }) => {
  const named = first(query.projectName)
  const name = await portalApplicationProjectName(db, params.referenceId!, typeof named === 'string' && named.trim() ? named.trim() : undefined)
  return name === undefined ? undefined : { name, unseen: applicationNotFound(params.referenceId!) }
}
const VIEW = { category: 'IDENTITY', level: 'VIEW' } as const
const productProject: RouteDef['accessProject'] = async (db, { params, query }) => {
  const named = first(query.projectName)
  const name = await productProjectName(db, params.referenceId!, typeof named === 'string' && named.trim() ? named.trim() : undefined)
  return name === undefined ? undefined : { name, unseen: productNotFound(params.referenceId!) }
}

export const portalRoutes = defineRoutes([
  {
    method: 'get', path: '/apiops/portal-apps/organizations', access: VIEW, accessProject: queryProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'The project\'s organizations a provisioning may name (IDENTITY VIEW)',
    query: projectQuery,
    response: legacyListBody(portalOrganizationSchema),
    responses: { 200: 'status SUCCESS, resultList[] (id, code, name, parentCode, state, suspended), resultCount', 400: 'projectName missing, unknown project, missing IDENTITY VIEW', ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList(await portalOrganizations(ctx.deps, requireActor(ctx), projectNameOf(input.query))) }
    },
  },
  {
    method: 'post', path: '/apiops/portal-apps/provision', access: { category: 'IDENTITY', level: 'MANAGE' }, accessProject: queryProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'Provision the portal application for referenceId (created, or updated when it exists) in an existing or new organization, subscribed to the product, in one transaction (IDENTITY MANAGE)',
    query: projectQuery,
    body: { kind: 'json', required: true, schema: provisionInput },
    audit: { objectType: 'APPLICATION', objectName: (input) => {
      const ref = (input.body as { referenceId?: unknown } | undefined)?.referenceId
      return typeof ref === 'string' ? ref : null
    } },
    response: legacyBody(provisionResultFields),
    responses: { 200: 'status SUCCESS, the application (applicationKey, name, referenceId…), created, organizationCreated, subscription', 400: 'projectName missing, unknown project, missing IDENTITY MANAGE, body invalid (named field), name missing, organization not found or already existing, application name taken', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await provisionPortalApplication(ctx.deps, requireActor(ctx), projectNameOf(input.query), input.body)) }
    },
  },
  {
    method: 'get', path: '/apiops/portal-apps/:referenceId/credentials', access: VIEW, accessProject: referenceProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'The API clients of the portal application a referenceId names, by name (IDENTITY VIEW in its project)',
    query: optionalProjectQuery,
    response: legacyListBody(apiClientSummarySchema),
    responses: { 200: 'status SUCCESS, resultList[] of API client summaries, resultCount', 400: 'portal application not found (also out of the caller\'s sight), missing IDENTITY VIEW', ...COMMON },
    async handle(ctx, input) {
      const clients = await portalApplicationCredentials(ctx.deps, requireActor(ctx), input.params.referenceId!, first(input.query.projectName) as string | undefined)
      return { body: legacyList(clients.map(apiClientSummary)) }
    },
  },
  {
    method: 'get', path: '/apiops/portal-apps/:referenceId/usage-report', access: VIEW, accessProject: referenceProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'What the portal application a referenceId names uses: subscriptions, entitlements, API clients, consumers, limit assignments (IDENTITY VIEW in its project)',
    query: optionalProjectQuery,
    response: legacyBody(portalUsageSchema.shape),
    responses: { 200: 'status SUCCESS and the usage', 400: 'portal application not found (also out of the caller\'s sight), missing IDENTITY VIEW', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await portalApplicationUsage(ctx.deps, requireActor(ctx), input.params.referenceId!, first(input.query.projectName) as string | undefined)) }
    },
  },
  {
    method: 'get', path: '/apiops/portal/usage', access: VIEW, accessProject: queryProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'Every portal application of the project (subscribed to one of productRefIds when given) with what it uses, by name (IDENTITY VIEW)',
    query: reportQuery,
    response: legacyListBody(portalUsageSchema),
    responses: { 200: 'status SUCCESS, resultList[], resultCount', 400: 'projectName missing, unknown project, missing IDENTITY VIEW', ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList(await portalUsage(ctx.deps, requireActor(ctx), projectNameOf(input.query), productsOf(input.query))) }
    },
  },
  {
    method: 'get', path: '/apiops/portal/traffic/summary', access: VIEW, accessProject: queryProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'The portal\'s traffic-facing summary of the project (of productRefIds when given): applications, API clients and subscriptions by state; this service keeps no request counts (trafficRecorded false) (IDENTITY VIEW)',
    query: reportQuery,
    response: legacyBody(portalTrafficSummaryFields),
    responses: { 200: 'status SUCCESS and the summary', 400: 'projectName missing, unknown project, missing IDENTITY VIEW', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await portalTrafficSummary(ctx.deps, requireActor(ctx), projectNameOf(input.query), productsOf(input.query))) }
    },
  },
  {
    method: 'get', path: '/apiops/api-products', access: { category: 'API_MANAGEMENT', level: 'VIEW' }, accessProject: queryProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'The project\'s API products promoted from portals, by name, with their approved subscriptions (API_MANAGEMENT VIEW)',
    query: productsQuery,
    response: legacyListBody(apiProductSchema),
    responses: { 200: 'status SUCCESS, resultList[], resultCount', 400: 'projectName missing, unknown project, missing API_MANAGEMENT VIEW', ...COMMON },
    async handle(ctx, input) {
      const portalId = first(input.query.portalId)
      return { body: legacyList(await listApiProducts(ctx.deps, requireActor(ctx), projectNameOf(input.query), typeof portalId === 'string' && portalId ? portalId : undefined)) }
    },
  },
  {
    method: 'post', path: '/apiops/api-products/promote', access: { category: 'API_MANAGEMENT', level: 'MANAGE' }, accessProject: queryProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'Promote an API product from a portal: created for its referenceId, or updated when it exists (API_MANAGEMENT MANAGE)',
    query: projectQuery,
    body: { kind: 'json', required: true, schema: productPromoteInput },
    audit: { objectType: 'API_PRODUCT', objectName: (input) => {
      const ref = (input.body as { referenceId?: unknown } | undefined)?.referenceId
      return typeof ref === 'string' ? ref : null
    } },
    response: legacyBody({ ...apiProductSchema.shape, created: z.boolean() }),
    responses: { 200: 'status SUCCESS, the product and created', 400: 'projectName missing, unknown project, missing API_MANAGEMENT MANAGE, body invalid (named field), name missing, name taken by another referenceId', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await promoteApiProduct(ctx.deps, requireActor(ctx), projectNameOf(input.query), input.body)) }
    },
  },
  {
    method: 'get', path: '/apiops/api-products/:referenceId/plans', access: { category: 'API_MANAGEMENT', level: 'VIEW' }, accessProject: productProject, style: 'legacy', auth: 'token', tag: 'portal',
    summary: 'The portal subscription plans of the product\'s project as the limits record them (families and limit plans of each profile), and the product\'s approved subscriptions (API_MANAGEMENT VIEW)',
    query: optionalProjectQuery,
    response: legacyBody(apiProductPlansFields),
    responses: { 200: 'status SUCCESS, referenceId, productName, approvedSubscriptionCount, plans[]', 400: 'API product not found (also out of the caller\'s sight), missing API_MANAGEMENT VIEW', ...COMMON },
    async handle(ctx, input) {
      const named = first(input.query.projectName)
      return { body: legacySuccess(await apiProductPlans(ctx.deps, requireActor(ctx), input.params.referenceId!, typeof named === 'string' && named ? named : undefined)) }
    },
  },
])
