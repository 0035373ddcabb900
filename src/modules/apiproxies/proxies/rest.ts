import { legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import { fileBody, legacyBody, legacyListBody, proxyDeploymentResult as proxyDeploymentResultSchema, deploymentResult as deploymentResultSchema } from '../../../platform/http/response-schemas.js'
import { z } from 'zod'
import { defineRoutes, requireActor, type MultipartBody, type RouteDef, type RouteInput } from '../../../platform/http/routes.js'
import { vendorEndpointPolicyLists, vendorEndpointSchema } from '../endpoints/view-schemas.js'
import { methodsQuery } from '../methods/service.js'
import { proxyWithMethods } from '../reads/service.js'
import { groupDeploymentResult, proxyDeploymentResult } from '../shared/deployment-shapes.js'
import { MAX_DOCUMENT_TEXT } from '../spec/discovery.js'
import { deployHistoryInput } from '../deployments/record.js'
import { importMetadataInput, proxyMetadataInput } from './automation/inputs.js'
import { exportProxy, importProxy, importProxyOverride, secretHandlingQuery } from './package.js'
import { PACKAGE_LIMITS } from '../../../platform/transfer/package/zip.js'
import { transferAdvisorySchema } from '../../../platform/transfer/view-schemas.js'
import {
  createProxyFromSpec, deleteProxy, deployProxy, listProxies, undeployProxy, updateProxyFromSpec, type ProxyWrite, type SpecSource,
} from './automation/service.js'

// Vendor pages 04-api-proxies/crud and /deployment, legacy envelope (spec §7.1): every client mistake is a 400
// with resultMessage.

const BASE = '/apiops/projects/:projectName/apiProxies'
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const WRITE_400 =
  'unknown project, missing API_MANAGEMENT MANAGE, metadata field invalid (named), a SOAP option on a non-WSDL type, EMPTY_API re-parsed or from a file, specUrl or specFile missing, ' +
  'unreachable, refused (loopback/private address), too large, not an OpenAPI/Swagger document (not a WSDL with operations for WSDL), relative path taken, unknown environment in deployTargetEnvironmentNameList'

/** The `metadata` part of a multipart write: a text field (or a file part) holding JSON. */
export function metadataPart(body: MultipartBody, field = 'metadata'): unknown {
  const text = body.fields[field] ?? body.files[field]?.bytes.toString('utf8')
  if (text === undefined || !text.trim()) throw malformed(`${field}: is required (a JSON form field)`, { field })
  try {
    return JSON.parse(text)
  } catch {
    throw malformed(`${field}: is not valid JSON`, { field })
  }
}

/** The proxy a write names, for the audit trail: the JSON body's or the multipart metadata's apiProxyName. */
function proxyNameOf(input: RouteInput): string | null {
  let metadata: unknown = input.body
  const parts = input.body as Partial<MultipartBody> | undefined
  if (parts?.fields && parts.files) {
    try {
      metadata = metadataPart(parts as MultipartBody)
    } catch {
      return null
    }
  }
  const name = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>).apiProxyName : undefined
  return typeof name === 'string' && name ? name : null
}

/** The multipart parts of the file writes: metadata (JSON, as a form field or a part) and the spec file. */
const proxyFileForm = z.object({
  metadata: proxyMetadataInput.meta({ description: 'the JSON metadata (the JSON write body), as a form field or an application/json part' }),
  specFile: z.string().meta({ contentMediaType: 'application/octet-stream', description: 'the OpenAPI/Swagger document, JSON or YAML (not needed for a reverse proxy)' }).optional(),
})
/** The multipart part of the import: the export ZIP. */
const proxyImportForm = z.object({
  apiProxyExportFile: z.string().meta({ contentMediaType: 'application/zip', description: 'the ZIP an API proxy export wrote' }),
})

/** What an import says about the package's secrets: transfer.secretNotCarried / transfer.secretUnavailable, naming them. */
const importAdvisories = z.array(transferAdvisorySchema)

/** A proxy as the list shows it (listProxies). */
const proxySummary = z
  .object({ name: z.string(), description: z.string().nullable(), type: z.string(), relativePath: z.string().nullable(), soapToRest: z.boolean() })
  .meta({ id: 'ApiProxySummary' })

/** One proxy (proxyDetailOf); clientRoute, routing and maintenanceModeSetting keep the vendor's free-form settings. */
const section = z.record(z.string(), z.unknown()).nullable()

const proxyDetailFields = {
  name: z.string(),
  description: z.string().nullable(),
  apiType: z.string(),
  creationType: z.string().nullable(),
  categoryList: z.array(z.string()),
  sharingType: z.string(),
  relativePath: z.string().nullable(),
  clientRoute: z.record(z.string(), z.unknown()).nullable(),
  routing: z.record(z.string(), z.unknown()).nullable(),
  specUrl: z.string().nullable(),
  backendApiVersion: z.string().nullable(),
  maintenanceModeSetting: z.unknown(),
  requestBodyReadBehavior: z.string().describe('ALWAYS_READ, READ_IF_POLICY_EXISTS or NEVER_READ'),
  responseBodyReadBehavior: z.string().describe('ALWAYS_READ, READ_IF_POLICY_EXISTS or NEVER_READ'),
  soapSettings: z.object({ soapToRest: z.boolean(), enableWSA: z.boolean(), enableWSRM: z.boolean() }).nullable().describe('a WSDL proxy\'s SOAP options; null for the other types'),
  // the settings pages' sections (settings/settings.ts settingsViewOf): secrets only as …Set flags
  apiKeys: z.object({ publicKey: z.string().nullable(), secretKeySet: z.boolean() }),
  cacheSettings: section,
  circuitBreakerSettings: section,
  connectionSettings: section,
  corsSettings: section,
  forwardedIpHeaderParameter: section,
  forwardedIpHeaderParam: section.describe('the same section under the newest page\'s name'),
  hideSpecFile: z.boolean(),
  jsonErrorResponseTemplate: z.unknown(),
  xmlErrorResponseTemplate: z.unknown(),
  mtlsSettings: section,
  ntlmSettings: z.object({ passwordSet: z.boolean() }).catchall(z.unknown()).nullable(),
  proxyServerSettings: z.object({ proxyPasswordSet: z.boolean() }).catchall(z.unknown()).nullable(),
  trafficLogSettings: z.unknown(),
  // the newest settings pages (settings/behaviour.ts behaviourViewOf)
  idempotencySettings: section,
  specAccessType: z.string(),
  checkApiProxyPermission: z.boolean(),
  customMessageSettings: section,
  errorHandlingSettings: section,
  grpcSettings: section,
  traceSettings: section,
  websocketSettings: section,
  endpointCount: z.number().int(),
  revision: z.number().int(),
  deploymentList: z.array(z.object({ environmentName: z.string(), deployed: z.boolean(), redeployRequired: z.boolean(), deployedAt: z.string().nullable() })),
}

const proxyWithMethodsFields = {
  ...proxyDetailFields,
  endpointList: z.array(vendorEndpointSchema.extend(z.object(vendorEndpointPolicyLists).partial().shape)),
}

const writtenBody = legacyBody({ success: z.literal(true), deploymentResult: proxyDeploymentResultSchema.optional() })

const written = ({ deploymentResult }: ProxyWrite) => ({
  body: legacySuccess({ success: true, ...(deploymentResult ? { deploymentResult: proxyDeploymentResult(deploymentResult) } : {}) }),
})

const fromUrl = (method: 'post' | 'put'): RouteDef => ({
  method,
  path: `${BASE}/url/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary:
    method === 'post'
      ? 'Create a REST API proxy from an OpenAPI/Swagger document at specUrl (fetched by the service) or as a reverse proxy; deploy when deploy is true (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)'
      : 'Re-parse an existing API proxy from specUrl (same creation type); deploy when deploy is true (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
  body: { kind: 'json', required: true, schema: proxyMetadataInput },
  audit: { objectType: 'API_PROXY', objectName: proxyNameOf },
  response: writtenBody,
  responses: { 200: 'status SUCCESS, success true, deploymentResult (success, message, deploymentResults[]) when deploy is true', 400: `${WRITE_400}${method === 'put' ? ', proxy not found, creation type differs' : ', proxy already exists'}`, ...COMMON },
  async handle(ctx, input) {
    const write = method === 'post' ? createProxyFromSpec : updateProxyFromSpec
    return written(await write(ctx.deps, requireActor(ctx), input.params.projectName!, input.body, { from: 'url' }))
  },
})

const fromFile = (method: 'post' | 'put'): RouteDef => ({
  method,
  path: `${BASE}/file/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary:
    method === 'post'
      ? 'Create a REST API proxy from an uploaded OpenAPI/Swagger file (part specFile; JSON or YAML) or as a reverse proxy; part metadata is the JSON metadata (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)'
      : 'Re-parse an existing API proxy from an uploaded file (parts metadata and specFile) (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)',
  body: { kind: 'multipart', required: true, schema: proxyFileForm, files: ['specFile'], maxFileBytes: MAX_DOCUMENT_TEXT },
  access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
  audit: { objectType: 'API_PROXY', objectName: proxyNameOf },
  response: writtenBody,
  responses: { 200: 'status SUCCESS, success true, deploymentResult when deploy is true', 400: `${WRITE_400}, metadata part missing or not JSON${method === 'put' ? ', proxy not found, creation type differs' : ', proxy already exists'}`, ...COMMON },
  async handle(ctx, input) {
    const body = input.body as MultipartBody
    const source: SpecSource = { from: 'file', bytes: body.files.specFile?.bytes ?? null }
    const write = method === 'post' ? createProxyFromSpec : updateProxyFromSpec
    return written(await write(ctx.deps, requireActor(ctx), input.params.projectName!, metadataPart(body), source))
  },
})

const environmentPush = (method: 'post' | 'delete'): RouteDef => ({
  method,
  path: `${BASE}/:apiProxyName/environments/:environmentName/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary: method === 'post' ? 'Deploy (or redeploy) an API proxy to one environment; the optional body (description, persistent) annotates the deploy history record (API_MANAGEMENT DEPLOY_UNDEPLOY)' : 'Undeploy an API proxy from one environment; the optional body (description, persistent) annotates the undeploy history record (API_MANAGEMENT DEPLOY_UNDEPLOY)',
  body: { kind: 'json' as const, required: false, schema: deployHistoryInput },
  // the object is the proxy, not the environment (the last path parameter)
  audit: { objectType: 'API_PROXY', objectName: (input) => input.params.apiProxyName ?? null },
  response: legacyBody({ success: z.literal(true), deploymentResult: proxyDeploymentResultSchema }),
  responses: {
    200: 'status SUCCESS, success true, deploymentResult (success, message, deploymentResults[environmentName, success, message])',
    400: `unknown project, missing API_MANAGEMENT DEPLOY_UNDEPLOY, proxy not found, environment not found in the project${method === 'delete' ? ', proxy not deployed to the environment' : ''}`,
    ...COMMON,
  },
  async handle(ctx, input) {
    const p = input.params
    const outcome = method === 'post'
      ? await deployProxy(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, p.environmentName!, input.body)
      : await undeployProxy(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, p.environmentName!, input.body)
    return { body: legacySuccess({ success: true, deploymentResult: proxyDeploymentResult(outcome) }) }
  },
})

export const automationProxyRoutes = defineRoutes([
  {
    method: 'get',
    path: `${BASE}/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxies',
    summary: 'List the API proxies of a project by name: name, description, type, relativePath, soapToRest (API_MANAGEMENT VIEW)',
    responses: { 200: 'status SUCCESS, resultList, resultCount', 400: 'unknown project or missing API_MANAGEMENT VIEW', ...COMMON },
    response: legacyListBody(proxySummary),
    async handle(ctx, input) {
      return { body: legacyList(await listProxies(ctx.deps.prisma, requireActor(ctx), input.params.projectName!)) }
    },
  },
  fromUrl('post'),
  fromUrl('put'),
  fromFile('post'),
  fromFile('put'),
  {
    method: 'get',
    path: `${BASE}/:apiProxyName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxies',
    summary: 'Read one API proxy: apiType, clientRoute, routing, endpointList (with withPolicies=true each method\'s request, response and error policy lists), deploymentList (deployed, redeployRequired per environment) (API_MANAGEMENT VIEW)',
    query: methodsQuery,
    response: legacyBody({ ...proxyWithMethodsFields, success: z.literal(true), resultList: z.array(z.object(proxyWithMethodsFields)).length(1), resultCount: z.literal(1) }),
    responses: { 200: 'status SUCCESS, the proxy fields (name, description, apiType, categoryList, sharingType, clientRoute, routing, endpointList, deploymentList), and the same object as resultList[0] (the newest page\'s shape) with success and resultCount', 400: 'unknown project, missing API_MANAGEMENT VIEW, proxy not found, withPolicies not true or false', ...COMMON },
    async handle(ctx, input) {
      return { body: legacySuccess(await proxyWithMethods(ctx.deps.prisma, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.query)) }
    },
  },
  {
    method: 'delete',
    path: `${BASE}/:apiProxyName/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxies',
    summary: 'Delete an API proxy (its endpoints and policies with it) and undeploy it from every environment where it runs (API_MANAGEMENT MANAGE)',
    audit: { objectType: 'API_PROXY' },
    response: legacyBody({ success: z.literal(true), deploymentResult: proxyDeploymentResultSchema }),
    responses: { 200: 'status SUCCESS, success true, deploymentResult (undeployment per environment)', 400: 'unknown project, missing API_MANAGEMENT MANAGE, proxy not found', ...COMMON },
    async handle(ctx, input) {
      const outcome = await deleteProxy(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!)
      return { body: legacySuccess({ success: true, deploymentResult: proxyDeploymentResult(outcome) }) }
    },
  },
  environmentPush('post'),
  environmentPush('delete'),
  {
    method: 'get',
    path: `${BASE}/:apiProxyName/export/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxies',
    summary: 'Export an API proxy (endpoints, policies, settings) as a ZIP in the transfer package format: <name>.json and service-transfer-manifest.json; every secret (settings and policies) travels in the object file\'s secrets per secretHandling (API_MANAGEMENT or PROJECT_MANAGEMENT EXPORT_IMPORT)',
    query: secretHandlingQuery,
    response: fileBody('application/octet-stream'),
    responses: { 200: 'the ZIP (application/octet-stream), Content-Disposition apiProxyExportFile.zip', 400: 'secretHandling not one of CIPHERTEXT_VERBATIM, DECRYPTED_FOR_EXPORT, NONE; unknown project, missing EXPORT_IMPORT, proxy not found, proxy of kind AI, MCP or A2A', ...COMMON },
    async handle(ctx, input) {
      const { bytes, disposition } = await exportProxy(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, input.query)
      return { body: bytes, headers: { 'content-type': 'application/octet-stream', 'content-disposition': disposition } }
    },
  },
  {
    method: 'post',
    path: `${BASE}/import/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxies',
    summary: 'Import an API proxy from an export ZIP (part apiProxyExportFile) as a new proxy; a taken name or relative path gets a numbered suffix (API_MANAGEMENT MANAGE and EXPORT_IMPORT on API_MANAGEMENT or PROJECT_MANAGEMENT)',
    body: { kind: 'multipart', required: true, schema: proxyImportForm, files: ['apiProxyExportFile'], maxFileBytes: PACKAGE_LIMITS.maxPackageBytes },
    audit: { objectType: 'API_PROXY', objectName: (_input, answer) => (answer as { apiProxyName?: string } | undefined)?.apiProxyName ?? null },
    response: legacyBody({ apiProxyName: z.string(), advisories: importAdvisories }),
    responses: { 200: 'status SUCCESS, apiProxyName (the name it got) and advisories (secrets the package names but that were not restored)', 400: 'unknown project, missing permission, file missing, not a .zip, edited or invalid package, invalid endpoint or policy in it (named)', ...COMMON },
    async handle(ctx, input) {
      const body = input.body as MultipartBody
      const { proxy, advisories } = await importProxy(ctx.deps, requireActor(ctx), input.params.projectName!, body.files.apiProxyExportFile)
      return { body: legacySuccess({ apiProxyName: proxy.name, advisories }) }
    },
  },
  {
    method: 'put',
    path: `${BASE}/:apiProxyName/import/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxies',
    summary: 'Import an API proxy from an export ZIP under the path name, replacing that proxy when it exists; part metadata may set deploy, routing, maintenanceMode (API_MANAGEMENT MANAGE and EXPORT_IMPORT; deploying needs DEPLOY_UNDEPLOY)',
    body: { kind: 'multipart', required: true, schema: importMetadataInput, files: ['apiProxyExportFile'], maxFileBytes: PACKAGE_LIMITS.maxPackageBytes },
    audit: { objectType: 'API_PROXY' },
    response: legacyBody({ deploymentResult: deploymentResultSchema.optional(), advisories: importAdvisories }),
    responses: { 200: 'status SUCCESS; advisories (secrets the package names but that were not restored); deploymentResult (success, message, environmentResults[]) when deploy is true', 400: 'unknown project, missing permission, metadata invalid (named), file missing, not a .zip, edited or invalid package, relative path taken, unknown environment', ...COMMON },
    async handle(ctx, input) {
      const body = input.body as MultipartBody
      const hasMetadata = body.fields.metadata !== undefined || body.files.metadata !== undefined
      const metadata = hasMetadata ? metadataPart(body) : {}
      const { deploymentResult, advisories } = await importProxyOverride(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, metadata, body.files.apiProxyExportFile)
      return { body: legacySuccess({ ...(deploymentResult ? { deploymentResult: groupDeploymentResult(deploymentResult) } : {}), advisories }) }
    },
  },
])
