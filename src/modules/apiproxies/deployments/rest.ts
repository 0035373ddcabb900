import { z } from 'zod'
import type { ApiDeployHistory } from '../../../generated/prisma/client.js'
import { legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { deploymentResult as deploymentResultSchema, legacyBody, legacyListBody, proxyDeploymentResult as proxyDeploymentResultSchema } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { groupDeploymentResult, proxyDeploymentResult } from '../shared/deployment-shapes.js'
import { deleteHistory, groupHistoryView, historyDetail, listHistory, proxyHistoryView, rollbackGroup, rollbackProxy, rollbackQuery } from './history.js'
import { deployStatus, invokeInfo, routeHealth } from './status.js'
import { deployStatusSchema, groupHistorySchema, invokeInfoSchema, proxyHistorySchema, routeHealthSchema } from './view-schemas.js'

// Vendor pages api-reference/api-proxies/deployment (deploy status, route health, deploy histories, rollback) and
// api-reference/api-proxy-groups/deployment (deploy histories), legacy envelope of spec §7.1: every client mistake
// is a 400 with resultMessage.

const PROXY = '/apiops/projects/:projectName/apiProxies/:apiProxyName'
const GROUP = '/apiops/projects/:projectName/apiProxyGroups/:apiProxyGroupName'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const NOT_FOUND = 'unknown project, missing API_MANAGEMENT VIEW, proxy not found'

const perEnvironment = (what: 'deploy-status' | 'route-health'): RouteDef => ({
  method: 'get',
  path: `${PROXY}/environments/:environmentName/${what}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary:
    what === 'deploy-status'
      ? 'Whether an API proxy is deployed to an environment: deployed, lastDeployTime and revision of the newest deploy history record, redeployRequired (API_MANAGEMENT VIEW)'
      : "Whether an API proxy's route is active on the environment's workers, per worker (from what each last acknowledged), and whether that agrees with the deployment record (API_MANAGEMENT VIEW)",
  response: legacyListBody(what === 'deploy-status' ? deployStatusSchema : routeHealthSchema),
  responses: { 200: 'status SUCCESS, resultList [one record], resultCount 1', 400: `${NOT_FOUND}, environment not found in the project`, ...COMMON },
  async handle(ctx, input) {
    const p = input.params
    const read = what === 'deploy-status' ? deployStatus : routeHealth
    return { body: legacyList([await read(ctx.deps.prisma, requireActor(ctx), p.projectName!, p.apiProxyName!, p.environmentName!)]) }
  },
})

type Kind = 'proxy' | 'group'
const base = (kind: Kind) => (kind === 'proxy' ? PROXY : GROUP)
const nameOf = (kind: Kind, params: Record<string, string | undefined>) => (kind === 'proxy' ? params.apiProxyName! : params.apiProxyGroupName!)
const label = (kind: Kind) => (kind === 'proxy' ? 'API proxy' : 'API proxy group')
const view = (kind: Kind): ((r: ApiDeployHistory) => object) => (kind === 'proxy' ? proxyHistoryView : groupHistoryView)
const objectType = (kind: Kind) => (kind === 'proxy' ? 'API_PROXY' : 'API_PROXY_GROUP')

const histories = (kind: Kind): RouteDef[] => [
  {
    method: 'get',
    path: `${base(kind)}/deploy-histories/`,
    style: 'legacy',
    auth: 'token',
    tag: kind === 'proxy' ? 'apiProxies' : 'apiProxyGroups',
    summary: `The deploy and undeploy records of an ${label(kind)}, newest first (API_MANAGEMENT VIEW)`,
    response: legacyListBody(kind === 'proxy' ? proxyHistorySchema : groupHistorySchema),
    responses: { 200: 'status SUCCESS, resultList, resultCount', 400: `unknown project, missing API_MANAGEMENT VIEW, ${label(kind)} not found`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList((await listHistory(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, kind, nameOf(kind, input.params))).map(view(kind))) }
    },
  },
  {
    method: 'get',
    path: `${base(kind)}/deploy-histories/:revision/`,
    style: 'legacy',
    auth: 'token',
    tag: kind === 'proxy' ? 'apiProxies' : 'apiProxyGroups',
    summary: `One deploy history record of an ${label(kind)} by revision (API_MANAGEMENT VIEW)`,
    response: legacyListBody(kind === 'proxy' ? proxyHistorySchema : groupHistorySchema),
    responses: { 200: 'status SUCCESS, resultList [the record], resultCount 1', 400: `unknown project, missing API_MANAGEMENT VIEW, ${label(kind)} not found, revision not a positive integer or not found`, ...COMMON },
    async handle(ctx, input) {
      const row = await historyDetail(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, kind, nameOf(kind, input.params), input.params.revision)
      return { body: legacyList([view(kind)(row)]) }
    },
  },
  {
    method: 'delete',
    path: `${base(kind)}/deploy-histories/:revision/`,
    style: 'legacy',
    auth: 'token',
    tag: kind === 'proxy' ? 'apiProxies' : 'apiProxyGroups',
    summary: `Delete one deploy history record of an ${label(kind)} and its snapshot (no rollback to it afterwards); nothing is pushed (API_MANAGEMENT MANAGE)`,
    audit: { objectType: objectType(kind), objectName: (input) => nameOf(kind, input.params) ?? null },
    response: legacyBody({ resultMessage: z.string() }),
    responses: { 200: 'status SUCCESS, resultMessage', 400: `unknown project, missing API_MANAGEMENT MANAGE, ${label(kind)} not found, revision not a positive integer or not found`, ...COMMON },
    async handle(ctx, input) {
      await deleteHistory(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, kind, nameOf(kind, input.params), input.params.revision)
      return { body: legacySuccess({ resultMessage: kind === 'proxy' ? 'Deploy history record deleted successfully.' : 'Proxy Group deploy history record deleted successfully.' }) }
    },
  },
  {
    method: 'post',
    path: `${base(kind)}/deploy-histories/:revision/rollback/`,
    style: 'legacy',
    auth: 'token',
    tag: kind === 'proxy' ? 'apiProxies' : 'apiProxyGroups',
    summary:
      kind === 'proxy'
        ? 'Roll an API proxy back to the configuration, endpoints and policies a deploy history record kept, then deploy it to environmentName, or else where it runs now (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)'
        : 'Roll an API proxy group back to the description, client route and members a deploy history record kept, then deploy it to environmentName, or else where it runs now (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
    query: rollbackQuery,
    audit: { objectType: objectType(kind), objectName: (input) => nameOf(kind, input.params) ?? null },
    response: legacyBody({ resultMessage: z.string(), deploymentResult: (kind === 'proxy' ? proxyDeploymentResultSchema : deploymentResultSchema).optional() }),
    responses: {
      200: 'status SUCCESS, resultMessage (rolled back; deployed to …, or deployment failed: …), deploymentResult when it was deployed',
      400: `unknown project, missing API_MANAGEMENT MANAGE, ${label(kind)} not found, revision not a positive integer or not found, the record is an undeploy or keeps no configuration, environment not found${kind === 'group' ? ', a member proxy no longer exists' : ''}`,
      ...COMMON,
    },
    async handle(ctx, input) {
      const rollback = kind === 'proxy' ? rollbackProxy : rollbackGroup
      const r = await rollback(ctx.deps, requireActor(ctx), input.params.projectName!, nameOf(kind, input.params), input.params.revision, input.query)
      const shape = kind === 'proxy' ? proxyDeploymentResult : groupDeploymentResult
      return { body: legacySuccess({ resultMessage: r.resultMessage, ...(r.deploymentResult ? { deploymentResult: shape(r.deploymentResult) } : {}) }) }
    },
  },
]

const invokeInfoRoute: RouteDef = {
  method: 'get',
  path: `${PROXY}/invoke-info/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary: "How to call an API proxy, per environment of the project: gatewayBaseUrl (the environment's access URL), fullPaths, methods, schemes, deployed (API_MANAGEMENT VIEW)",
  response: legacyListBody(invokeInfoSchema),
  responses: { 200: 'status SUCCESS, resultList (one per environment), resultCount', 400: NOT_FOUND, ...COMMON },
  async handle(ctx, input) {
    return { body: legacyList(await invokeInfo(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!)) }
  },
}

export const deploymentRoutes = defineRoutes([perEnvironment('deploy-status'), perEnvironment('route-health'), invokeInfoRoute, ...histories('proxy'), ...histories('group')])
