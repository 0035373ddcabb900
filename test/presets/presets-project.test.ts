import { beforeAll, describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'

/** sampleBootstrap where carol may view AI development objects in payments, not manage them */
function carolViewsAiDevelopment(workers: { dev: string[]; prod: string[] }) {
  const bootstrap = sampleBootstrap(workers)
  bootstrap.projects[0].members!.find((m) => m.username === 'carol')!.permissions.push({ category: 'AI_DEVELOPMENT', level: 'VIEW' })
  return bootstrap
}

const bed = useTestbed({ workers: ['dev', 'prod'], bootstrap: carolViewsAiDevelopment, tokens: { root: 's3cret-root', alice: 'alice-pass-1', bob: 'bob-pass-1', carol: 'carol-pass-1' } })

const MIRROR = '/apiops/projects/payments/ai-dlp-presets/'
const ADMIN = '/apiops/settings/ai-dlp-presets/'
const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
  bed.svc.http(path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const snapshot = () => bed.svc.deps.prisma.aiPreset.findMany({ orderBy: { id: 'asc' } })
const rule = { ruleValue: 'ORD-[0-9]{6}', action: 'FLAG', literalAnchors: ['ORD-'] }

beforeAll(async () => {
  // an admin-shared preset, visible in every project
  expect((await call('POST', `${ADMIN}shared-rule/`, bed.root, { ruleValue: 'SHR[0-9]+', action: 'MASK' })).status).toBe(200)
})

describe('project mirror of the DLP catalog', () => {
  it('lists the built-in and admin-shared presets as inherited when the project has none of its own', async () => {
    const res = await call('GET', MIRROR, bed.carol)
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.resultCount).toBe(body.resultList.length)
    expect(body.resultList.every((p: any) => p.inherited && p.projectId === null)).toBe(true)
    expect(body.resultList.map((p: any) => p.name)).toEqual(expect.arrayContaining(['shared-rule', 'credit-card-number']))
    const one = await jsonOf(await call('GET', `${MIRROR}Shared-Rule/`, bed.carol))
    expect(one.resultList[0]).toMatchObject({ name: 'shared-rule', inherited: true, builtIn: false })
  })

  it('creates a project-owned preset and deploys it to the project\'s environments', async () => {
    const res = await call('POST', `${MIRROR}order-id/`, bed.alice, rule)
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.resultList[0]).toMatchObject({ name: 'order-id', projectId: 'payments', inherited: false, builtIn: false, literalAnchors: ['ORD-'] })
    expect(body.deploymentResult).toMatchObject({ success: true, environmentResults: [{ environmentName: 'dev', success: true }, { environmentName: 'prod', success: true }] })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'AI_DLP_PRESET', name: 'order-id', revision: 1 })
    expect(bed.prod.received.at(-1)).toMatchObject({ project: 'payments', name: 'order-id' })
    const list = (await jsonOf(await call('GET', MIRROR, bed.carol))).resultList
    expect(list.find((p: any) => p.name === 'order-id')).toMatchObject({ inherited: false })
    // another project does not see it
    const other = (await jsonOf(await call('GET', '/apiops/projects/other/ai-dlp-presets/', bed.root))).resultList
    expect(other.map((p: any) => p.name)).not.toContain('order-id')
  })

  it('POST on the project\'s own name collides and changes nothing; PUT and DELETE work on it', async () => {
    const before = await snapshot()
    const pushes = bed.dev.received.length
    let res = await call('POST', `${MIRROR}Order-Id/`, bed.alice, { ...rule, action: 'BLOCK' })
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: "A DLP preset named 'order-id' already exists" })
    expect(await snapshot()).toEqual(before)
    expect(bed.dev.received.length).toBe(pushes)
    res = await call('PUT', `${MIRROR}order-id/`, bed.alice, { ruleValue: 'ORD-[0-9]{8}', action: 'MASK', category: 'orders' })
    expect((await jsonOf(res)).resultList[0]).toMatchObject({ action: 'MASK', category: 'orders', literalAnchors: ['ORD-'], revision: 2 })
    res = await call('DELETE', `${MIRROR}order-id/`, bed.alice)
    expect(res.status).toBe(200)
    expect(await jsonOf(res)).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', project: 'payments', name: 'order-id' })
    expect(await bed.svc.deps.prisma.aiPreset.count({ where: { nameKey: 'order-id' } })).toBe(0)
  })

  const inheritedRefusals: [string, string, string, unknown, RegExp][] = [
    ['PUT on a built-in name', 'PUT', `${MIRROR}credit-card-number/`, rule, /DLP preset 'credit-card-number' not found/],
    ['PUT on an admin-shared name', 'PUT', `${MIRROR}shared-rule/`, rule, /DLP preset 'shared-rule' not found/],
    ['DELETE on a built-in name', 'DELETE', `${MIRROR}credit-card-number/`, undefined, /DLP preset 'credit-card-number' not found/],
    ['DELETE on an admin-shared name', 'DELETE', `${MIRROR}shared-rule/`, undefined, /DLP preset 'shared-rule' not found/],
    ['path and body names differ', 'POST', `${MIRROR}a-rule/`, { ...rule, name: 'b-rule' }, /differs from the name 'a-rule' in the path/],
    ['missing ruleValue', 'POST', `${MIRROR}a-rule/`, { action: 'FLAG' }, /ruleValue is required/],
    ['wrong anchor', 'POST', `${MIRROR}a-rule/`, { ...rule, literalAnchors: ['ORD-1'] }, /literal anchor 'ORD-1' does not occur in every possible match/],
    ['VIEW only (carol) writing', 'POST', `${MIRROR}a-rule/`, rule, /User lacks permission AI_DEVELOPMENT MANAGE in project 'payments'/],
    ['no AI_DEVELOPMENT (bob) reading', 'GET', MIRROR, undefined, /User lacks permission AI_DEVELOPMENT VIEW in project 'payments'/],
    ['unknown project', 'GET', '/apiops/projects/nowhere/ai-dlp-presets/', undefined, /Project 'nowhere' not found/],
    ['a project the caller is not a member of', 'GET', '/apiops/projects/other/ai-dlp-presets/', undefined, /Project 'other' not found/],
    ['the platform project by a non-administrator', 'GET', '/apiops/projects/admin/ai-dlp-presets/', undefined, /Project 'admin' not found/],
  ]
  it.each(inheritedRefusals)('refuses %s with 400 and changes nothing', async (label, method, path, body, message) => {
    const token = label.includes('carol') ? bed.carol : label.includes('bob') ? bed.bob : bed.alice
    const before = await snapshot()
    const pushes = bed.dev.received.length
    const res = await call(method, path, token, body)
    expect(res.status).toBe(400)
    expect(await jsonOf(res)).toEqual({ status: 'FAILURE', resultMessage: expect.stringMatching(message) })
    expect(await snapshot()).toEqual(before)
    expect(bed.dev.received.length).toBe(pushes)
  })

  it.each([
    ['a built-in name', 'credit-card-number', 'Credit-Card-Number', true],
    ['an admin-shared name', 'shared-rule', 'SHARED-RULE', false],
  ])('POST on %s creates a project-owned preset shadowing it in that project only; a second POST collides', async (_label, name, pathName, builtIn) => {
    const adminRows = () => bed.svc.deps.prisma.aiPreset.findMany({ where: { project: { name: 'admin' } }, orderBy: { id: 'asc' } })
    const adminBefore = await adminRows()
    const created = await call('POST', `${MIRROR}${pathName}/`, bed.alice, rule)
    expect(created.status).toBe(200)
    expect((await jsonOf(created)).resultList[0]).toMatchObject({ name: pathName, projectId: 'payments', inherited: false, builtIn: false, overridden: false, revision: 1, ruleValue: rule.ruleValue })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', project: 'payments', kind: 'AI_DLP_PRESET', name: pathName, revision: 1 })
    // the project now sees its own preset under that name, once; the shared one is untouched and still seen elsewhere
    expect((await jsonOf(await call('GET', `${MIRROR}${name}/`, bed.carol))).resultList[0]).toMatchObject({ projectId: 'payments', inherited: false, ruleValue: rule.ruleValue })
    const list = (await jsonOf(await call('GET', MIRROR, bed.carol))).resultList.filter((p: any) => p.name.toLowerCase() === name)
    expect(list).toEqual([expect.objectContaining({ inherited: false, projectId: 'payments' })])
    const other = (await jsonOf(await call('GET', `/apiops/projects/other/ai-dlp-presets/${name}/`, bed.root))).resultList[0]
    expect(other).toMatchObject({ name, inherited: true, projectId: null, builtIn })
    expect(await adminRows()).toEqual(adminBefore)

    const before = await snapshot()
    const pushes = bed.dev.received.length
    const again = await call('POST', `${MIRROR}${name}/`, bed.alice, { ...rule, action: 'BLOCK' })
    expect(again.status).toBe(400)
    expect(await jsonOf(again)).toEqual({ status: 'FAILURE', resultMessage: `A DLP preset named '${pathName}' already exists` })
    expect(await snapshot()).toEqual(before)
    expect(bed.dev.received.length).toBe(pushes)

    // PUT and DELETE now address the project's own; after the DELETE the shared one shows through again
    expect((await jsonOf(await call('PUT', `${MIRROR}${name}/`, bed.alice, { ...rule, action: 'MASK' }))).resultList[0]).toMatchObject({ projectId: 'payments', action: 'MASK', revision: 2 })
    expect((await call('DELETE', `${MIRROR}${name}/`, bed.alice)).status).toBe(200)
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', project: 'payments', name: pathName })
    expect((await jsonOf(await call('GET', `${MIRROR}${name}/`, bed.carol))).resultList[0]).toMatchObject({ name, inherited: true, projectId: null, builtIn })
    expect(await adminRows()).toEqual(adminBefore)
  })

  it('the platform project\'s mirror is the admin catalog, for system administrators', async () => {
    const res = await call('GET', '/apiops/projects/admin/ai-dlp-presets/shared-rule/', bed.root)
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).resultList[0]).toMatchObject({ name: 'shared-rule', inherited: false, projectId: null })
  })

  it('the other families have project mirrors with the same rules', async () => {
    const base = '/apiops/projects/payments/ai-prompt-guard-presets/'
    const inherited = (await jsonOf(await call('GET', base, bed.alice))).resultList
    expect(inherited).toEqual([expect.objectContaining({ name: 'prompt-injection-phrases', inherited: true, builtIn: true })])
    expect((await jsonOf(await call('POST', `${base}prompt-injection-phrases/`, bed.alice, { denyPatterns: ['x'] }))).resultList[0]).toMatchObject({ projectId: 'payments', inherited: false })
    expect((await call('POST', `${base}prompt-injection-phrases/`, bed.alice, { denyPatterns: ['y'] })).status).toBe(400)
    expect((await call('DELETE', `${base}prompt-injection-phrases/`, bed.alice)).status).toBe(200)
    const created = await call('POST', `${base}no-secrets/`, bed.alice, { denyPatterns: ['(?i)secret'] })
    expect(created.status).toBe(200)
    expect((await jsonOf(created)).resultList[0]).toMatchObject({ projectId: 'payments', denyPatterns: ['(?i)secret'], action: 'BLOCK' })
    expect(bed.dev.received.at(-1)).toMatchObject({ kind: 'AI_PROMPT_GUARD_PRESET', project: 'payments', name: 'no-secrets' })
    for (const path of ['ai-privacy-presets', 'ai-prompt-decorator-presets', 'ai-topic-category-presets', 'ai-prompt-templates']) {
      const res = await call('GET', `/apiops/projects/payments/${path}/`, bed.alice)
      expect(res.status).toBe(200)
      expect(await jsonOf(res)).toEqual({ status: 'SUCCESS', success: true, resultList: [], resultCount: 0 })
    }
  })
})
