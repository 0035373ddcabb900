import { legacySuccess } from '../../../platform/envelopes/legacy.js'
import { z } from 'zod'
import { deploymentResult, describes, legacyBody, legacyListBody, successBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { groupDeploymentResult } from '../shared/deployment-shapes.js'
import { deployHistoryInput } from '../deployments/record.js'
import { createGroup, deleteGroup, deployGroup, groupEnvironments, groupInput, groupView, listGroups, setGroupMembership, undeployGroup, updateGroup } from './service.js'

// Vendor pages 09-api-proxy-groups (crud, api-proxies, deployment), legacy envelope (spec §7.1).

const BASE = '/apiops/projects/:projectName/apiProxyGroups'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const ok = (fields: object = {}) => ({ body: legacySuccess({ success: true, ...fields }) })
const list = <T>(items: T[]) => ok({ resultList: items, resultCount: items.length })

/** A group as the list shows it (groupView). */
const groupSchema = describes<ReturnType<typeof groupView>>()(
  z.object({ id: z.string(), name: z.string(), description: z.string().nullable(), clientRoute: z.record(z.string(), z.unknown()).nullable().describe('relativePathList, hostList, methodList, headerList, bufferRequest, bufferResponse') }).meta({ id: 'ApiProxyGroup', description: 'An API proxy group of a project' }),
)
const groupEnvironmentSchema = describes<Awaited<ReturnType<typeof groupEnvironments>>[number]>()(z.object({ environmentName: z.string(), deployed: z.boolean() }))
const listFields = { success: z.literal(true) }

const groupWrite = (method: 'post' | 'put'): RouteDef => ({
  method,
  path: `${BASE}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxyGroups',
  summary: method === 'post' ? 'Create an API proxy group with its client route (API_MANAGEMENT MANAGE)' : 'Update the description and client route of the API proxy group the body names (API_MANAGEMENT MANAGE)',
  body: { kind: 'json', required: true, schema: groupInput },
  audit: { objectType: 'API_PROXY_GROUP', objectName: (input) => (input.body as { name?: unknown } | undefined)?.name?.toString() ?? null },
  response: successBody,
  responses: {
    200: 'status SUCCESS, success true',
    400: `unknown project, missing API_MANAGEMENT MANAGE, field invalid (named: name, clientRoute, clientRoute.relativePathList …)${method === 'post' ? ', group already exists' : ', group not found'}`,
    ...COMMON,
  },
  async handle(ctx, input) {
    await (method === 'post' ? createGroup : updateGroup)(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.body)
    return ok()
  },
})

const membership = (method: 'post' | 'delete'): RouteDef => ({
  method,
  path: `${BASE}/:apiProxyGroupName/apiProxies/:apiProxyName/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxyGroups',
  summary: method === 'post' ? 'Add an API proxy to a group; already a member is fine (API_MANAGEMENT MANAGE)' : 'Remove an API proxy from a group; not a member is fine (API_MANAGEMENT MANAGE)',
  audit: { objectType: 'API_PROXY_GROUP', objectName: (input) => input.params.apiProxyGroupName ?? null },
  response: successBody,
  responses: { 200: 'status SUCCESS, success true', 400: 'unknown project, missing API_MANAGEMENT MANAGE, group not found, proxy not found', ...COMMON },
  async handle(ctx, input) {
    const p = input.params
    await setGroupMembership(ctx.deps.prisma, requireActor(ctx), p.projectName!, p.apiProxyGroupName!, p.apiProxyName!, method === 'post')
    return ok()
  },
})

const push = (method: 'post' | 'delete'): RouteDef => ({
  method,
  path: `${BASE}/:apiProxyGroupName/environments/:environmentName/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxyGroups',
  summary: method === 'post' ? 'Deploy an API proxy group with all its proxies to one environment (API_MANAGEMENT DEPLOY_UNDEPLOY)' : 'Undeploy an API proxy group and its proxies from one environment; the optional body (description, persistent) annotates the undeploy history record (API_MANAGEMENT DEPLOY_UNDEPLOY)',
  body: { kind: 'json' as const, required: false, schema: deployHistoryInput },
  audit: { objectType: 'API_PROXY_GROUP', objectName: (input) => input.params.apiProxyGroupName ?? null },
  response: legacyBody({ success: z.literal(true), deploymentResult }),
  responses: {
    200: 'status SUCCESS, success true, deploymentResult (success, message, environmentResults[environmentName, success, message])',
    400: 'unknown project, missing API_MANAGEMENT DEPLOY_UNDEPLOY, group not found, environment not found in the project',
    ...COMMON,
  },
  async handle(ctx, input) {
    const p = input.params
    const outcome = method === 'post'
      ? await deployGroup(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyGroupName!, p.environmentName!, input.body)
      : await undeployGroup(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyGroupName!, p.environmentName!, input.body)
    return ok({ deploymentResult: groupDeploymentResult(outcome) })
  },
})

export const groupRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyGroups',
    summary: 'List the API proxy groups of a project: id, name, description, clientRoute (API_MANAGEMENT VIEW)',
    response: legacyListBody(groupSchema, listFields),
    responses: { 200: 'status SUCCESS, success true, resultList, resultCount', 400: 'unknown project or missing API_MANAGEMENT VIEW', ...COMMON },
    async handle(ctx, input) {
      return list((await listGroups(ctx.deps.prisma, requireActor(ctx), input.params.projectName!)).map(groupView))
    },
  },
  groupWrite('post'),
  groupWrite('put'),
  {
    method: 'delete',
    path: `${BASE}/:apiProxyGroupName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyGroups',
    summary: 'Delete an API proxy group (its proxies stay) and undeploy it where it runs (API_MANAGEMENT MANAGE)',
    audit: { objectType: 'API_PROXY_GROUP', objectName: (input) => input.params.apiProxyGroupName ?? null },
    response: legacyBody({ success: z.literal(true), deploymentResult: deploymentResult.optional() }),
    responses: { 200: 'status SUCCESS, success true; deploymentResult when the group was deployed somewhere', 400: 'unknown project, missing API_MANAGEMENT MANAGE, group not found', ...COMMON },
    async handle(ctx, input) {
      const outcome = await deleteGroup(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyGroupName!)
      return ok(outcome ? { deploymentResult: groupDeploymentResult(outcome) } : {})
    },
  },
  membership('post'),
  membership('delete'),
  {
    method: 'get',
    path: `${BASE}/:apiProxyGroupName/environments/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyGroups',
    summary: 'The environments of the project and whether the API proxy group is deployed to each (API_MANAGEMENT VIEW)',
    response: legacyListBody(groupEnvironmentSchema, listFields),
    responses: { 200: 'status SUCCESS, success true, resultList [environmentName, deployed], resultCount', 400: 'unknown project, missing API_MANAGEMENT VIEW, group not found', ...COMMON },
    async handle(ctx, input) {
      return list(await groupEnvironments(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyGroupName!))
    },
  },
  push('post'),
  push('delete'),
])
