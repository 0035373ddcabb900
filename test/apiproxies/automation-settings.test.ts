import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { jsonOfFile, unzip } from '../support/zip-fixtures.js'
import { automationBootstrap, legacy, PETSTORE } from './automation-proxy-support.js'

// The 17 settings pages of an API proxy (vendor 04-api-proxies/settings/*, issue 17 §2): each page's example is
// stored with a new revision and shown by GET; each invalid request is a 400 naming the field, nothing written or
// pushed. None of the pages deploys; the next deployment carries the settings (secrets opened for the gateway).

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE, DEPLOY_UNDEPLOY, EXPORT_IMPORT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })

const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const stored = async (name = 'MyAPI') => bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name } })
const detail = async (name = 'MyAPI') => (await call('GET', `${name}/`, bed.frank)).body

async function expectRefused(page: string, body: unknown, message: RegExp, params?: Record<string, unknown>, proxy = 'MyAPI') {
  const before = await stored(proxy)
  const pushesBefore = pushes()
  const res = await call('PATCH', `${proxy}/settings/${page}/`, bed.erin, body)
  expect(res.status).toBe(400)
  expect(res.body).toMatchObject({ status: 'FAILURE' })
  expect(res.body.resultMessage).toMatch(message)
  // the legacy envelope carries status and resultMessage only (spec §7.1); errorKey and params are the GraphQL door's
  if (params) expect(res.body).toMatchObject(params)
  const after = await stored(proxy)
  expect(JSON.stringify(after.settings)).toBe(JSON.stringify(before.settings))
  expect(after.revision).toBe(before.revision)
  expect(after.name).toBe(before.name)
  expect(pushes()).toBe(pushesBefore)
}

async function expectStored(page: string, body: unknown) {
  const before = await stored()
  const res = await call('PATCH', `MyAPI/settings/${page}/`, bed.erin, body)
  expect(res.body).toEqual({ status: 'SUCCESS', success: true })
  expect((await stored()).revision).toBe(before.revision + 1)
  expect(pushes()).toBe(0)
}

beforeAll(async () => {
  for (const [name, path, deploy] of [['MyAPI', '/api/users', true], ['Other', '/other', false]] as const) {
    const form = new FormData()
    form.append('metadata', JSON.stringify({ apiProxyName: name, apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: [path] }, deploy, deployTargetEnvironmentNameList: ['dev'] }))
    form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
    const created = await call('POST', 'file/', bed.gina, form)
    if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  }
  const project = await bed.svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'payments' } })
  // keys-module objects the mTLS page names (their own pages are tested in test/keys)
  await bed.svc.deps.prisma.storedObject.createMany({
    data: [
      { projectId: project.id, type: 'CERTIFICATE', kind: 'KEY_STORE', name: 'client-keystore', content: {} },
      { projectId: project.id, type: 'CERTIFICATE', kind: 'CERTIFICATE', name: 'backend-ca', content: {} },
    ],
  })
  bed.dev.received.length = 0
})

describe('every page: a valid request stored and shown, an invalid one refused', () => {
  it('keys: secret sealed and never shown', async () => {
    await expectStored('keys', { publicKey: 'ak_1234567890abcdef', secretKey: 'sk_9876543210fedcba' })
    await expectStored('keys', { publicKey: 'ak_new_public_key_12345' })
    expect((await detail()).apiKeys).toEqual({ publicKey: 'ak_new_public_key_12345', secretKeySet: true })
    expect(JSON.stringify(await stored())).not.toContain('sk_9876543210fedcba')
    expect(JSON.stringify(await detail())).not.toContain('sk_9876543210fedcba')
    await expectRefused('keys', {}, /^At least one key \(publicKey or secretKey\) must be provided/)
    await expectRefused('keys', { secretKey: '   ' }, /^secretKey: must not be blank/)
  })

  it('cache', async () => {
    const body = { name: 'Cache Settings', description: 'Cache configuration', cacheActive: true, cacheOnlyHttpGetRequests: true, cacheKeyType: 'QUERY_PARAMS', cacheStorageType: 'LOCAL', capacity: 1000, ttl: 3600, handlingAction: 'CONTINUE', invalidationRequiresAuthn: false, cacheNullValue: false, variableList: [] }
    await expectStored('cache', body)
    expect((await detail()).cacheSettings).toEqual(body)
    await expectRefused('cache', { name: 'c' }, /^handlingAction: must be one of CONTINUE, STOP/)
    await expectRefused('cache', { ...body, capacity: -1 }, /^capacity: must be at least 1/)
  })

  it('circuit breaker: only the fields given change', async () => {
    await expectStored('circuit-breaker', { circuitBreakerEnabled: true, errorWindow: 60, errorThresholdValue: 5, enumErrorThresholdType: 'COUNT', sleepWindow: 30, halfOpenEnabled: true })
    await expectStored('circuit-breaker', { errorWindow: 120 })
    expect((await detail()).circuitBreakerSettings).toEqual({ circuitBreakerEnabled: true, errorWindow: 120, errorThresholdValue: 5, enumErrorThresholdType: 'COUNT', sleepWindow: 30, halfOpenEnabled: true })
    await expectRefused('circuit-breaker', { enumErrorThresholdType: 'PERCENT', errorThresholdValue: 150 }, /^errorThresholdValue: is a percentage/)
    await expectRefused('circuit-breaker', { enumErrorThresholdType: 'RATIO' }, /^enumErrorThresholdType: must be one of COUNT, PERCENT/)
    await expectRefused('circuit-breaker', { sleepWindow: 0 }, /^sleepWindow: must be at least 1/)
  })

  it('client route', async () => {
    await expectStored('client-route', { relativePathList: ['/api/v1/users', '/api/v1/products'], methodList: ['GET', 'POST', 'PUT', 'DELETE'], hostList: null, headerList: null, bufferRequest: true, bufferResponse: true })
    await expectStored('client-route', { headerList: [{ name: 'X-API-Version', value: 'v1' }], methodList: ['GET', 'POST'] })
    const view = await detail()
    expect(view.relativePath).toBe('/api/v1/users')
    expect(view.clientRoute).toMatchObject({ relativePathList: ['/api/v1/users', '/api/v1/products'], methodList: ['GET', 'POST'], headerList: [{ name: 'X-API-Version', value: 'v1' }] })
    await expectRefused('client-route', { relativePathList: null, methodList: null, hostList: null, headerList: null }, /^Client route must have at least one valid route configuration/)
    await expectRefused('client-route', { relativePathList: ['/'] }, /^relativePathList\[0\]: must be at least 2 characters long/)
    await expectRefused('client-route', { relativePathList: ['/other'] }, /already the relative path of API proxy 'Other'/)
    await expectRefused('client-route', { headerList: [{ name: 'bad header', value: 'x' }] }, /^headerList\[0\]\.name: must be an HTTP header name/)
  })

  it('connection: the routing timeouts and the rest in one view', async () => {
    await expectStored('connection', { connectionSettingsEnabled: true, connectTimeout: 30, readTimeout: 60, connectionRequestTimeout: 30, redirectsEnabled: true, maxRedirects: 50, relativeRedirectsAllowed: true, disableContentCompression: false, enableStreaming: false, retryCount: 3, failoverRetryCount: 2, ignoreRoutingError: false, connectionPoolManagementType: 'GENERAL', customConnectionPoolSize: 8 })
    await expectStored('connection', { connectionSettingsEnabled: true, connectionPoolManagementType: 'CUSTOM', customConnectionPoolSize: 20, connectTimeout: 60, readTimeout: 120 })
    const view = await detail()
    expect(view.connectionSettings).toMatchObject({ connectionSettingsEnabled: true, connectionPoolManagementType: 'CUSTOM', customConnectionPoolSize: 20, connectTimeout: 60, readTimeout: 120 })
    expect(view.routing).toMatchObject({ connectTimeout: 60, readTimeout: 120 })
    await expectRefused('connection', { connectionPoolManagementType: 'CUSTOM' }, /^customConnectionPoolSize: Custom connection pool size is required when connectionPoolManagementType is CUSTOM/, undefined, 'Other')
    await expectRefused('connection', { readTimeout: 0 }, /^readTimeout: must be at least 1/)
    await expectRefused('connection', { connectionPoolManagementType: 'SHARED' }, /^connectionPoolManagementType: must be one of GENERAL, CUSTOM, NONE/)
  })

  it('CORS', async () => {
    const body = { name: 'CORS Settings', corsActive: true, allowOriginList: ['https://example.com', 'https://app.example.com'], allowMethodList: ['GET', 'POST'], allowHeaderList: ['Content-Type', 'Authorization'], exposeHeaderList: ['X-Custom-Header'], allowCredentials: 'true', maxAge: 7200 }
    await expectStored('cors', body)
    expect((await detail()).corsSettings).toMatchObject(body)
    await expectRefused('cors', { ...body, allowOriginList: ['*'] }, /^allowOriginList: '\*' can not be used with allowCredentials "true"/)
    await expectRefused('cors', { ...body, allowCredentials: true }, /^allowCredentials: must be the string "true" or "false"/)
    await expectRefused('cors', { ...body, allowOriginList: ['https://example.com/path'] }, /^allowOriginList\[0\]: must be '\*' or an origin/)
    await expectRefused('cors', { ...body, name: undefined }, /^name:/)
  })

  it('forwarded IP header', async () => {
    await expectStored('forwarded-ip-header', { forwardedIpHeaderParamActive: true, value: 'X-Real-IP', xffOrder: 'LAST' })
    expect((await detail()).forwardedIpHeaderParameter).toEqual({ forwardedIpHeaderParamActive: true, value: 'X-Real-IP', xffOrder: 'LAST' })
    await expectRefused('forwarded-ip-header', { xffOrder: 'SIXTH' }, /^xffOrder: must be one of FIRST/)
    await expectRefused('forwarded-ip-header', { value: 'X Real IP' }, /^value: must be an HTTP header name/)
  })

  it('hide spec file (path flag)', async () => {
    const before = (await stored()).revision
    expect((await call('PATCH', 'MyAPI/settings/hide-spec-file/true/', bed.erin)).body).toEqual({ status: 'SUCCESS', success: true })
    expect((await detail()).hideSpecFile).toBe(true)
    expect((await stored()).revision).toBe(before + 1)
    const refused = await call('PATCH', 'MyAPI/settings/hide-spec-file/yes/', bed.erin)
    expect(refused.status).toBe(400)
    expect(refused.body.resultMessage).toMatch(/^hideSpecFile: Invalid hideSpecFile parameter/)
    expect((await stored()).revision).toBe(before + 1)
  })

  it('JSON and XML error templates', async () => {
    await expectStored('json-error-template', { jsonErrorResponseTemplateActive: true, jsonValue: '{\n  "error": {\n    "id": "#CORRELATIONID#",\n    "status": #FAULTSTATUSCODE#\n  }\n}', contentType: 'application/json;charset=UTF-8', permitSpecialChars: true })
    expect((await detail()).jsonErrorResponseTemplate).toMatchObject({ jsonErrorResponseTemplateActive: true, permitSpecialChars: true })
    await expectRefused('json-error-template', { jsonValue: '{"a": ' }, /^jsonValue: is not valid JSON/)
    await expectRefused('json-error-template', { jsonValue: '{"a": "#NOPE#"}' }, /^jsonValue: uses the unknown variable #NOPE#/)
    await expectRefused('json-error-template', { contentType: 'json' }, /^contentType: must be a media type/)
    await expectStored('xml-error-template', { xmlErrorResponseTemplateActive: true, xmlValue: '<error xmlns="http://example.com/error">\n  <id>#CORRELATIONID#</id>\n  <code>#FAULTCODE#</code>\n</error>', contentType: 'application/xml;charset=UTF-8', permitSpecialChars: true })
    expect((await detail()).xmlErrorResponseTemplate).toMatchObject({ xmlErrorResponseTemplateActive: true, contentType: 'application/xml;charset=UTF-8' })
    await expectRefused('xml-error-template', { xmlValue: '<a><b></a>' }, /^xmlValue: is not valid XML: <\/a> closes <b>/)
    await expectRefused('xml-error-template', { xmlValue: '<a/><b/>' }, /^xmlValue: is not valid XML: more than one root element/)
  })

  it('metadata: rename refused while deployed, allowed once not', async () => {
    await expectStored('metadata', { description: 'Updated description for the API', categoryList: ['Finance', 'Banking'], sharingType: 'EXTERNAL' })
    expect(await detail()).toMatchObject({ description: 'Updated description for the API', categoryList: ['Finance', 'Banking'], sharingType: 'EXTERNAL' })
    await expectRefused('metadata', { name: 'Renamed' }, /^name: API proxy 'MyAPI' is deployed to dev; undeploy it before renaming/)
    await expectRefused('metadata', {}, /^At least one field/)
    await expectRefused('metadata', { sharingType: 'PUBLIC' }, /^sharingType: must be one of BOTH, NONE, EXTERNAL, INTERNAL/)
    await expectRefused('metadata', { name: 'myapi' }, /./, undefined, 'Other')
    const renamed = await call('PATCH', 'Other/settings/metadata/', bed.erin, { name: 'OtherRenamed' })
    expect(renamed.body).toEqual({ status: 'SUCCESS', success: true })
    expect((await call('GET', 'OtherRenamed/', bed.frank)).body.name).toBe('OtherRenamed')
  })

  it('mTLS: keystore and truststore by name; a missing one is a 400 naming it', async () => {
    await expectStored('mtls', { enabled: true, keyStoreId: 'client-keystore', trustStoreId: 'backend-ca', supportedProtocolList: ['TLS_1_2', 'TLS_1_3'], hostnameVerifierType: 'STRICT' })
    // read back under the page's names (keyStoreId, trustStoreId: ids carry names) beside the stored ones
    expect((await detail()).mtlsSettings).toEqual({
      enabled: true, keyStoreName: 'client-keystore', trustStoreName: 'backend-ca', keyStoreId: 'client-keystore', trustStoreId: 'backend-ca',
      supportedProtocolList: ['TLS_1_2', 'TLS_1_3'], hostnameVerifierType: 'STRICT', disableSslValidation: false,
    })
    await expectRefused('mtls', { keyStoreId: 'nope-keystore' }, /^keyStoreId: Keystore \(name: nope-keystore\) is not found!/)
    await expectRefused('mtls', { trustStoreId: 'nope-ca' }, /^trustStoreId: no keystore or certificate named 'nope-ca'/)
    await expectRefused('mtls', { supportedProtocolList: ['TLS_2_0'] }, /^supportedProtocolList\[0\]: must be one of TLS_1_3/)
  })

  it('NTLM: password sealed; enabled needs domain, username and password', async () => {
    await expectRefused('ntlm', { enabled: true, domain: 'EXAMPLE' }, /^username: Domain, username, and password are required when NTLM is enabled/)
    await expectStored('ntlm', { enabled: true, domain: 'EXAMPLE', username: 'user', password: 'ntlm-pass-1', workstation: 'WORKSTATION01' })
    const view = (await detail()).ntlmSettings
    expect(view).toMatchObject({ enabled: true, domain: 'EXAMPLE', username: 'user', workstation: 'WORKSTATION01', passwordSet: true })
    expect(view.password).toBeUndefined()
    expect(JSON.stringify(await stored())).not.toContain('ntlm-pass-1')
  })

  it('proxy server: host and port unless taken from headers; credentials when authorization is needed', async () => {
    await expectStored('proxy-server', { proxyEnabled: true, proxyFromHeaderEnabled: false, proxyHost: 'proxy.example.com', proxyPort: 8080, proxyAuthorizationNeeded: true, proxyUsername: 'proxy-user', proxyPassword: 'proxy-pass-1' })
    expect((await detail()).proxyServerSettings).toMatchObject({ proxyHost: 'proxy.example.com', proxyPort: 8080, proxyPasswordSet: true })
    await expectRefused('proxy-server', { proxyPort: 70000 }, /^proxyPort: must be at most 65535/)
    await expectRefused('proxy-server', { proxyHost: 'bad host!' }, /^proxyHost: must be a host name/)
  })

  it('routing addresses with weights and a health check; routing status', async () => {
    await expectStored('addresses', { routingAddressList: [{ address: 'https://backend1.example.com', weight: 100, healthCheckEnabled: true }, { address: 'https://backend2.example.com', weight: 50 }], healthCheck: { path: '/health', intervalSeconds: 10, timeoutSeconds: 2 } })
    expect((await detail()).routing).toMatchObject({
      routingAddressList: [{ address: 'https://backend1.example.com', weight: 100, healthCheckEnabled: true, soapType: null }, { address: 'https://backend2.example.com', weight: 50, healthCheckEnabled: false }],
      healthCheck: { enabled: true, path: '/health', intervalSeconds: 10, timeoutSeconds: 2, healthyThreshold: 2, unhealthyThreshold: 3, expectedStatusCodes: [200] },
    })
    await expectRefused('addresses', { routingAddressList: [{ address: 'ftp://x.example.com' }] }, /^routingAddressList\[0\]\.address: must be an absolute http\(s\) URL/)
    await expectRefused('addresses', { routingAddressList: [{ address: 'https://a.example.com', weight: 0 }] }, /^routingAddressList\[0\]\.weight: must be at least 1/)
    await expectRefused('addresses', { routingAddressList: [{ address: 'https://a.example.com' }, { address: 'https://A.example.com/' }] }, /^routingAddressList\[1\]\.address: .* is listed twice/)
    await expectRefused('addresses', { routingAddressList: [{ address: 'https://a.example.com', soapType: 'SOAP13' }] }, /^routingAddressList\[0\]\.soapType: must be one of SOAP11, SOAP12/)
    await expectRefused('addresses', { routingAddressList: [{ address: 'https://a.example.com' }], healthCheck: { intervalSeconds: 5, timeoutSeconds: 5 } }, /^healthCheck\.timeoutSeconds: must be shorter than intervalSeconds/)
    await expectRefused('addresses', {}, /^routingAddressList:/)
    await expectStored('routing-status', { routingEnabled: true, mirrorEnabled: true })
    expect((await detail()).routing).toMatchObject({ routingEnabled: true, mirrorEnabled: true, routingAddressList: [{ weight: 100 }, { weight: 50 }] })
  })

  it("routing addresses: the page's main example (soapType on each address) is accepted on a REST proxy, soapType ignored", async () => {
    // update-routing-addresses.md at 319c71d, "Full JSON Body Example"
    await expectStored('addresses', { routingAddressList: [{ address: 'https://backend1.example.com', weight: 100, soapType: 'SOAP11' }, { address: 'https://backend2.example.com', weight: 50, soapType: 'SOAP11' }] })
    expect((await detail()).routing.routingAddressList).toEqual([
      { address: 'https://backend1.example.com', weight: 100, healthCheckEnabled: false, soapType: null, addressType: 'PRIMARY' },
      { address: 'https://backend2.example.com', weight: 50, healthCheckEnabled: false, soapType: null, addressType: 'PRIMARY' },
    ])
    expect(JSON.stringify((await stored()).settings)).not.toContain('SOAP11')
    await expectRefused('routing-status', { routingEnabled: 'yes' }, /^routingEnabled: must be true or false/)
  })

  it('traffic log: per environment of the project', async () => {
    await expectStored('traffic-log', { enabledTraceLog: true, enabledApplicationLog: false, apiProxyTrafficLogSettingsList: [{ environmentName: 'dev', logHeaderRequestFromClient: true, logBodyRequestFromClient: false, enableElasticsearchConnector: true }] })
    const view = (await detail()).trafficLogSettings
    expect(view).toMatchObject({ enabledTraceLog: true, apiProxyTrafficLogSettingsList: [{ environmentName: 'dev', logBodyRequestFromClient: false, logParamRequestFromClient: true, enableElasticsearchConnector: true, enableKafkaConnector: false }] })
    await expectRefused('traffic-log', { apiProxyTrafficLogSettingsList: [{ environmentName: 'staging' }] }, /^apiProxyTrafficLogSettingsList\[0\]\.environmentName: environment 'staging' not found/)
    await expectRefused('traffic-log', { apiProxyTrafficLogSettingsList: [{}] }, /environmentName value can not be empty in traffic log settings!/)
    await expectRefused('traffic-log', { apiProxyTrafficLogSettingsList: [{ environmentName: 'dev' }, { environmentName: 'dev' }] }, /listed twice/)
  })

  it('common refusals: unknown proxy, viewer, unknown field, non-object body', async () => {
    await expectRefused('routing-status', { routingEnabled: true, extra: 1 }, /^extra: unknown field/)
    await expectRefused('routing-status', [true], /must be a JSON object/)
    const viewer = await call('PATCH', 'MyAPI/settings/routing-status/', bed.frank, { routingEnabled: false })
    expect(viewer.status).toBe(400)
    expect(viewer.body.resultMessage).toMatch(/API_MANAGEMENT/)
    const unknown = await call('PATCH', 'Nope/settings/routing-status/', bed.erin, { routingEnabled: false })
    expect(unknown.body.resultMessage).toMatch(/ApiProxy \(name: Nope\) was not found!/)
    expect((await call('PATCH', 'MyAPI/settings/routing-status/', null, { routingEnabled: false })).status).toBe(401)
  })
})

describe('the GraphQL door', () => {
  const update = `mutation($p: String!, $a: String!, $page: String!, $s: JSON!) { updateApiProxySettings(projectName: $p, apiProxyName: $a, page: $page, settings: $s) }`

  it('updates a page through the same service; errors carry errorKey and params', async () => {
    const ok = await bed.svc.graphql(update, { p: 'payments', a: 'MyAPI', page: 'routing-status', s: { mirrorEnabled: false } }, bed.erin)
    expect(ok.body).toEqual({ data: { updateApiProxySettings: true } })
    const read = await bed.svc.graphql(`query { apiProxySettings(projectName: "payments", apiProxyName: "MyAPI") }`, {}, bed.frank)
    expect(read.body.data.apiProxySettings.routing).toMatchObject({ mirrorEnabled: false })
    const before = await stored()
    const missing = await bed.svc.graphql(update, { p: 'payments', a: 'MyAPI', page: 'mtls', s: { keyStoreId: 'ghost-keystore' } }, bed.erin)
    expect(missing.body.errors?.[0]).toMatchObject({ extensions: { errorKey: 'keystoreNotFound', params: { field: 'keyStoreId', keyStoreName: 'ghost-keystore' } } })
    const secret = await bed.svc.graphql(update, { p: 'payments', a: 'MyAPI', page: 'keys', s: { secretKey: ' ' } }, bed.erin)
    expect(secret.body.errors?.[0]).toMatchObject({ extensions: { errorKey: 'malformedRequest', params: { field: 'secretKey' } } })
    const clash = await bed.svc.graphql(update, { p: 'payments', a: 'MyAPI', page: 'client-route', s: { relativePathList: ['/other'] } }, bed.erin)
    expect(clash.body.errors?.[0]).toMatchObject({ extensions: { errorKey: 'relativePathAlreadyUsed', params: { apiProxy: 'OtherRenamed' } } })
    const page = await bed.svc.graphql(update, { p: 'payments', a: 'MyAPI', page: 'colour', s: {} }, bed.erin)
    expect(page.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Unknown settings page 'colour'/), extensions: { params: { field: 'page' } } })
    expect(JSON.stringify((await stored()).settings)).toBe(JSON.stringify(before.settings))
    expect((await stored()).revision).toBe(before.revision)
  })
})

describe('settings travel with the proxy', () => {
  it('shows redeployRequired; the next deployment carries the settings with secrets opened', async () => {
    expect((await detail()).deploymentList).toContainEqual(expect.objectContaining({ environmentName: 'dev', deployed: true, redeployRequired: true }))
    const res = await call('POST', 'MyAPI/environments/dev/', bed.gina)
    expect(res.body.deploymentResult.success).toBe(true)
    const config = (bed.dev.received[bed.dev.received.length - 1] as any).config
    expect(config.settings).toMatchObject({ cors: { name: 'CORS Settings' }, apiKeys: { secretKey: 'sk_9876543210fedcba' }, ntlm: { password: 'ntlm-pass-1' }, proxyServer: { proxyPassword: 'proxy-pass-1' }, mtls: { keyStoreName: 'client-keystore' } })
  })

  it('export and import carry the settings; their secrets travel apart, per secretHandling (default re-sealed)', async () => {
    const exported = await bed.svc.http('/apiops/projects/payments/apiProxies/MyAPI/export/', { headers: { authorization: `Bearer ${bed.gina}` } })
    expect(exported.status).toBe(200)
    const bytes = Buffer.from(await exported.arrayBuffer())
    const object = jsonOfFile(unzip(bytes), 'MyAPI.json')
    // one rule for every secret of the package (test/apiproxies/proxy-package-secrets.test.ts covers each mode)
    expect(object.secrets).toMatchObject({
      'settings/apiKeys.secretKey': { handling: 'CIPHERTEXT_VERBATIM' }, 'settings/ntlm.password': { handling: 'CIPHERTEXT_VERBATIM' }, 'settings/proxyServer.proxyPassword': { handling: 'CIPHERTEXT_VERBATIM' },
    })
    expect(object.data.settings.ntlm).not.toHaveProperty('password')
    for (const clear of ['sk_9876543210fedcba', 'ntlm-pass-1', 'proxy-pass-1']) expect(bytes.toString('latin1')).not.toContain(clear)
    const form = new FormData()
    form.append('apiProxyExportFile', new Blob([new Uint8Array(bytes)]), 'apiProxyExportFile.zip')
    const imported = await call('POST', 'import/', bed.gina, form)
    expect(imported.status).toBe(200)
    expect(imported.body.advisories).toEqual([])
    const copy = await detail(imported.body.apiProxyName)
    expect(copy).toMatchObject({
      corsSettings: { name: 'CORS Settings' }, circuitBreakerSettings: { errorWindow: 120 }, apiKeys: { secretKeySet: true }, hideSpecFile: true,
      ntlmSettings: { passwordSet: true }, proxyServerSettings: { proxyPasswordSet: true },
    })
    const settings = (await stored(imported.body.apiProxyName)).settings as any
    expect(bed.svc.deps.keyring.decrypt(settings.ntlm.password)).toBe('ntlm-pass-1')
    expect(bed.svc.deps.keyring.decrypt(settings.proxyServer.proxyPassword)).toBe('proxy-pass-1')
  })
})
