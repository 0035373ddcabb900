import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { newestPagesBootstrap, settingsCalls } from './settings-support.js'

// Issue 32 §2: the settings pages served since the newest vendor document (api-reference/api-proxies/settings/
// update-idempotency-settings, -spec-access-type, -custom-message, -error-handling, -grpc-settings,
// -maintenance-mode, -trace-settings, -websocket-settings): each page's examples verbatim, the fields the proxy
// read then shows, the refusals (field named, nothing written or pushed), the kinds a page applies to, deploy, the
// GraphQL twin.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE and DEPLOY_UNDEPLOY
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: newestPagesBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })
const { call, expectRefused, expectStored, detail } = settingsCalls(bed)

const NO_DEPLOY = { deploy: false, deployTargetEnvironmentNameList: [] }

describe('idempotency', () => {
  const idempotencySettings = {
    name: 'Idempotency Settings', description: 'Idempotency-Key configuration', idempotencyActive: true, keyType: 'HEADER', headerName: 'Idempotency-Key', keyRequired: false,
    missingKeyHttpStatus: 400, applicableHttpMethods: ['POST', 'PUT', 'PATCH', 'DELETE'], payloadHashEnabled: true, processingTimeoutInSeconds: 60, retentionInDays: 7,
    cacheStorageType: 'DISTRIBUTED', handlingAction: 'CONTINUE', cacheConnectionTimeoutInSeconds: 3, conflictHttpStatus: 409, mismatchHttpStatus: 422, replayCompletedResponse: true,
    conflictMessage: '{"error":"idempotency_conflict","message":"A request with this Idempotency-Key is already being processed."}',
    mismatchMessage: '{"error":"idempotency_payload_mismatch","message":"This Idempotency-Key was already used with a different request payload."}',
    missingKeyMessage: '{"error":"idempotency_key_required","message":"The Idempotency-Key header is required."}',
    errorContentType: 'application/json', missingKeyBodyEnabled: true, conflictBodyEnabled: true, mismatchBodyEnabled: true, variableList: [],
  }

  it("stores the page's example on any kind of proxy and shows it; only the fields given change", async () => {
    await expectStored('idempotency/', bed.erin, { idempotencySettings, ...NO_DEPLOY })
    expect((await detail(bed.frank)).idempotencySettings).toEqual(idempotencySettings)
    await expectStored('idempotency/', bed.erin, { idempotencySettings: { idempotencyActive: true, keyType: 'HEADER', headerName: 'Idempotency-Key' }, deploy: false })
    expect((await detail(bed.frank)).idempotencySettings).toEqual(idempotencySettings)
    await expectStored('idempotency/', bed.erin, { idempotencySettings: { retentionInDays: 30 } }, 'Llm')
    expect((await detail(bed.frank, 'Llm')).idempotencySettings).toMatchObject({ retentionInDays: 30, keyType: 'HEADER', headerName: 'Idempotency-Key', idempotencyActive: false })
  })

  it('refuses a field out of range, a CUSTOM key without variables and an unknown field', async () => {
    await expectRefused('idempotency/', bed.erin, { idempotencySettings: { retentionInDays: 31 } }, /^idempotencySettings\.retentionInDays: must be at most 30/)
    await expectRefused('idempotency/', bed.erin, { idempotencySettings: { keyType: 'CUSTOM' } }, /^idempotencySettings\.variableList: needs at least one variable when keyType is CUSTOM/)
    await expectRefused('idempotency/', bed.erin, { idempotencySettings: { conflictHttpStatus: 200 } }, /^idempotencySettings\.conflictHttpStatus: must be at least 400/)
    await expectRefused('idempotency/', bed.erin, { idempotency: {} }, /^idempotency: unknown field/)
  })
})

describe('spec access type', () => {
  it('sets the type from the path and the flag from the query; HIDDEN is hideSpecFile', async () => {
    const res = await call('PATCH', 'MyAPI/settings/spec-access-type/AUTHENTICATED/?checkApiProxyPermission=true', bed.erin, {})
    expect(res.body).toEqual({ status: 'SUCCESS', success: true })
    expect(await detail(bed.frank)).toMatchObject({ specAccessType: 'AUTHENTICATED', checkApiProxyPermission: true, hideSpecFile: false })
    await expectStored('spec-access-type/HIDDEN/', bed.erin, undefined)
    expect(await detail(bed.frank)).toMatchObject({ specAccessType: 'HIDDEN', checkApiProxyPermission: false, hideSpecFile: true })
    await call('PATCH', 'MyAPI/settings/hide-spec-file/false/', bed.erin)
    expect(await detail(bed.frank)).toMatchObject({ specAccessType: 'PUBLIC', hideSpecFile: false })
  })

  it("the page's example body deploys to production", async () => {
    const res = await call('PATCH', 'MyAPI/settings/spec-access-type/PUBLIC/?checkApiProxyPermission=false', bed.gina, { deploy: true, deployTargetEnvironmentNameList: ['production'] })
    expect(res.body).toMatchObject({ success: true, deploymentResult: { success: true, deploymentResults: [{ environmentName: 'production', success: true }] } })
    expect(bed.prod.received.at(-1)).toMatchObject({ name: 'MyAPI', config: { settings: { specAccess: { specAccessType: 'PUBLIC' } } } })
  })

  it('refuses an unknown type, a bad flag, a viewer', async () => {
    await expectRefused('spec-access-type/SECRET/', bed.erin, {}, /^specAccessType: 'SECRET' is not one of PUBLIC, AUTHENTICATED, HIDDEN, BACKEND_PROXY/)
    await expectRefused('spec-access-type/PUBLIC/?checkApiProxyPermission=maybe', bed.erin, {}, /^checkApiProxyPermission: must be true or false/)
    await expectRefused('spec-access-type/PUBLIC/', bed.frank, {}, /API_MANAGEMENT/)
  })
})

describe('custom message and error handling', () => {
  it("store the pages' examples, merge partial updates and refuse AI proxies", async () => {
    const custom = { buildCustomMessage: true, customMessageTemplate: '{"status": "ok", "message": "Service is running"}', customMessageContentType: 'application/json', customMessageHttpStatusCode: 200 }
    await expectStored('custom-message/', bed.erin, { ...custom, ...NO_DEPLOY })
    await expectStored('custom-message/', bed.erin, { buildCustomMessage: true, customMessageTemplate: '<response><status>ok</status><message>Service healthy</message></response>', customMessageContentType: 'application/xml', customMessageHttpStatusCode: 200 })
    await expectStored('custom-message/', bed.erin, { buildCustomMessage: false })
    expect((await detail(bed.frank)).customMessageSettings).toEqual({ buildCustomMessage: false, customMessageTemplate: '<response><status>ok</status><message>Service healthy</message></response>', customMessageContentType: 'application/xml', customMessageHttpStatusCode: 200 })
    await expectRefused('custom-message/', bed.erin, { buildCustomMessage: true }, /^customMessageTemplate: is required when buildCustomMessage is true/, 'Other')
    await expectRefused('custom-message/', bed.erin, { customMessageHttpStatusCode: 99 }, /^customMessageHttpStatusCode: must be at least 100/)
    await expectRefused('custom-message/', bed.erin, { buildCustomMessage: false }, /is an AI proxy/, 'Llm')

    const errorMessageList = [
      { httpStatusCode: 500, customizedHttpStatusCode: 503, customizedErrorCode: 'BACKEND_ERROR', customizedMessage: 'Service is temporarily unavailable' },
      { httpStatusCode: 502, customizedHttpStatusCode: 502, customizedErrorCode: 'BAD_GATEWAY', customizedMessage: 'Bad gateway response from backend' },
    ]
    await expectStored('error-handling/', bed.erin, { errorHandlingType: 'STATUS_CODE_LIST', statusCodeList: [500, 502, 503, 504], customizeErrorMessageEnabled: true, errorMessageList, ...NO_DEPLOY })
    await expectStored('error-handling/', bed.erin, { errorHandlingType: 'DEFAULT' })
    expect((await detail(bed.frank)).errorHandlingSettings).toEqual({ errorHandlingType: 'DEFAULT', statusCodeList: [500, 502, 503, 504], customizeErrorMessageEnabled: true, errorMessageList })
    await expectRefused('error-handling/', bed.erin, { errorHandlingType: 'STATUS_CODE_LIST' }, /^statusCodeList: needs at least one status code when errorHandlingType is STATUS_CODE_LIST/, 'Other')
    await expectRefused('error-handling/', bed.erin, { errorMessageList: [{ httpStatusCode: 500 }, { httpStatusCode: 500 }] }, /^errorMessageList: lists an httpStatusCode twice/)
    await expectRefused('error-handling/', bed.erin, { errorMessageList: [{ customizedMessage: 'x' }] }, /^errorMessageList\[0\]\.httpStatusCode: /)
    await expectRefused('error-handling/', bed.erin, { errorHandlingType: 'CLEVER' }, /^errorHandlingType: must be one of DEFAULT, ADVANCED, STATUS_CODE_LIST/)
  })
})

describe('gRPC and WebSocket', () => {
  it('apply to proxies of their kind only', async () => {
    const grpcSettings = { maxInboundMessageSize: 4194304, maxInboundMetadataSize: 8192, keepAliveTime: 60, keepAliveTimeout: 20, keepAliveWithoutCalls: false, channelIdleTimeout: 300, perRpcBufferLimit: 1048576, maxRetryAttempts: 5, maxHedgedAttempts: 2, maxTraceEvents: 24 }
    await expectStored('grpc/', bed.erin, { grpcSettings, ...NO_DEPLOY }, 'Grpc')
    await expectStored('grpc/', bed.erin, { grpcSettings: { channelIdleTimeout: 600, maxTraceEvents: 48 } }, 'Grpc')
    expect((await detail(bed.frank, 'Grpc')).grpcSettings).toEqual({ ...grpcSettings, channelIdleTimeout: 600, maxTraceEvents: 48 })
    await expectRefused('grpc/', bed.erin, { grpcSettings: { keepAliveTime: 30 } }, /^API Proxy type is not GRPC/)
    await expectRefused('grpc/', bed.erin, { grpcSettings: { keepAliveTime: 0 } }, /^grpcSettings\.keepAliveTime: must be at least 1/, 'Grpc')
    await expectRefused('grpc/', bed.erin, {}, /^grpcSettings: /, 'Grpc')

    const websocketSettings = { connectionLostTimeout: 60, reuseAddr: true, connectTimeout: 30, maxRetries: 3, retryDelay: 1000, autoReconnect: true, autoReconnectMaxRetries: 5, autoReconnectRetryDelay: 2000 }
    await expectStored('websocket/', bed.erin, { websocketSettings, ...NO_DEPLOY }, 'Ws')
    await expectStored('websocket/', bed.erin, { websocketSettings: { autoReconnect: false } }, 'Ws')
    expect((await detail(bed.frank, 'Ws')).websocketSettings).toEqual({ ...websocketSettings, autoReconnect: false })
    await expectRefused('websocket/', bed.erin, { websocketSettings: { autoReconnect: false } }, /^API Proxy type is not WEBSOCKET/, 'Grpc')
    await expectRefused('websocket/', bed.erin, { websocketSettings: { retryDelay: -1 } }, /^websocketSettings\.retryDelay: must be at least 0/, 'Ws')
  })
})

describe('maintenance mode and trace', () => {
  it("store the pages' examples and merge partial updates", async () => {
    const message = '{"status": 503, "message": "Service is currently under maintenance. Please try again later."}'
    await expectStored('maintenance-mode/', bed.erin, { enabled: true, httpStatusCode: 503, contentType: 'application/json; charset=utf-8', message, ...NO_DEPLOY })
    await expectStored('maintenance-mode/', bed.erin, { enabled: false })
    expect((await detail(bed.frank)).maintenanceModeSetting).toEqual({ enabled: false, httpStatusCode: 503, contentType: 'application/json; charset=utf-8', message })
    await expectRefused('maintenance-mode/', bed.erin, { httpStatusCode: 600 }, /^httpStatusCode: must be at most 599/)

    await expectStored('trace/', bed.erin, { enableTraceLog: true, startTime: '2025-01-01T00:00:00Z', stopTime: '2025-01-02T00:00:00Z', environmentName: 'production', ...NO_DEPLOY })
    await expectStored('trace/', bed.erin, { environmentName: 'staging' })
    expect((await detail(bed.frank)).traceSettings).toEqual({ enableTraceLog: true, startTime: '2025-01-01T00:00:00Z', stopTime: '2025-01-02T00:00:00Z', environmentName: 'staging' })
    await expectStored('trace/', bed.erin, { enableTraceLog: false })
    await expectRefused('trace/', bed.erin, { environmentName: 'moon' }, /^environmentName: environment 'moon' not found in project 'payments'/)
    await expectRefused('trace/', bed.erin, { stopTime: '2024-12-31T00:00:00Z' }, /^stopTime: must be after startTime/)
    await expectRefused('trace/', bed.erin, { startTime: '2025-01-01 00:00' }, /^startTime: must be an ISO 8601 date-time/)
  })

  it("the pages' save-and-deploy examples push to production", async () => {
    const res = await call('PATCH', 'MyAPI/settings/maintenance-mode/', bed.gina, { enabled: true, httpStatusCode: 503, deploy: true, deployTargetEnvironmentNameList: ['production'] })
    expect(res.body).toMatchObject({ success: true, deploymentResult: { success: true, deploymentResults: [{ environmentName: 'production', success: true }] } })
    expect(bed.prod.received.at(-1)).toMatchObject({ name: 'MyAPI', config: { settings: { maintenanceMode: { enabled: true, httpStatusCode: 503 } } } })
    const trace = await call('PATCH', 'MyAPI/settings/trace/', bed.gina, { enableTraceLog: true, startTime: '2025-01-01T00:00:00Z', stopTime: '2025-01-02T00:00:00Z', environmentName: 'production', deploy: true, deployTargetEnvironmentNameList: ['production'] })
    expect(trace.body.deploymentResult).toMatchObject({ success: true })
    expect(bed.dev.received).toHaveLength(0)
  })
})

describe('the GraphQL door', () => {
  it('typed mutations for each page, the same rules', async () => {
    const grpc = `mutation($input: ApiProxyGrpcSettingsInput!) { updateApiProxyGrpcSettings(projectName: "payments", apiProxyName: "Grpc", input: $input) }`
    expect((await bed.svc.graphql(grpc, { input: { grpcSettings: { maxRetryAttempts: 3 } } }, bed.erin)).body).toEqual({ data: { updateApiProxyGrpcSettings: true } })
    expect((await detail(bed.frank, 'Grpc')).grpcSettings).toMatchObject({ maxRetryAttempts: 3 })
    const refused = await bed.svc.graphql(grpc, { input: { grpcSettings: { maxRetryAttempts: 101 } } }, bed.erin)
    expect(refused.body.errors?.[0].message).toMatch(/^grpcSettings\.maxRetryAttempts: must be at most 100/)
    const viewer = await bed.svc.graphql(grpc, { input: { grpcSettings: { maxRetryAttempts: 3 } } }, bed.frank)
    expect(viewer.body.errors?.[0].message).toMatch(/API_MANAGEMENT/)
    const spec = `mutation { updateApiProxySpecAccessTypeSettings(projectName: "payments", apiProxyName: "Other", specAccessType: "BACKEND_PROXY", checkApiProxyPermission: true) }`
    expect((await bed.svc.graphql(spec, {}, bed.erin)).body).toEqual({ data: { updateApiProxySpecAccessTypeSettings: true } })
    expect(await detail(bed.frank, 'Other')).toMatchObject({ specAccessType: 'BACKEND_PROXY', checkApiProxyPermission: true })
  })
})
