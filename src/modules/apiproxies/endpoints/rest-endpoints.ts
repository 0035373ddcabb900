import { legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { z } from 'zod'
import { legacyBody, legacyListBody, proxyDeploymentResult as proxyDeploymentResultSchema } from '../../../platform/http/response-schemas.js'
import { vendorEndpointDetailFields, vendorEndpointPolicyLists, vendorEndpointSchema } from './view-schemas.js'
import { defineRoutes, requireActor, type RouteDef, type RouteInput } from '../../../platform/http/routes.js'
import { proxyDeploymentResult } from '../shared/deployment-shapes.js'
import { cacheInput, endpointStatusInput, wsaInput } from '../settings/settings-inputs.js'
import {
  createVendorEndpoint, deleteVendorEndpoint, getVendorEndpoint, listVendorEndpoints, setVendorEndpointCache, setVendorEndpointStatus, setVendorEndpointWsa,
  updateVendorEndpoint, vendorEndpointCreateInput, vendorEndpointUpdateInput, type VendorEndpointWrite,
} from './endpoint-vendor.js'

// Vendor pages 04-api-proxies/endpoints/* (9 pages), legacy envelope (spec §7.1). The endpoint id is the `id` the
// list and get answers show. Writes answer success true, and deploymentResult when the proxy runs somewhere (it is
// redeployed with the change).

const BASE = '/apiops/projects/:projectName/apiProxies/:apiProxyName/endpoints'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const READ_400 = 'unknown project, missing API_MANAGEMENT VIEW, proxy not found'
const WRITE_400 = 'unknown project, missing API_MANAGEMENT MANAGE, proxy not found'
const NOT_FOUND = 'endpoint id not found in the proxy'
const WRITTEN_200 = 'status SUCCESS, success true; deploymentResult (success, message, deploymentResults[]) when the proxy is deployed somewhere (redeployed there)'

const writtenBody = legacyBody({ success: z.literal(true), deploymentResult: proxyDeploymentResultSchema.optional() })
const written = ({ deploymentResult }: VendorEndpointWrite) => ({
  body: legacySuccess({ success: true, ...(deploymentResult ? { deploymentResult: proxyDeploymentResult(deploymentResult) } : {}) }),
})
const byId = (input: RouteInput) => ({ id: input.params.endpointId! })
// the audited object is the proxy (the endpoint id alone says little in the trail)
const audit = { objectType: 'API_PROXY_ENDPOINT', objectName: (input: RouteInput) => `${input.params.apiProxyName ?? ''}/${input.params.endpointId ?? ''}` }

const endpointSetting = (name: 'status' | 'cache' | 'wsa'): RouteDef => ({
  method: 'patch',
  path: `${BASE}/:endpointId/${name}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxyEndpoints',
  summary: {
    status: 'Enable (active true) or disable (active false) an endpoint; a disabled endpoint answers 404 at the gateway (API_MANAGEMENT MANAGE)',
    cache: "Set an endpoint's own cache settings (the proxy-level cache page's body; they override the proxy's) (API_MANAGEMENT MANAGE)",
    wsa: 'Set the WS-Addressing settings of a SOAP endpoint (API_MANAGEMENT MANAGE)',
  }[name],
  body: { kind: 'json', required: true, schema: { status: endpointStatusInput, cache: cacheInput, wsa: wsaInput }[name] },
  access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
  audit,
  response: writtenBody,
  responses: {
    200: WRITTEN_200,
    400: `${WRITE_400}, ${NOT_FOUND}, ${{ status: 'active missing or not a boolean', cache: 'name or handlingAction missing, enum invalid, CUSTOM key without variableList, variable missing the field its type needs', wsa: 'endpoint not SOAP, address not a URI, wsaAction/wsaTo/wsaMessageId missing when their default is off' }[name]}`,
    ...COMMON,
  },
  async handle(ctx, input) {
    const run = { status: setVendorEndpointStatus, cache: setVendorEndpointCache, wsa: setVendorEndpointWsa }[name]
    return written(await run(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, byId(input), input.body))
  },
})

export const proxyEndpointRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: 'List the endpoints of an API proxy without policies: id, endpoint, description, active, httpMethod, backendResourceUrl, backendHttpMethod (API_MANAGEMENT VIEW)',
    response: legacyListBody(vendorEndpointSchema),
    responses: { 200: 'status SUCCESS, resultList, resultCount', 400: READ_400, ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList(await listVendorEndpoints(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!)) }
    },
  },
  {
    method: 'post',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: 'Create an endpoint of a REST API proxy: name (client path), httpMethod, backendResourceUrl (backend path), backendHttpMethod; active by default (API_MANAGEMENT MANAGE)',
    body: { kind: 'json', required: true, schema: vendorEndpointCreateInput },
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    audit: { objectType: 'API_PROXY_ENDPOINT', objectName: (input, answer) => `${input.params.apiProxyName ?? ''}/${(answer as { id?: string } | undefined)?.id ?? ''}` },
    response: legacyBody({ success: z.literal(true), deploymentResult: proxyDeploymentResultSchema.optional(), id: z.string() }),
    responses: { 200: `${WRITTEN_200}; id of the new endpoint`, 400: `${WRITE_400}, proxy not REST, field missing or invalid (named), name + httpMethod already taken`, ...COMMON },
    async handle(ctx, input) {
      const result = await createVendorEndpoint(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.body)
      return { body: { ...written(result).body, id: result.endpoint.id } }
    },
  },
  {
    method: 'get',
    path: `${BASE}/:endpointId/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: 'Read one endpoint without policies, with its cacheSettings and wsaSettings (API_MANAGEMENT VIEW)',
    response: legacyBody(vendorEndpointDetailFields),
    responses: { 200: 'status SUCCESS and the endpoint fields', 400: `${READ_400}, ${NOT_FOUND}`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getVendorEndpoint(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, byId(input), false)) }
    },
  },
  {
    method: 'patch',
    path: `${BASE}/:endpointId/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: 'Update an endpoint: only the fields given (name, description, httpMethod, backendResourceUrl, backendHttpMethod) change (API_MANAGEMENT MANAGE)',
    body: { kind: 'json', required: true, schema: vendorEndpointUpdateInput },
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    audit,
    response: writtenBody,
    responses: { 200: WRITTEN_200, 400: `${WRITE_400}, ${NOT_FOUND}, empty body, field invalid (named), name + httpMethod taken by another endpoint`, ...COMMON },
    async handle(ctx, input) {
      return written(await updateVendorEndpoint(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, byId(input), input.body))
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:endpointId/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: 'Delete an endpoint of a REST API proxy with its policies (API_MANAGEMENT MANAGE)',
    audit,
    response: writtenBody,
    responses: { 200: WRITTEN_200, 400: `${WRITE_400}, proxy not REST, ${NOT_FOUND}`, ...COMMON },
    async handle(ctx, input) {
      return written(await deleteVendorEndpoint(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, byId(input)))
    },
  },
  endpointSetting('status'),
  endpointSetting('cache'),
  endpointSetting('wsa'),
  {
    method: 'get',
    path: `${BASE}/:endpointId/policies/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: "Read one endpoint with its policies: requestPolicyList, responsePolicyList, errorPolicyList (type, name, description, active) (API_MANAGEMENT VIEW)",
    response: legacyBody({ ...vendorEndpointDetailFields, ...vendorEndpointPolicyLists }),
    responses: { 200: 'status SUCCESS, the endpoint fields and the three policy lists', 400: `${READ_400}, ${NOT_FOUND}`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getVendorEndpoint(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, byId(input), true)) }
    },
  },
])

