import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import { jsonOf } from '../support/http.js'
import { BUILTIN_PRESETS } from '../../src/modules/presets/builtins.js'

let svc: TestService
let worker: FakeWorker
let root: string
let alice: string
let restarted = false

const DLP = '/apiops/settings/ai-dlp-presets/'
const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
  svc.http(path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
/** every stored preset row, to prove a refused call wrote nothing */
const snapshot = () => svc.deps.prisma.aiPreset.findMany({ orderBy: { id: 'asc' } })
const ticket = { ruleValue: 'TCK-[0-9]{6}', action: 'FLAG', literalAnchors: ['TCK-'] }

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => {
  await svc?.close()
  // the restarted service reuses the first one's database, which it does not own
  if (restarted) await svc.db.cleanup()
  await worker?.stop()
})

describe('admin DLP catalog: built-in rule pack', () => {
  it('is seeded at start-up into the admin scope', async () => {
    const res = await call('GET', DLP, root)
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    const builtIns = BUILTIN_PRESETS.filter((b) => b.family === 'DLP')
    expect(body.status).toBe('SUCCESS')
    expect(body.resultCount).toBe(body.resultList.length)
    expect(body.resultList.map((p: any) => p.name)).toEqual(expect.arrayContaining(builtIns.map((b) => b.name)))
    const email = body.resultList.find((p: any) => p.name === 'email-address')
    expect(email).toMatchObject({
      builtIn: true, overridden: false, projectId: null, inherited: false, enabled: true, action: 'MASK', literalAnchors: ['@'], category: 'PII',
    })
    expect(email.id).toMatch(/^prs_/)
  })

  it('updating a built-in with PUT succeeds and marks it overridden', async () => {
    const res = await call('PUT', `${DLP}email-address/`, root, { ruleValue: '[a-z]+@[a-z]+\\.com', action: 'BLOCK' })
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body).toMatchObject({ status: 'SUCCESS', resultCount: 1, deploymentResult: { success: true } })
    // anchors omitted: the stored ones are kept (and still hold for the new rule)
    expect(body.resultList[0]).toMatchObject({ name: 'email-address', builtIn: true, overridden: true, action: 'BLOCK', literalAnchors: ['@'], ruleValue: '[a-z]+@[a-z]+\\.com' })
    expect(worker.received.at(-1)).toMatchObject({ action: 'DEPLOY', project: '', kind: 'AI_DLP_PRESET', name: 'email-address' })
  })

  it('POST over a built-in of the same name updates it (upsert) and marks it overridden', async () => {
    const res = await call('POST', `${DLP}IBAN/`, root, { name: 'iban', ruleValue: '\\b[A-Z]{2}\\d{2}[A-Z0-9]{11,30}\\b', action: 'FLAG' })
    expect(res.status).toBe(200)
    const body = await jsonOf(res)
    expect(body.resultList[0]).toMatchObject({ name: 'iban', builtIn: true, overridden: true, action: 'FLAG' })
  })

  it('a deleted built-in stays deleted across the start-up refresh, while untouched built-ins are brought up to date', async () => {
    const del = await call('DELETE', `${DLP}github-token/`, root)
    expect(del.status).toBe(200)
    expect(await jsonOf(del)).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    expect(worker.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'AI_DLP_PRESET', name: 'github-token' })
    expect((await call('GET', `${DLP}github-token/`, root)).status).toBe(400)
    // simulate an older rule pack for a built-in nobody edited
    const jwt = await svc.deps.prisma.aiPreset.findFirstOrThrow({ where: { nameKey: 'jwt', family: 'DLP' } })
    await svc.deps.prisma.aiPreset.update({ where: { id: jwt.id }, data: { content: { ...(jwt.content as object), action: 'FLAG' }, builtInDigest: 'old' } })

    await svc.stop()
    svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }), db: svc.db })
    restarted = true
    root = await svc.tokenFor('root', 's3cret-root')
    alice = await svc.tokenFor('alice', 'alice-pass-1')

    const names = (await jsonOf(await call('GET', DLP, root))).resultList.map((p: any) => p.name)
    expect(names).not.toContain('github-token')
    const jwtNow = (await jsonOf(await call('GET', `${DLP}jwt/`, root))).resultList[0]
    expect(jwtNow).toMatchObject({ action: 'MASK', overridden: false, revision: jwt.revision + 1 })
    // the overridden one keeps the administrator's content
    expect((await jsonOf(await call('GET', `${DLP}email-address/`, root))).resultList[0]).toMatchObject({ action: 'BLOCK', overridden: true })
  })

  it('re-creating a deleted built-in by name revives it as the administrator\'s own', async () => {
    const res = await call('POST', `${DLP}github-token/`, root, { ruleValue: 'ghp_[A-Za-z0-9]{36}', action: 'BLOCK', literalAnchors: ['ghp_'] })
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).resultList[0]).toMatchObject({ builtIn: true, overridden: true, literalAnchors: ['ghp_'], description: null })
  })
})

describe('admin DLP catalog: own presets', () => {
  it('creates with the name from the path, defaults and read-only fields ignored', async () => {
    const res = await call('POST', `${DLP}ticket-id/`, root, { ...ticket, id: 'forged', builtIn: true, overridden: true, revision: 9, projectId: 'other' })
    expect(res.status).toBe(200)
    const preset = (await jsonOf(res)).resultList[0]
    expect(preset).toMatchObject({ name: 'ticket-id', builtIn: false, overridden: false, projectId: null, enabled: true, description: null, category: null, revision: 1 })
    expect(preset.id).not.toBe('forged')
    const read = await jsonOf(await call('GET', `${DLP}TICKET-ID/`, root))
    expect(read).toMatchObject({ status: 'SUCCESS', resultCount: 1 })
    expect(read.resultList[0].id).toBe(preset.id)
  })

  it('POST on an existing name updates it; omitted anchors are preserved and [] clears them', async () => {
    let res = await call('POST', `${DLP}ticket-id/`, root, { ruleValue: 'TCK-[0-9]{8}', action: 'MASK', description: 'support tickets' })
    expect((await jsonOf(res)).resultList[0]).toMatchObject({ ruleValue: 'TCK-[0-9]{8}', literalAnchors: ['TCK-'], description: 'support tickets', revision: 2 })
    res = await call('PUT', `${DLP}ticket-id/`, root, { ruleValue: 'TCK-[0-9]{8}', action: 'MASK', literalAnchors: [], enabled: false })
    expect((await jsonOf(res)).resultList[0]).toMatchObject({ literalAnchors: [], enabled: false, description: 'support tickets' })
  })

  it('the projectId query addresses a project\'s presets', async () => {
    const res = await call('POST', `${DLP}card-ref/?projectId=payments`, root, { ruleValue: 'REF[0-9]+', action: 'FLAG' })
    expect(res.status).toBe(200)
    expect((await jsonOf(res)).resultList[0]).toMatchObject({ projectId: 'payments', inherited: false })
    expect(worker.received.at(-1)).toMatchObject({ project: 'payments', kind: 'AI_DLP_PRESET', name: 'card-ref' })
    const adminNames = (await jsonOf(await call('GET', DLP, root))).resultList.map((p: any) => p.name)
    expect(adminNames).not.toContain('card-ref')
    const projectList = (await jsonOf(await call('GET', `${DLP}?projectId=payments`, root))).resultList
    expect(projectList.find((p: any) => p.name === 'card-ref')).toMatchObject({ inherited: false })
    expect(projectList.find((p: any) => p.name === 'ticket-id')).toMatchObject({ inherited: true })
    expect((await call('DELETE', `${DLP}card-ref/?projectId=payments`, root)).status).toBe(200)
  })

  const refusals: [string, string, string, unknown, RegExp][] = [
    ['missing preset (PUT)', 'PUT', `${DLP}nothing-here/`, ticket, /DLP preset 'nothing-here' not found/],
    ['missing preset (DELETE)', 'DELETE', `${DLP}nothing-here/`, undefined, /DLP preset 'nothing-here' not found/],
    ['missing preset (GET)', 'GET', `${DLP}nothing-here/`, undefined, /DLP preset 'nothing-here' not found/],
    ['path name differs from body name', 'POST', `${DLP}new-one/`, { ...ticket, name: 'other-one' }, /The name 'other-one' in the body differs from the name 'new-one' in the path/],
    ['missing ruleValue', 'POST', `${DLP}new-one/`, { action: 'FLAG' }, /ruleValue is required/],
    ['blank ruleValue', 'POST', `${DLP}new-one/`, { ruleValue: '  ', action: 'FLAG' }, /ruleValue is required/],
    ['missing ruleValue on update', 'PUT', `${DLP}ticket-id/`, { action: 'FLAG' }, /ruleValue is required/],
    ['missing action', 'POST', `${DLP}new-one/`, { ruleValue: 'x' }, /action is required/],
    ['unknown action', 'POST', `${DLP}new-one/`, { ruleValue: 'x', action: 'DROP' }, /action: must be one of BLOCK, FLAG, MASK/],
    ['uncompilable ruleValue', 'POST', `${DLP}new-one/`, { ruleValue: 'a{2', action: 'FLAG' }, /ruleValue is not a valid Java regular expression: Illegal repetition near index 1/],
    ['unsupported Java construct', 'POST', `${DLP}new-one/`, { ruleValue: '[a-z&&[^q]]', action: 'FLAG' }, /Character class intersection \(&&\) is not supported/],
    ['anchor not in every match', 'POST', `${DLP}new-one/`, { ruleValue: '(?:AKIA|ASIA)[A-Z0-9]{16}', action: 'BLOCK', literalAnchors: ['IA', 'AKIA'] }, /literalAnchors\[1\]: literal anchor 'AKIA' does not occur in every possible match of ruleValue/],
    ['stored anchors no longer hold for a new rule', 'PUT', `${DLP}aws-access-key-id/`, { ruleValue: 'ASIA[0-9A-Z]{16}', action: 'BLOCK' }, /literal anchor 'AKIA' does not occur/],
    ['empty anchor', 'POST', `${DLP}new-one/`, { ...ticket, literalAnchors: [''] }, /literalAnchors\[0\]: must not be empty/],
    ['unknown field', 'POST', `${DLP}new-one/`, { ...ticket, severity: 'HIGH' }, /severity: unknown field/],
    ['body not an object', 'POST', `${DLP}new-one/`, ['x'], /must be a JSON object/],
    ['unknown project', 'POST', `${DLP}new-one/?projectId=nowhere`, ticket, /Project 'nowhere' not found/],
  ]
  it.each(refusals)('refuses %s with 400 and writes nothing', async (_label, method, path, body, message) => {
    const before = await snapshot()
    const pushes = worker.received.length
    const res = await call(method, path, root, body)
    expect(res.status).toBe(400)
    const json = await jsonOf(res)
    expect(json.status).toBe('FAILURE')
    expect(json.resultMessage).toMatch(message)
    expect(await snapshot()).toEqual(before)
    expect(worker.received.length).toBe(pushes)
  })

  it('refuses a caller who is not a system administrator (400) on every operation, and a missing token (401)', async () => {
    const before = await snapshot()
    for (const [method, path, body] of [['GET', DLP], ['GET', `${DLP}ticket-id/`], ['POST', `${DLP}x/`, ticket], ['PUT', `${DLP}ticket-id/`, ticket], ['DELETE', `${DLP}ticket-id/`]] as const) {
      const res = await call(method, path, alice, body)
      expect(res.status).toBe(400)
      expect((await jsonOf(res)).resultMessage).toBe('Only a system administrator may do this')
      expect((await call(method, path, undefined, body)).status).toBe(401)
    }
    expect(await snapshot()).toEqual(before)
  })
})

describe('admin catalogs of the other five families', () => {
  const families: [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>, RegExp][] = [
    ['ai-privacy-presets', { entities: ['EMAIL_ADDRESS', 'IBAN'] },
      { entities: ['EMAIL_ADDRESS', 'IBAN'], customPatterns: [], action: 'MASK', maskCharacter: '*', restoreInResponse: false, direction: 'REQUEST' },
      { entities: ['IBAN'], action: 'BLOCK', restoreInResponse: true }, /restoreInResponse: only a MASK preset can restore/],
    ['ai-prompt-guard-presets', { denyPatterns: ['(?i)\\bpassword\\b'] },
      { allowPatterns: [], denyPatterns: ['(?i)\\bpassword\\b'], action: 'BLOCK', inspect: 'USER_MESSAGES' },
      { denyPatterns: ['ok', '(unclosed'] }, /denyPatterns\[1\] is not a valid Java regular expression: Unclosed group/],
    ['ai-prompt-decorator-presets', { prepend: [{ role: 'SYSTEM', content: 'Answer in English.' }] },
      { prepend: [{ role: 'SYSTEM', content: 'Answer in English.' }], append: [] },
      { prepend: [], append: [] }, /prepend: a prompt decorator preset needs at least one message/],
    ['ai-topic-category-presets', { keywords: ['weapons', 'explosives'] },
      { keywords: ['weapons', 'explosives'], examples: [], threshold: 0.75, action: 'BLOCK', direction: 'BOTH' },
      { keywords: ['x'], threshold: 1.5 }, /threshold: must be between 0 and 1/],
    ['ai-prompt-templates', { template: 'Summarise {{text}} in {{ language }}.' },
      { template: 'Summarise {{text}} in {{ language }}.', variables: [
        { name: 'text', description: null, required: true, defaultValue: null },
        { name: 'language', description: null, required: true, defaultValue: null },
      ] },
      { template: 'Hello {{who}}', variables: [{ name: 'name' }] }, /template: placeholder \{\{who\}\} is not declared in variables/],
  ]

  it.each(families)('%s: create, read, update, delete, and a refused rule', async (path, create, expected, bad, message) => {
    const base = `/apiops/settings/${path}/`
    expect((await jsonOf(await call('GET', base, root))).resultCount).toBe(path === 'ai-prompt-guard-presets' ? 1 : 0)
    const created = await call('POST', `${base}sample/`, root, { ...create, description: 'demo' })
    expect(created.status).toBe(200)
    const body = await jsonOf(created)
    expect(body.deploymentResult.success).toBe(true)
    expect(body.resultList[0]).toEqual({
      id: expect.stringMatching(/^prs_/), name: 'sample', description: 'demo', enabled: true, ...expected,
      builtIn: false, overridden: false, projectId: null, inherited: false, revision: 1, createdAt: expect.any(String), updatedAt: expect.any(String),
    })
    expect((await jsonOf(await call('GET', `${base}sample/`, root))).resultList[0]).toEqual(body.resultList[0])

    const before = await snapshot()
    const refused = await call('PUT', `${base}sample/`, root, bad)
    expect(refused.status).toBe(400)
    expect((await jsonOf(refused)).resultMessage).toMatch(message)
    expect(await snapshot()).toEqual(before)

    const updated = await call('PUT', `${base}sample/`, root, { enabled: false })
    expect(updated.status).toBe(200)
    expect((await jsonOf(updated)).resultList[0]).toMatchObject({ ...expected, enabled: false, description: 'demo', revision: 2 })
    expect((await call('PUT', `${base}missing/`, root, create)).status).toBe(400)
    expect((await call('DELETE', `${base}sample/`, root)).status).toBe(200)
    expect((await call('GET', `${base}sample/`, root)).status).toBe(400)
  })

  it('ships a built-in prompt guard preset', async () => {
    const list = (await jsonOf(await call('GET', '/apiops/settings/ai-prompt-guard-presets/', root))).resultList
    expect(list).toEqual([expect.objectContaining({ name: 'prompt-injection-phrases', builtIn: true, action: 'BLOCK' })])
  })

  it('a prompt template keeps declared variable details and derives missing ones when variables are omitted', async () => {
    const base = '/apiops/settings/ai-prompt-templates/'
    let res = await call('POST', `${base}greet/`, root, { template: 'Hi {{name}}', variables: [{ name: 'name', description: 'who', defaultValue: 'there' }] })
    expect((await jsonOf(res)).resultList[0].variables).toEqual([{ name: 'name', description: 'who', required: false, defaultValue: 'there' }])
    res = await call('PUT', `${base}greet/`, root, { template: 'Hi {{name}}, from {{team}}' })
    expect((await jsonOf(res)).resultList[0].variables).toEqual([
      { name: 'name', description: 'who', required: false, defaultValue: 'there' },
      { name: 'team', description: null, required: true, defaultValue: null },
    ])
  })
})
