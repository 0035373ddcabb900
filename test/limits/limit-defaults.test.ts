import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { sampleBootstrap } from '../support/fixtures.js'
import {
  ActivateLimitDefaultDocument, CreateLimitDefaultDocument, DeleteLimitDefaultDocument, DisableLimitDefaultDocument, LimitDefaultDocument, LimitDefaultsDocument,
  UpdateLimitDefaultDocument, ValidateLimitDefaultDocument,
} from '../generated/graphql.js'
import { customRate } from './limit-bulk-helpers.js'

let svc: TestService
let alice: string
let carol: string
let root: string

beforeAll(async () => {
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [] }) })
  ;[alice, carol, root] = await Promise.all([svc.tokenFor('alice', 'alice-pass-1'), svc.tokenFor('carol', 'carol-pass-1'), svc.tokenFor('root', 's3cret-root')])
})
afterAll(async () => svc?.close())

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await svc.http(`/api/limit-defaults${path}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}
const count = () => svc.deps.prisma.limitDefault.count()
const projectOwner = { type: 'PROJECT', projectId: 'payments' }

describe('default limit policies (/api/limit-defaults)', () => {
  it('create (DISABLED) → activate → disable → delete, with get, list by owner and versions', async () => {
    const created = await call(alice, 'POST', '', { owner: projectOwner, name: 'Payments default', content: customRate(50) })
    expect(created.status).toBe(201)
    const key = created.body.defaultKey
    expect(created.headers.get('location')).toBe(`/api/limit-defaults/${key}`)
    expect(created.body).toMatchObject({
      owner: { type: 'PROJECT', projectId: 'payments' }, name: 'Payments default', family: 'REQUEST_RATE', actorScope: 'ANY', mode: 'CUSTOM',
      customRuleSpec: customRate(50).customRuleSpec, planKeys: [], status: 'DISABLED', version: 1, createdBy: 'alice',
    })
    expect((await call(carol, 'GET', `/${key}`)).body.defaultKey).toBe(key)

    const active = await call(alice, 'POST', `/${key}/actions/activate`, { version: 1 })
    expect(active.status).toBe(200)
    expect(active.body).toMatchObject({ status: 'ACTIVE', version: 2 })
    expect((await call(alice, 'POST', `/${key}/actions/activate`)).body.params.reason).toBe('limit.default.alreadyActive')

    // one enabled default per owner, family and actor scope
    const second = await call(alice, 'POST', '', { owner: projectOwner, content: customRate(70) })
    const clash = await call(alice, 'POST', `/${second.body.defaultKey}/actions/activate`)
    expect(clash.status).toBe(409)
    expect(clash.body).toMatchObject({ errorKey: 'lifecycleConflict', params: { reason: 'limit.default.scopeAlreadyActive', activeDefaultKey: key } })
    const authenticated = await call(alice, 'PUT', `/${second.body.defaultKey}`, { content: { ...customRate(70), actorScope: 'AUTHENTICATED' } })
    expect(authenticated.body).toMatchObject({ actorScope: 'AUTHENTICATED', version: 2 })
    expect((await call(alice, 'POST', `/${second.body.defaultKey}/actions/activate`)).status).toBe(200)

    const list = await call(carol, 'GET', '?projectId=payments')
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ status: 'SUCCESS', totalElements: 2, sort: ['createdAt,desc'] })
    expect((await call(carol, 'GET', '?projectId=payments&status=DISABLED')).body.totalElements).toBe(0)

    const stale = await call(alice, 'PUT', `/${key}`, { content: customRate(60), version: 1 })
    expect(stale.status).toBe(409)
    expect(stale.body).toMatchObject({ errorKey: 'versionConflict', params: { entity: 'limitDefault', expected: 1, current: 2 } })

    const refused = await call(alice, 'DELETE', `/${key}`)
    expect(refused.status).toBe(409)
    expect(refused.body.params.reason).toBe('limit.default.notDisabled')
    const disabled = await call(alice, 'POST', `/${key}/actions/disable`, {})
    expect(disabled.body).toMatchObject({ status: 'DISABLED', version: 3 })
    expect((await call(alice, 'POST', `/${key}/actions/disable`)).body.params.reason).toBe('limit.default.alreadyDisabled')
    const gone = await call(alice, 'DELETE', `/${key}`)
    expect(gone.status).toBe(204)
    expect((await call(alice, 'GET', `/${key}`)).status).toBe(404)
  })

  it('validate writes nothing; content rules are those of assignments (PLAN or CUSTOM only)', async () => {
    const before = await count()
    const ok = await call(alice, 'POST', '/actions/validate', { owner: projectOwner, content: customRate() })
    expect(ok.status).toBe(200)
    expect(ok.body).toBeUndefined()
    const inherit = await call(alice, 'POST', '/actions/validate', { owner: projectOwner, content: { family: 'REQUEST_RATE', mode: 'INHERIT' } })
    expect(inherit.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'content.mode' } })
    const mismatch = await call(alice, 'POST', '/actions/validate', { owner: projectOwner, content: { family: 'AI_TOKEN_BUDGET', mode: 'CUSTOM', customRuleSpec: customRate().customRuleSpec } })
    expect(mismatch.body.params.reason).toBe('limit.plan.ruleSpecFamilyMismatch')
    const plan = await call(alice, 'POST', '/actions/validate', { owner: projectOwner, content: { family: 'REQUEST_RATE', planKeys: ['nope'] } })
    expect(plan.status).toBe(404)
    expect(plan.body.params.plan).toBe('nope')
    const noFamily = await call(alice, 'POST', '', { owner: projectOwner, content: { mode: 'CUSTOM' } })
    expect(noFamily.body).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'content.family' } })
    const unknown = await call(alice, 'POST', '', { owner: projectOwner, content: customRate(), colour: 'red' })
    expect(unknown.body.params.field).toBe('colour')
    const empty = await svc.http('/api/limit-defaults', { method: 'POST', headers: { authorization: `Bearer ${alice}` } })
    expect(((await empty.json()) as any).params.reason).toBe('bodyRequired')
    const noOrg = await call(alice, 'POST', '', { owner: { type: 'ORGANIZATION', projectId: 'payments' }, content: customRate() })
    expect(noOrg.body.params.field).toBe('owner.organizationCode')
    const unknownOrg = await call(alice, 'POST', '', { owner: { type: 'ORGANIZATION', projectId: 'payments', organizationCode: 'atlantis' }, content: customRate() })
    expect(unknownOrg.status).toBe(404)
    expect(await count()).toBe(before)
  })

  it('owners and permissions: organization and platform defaults, viewers, out-of-scope projects', async () => {
    const before = await count()
    expect((await call(carol, 'POST', '', { owner: projectOwner, content: customRate() })).body.errorKey).toBe('permissionDenied')
    expect((await call(alice, 'POST', '', { owner: { type: 'PROJECT', projectId: 'other' }, content: customRate() })).status).toBe(404)
    expect((await call(alice, 'POST', '', { owner: { type: 'PLATFORM' }, content: customRate() })).body.errorKey).toBe('permissionDenied')
    expect(await count()).toBe(before)

    const org = await call(alice, 'POST', '', { owner: { type: 'ORGANIZATION', projectId: 'payments', organizationCode: 'acme' }, content: customRate() })
    expect(org.body.owner).toEqual({ type: 'ORGANIZATION', projectId: 'payments', organizationCode: 'acme' })
    expect((await call(alice, 'GET', '?projectId=payments&organizationCode=acme')).body.totalElements).toBe(1)
    const platform = await call(root, 'POST', '', { owner: { type: 'PLATFORM' }, content: customRate() })
    expect(platform.status).toBe(201)
    expect(platform.body.owner).toEqual({ type: 'PLATFORM' })
    expect((await call(alice, 'GET', '')).body.totalElements).toBe(1)
    expect((await call(alice, 'POST', `/${platform.body.defaultKey}/actions/activate`)).body.errorKey).toBe('permissionDenied')
    // a default of a project the caller cannot see is not found
    const hidden = await call(root, 'POST', '', { owner: { type: 'PROJECT', projectId: 'other' }, content: customRate() })
    expect((await call(alice, 'GET', `/${hidden.body.defaultKey}`)).status).toBe(404)
  })
})

describe('default limit policies on GraphQL', () => {
  it('the same operations and errors as /api/limit-defaults', async () => {
    const input = { owner: { type: 'ORGANIZATION', projectId: 'payments', organizationCode: 'acme-eu' }, name: 'EU', content: { family: 'REQUEST_RATE', mode: 'CUSTOM', customRuleSpec: customRate().customRuleSpec } }
    expect((await svc.op(ValidateLimitDefaultDocument, { input }, alice)).data?.validateLimitDefault).toBe(true)
    const bad = await svc.op(ValidateLimitDefaultDocument, { input: { ...input, content: { family: 'REQUEST_RATE', mode: 'OFF' } } }, alice)
    expect(bad.errors?.[0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'content.mode' } })
    const created = await svc.op(CreateLimitDefaultDocument, { input }, alice)
    const key = created.data!.createLimitDefault.defaultKey
    expect(created.data?.createLimitDefault).toMatchObject({ owner: { type: 'ORGANIZATION', projectId: 'payments', organizationCode: 'acme-eu' }, status: 'DISABLED', version: 1, mode: 'CUSTOM' })
    expect((await svc.op(ActivateLimitDefaultDocument, { defaultKey: key, version: 1 }, alice)).data?.activateLimitDefault).toMatchObject({ status: 'ACTIVE', version: 2 })
    const stale = await svc.op(UpdateLimitDefaultDocument, { defaultKey: key, input: { content: input.content, version: 1 } }, alice)
    expect(stale.errors?.[0].extensions).toMatchObject({ errorKey: 'versionConflict', params: { expected: 1, current: 2 } })
    const list = await svc.op(LimitDefaultsDocument, { projectId: 'payments', organizationCode: 'acme-eu', status: 'ACTIVE', size: 5 }, carol)
    expect(list.data?.limitDefaults.items.map((d) => d.defaultKey)).toEqual([key])
    expect((await svc.op(DeleteLimitDefaultDocument, { defaultKey: key }, alice)).errors?.[0].extensions?.params).toMatchObject({ reason: 'limit.default.notDisabled' })
    expect((await svc.op(DisableLimitDefaultDocument, { defaultKey: key }, alice)).data?.disableLimitDefault.status).toBe('DISABLED')
    expect((await svc.op(DeleteLimitDefaultDocument, { defaultKey: key }, alice)).data?.deleteLimitDefault).toBe(true)
    expect((await svc.op(LimitDefaultDocument, { defaultKey: key }, alice)).errors?.[0].extensions?.errorKey).toBe('resourceNotFound')
  })
})
