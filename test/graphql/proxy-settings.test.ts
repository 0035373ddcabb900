import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { automationBootstrap, legacy, PETSTORE } from '../apiproxies/automation-proxy-support.js'
import { SETTING_PAGES } from '../../src/modules/apiproxies/settings/service.js'
import { settingsInputName, settingsMutationName } from '../../src/modules/apiproxies/settings/graphql.js'

// Each settings page of an API proxy is its own GraphQL mutation with its own input type, generated from the zod
// schema the REST page validates with (issue 30 §1): the same body stores the same settings through both doors,
// and a body one door refuses the other refuses with the same message, writing nothing.

// erin: API_MANAGEMENT MANAGE; frank: VIEW; gina: MANAGE, DEPLOY_UNDEPLOY, EXPORT_IMPORT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: automationBootstrap, tokens: { erin: 'erin-pass-1', frank: 'frank-pass-1', gina: 'gina-pass-1' } })

const rest = (method: string, path: string, token: string, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, token, body)
const stored = (name: string) => bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name } })
const pushes = () => bed.dev.received.length + bed.prod.received.length

beforeAll(async () => {
  for (const [name, path] of [['ViaGraphql', '/via-graphql'], ['ViaRest', '/via-rest']] as const) {
    const form = new FormData()
    form.append('metadata', JSON.stringify({ apiProxyName: name, apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: [path] }, deploy: false }))
    form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
    const created = await rest('POST', 'file/', bed.gina, form)
    if (created.status !== 200) throw new Error(JSON.stringify(created.body))
  }
})

const CORS = { name: 'CORS Settings', corsActive: true, allowOriginList: ['https://example.com'], allowMethodList: ['GET', 'POST'], allowHeaderList: ['Content-Type'], exposeHeaderList: ['X-Custom-Header'], allowCredentials: 'true', maxAge: 7200 }
const CIRCUIT = { circuitBreakerEnabled: true, errorWindow: 120, enumErrorThresholdType: 'PERCENT', errorThresholdValue: 50 }

const typed = (page: string) =>
  `mutation ($p: String!, $a: String!, $input: ${settingsInputName(page)}!) { ${settingsMutationName(page)}(projectName: $p, apiProxyName: $a, input: $input) }`

describe('typed settings mutations', () => {
  it('exist for every settings page of the REST route table, each with its own input type', async () => {
    const { body } = await bed.svc.graphql('{ __schema { mutationType { fields(includeDeprecated: true) { name isDeprecated args { name type { ofType { name kind } } } } } } }', {}, bed.frank)
    const fields = new Map<string, any>(body.data.__schema.mutationType.fields.map((f: any) => [f.name, f]))
    for (const page of Object.keys(SETTING_PAGES)) {
      const field = fields.get(settingsMutationName(page))
      expect(field, page).toBeDefined()
      expect(field.args.find((a: any) => a.name === 'input').type.ofType).toEqual({ name: settingsInputName(page), kind: 'INPUT_OBJECT' })
    }
    expect(Object.keys(SETTING_PAGES)).toHaveLength(16)
    expect(fields.get('updateApiProxyHideSpecFileSettings')).toBeDefined()
    expect(fields.get('updateApiProxySettings').isDeprecated).toBe(true)
  })

  it('store what the REST page stores for the same body', async () => {
    for (const [page, body, section] of [['cors', CORS, 'cors'], ['circuit-breaker', CIRCUIT, 'circuitBreaker']] as const) {
      const answer = await bed.svc.graphql(typed(page), { p: 'payments', a: 'ViaGraphql', input: body }, bed.erin)
      expect(answer.body).toEqual({ data: { [settingsMutationName(page)]: true } })
      expect((await rest('PATCH', `ViaRest/settings/${page}/`, bed.erin, body)).body).toEqual({ status: 'SUCCESS', success: true })
      const [viaGraphql, viaRest] = [(await stored('ViaGraphql')).settings as any, (await stored('ViaRest')).settings as any]
      expect(viaGraphql[section]).toEqual(viaRest[section])
      expect(viaGraphql[section]).toMatchObject(body)
    }
    const hide = await bed.svc.graphql('mutation { updateApiProxyHideSpecFileSettings(projectName: "payments", apiProxyName: "ViaGraphql", hideSpecFile: true) }', {}, bed.erin)
    expect(hide.body).toEqual({ data: { updateApiProxyHideSpecFileSettings: true } })
    expect((await rest('GET', 'ViaGraphql/', bed.frank)).body).toMatchObject({ hideSpecFile: true })
    expect(pushes()).toBe(0)
  })

  it('refuse what the REST page refuses, with the same message, writing nothing', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['cors', { ...CORS, allowOriginList: ['*'] }, /^allowOriginList: '\*' can not be used with allowCredentials "true"/],
      ['cors', { ...CORS, allowOriginList: ['https://example.com/path'] }, /^allowOriginList\[0\]: must be '\*' or an origin/],
      ['circuit-breaker', { ...CIRCUIT, errorThresholdValue: 150 }, /errorThresholdValue/],
    ]
    for (const [page, body, message] of cases) {
      const before = await stored('ViaGraphql')
      const viaRest = await rest('PATCH', `ViaGraphql/settings/${page}/`, bed.erin, body)
      expect(viaRest.body.resultMessage).toMatch(message)
      const viaGraphql = await bed.svc.graphql(typed(page), { p: 'payments', a: 'ViaGraphql', input: body }, bed.erin)
      expect(viaGraphql.body.data).toBeNull()
      expect(viaGraphql.body.errors![0].message).toBe(viaRest.body.resultMessage)
      expect(viaGraphql.body.errors![0].extensions.errorKey).toBe('malformedRequest')
      const after = await stored('ViaGraphql')
      expect([after.revision, JSON.stringify(after.settings)]).toEqual([before.revision, JSON.stringify(before.settings)])
    }
  })

  it('refuse a value of the wrong GraphQL type before the service, and a caller without MANAGE', async () => {
    const before = await stored('ViaGraphql')
    const wrongType = await bed.svc.graphql(typed('cors'), { p: 'payments', a: 'ViaGraphql', input: { ...CORS, maxAge: 'long' } }, bed.erin)
    expect(wrongType.body.errors![0].message).toMatch(/maxAge/)
    const missing = await bed.svc.graphql(typed('cors'), { p: 'payments', a: 'ViaGraphql', input: { corsActive: true } }, bed.erin)
    expect(missing.body.errors![0].message).toMatch(/name/)
    const viewer = await bed.svc.graphql(typed('cors'), { p: 'payments', a: 'ViaGraphql', input: CORS }, bed.frank)
    expect(viewer.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied', params: { category: 'API_MANAGEMENT', level: 'MANAGE' } })
    const unknown = await bed.svc.graphql(typed('cors'), { p: 'payments', a: 'Nope', input: CORS }, bed.erin)
    expect(unknown.body.errors![0].extensions.errorKey).toBe('resourceNotFound')
    const after = await stored('ViaGraphql')
    expect([after.revision, JSON.stringify(after.settings)]).toEqual([before.revision, JSON.stringify(before.settings)])
  })
})
