import { z } from 'zod'
import { objectName } from '../../../platform/validation/common.js'
import { ENDPOINT_METHODS } from '../endpoints/inputs.js'
import { DEPLOY_FIELDS } from './page-body.js'
import { bool, CACHE_HANDLING_ACTIONS, CACHE_STORAGE_TYPES, enumOf, headerName, int, mediaType, text, variable } from './inputs.js'

// The bodies of the newest vendor pages that change how the gateway answers (api-reference/api-proxies/settings/
// update-idempotency-settings, -spec-access-type, -custom-message, -error-handling, -grpc-settings,
// -maintenance-mode, -trace-settings, -websocket-settings): vendor field names, every one with DEPLOY_FIELDS. The
// pages say "only provided fields are updated": fields are nullish and merged with the stored section (behaviour.ts).

const httpStatus = () => int(100, 599)
const errorStatus = () => int(400, 599)
const uniqueList = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item).max(max, `at most ${max} entries`).refine((l) => new Set(l.map((v) => JSON.stringify(v))).size === l.length, 'lists a value twice')

export const IDEMPOTENCY_KEY_TYPES = ['HEADER', 'CUSTOM'] as const
export const idempotencySection = z.strictObject({
  name: text(200).nullish(),
  description: text(2000).nullish(),
  idempotencyActive: bool().nullish(),
  keyType: enumOf(IDEMPOTENCY_KEY_TYPES).nullish(),
  headerName: headerName.nullish(),
  variableList: z.array(variable).max(20, 'at most 20 entries').nullish(),
  keyRequired: bool().nullish(),
  missingKeyHttpStatus: errorStatus().nullish(),
  applicableHttpMethods: uniqueList(enumOf(ENDPOINT_METHODS), 9).nullish(),
  payloadHashEnabled: bool().nullish(),
  processingTimeoutInSeconds: int(1, 3600).nullish(),
  retentionInDays: int(1, 30).nullish(),
  cacheStorageType: enumOf(CACHE_STORAGE_TYPES).nullish(),
  handlingAction: enumOf(CACHE_HANDLING_ACTIONS).nullish(),
  cacheConnectionTimeoutInSeconds: int(1, 60).nullish(),
  conflictHttpStatus: errorStatus().nullish(),
  mismatchHttpStatus: errorStatus().nullish(),
  replayCompletedResponse: bool().nullish(),
  conflictMessage: text(20_000).nullish(),
  mismatchMessage: text(20_000).nullish(),
  missingKeyMessage: text(20_000).nullish(),
  errorContentType: mediaType.nullish(),
  missingKeyBodyEnabled: bool().nullish(),
  conflictBodyEnabled: bool().nullish(),
  mismatchBodyEnabled: bool().nullish(),
})
export const idempotencyInput = z.strictObject({ idempotencySettings: idempotencySection.nullish(), ...DEPLOY_FIELDS })

export const SPEC_ACCESS_TYPES = ['PUBLIC', 'AUTHENTICATED', 'HIDDEN', 'BACKEND_PROXY'] as const
/** The optional body of PATCH …/settings/spec-access-type/{specAccessType}/ (the type is the path's, the flag a query parameter). */
export const specAccessInput = z.strictObject({ ...DEPLOY_FIELDS })

export const customMessageInput = z.strictObject({
  buildCustomMessage: bool().nullish(),
  customMessageTemplate: text(100_000).nullish(),
  customMessageContentType: mediaType.nullish(),
  customMessageHttpStatusCode: httpStatus().nullish(),
  ...DEPLOY_FIELDS,
})

export const ERROR_HANDLING_TYPES = ['DEFAULT', 'ADVANCED', 'STATUS_CODE_LIST'] as const
export const errorHandlingInput = z.strictObject({
  errorHandlingType: enumOf(ERROR_HANDLING_TYPES).nullish(),
  statusCodeList: uniqueList(httpStatus(), 100).nullish(),
  customizeErrorMessageEnabled: bool().nullish(),
  errorMessageList: z
    .array(
      z.strictObject({
        httpStatusCode: httpStatus(),
        customizedHttpStatusCode: httpStatus().nullish(),
        customizedErrorCode: text(200).nullish(),
        customizedMessage: text(4000).nullish(),
      }),
    )
    .max(100, 'at most 100 entries')
    .refine((l) => new Set(l.map((m) => m.httpStatusCode)).size === l.length, 'lists an httpStatusCode twice')
    .nullish(),
  ...DEPLOY_FIELDS,
})

const MB = 1024 * 1024
export const grpcSection = z.strictObject({
  maxInboundMessageSize: int(1, 1024 * MB).nullish(),
  maxInboundMetadataSize: int(1, 16 * MB).nullish(),
  keepAliveTime: int(1, 86_400).nullish(),
  keepAliveTimeout: int(1, 3600).nullish(),
  keepAliveWithoutCalls: bool().nullish(),
  channelIdleTimeout: int(1, 86_400).nullish(),
  perRpcBufferLimit: int(1, 1024 * MB).nullish(),
  maxRetryAttempts: int(0, 100).nullish(),
  maxHedgedAttempts: int(0, 100).nullish(),
  maxTraceEvents: int(0, 10_000).nullish(),
})
export const grpcInput = z.strictObject({ grpcSettings: grpcSection, ...DEPLOY_FIELDS })

export const maintenanceModeInput = z.strictObject({
  enabled: bool().nullish(),
  httpStatusCode: httpStatus().nullish(),
  contentType: mediaType.nullish(),
  message: text(100_000).nullish(),
  ...DEPLOY_FIELDS,
})

/** ISO 8601 with a time zone (the page: `2025-01-01T00:00:00Z`). */
const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with a time zone, such as 2025-01-01T00:00:00Z' })
export const traceInput = z.strictObject({
  enableTraceLog: bool().nullish(),
  startTime: instant.nullish(),
  stopTime: instant.nullish(),
  environmentName: objectName.nullish(),
  ...DEPLOY_FIELDS,
})

export const websocketSection = z.strictObject({
  connectionLostTimeout: int(1, 86_400).nullish(),
  reuseAddr: bool().nullish(),
  connectTimeout: int(1, 3600).nullish(),
  maxRetries: int(0, 100).nullish(),
  retryDelay: int(0, 3_600_000).nullish(),
  autoReconnect: bool().nullish(),
  autoReconnectMaxRetries: int(0, 1000).nullish(),
  autoReconnectRetryDelay: int(0, 3_600_000).nullish(),
})
export const websocketInput = z.strictObject({ websocketSettings: websocketSection, ...DEPLOY_FIELDS })
