import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonOf } from '../support/http.js'
import { startAutomationEnv, type AutomationEnv } from './automation-support.js'

// Credential organizations over REST (vendor api-reference/credential-organizations/crud/*), the service the GraphQL
// organization mutations call: the pages' examples, their refusals (nothing written), the secret metadata never shown.
let env: AutomationEnv
const BASE = '/apiops/projects/MyProject/credential-organizations'

const CREATE_EXAMPLE = {
  code: 'team-alpha',
  nameDefault: 'Team Alpha',
  nameSecondary: 'Alpha Ekibi',
  parentOrganizationCode: 'root-org',
  metadata: [{ key: 'costCenter', value: 'CC-1001', secret: false, includeInJwt: true, includeInTokenResponse: false, jwtClaimName: null }],
}
const UPDATE_EXAMPLE = {
  code: 'team-alpha',
  nameDefault: 'Team Alpha (Updated)',
  nameSecondary: 'Alpha Ekibi',
  parentOrganizationCode: 'root-org',
  metadata: [{ key: 'costCenter', value: 'CC-2002', secret: false, includeInJwt: true, includeInTokenResponse: false, jwtClaimName: null }],
}

const rows = async () => JSON.stringify(await env.svc.deps.prisma.organization.findMany({ orderBy: { code: 'asc' } }))
const audits = () => env.svc.deps.prisma.auditEvent.count()

/** A refused call: its status and errorKey, no organization row changed and no audit event. */
async function refused(call: () => Promise<Response>, status: number, errorKey: string, params?: Record<string, unknown>) {
  const before = await rows()
  const events = await audits()
  const res = await call()
  const body = await jsonOf(res)
  expect(res.status, JSON.stringify(body)).toBe(status)
  expect(body.errorKey).toBe(errorKey)
  if (params) expect(body.params).toMatchObject(params)
  expect(await rows()).toBe(before)
  expect(await audits()).toBe(events)
  return body
}

beforeAll(async () => {
  env = await startAutomationEnv()
  const root = await env.call('identity', 'POST', `${BASE}/`, { code: 'root-org', nameDefault: 'Root' })
  expect(root.status).toBe(201)
})
afterAll(async () => {
  await env?.close()
})

describe('credential organizations over REST', () => {
  it("creates the page's example (201, the DTO), reads it back, records the audit event", async () => {
    const res = await env.call('identity', 'POST', `${BASE}/`, CREATE_EXAMPLE)
    expect(res.status).toBe(201)
    expect(await jsonOf(res)).toEqual({ ...CREATE_EXAMPLE, state: 'ACTIVE', suspended: false })
    const read = await env.call('identity', 'GET', `${BASE}/team-alpha`)
    expect(read.status).toBe(200)
    expect(await jsonOf(read)).toEqual({ ...CREATE_EXAMPLE, state: 'ACTIVE', suspended: false })
    const event = await env.svc.deps.prisma.auditEvent.findFirst({ where: { objectName: 'team-alpha' }, orderBy: { id: 'desc' } })
    expect(event).toMatchObject({ objectType: 'ORGANIZATION', outcome: 'SUCCEEDED' })
  })

  it("updates with the page's example (code unchanged, metadata replaced)", async () => {
    const res = await env.call('identity', 'PUT', `${BASE}/team-alpha`, UPDATE_EXAMPLE)
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toEqual({ ...UPDATE_EXAMPLE, state: 'ACTIVE', suspended: false })
  })

  it('seals a secret metadata value, shows it as null, and keeps it when an update sends the entry without a value', async () => {
    const secret = { key: 'apiSecret', value: 's3cr3t-value', secret: true }
    const res = await env.call('identity', 'PUT', `${BASE}/team-alpha`, { metadata: [UPDATE_EXAMPLE.metadata[0], secret] })
    const body = await jsonOf(res)
    expect(res.status).toBe(200)
    expect(body.metadata[1]).toEqual({ key: 'apiSecret', value: null, secret: true, includeInJwt: false, includeInTokenResponse: false, jwtClaimName: null })
    expect(JSON.stringify(body)).not.toContain('s3cr3t')
    const stored = await env.svc.deps.prisma.organization.findFirstOrThrow({ where: { code: 'team-alpha' } })
    expect(JSON.stringify(stored.metadata)).not.toContain('s3cr3t')
    const sealed = (stored.metadata as { value: string }[])[1]!.value
    expect(env.svc.deps.keyring.decrypt(sealed)).toBe('s3cr3t-value')
    await env.call('identity', 'PUT', `${BASE}/team-alpha`, { metadata: [{ key: 'apiSecret', secret: true }] })
    const kept = await env.svc.deps.prisma.organization.findFirstOrThrow({ where: { code: 'team-alpha' } })
    expect(env.svc.deps.keyring.decrypt((kept.metadata as { value: string }[])[0]!.value)).toBe('s3cr3t-value')
    expect(kept.name).toBe('Team Alpha (Updated)')
  })

  it('the GraphQL twin reads and writes the same organization', async () => {
    const { body } = await env.svc.graphql(
      `mutation { updateOrganization(projectName: "MyProject", code: "team-alpha", input: { nameSecondary: "Ekip A", metadata: [{ key: "tier", value: "gold" }] }) { code nameSecondary parentCode metadata { key value secret includeInJwt } } }`,
      {}, env.tokens.identity,
    )
    expect(body.errors).toBeUndefined()
    expect(body.data.updateOrganization).toEqual({ code: 'team-alpha', nameSecondary: 'Ekip A', parentCode: 'root-org', metadata: [{ key: 'tier', value: 'gold', secret: false, includeInJwt: false }] })
    expect(await jsonOf(await env.call('identity', 'GET', `${BASE}/team-alpha`))).toMatchObject({ nameSecondary: 'Ekip A', metadata: [{ key: 'tier', value: 'gold' }] })
  })

  it('refuses, writing nothing: outsiders, missing IDENTITY, a taken code, an unknown parent, bad bodies, an unknown code, a parent with children', async () => {
    await refused(() => env.call('outsider', 'POST', `${BASE}/`, { nonsense: true }), 404, 'resourceNotFound')
    await refused(() => env.call('viewer', 'POST', `${BASE}/`, { nonsense: true }), 403, 'permissionDenied')
    await refused(() => env.call('viewer', 'GET', `${BASE}/team-alpha`), 403, 'permissionDenied')
    await refused(() => env.call('identity', 'POST', `${BASE}/`, CREATE_EXAMPLE), 409, 'nameAlreadyExists', { field: 'code' })
    // the vendor page answers 400 here; ours stays the organization's not found, as the GraphQL door always answered
    await refused(() => env.call('identity', 'POST', `${BASE}/`, { ...CREATE_EXAMPLE, code: 'team-beta', parentOrganizationCode: 'nope' }), 404, 'resourceNotFound', { organization: 'nope', field: 'parentOrganizationCode' })
    await refused(() => env.call('identity', 'POST', `${BASE}/`, { code: '  ' }), 400, 'malformedRequest', { field: 'code' })
    await refused(() => env.call('identity', 'POST', `${BASE}/`, { code: 'team-beta', colour: 'red' }), 400, 'malformedRequest')
    await refused(() => env.call('identity', 'POST', `${BASE}/`, { code: 'team-beta', metadata: [{ key: 'a' }, { key: 'a' }] }), 400, 'malformedRequest', { field: 'metadata[1].key' })
    await refused(() => env.call('identity', 'POST', `${BASE}/`, { code: 'team-beta', metadata: [{ key: 'k', secret: true }] }), 400, 'malformedRequest', { field: 'metadata[0].value' })
    await refused(() => env.call('identity', 'PUT', `${BASE}/team-alpha`, { code: 'team-gamma' }), 400, 'malformedRequest', { field: 'code' })
    await refused(() => env.call('identity', 'PUT', `${BASE}/team-alpha`, { parentOrganizationCode: 'team-alpha' }), 400, 'malformedRequest', { field: 'parentCode' })
    await refused(() => env.call('identity', 'PUT', `${BASE}/nope`, UPDATE_EXAMPLE), 404, 'resourceNotFound', { organization: 'nope' })
    await refused(() => env.call('identity', 'GET', `${BASE}/nope`), 404, 'resourceNotFound', { organization: 'nope' })
    await refused(() => env.call('identity', 'DELETE', `${BASE}/nope`), 404, 'resourceNotFound')
    await refused(() => env.call('identity', 'DELETE', `${BASE}/root-org`), 409, 'lifecycleConflict', { reason: 'organizationHasChildren' })
  })

  it('deletes (204) and the code is unknown afterwards', async () => {
    const res = await env.call('identity', 'DELETE', `${BASE}/team-alpha`)
    expect(res.status).toBe(204)
    expect((await env.call('identity', 'GET', `${BASE}/team-alpha`)).status).toBe(404)
    expect(await env.svc.deps.prisma.auditEvent.findFirst({ where: { objectName: 'team-alpha', operation: { contains: 'DELETE' } } })).not.toBeNull()
  })
})
