import { z } from 'zod'
import { legacyList, legacySuccess } from '../../platform/envelopes/legacy.js'
import { legacyBody, legacyListBody } from '../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef, type RouteInput } from '../../platform/http/routes.js'
import { certificateForPromotion, certificateNotFound, certificateProjectName, createPromotionCertificate, promotionCertificateInput } from './certificates.js'
import { executionInput, executionNotFound, executionProjectName, getPromotionExecution, runPromotionExecution, targetProjectNamed } from './executions.js'
import { proxyDeploymentResult } from '../apiproxies/shared/deployment-shapes.js'
import { groupInput } from '../apiproxies/groups/service.js'
import { promotionQuery, proxyPromotionBody } from './inputs.js'
import { objectFileSchema } from '../../platform/transfer/package/format.js'
import { groupProxiesForPromotion, promoteApiProxy, promoteApiProxyGroup, proxiesForPromotion } from './service.js'
import { promotedGroupView } from './views.js'
import { promotedGroupSchema, promotionAdvisories, promotionDeploymentResult, promotionEntrySchema, promotionExecutionSchema } from './view-schemas.js'

// Vendor api-reference/api-proxies/promotion (List / Save API Proxy for Promotion) and the ApiProxyGroup promotion
// operations of its openapi.yaml, legacy envelope (spec §7.1): every client mistake is a 400 with resultMessage.
// Mounted before the API proxy routes: `forpromotion` and `promotion` are not proxy names.

const PROJECT = '/apiops/projects/:projectName'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const nameOf = (input: RouteInput) => {
  const name = (input.body as { name?: unknown } | undefined)?.name
  return typeof name === 'string' && name ? name : null
}

/** An execution's project: the target the body names (POST), the target of the execution the path names (GET). */
const bodyTarget: RouteDef['accessProject'] = async (_db, request) => {
  const name = targetProjectNamed(await request.body())
  return name === undefined ? undefined : { name }
}
const executionTarget: RouteDef['accessProject'] = async (db, { params }) => {
  const name = await executionProjectName(db, params.executionId!)
  return name === undefined ? undefined : { name, unseen: executionNotFound(params.executionId!) }
}

const certificateProject: RouteDef['accessProject'] = async (db, { params }) => {
  const name = await certificateProjectName(db, params.id!)
  return name === undefined ? undefined : { name, unseen: certificateNotFound(params.id!) }
}

export const promotionRoutes = defineRoutes([
  {
    method: 'get',
    path: `${PROJECT}/apiProxies/forpromotion`,
    access: { category: 'API_MANAGEMENT', level: 'VIEW' },
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'Every API proxy of the source project with what a promotion carries: client route, routing, deployments, and the transfer engine\'s object file (API_MANAGEMENT VIEW)',
    response: legacyListBody(promotionEntrySchema),
    responses: { 200: 'status SUCCESS, resultList[] (id, name, description, type, relativePath, clientRoute, routing, categoryList, apiProxyDeployList, transfer), resultCount', 400: 'unknown project, missing API_MANAGEMENT VIEW', ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList(await proxiesForPromotion(ctx.deps, requireActor(ctx), input.params.projectName!)) }
    },
  },
  {
    method: 'put',
    path: `${PROJECT}/apiProxies/promotion`,
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'Create (no id) or overwrite (id of a proxy of this project) an API proxy from a promotion payload, through the transfer engine in one transaction; then deploy, best-effort, to deployEnvironmentIds (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
    body: { kind: 'json', required: true, schema: proxyPromotionBody },
    query: promotionQuery,
    audit: { objectType: 'API_PROXY', objectName: nameOf },
    response: legacyBody({
      ...promotionEntrySchema.shape,
      advisories: promotionAdvisories.describe('secrets not carried, references unresolved in the target, environment ids skipped'),
      deploymentResult: promotionDeploymentResult.optional().describe('present when deployEnvironmentIds named an environment of the project'),
    }),
    responses: {
      200: 'status SUCCESS and the saved proxy as List API Proxies for Promotion shows it (apiProxyDeployList rebuilt from this project), advisories, deploymentResult when deployed',
      400: 'unknown project, missing API_MANAGEMENT MANAGE (or DEPLOY_UNDEPLOY with deployEnvironmentIds), body invalid (named field), name already exists (create), id not in this project, id of a proxy with another name, type not REST, transfer object invalid',
      ...COMMON,
    },
    async handle(ctx, input) {
      const result = await promoteApiProxy(ctx.deps, requireActor(ctx), input.params.projectName!, input.body, input.query)
      return { body: legacySuccess({ ...result.entry, advisories: result.advisories, ...(result.deploymentResult ? { deploymentResult: proxyDeploymentResult(result.deploymentResult) } : {}) }) }
    },
  },
  {
    method: 'put',
    path: `${PROJECT}/apiProxyGroups/promotion`,
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'Create or update an API proxy group (name, description, client route) in the target project from a promotion payload (API_MANAGEMENT MANAGE)',
    body: { kind: 'json', required: true, schema: groupInput.meta({ id: 'ApiProxyGroupInfoInput' }) },
    audit: { objectType: 'API_PROXY_GROUP', objectName: nameOf },
    response: legacyBody({ ...promotedGroupSchema.shape, created: z.boolean().describe('true when the group did not exist in the target') }),
    responses: { 200: 'status SUCCESS, the group (id, name, description, clientRoute), created', 400: 'unknown project, missing API_MANAGEMENT MANAGE, field invalid (named)', ...COMMON },
    async handle(ctx, input) {
      const { group, created } = await promoteApiProxyGroup(ctx.deps, requireActor(ctx), input.params.projectName!, input.body)
      return { body: legacySuccess({ ...promotedGroupView(group), created }) }
    },
  },
  {
    method: 'get',
    path: `${PROJECT}/apiProxyGroups/:apiProxyGroupName/proxies/forpromotion`,
    access: { category: 'API_MANAGEMENT', level: 'VIEW' },
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'The API proxies of a group, as List API Proxies for Promotion shows them (API_MANAGEMENT VIEW)',
    response: legacyListBody(promotionEntrySchema),
    responses: { 200: 'status SUCCESS, resultList[], resultCount', 400: 'unknown project, missing API_MANAGEMENT VIEW, group not found', ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList(await groupProxiesForPromotion(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyGroupName!)) }
    },
  },
  {
    method: 'post',
    path: '/apiops/promotion/executions',
    access: { category: ['PROJECT_MANAGEMENT', 'API_MANAGEMENT'], level: 'EXPORT_IMPORT' },
    accessProject: bodyTarget,
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'Run a promotion: API proxies of sourceProjectName written to targetProjectName by the transfer engine (export selection, package, preflight, one-transaction import); nothing deployed. EXPORT_IMPORT (API_MANAGEMENT or PROJECT_MANAGEMENT) in both projects',
    body: { kind: 'json', required: true, schema: executionInput },
    audit: { objectType: 'PROMOTION_EXECUTION', objectName: (input) => targetProjectNamed(input.body) ?? null },
    response: legacyBody(promotionExecutionSchema.shape),
    responses: {
      200: 'status SUCCESS and the execution (executionId, status COMPLETED, steps, result: imported, advisories, digests)',
      400: 'unknown project (either), missing EXPORT_IMPORT (either), body invalid (named field), same project twice, unknown proxy, name taken in the target (conflictPolicy NEW), unmapped environment',
      ...COMMON,
    },
    async handle(ctx, input) {
      return { body: legacySuccess(await runPromotionExecution(ctx.deps, requireActor(ctx), input.body)) }
    },
  },
  {
    method: 'get',
    path: '/apiops/promotion/executions/:executionId',
    access: { category: 'API_MANAGEMENT', level: 'VIEW' },
    accessProject: executionTarget,
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'One promotion execution by its id (API_MANAGEMENT VIEW in its target project)',
    response: legacyBody(promotionExecutionSchema.shape),
    responses: { 200: 'status SUCCESS and the execution', 400: 'execution not found (also when its target project is out of the caller\'s sight), missing API_MANAGEMENT VIEW', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getPromotionExecution(ctx.deps, requireActor(ctx), input.params.executionId!)) }
    },
  },
  {
    method: 'get',
    path: '/apiops/utility/promotion-certificates/:certKind/:id/full',
    access: { category: ['CERTIFICATE', 'PROJECT_MANAGEMENT'], level: 'EXPORT_IMPORT' },
    accessProject: certificateProject,
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'A certificate, key, keystore or JWK by id with its secret fields, for a promotion: the transfer engine\'s CERTIFICATE object, secrets sealed under this installation\'s key (EXPORT_IMPORT on CERTIFICATE or PROJECT_MANAGEMENT in its project)',
    response: legacyBody({ id: z.string(), certKind: z.string(), projectName: z.string(), name: z.string(), transfer: objectFileSchema }),
    responses: { 200: 'status SUCCESS, id, certKind, projectName, name, transfer (the object file)', 400: 'certificate not found (also out of the caller\'s sight or of another kind), certKind unknown, missing EXPORT_IMPORT', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await certificateForPromotion(ctx.deps, requireActor(ctx), input.params.certKind!, input.params.id!)) }
    },
  },
  {
    method: 'post',
    path: `${PROJECT}/promotion-certificates`,
    access: { category: 'CERTIFICATE', level: 'MANAGE' },
    style: 'legacy',
    auth: 'token',
    tag: 'promotion',
    summary: 'Create a certificate (key, keystore, JWK) from a promoted source: the full read\'s answer written through the transfer engine in one transaction; overwrite replaces one of the same kind and name; nothing deployed (CERTIFICATE MANAGE)',
    body: { kind: 'json', required: true, schema: promotionCertificateInput },
    audit: { objectType: 'CERTIFICATE', objectName: (input) => {
      const body = input.body as { name?: unknown; transfer?: { name?: unknown } } | undefined
      const name = body?.name ?? body?.transfer?.name
      return typeof name === 'string' ? name : null
    } },
    response: legacyBody({ id: z.string(), certKind: z.string(), name: z.string(), created: z.boolean(), advisories: promotionAdvisories }),
    responses: { 200: 'status SUCCESS, id, certKind, name, created, advisories (secrets not restorable here)', 400: 'unknown project, missing CERTIFICATE MANAGE, body invalid (named field), transfer.type not CERTIFICATE, unknown kind, name taken (without overwrite)', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await createPromotionCertificate(ctx.deps, requireActor(ctx), input.params.projectName!, input.body)) }
    },
  },
])
