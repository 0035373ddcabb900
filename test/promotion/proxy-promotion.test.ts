import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { expectLegacyRefusal, type LegacyAnswer } from '../support/refusals.js'
import { automationBootstrap, legacy, PETSTORE } from '../apiproxies/automation-proxy-support.js'

// Promotion of API proxies and groups between projects of one installation (vendor api-reference/api-proxies/promotion,
// the ApiProxyGroup promotion operations of its openapi.yaml), on the transfer engine: source `payments`, target `other`.

const NTLM = 'ntlm-promotion-pass-1'
const WS = 'ws-promotion-pass-2'

function bootstrap(workers: { dev: string[]; prod: string[] }) {
  const doc = automationBootstrap(workers)
  // other (environment dev): gina MANAGE and DEPLOY_UNDEPLOY, erin MANAGE only, frank VIEW
  doc.projects[1]!.members = [
    { username: 'gina', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }, { category: 'API_MANAGEMENT', level: 'DEPLOY_UNDEPLOY' }] },
    { username: 'erin', permissions: [{ category: 'API_MANAGEMENT', level: 'MANAGE' }] },
    { username: 'frank', permissions: [{ category: 'API_MANAGEMENT', level: 'VIEW' }] },
  ]
  return doc
}

// gina: MANAGE, DEPLOY_UNDEPLOY; erin: MANAGE; frank: VIEW; bob: no API_MANAGEMENT
const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap, tokens: { gina: 'gina-pass-1', erin: 'erin-pass-1', frank: 'frank-pass-1', bob: 'bob-pass-1' } })

const pushes = () => bed.dev.received.length + bed.prod.received.length
const state = async () => JSON.stringify(await bed.svc.deps.prisma.apiProxy.findMany({
  orderBy: [{ projectId: 'asc' }, { name: 'asc' }],
  include: { endpoints: { orderBy: [{ path: 'asc' }, { method: 'asc' }] }, policies: { orderBy: { name: 'asc' } }, deployments: true, groups: true },
})) + JSON.stringify(await bed.svc.deps.prisma.apiProxyGroup.findMany({ orderBy: { name: 'asc' } }))
const expectRefused = (call: () => Promise<LegacyAnswer>, message: RegExp) => expectLegacyRefusal(call, message, { state, pushes })

const forPromotion = (project: string, token: string) => legacy(bed.svc, 'GET', `${project}/apiProxies/forpromotion`, token)
const promote = (project: string, token: string, body: unknown, query = '') => legacy(bed.svc, 'PUT', `${project}/apiProxies/promotion${query}`, token, body)
const envId = async (name: string) => (await bed.svc.deps.prisma.environment.findUniqueOrThrow({ where: { name } })).id
const proxyIn = (project: string, name: string) => bed.svc.deps.prisma.apiProxy.findFirstOrThrow({ where: { name, project: { name: project } }, include: { endpoints: true, policies: true, deployments: true } })

/** The page's example body of Save API Proxy for Promotion. */
const VENDOR_EXAMPLE = {
  name: 'petstore-api',
  description: 'Petstore reverse proxy',
  type: 'REVERSE_PROXY',
  clientRoute: { relativePathList: ['/petstore'] },
  routing: { apiRoutingList: [{ url: 'https://petstore.example.com/v2' }] },
}

beforeAll(async () => {
  const form = new FormData()
  form.append('metadata', JSON.stringify({ apiProxyName: 'MyAPI', apiProxyDescription: 'Pets', apiProxyCreationType: 'OPEN_API', clientRoute: { relativePathList: ['/my-api'] }, routingInfo: { routingAddressList: [{ address: 'https://backend.example.com' }] } }))
  form.append('specFile', new Blob([JSON.stringify(PETSTORE)]), 'openapi.json')
  const call = (method: string, path: string, body?: unknown) => legacy(bed.svc, method, `payments/apiProxies/${path}`, bed.gina, body)
  const steps = [
    await call('POST', 'file/', form),
    await call('PATCH', 'MyAPI/settings/ntlm/', { enabled: true, domain: 'CORP', username: 'svc', password: NTLM }),
    await call('POST', 'MyAPI/policies/ws-user/', { operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: false }, policy: { type: 'policy-ws-security-username', username: 'soap-user', passwordType: 'PasswordText', password: WS } }),
    await call('POST', 'MyAPI/environments/dev/'),
    await legacy(bed.svc, 'POST', 'payments/apiProxyGroups/', bed.gina, { name: 'PetGroup', description: 'Pets', clientRoute: { relativePathList: ['/pet-group'] } }),
    await legacy(bed.svc, 'POST', 'payments/apiProxyGroups/PetGroup/apiProxies/MyAPI/', bed.gina),
  ]
  for (const step of steps) if (step.status !== 200) throw new Error(JSON.stringify(step.body))
})

describe('GET …/apiProxies/forpromotion', () => {
  it('lists every proxy with the vendor fields, the source deployments and the transfer object; no secret in clear', async () => {
    const res = await forPromotion('payments', bed.frank)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultCount: 2 })
    const entry = res.body.resultList.find((p: any) => p.name === 'MyAPI')
    const dev = await envId('dev')
    expect(entry).toMatchObject({
      id: expect.any(String), name: 'MyAPI', description: 'Pets', type: 'REST', enumProxyCreationType: 'OPEN_API', protocolTransformation: false, relativePath: '/my-api',
      clientRoute: { relativePathList: ['/my-api'] },
      routing: { routingAddressList: [expect.objectContaining({ address: 'https://backend.example.com' })], apiRoutingList: [{ url: 'https://backend.example.com' }] },
      categoryList: [],
      apiProxyDeployList: [
        { environmentSettingsId: dev, environmentName: 'dev', accessUrl: null, deploy: true, redeployRequired: false },
        { environmentSettingsId: await envId('prod'), environmentName: 'prod', accessUrl: null, deploy: false, redeployRequired: false },
      ],
      transfer: { formatVersion: 1, role: 'SELECTED', type: 'API_PROXY', kind: null, name: 'MyAPI', data: { kind: 'REST', relativePath: '/my-api' } },
    })
    expect(entry.transfer.data.endpoints).toHaveLength(3)
    expect(Object.keys(entry.transfer.secrets).sort()).toEqual(['policies/ws-user/password', 'settings/ntlm.password'])
    expect(entry.transfer.secrets['settings/ntlm.password']).toEqual({ handling: 'CIPHERTEXT_VERBATIM', value: expect.stringMatching(/^v1\./) })
    for (const clear of [NTLM, WS]) expect(res.raw).not.toContain(clear)
  })

  it('a group\'s proxies (…/apiProxyGroups/{group}/proxies/forpromotion) are the same entries', async () => {
    const all = await forPromotion('payments', bed.frank)
    const res = await legacy(bed.svc, 'GET', 'payments/apiProxyGroups/PetGroup/proxies/forpromotion', bed.frank)
    expect(res.status, res.raw).toBe(200)
    expect(res.body.resultList.map((p: any) => p.name)).toEqual(['MyAPI'])
    expect(res.body.resultList[0].transfer.data).toEqual(all.body.resultList.find((p: any) => p.name === 'MyAPI').transfer.data)
  })

  it('is refused to a caller without API_MANAGEMENT VIEW, for an unknown project or group, and without a token', async () => {
    expect((await forPromotion('payments', bed.bob)).body).toMatchObject({ status: 'FAILURE', resultMessage: expect.stringMatching(/lacks permission API_MANAGEMENT VIEW/) })
    expect((await forPromotion('nowhere', bed.gina)).body.resultMessage).toMatch(/Project 'nowhere' not found/)
    const group = await legacy(bed.svc, 'GET', 'payments/apiProxyGroups/Ghost/proxies/forpromotion', bed.frank)
    expect(group.status).toBe(400)
    expect(group.body.resultMessage).toMatch(/API proxy group 'Ghost' not found/)
    expect((await legacy(bed.svc, 'GET', 'payments/apiProxies/forpromotion', null)).status).toBe(401)
  })
})

describe('PUT …/apiProxies/promotion', () => {
  it('accepts the page\'s example: a new proxy in the target, undeployed everywhere, audited', async () => {
    const res = await promote('other', bed.erin, VENDOR_EXAMPLE)
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toMatchObject({
      status: 'SUCCESS', name: 'petstore-api', description: 'Petstore reverse proxy', type: 'REVERSE_PROXY', enumProxyCreationType: 'REVERSE_PROXY', relativePath: '/petstore',
      routing: { apiRoutingList: [{ url: 'https://petstore.example.com/v2' }] },
      apiProxyDeployList: [{ environmentName: 'dev', deploy: false, redeployRequired: false }],
      advisories: [],
    })
    const row = await proxyIn('other', 'petstore-api')
    expect(row).toMatchObject({ kind: 'REST', relativePath: '/petstore', revision: 1, deployments: [] })
    expect(row.settings).toMatchObject({ clientRoute: { relativePathList: ['/petstore'] }, routing: { routingAddressList: [{ address: 'https://petstore.example.com/v2' }] } })
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { operation: 'PUT /apiops/projects/:projectName/apiProxies/promotion' }, orderBy: { id: 'desc' } })
    expect(audit).toMatchObject({ actor: 'erin', projectName: 'other', objectType: 'API_PROXY', objectName: 'petstore-api', outcome: 'SUCCEEDED' })
  })

  it('carries the listed entry through the engine: endpoints, policies and secrets; the source deployments are not applied', async () => {
    const entry = (await forPromotion('payments', bed.gina)).body.resultList.find((p: any) => p.name === 'MyAPI')
    const { id: _sourceId, ...payload } = entry
    const res = await promote('other', bed.gina, payload)
    expect(res.status, res.raw).toBe(200)
    expect(res.body.apiProxyDeployList).toEqual([{ environmentSettingsId: await envId('dev'), environmentName: 'dev', accessUrl: null, deploy: false, redeployRequired: false }])
    expect(res.body.transfer.data).toEqual(entry.transfer.data)
    const [source, target] = [await proxyIn('payments', 'MyAPI'), await proxyIn('other', 'MyAPI')]
    expect(target.endpoints.map((e) => `${e.method} ${e.path}`).sort()).toEqual(source.endpoints.map((e) => `${e.method} ${e.path}`).sort())
    expect(target.policies.map((p) => p.name)).toEqual(['ws-user'])
    const open = (v: unknown) => bed.svc.deps.keyring.decrypt(v as string)
    expect(open((target.settings as any).ntlm.password)).toBe(NTLM)
    expect(open((target.policies[0]!.config as any).password)).toBe(WS)
    expect(target.deployments).toEqual([])
  })

  it('overwrites the target proxy named by id: its deployments kept (redeploy required), then deploys to deployEnvironmentIds', async () => {
    const target = await proxyIn('other', 'MyAPI')
    expect((await legacy(bed.svc, 'POST', 'other/apiProxies/MyAPI/environments/dev/', bed.gina)).status).toBe(200)
    const before = bed.dev.received.length
    const changed = await promote('other', bed.erin, { id: target.id, name: 'MyAPI', description: 'Pets v2', categoryList: ['public'] })
    expect(changed.status, changed.raw).toBe(200)
    expect(changed.body).toMatchObject({ id: target.id, description: 'Pets v2', categoryList: ['public'], apiProxyDeployList: [{ environmentName: 'dev', deploy: true, redeployRequired: true }] })
    expect(bed.dev.received.length).toBe(before)
    const updated = await proxyIn('other', 'MyAPI')
    expect(updated.endpoints).toHaveLength(3)
    expect(bed.svc.deps.keyring.decrypt((updated.settings as any).ntlm.password)).toBe(NTLM)

    const dev = await envId('dev')
    const deployed = await promote('other', bed.gina, { id: target.id, name: 'MyAPI', description: 'Pets v3' }, `?deployEnvironmentIds=${dev},not-an-environment`)
    expect(deployed.status, deployed.raw).toBe(200)
    expect(deployed.body).toMatchObject({
      description: 'Pets v3',
      apiProxyDeployList: [{ environmentName: 'dev', deploy: true, redeployRequired: false }],
      deploymentResult: { success: true },
      advisories: [{ level: 'WARNING', key: 'promotion.environmentSkipped', params: { environmentIds: ['not-an-environment'] } }],
    })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', project: 'other', kind: 'API_PROXY', name: 'MyAPI' })
  })

  it('refuses every cause before writing; nothing written, nothing pushed', async () => {
    const target = await proxyIn('other', 'MyAPI')
    const dev = await envId('dev')
    await expectRefused(() => promote('other', bed.frank, VENDOR_EXAMPLE), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => promote('other', bed.bob, { not: 'even valid' }), /Project 'other' not found|lacks permission/)
    await expectRefused(() => promote('other', bed.erin, { ...VENDOR_EXAMPLE, name: 'fresh' }, `?deployEnvironmentIds=${dev}`), /lacks permission API_MANAGEMENT DEPLOY_UNDEPLOY/)
    await expectRefused(() => promote('nowhere', bed.gina, VENDOR_EXAMPLE), /Project 'nowhere' not found/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, name: 'PETSTORE-API' }), /API proxy 'petstore-api' already exists in project 'other'/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, id: 'no-such-id' }), /^id: API proxy 'no-such-id' not found/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, id: target.id }), /^name: the target proxy with id '.*' is named 'MyAPI'; a promotion does not rename/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, name: 'ai-one', type: 'AI' }), /^type: AI proxies are not promoted/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, name: '' }), /^name: /)
    await expectRefused(() => promote('other', bed.gina, { name: 'no-route' }), /^clientRoute: is required to create an API proxy/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, name: 'bad-route', clientRoute: { relativePathList: [] } }), /^clientRoute.relativePathList: needs at least one relative path/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, name: 'bad-url', routing: { apiRoutingList: [{ url: 'ftp://x' }] } }), /^routing\.routingAddressList\[0\]\.address: must be an absolute http\(s\) URL/)
    await expectRefused(() => promote('other', bed.gina, { ...VENDOR_EXAMPLE, name: 'taken-path', clientRoute: { relativePathList: ['/my-api'] } }), /relative path '\/my-api' is already that of API proxy 'MyAPI'/)
    const entry = (await forPromotion('payments', bed.gina)).body.resultList.find((p: any) => p.name === 'MyAPI')
    await expectRefused(() => promote('other', bed.gina, { name: 'wrong-type', transfer: { ...entry.transfer, type: 'CONNECTION' } }), /^transfer.type: must be API_PROXY/)
    await expectRefused(() => promote('other', bed.gina, { name: 'bad-data', transfer: { ...entry.transfer, data: { ...entry.transfer.data, endpoints: 'x' } } }), /endpoints/)
    await expectRefused(() => promote('other', bed.gina, VENDOR_EXAMPLE, '?deployEnvironmentIds=' + Array.from({ length: 101 }, (_, i) => `env-${i}`).join(',')), /^deployEnvironmentIds: at most 100 environments/)
    await expectRefused(() => legacy(bed.svc, 'PUT', 'other/apiProxies/promotion', bed.gina), /body/i)
  })
})

describe('PUT …/apiProxyGroups/promotion', () => {
  it('creates the group in the target, then updates it by name; refusals write nothing', async () => {
    const group = (await legacy(bed.svc, 'GET', 'payments/apiProxyGroups/', bed.frank)).body.resultList.find((g: any) => g.name === 'PetGroup')
    const source = await bed.svc.deps.prisma.apiProxyGroup.findFirstOrThrow({ where: { name: 'PetGroup' } })
    const created = await legacy(bed.svc, 'PUT', 'other/apiProxyGroups/promotion', bed.erin, { name: group.name, description: group.description, clientRoute: source.clientRoute })
    expect(created.status, created.raw).toBe(200)
    expect(created.body).toMatchObject({ status: 'SUCCESS', name: 'PetGroup', description: 'Pets', clientRoute: { relativePathList: ['/pet-group'] }, created: true })
    const updated = await legacy(bed.svc, 'PUT', 'other/apiProxyGroups/promotion', bed.erin, { name: 'petgroup', description: 'Pets again', clientRoute: { relativePathList: ['/pets-2'] } })
    expect(updated.body).toMatchObject({ id: created.body.id, name: 'PetGroup', description: 'Pets again', created: false })
    expect(await bed.svc.deps.prisma.apiProxyGroup.count({ where: { project: { name: 'other' } } })).toBe(1)
    const audit = await bed.svc.deps.prisma.auditEvent.findFirst({ where: { operation: 'PUT /apiops/projects/:projectName/apiProxyGroups/promotion' }, orderBy: { id: 'desc' } })
    expect(audit).toMatchObject({ actor: 'erin', projectName: 'other', objectType: 'API_PROXY_GROUP', objectName: 'petgroup' })

    await expectRefused(() => legacy(bed.svc, 'PUT', 'other/apiProxyGroups/promotion', bed.frank, { name: 'G2', clientRoute: { relativePathList: ['/g2'] } }), /lacks permission API_MANAGEMENT MANAGE/)
    await expectRefused(() => legacy(bed.svc, 'PUT', 'other/apiProxyGroups/promotion', bed.erin, { name: 'G2' }), /^clientRoute:/)
    await expectRefused(() => legacy(bed.svc, 'PUT', 'other/apiProxyGroups/promotion', bed.erin, { name: '', clientRoute: { relativePathList: ['/g2'] } }), /^name: must not be blank/)
  })
})

describe('GraphQL twins', () => {
  it('apiProxiesForPromotion and promoteApiProxy answer as the REST doors', async () => {
    const rest = await forPromotion('payments', bed.frank)
    const q = await bed.svc.graphql('query($p: String!) { apiProxiesForPromotion(projectName: $p) { id name type relativePath apiProxyDeployList { environmentName deploy } transfer } }', { p: 'payments' }, bed.frank)
    expect(q.body.errors).toBeUndefined()
    expect(q.body.data.apiProxiesForPromotion.map((e: any) => e.name)).toEqual(rest.body.resultList.map((e: any) => e.name))
    expect(q.body.data.apiProxiesForPromotion.find((e: any) => e.name === 'MyAPI').transfer.data).toEqual(rest.body.resultList.find((e: any) => e.name === 'MyAPI').transfer.data)

    const m = await bed.svc.graphql('mutation($p: String!, $i: JSON!) { promoteApiProxy(projectName: $p, input: $i) { apiProxy { name relativePath apiProxyDeployList { deploy } } advisories { key } deploymentResult { success } } }',
      { p: 'other', i: { ...VENDOR_EXAMPLE, name: 'gql-petstore', clientRoute: { relativePathList: ['/gql-petstore'] } } }, bed.gina)
    expect(m.body.errors).toBeUndefined()
    expect(m.body.data.promoteApiProxy).toEqual({ apiProxy: { name: 'gql-petstore', relativePath: '/gql-petstore', apiProxyDeployList: [{ deploy: false }] }, advisories: [], deploymentResult: null })
    const before = await state()
    const refused = await bed.svc.graphql('mutation($p: String!, $i: JSON!) { promoteApiProxy(projectName: $p, input: $i) { apiProxy { name } } }', { p: 'other', i: VENDOR_EXAMPLE }, bed.frank)
    expect(refused.body.errors![0].extensions).toMatchObject({ errorKey: 'permissionDenied' })
    expect(await state()).toBe(before)

    const g = await bed.svc.graphql('mutation($p: String!, $i: JSON!) { promoteApiProxyGroup(projectName: $p, input: $i) { name created } }', { p: 'other', i: { name: 'GqlGroup', clientRoute: { relativePathList: ['/gql-group'] } } }, bed.gina)
    expect(g.body.data.promoteApiProxyGroup).toEqual({ name: 'GqlGroup', created: true })
    const gp = await bed.svc.graphql('query { apiProxyGroupProxiesForPromotion(projectName: "payments", groupName: "PetGroup") { name } }', {}, bed.frank)
    expect(gp.body.data.apiProxyGroupProxiesForPromotion).toEqual([{ name: 'MyAPI' }])
  })
})
