import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import type { VendorExample } from '../../scripts/vendor-examples.js'

// Issue 32 §0: the newest vendor pages' one-rule-per-preset shape of the privacy, prompt-guard and prompt-decorator
// families (api-reference/ai-privacy-presets, ai-prompt-guard-presets, ai-prompt-decorator-presets), accepted,
// stored, read back and pushed; the older list shape still accepted; each refusal writes, audits and pushes nothing.

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root' } })
const examples = JSON.parse(fs.readFileSync(new URL('../openapi/vendor-examples.json', import.meta.url), 'utf8')) as VendorExample[]
const example = (page: string, index = 0) => {
  const found = examples.find((e) => e.page === `api-reference/${page}` && e.index === index)
  if (!found) throw new Error(`no example ${page}#${index}`)
  return structuredClone(found.body) as Record<string, any>
}

const prisma = () => bed.svc.deps.prisma
const call = async (method: string, path: string, body?: unknown) => {
  const res = await bed.svc.http(path, {
    method,
    headers: { authorization: `Bearer ${bed.root}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as any }
}
const read = async (family: string, name: string) => {
  const res = await call('GET', `/apiops/settings/${family}/${name}/`)
  expect(res.status).toBe(200)
  return res.body.resultList[0]
}
const audits = (objectName: string) => prisma().auditEvent.findMany({ where: { objectName }, orderBy: { id: 'asc' } })

/** A refused write: 400 naming the field, no preset row changed, no audit event, no push. */
async function refused(method: string, path: string, body: unknown, field: string, message: RegExp) {
  const rows = await prisma().aiPreset.findMany({ orderBy: { id: 'asc' } })
  const events = await prisma().auditEvent.count()
  const pushes = bed.dev.received.length
  const res = await call(method, path, body)
  expect(res.status).toBe(400)
  expect(res.body.status).toBe('FAILURE')
  expect(res.body.resultMessage).toMatch(message)
  expect(res.body.resultMessage.startsWith(`${field}`) || res.body.resultMessage.includes(field)).toBe(true)
  expect(await prisma().aiPreset.findMany({ orderBy: { id: 'asc' } })).toEqual(rows)
  expect(await prisma().auditEvent.count()).toBe(events)
  expect(bed.dev.received.length).toBe(pushes)
  return res.body
}

const PRIVACY = 'ai-privacy-presets'
const GUARD = 'ai-prompt-guard-presets'
const DECORATOR = 'ai-prompt-decorator-presets'

describe('privacy presets, one rule per preset (the newest pages)', () => {
  it("creates the page's examples, stores them, reads back the page's fields, pushes and audits", async () => {
    const first = example('ai-privacy-presets/create-ai-privacy-preset.mdx', 0)
    const res = await call('POST', `/apiops/settings/${PRIVACY}/${first.name}/`, first)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ status: 'SUCCESS', deploymentResult: { success: true } })
    const stored = await prisma().aiPreset.findFirstOrThrow({ where: { family: 'PRIVACY', nameKey: 'internal-account-id' } })
    expect(stored.content).toEqual({
      patternType: 'REGEX', elementName: null, regexPattern: 'ACC-[0-9]{8}', operation: 'MASK', maskMode: 'FIXED', maskPattern: '***', maskVisibleCharCount: 4,
    })
    const view = await read(PRIVACY, 'internal-account-id')
    expect(view).toMatchObject({ name: 'internal-account-id', patternType: 'REGEX', regexPattern: 'ACC-[0-9]{8}', operation: 'MASK', enabled: true, builtIn: false, maskMode: 'FIXED' })
    expect(view).not.toHaveProperty('entities')
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'AI_PRIVACY_PRESET', name: 'internal-account-id', config: { patternType: 'REGEX', operation: 'MASK' } })
    expect(await audits('internal-account-id')).toMatchObject([{ outcome: 'SUCCEEDED', objectType: 'ai-privacy-presets' }])

    const partial = example('ai-privacy-presets/create-ai-privacy-preset.mdx', 1)
    expect((await call('POST', `/apiops/settings/${PRIVACY}/${partial.name}/`, partial)).status).toBe(200)
    expect(await read(PRIVACY, 'customer-phone')).toMatchObject({
      patternType: 'REGEX', regexPattern: '(?<!\\d)0\\d{10}(?!\\d)', operation: 'MASK', maskMode: 'KEEP_LAST', maskPattern: '*', maskVisibleCharCount: 4,
    })
  })

  it("updates with the page's example: a HASH rule carries no mask shape", async () => {
    const update = example('ai-privacy-presets/update-ai-privacy-preset.mdx', 0)
    const res = await call('PUT', `/apiops/settings/${PRIVACY}/${update.name}/`, update)
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ regexPattern: 'ACC-[0-9]{6,10}', operation: 'HASH', maskMode: null, maskPattern: null, maskVisibleCharCount: null, revision: 2 })
    expect(await read(PRIVACY, 'internal-account-id')).toEqual(res.body.resultList[0])
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', name: 'internal-account-id', revision: 2, config: { operation: 'HASH' } })
  })

  it('matches a field name with ELEMENT_NAME', async () => {
    const res = await call('POST', `/apiops/settings/${PRIVACY}/customer-email/`, { patternType: 'ELEMENT_NAME', elementName: 'email', operation: 'DELETE' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ patternType: 'ELEMENT_NAME', elementName: 'email', regexPattern: null, operation: 'DELETE' })
  })

  it('refuses BUILTIN, a missing or invalid pattern, a mask shape without MASK and a mix of both shapes', async () => {
    const base = `/apiops/settings/${PRIVACY}`
    await refused('POST', `${base}/tckn/`, { patternType: 'BUILTIN', elementName: 'BUILTIN_TR_TCKN', operation: 'MASK' }, 'patternType', /BUILTIN is no longer accepted/)
    await refused('POST', `${base}/no-pattern/`, { patternType: 'REGEX', operation: 'MASK' }, 'regexPattern', /regexPattern is required/)
    const invalid = await refused('POST', `${base}/bad-pattern/`, { patternType: 'REGEX', regexPattern: 'ACC-[0-9', operation: 'MASK' }, 'regexPattern', /not a valid Java regular expression/)
    expect(invalid.resultMessage).toMatch(/^regexPattern/)
    await refused('POST', `${base}/no-element/`, { patternType: 'ELEMENT_NAME', operation: 'MASK' }, 'elementName', /elementName is required/)
    await refused('POST', `${base}/no-operation/`, { patternType: 'REGEX', regexPattern: 'x' }, 'operation', /operation is required/)
    await refused('POST', `${base}/hash-mask/`, { patternType: 'REGEX', regexPattern: 'x', operation: 'HASH', maskMode: 'KEEP_LAST' }, 'maskMode', /only a preset of operation MASK/)
    await refused('POST', `${base}/mixed/`, { patternType: 'REGEX', regexPattern: 'x', operation: 'MASK', entities: ['EMAIL_ADDRESS'] }, 'entities', /cannot be sent with the one-rule fields/)
    await refused('PUT', `${base}/internal-account-id/`, { operation: 'ENCRYPT', maskVisibleCharCount: -1 }, 'maskVisibleCharCount', /at least 0/)
  })

  it('still accepts the older shape, and a preset can change shape', async () => {
    const older = await call('POST', `/apiops/settings/${PRIVACY}/pii-lists/`, { entities: ['EMAIL_ADDRESS'], customPatterns: [{ name: 'badge', ruleValue: 'BDG\\d{4}' }] })
    expect(older.status).toBe(200)
    expect(older.body.resultList[0]).toMatchObject({ entities: ['EMAIL_ADDRESS'], action: 'MASK', maskCharacter: '*', direction: 'REQUEST' })
    expect(older.body.resultList[0]).not.toHaveProperty('patternType')
    // a body with neither shape's fields keeps the stored shape
    expect((await call('PUT', `/apiops/settings/${PRIVACY}/pii-lists/`, { description: 'lists' })).body.resultList[0]).toMatchObject({ entities: ['EMAIL_ADDRESS'], description: 'lists' })
    const switched = await call('PUT', `/apiops/settings/${PRIVACY}/pii-lists/`, { patternType: 'REGEX', regexPattern: 'BDG\\d{4}', operation: 'DETECT' })
    expect(switched.status).toBe(200)
    expect((await prisma().aiPreset.findFirstOrThrow({ where: { family: 'PRIVACY', nameKey: 'pii-lists' } })).content).toEqual({
      patternType: 'REGEX', elementName: null, regexPattern: 'BDG\\d{4}', operation: 'DETECT', maskMode: null, maskPattern: null, maskVisibleCharCount: null,
    })
  })
})

describe('prompt-guard presets, one rule per preset', () => {
  it("creates and updates the pages' examples, reads back the page's fields, pushes and audits", async () => {
    const created = example('ai-prompt-guard-presets/create-ai-prompt-guard-preset.mdx')
    const res = await call('POST', `/apiops/settings/${GUARD}/${created.name}/`, created)
    expect(res.status).toBe(200)
    expect(await read(GUARD, created.name)).toMatchObject({
      name: 'block-internal-hostnames', ruleValue: '(?i)internal\\.corp\\.local', action: 'FLAG', category: 'system-leak', description: 'Flags mentions of internal hostnames', enabled: true, builtIn: false,
    })
    expect((await prisma().aiPreset.findFirstOrThrow({ where: { family: 'PROMPT_GUARD', nameKey: created.name } })).content).toEqual({ ruleValue: '(?i)internal\\.corp\\.local', action: 'FLAG', category: 'system-leak' })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'AI_PROMPT_GUARD_PRESET', config: { ruleValue: '(?i)internal\\.corp\\.local' } })
    const updated = example('ai-prompt-guard-presets/update-ai-prompt-guard-preset.mdx')
    expect((await call('PUT', `/apiops/settings/${GUARD}/${updated.name}/`, updated)).status).toBe(200)
    expect(await read(GUARD, updated.name)).toMatchObject({ ruleValue: '(?i)(internal|staging)\\.corp\\.local', action: 'BLOCK', description: 'Blocks mentions of internal and staging hostnames', revision: 2 })
    // action alone keeps the one-rule shape; MASK is one of its actions
    expect((await call('PUT', `/apiops/settings/${GUARD}/${updated.name}/`, { action: 'MASK' })).body.resultList[0]).toMatchObject({ ruleValue: '(?i)(internal|staging)\\.corp\\.local', action: 'MASK' })
    expect((await audits(created.name)).map((a) => a.operation)).toEqual([
      'POST /apiops/settings/ai-prompt-guard-presets/:presetName/', 'PUT /apiops/settings/ai-prompt-guard-presets/:presetName/', 'PUT /apiops/settings/ai-prompt-guard-presets/:presetName/',
    ])
  })

  it('refuses an invalid or missing ruleValue, a missing action, MASK in the older shape and a mix of shapes', async () => {
    const base = `/apiops/settings/${GUARD}`
    await refused('POST', `${base}/bad/`, { ruleValue: '(?i)internal(', action: 'BLOCK' }, 'ruleValue', /not a valid Java regular expression/)
    await refused('POST', `${base}/no-action/`, { ruleValue: 'x' }, 'action', /action is required/)
    await refused('POST', `${base}/no-rule/`, { category: 'jailbreak', action: 'BLOCK' }, 'ruleValue', /ruleValue is required/)
    await refused('POST', `${base}/old-mask/`, { denyPatterns: ['x'], action: 'MASK' }, 'action', /MASK applies to a one-rule preset/)
    await refused('POST', `${base}/mixed/`, { ruleValue: 'x', action: 'BLOCK', denyPatterns: ['y'] }, 'denyPatterns', /cannot be sent with the one-rule fields/)
    await refused('POST', `${base}/bad-action/`, { ruleValue: 'x', action: 'DROP' }, 'action', /must be one of BLOCK, FLAG, MASK/)
  })

  it('still accepts the older shape', async () => {
    const res = await call('POST', `/apiops/settings/${GUARD}/lists/`, { denyPatterns: ['(?i)ignore previous'], action: 'FLAG' })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ allowPatterns: [], denyPatterns: ['(?i)ignore previous'], action: 'FLAG', inspect: 'USER_MESSAGES' })
    expect(res.body.resultList[0]).not.toHaveProperty('ruleValue')
  })
})

describe('prompt-decorator presets, one message per preset', () => {
  it("creates and updates the pages' examples, reads back the page's fields, pushes and audits", async () => {
    const created = example('ai-prompt-decorator-presets/create-ai-prompt-decorator-preset.mdx')
    expect((await call('POST', `/apiops/settings/${DECORATOR}/${created.name}/`, created)).status).toBe(200)
    expect(await read(DECORATOR, 'support-tone')).toMatchObject({
      name: 'support-tone', content: created.content, role: 'system', position: 'PREPEND', category: 'tone', description: 'House style for support assistants', enabled: true, builtIn: false,
    })
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'DEPLOY', kind: 'AI_PROMPT_DECORATOR_PRESET', config: { content: created.content } })
    const updated = example('ai-prompt-decorator-presets/update-ai-prompt-decorator-preset.mdx')
    expect((await call('PUT', `/apiops/settings/${DECORATOR}/${updated.name}/`, updated)).status).toBe(200)
    expect(await read(DECORATOR, 'support-tone')).toMatchObject({ content: updated.content, revision: 2 })
    expect(await audits('support-tone')).toHaveLength(2)
    // blank role and position normalize to system and PREPEND, as the page says
    const blank = await call('POST', `/apiops/settings/${DECORATOR}/plain/`, { content: 'Be brief.', role: '', position: '', category: null })
    expect(blank.body.resultList[0]).toMatchObject({ content: 'Be brief.', role: 'system', position: 'PREPEND', category: null })
  })

  it('refuses a missing content, an unknown role or position and a mix of shapes', async () => {
    const base = `/apiops/settings/${DECORATOR}`
    await refused('POST', `${base}/no-content/`, { role: 'user', position: 'APPEND' }, 'content', /content is required/)
    await refused('POST', `${base}/robot/`, { content: 'x', role: 'robot' }, 'role', /must be one of system, user, assistant/)
    await refused('POST', `${base}/middle/`, { content: 'x', position: 'MIDDLE' }, 'position', /must be one of PREPEND, APPEND/)
    await refused('POST', `${base}/mixed/`, { content: 'x', append: [{ role: 'SYSTEM', content: 'y' }] }, 'append', /cannot be sent with the one-rule fields/)
  })

  it('still accepts the older shape', async () => {
    const res = await call('POST', `/apiops/settings/${DECORATOR}/polite/`, { append: [{ role: 'SYSTEM', content: 'Be polite.' }] })
    expect(res.status).toBe(200)
    expect(res.body.resultList[0]).toMatchObject({ prepend: [], append: [{ role: 'SYSTEM', content: 'Be polite.' }] })
  })
})

describe('the one-rule shapes over GraphQL', () => {
  const gql = async (query: string, variables: Record<string, unknown> = {}) => (await bed.svc.graphql(query, variables, bed.root)).body as { data?: any; errors?: any[] }

  it('saves and reads each family in the one-rule shape with the same rules as REST', async () => {
    const privacy = await gql(`mutation ($input: AiPrivacyPresetInput!) { saveAiPrivacyPreset(name: "gql-phone", input: $input) {
      preset { name patternType regexPattern operation maskMode maskPattern maskVisibleCharCount entities } deploymentResult { success } } }`,
    { input: { patternType: 'REGEX', regexPattern: '0\\d{10}', operation: 'MASK', maskMode: 'KEEP_LAST', maskPattern: '#' } })
    expect(privacy.errors).toBeUndefined()
    expect(privacy.data.saveAiPrivacyPreset.preset).toEqual({ name: 'gql-phone', patternType: 'REGEX', regexPattern: '0\\d{10}', operation: 'MASK', maskMode: 'KEEP_LAST', maskPattern: '#', maskVisibleCharCount: 4, entities: null })
    const guard = await gql('mutation { saveAiPromptGuardPreset(name: "gql-guard", input: { ruleValue: "(?i)secret", action: MASK, category: "leak" }) { preset { ruleValue action category denyPatterns } } }')
    expect(guard.data.saveAiPromptGuardPreset.preset).toEqual({ ruleValue: '(?i)secret', action: 'MASK', category: 'leak', denyPatterns: null })
    const decorator = await gql('mutation { saveAiPromptDecoratorPreset(name: "gql-tone", input: { content: "Be kind.", role: "assistant", position: APPEND }) { preset { content role position prepend { content } } } }')
    expect(decorator.errors).toBeUndefined()
    expect(decorator.data.saveAiPromptDecoratorPreset.preset).toEqual({ content: 'Be kind.', role: 'assistant', position: 'APPEND', prepend: null })
    const readBack = await gql('{ aiPrivacyPreset(name: "gql-phone") { patternType operation } aiPromptGuardPreset(name: "gql-guard") { ruleValue } }')
    expect(readBack.data).toEqual({ aiPrivacyPreset: { patternType: 'REGEX', operation: 'MASK' }, aiPromptGuardPreset: { ruleValue: '(?i)secret' } })

    const before = await prisma().aiPreset.count()
    const pushes = bed.dev.received.length
    const bad = await gql('mutation { saveAiPrivacyPreset(name: "gql-bad", input: { patternType: REGEX, operation: HASH, regexPattern: "[" }) { preset { name } } }')
    expect(bad.errors![0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'regexPattern', reason: 'invalidRegex' } })
    const mixed = await gql('mutation { saveAiPromptDecoratorPreset(name: "gql-mixed", input: { content: "x", prepend: [{ role: SYSTEM, content: "y" }] }) { preset { name } } }')
    expect(mixed.errors![0].extensions).toMatchObject({ errorKey: 'malformedRequest', params: { field: 'prepend', reason: 'mixedShapes' } })
    expect(await prisma().aiPreset.count()).toBe(before)
    expect(bed.dev.received.length).toBe(pushes)
  })
})
