import { beforeAll, describe, expect, it } from 'vitest'
import { expectLegacyRefusal } from '../support/refusals.js'
import { useTestbed } from '../support/testbed.js'
import { PLATFORM_TOKENS, platformBootstrap } from '../utility/support.js'
import { createDeployedMyApi, legacy } from './automation-proxy-support.js'

// Vendor api-reference/policy-groups (apinizer/docs cc9f74b): groups of policies validated as proxy policies of their
// types; a proxy runs a group through a policy-group entry naming it (api-reference/policies/policies/policy-group).

const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: platformBootstrap, tokens: PLATFORM_TOKENS })
const call = (method: string, path: string, token: string, body?: unknown) => legacy(bed.svc, method, `payments/policyGroups/${path}`, token, body)
const pushes = () => bed.dev.received.length + bed.prod.received.length
const state = async () => [await bed.svc.deps.prisma.storedObject.findMany({ where: { type: 'POLICY_GROUP' }, orderBy: { id: 'asc' } }), await bed.svc.deps.prisma.apiProxyPolicy.findMany({ orderBy: { id: 'asc' } })]
const untouched = { state, pushes }

// the page's example bodies, verbatim
const CREATE = {
  _class: 'policy-group', name: 'standard-security-bundle', description: 'IP allow-list applied before authentication', active: true, targetPipeline: 'REQUEST', order: 1, makeDefault: false, canBeDeleted: true,
  policyList: [{ _class: 'ip-white', name: 'office-network-allow-list', active: true, useApinizerDefault: false, ipList: ['203.0.113.0/24', '198.51.100.10'] }],
}
const UPDATE = { ...CREATE, description: 'IP allow-list applied before authentication (rotated)', policyList: [{ ...CREATE.policyList[0], ipList: ['203.0.113.0/24', '198.51.100.11'] }] }
const DESCRIPTOR = { id: expect.any(String), name: 'standard-security-bundle', targetPipeline: 'REQUEST' }

beforeAll(async () => {
  await createDeployedMyApi(bed.svc, bed.gina)
  bed.dev.received.length = 0
})

describe('policy groups', () => {
  it('creates the page\'s example, stored and not deployed; lists and reads descriptors', async () => {
    const res = await call('POST', '', bed.gina, CREATE)
    expect(res.body).toEqual({ status: 'SUCCESS', success: true, resultList: [DESCRIPTOR], resultCount: 1 })
    expect(pushes()).toBe(0)
    expect((await call('GET', '', bed.frank)).body).toEqual({ status: 'SUCCESS', success: true, resultList: [DESCRIPTOR], resultCount: 1 })
    expect((await call('GET', 'Standard-Security-Bundle/', bed.frank)).body.resultList).toEqual([DESCRIPTOR])
  })

  it('a proxy runs the group through a policy-group entry (the policy-group page\'s example), as the group is now', async () => {
    const add = await legacy(bed.svc, 'POST', 'payments/apiProxies/MyAPI/policies/standard-security-bundle/', bed.gina, {
      operationMetadata: { targetScope: 'ALL', targetPipeline: 'REQUEST', deploy: true, deployTargetEnvironmentNameList: ['dev'], order: 1 },
      policy: { type: 'policy-group', name: 'standard-security-bundle', description: 'Group of related policies', active: true, policyCondition: { criteria: 'ALWAYS', rules: [] } },
    })
    expect(add.status, JSON.stringify(add.body)).toBe(200)
    const config = (bed.dev.received.at(-1) as any).config
    expect(config.policies.request[0]).toMatchObject({ type: 'policy-group', name: 'standard-security-bundle', targetPipeline: 'REQUEST', policyList: [expect.objectContaining({ type: 'policy-white-ip', ipList: ['203.0.113.0/24', '198.51.100.10'] })] })
  })

  it('update (the page\'s example) redeploys the proxies running it; delete detaches it from them', async () => {
    bed.dev.received.length = 0
    const res = await call('PUT', 'standard-security-bundle/', bed.gina, UPDATE)
    expect(res.body).toMatchObject({ status: 'SUCCESS', resultList: [DESCRIPTOR], deploymentResult: { success: true } })
    expect((bed.dev.received.at(-1) as any).config.policies.request[0].policyList[0].ipList).toEqual(['203.0.113.0/24', '198.51.100.11'])
    const del = await call('DELETE', 'standard-security-bundle/', bed.gina)
    expect(del.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    expect((bed.dev.received.at(-1) as any).config.policies.request).toEqual([])
    expect(await bed.svc.deps.prisma.apiProxyPolicy.count({ where: { type: 'policy-group' } })).toBe(0)
  })

  it('refuses without writing or pushing', async () => {
    await call('POST', '', bed.gina, CREATE)
    bed.dev.received.length = 0
    await expectLegacyRefusal(() => call('POST', '', bed.gina, CREATE), 'Policy group (name: standard-security-bundle) already exists!', untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, _class: 'ip-white', name: 'x' }), '_class: The supplied snapshot is not a policy group.', untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, name: '' }), 'name: name value can not be empty!', untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, name: 'x', targetPipeline: 'SIDEWAYS' }), /^targetPipeline: must be one of REQUEST, RESPONSE, ERROR/, untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, name: 'x', policyList: [{ _class: 'ip-white', name: 'a', ipList: ['nope'] }] }), /^policyList\[0\]\.ipList\[0\]: must be an IP address/, untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.gina, { ...CREATE, name: 'x', extra: 1 }), 'extra: unknown field', untouched)
    await expectLegacyRefusal(() => call('PUT', 'standard-security-bundle/', bed.gina, { ...UPDATE, name: 'other-name' }), 'Policy group name in path (standard-security-bundle) does not match name in body (other-name)!', untouched)
    await expectLegacyRefusal(() => call('GET', 'nope/', bed.frank), 'Policy group (name: nope) was not found!', untouched)
    await expectLegacyRefusal(() => call('POST', '', bed.frank, { ...CREATE, name: 'x' }), "User lacks permission API_MANAGEMENT MANAGE in project 'payments'", untouched)
    await expectLegacyRefusal(() => call('DELETE', 'standard-security-bundle/', bed.frank), "User lacks permission API_MANAGEMENT MANAGE in project 'payments'", untouched)
    await expectLegacyRefusal(() => call('GET', '', bed.olivia), "Project 'payments' not found", untouched)
  })

  it('has GraphQL twins', async () => {
    const out = (await bed.svc.graphql('{ policyGroups(projectName: "payments") { name targetPipeline } }', {}, bed.frank)).body
    expect(out.data.policyGroups).toEqual([{ name: 'standard-security-bundle', targetPipeline: 'REQUEST' }])
  })
})
