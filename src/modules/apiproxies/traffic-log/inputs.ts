import { z } from 'zod'

// The bodies of the traffic log settings pages (vendor api-reference/api-proxies/traffic-log-settings/*, and the
// settings page update-traffic-log-settings): proxy-level log flags per environment, per-connector settings keyed by
// connection name (or, as before, by connector type), and method-level overrides.

export const LOG_FLAGS = [
  'logParamRequestFromClient', 'logHeaderRequestFromClient', 'logBodyRequestFromClient', 'logParamRequestToTarget', 'logHeaderRequestToTarget',
  'logBodyRequestToTarget', 'logHeaderResponseFromTarget', 'logBodyResponseFromTarget', 'logHeaderResponseToClient', 'logBodyResponseToClient',
] as const
const METADATA_FLAGS = [
  'enableMetadataIdentification', 'enableMetadataApiProxy', 'enableMetadataRequest', 'enableMetrics', 'enableMetadataResponse', 'enableSentAddress',
  'enableBodyFromClientSize', 'enableBodyToTargetSize', 'enableBodyFromTargetSize', 'enableBodyToClientSize',
] as const
const SIZES = ['sizeBodyFromClient', 'sizeBodyToTarget', 'sizeBodyFromTarget', 'sizeBodyToClient'] as const

/** The connector types (the vendor's EnumExecutableType names) and the connection type each logs through. */
export const CONNECTOR_TYPES = {
  ELASTICSEARCH_INDEX: 'elasticsearch', DB_INSERT_UPDATE_DELETE: 'database', SYSLOG_SEND: 'syslog', WEBHOOK_SEND: 'webhook', RABBITMQ_SEND: 'rabbitMq',
  ACTIVEMQ_SEND: 'activeMq', KAFKA_SEND: 'kafka', GRAYLOG_SEND: 'graylog', LOGBACK_APPEND: 'logback',
} as const
export type ConnectorType = keyof typeof CONNECTOR_TYPES
export const isConnectorType = (key: string): key is ConnectorType => Object.hasOwn(CONNECTOR_TYPES, key)

const bool = () => z.boolean({ error: 'must be true or false' }).nullish()
const size = () => z.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').max(100_000_000, 'must be at most 100000000').nullish()

export const privacyDefinitionInput = z
  .strictObject({
    enabled: z.boolean({ error: 'must be true or false' }).default(true),
    operation: z.enum(['MASK', 'DELETE', 'ENCRYPT', 'HASH', 'DETECT'], { error: 'must be MASK, DELETE, ENCRYPT, HASH or DETECT' }),
    patternType: z.enum(['ELEMENT_NAME', 'REGEX', 'BUILTIN'], { error: 'must be ELEMENT_NAME, REGEX or BUILTIN' }).default('ELEMENT_NAME'),
    elementName: z.string().trim().min(1, 'must not be blank').max(500).nullish(),
    regexPattern: z.string().min(1, 'must not be blank').max(2000).nullish(),
    builtInPiiType: z.enum(['TCKN', 'IBAN_TR', 'PHONE_TR', 'EMAIL', 'CREDIT_CARD'], { error: 'must be TCKN, IBAN_TR, PHONE_TR, EMAIL or CREDIT_CARD' }).nullish(),
    maskMode: z.enum(['FIXED', 'KEEP_FIRST', 'KEEP_LAST', 'MASK_FIRST'], { error: 'must be FIXED, KEEP_FIRST, KEEP_LAST or MASK_FIRST' }).default('FIXED'),
    maskPattern: z.string().min(1, 'must not be blank').max(100).default('***'),
    maskVisibleCharCount: z.number().int('must be an integer').min(0, 'must be at least 0').max(1000, 'must be at most 1000').default(4),
  })
  .superRefine((d, ctx) => {
    const needs = { ELEMENT_NAME: 'elementName', REGEX: 'regexPattern', BUILTIN: 'builtInPiiType' } as const
    const field = needs[d.patternType]
    if (d[field] == null) ctx.addIssue({ code: 'custom', path: [field], message: `is required when patternType is ${d.patternType}` })
    if (d.patternType === 'REGEX' && d.regexPattern) {
      try {
        new RegExp(d.regexPattern)
      } catch {
        ctx.addIssue({ code: 'custom', path: ['regexPattern'], message: 'is not a valid regular expression' })
      }
    }
  })

/** A connector's log settings: null fields inherit from the level above. */
export const connectorLogSettingsInput = z.strictObject({
  enabled: bool(),
  ...Object.fromEntries(LOG_FLAGS.map((f) => [f, bool()])),
  ...Object.fromEntries(METADATA_FLAGS.map((f) => [f, bool()])),
  ...Object.fromEntries(SIZES.map((f) => [f, size()])),
  enablePrivacy: bool(),
  privacyDefinitionList: z.array(privacyDefinitionInput).max(100, 'at most 100 rules').nullish(),
} as Record<string, z.ZodType>).meta({ id: 'ConnectorLogSettings', description: 'A connector\'s traffic log settings; null fields inherit from the proxy level' })
export type ConnectorLogSettings = Record<string, unknown>

const connectorMap = z.record(z.string().trim().min(1, 'a connection name must not be blank').max(200), connectorLogSettingsInput)

export const methodOverrideInput = z.strictObject({
  apiMethodId: z.string().trim().min(1, 'must not be blank').max(200).nullish(),
  apiMethodName: z.string().trim().min(1, 'must not be blank').max(2000).nullish(),
  connectorSettingsMap: connectorMap.nullish(),
})

/** PUT …/trafficLogSettings/{environmentName}/: only the fields given change (null keeps the stored value). */
export const trafficLogSettingsInput = z.strictObject({
  ...Object.fromEntries(LOG_FLAGS.map((f) => [f, bool()])),
  connectorSettingsMap: connectorMap.nullish(),
  methodOverrideList: z.array(methodOverrideInput).max(500, 'at most 500 overrides').nullish(),
} as Record<string, z.ZodType>).meta({ id: 'ApiProxyTrafficLogSettingsInput', description: 'An environment\'s traffic log settings of an API proxy (only the fields given change)' })

export const methodOverrideQuery = z.object({ methodName: z.string({ error: 'methodName value can not be empty!' }).min(1, 'methodName value can not be empty!').max(2000).describe('the API method (endpoint path, e.g. /pets)') })
