import { z } from 'zod'
import { pageBody, plainBody, type ResponseBody } from '../../platform/http/response-schemas.js'
import { limitAssignmentSchema } from '../limits/assignments/view-schemas.js'
import { apiClientSummarySchema, applicationSchema, consumerSchema, entitlementSchema } from './view-schemas.js'
import { defineRoutes, requireActor, type RouteContext, type RouteDef } from '../../platform/http/routes.js'
import {
  applicationApiClients, applicationEntitlements, applicationFilters, applicationLimitAssignments, getApplicationByKey, listApplicationViews,
} from './application-reads.js'
import { consumerApiClients, consumerEntitlements, consumerFilters, consumerLimitAssignments, getConsumer, listConsumers } from './consumers/service.js'
import { entitlementView } from './entitlements/service.js'
import { pagingQueryDocs } from './list-filters.js'
import { apiClientSummary, applicationView, consumerView } from './views.js'

// The Common Contract read surface of consumers and applications (spec §4.10): every error carries
// errorKey, params and correlationId.

const base = '/apiops/projects/:projectName'

const refusals = {
  400: 'malformedRequest (platformScopeNotSupported for the admin project, a bad filter or paging value) or unsupportedSortField (params.supported)',
  401: 'missing, invalid, expired or revoked token',
  403: 'permissionDenied: IDENTITY VIEW is required',
  404: 'resourceNotFound: unknown or out-of-scope project, unknown key',
}

type SubResourceRead = (ctx: RouteContext, projectName: string, key: string) => Promise<unknown[]>

/** The three array sub-resources of one kind of subject: api-clients, entitlements, limit-assignments. */
function subResourceRoutes(prefix: string, keyParam: string, noun: string, reads: Record<'apiClients' | 'entitlements' | 'limitAssignments', SubResourceRead>): RouteDef[] {
  const subs: { path: string; summary: string; read: SubResourceRead; response?: ResponseBody }[] = [
    { path: 'api-clients', summary: `API client summaries of the ${noun}`, read: reads.apiClients, response: plainBody(z.array(apiClientSummarySchema)) },
    { path: 'entitlements', summary: `Entitlements of the ${noun}, ended ones included`, read: reads.entitlements, response: plainBody(z.array(entitlementSchema)) },
    { path: 'limit-assignments', summary: `Limit assignments of the ${noun}`, read: reads.limitAssignments, response: plainBody(z.array(limitAssignmentSchema)) },
  ]
  return subs.map((sub) => ({
    method: 'get',
    path: `${prefix}/:${keyParam}/${sub.path}`,
    style: 'common',
    auth: 'token',
    tag: 'identity',
    summary: sub.summary,
    responses: { 200: 'an array', ...refusals },
    ...(sub.response ? { response: sub.response } : {}),
    async handle(ctx, input) {
      return { body: await sub.read(ctx, input.params.projectName, input.params[keyParam]) }
    },
  }))
}

const db = (ctx: RouteContext) => ctx.deps.prisma

export const identityReadRoutes = defineRoutes([
  {
    method: 'get',
    path: `${base}/consumers`,
    style: 'common',
    auth: 'token',
    tag: 'identity',
    summary: 'Consumers of the project, paged (sort username, fullName or enabled; default username,asc)',
    query: consumerFilters.extend(pagingQueryDocs),
    responses: { 200: 'paged envelope of consumers', ...refusals },
    response: pageBody(consumerSchema),
    async handle(ctx, input) {
      const page = await listConsumers(db(ctx), requireActor(ctx), input.params.projectName, input.query)
      return { body: { ...page, items: page.items.map(consumerView) } }
    },
  },
  {
    method: 'get',
    path: `${base}/consumers/:consumerKey`,
    style: 'common',
    auth: 'token',
    tag: 'identity',
    summary: 'One consumer',
    responses: { 200: 'the consumer', ...refusals },
    response: plainBody(consumerSchema),
    async handle(ctx, input) {
      return { body: consumerView(await getConsumer(db(ctx), requireActor(ctx), input.params.projectName, input.params.consumerKey)) }
    },
  },
  ...subResourceRoutes(`${base}/consumers`, 'consumerKey', 'consumer', {
    apiClients: async (ctx, p, key) => (await consumerApiClients(db(ctx), requireActor(ctx), p, key)).map(apiClientSummary),
    entitlements: async (ctx, p, key) => (await consumerEntitlements(db(ctx), requireActor(ctx), p, key)).map(entitlementView),
    limitAssignments: (ctx, p, key) => consumerLimitAssignments(db(ctx), requireActor(ctx), p, key),
  }),
  {
    method: 'get',
    path: `${base}/applications`,
    style: 'common',
    auth: 'token',
    tag: 'identity',
    summary: 'Applications of the project, paged (sort name or appStatus; default name,asc)',
    query: applicationFilters.extend(pagingQueryDocs),
    responses: { 200: 'paged envelope of applications', ...refusals },
    response: pageBody(applicationSchema),
    async handle(ctx, input) {
      const page = await listApplicationViews(db(ctx), requireActor(ctx), input.params.projectName, input.query)
      return { body: { ...page, items: page.items.map(applicationView) } }
    },
  },
  {
    method: 'get',
    path: `${base}/applications/:applicationKey`,
    style: 'common',
    auth: 'token',
    tag: 'identity',
    summary: 'One application',
    responses: { 200: 'the application', ...refusals },
    response: plainBody(applicationSchema),
    async handle(ctx, input) {
      return { body: applicationView(await getApplicationByKey(db(ctx), requireActor(ctx), input.params.projectName, input.params.applicationKey)) }
    },
  },
  ...subResourceRoutes(`${base}/applications`, 'applicationKey', 'application', {
    apiClients: async (ctx, p, key) => (await applicationApiClients(db(ctx), requireActor(ctx), p, key)).map(apiClientSummary),
    entitlements: async (ctx, p, key) => (await applicationEntitlements(db(ctx), requireActor(ctx), p, key)).map(entitlementView),
    limitAssignments: (ctx, p, key) => applicationLimitAssignments(db(ctx), requireActor(ctx), p, key),
  }),
])
