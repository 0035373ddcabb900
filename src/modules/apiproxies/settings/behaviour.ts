import { projectEnvironments } from '../../../platform/deploy/project.js'
import { notFound } from '../../../platform/errors/domain-error.js'
import { maintenanceOf } from '../proxies/automation/inputs.js'
import {
  customMessageInput, errorHandlingInput, grpcInput, idempotencyInput, maintenanceModeInput, SPEC_ACCESS_TYPES, specAccessInput, traceInput, websocketInput,
} from './behaviour-inputs.js'
import { defined, page, problem, section, type Json, type Page } from './page.js'
import type { z } from 'zod'

// The settings pages of the newest vendor document that change how the gateway answers (behaviour-inputs.ts has
// their bodies): each merges the fields given into its section of the proxy's settings (the pages: "only provided
// fields are updated"), over the defaults the pages list. settings.ts runs them like the other pages (revision,
// deploy). Which proxies a page applies to is the page's: idempotency, spec access, maintenance mode and trace all
// kinds; custom message and error handling not AI, MCP or A2A; gRPC and WebSocket only their kind.

const IDEMPOTENCY_DEFAULTS = {
  name: null, description: null, idempotencyActive: false, keyType: 'HEADER', headerName: 'Idempotency-Key', variableList: [], keyRequired: false,
  missingKeyHttpStatus: 400, applicableHttpMethods: ['POST', 'PUT', 'PATCH', 'DELETE'], payloadHashEnabled: true, processingTimeoutInSeconds: 60,
  retentionInDays: 7, cacheStorageType: 'DISTRIBUTED', handlingAction: null, cacheConnectionTimeoutInSeconds: 3, conflictHttpStatus: 409,
  mismatchHttpStatus: 422, replayCompletedResponse: true,
  conflictMessage: '{"error":"idempotency_conflict","message":"A request with this Idempotency-Key is already being processed."}',
  mismatchMessage: '{"error":"idempotency_payload_mismatch","message":"This Idempotency-Key was already used with a different request payload."}',
  missingKeyMessage: '{"error":"idempotency_key_required","message":"The Idempotency-Key header is required."}',
  errorContentType: 'application/json', missingKeyBodyEnabled: true, conflictBodyEnabled: true, mismatchBodyEnabled: true,
}
const CUSTOM_MESSAGE_DEFAULTS = { buildCustomMessage: false, customMessageTemplate: null, customMessageContentType: 'application/json', customMessageHttpStatusCode: 200 }
const ERROR_HANDLING_DEFAULTS = { errorHandlingType: 'DEFAULT', statusCodeList: [], customizeErrorMessageEnabled: false, errorMessageList: [] }
const TRACE_DEFAULTS = { enableTraceLog: false, startTime: null, stopTime: null, environmentName: null }

/** The stored section with the fields given laid over it (absent and null fields keep the stored value). */
const merged = (defaults: Json, stored: Json, given: Json | null | undefined): Json => ({ ...defaults, ...stored, ...defined(given ?? {}) })

export const BEHAVIOUR_PAGES: Record<string, Page<z.ZodType>> = {
  idempotency: page({
    schema: idempotencyInput,
    kinds: 'ALL',
    apply({ settings }, input) {
      const idempotency = merged(IDEMPOTENCY_DEFAULTS, section(settings, 'idempotency'), input.idempotencySettings)
      const variables = idempotency.variableList as { name: string }[]
      if (idempotency.keyType === 'CUSTOM' && !variables.length) throw problem('idempotencySettings.variableList', 'needs at least one variable when keyType is CUSTOM')
      const names = variables.map((v) => v.name)
      const twice = names.find((n, i) => names.indexOf(n) !== i)
      if (twice) throw problem('idempotencySettings.variableList', `variable '${twice}' is listed twice`)
      return { settings: { idempotency } }
    },
  }),
  'custom-message': page({
    schema: customMessageInput,
    apply({ settings }, input) {
      const customMessage = merged(CUSTOM_MESSAGE_DEFAULTS, section(settings, 'customMessage'), input)
      if (customMessage.buildCustomMessage && !customMessage.customMessageTemplate) throw problem('customMessageTemplate', 'is required when buildCustomMessage is true')
      return { settings: { customMessage } }
    },
  }),
  'error-handling': page({
    schema: errorHandlingInput,
    apply({ settings }, input) {
      const errorHandling = merged(ERROR_HANDLING_DEFAULTS, section(settings, 'errorHandling'), input)
      if (errorHandling.errorHandlingType === 'STATUS_CODE_LIST' && !(errorHandling.statusCodeList as number[]).length) throw problem('statusCodeList', 'needs at least one status code when errorHandlingType is STATUS_CODE_LIST')
      return { settings: { errorHandling } }
    },
  }),
  grpc: page({ schema: grpcInput, kinds: 'GRPC', apply: ({ settings }, input) => ({ settings: { grpc: merged({}, section(settings, 'grpc'), input.grpcSettings) } }) }),
  'maintenance-mode': page({
    schema: maintenanceModeInput,
    kinds: 'ALL',
    apply: ({ settings }, input) => ({ settings: { maintenanceMode: maintenanceOf(input, settings.maintenanceMode) } }),
  }),
  trace: page({
    schema: traceInput,
    kinds: 'ALL',
    async apply({ db, access, settings }, input) {
      if (input.environmentName != null && !(await projectEnvironments(db, access.project.id)).some((e) => e.name === input.environmentName)) {
        throw notFound(`environmentName: environment '${input.environmentName}' not found in project '${access.project.name}'`, { field: 'environmentName', environment: input.environmentName })
      }
      const trace = merged(TRACE_DEFAULTS, section(settings, 'trace'), input)
      if (trace.startTime && trace.stopTime && Date.parse(trace.stopTime as string) <= Date.parse(trace.startTime as string)) throw problem('stopTime', 'must be after startTime')
      return { settings: { trace } }
    },
  }),
  websocket: page({ schema: websocketInput, kinds: 'WEBSOCKET', apply: ({ settings }, input) => ({ settings: { websocket: merged({}, section(settings, 'websocket'), input.websocketSettings) } }) }),
}

/** PATCH …/settings/spec-access-type/{specAccessType}/?checkApiProxyPermission=: the type and flag come from the path and query. */
export const SPEC_ACCESS_PAGE = page({
  schema: specAccessInput,
  kinds: 'ALL',
  apply({ params }) {
    const type = params.specAccessType ?? ''
    if (!(SPEC_ACCESS_TYPES as readonly string[]).includes(type)) throw problem('specAccessType', `'${type.slice(0, 50)}' is not one of ${SPEC_ACCESS_TYPES.join(', ')}`)
    const flag = params.checkApiProxyPermission
    if (flag !== undefined && flag !== 'true' && flag !== 'false') throw problem('checkApiProxyPermission', 'must be true or false')
    // hideSpecFile (the older page) is the HIDDEN type; both reads stay consistent
    return { settings: { specAccess: { specAccessType: type, checkApiProxyPermission: flag === 'true' }, hideSpecFile: type === 'HIDDEN' } }
  },
})

/** The behaviour sections as the proxy reads show them (settingsViewOf). */
export function behaviourViewOf(s: Json) {
  const specAccess = s.specAccess as { specAccessType: string; checkApiProxyPermission: boolean } | undefined
  return {
    idempotencySettings: s.idempotency ?? null,
    specAccessType: specAccess?.specAccessType ?? (s.hideSpecFile ? 'HIDDEN' : 'PUBLIC'),
    checkApiProxyPermission: specAccess?.checkApiProxyPermission ?? false,
    customMessageSettings: s.customMessage ?? null,
    errorHandlingSettings: s.errorHandling ?? null,
    grpcSettings: s.grpc ?? null,
    traceSettings: s.trace ?? null,
    websocketSettings: s.websocket ?? null,
  }
}
