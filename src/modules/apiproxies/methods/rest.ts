import { z } from 'zod'
import { legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { legacyBody, legacyListBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor } from '../../../platform/http/routes.js'
import { endpointIdentifierInput, getVendorEndpoint, IN_BODY } from '../endpoints/vendor.js'
import { vendorEndpointDetailFields, vendorEndpointPolicyLists, vendorEndpointSchema } from '../endpoints/view-schemas.js'
import { listMethods, methodsQuery } from './service.js'

// Vendor pages api-reference/api-proxies/endpoints list-methods and get-method-policies (legacy envelope, spec §7.1).

const BASE = '/apiops/projects/:projectName/apiProxies/:apiProxyName/methods'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const READ_400 = 'unknown project, missing API_MANAGEMENT VIEW, proxy not found'

export const methodRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: 'List the methods (endpoints) of an API proxy: id, endpoint, description, active, httpMethod, backendResourceUrl, backendHttpMethod; with withPolicies=true also the request, response and error policy lists (API_MANAGEMENT VIEW)',
    query: methodsQuery,
    response: legacyListBody(vendorEndpointSchema.extend(z.object(vendorEndpointPolicyLists).partial().shape), { success: z.literal(true) }),
    responses: { 200: 'status SUCCESS, success true, resultList, resultCount', 400: `${READ_400}, withPolicies not true or false`, ...COMMON },
    async handle(ctx, input) {
      return { body: { ...legacyList(await listMethods(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.query)), success: true } }
    },
  },
  {
    method: 'post',
    path: `${BASE}/policies/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: 'One method (endpoint) of an API proxy named by the body (name, httpMethod) with its request, response and error policy lists; writes nothing (API_MANAGEMENT VIEW)',
    body: { kind: 'json', required: true, schema: endpointIdentifierInput },
    access: { category: 'API_MANAGEMENT', level: 'VIEW' },
    audit: false,
    response: legacyBody({ ...vendorEndpointDetailFields, ...vendorEndpointPolicyLists }),
    responses: { 200: 'status SUCCESS, the method fields and the three policy lists', 400: `${READ_400}, name or httpMethod missing, no endpoint of that name and method`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getVendorEndpoint(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, IN_BODY, true, input.body)) }
    },
  },
])
