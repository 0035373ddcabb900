import { z } from 'zod'
import { legacySuccess } from '../../../platform/envelopes/legacy.js'
import { legacyBody } from '../../../platform/http/response-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { SETTING_PAGES, updateHideSpecFile, updateProxySetting } from './settings.js'

// Vendor pages 04-api-proxies/settings/* (17 pages), legacy envelope (spec §7.1): every client mistake is a 400
// with resultMessage naming the field. None of the pages deploys; the proxy reads show redeployRequired.

const BASE = '/apiops/projects/:projectName/apiProxies/:apiProxyName/settings'
const successBody = legacyBody({ success: z.literal(true) })
const COMMON = { 401: 'missing, invalid, expired or revoked token' }
const ERRORS = 'unknown project, missing API_MANAGEMENT MANAGE, proxy not found, proxy of kind AI, MCP or A2A, body not an object, unknown field, field invalid (named)'

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
  addresses: 'Replace the routing addresses (absolute http(s) URLs, weight 1..1000, soapType for SOAP proxies) and optionally their health check',
  'routing-status': 'Enable or disable routing and mirroring (only the fields given)',
  'traffic-log': 'Update traffic log settings: trace/application log flags and per-environment items (environmentName must be an environment of the project, once)',
}

const settingRoute = (name: string): RouteDef => ({
  method: 'patch',
  path: `${BASE}/${name}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxySettings',
  summary: `${SUMMARIES[name]} (API_MANAGEMENT MANAGE)`,
  body: { kind: 'json', required: true, schema: SETTING_PAGES[name]!.schema },
  audit: { objectType: 'API_PROXY' },
  response: successBody,
  responses: { 200: 'status SUCCESS, success true (stored with a new revision of the proxy; not deployed)', 400: ERRORS, ...COMMON },
  async handle(ctx, input) {
    await updateProxySetting(ctx.deps, requireActor(ctx), input.params.projectName!, input.params.apiProxyName!, name, input.body)
    return { body: legacySuccess({ success: true }) }
  },
})

export const proxySettingsRoutes = defineRoutes([
  ...Object.keys(SETTING_PAGES).map(settingRoute),
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
