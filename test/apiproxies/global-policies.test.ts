import { beforeAll, describe, expect, it } from 'vitest'
import { expectLegacyRefusal } from '../support/refusals.js'
import { useTestbed } from '../support/testbed.js'
import { PLATFORM_TOKENS, platformBootstrap } from '../utility/support.js'
import { createDeployedMyApi, legacy } from './automation-proxy-support.js'

// Vendor api-reference/global-policies (apinizer/docs cc9f74b): the project's global policies, validated as proxy
// policies of their type, applied to every API proxy of the project (carried in each proxy's pushed configuration).
// gina: API_MANAGEMENT MANAGE + DEPLOY_UNDEPLOY; frank: VIEW; olivia: everything in `other` only.

const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: platformBootstrap, tokens: PLATFORM_TOKENS })
const call = (method: string, path: string, token: string, body?: unknown) => legacy(bed.svc, method, `payments/globalPolicies/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const rows = () => bed.svc.deps.prisma.storedObject.findMany({ where: { type: 'GLOBAL_POLICY' }, orderBy: { id: 'asc' } })
const untouched = { state: rows, pushes }
const lastConfig = () => (bed.dev.received.at(-1) as any).config

// the page's example bodies, verbatim
const CREATE = {
  _class: 'policy-ws-security-username', name: 'backend-ws-security', description: 'Username token injected before the request reaches the backend', active: true,
  username: 'backend-service', password: 's3cr3t-already-encrypted-value-from-source-instance', passwordType: 'PasswordText', mustUnderstand: true, nonce: true, created: true,
}
const UPDATE = {
  _class: 'policy-ws-security-username', name: 'backend-ws-security', description: 'Username token injected before the request reaches the backend (rotated)', active: true,
  username: 'backend-service', password: 'new-plaintext-password', passwordType: 'PasswordText', mustUnderstand: true, nonce: true, created: true,
}
const DESCRIPTOR = { id: expect.any(String), name: 'backend-ws-security', policyType: 'policy-ws-security-username', policyTypeLabel: 'policy-ws-security-username' }

beforeAll(async () => {
  await createDeployedMyApi(bed.svc, bed.gina)
  bed.dev.received.length = 0
})

describe('create, read (POST, GET …/globalPolicies/)', () => {
  it('creates the page\'s example and redeploys the project\'s deployed proxies with it; the secret is sealed at rest', async () => {
    const res = await call('POST', '', bed.gina, CREATE)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, resultList: [DESCRIPTOR], resultCount: 1, deploymentResult: { success: true } })
    expect(bed.dev.received).toHaveLength(1)
    expect(bed.dev.received[0]).toMatchObject({ action: 'DEPLOY', kind: 'API_PROXY', name: 'MyAPI' })
    expect(lastConfig().globalPolicies).toEqual([expect.objectContaining({ type: 'policy-ws-security-username', name: 'backend-ws-security', username: 'backend-service', password: CREATE.password, active: true })])
    const [row] = await rows()
    expect(JSON.stringify(row!.content)).not.toContain(CREATE.password)
    expect(await bed.svc.deps.prisma.auditEvent.count({ where: { objectName: 'backend-ws-security' } })).toBe(1)
  })

  it('lists and reads descriptors only (never the body), by name case-insensitively', async () => {
    const list = await call('GET', '', bed.frank)
    expect(list.body).toEqual({ status: 'SUCCESS', success: true, resultList: [DESCRIPTOR], resultCount: 1 })
    expect((await call('GET', 'BACKEND-WS-SECURITY/', bed.frank)).body).toEqual({ status: 'SUCCESS', success: true, resultList: [DESCRIPTOR], resultCount: 1 })
    expect(list.raw).not.toContain('backend-service')
  })

  it('refuses without writing or pushing: duplicate, no name, no or unknown _class, policy-group, a field invalid for the type, unknown name', async () => {
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, name: 'Backend-WS-Security' }), 'Global policy (name: backend-ws-security) already exists!', untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, name: undefined }), 'name: name value can not be empty!', untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, _class: undefined, name: 'x' }), /^_class: is required: the policy type, one of /, untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, _class: 'cache', name: 'x' }), /^_class: 'cache' is not a policy type of this installation/, untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { _class: 'policy-group', name: 'x' }), '_class: policy-group is not a global policy; use the Policy Groups API', untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, name: 'x', passwordType: 'Plain' }), /^passwordType: must be one of /, untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { _class: 'ip-white', name: 'x', ipList: ['not-an-ip'] }), /^ipList\[0\]: must be an IP address or a CIDR range/, untouched)
    await expectLegacyRefusal(() => call('GET', 'nope/', bed.frank), 'Global policy (name: nope) was not found!', untouched)
  })

  it('refuses a VIEW-only member on every write and a caller outside the project on every call', async () => {
    const lacks = "User lacks permission API_MANAGEMENT MANAGE (or GLOBAL_POLICY MANAGE) in project 'payments'"
    await expectLegacyRefusal(() => call('POST', '', bed.frank, { ...CREATE, name: 'x' }), lacks, untouched)
    await expectLegacyRefusal(() => call('PUT', 'backend-ws-security/', bed.frank, UPDATE), lacks, untouched)
    await expectLegacyRefusal(() => call('DELETE', 'backend-ws-security/', bed.frank), lacks, untouched)
    await expectLegacyRefusal(() => call('GET', '', bed.olivia), "Project 'payments' not found", untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.olivia, CREATE), "Project 'payments' not found", untouched)
  })
})

describe('update, delete (PUT, DELETE …/globalPolicies/{policyName}/)', () => {
  it('replaces with the page\'s example (plaintext secret) and redeploys; refuses another type and a differing name', async () => {
    await expectLegacyRefusal(() => call('PUT', 'backend-ws-security/', bed.gina, { ...UPDATE, _class: 'ip-white', ipList: ['10.0.0.1'] }), /^_class: Policy type in body does not match the existing policy's type/, untouched)
    await expectLegacyRefusal(() => call('PUT', 'backend-ws-security/', bed.gina, { ...UPDATE, name: 'backend-ws-security-2' }), 'Global policy name in path (backend-ws-security) does not match name in body (backend-ws-security-2)!', untouched)
    await expectLegacyRefusal(() => call('PUT', 'nope/', bed.gina, UPDATE), 'Global policy (name: nope) was not found!', untouched)
    const res = await call('PUT', 'backend-ws-security/', bed.gina, UPDATE)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultList: [DESCRIPTOR], resultCount: 1, deploymentResult: { success: true } })
    expect(lastConfig().globalPolicies[0]).toMatchObject({ password: 'new-plaintext-password', description: UPDATE.description })
  })

  it('deletes it; the proxies run without it', async () => {
    const res = await call('DELETE', 'backend-ws-security/', bed.gina)
    expect(res.body).toMatchObject({ status: 'SUCCESS', success: true, deploymentResult: { success: true } })
    expect(lastConfig().globalPolicies).toEqual([])
    expect(await rows()).toEqual([])
    await expectLegacyRefusal(() => call('DELETE', 'backend-ws-security/', bed.gina), 'Global policy (name: backend-ws-security) was not found!', untouched)
  })

  it('has GraphQL twins calling the same service', async () => {
    const out = (await bed.svc.graphql('mutation($p: JSON!) { createGlobalPolicy(projectName: "payments", policy: $p) { globalPolicy { name policyType } deploymentResult { success } } }', { p: { _class: 'ip-white', name: 'office', ipList: ['10.0.0.0/8'] } }, bed.gina)).body
    expect(out.data.createGlobalPolicy).toEqual({ globalPolicy: { name: 'office', policyType: 'ip-white' }, deploymentResult: { success: true } })
    const read = (await bed.svc.graphql('{ globalPolicies(projectName: "payments") { name policyTypeLabel } }', {}, bed.frank)).body
    expect(read.data.globalPolicies).toEqual([{ name: 'office', policyTypeLabel: 'ip-white' }])
  })
})
