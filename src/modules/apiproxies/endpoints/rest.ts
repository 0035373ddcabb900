import { legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { z } from 'zod'
import { legacyBody, legacyListBody, proxyDeploymentResult as proxyDeploymentResultSchema } from '../../../platform/http/response-schemas.js'
import { vendorEndpointDetailFields, vendorEndpointPolicyLists, vendorEndpointSchema } from './view-schemas.js'
import { defineRoutes, requireActor, type RouteDef, type RouteInput } from '../../../platform/http/routes.js'
import { proxyDeploymentResult } from '../shared/deployment-shapes.js'
import { cacheInput, endpointStatusInput, wsaInput } from '../settings/inputs.js'
import {
  createVendorEndpoint, deleteVendorEndpoint, endpointCacheByNameInput, endpointIdentifierInput, endpointStatusByNameInput, endpointWsaByNameInput, getVendorEndpoint, IN_BODY,
  listVendorEndpoints, setVendorEndpointCache, setVendorEndpointStatus, setVendorEndpointWsa, updateVendorEndpoint, vendorEndpointCreateInput, vendorEndpointUpdateByNameInput,
  vendorEndpointUpdateInput, type VendorEndpointWrite,
} from './vendor.js'

// Vendor pages 04-api-proxies/endpoints/* (9 pages), legacy envelope (spec §7.1). The pages of 2025-11-17
// (management-api-docs commit b9d5441) name the endpoint in the body: name + httpMethod (details, update, policies,
// delete), identifierName + identifierHttpMethod beside the settings (status, cache, wsa). The forms of the pages
// before it, by the `id` the list shows in the path, stay served as aliases: each pair calls the same service
// function (vendor.ts), the body forms with IN_BODY. Writes answer success true, and deploymentResult when
// the proxy runs somewhere (it is redeployed with the change). The static paths come before the {endpointId} ones
// (Express matches in mount order: `status` is not an id).

const BASE = '/apiops/projects/:projectName/apiProxies/:apiProxyName/endpoints'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const READ_400 = 'unknown project, missing API_MANAGEMENT VIEW, proxy not found'
const WRITE_400 = 'unknown project, missing API_MANAGEMENT MANAGE, proxy not found'
const NOT_FOUND = 'endpoint id not found in the proxy'
const NAME_400 = "identifier missing or blank ('Endpoint identifier (name and httpMethod) must be provided in request body!'), httpMethod not one of GET…ALL, no endpoint of that name and method ('Endpoint with name (…) and HTTP method (…) is not found!'), the name in several path versions and none unversioned"
const WRITTEN_200 = 'status SUCCESS, success true; deploymentResult (success, message, deploymentResults[]) when the proxy is deployed somewhere (redeployed there)'
const BY_NAME = ' Pages of 2025-11-17: the endpoint is named in the body.'
const ALIAS = ' Alias of the pages before 2025-11-17 (the endpoint by the id the list shows); the same operation as the body-identified form.'

const writtenBody = legacyBody({ success: z.literal(true), deploymentResult: proxyDeploymentResultSchema.optional() })
const written = ({ deploymentResult }: VendorEndpointWrite) => ({
  body: legacySuccess({ success: true, ...(deploymentResult ? { deploymentResult: proxyDeploymentResult(deploymentResult) } : {}) }),
})
const byId = (input: RouteInput) => ({ id: input.params.endpointId! })
const fromParams = (input: RouteInput) => [input.params.projectName!, input.params.apiProxyName!] as const
// the audited object: proxy/endpoint id, or proxy/METHOD name for the body forms
const audit = { objectType: 'API_PROXY_ENDPOINT', objectName: (input: RouteInput) => `${input.params.apiProxyName ?? ''}/${input.params.endpointId ?? ''}` }
const field = (body: unknown, key: string) => String((body as Record<string, unknown> | null | undefined)?.[key] ?? '')
const auditByName = (name: string, method: string) => ({
  objectType: 'API_PROXY_ENDPOINT', objectName: (input: RouteInput) => `${input.params.apiProxyName ?? ''}/${field(input.body, method)} ${field(input.body, name)}`,
})

type Setting = 'status' | 'cache' | 'wsa'
const SETTING_SUMMARY: Record<Setting, string> = {
  status: 'Enable (active true) or disable (active false) an endpoint; a disabled endpoint answers 404 at the gateway (API_MANAGEMENT MANAGE).',
  cache: "Set an endpoint's own cache settings (the proxy-level cache page's body; they override the proxy's) (API_MANAGEMENT MANAGE).",
  wsa: 'Set the WS-Addressing settings of a SOAP endpoint (API_MANAGEMENT MANAGE).',
}
const SETTING_400: Record<Setting, string> = {
  status: 'active missing or not a boolean',
  cache: 'name or handlingAction missing, enum invalid, CUSTOM key without variableList, variable missing the field its type needs',
  wsa: 'endpoint not SOAP, address not a URI, wsaAction/wsaTo/wsaMessageId missing when their default is off',
}
const SETTING_RUN = { status: setVendorEndpointStatus, cache: setVendorEndpointCache, wsa: setVendorEndpointWsa }

const endpointSetting = (name: Setting, form: 'body' | 'id'): RouteDef => ({
  method: 'patch',
  path: form === 'body' ? `${BASE}/${name}/` : `${BASE}/:endpointId/${name}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxyEndpoints',
  summary: form === 'body'
    ? `${SETTING_SUMMARY[name]}${BY_NAME} Body: identifierName, identifierHttpMethod and ${{ status: 'active', cache: 'cacheSettings (the cache body)', wsa: 'wsaSettings (the WS-Addressing body)' }[name]}.`
    : `${SETTING_SUMMARY[name]}${ALIAS}`,
  body: { kind: 'json', required: true, schema: form === 'body' ? { status: endpointStatusByNameInput, cache: endpointCacheByNameInput, wsa: endpointWsaByNameInput }[name] : { status: endpointStatusInput, cache: cacheInput, wsa: wsaInput }[name] },
  access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
  audit: form === 'body' ? auditByName('identifierName', 'identifierHttpMethod') : audit,
  response: writtenBody,
  responses: { 200: WRITTEN_200, 400: `${WRITE_400}, ${form === 'body' ? NAME_400 : NOT_FOUND}, ${SETTING_400[name]}`, ...COMMON },
  async handle(ctx, input) {
    return written(await SETTING_RUN[name](ctx.deps, requireActor(ctx), ...fromParams(input), form === 'body' ? IN_BODY : byId(input), input.body))
  },
})

const detailBody = legacyBody(vendorEndpointDetailFields)
const policiesBody = legacyBody({ ...vendorEndpointDetailFields, ...vendorEndpointPolicyLists })
const DETAIL_SUMMARY = 'Read one endpoint without policies, with its cacheSettings and wsaSettings (API_MANAGEMENT VIEW).'
const POLICIES_SUMMARY = 'Read one endpoint with its policies: requestPolicyList, responsePolicyList, errorPolicyList (type, name, description, active) (API_MANAGEMENT VIEW).'
const DELETE_SUMMARY = 'Delete an endpoint of a REST API proxy with its policies (API_MANAGEMENT MANAGE).'
const UPDATE_SUMMARY = 'Update an endpoint: only the fields given change'

/** The body-identified forms (pages of b9d5441); mounted before the {endpointId} aliases. */
const byNameRoutes: RouteDef[] = [
  {
    method: 'post',
    path: `${BASE}/details/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${DETAIL_SUMMARY}${BY_NAME} Body: name, httpMethod. Writes nothing.`,
    body: { kind: 'json', required: true, schema: endpointIdentifierInput },
    access: { category: 'API_MANAGEMENT', level: 'VIEW' },
    audit: false,
    response: detailBody,
    responses: { 200: 'status SUCCESS and the endpoint fields', 400: `${READ_400}, ${NAME_400}`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getVendorEndpoint(ctx.deps.prisma, requireActor(ctx), ...fromParams(input), IN_BODY, false, input.body)) }
    },
  },
  {
    method: 'post',
    path: `${BASE}/policies/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${POLICIES_SUMMARY}${BY_NAME} Body: name, httpMethod. Writes nothing.`,
    body: { kind: 'json', required: true, schema: endpointIdentifierInput },
    access: { category: 'API_MANAGEMENT', level: 'VIEW' },
    audit: false,
    response: policiesBody,
    responses: { 200: 'status SUCCESS, the endpoint fields and the three policy lists', 400: `${READ_400}, ${NAME_400}`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getVendorEndpoint(ctx.deps.prisma, requireActor(ctx), ...fromParams(input), IN_BODY, true, input.body)) }
    },
  },
  {
    method: 'patch',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${UPDATE_SUMMARY} (description, backendResourceUrl, backendHttpMethod, active); name + httpMethod name the endpoint and do not change (API_MANAGEMENT MANAGE).${BY_NAME}`,
    body: { kind: 'json', required: true, schema: vendorEndpointUpdateByNameInput },
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    audit: auditByName('name', 'httpMethod'),
    response: writtenBody,
    responses: { 200: WRITTEN_200, 400: `${WRITE_400}, ${NAME_400}, no field besides the identifier, field invalid (named)`, ...COMMON },
    async handle(ctx, input) {
      return written(await updateVendorEndpoint(ctx.deps, requireActor(ctx), ...fromParams(input), IN_BODY, input.body))
    },
  },
  {
    method: 'post',
    path: `${BASE}/delete/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${DELETE_SUMMARY}${BY_NAME} Body: name, httpMethod.`,
    body: { kind: 'json', required: true, schema: endpointIdentifierInput },
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    audit: auditByName('name', 'httpMethod'),
    response: writtenBody,
    responses: { 200: WRITTEN_200, 400: `${WRITE_400}, proxy not REST, ${NAME_400}`, ...COMMON },
    async handle(ctx, input) {
      return written(await deleteVendorEndpoint(ctx.deps, requireActor(ctx), ...fromParams(input), IN_BODY, input.body))
    },
  },
  endpointSetting('status', 'body'),
  endpointSetting('cache', 'body'),
  endpointSetting('wsa', 'body'),
]

/** The {endpointId} forms of the pages before b9d5441, kept as aliases. */
const byIdRoutes: RouteDef[] = [
  {
    method: 'get',
    path: `${BASE}/:endpointId/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${DETAIL_SUMMARY}${ALIAS}`,
    response: detailBody,
    responses: { 200: 'status SUCCESS and the endpoint fields', 400: `${READ_400}, ${NOT_FOUND}`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getVendorEndpoint(ctx.deps.prisma, requireActor(ctx), ...fromParams(input), byId(input), false)) }
    },
  },
  {
    method: 'patch',
    path: `${BASE}/:endpointId/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${UPDATE_SUMMARY} (name, description, httpMethod, backendResourceUrl, backendHttpMethod, active) (API_MANAGEMENT MANAGE).${ALIAS}`,
    body: { kind: 'json', required: true, schema: vendorEndpointUpdateInput },
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    audit,
    response: writtenBody,
    responses: { 200: WRITTEN_200, 400: `${WRITE_400}, ${NOT_FOUND}, no field given, field invalid (named), name + httpMethod taken by another endpoint`, ...COMMON },
    async handle(ctx, input) {
      return written(await updateVendorEndpoint(ctx.deps, requireActor(ctx), ...fromParams(input), byId(input), input.body))
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:endpointId/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${DELETE_SUMMARY}${ALIAS}`,
    audit,
    response: writtenBody,
    responses: { 200: WRITTEN_200, 400: `${WRITE_400}, proxy not REST, ${NOT_FOUND}`, ...COMMON },
    async handle(ctx, input) {
      return written(await deleteVendorEndpoint(ctx.deps, requireActor(ctx), ...fromParams(input), byId(input)))
    },
  },
  endpointSetting('status', 'id'),
  endpointSetting('cache', 'id'),
  endpointSetting('wsa', 'id'),
  {
    method: 'get',
    path: `${BASE}/:endpointId/policies/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxyEndpoints',
    summary: `${POLICIES_SUMMARY}${ALIAS}`,
    response: policiesBody,
    responses: { 200: 'status SUCCESS, the endpoint fields and the three policy lists', 400: `${READ_400}, ${NOT_FOUND}`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await getVendorEndpoint(ctx.deps.prisma, requireActor(ctx), ...fromParams(input), byId(input), true)) }
    },
  },
]

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
      return { body: legacyList(await listVendorEndpoints(ctx.deps.prisma, requireActor(ctx), ...fromParams(input))) }
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
      const result = await createVendorEndpoint(ctx.deps, requireActor(ctx), ...fromParams(input), input.body)
      return { body: { ...written(result).body, id: result.endpoint.id } }
    },
  },
  ...byNameRoutes,
  ...byIdRoutes,
])
