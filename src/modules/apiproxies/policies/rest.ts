import { legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { legacyBody, legacyListBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { policyDeploymentResult } from '../shared/deployment-shapes.js'
import { addPolicy, deletePolicy, listPolicies, updatePolicy, type PolicyWrite } from './service.js'
import { policyTypeRoutes } from './types/rest.js'
import { policyDeleteInput, policyWriteInput } from './inputs.js'
import { policyDeploymentResultSchema, proxyPoliciesSchema } from './view-schemas.js'

// Vendor pages 05-policies/crud, legacy envelope (spec §7.1).

const PATH = '/apiops/projects/:projectName/apiProxies/:apiProxyName/policies/:policyName/'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const ERRORS_400 =
  'unknown project, missing API_MANAGEMENT MANAGE, proxy not found, body field invalid (named: operationMetadata.*, policy.*; a policy is validated ' +
  'against its type in GET /apiops/policy-types/{type}/schema), unknown policy type (the message lists the types), a certificate, keystore, crypto key, ' +
  'JWK, connection, IP group or environment variable the policy names not found (named), ' +
  'targetEndpoint not an endpoint of the proxy, unknown environment in deployTargetEnvironmentNameList'

const written = ({ deploymentResult }: PolicyWrite) => ({
  body: legacySuccess(deploymentResult ? { deploymentResult: policyDeploymentResult(deploymentResult) } : {}),
})

const write = (method: 'post' | 'put' | 'delete'): RouteDef => ({
  method,
  path: PATH,
  style: 'legacy',
  auth: 'token',
  tag: 'policies',
  summary: {
    post: 'Add a policy to the request, response or error pipeline of an API proxy, for all endpoints or one, at operationMetadata.order (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
    put: 'Update a policy: its configuration, scope, pipeline or order; the type stays (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
    delete: 'Delete a policy from the scope and pipeline operationMetadata names (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
  }[method],
  body: { kind: 'json', required: true, schema: method === 'delete' ? policyDeleteInput : policyWriteInput },
  audit: { objectType: 'API_PROXY_POLICY' },
  response: legacyBody({ deploymentResult: policyDeploymentResultSchema.optional().describe('with operationMetadata.deploy (default true)') }),
  responses: {
    200: 'status SUCCESS; with operationMetadata.deploy (default true) also deploymentResult (success, responseTime, detailList[envName, podName, podIp, success, responseTime, detail], one entry per worker)',
    400: {
      post: `${ERRORS_400}, a policy of that name already exists`,
      put: `${ERRORS_400}, policy not found, policy type changed`,
      delete: `${ERRORS_400}, policy not found or not in the named scope and pipeline`,
    }[method],
    ...COMMON,
  },
  async handle(ctx, input) {
    const p = input.params
    const run = { post: addPolicy, put: updatePolicy, delete: deletePolicy }[method]
    return written(await run(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, p.policyName!, input.body))
  },
})

export const policyRoutes = defineRoutes([
  {
    method: 'get',
    path: '/apiops/projects/:projectName/apiProxies/:apiProxyName/policies/',
    style: 'legacy',
    auth: 'token',
    tag: 'policies',
    summary: 'List the policies of an API proxy by pipeline (request, response, error), and those of each endpoint (API_MANAGEMENT VIEW)',
    response: legacyListBody(proxyPoliciesSchema),
    responses: { 200: 'status SUCCESS, resultList [the proxy with requestPolicyList, responsePolicyList, errorPolicyList, endpointList], resultCount 1', 400: 'unknown project, missing API_MANAGEMENT VIEW, proxy not found', ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList([await listPolicies(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!)]) }
    },
  },
  write('post'),
  write('put'),
  write('delete'),
  ...policyTypeRoutes,
])
