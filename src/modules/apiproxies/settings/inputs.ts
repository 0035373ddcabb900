import { z } from 'zod'
import { objectName } from '../../../platform/validation/common.js'
import { ENDPOINT_METHODS } from '../endpoints/inputs.js'
import { relativePath } from '../proxies/automation/inputs.js'
import { CREDENTIALS_IN_URL, hasNoCredentials } from '../shared/clear-secrets.js'
import { checkJsonTemplate, checkXmlTemplate } from './templates.js'
import { enumOf } from '../../../platform/validation/common.js'

// The bodies of the vendor pages 04-api-proxies/settings/* and endpoints/update-endpoint-cache|wsa: one schema
// per page, vendor field names. Pages whose fields are "all optional, only provided fields are updated" parse as
// partials (merged with the stored section in settings.ts); pages with a required field (cache, CORS) replace the
// section. Rules across fields that need the merged result are in settings.ts.

export { enumOf } from '../../../platform/validation/common.js'
export const int = (min: number, max: number) => z.number({ error: 'must be an integer' }).int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`)
export const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
const nonBlank = (max: number) => text(max).refine((s) => s.trim().length > 0, 'must not be blank')
const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max, `at most ${max} entries`)
export const bool = () => z.boolean({ error: 'must be true or false' })

export const headerName = z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters').regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name')
export const hostName = z.string().trim().min(1, 'must not be blank').max(253, 'must be at most 253 characters').regex(/^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/, 'must be a host name')
export const mediaType = z.string().trim().max(200, 'must be at most 200 characters').regex(/^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+*-]+(\s*;.*)?$/, 'must be a media type such as application/json')
const uri = text(2000).refine((u) => URL.canParse(u), 'must be an absolute URI')

// ----- cache (proxy and endpoint) -------------------------------------------------------------------------

export const CACHE_KEY_TYPES = ['QUERY_PARAMS', 'CUSTOM'] as const
export const CACHE_STORAGE_TYPES = ['LOCAL', 'DISTRIBUTED'] as const
export const CACHE_HANDLING_ACTIONS = ['CONTINUE', 'STOP'] as const
export const VARIABLE_TYPES = ['HEADER', 'PARAMETER', 'BODY', 'CONTEXT_VALUES', 'CUSTOM'] as const
export const VARIABLE_DATA_TYPES = ['NUMERIC', 'STRING', 'DATE'] as const
export const PARAM_TYPES = ['QUERY', 'PATH', 'FORM'] as const
export const MESSAGE_CONTENT_TYPES = ['XML', 'JSON', 'RAW'] as const

/** A variable of the appendix "variable definition": the fields its type needs; a header or parameter defaults to the variable's name. */
export const variable = z
  .strictObject({
    name: nonBlank(200),
    type: enumOf(VARIABLE_TYPES),
    dataType: enumOf(VARIABLE_DATA_TYPES).default('STRING'),
    description: text(1000).nullish(),
    headerName: headerName.nullish(),
    paramType: enumOf(PARAM_TYPES).nullish(),
    paramName: nonBlank(200).nullish(),
    paramPath: text(1000).nullish(),
    messageContentType: enumOf(MESSAGE_CONTENT_TYPES).nullish(),
    xpathValue: nonBlank(2000).nullish(),
    jsonPathValue: nonBlank(2000).nullish(),
    contextValue: nonBlank(200).nullish(),
    zoneId: nonBlank(100).nullish(),
    scriptLanguage: enumOf(['GROOVY', 'JAVASCRIPT'] as const).nullish(),
    scriptBody: nonBlank(50_000).nullish(),
  })
  .superRefine((v, ctx) => {
    const need = (field: string, when: string) => ctx.addIssue({ code: 'custom', path: [field], message: `is required when ${when}` })
    if (v.type === 'PARAMETER' && v.paramType === 'PATH' && !v.paramPath) need('paramPath', 'paramType is PATH')
    if (v.type === 'BODY') {
      if (!v.messageContentType) need('messageContentType', 'type is BODY')
      if (v.messageContentType === 'XML' && !v.xpathValue) need('xpathValue', 'messageContentType is XML')
      if (v.messageContentType === 'JSON' && !v.jsonPathValue) need('jsonPathValue', 'messageContentType is JSON')
    }
    if (v.type === 'CONTEXT_VALUES' && !v.contextValue) need('contextValue', 'type is CONTEXT_VALUES')
    if (v.type === 'CUSTOM' && !v.scriptLanguage) need('scriptLanguage', 'type is CUSTOM')
    if (v.type === 'CUSTOM' && !v.scriptBody) need('scriptBody', 'type is CUSTOM')
  })
  .transform((v) => ({
    ...v,
    ...(v.type === 'HEADER' ? { headerName: v.headerName ?? v.name } : {}),
    ...(v.type === 'PARAMETER' ? { paramType: v.paramType ?? 'QUERY', paramName: v.paramName ?? v.name } : {}),
  }))

export const cacheInput = z
  .strictObject({
    name: nonBlank(200),
    description: text(2000).nullish(),
    cacheActive: bool().default(false),
    cacheOnlyHttpGetRequests: bool().default(true),
    cacheKeyType: enumOf(CACHE_KEY_TYPES).default('QUERY_PARAMS'),
    cacheStorageType: enumOf(CACHE_STORAGE_TYPES).default('DISTRIBUTED'),
    capacity: int(1, 10_000_000).nullish(),
    ttl: int(1, 31_536_000).nullish(),
    handlingAction: enumOf(CACHE_HANDLING_ACTIONS),
    invalidationRequiresAuthn: bool().default(false),
    cacheNullValue: bool().default(false),
    variableList: list(variable, 20).default([]),
  })
  .superRefine((c, ctx) => {
    if (c.cacheKeyType === 'CUSTOM' && !c.variableList.length) ctx.addIssue({ code: 'custom', path: ['variableList'], message: 'needs at least one variable when cacheKeyType is CUSTOM' })
    if (c.cacheKeyType !== 'CUSTOM' && c.variableList.length) ctx.addIssue({ code: 'custom', path: ['variableList'], message: 'is only used when cacheKeyType is CUSTOM' })
    const names = c.variableList.map((v) => v.name)
    const dup = names.find((n, i) => names.indexOf(n) !== i)
    if (dup) ctx.addIssue({ code: 'custom', path: ['variableList'], message: `variable '${dup}' is listed twice` })
  })

// ----- WS-Addressing (endpoint) ---------------------------------------------------------------------------

export const wsaInput = z.strictObject({
  wsaEnabled: bool().default(false),
  wsaMustUnderstand: enumOf(['NONE', 'TRUE', 'FALSE'] as const).default('NONE'),
  wsaVersion: enumOf(['V200408', 'V200508'] as const).default('V200508'),
  wsaAddDefaultAction: bool().default(false),
  wsaAction: uri.nullish(),
  wsaAddDefaultTo: bool().default(false),
  wsaTo: uri.nullish(),
  wsaReplyTo: uri.nullish(),
  wsaGenerateMessageId: bool().default(false),
  wsaMessageId: uri.nullish(),
  wsaFrom: uri.nullish(),
  wsaFaultTo: uri.nullish(),
  wsaRelatesTo: uri.nullish(),
  wsaRelationShipType: nonBlank(200).nullish(),
}).superRefine((w, ctx) => {
  if (!w.wsaEnabled) return
  const need = (field: string, flag: string) => ctx.addIssue({ code: 'custom', path: [field], message: `is required when wsaEnabled is true and ${flag} is false` })
  if (!w.wsaAddDefaultAction && !w.wsaAction) need('wsaAction', 'wsaAddDefaultAction')
  if (!w.wsaAddDefaultTo && !w.wsaTo) need('wsaTo', 'wsaAddDefaultTo')
  if (!w.wsaGenerateMessageId && !w.wsaMessageId) need('wsaMessageId', 'wsaGenerateMessageId')
  if (w.wsaRelationShipType && !w.wsaRelatesTo) ctx.addIssue({ code: 'custom', path: ['wsaRelatesTo'], message: 'is required when wsaRelationShipType is set' })
})

export const endpointStatusInput = z.strictObject({ active: bool() })

// ----- proxy settings ---------------------------------------------------------------------------------------

export const keysInput = z.strictObject({ publicKey: nonBlank(500).nullish(), secretKey: nonBlank(500).nullish() })

export const ERROR_THRESHOLD_TYPES = ['COUNT', 'PERCENT'] as const
export const circuitBreakerInput = z.strictObject({
  circuitBreakerEnabled: bool().nullish(),
  errorWindow: int(1, 3600).nullish(),
  errorThresholdValue: int(1, 1_000_000).nullish(),
  enumErrorThresholdType: enumOf(ERROR_THRESHOLD_TYPES).nullish(),
  sleepWindow: int(1, 3600).nullish(),
  halfOpenEnabled: bool().nullish(),
})

export const clientRouteSettingInput = z.strictObject({
  relativePathList: list(relativePath, 20).nullish(),
  methodList: list(enumOf(ENDPOINT_METHODS), 9).nullish(),
  hostList: list(hostName, 50).nullish(),
  headerList: list(z.strictObject({ name: headerName, value: text(4000).regex(/^[^\r\n]*$/, 'must not contain line breaks') }), 20).nullish(),
  bufferRequest: bool().nullish(),
  bufferResponse: bool().nullish(),
})

export const POOL_TYPES = ['GENERAL', 'CUSTOM', 'NONE'] as const
export const QUERY_ENCODING_MODES = ['STANDARD', 'RFC3986', 'PASSTHROUGH'] as const
export const connectionInput = z.strictObject({
  connectionSettingsEnabled: bool().nullish(),
  connectTimeout: int(1, 3600).nullish(),
  readTimeout: int(1, 3600).nullish(),
  connectionRequestTimeout: int(1, 3600).nullish(),
  redirectsEnabled: bool().nullish(),
  maxRedirects: int(0, 100).nullish(),
  relativeRedirectsAllowed: bool().nullish(),
  disableContentCompression: bool().nullish(),
  enableStreaming: bool().nullish(),
  retryCount: int(0, 100).nullish(),
  failoverRetryCount: int(0, 100).nullish(),
  ignoreRoutingError: bool().nullish(),
  connectionPoolManagementType: enumOf(POOL_TYPES).nullish(),
  customConnectionPoolSize: int(1, 10_000).nullish(),
  // the newest page's fields (stored with the others, carried to the gateway)
  validateAfterInactivity: int(0, 3_600_000).nullish(),
  idleConnectionTimeout: int(1, 3600).nullish(),
  queryEncodingMode: enumOf(QUERY_ENCODING_MODES).nullish(),
  hopByHopHeaders: list(headerName, 50).nullish(),
  sendUserAgentToBackend: bool().nullish(),
  userAgentValue: text(500).regex(/^[^\r\n]*$/, 'must not contain line breaks').nullish(),
  doNotRouteZeroValueContentLength: bool().nullish(),
  enableDownload: bool().nullish(),
  useByteArrayForCompressedResponse: bool().nullish(),
})

/** An origin for CORS: `*` or scheme://host[:port] without a path. */
const origin = z.string().trim().refine((o) => {
  if (o === '*') return true
  if (!URL.canParse(o)) return false
  const u = new URL(o)
  return /^https?:$/.test(u.protocol) && u.origin === o.replace(/\/$/, '')
}, "must be '*' or an origin such as https://app.example.com (scheme, host and optional port, no path)")

export const corsInput = z
  .strictObject({
    name: nonBlank(200),
    description: text(2000).nullish(),
    corsActive: bool().default(false),
    allowOriginList: list(origin, 100).default([]),
    allowMethodList: list(enumOf(ENDPOINT_METHODS), 9).default([]),
    allowHeaderList: list(z.union([z.literal('*'), headerName]), 100).default([]),
    exposeHeaderList: list(headerName, 100).default([]),
    allowCredentials: z.enum(['true', 'false'], { error: 'must be the string "true" or "false"' }).default('false'),
    maxAge: int(0, 86_400).default(3600),
  })
  .superRefine((c, ctx) => {
    if (c.allowCredentials === 'true' && c.allowOriginList.includes('*')) ctx.addIssue({ code: 'custom', path: ['allowOriginList'], message: "'*' can not be used with allowCredentials \"true\"; list the exact origins" })
    for (const key of ['allowOriginList', 'allowMethodList', 'allowHeaderList', 'exposeHeaderList'] as const) {
      const seen = (c[key] as string[]).map((v) => v.toLowerCase())
      const dup = seen.find((v, i) => seen.indexOf(v) !== i)
      if (dup) ctx.addIssue({ code: 'custom', path: [key], message: `'${dup}' is listed twice` })
    }
  })

export const XFF_ORDERS = ['FIRST', 'SECOND', 'THIRD', 'FOURTH', 'FIFTH', 'LAST'] as const
export const forwardedIpHeaderInput = z.strictObject({
  forwardedIpHeaderParamActive: bool().nullish(),
  value: headerName.nullish(),
  xffOrder: enumOf(XFF_ORDERS).nullish(),
})

export const JSON_ERROR_TEMPLATE = '{\n  "fault": {\n    "correlationId": "#CORRELATIONID#",\n    "faultCode": "#FAULTCODE#",\n    "faultString": "#FAULTMESSAGE#",\n    "faultStatusCode": "#FAULTSTATUSCODE#",\n    "responseFromApi": "#RESPONSEFROMAPI#"\n  }\n}'
export const XML_ERROR_TEMPLATE =
  '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">\n   <soap:Body>\n      <soap:Fault>\n        <correlationId>#CORRELATIONID#</correlationId>\n        <faultCode>#FAULTCODE#</faultCode>\n        <faultString>#FAULTMESSAGE#</faultString>\n        <faultStatusCode>#FAULTSTATUSCODE#</faultStatusCode>\n        <responseFromApi>#RESPONSEFROMAPI#</responseFromApi>\n      </soap:Fault>\n   </soap:Body>\n</soap:Envelope>'

const templateText = (check: (t: string) => string | null) =>
  text(20_000).superRefine((t, ctx) => {
    const problem = check(t)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

export const jsonErrorTemplateInput = z.strictObject({
  jsonErrorResponseTemplateActive: bool().nullish(),
  jsonValue: templateText(checkJsonTemplate).nullish(),
  contentType: mediaType.nullish(),
  permitSpecialChars: bool().nullish(),
})
export const xmlErrorTemplateInput = z.strictObject({
  xmlErrorResponseTemplateActive: bool().nullish(),
  xmlValue: templateText(checkXmlTemplate).nullish(),
  contentType: mediaType.nullish(),
  permitSpecialChars: bool().nullish(),
})

export const SHARING_TYPES = ['BOTH', 'NONE', 'EXTERNAL', 'INTERNAL'] as const
export const BODY_READ_BEHAVIORS = ['ALWAYS_READ', 'READ_IF_POLICY_EXISTS', 'NEVER_READ'] as const
export const metadataInput = z.strictObject({
  name: objectName.nullish(),
  description: text(2000).nullish(),
  categoryList: list(nonBlank(100), 50).nullish(),
  sharingType: enumOf(SHARING_TYPES).nullish(),
  requestBodyReadBehavior: enumOf(BODY_READ_BEHAVIORS).nullish(),
  responseBodyReadBehavior: enumOf(BODY_READ_BEHAVIORS).nullish(),
})

export const TLS_PROTOCOLS = ['TLS_1_3', 'TLS_1_2', 'TLS_1_1', 'TLS_1_0', 'SSL_3_0'] as const
export const HOSTNAME_VERIFIERS = ['NOOP', 'DEFAULT', 'STRICT', 'BROWSER_COMPAT'] as const
/** keyStoreId / trustStoreId (vendor names) hold the name of a keystore or certificate of the keys module; the *Name spellings are accepted too. */
export const mtlsInput = z.strictObject({
  enabled: bool().nullish(),
  keyStoreId: objectName.nullish(),
  keyStoreName: objectName.nullish(),
  trustStoreId: objectName.nullish(),
  trustStoreName: objectName.nullish(),
  supportedProtocolList: list(enumOf(TLS_PROTOCOLS), 5).nullish(),
  hostnameVerifierType: enumOf(HOSTNAME_VERIFIERS).nullish(),
  disableSslValidation: bool().nullish(),
})

export const ntlmInput = z.strictObject({
  enabled: bool().nullish(),
  domain: nonBlank(200).nullish(),
  username: nonBlank(200).nullish(),
  password: nonBlank(1000).nullish(),
  workstation: nonBlank(200).nullish(),
})

export const proxyServerInput = z.strictObject({
  proxyEnabled: bool().nullish(),
  proxyFromHeaderEnabled: bool().nullish(),
  proxyHost: hostName.nullish(),
  proxyPort: int(1, 65_535).nullish(),
  proxyAuthorizationNeeded: bool().nullish(),
  proxyUsername: nonBlank(200).nullish(),
  proxyPassword: nonBlank(1000).nullish(),
})

const backendAddress = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(2000, 'must be at most 2000 characters')
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an absolute http(s) URL')
  .refine(hasNoCredentials, CREDENTIALS_IN_URL)

/** Active health checks of the routing addresses (beyond the page: the gateway probes `path` on each address whose healthCheckEnabled is true). */
export const healthCheckInput = z
  .strictObject({
    enabled: bool().default(true),
    path: z.string().trim().regex(/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/, "must be a path starting with '/'").max(500).default('/'),
    intervalSeconds: int(1, 3600).default(30),
    timeoutSeconds: int(1, 300).default(5),
    healthyThreshold: int(1, 10).default(2),
    unhealthyThreshold: int(1, 10).default(3),
    expectedStatusCodes: list(int(100, 599), 20).min(1, 'needs at least one status').default([200]),
  })
  .refine((h) => h.timeoutSeconds < h.intervalSeconds, { path: ['timeoutSeconds'], message: 'must be shorter than intervalSeconds' })

export const ROUTING_ADDRESS_TYPES = ['PRIMARY', 'CANARY', 'MIRROR', 'FAILOVER_ONLY'] as const
export const routingAddressesInput = z.strictObject({
  routingAddressList: list(
    z.strictObject({
      address: backendAddress,
      weight: int(1, 1000).default(1),
      soapType: enumOf(['SOAP11', 'SOAP12'] as const).nullish(),
      healthCheckEnabled: bool().default(false),
      // the newest page's per-address fields
      description: text(1000).nullish(),
      addressType: enumOf(ROUTING_ADDRESS_TYPES).default('PRIMARY'),
      healthCheckPath: z.string().trim().regex(/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/, "must be a path starting with '/'").max(500).nullish(),
      healthMonitoringEnabled: bool().nullish(),
    }),
    50,
  ),
  healthCheck: healthCheckInput.nullish(),
})

export const routingStatusInput = z.strictObject({ routingEnabled: bool().nullish(), mirrorEnabled: bool().nullish(), echoEnabled: bool().nullish() })

const LOG_FLAGS = [
  'logParamRequestFromClient', 'logHeaderRequestFromClient', 'logBodyRequestFromClient', 'logParamRequestToTarget', 'logHeaderRequestToTarget',
  'logBodyRequestToTarget', 'logHeaderResponseFromTarget', 'logBodyResponseFromTarget', 'logHeaderResponseToClient', 'logBodyResponseToClient',
] as const
const CONNECTOR_FLAGS = [
  'enableDatabaseConnector', 'enableElasticsearchConnector', 'enableSyslogConnector', 'enableWebhookConnector', 'enableRabbitMqConnector',
  'enableActiveMqConnector', 'enableKafkaConnector', 'enableGraylogConnector', 'enableLogbackConnector',
] as const
export const trafficLogInput = z.strictObject({
  enabledTraceLog: bool().nullish(),
  enabledApplicationLog: bool().nullish(),
  apiProxyTrafficLogSettingsList: list(
    z.strictObject({
      environmentName: z.string({ error: 'environmentName value can not be empty in traffic log settings!' }).trim().min(1, 'environmentName value can not be empty in traffic log settings!').pipe(objectName),
      ...Object.fromEntries(LOG_FLAGS.map((f) => [f, bool().default(true)])),
      ...Object.fromEntries(CONNECTOR_FLAGS.map((f) => [f, bool().default(false)])),
    } as Record<string, z.ZodType>),
    100,
  ).nullish(),
})
