import { z } from 'zod'
import { legacyList } from '../../../platform/envelopes/legacy.js'
import { legacyListBody, plainBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { environmentVariableSchema } from '../../envvars/view-schemas.js'
import { fullProxy, fullQuery, getProxySpec, proxyEnvironmentVariables, replaceProxySpec, specApiInput } from './service.js'

// The vendor document's API proxy reads without a page (openapi.yaml: getFullApiProxy, findEnvironmentVariables…,
// getSpecAPIOfSpecGet, updateSpecAPIOfSpecPut), legacy envelope (spec §7.1); the spec reads and writes answer the
// bare SpecApi as the document defines it.

const BASE = '/apiops/projects/:projectName/apiProxies/:apiProxyName'
const VIEW = { category: 'API_MANAGEMENT', level: 'VIEW' } as const
const MANAGE = { category: 'API_MANAGEMENT', level: 'MANAGE' } as const
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const READ_400 = 'unknown project, missing API_MANAGEMENT VIEW, API proxy not found'

const policySummary = z.object({ type: z.string(), name: z.string(), description: z.string().nullable(), active: z.boolean() })
const fullProxySchema = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    type: z.string(),
    soapToRest: z.boolean(),
    endpointList: z.array(z.record(z.string(), z.unknown())),
    requestPolicyList: z.array(policySummary).optional(),
    responsePolicyList: z.array(policySummary).optional(),
    errorPolicyList: z.array(policySummary).optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'ApiProxyFull', description: 'An API proxy with every settings section, its endpoints and (withPolicies) its policy lists' })
const specApiSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    apiProxyId: z.string(),
    apiProxyRevision: z.number().int(),
    specCreationType: z.string().nullable(),
    importedContentOfBackendApi: z.string().nullable().describe('null for a reverse proxy or a proxy built before the document was kept'),
    soapSchemaList: z.array(z.object({ schemaNo: z.number().int(), schemaBody: z.string(), originalLocation: z.string().nullable(), schemaNamespace: z.string().nullable() })),
  })
  .meta({ id: 'SpecApiView', description: "An API proxy's specification (vendor SpecApi); ids carry names" })

export const proxyReadRoutes: RouteDef[] = defineRoutes([
  {
    method: 'get', path: `${BASE}/full`, style: 'legacy', auth: 'token', tag: 'apiProxies', access: VIEW,
    summary: 'The full API proxy: every field of GET …/{apiProxyName}/, type, endpointList and, with withPolicies=true, the proxy-level and per-endpoint policy lists (API_MANAGEMENT VIEW)',
    query: fullQuery,
    response: legacyListBody(fullProxySchema),
    responses: { 200: 'status SUCCESS, resultList with the proxy, resultCount 1', 400: `${READ_400}, withPolicies not true or false`, ...COMMON },
    async handle(ctx, input) {
      return { body: legacyList([await fullProxy(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.query)]) }
    },
  },
  {
    method: 'get', path: `${BASE}/environment-variables/`, style: 'legacy', auth: 'token', tag: 'apiProxies', access: VIEW,
    summary: "The project's environment variables the proxy names as ${NAME} in its settings, policies or endpoints (API_MANAGEMENT VIEW; reading variables needs PROJECT_MANAGEMENT VIEW; secret values null)",
    response: legacyListBody(environmentVariableSchema),
    responses: { 200: 'status SUCCESS, resultList[] of variables, resultCount', 400: `${READ_400}, missing PROJECT_MANAGEMENT VIEW`, ...COMMON },
    async handle(ctx, input) {
      const variables = await proxyEnvironmentVariables(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!)
      // the environment variable pages' object, without our revision/updatedAt bookkeeping (envvars/rest.ts)
      return { body: legacyList(variables.map(({ revision: _r, updatedAt: _u, ...fields }) => fields)) }
    },
  },
  {
    method: 'get', path: `${BASE}/spec/`, style: 'legacy', auth: 'token', tag: 'apiProxies', access: VIEW,
    summary: 'The specification the proxy was built from (SpecApi: specCreationType, importedContentOfBackendApi, apiProxyRevision) (API_MANAGEMENT VIEW)',
    response: plainBody(specApiSchema),
    responses: { 200: 'the SpecApi (not enveloped, as the vendor document defines it)', 400: READ_400, ...COMMON },
    async handle(ctx, input) {
      return { body: await getProxySpec(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!) }
    },
  },
  {
    method: 'put', path: `${BASE}/spec/`, style: 'legacy', auth: 'token', tag: 'apiProxies', access: MANAGE,
    summary: "Replace the proxy's OpenAPI/Swagger document (importedContentOfBackendApi): its endpoints follow it (those kept keep their policies), the revision moves on (redeployRequired where it runs) (API_MANAGEMENT MANAGE)",
    body: { kind: 'json', required: true, schema: specApiInput },
    audit: { objectType: 'API_PROXY', objectName: (input) => input.params.apiProxyName ?? null },
    response: plainBody(specApiSchema),
    responses: {
      200: 'the SpecApi after the change (not enveloped)',
      400: 'unknown project, missing API_MANAGEMENT MANAGE, API proxy not found, proxy not built from an OpenAPI/Swagger document, body not an object, unknown field, document missing or not OpenAPI/Swagger (named), specCreationType differing, projectId/apiProxyId naming another object, apiProxyRevision not the current one, soapSchemaList not empty',
      ...COMMON,
    },
    async handle(ctx, input) {
      return { body: await replaceProxySpec(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.body) }
    },
  },
])
