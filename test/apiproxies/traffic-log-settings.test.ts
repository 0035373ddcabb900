import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal } from '../support/refusals.js'
import { legacy, PETSTORE } from './automation-proxy-support.js'
import { newestPagesBootstrap } from './settings-support.js'

// Traffic log settings per environment (vendor api-reference/api-proxies/traffic-log-settings/*): the pages' example
// bodies, connector keys by connection name (stored by id, read back by name), method-level overrides, the push to
// the environment where the proxy runs, and every refusal writing and pushing nothing.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE and DEPLOY_UNDEPLOY; bob: IDENTITY only
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: newestPagesBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1', bob: 'bob-pass-1' } })
const BASE = 'Pets/trafficLogSettings'
const call = (method: string, path: string, token: string | null, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const stored = () => bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name: 'Pets' }, select: { settings: true, revision: true } })
const expectRefused = (write: () => ReturnType<typeof call>, message: RegExp | string) => expectLegacyRefusal(write, message, { state: stored, pushes })

const UPDATE_EXAMPLE = {
  logParamRequestFromClient: true, logHeaderRequestFromClient: true, logBodyRequestFromClient: true, logParamRequestToTarget: true, logHeaderRequestToTarget: true,
  logBodyRequestToTarget: true, logHeaderResponseFromTarget: true, logBodyResponseFromTarget: true, logHeaderResponseToClient: true, logBodyResponseToClient: true,
  connectorSettingsMap: {
    'Production Elasticsearch': { enabled: true, logBodyRequestFromClient: true, logBodyResponseFromTarget: true, enableBodyFromClientSize: true, sizeBodyFromClient: 1024 },
  },
  methodOverrideList: [{ apiMethodId: 'method-uuid-123', apiMethodName: '/pets', connectorSettingsMap: { 'Production Elasticsearch': { logBodyRequestFromClient: false } } }],
}
const SETTINGS_PAGE_EXAMPLE = {
  logHeaderRequestFromClient: true,
  logBodyRequestFromClient: true,
  logBodyResponseFromTarget: true,
  connectorSettingsMap: {
    'my-elasticsearch-connection': { enabled: true, logBodyRequestFromClient: true, logBodyResponseFromTarget: true, enableBodyFromClientSize: true, sizeBodyFromClient: 1024 },
    'my-kafka-connection': { enabled: true, logBodyRequestFromClient: true },
  },
}
const PRIVACY = {
  enablePrivacy: true,
  privacyDefinitionList: [
    { enabled: true, patternType: 'BUILTIN', builtInPiiType: 'TCKN', operation: 'MASK' },
    { enabled: true, patternType: 'ELEMENT_NAME', elementName: 'password', operation: 'DELETE' },
    { enabled: true, patternType: 'REGEX', regexPattern: 'ORD-\\d{6}', operation: 'HASH' },
  ],
}
let petsGet: string

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'Pets', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/pets-api'] }, deploy: true, deployTargetEnvironmentNameList: ['production'] }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  const created = await call('POST', 'file/', bed.gina, form)
  if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  const project = await bed.svc.deps.prisma.project.findFirstOrThrow({ where: { name: 'payments' } })
  // the connections the pages name (their own pages are tested in test/connections); an email connection logs nothing
  for (const [type, name] of [['elasticsearch', 'Production Elasticsearch'], ['elasticsearch', 'my-elasticsearch-connection'], ['kafka', 'my-kafka-connection'], ['email', 'mailer']]) {
    await bed.svc.deps.prisma.connection.create({ data: { projectId: project.id, type: type!, name: name!, nameKey: name!.toLowerCase() } })
  }
  petsGet = (await bed.svc.deps.prisma.gatewayEndpoint.findFirstOrThrow({ where: { path: '/pets', method: 'GET', apiProxy: { name: 'Pets' } } })).id
  bed.prod.received.length = 0
  bed.dev.received.length = 0
})

describe('traffic log settings per environment', () => {
  it('an environment never saved reads as an empty list', async () => {
    expect((await call('GET', `${BASE}/production/`, bed.frank)).body).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
    expect((await call('GET', `${BASE}/`, bed.frank)).body).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
  })

  it("saves the update page's example (method by id or name), redeploys where the proxy runs, and reads it back by connection name", async () => {
    const revision = (await stored()).revision
    const body = { ...UPDATE_EXAMPLE, methodOverrideList: [{ ...UPDATE_EXAMPLE.methodOverrideList[0], apiMethodId: petsGet }] }
    const res = await call('PUT', `${BASE}/production/`, bed.gina, body)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const expected = {
      environmentName: 'production', ...Object.fromEntries(Object.entries(UPDATE_EXAMPLE).filter(([k]) => k.startsWith('log'))),
      connectorSettingsMap: UPDATE_EXAMPLE.connectorSettingsMap,
      methodOverrideList: [{ apiMethodId: petsGet, apiMethodName: '/pets', connectorSettingsMap: { 'Production Elasticsearch': { logBodyRequestFromClient: false } } }],
    }
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultList: [expected], resultCount: 1, deploymentResult: { success: true, environmentResults: [{ environmentName: 'production', success: true }] } })
    expect((await stored()).revision).toBe(revision + 1)
    // pushed to production only (the proxy runs there), with the settings in its config
    expect(bed.dev.received).toHaveLength(0)
    // the gateway gets the connection by name and the method by its HTTP method and path (it knows neither of our ids)
    const pushed = bed.prod.received.at(-1) as unknown as { config: { settings: { trafficLog: { apiProxyTrafficLogSettingsList: unknown[] } } } }
    expect(pushed.config.settings.trafficLog.apiProxyTrafficLogSettingsList).toEqual([
      {
        ...expected,
        connectorSettingsMap: { 'Production Elasticsearch': UPDATE_EXAMPLE.connectorSettingsMap['Production Elasticsearch'] },
        methodOverrideList: [{ ...expected.methodOverrideList[0], httpMethod: 'GET', path: '/pets' }],
      },
    ])
    const read = await call('GET', `${BASE}/production/`, bed.frank)
    expect(read.body).toEqual({ status: 'SUCCESS', success: true, resultList: [expected], resultCount: 1 })
    // stored by the connection's id, so a rename keeps it
    const connection = await bed.svc.deps.prisma.connection.findFirstOrThrow({ where: { name: 'Production Elasticsearch' } })
    expect(JSON.stringify((await stored()).settings)).toContain(connection.id)
  })

  it("saves the settings page's examples on an environment where the proxy does not run (nothing pushed), and the list shows both", async () => {
    const before = pushes()
    const res = await call('PUT', `${BASE}/staging/`, bed.erin, SETTINGS_PAGE_EXAMPLE)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.deploymentResult).toBeUndefined()
    expect(res.body.resultList[0]).toMatchObject({ environmentName: 'staging', logParamRequestToTarget: true, connectorSettingsMap: SETTINGS_PAGE_EXAMPLE.connectorSettingsMap })
    expect(res.body.resultList[0].methodOverrideList).toBeUndefined()
    expect(pushes()).toBe(before)
    const minimal = await call('PUT', `${BASE}/dev/`, bed.erin, { connectorSettingsMap: { 'my-elasticsearch-connection': { enabled: true, ...PRIVACY } } })
    expect(minimal.status, JSON.stringify(minimal.body)).toBe(200)
    expect(minimal.body.resultList[0].connectorSettingsMap['my-elasticsearch-connection'].privacyDefinitionList[0]).toEqual({ enabled: true, patternType: 'BUILTIN', builtInPiiType: 'TCKN', operation: 'MASK', maskMode: 'FIXED', maskPattern: '***', maskVisibleCharCount: 4 })
    // a legacy connector-type key is accepted as before
    const legacyKey = await call('PUT', `${BASE}/dev/`, bed.erin, { logBodyResponseToClient: false, connectorSettingsMap: { ELASTICSEARCH_INDEX: { enabled: true } } })
    expect(legacyKey.body.resultList[0]).toMatchObject({ logBodyResponseToClient: false, logBodyRequestFromClient: true, connectorSettingsMap: { ELASTICSEARCH_INDEX: { enabled: true } } })
    const all = await call('GET', `${BASE}/`, bed.frank)
    expect(all.body.resultList.map((i: { environmentName: string }) => i.environmentName)).toEqual(['production', 'staging', 'dev'])
  })

  it('method-level overrides: the page example by methodName, replaced, deleted (the entry goes with its last override), a second delete is a no-op', async () => {
    const override = { enabled: true, logBodyRequestFromClient: false, logBodyResponseFromTarget: true, enableBodyFromClientSize: true, sizeBodyFromClient: 512 }
    const path = `${BASE}/production/connectors/ELASTICSEARCH_INDEX/methodOverride/?methodName=/pets/{petId}`
    const put = await call('PUT', path, bed.gina, override)
    expect(put.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    let read = (await call('GET', `${BASE}/production/`, bed.frank)).body.resultList[0]
    expect(read.methodOverrideList).toHaveLength(2)
    expect(read.methodOverrideList[1]).toEqual({ apiMethodId: expect.any(String), apiMethodName: '/pets/{petId}', connectorSettingsMap: { ELASTICSEARCH_INDEX: override } })
    await call('PUT', path, bed.gina, { enabled: false })
    read = (await call('GET', `${BASE}/production/`, bed.frank)).body.resultList[0]
    expect(read.methodOverrideList[1].connectorSettingsMap).toEqual({ ELASTICSEARCH_INDEX: { enabled: false } })
    const audits = await bed.svc.deps.prisma.auditEvent.count()
    const del = await call('DELETE', path, bed.gina)
    expect(del.body).toMatchObject({ status: 'SUCCESS' })
    expect(await bed.svc.deps.prisma.auditEvent.count()).toBe(audits + 1)
    read = (await call('GET', `${BASE}/production/`, bed.frank)).body.resultList[0]
    expect(read.methodOverrideList).toHaveLength(1)
    const revision = (await stored()).revision
    const pushesBefore = pushes()
    const again = await call('DELETE', path, bed.gina)
    expect(again.body).toEqual({ status: 'SUCCESS', success: true })
    expect((await stored()).revision).toBe(revision)
    expect(pushes()).toBe(pushesBefore)
    expect(await bed.svc.deps.prisma.auditEvent.count()).toBe(audits + 1)
  })

  it('the traffic-log settings page keeps the connector maps of the environments it lists', async () => {
    const res = await call('PATCH', 'Pets/settings/traffic-log/', bed.erin, { apiProxyTrafficLogSettingsList: [{ environmentName: 'production', logBodyResponseToClient: false }] })
    expect(res.body).toMatchObject({ status: 'SUCCESS' })
    const read = (await call('GET', `${BASE}/production/`, bed.frank)).body.resultList[0]
    expect(read).toMatchObject({ logBodyResponseToClient: false, connectorSettingsMap: { 'Production Elasticsearch': { enabled: true } } })
    expect(read.methodOverrideList).toHaveLength(1)
  })

  it('the GraphQL twin reads and writes through the same service', async () => {
    const { body } = await bed.svc.graphql(
      `mutation { saveApiProxyTrafficLogSettings(projectName: "payments", apiProxyName: "Pets", environmentName: "staging", input: { logBodyRequestToTarget: false }) }`, {}, bed.erin,
    )
    expect(body.errors).toBeUndefined()
    // staging was dropped by the settings page's list above (it replaces the list): created again, every other flag true
    expect(body.data.saveApiProxyTrafficLogSettings.settings).toMatchObject({ environmentName: 'staging', logBodyRequestToTarget: false, logBodyRequestFromClient: true, connectorSettingsMap: {} })
    const read = await bed.svc.graphql(`{ apiProxyTrafficLogSettings(projectName: "payments", apiProxyName: "Pets", environmentName: "staging") }`, {}, bed.frank)
    expect(read.body.data.apiProxyTrafficLogSettings[0]).toMatchObject({ logBodyRequestToTarget: false })
    const refused = await bed.svc.graphql(
      `mutation { setApiProxyTrafficLogMethodOverride(projectName: "payments", apiProxyName: "Pets", environmentName: "staging", connectorType: "NOPE", methodName: "/pets", input: {}) }`, {}, bed.erin,
    )
    expect(refused.body.errors?.[0].message).toMatch(/^Invalid connectorType: NOPE/)
  })

  it('refuses, writing and pushing nothing', async () => {
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.frank, UPDATE_EXAMPLE), /API_MANAGEMENT/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.bob, UPDATE_EXAMPLE), /./)
    await expectRefused(() => call('GET', `${BASE}/`, bed.bob), /./)
    await expectRefused(() => call('PUT', 'Nope/trafficLogSettings/production/', bed.erin, {}), 'ApiProxy (name: Nope) was not found!')
    await expectRefused(() => call('PUT', `${BASE}/prod-x/`, bed.erin, {}), 'Environment (prod-x) is not found!')
    await expectRefused(() => call('GET', `${BASE}/prod-x/`, bed.frank), 'Environment (prod-x) is not found!')
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { connectorSettingsMap: { 'non-existent-connection': { enabled: true } } }), "connectorSettingsMap.non-existent-connection: Connection with name 'non-existent-connection' not found in the environment!")
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { connectorSettingsMap: { mailer: { enabled: true } } }), /Connection with name 'mailer' not found/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, UPDATE_EXAMPLE), 'methodOverrideList[0].apiMethodId: Method (method-uuid-123) is not found in ApiProxy!')
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { methodOverrideList: [{ apiMethodName: '/nope' }] }), 'methodOverrideList[0].apiMethodName: Method (/nope) is not found in ApiProxy!')
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { methodOverrideList: [{ apiMethodName: '/pets' }, { apiMethodId: petsGet }] }), /^methodOverrideList\[1\]: method '\/pets' is listed twice/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { logBodyRequestFromClient: 'yes' }), /^logBodyRequestFromClient: must be true or false/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { enableDatabaseConnector: true }), /enableDatabaseConnector/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { connectorSettingsMap: { ELASTICSEARCH_INDEX: { sizeBodyFromClient: 0 } } }), /^connectorSettingsMap\.ELASTICSEARCH_INDEX\.sizeBodyFromClient: must be at least 1/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { connectorSettingsMap: { ELASTICSEARCH_INDEX: { privacyDefinitionList: [{ operation: 'MASK', patternType: 'REGEX' }] } } }), /privacyDefinitionList\.0\.regexPattern: is required when patternType is REGEX|privacyDefinitionList\[0\]\.regexPattern: is required when patternType is REGEX/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, { connectorSettingsMap: { ELASTICSEARCH_INDEX: { privacyDefinitionList: [{ operation: 'MASK', patternType: 'REGEX', regexPattern: '([a-z' }] } } }), /regexPattern: is not a valid regular expression/)
    await expectRefused(() => call('PUT', `${BASE}/production/`, bed.erin, [1]), /must be a JSON object/)
    const method = (env: string, type: string, q: string) => `${BASE}/${env}/connectors/${type}/methodOverride/${q}`
    await expectRefused(() => call('PUT', method('production', 'FTP_SEND', '?methodName=/pets'), bed.erin, { enabled: true }), /^Invalid connectorType: FTP_SEND/)
    await expectRefused(() => call('PUT', method('production', 'KAFKA_SEND', '?methodName=/nope'), bed.erin, { enabled: true }), 'Method (/nope) is not found in ApiProxy!')
    await expectRefused(() => call('PUT', method('production', 'KAFKA_SEND', ''), bed.erin, { enabled: true }), /^methodName: /)
    await expectRefused(() => call('PUT', method('production', 'KAFKA_SEND', '?methodName=/pets'), bed.erin, { colour: 'red' }), /colour/)
    await expectRefused(() => call('PUT', method('production', 'KAFKA_SEND', '?methodName=/pets'), bed.frank, { enabled: true }), /API_MANAGEMENT/)
    // an environment never saved for another proxy: the settings must be saved first
    await expectLegacyRefusal(() => call('PUT', 'MyAPI/trafficLogSettings/production/connectors/KAFKA_SEND/methodOverride/?methodName=/pets', bed.erin, { enabled: true }), /Method \(\/pets\) is not found|Traffic log settings not found/, { state: stored, pushes })
    await expectRefused(() => call('DELETE', method('production', 'NOPE', '?methodName=/pets'), bed.erin), /^Invalid connectorType: NOPE/)
    await expectRefused(() => call('DELETE', method('production', 'KAFKA_SEND', '?methodName=/pets'), bed.frank), /API_MANAGEMENT/)
  })
})
