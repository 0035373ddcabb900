import { z } from 'zod'
import { legacySuccess } from '../../../platform/envelopes/legacy.js'
import { legacyBody, proxyDeploymentResult as proxyDeploymentResultSchema } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { proxyDeploymentResult } from '../shared/deployment-shapes.js'
import { BEHAVIOUR_PAGES, SPEC_ACCESS_PAGE } from './behaviour.js'
import { SPEC_ACCESS_TYPES } from './behaviour-inputs.js'
import { SETTING_PAGES, updateHideSpecFile, updateProxySetting, type SettingWrite } from './service.js'

// Vendor pages api-reference/api-proxies/settings/* (older: 04-api-proxies/settings/*), legacy envelope (spec
// §7.1): every client mistake is a 400 with resultMessage naming the field. With `deploy: true` the answer carries
// the push's deploymentResult (deploymentResults[] as the pages write it); without it the proxy reads show
// redeployRequired where it runs.

const BASE = '/apiops/projects/:projectName/apiProxies/:apiProxyName/settings'
const successBody = legacyBody({ success: z.literal(true) })
const writtenBody = legacyBody({ success: z.literal(true), deploymentResult: proxyDeploymentResultSchema.optional().describe('with deploy: true') })
const written = ({ deploymentResult }: SettingWrite) => ({ body: legacySuccess({ success: true, ...(deploymentResult ? { deploymentResult: proxyDeploymentResult(deploymentResult) } : {}) }) })
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const ERRORS = 'unknown project, missing API_MANAGEMENT MANAGE, proxy not found, proxy of a kind the page does not apply to, body not an object, unknown field, field invalid (named), unknown environment in deployTargetEnvironmentNameList'
const DEPLOYING = 'with deploy: true the proxy is then pushed to deployTargetEnvironmentNameList (or where it is deployed when empty; needs DEPLOY_UNDEPLOY, else saved and reported not deployed)'
const MANAGE = { category: 'API_MANAGEMENT', level: 'MANAGE' } as const

const SUMMARIES: Record<string, string> = {
  keys: 'Set the API key (publicKey) and/or the secret key (sealed, never shown; GET says secretKeySet); at least one, neither blank',
  cache: 'Replace the proxy-level cache settings: name and handlingAction required; cacheKeyType CUSTOM needs variableList',
  'circuit-breaker': 'Update circuit breaker settings (only the fields given): errorWindow and sleepWindow 1..3600 s, PERCENT thresholds 1..100',
  'client-route': 'Update the client route: relativePathList (each ≥ 2 characters, first path unique in the project), methodList, hostList, headerList, buffering; at least one list',
  connection: 'Update connection settings (only the fields given): timeouts 1..3600 s, retries 0..100, pool GENERAL, CUSTOM (needs customConnectionPoolSize) or NONE',
  cors: 'Replace CORS settings: name required; origins are * or scheme://host[:port]; * is refused with allowCredentials "true"',
  'forwarded-ip-header': 'Update the forwarded IP header: an HTTP header name and xffOrder FIRST..FIFTH or LAST',
  'json-error-template': 'Update the JSON error response template: JSON once #CORRELATIONID#, #FAULTCODE#, #FAULTMESSAGE#, #FAULTSTATUSCODE#, #RESPONSEFROMAPI# are filled in',
  'xml-error-template': 'Update the XML error response template: well-formed XML once its #VARIABLES# are filled in',
  metadata: 'Update name (unique in the project; refused while deployed), description, categoryList and sharingType (BOTH, NONE, EXTERNAL, INTERNAL)',
  mtls: 'Update mTLS: keyStoreId names a keystore and trustStoreId a keystore or certificate of the project (a missing one is a 400 naming it); enabled needs keyStoreId',
  ntlm: 'Update NTLM: enabled needs domain, username and password (sealed, never shown)',
  'proxy-server': 'Update the outbound proxy server: host and port unless proxyFromHeaderEnabled; proxyAuthorizationNeeded needs username and password (sealed)',
  addresses: 'Replace the routing addresses (absolute http(s) URLs, weight 1..1000, soapType for SOAP proxies: accepted and ignored on others) and optionally their health check',
  'routing-status': 'Enable or disable routing and mirroring (only the fields given)',
  'traffic-log': 'Update traffic log settings: trace/application log flags and per-environment items (environmentName must be an environment of the project, once)',
  idempotency: 'Update the Idempotency-Key handling (idempotencySettings, only the fields given; any proxy kind): keyType HEADER or CUSTOM (needs variableList), statuses 400..599, retentionInDays 1..30',
  'custom-message': 'Update the custom message the gateway answers instead of routing (only the fields given): buildCustomMessage needs customMessageTemplate; status 100..599',
  'error-handling': 'Update error handling (only the fields given): errorHandlingType DEFAULT, ADVANCED or STATUS_CODE_LIST (needs statusCodeList), errorMessageList once per httpStatusCode',
  grpc: 'Update the gRPC channel settings of a GRPC proxy (grpcSettings, only the fields given): message and metadata sizes, keep-alive, retries and hedging',
  'maintenance-mode': 'Update maintenance mode (only the fields given; any proxy kind): enabled, httpStatusCode 100..599, contentType, message',
  trace: 'Update trace logging (only the fields given; any proxy kind): enableTraceLog, startTime before stopTime (ISO 8601 with zone), environmentName of the project',
  websocket: 'Update the WebSocket connection settings of a WEBSOCKET proxy (websocketSettings, only the fields given): timeouts, retries, auto-reconnect',
}

const PAGES = { ...SETTING_PAGES, ...BEHAVIOUR_PAGES }

const settingRoute = (name: string): RouteDef => ({
  method: 'patch',
  path: `${BASE}/${name}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxySettings',
  summary: `${SUMMARIES[name]}; deploy and deployTargetEnvironmentNameList accepted (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)`,
  access: MANAGE,
  body: { kind: 'json', required: true, schema: PAGES[name]!.schema },
  audit: { objectType: 'API_PROXY' },
  response: writtenBody,
  responses: { 200: `status SUCCESS, success true (stored with a new revision of the proxy); ${DEPLOYING}`, 400: ERRORS, ...COMMON },
  async handle(ctx, input) {
    return written(await updateProxySetting(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, name, input.body))
  },
})

export const proxySettingsRoutes = defineRoutes([
  ...Object.keys(PAGES).map(settingRoute),
  {
    method: 'patch',
    path: `${BASE}/spec-access-type/:specAccessType/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxySettings',
    summary: `Set who may fetch the proxy's API spec: specAccessType ${SPEC_ACCESS_TYPES.join(', ')} (HIDDEN is hideSpecFile true), checkApiProxyPermission for AUTHENTICATED; any proxy kind; the optional body deploys (API_MANAGEMENT MANAGE; deploying needs DEPLOY_UNDEPLOY)`,
    access: MANAGE,
    query: z.object({ checkApiProxyPermission: z.enum(['true', 'false'], { error: 'must be true or false' }).optional() }),
    body: { kind: 'json', required: false, schema: SPEC_ACCESS_PAGE.schema },
    audit: { objectType: 'API_PROXY', objectName: (input) => input.params.apiProxyName ?? null },
    response: writtenBody,
    responses: { 200: `status SUCCESS, success true; ${DEPLOYING}`, 400: `${ERRORS}, specAccessType not one of ${SPEC_ACCESS_TYPES.join(', ')}, checkApiProxyPermission not true or false`, ...COMMON },
    async handle(ctx, input) {
      const p = input.params
      const flag = input.query.checkApiProxyPermission as string | undefined
      return written(await updateProxySetting(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, 'spec-access-type', input.body ?? {}, { specAccessType: p.specAccessType, checkApiProxyPermission: flag }))
    },
  },
  {
    method: 'patch',
    path: `${BASE}/hide-spec-file/:hideSpecFile/`,
    style: 'legacy',
    auth: 'token',
    tag: 'apiProxySettings',
    summary: 'Hide (true) or show (false) the API specification file of the proxy (API_MANAGEMENT MANAGE)',
    access: { category: 'API_MANAGEMENT', level: 'MANAGE' },
    audit: { objectType: 'API_PROXY', objectName: (input) => input.params.apiProxyName ?? null },
    response: successBody,
    responses: { 200: 'status SUCCESS, success true', 400: `${ERRORS}, hideSpecFile not true or false`, ...COMMON },
    async handle(ctx, input) {
      const p = input.params
      await updateHideSpecFile(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, p.hideSpecFile!)
      return { body: legacySuccess({ success: true }) }
    },
  },
])
