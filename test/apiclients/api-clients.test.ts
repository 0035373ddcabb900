import { beforeAll, describe, expect, it } from 'vitest'
import { sampleBootstrap } from '../support/fixtures.js'
import { useTestbed } from '../support/testbed.js'
import { jsonOf } from '../support/http.js'

// The API client manager surface (spec §2.5, §2.6, §4.11): writes, their envelopes, lifecycle refusals,
// secrets shown once, permissions, the token endpoint, and the same writes through GraphQL.

/** sampleBootstrap plus erin, who may manage identities in the project `other` only */
function erinInOther(workers: { dev: string[]; prod: string[] }) {
  const bootstrap = sampleBootstrap(workers)
  bootstrap.users.push({ username: 'erin', password: 'erin-pass-1' })
  ;(bootstrap.projects[1] as { members?: unknown[] }).members = [{ username: 'erin', permissions: [{ category: 'IDENTITY', level: 'MANAGE' }] }]
  return bootstrap
}
const bed = useTestbed({
  workers: ['dev'],
  bootstrap: erinInOther,
  tokens: { root: 's3cret-root', alice: 'alice-pass-1', bob: 'bob-pass-1', carol: 'carol-pass-1', erin: 'erin-pass-1' },
})
let appKey: string
let seq = 0

const IN_SYNC = { state: 'IN_SYNC', environments: [{ name: 'dev', acknowledged: true }, { name: 'prod', acknowledged: true }] }
const DEGRADED = { state: 'DEGRADED', environments: [{ name: 'dev', acknowledged: false, detail: expect.stringContaining('HTTP 500') }, { name: 'prod', acknowledged: true }] }

function api(path: string, token: string, method = 'GET', body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  return bed.svc.http(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
}
const create = (body: object, token = bed.alice) => api('/api/api-clients', token, 'POST', body)
const act = (key: string, action: string, token = bed.alice) => api(`/api/api-clients/${key}/actions/${action}`, token, 'POST')
const patch = (key: string, body: object, token = bed.alice) => api(`/api/api-clients/${key}`, token, 'PATCH', body)

async function newClient(extra: object = {}) {
  const res = await create({ projectName: 'payments', name: `client-${++seq}`, applicationKey: appKey, ...extra })
  expect(res.status).toBe(200)
  return jsonOf(res)
}

const stored = (apiClientKey: string) => bed.svc.deps.prisma.apiClient.findUniqueOrThrow({ where: { apiClientKey }, include: { secrets: { orderBy: { version: 'asc' } } } })

beforeAll(async () => {
  appKey = (await bed.svc.deps.prisma.application.findFirstOrThrow({ where: { name: 'checkout' } })).applicationKey
})

describe('POST /api/api-clients', () => {
  it('creates a DRAFT client of an application, shows its sealed secret once and pushes it everywhere', async () => {
    const body = await newClient({ clientId: 'created-web', validFrom: '2030-01-01T00:00:00.000Z', tokenNeverExpires: true })
    expect(body.runtimeDeployment).toEqual(IN_SYNC)
    expect(body.runtimeDeployment).not.toHaveProperty('revision')
    expect(body.clientSecret).toMatch(/^acs_[A-Za-z0-9_-]{40,}$/)
    expect(body.apiClient).toMatchObject({
      clientId: 'created-web', operationalState: 'DRAFT', readiness: 'READY', version: 1, projectName: 'payments', applicationKey: appKey,
      consumerKey: null, organizationCode: 'acme', secretVersion: 1, validFrom: '2030-01-01T00:00:00.000Z', tokenNeverExpires: true,
      refreshTokenAllowed: false, jwtSignatureAlgorithm: 'RS256', allowedGrantTypes: [],
    })
    const row = await stored(body.apiClient.apiClientKey)
    expect(row.secrets).toHaveLength(1)
    expect(row.secrets[0].secretCipher).not.toContain(body.clientSecret)
    expect(bed.svc.deps.keyring.decrypt(row.secrets[0].secretCipher)).toBe(body.clientSecret)
    expect(bed.dev.received).toEqual([expect.objectContaining({ action: 'DEPLOY', project: 'payments', kind: 'API_CLIENT', name: 'created-web' })])
    expect(JSON.stringify(bed.dev.received)).not.toContain(body.clientSecret)
  })

  it('creates a client of a consumer, and one without a secret that stays PENDING_SECRET until rotate-secret', async () => {
    const consumer = await newClient({ applicationKey: undefined, consumerUsername: 'shop-frontend' })
    expect(consumer.apiClient).toMatchObject({ applicationKey: null, consumerKey: expect.stringMatching(/^csm_/), organizationCode: 'acme' })

    const bare = await newClient({ issueSecret: false })
    expect(bare).not.toHaveProperty('clientSecret')
    expect(bare.apiClient).toMatchObject({ readiness: 'PENDING_SECRET', secretVersion: null })
    const key = bare.apiClient.apiClientKey
    const refused = await act(key, 'activate')
    expect(refused.status).toBe(409)
    expect(await jsonOf(refused)).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'apiClient.notReady', readiness: 'PENDING_SECRET' } })
    const rotated = await jsonOf(await act(key, 'rotate-secret'))
    expect(rotated.apiClient).toMatchObject({ readiness: 'READY', secretVersion: 1 })
    expect((await jsonOf(await act(key, 'activate'))).apiClient.operationalState).toBe('ACTIVE')
  })

  it('refuses bad bodies, unknown owners and taken client ids with the field named', async () => {
    const base = { projectName: 'payments', name: 'bad' }
    const cases: [object, number, object][] = [
      [base, 400, { errorKey: 'malformedRequest', params: { field: 'applicationKey' } }],
      [{ ...base, applicationKey: appKey, consumerUsername: 'shop-frontend' }, 400, { errorKey: 'malformedRequest' }],
      [{ ...base, applicationKey: appKey, operationalState: 'ACTIVE' }, 400, { errorKey: 'malformedRequest' }],
      [{ ...base, applicationKey: appKey, allowedGrantTypes: ['password'] }, 400, { params: { field: 'allowedGrantTypes[0]' } }],
      [{ ...base, applicationKey: appKey, validFrom: '2030-01-02T00:00:00Z', expiresAt: '2030-01-01T00:00:00Z' }, 400, { params: { field: 'expiresAt' } }],
      [{ ...base, applicationKey: 'app_nope' }, 404, { errorKey: 'resourceNotFound', params: { application: 'app_nope' } }],
      [{ ...base, projectName: 'nope', applicationKey: appKey }, 404, { errorKey: 'resourceNotFound' }],
      [{ ...base, projectName: 'admin', applicationKey: appKey }, 400, { params: { reason: 'platformScopeNotSupported' } }],
      [{ ...base, applicationKey: appKey, clientId: 'checkout-web-id' }, 409, { errorKey: 'nameAlreadyExists', params: { field: 'clientId' } }],
    ]
    const before = await bed.svc.deps.prisma.apiClient.count()
    for (const [body, status, error] of cases) {
      const res = await create(body)
      expect(res.status, JSON.stringify(body)).toBe(status)
      expect(await jsonOf(res)).toMatchObject({ ...error, correlationId: expect.any(String) })
    }
    expect(await bed.svc.deps.prisma.apiClient.count()).toBe(before)
    expect(bed.dev.received).toEqual([])
  })
})

describe('writes on /api/api-clients/{apiClientKey}', () => {
  it('answers every write with the envelope: IN_SYNC when all acknowledge, DEGRADED (stored) when one does not', async () => {
    for (const status of [200, 500]) {
      bed.dev.status = status
      const expected = status === 200 ? IN_SYNC : DEGRADED
      const created = await newClient()
      expect(created.runtimeDeployment).toEqual(expected)
      const key = created.apiClient.apiClientKey
      const steps: [() => Promise<Response>, object][] = [
        [() => patch(key, { name: `renamed-${status}`, expiresAt: '2031-01-01T00:00:00Z', refreshTokenAllowed: true }), { name: `renamed-${status}`, version: 2, refreshTokenAllowed: true }],
        [() => act(key, 'activate'), { operationalState: 'ACTIVE', version: 3 }],
        [() => act(key, 'suspend'), { operationalState: 'SUSPENDED', version: 4 }],
        [() => act(key, 'rotate-secret'), { secretVersion: 2, version: 5 }],
        [() => act(key, 'activate'), { operationalState: 'ACTIVE', version: 6 }],
      ]
      for (const [write, apiClient] of steps) {
        const res = await write()
        expect(res.status).toBe(200)
        const body = await jsonOf(res)
        expect(body.apiClient).toMatchObject(apiClient)
        expect(body.runtimeDeployment).toEqual(expected)
      }
      expect((await stored(key)).operationalState).toBe('ACTIVE')
    }
  })

  it('revokes with 200 IN_SYNC when every environment acknowledges; a revoked client is final', async () => {
    const { apiClient } = await newClient()
    const key = apiClient.apiClientKey
    const res = await act(key, 'revoke')
    expect(res.status).toBe(200)
    expect(res.headers.get('location')).toBeNull()
    const body = await jsonOf(res)
    expect(body.apiClient).toMatchObject({ operationalState: 'REVOKED', secretVersion: null })
    expect(body.runtimeDeployment).toEqual(IN_SYNC)
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', config: { operationalState: 'REVOKED' } })
    bed.dev.received.length = 0
    const version = (await stored(key)).version
    for (const write of [() => act(key, 'revoke'), () => act(key, 'activate'), () => act(key, 'suspend'), () => act(key, 'rotate-secret'), () => patch(key, { name: 'x' })]) {
      const refused = await write()
      expect(refused.status).toBe(409)
      expect(await jsonOf(refused)).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'apiClient.revokedIsFinal', operationalState: 'REVOKED' } })
    }
    expect((await stored(key)).version).toBe(version)
    expect(bed.dev.received).toEqual([])
  })

  it('refuses moves the lifecycle does not allow, changing nothing', async () => {
    const { apiClient } = await newClient()
    const key = apiClient.apiClientKey
    const reason = async (res: Response) => (await jsonOf(res)).params.reason
    expect(await reason(await act(key, 'suspend'))).toBe('apiClient.notActive')
    await act(key, 'activate')
    expect(await reason(await act(key, 'activate'))).toBe('apiClient.alreadyActive')
    await act(key, 'suspend')
    expect(await reason(await act(key, 'suspend'))).toBe('apiClient.alreadySuspended')
    expect((await stored(key)).version).toBe(3)
  })

  it('rotates to a new version, retires the previous one and never shows a secret again', async () => {
    const created = await newClient()
    const key = created.apiClient.apiClientKey
    const rotated = await jsonOf(await act(key, 'rotate-secret'))
    expect(rotated.clientSecret).toMatch(/^acs_/)
    expect(rotated.clientSecret).not.toBe(created.clientSecret)
    const row = await stored(key)
    expect(row.secrets.map((s) => [s.version, s.retiredAt === null])).toEqual([[1, false], [2, true]])
    for (const s of row.secrets) expect(s.secretCipher).toMatch(/^v1\./)

    const reads = [
      await api(`/api/api-clients/${key}`, bed.alice),
      await api(`/api/api-clients/${key}/runtime-deployment`, bed.alice),
      await api(`/apiportal/management/portal/api-clients/get-by-app-id/${appKey}`, bed.alice),
      await patch(key, { name: 'after-rotation' }),
    ]
    const gql = await bed.svc.graphql(`{ apiClient(projectName: "payments", apiClientKey: "${key}") { name materialVersion issuance { jwtSignatureAlgorithm } } }`, undefined, bed.alice)
    const seen = (await Promise.all(reads.map((r) => r.text()))).join('\n') + JSON.stringify(gql.body) + JSON.stringify(bed.dev.received)
    expect(gql.body.data.apiClient).toMatchObject({ materialVersion: 2 })
    for (const secret of [created.clientSecret, rotated.clientSecret]) expect(seen).not.toContain(secret)
    expect(seen).not.toContain('clientSecret')
  })

  it('updates issuance fields (null clears) and refuses a stale version', async () => {
    const { apiClient } = await newClient()
    const key = apiClient.apiClientKey
    const body = await jsonOf(await patch(key, { allowedGrantTypes: ['client_credentials'], tokenExpiresInAmount: 3, tokenExpiresInUnit: 'HOURS', jwtSignatureAlgorithm: 'ES256', version: 1 }))
    expect(body.apiClient).toMatchObject({ allowedGrantTypes: ['client_credentials'], tokenExpiresInAmount: 3, tokenExpiresInUnit: 'HOURS', jwtSignatureAlgorithm: 'ES256', version: 2 })
    const cleared = await jsonOf(await api(`/api/api-clients/${key}`, bed.alice, 'PUT', { jwtSignatureAlgorithm: null, tokenExpiresInAmount: null }))
    expect(cleared.apiClient).toMatchObject({ jwtSignatureAlgorithm: 'RS256', tokenExpiresInAmount: null, tokenExpiresInUnit: 'HOURS' })
    const stale = await patch(key, { name: 'late', version: 1 })
    expect(stale.status).toBe(409)
    expect(await jsonOf(stale)).toMatchObject({ errorKey: 'versionConflict', params: { entity: 'apiClient', expected: 1, current: 3 } })
  })
})

describe('permissions', () => {
  it('needs IDENTITY MANAGE in the client\'s project; a caller who cannot see the project gets 404', async () => {
    const { apiClient } = await newClient()
    const key = apiClient.apiClientKey
    bed.dev.received.length = 0
    for (const write of [(t: string) => act(key, 'activate', t), (t: string) => act(key, 'revoke', t), (t: string) => patch(key, { name: 'x' }, t)]) {
      const denied = await write(bed.carol)
      expect(denied.status).toBe(403)
      expect(await jsonOf(denied)).toMatchObject({ errorKey: 'permissionDenied' })
      const hidden = await write(bed.erin)
      expect(hidden.status).toBe(404)
      expect(await jsonOf(hidden)).toMatchObject({ errorKey: 'resourceNotFound', params: { apiClient: key } })
    }
    const carolCreate = await create({ projectName: 'payments', name: 'by-carol', applicationKey: appKey }, bed.carol)
    expect(carolCreate.status).toBe(403)
    expect((await api(`/api/api-clients/${key}`, bed.carol)).status).toBe(200)
    expect((await api(`/api/api-clients/${key}`, bed.erin)).status).toBe(404)
    expect((await act('acl_unknown', 'activate')).status).toBe(404)
    expect((await bed.svc.http(`/api/api-clients/${key}/actions/activate`, { method: 'POST' })).status).toBe(401)
    expect((await stored(key)).version).toBe(1)
    expect(bed.dev.received).toEqual([])
    // bob holds MANAGE without DEPLOY_UNDEPLOY; API client pushes need MANAGE only
    expect((await jsonOf(await act(key, 'activate', bed.bob))).runtimeDeployment).toEqual(IN_SYNC)
  })
})

describe('POST /apiops/auth/token with an API client', () => {
  const token = (form: Record<string, string>) =>
    bed.svc.http('/apiops/auth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) })

  it('never issues to a client: password grant is unsupported, client_credentials issues no personal token', async () => {
    const { apiClient, clientSecret } = await newClient()
    await act(apiClient.apiClientKey, 'activate')
    const before = await bed.svc.deps.prisma.accessToken.count()
    const password = await token({ grant_type: 'password', client_id: apiClient.clientId, client_secret: clientSecret, username: apiClient.clientId, password: clientSecret })
    expect(password.status).toBe(400)
    expect(await jsonOf(password)).toMatchObject({ error: 'unsupported_grant_type' })
    const credentials = await token({ grant_type: 'client_credentials', client_id: apiClient.clientId, client_secret: clientSecret })
    expect(credentials.status).toBe(401)
    const body = await jsonOf(credentials)
    expect(body).toMatchObject({ error: 'unauthorized_client' })
    expect(body).not.toHaveProperty('access_token')
    expect(await bed.svc.deps.prisma.accessToken.count()).toBe(before)
  })
})

describe('GraphQL', () => {
  const ENVELOPE = 'apiClient { apiClientKey operationalState version materialVersion } clientSecret runtimeDeployment { state revision environments { name acknowledged detail } }'

  it('offers the same writes and outcomes, and the durable read with its revision', async () => {
    const gql = async (query: string, variables: Record<string, unknown>, token = bed.alice) => (await bed.svc.graphql(query, variables, token)).body
    const registered = await gql(`mutation($input: RegisterApiClientInput!) { registerApiClient(input: $input) { ${ENVELOPE} } }`, {
      input: { projectName: 'payments', name: 'from-graphql', applicationKey: appKey, allowedGrantTypes: ['client_credentials'] },
    })
    const w = registered.data.registerApiClient
    expect(w.clientSecret).toMatch(/^acs_/)
    expect(w.runtimeDeployment).toEqual({ state: 'IN_SYNC', revision: null, environments: [{ name: 'dev', acknowledged: true, detail: null }, { name: 'prod', acknowledged: true, detail: null }] })
    const key = w.apiClient.apiClientKey
    const run = (name: string) => gql(`mutation($k: String!) { ${name}(apiClientKey: $k) { ${ENVELOPE} } }`, { k: key })

    expect((await run('activateApiClient')).data.activateApiClient.apiClient.operationalState).toBe('ACTIVE')
    bed.dev.status = 500
    const suspended = (await run('suspendApiClient')).data.suspendApiClient
    expect(suspended.runtimeDeployment.state).toBe('DEGRADED')
    bed.dev.status = 200
    expect((await run('rotateApiClientSecret')).data.rotateApiClientSecret.apiClient.materialVersion).toBe(2)
    const updated = await gql('mutation($k: String!, $i: UpdateApiClientInput!) { updateApiClient(apiClientKey: $k, input: $i) { apiClient { name issuance { allowedGrantTypes } } } }', { k: key, i: { name: 'renamed-gql', allowedGrantTypes: null } })
    expect(updated.data.updateApiClient.apiClient).toEqual({ name: 'renamed-gql', issuance: { allowedGrantTypes: [] } })
    expect((await run('revokeApiClient')).data.revokeApiClient.runtimeDeployment.state).toBe('IN_SYNC')

    const refused = await run('activateApiClient')
    expect(refused.errors?.[0].extensions).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'apiClient.revokedIsFinal' } })
    const denied = await gql(`mutation($k: String!) { suspendApiClient(apiClientKey: $k) { apiClient { name } } }`, { k: key }, bed.carol)
    expect(denied.errors?.[0].extensions.errorKey).toBe('permissionDenied')

    const durable = await gql('query($k: String!) { apiClientRuntimeDeployment(apiClientKey: $k) { apiClient { name runtimeDeployment { revision } } runtimeDeployment { state revision } } }', { k: key })
    const record = await bed.svc.deps.prisma.apiClientRuntime.findUniqueOrThrow({ where: { apiClientId: (await stored(key)).id } })
    expect(durable.data.apiClientRuntimeDeployment).toEqual({
      apiClient: { name: 'renamed-gql', runtimeDeployment: { revision: record.revision } },
      runtimeDeployment: { state: 'IN_SYNC', revision: record.revision },
    })
    const bare = (await newClient()).apiClient.apiClientKey
    await bed.svc.deps.prisma.apiClientRuntime.deleteMany({ where: { apiClient: { apiClientKey: bare } } })
    expect((await gql('query($k: String!) { apiClientRuntimeDeployment(apiClientKey: $k) { runtimeDeployment { state } } }', { k: bare })).data.apiClientRuntimeDeployment).toBeNull()
  })
})
