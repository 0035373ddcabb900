import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { newestPagesBootstrap, settingsCalls } from './settings-support.js'

// Issue 32 §0: the bodies of the newest vendor pages (apinizer/docs HEAD, api-reference/api-proxies/settings/*) for
// the settings pages served before: each page's "Full JSON Body Example" verbatim (the section wrapped in
// cacheSettings, corsSettings, ntlmSettings, clientRoute, forwardedIpHeaderParam, jsonErrorResponseTemplate or
// xmlErrorResponseTemplate where the page wraps it; deploy and deployTargetEnvironmentNameList everywhere), the
// fields the reads then show, and `deploy: true` pushing the proxy. The older flat bodies stay accepted
// (automation-settings.test.ts).

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE and DEPLOY_UNDEPLOY
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: newestPagesBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })
const { call, pushes, stored, expectRefused, expectStored, detail } = settingsCalls(bed)

beforeAll(async () => {
  const project = await bed.svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'payments' } })
  // the keystore and truststore the mTLS page's example names (their own pages are tested in test/keys)
  await bed.svc.deps.prisma.storedObject.createMany({
    data: [
      { projectId: project.id, type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'keystore-id-123', content: {} },
      { projectId: project.id, type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'truststore-id-456', content: {} },
    ],
  })
})

const NO_DEPLOY = { deploy: false, deployTargetEnvironmentNameList: [] }

describe("the newest pages' example bodies", () => {
  it('wrapped sections: cache, CORS, NTLM, client route, forwarded IP header, JSON and XML error templates', async () => {
    const cacheSettings = {
      name: 'Cache Settings', description: 'Cache configuration', cacheActive: true, cacheOnlyHttpGetRequests: true, cacheKeyType: 'QUERY_PARAMS', cacheStorageType: 'LOCAL',
      capacity: 1000, ttl: 3600, handlingAction: 'CONTINUE', invalidationRequiresAuthn: false, cacheNullValue: false, variableList: [],
    }
    await expectStored('cache/', bed.erin, { cacheSettings, ...NO_DEPLOY })
    const corsSettings = {
      name: 'CORS Settings', description: 'CORS configuration for API', corsActive: true, allowOriginList: ['*'], allowMethodList: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'],
      allowHeaderList: ['*'], exposeHeaderList: ['X-Custom-Header'], allowCredentials: 'true', maxAge: 3600,
    }
    // the page's own example pairs '*' with allowCredentials "true", which browsers refuse; the rule stays (spec §7.1 names the field)
    await expectRefused('cors/', bed.erin, { corsSettings, ...NO_DEPLOY }, /^corsSettings\.allowOriginList: '\*' can not be used with allowCredentials "true"/)
    await expectStored('cors/', bed.erin, { corsSettings: { ...corsSettings, allowCredentials: 'false' }, ...NO_DEPLOY })
    await expectStored('ntlm/', bed.erin, { ntlmSettings: { enabled: true, domain: 'EXAMPLE', username: 'user', password: 'password', workstation: 'WORKSTATION01' }, ...NO_DEPLOY })
    await expectStored('client-route/', bed.erin, {
      clientRoute: { relativePathList: ['/api/v1/users', '/api/v1/products'], methodList: ['GET', 'POST', 'PUT', 'DELETE'], hostList: null, headerList: null, bufferRequest: true, bufferResponse: true },
      ...NO_DEPLOY,
    })
    await expectStored('forwarded-ip-header/', bed.erin, { forwardedIpHeaderParam: { forwardedIpHeaderParamActive: true, value: 'X-Forwarded-For', xffOrder: 'FIRST' }, ...NO_DEPLOY })
    const jsonValue = '{\n  "fault": {\n    "correlationId": "#CORRELATIONID#",\n    "faultCode": "#FAULTCODE#",\n    "faultString": "#FAULTMESSAGE#",\n    "faultStatusCode": "#FAULTSTATUSCODE#",\n    "responseFromApi": "#RESPONSEFROMAPI#"\n  }\n}'
    await expectStored('json-error-template/', bed.erin, { jsonErrorResponseTemplate: { jsonErrorResponseTemplateActive: true, jsonValue, contentType: 'application/json;charset=UTF-8', permitSpecialChars: false }, ...NO_DEPLOY })
    const xmlValue =
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">\n  <soap:Body>\n    <soap:Fault>\n      <correlationId>#CORRELATIONID#</correlationId>\n      <faultCode>#FAULTCODE#</faultCode>\n      <faultString>#FAULTMESSAGE#</faultString>\n      <faultStatusCode>#FAULTSTATUSCODE#</faultStatusCode>\n      <responseFromApi>#RESPONSEFROMAPI#</responseFromApi>\n    </soap:Fault>\n  </soap:Body>\n</soap:Envelope>'
    await expectStored('xml-error-template/', bed.erin, { xmlErrorResponseTemplate: { xmlErrorResponseTemplateActive: true, xmlValue, contentType: 'text/xml;charset=UTF-8', permitSpecialChars: false }, ...NO_DEPLOY })

    const read = await detail(bed.frank)
    expect(read.cacheSettings).toEqual(cacheSettings)
    expect(read.corsSettings).toEqual({ ...corsSettings, allowCredentials: 'false' })
    expect(read.ntlmSettings).toEqual({ enabled: true, domain: 'EXAMPLE', username: 'user', workstation: 'WORKSTATION01', passwordSet: true })
    expect(read.clientRoute).toMatchObject({ relativePathList: ['/api/v1/users', '/api/v1/products'], methodList: ['GET', 'POST', 'PUT', 'DELETE'], hostList: [], headerList: [] })
    expect(read.forwardedIpHeaderParameter).toEqual({ forwardedIpHeaderParamActive: true, value: 'X-Forwarded-For', xffOrder: 'FIRST' })
    // the same section under the newest page's name
    expect(read.forwardedIpHeaderParam).toEqual(read.forwardedIpHeaderParameter)
    expect(read.jsonErrorResponseTemplate).toEqual({ jsonErrorResponseTemplateActive: true, jsonValue, contentType: 'application/json;charset=UTF-8', permitSpecialChars: false })
    expect(read.xmlErrorResponseTemplate).toMatchObject({ xmlValue })
  })

  it('a wrapped section is checked like a flat one, its fields named under the wrapper; both forms at once are refused', async () => {
    await expectRefused('cache/', bed.erin, { cacheSettings: { name: 'c' } }, /^cacheSettings\.handlingAction: /)
    await expectRefused('cache/', bed.erin, { cacheSettings: { name: 'c', handlingAction: 'CONTINUE', ttl: 0 } }, /^cacheSettings\.ttl: must be at least 1/)
    await expectRefused('cache/', bed.erin, { cacheSettings: { name: 'c', handlingAction: 'CONTINUE', colour: 'red' } }, /^cacheSettings\.colour: unknown field/)
    await expectRefused('cache/', bed.erin, { name: 'c' }, /^handlingAction: /)
    await expectRefused('ntlm/', bed.erin, { ntlmSettings: { enabled: true }, enabled: true }, /^ntlmSettings: send the fields either inside ntlmSettings or at the top level, not both/)
    await expectRefused('ntlm/', bed.erin, { ntlmSettings: { enabled: true, domain: ' ' } }, /^ntlmSettings\.domain: must not be blank/)
  })

  it('flat pages with the fields the newest pages add: connection, metadata, mTLS, routing addresses and status, keys, circuit breaker, proxy server', async () => {
    const connection = {
      connectTimeout: 30, readTimeout: 60, connectionRequestTimeout: 30, validateAfterInactivity: 2000, idleConnectionTimeout: 30, redirectsEnabled: true, maxRedirects: 50,
      relativeRedirectsAllowed: true, disableContentCompression: false, enableStreaming: false, ignoreRoutingError: false, queryEncodingMode: 'STANDARD',
      connectionPoolManagementType: 'GENERAL', customConnectionPoolSize: 8, hopByHopHeaders: ['X-Custom-Internal'], sendUserAgentToBackend: true,
      userAgentValue: 'Apinizer-Gateway/1.0', doNotRouteZeroValueContentLength: false, enableDownload: false, useByteArrayForCompressedResponse: false,
    }
    await expectStored('connection/', bed.erin, connection)
    await expectStored('metadata/', bed.erin, { requestBodyReadBehavior: 'READ_IF_POLICY_EXISTS', responseBodyReadBehavior: 'ALWAYS_READ' })
    await expectStored('mtls/', bed.erin, {
      enabled: true, keyStoreId: 'keystore-id-123', trustStoreId: 'truststore-id-456', supportedProtocolList: ['TLS_1_2', 'TLS_1_3'], hostnameVerifierType: 'STRICT', disableSslValidation: false, ...NO_DEPLOY,
    })
    const routingAddressList = [
      { address: 'https://backend1.example.com', description: 'Primary backend server', weight: 100, addressType: 'PRIMARY', healthCheckPath: '/health', healthMonitoringEnabled: true },
      { address: 'https://backend2.example.com', description: 'Secondary backend server', weight: 50, addressType: 'PRIMARY', healthCheckPath: '/health', healthMonitoringEnabled: true },
      { address: 'https://failover.example.com', description: 'Failover backend', addressType: 'FAILOVER_ONLY' },
    ]
    await expectStored('addresses/', bed.erin, { routingAddressList, ...NO_DEPLOY })
    await expectStored('routing-status/', bed.erin, { routingEnabled: true, echoEnabled: false, ...NO_DEPLOY })
    await expectStored('keys/', bed.erin, { publicKey: 'ak_1234567890abcdef', secretKey: 'sk_9876543210fedcba', ...NO_DEPLOY })
    await expectStored('circuit-breaker/', bed.erin, { circuitBreakerEnabled: true, errorWindow: 60, errorThresholdValue: 5, enumErrorThresholdType: 'COUNT', sleepWindow: 30, halfOpenEnabled: true, ...NO_DEPLOY })
    await expectStored('proxy-server/', bed.erin, {
      proxyEnabled: true, proxyFromHeaderEnabled: false, proxyHost: 'proxy.example.com', proxyPort: 8080, proxyAuthorizationNeeded: true, proxyUsername: 'proxy-user', proxyPassword: 'proxy-pass', ...NO_DEPLOY,
    })

    const read = await detail(bed.frank)
    expect(read.connectionSettings).toMatchObject(connection)
    expect(read.mtlsSettings).toMatchObject({ keyStoreName: 'keystore-id-123', trustStoreName: 'truststore-id-456', disableSslValidation: false })
    expect(read.routing).toMatchObject({ routingEnabled: true, echoEnabled: false })
    expect(read.routing.routingAddressList).toEqual([
      { ...routingAddressList[0], healthCheckEnabled: false, soapType: null },
      { ...routingAddressList[1], healthCheckEnabled: false, soapType: null },
      { ...routingAddressList[2], weight: 1, healthCheckEnabled: false, soapType: null },
    ])
    expect(read.apiKeys).toEqual({ publicKey: 'ak_1234567890abcdef', secretKeySet: true })
    expect(read.proxyServerSettings).toMatchObject({ proxyHost: 'proxy.example.com', proxyPasswordSet: true })
    const settings = (await stored()).settings as Record<string, unknown>
    expect(settings).toMatchObject({ requestBodyReadBehavior: 'READ_IF_POLICY_EXISTS', responseBodyReadBehavior: 'ALWAYS_READ' })

    await expectRefused('connection/', bed.erin, { queryEncodingMode: 'RAW' }, /^queryEncodingMode: must be one of STANDARD, RFC3986, PASSTHROUGH/)
    await expectRefused('addresses/', bed.erin, { routingAddressList: [{ address: 'https://a.example.com', addressType: 'BACKUP' }] }, /^routingAddressList\[0\]\.addressType: must be one of PRIMARY, CANARY, MIRROR, FAILOVER_ONLY/)
    await expectRefused('metadata/', bed.erin, { requestBodyReadBehavior: 'SOMETIMES' }, /^requestBodyReadBehavior: must be one of ALWAYS_READ, READ_IF_POLICY_EXISTS, NEVER_READ/)
  })
})

describe('deploy and deployTargetEnvironmentNameList', () => {
  it('deploy: true pushes the saved proxy to the listed environments and answers their deploymentResults', async () => {
    const res = await call('PATCH', 'MyAPI/settings/routing-status/', bed.gina, { routingEnabled: true, echoEnabled: true, deploy: true, deployTargetEnvironmentNameList: ['production'] })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true, deploymentResults: [{ environmentName: 'production', success: true }] } })
    expect(bed.dev.received).toHaveLength(0)
    const pushed = bed.prod.received.at(-1)!
    expect(pushed).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY', name: 'MyAPI', revision: (await stored()).revision })
    expect((pushed.config as { settings: { routing: unknown } }).settings.routing).toMatchObject({ echoEnabled: true })
    expect((await detail(bed.frank)).deploymentList).toContainEqual(expect.objectContaining({ environmentName: 'production', deployed: true, redeployRequired: false }))
  })

  it('deploy: true with no list pushes where the proxy runs now; a wrapped page deploys the same way', async () => {
    const before = bed.prod.received.length
    const res = await call('PATCH', 'MyAPI/settings/forwarded-ip-header/', bed.gina, { forwardedIpHeaderParam: { xffOrder: 'LAST' }, deploy: true, deployTargetEnvironmentNameList: [] })
    expect(res.body.deploymentResult).toMatchObject({ success: true, deploymentResults: [{ environmentName: 'production', success: true }] })
    expect(bed.prod.received.length).toBe(before + 1)
    expect(bed.dev.received).toHaveLength(0)
  })

  it('an unknown environment is refused before anything is written; without DEPLOY_UNDEPLOY the change is saved and not pushed', async () => {
    await expectRefused('routing-status/', bed.gina, { routingEnabled: false, deploy: true, deployTargetEnvironmentNameList: ['production', 'moon'] }, /^deployTargetEnvironmentNameList\[1\]: environment 'moon' not found in project 'payments'/)
    await expectRefused('routing-status/', bed.gina, { routingEnabled: false, deploy: 'yes' }, /^deploy: must be true or false/)
    const before = pushes()
    const res = await call('PATCH', 'MyAPI/settings/routing-status/', bed.erin, { routingEnabled: false, deploy: true, deployTargetEnvironmentNameList: ['production'] })
    expect(res.status).toBe(200)
    expect(res.body.deploymentResult).toMatchObject({ success: false, deploymentResults: [{ environmentName: 'production', success: false }] })
    expect(res.body.deploymentResult.deploymentResults[0].message).toMatch(/DEPLOY_UNDEPLOY/)
    expect(pushes()).toBe(before)
    expect((await stored()).settings).toMatchObject({ routing: { routingEnabled: false } })
  })

  it('a viewer is refused; nothing written or pushed', async () => {
    await expectRefused('routing-status/', bed.frank, { routingEnabled: true, deploy: true, deployTargetEnvironmentNameList: ['production'] }, /API_MANAGEMENT/)
  })

  it('the typed GraphQL mutations take the wrapped form and deploy', async () => {
    const mutation = `mutation($input: ApiProxyCacheSettingsInput!) { updateApiProxyCacheSettings(projectName: "payments", apiProxyName: "MyAPI", input: $input) }`
    const before = bed.prod.received.length
    const ok = await bed.svc.graphql(mutation, { input: { cacheSettings: { name: 'g', handlingAction: 'STOP' }, deploy: true, deployTargetEnvironmentNameList: ['production'] } }, bed.gina)
    expect(ok.body).toEqual({ data: { updateApiProxyCacheSettings: true } })
    expect(bed.prod.received.length).toBe(before + 1)
    expect((await detail(bed.frank)).cacheSettings).toMatchObject({ name: 'g', handlingAction: 'STOP' })
    const bad = await bed.svc.graphql(mutation, { input: { cacheSettings: { name: 'g' } } }, bed.gina)
    expect(bad.body.errors?.[0].message).toMatch(/^cacheSettings\.handlingAction: /)
  })
})
