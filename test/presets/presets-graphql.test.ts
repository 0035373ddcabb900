import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../support/app.js'
import { FakeWorker } from '../support/fake-worker.js'
import { sampleBootstrap } from '../support/fixtures.js'
import {
  AiDlpPresetGetDocument, AiDlpPresetListDocument, AiPrivacyPresetListDocument, AiPromptTemplateGetDocument, DeleteAiDlpPresetDocument,
  SaveAiDlpPresetDocument, SaveAiPrivacyPresetDocument, SaveAiPromptDecoratorPresetDocument, SaveAiPromptTemplateDocument,
  SaveAiTopicCategoryPresetDocument, UpdateAiDlpPresetDocument,
} from '../generated/graphql.js'

let svc: TestService
let worker: FakeWorker
let root: string
let alice: string

const snapshot = () => svc.deps.prisma.aiPreset.findMany({ orderBy: { id: 'asc' } })

beforeAll(async () => {
  worker = await FakeWorker.start()
  svc = await startTestService({ bootstrap: sampleBootstrap({ dev: [worker.url] }) })
  root = await svc.tokenFor('root', 's3cret-root')
  alice = await svc.tokenFor('alice', 'alice-pass-1')
})
afterAll(async () => {
  await svc?.close()
  await worker?.stop()
})

describe('presets over GraphQL', () => {
  it('pages the admin DLP catalog by name, built-ins included', async () => {
    const { data, errors } = await svc.op(AiDlpPresetListDocument, { size: 3 }, root)
    expect(errors).toBeUndefined()
    expect(data!.aiDlpPresets).toMatchObject({ page: 0, size: 3, sort: ['name,asc'], totalPages: Math.ceil(data!.aiDlpPresets.totalElements / 3) })
    const names = data!.aiDlpPresets.items.map((p) => p.name)
    expect(names).toEqual([...names].sort())
    expect(data!.aiDlpPresets.items.every((p) => p.builtIn)).toBe(true)
    const bad = await svc.op(AiDlpPresetListDocument, { sort: ['ruleValue,asc'] }, root)
    expect(bad.errors?.[0].extensions).toMatchObject({ errorKey: 'unsupportedSortField', params: { supported: ['name', 'updatedAt'] } })
  })

  it('saves, updates (anchors kept when omitted), reads and deletes a DLP preset with the same rules as REST', async () => {
    const saved = await svc.op(SaveAiDlpPresetDocument, { name: 'invoice', input: { ruleValue: 'INV-\\d{5}+', action: 'MASK', literalAnchors: ['INV-'] } }, root)
    expect(saved.errors).toBeUndefined()
    expect(saved.data!.saveAiDlpPreset).toMatchObject({
      preset: { name: 'invoice', ruleValue: 'INV-\\d{5}+', literalAnchors: ['INV-'], action: 'MASK', builtIn: false, projectId: null, revision: 1 },
      deploymentResult: { success: true, environmentResults: [{ environmentName: 'dev', success: true }, { environmentName: 'prod', success: true }] },
    })
    const updated = await svc.op(UpdateAiDlpPresetDocument, { name: 'INVOICE', input: { ruleValue: 'INV-\\d{6}', action: 'BLOCK', category: 'billing' } }, root)
    expect(updated.data!.updateAiDlpPreset.preset).toMatchObject({ name: 'invoice', literalAnchors: ['INV-'], action: 'BLOCK', category: 'billing', revision: 2 })
    const read = await svc.op(AiDlpPresetGetDocument, { name: 'invoice' }, root)
    expect(read.data!.aiDlpPreset).toEqual(updated.data!.updateAiDlpPreset.preset)
    const deleted = await svc.op(DeleteAiDlpPresetDocument, { name: 'invoice' }, root)
    expect(deleted.data!.deleteAiDlpPreset.success).toBe(true)
    expect(worker.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'AI_DLP_PRESET', name: 'invoice' })
    const gone = await svc.op(AiDlpPresetGetDocument, { name: 'invoice' }, root)
    expect(gone.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', errorKey: 'resourceNotFound', params: { name: 'invoice' } })
  })

  it('updating a built-in marks it overridden', async () => {
    const res = await svc.op(UpdateAiDlpPresetDocument, { name: 'openai-api-key', input: { ruleValue: 'sk-[A-Za-z0-9]{48}', action: 'FLAG' } }, root)
    expect(res.data!.updateAiDlpPreset.preset).toMatchObject({ builtIn: true, overridden: true, literalAnchors: ['sk-'], action: 'FLAG' })
  })

  const refusals: [string, string, Record<string, unknown>, string | null, Record<string, unknown>][] = [
    ['wrong anchor', 'acct', { ruleValue: 'ACCT-?[0-9]+', action: 'FLAG', literalAnchors: ['ACCT-'] }, null,
      { code: 'BAD_USER_INPUT', errorKey: 'malformedRequest', params: { field: 'literalAnchors[0]', anchor: 'ACCT-', reason: 'anchorInconsistent' } }],
    ['uncompilable rule', 'acct', { ruleValue: '(?<1>x)', action: 'FLAG' }, null,
      { errorKey: 'malformedRequest', params: { field: 'ruleValue', reason: 'invalidRegex' } }],
    ['missing ruleValue', 'acct', { action: 'FLAG' }, null, { errorKey: 'malformedRequest', params: { field: 'ruleValue' } }],
    ['name mismatch', 'acct', { name: 'account', ruleValue: 'x', action: 'FLAG' }, null, { errorKey: 'malformedRequest', params: { field: 'name', reason: 'nameMismatch' } }],
  ]
  it.each(refusals)('refuses %s, naming the cause, and writes nothing', async (_label, name, input, projectName, extensions) => {
    const before = await snapshot()
    const res = await svc.op(SaveAiDlpPresetDocument, { name, input: input as never, projectName }, root)
    expect(res.data).toBeNull()
    expect(res.errors?.[0].extensions).toMatchObject(extensions)
    expect(await snapshot()).toEqual(before)
  })

  it('refuses the admin catalog to a non-administrator and lets a project member manage the project\'s own', async () => {
    const before = await snapshot()
    const denied = await svc.op(SaveAiDlpPresetDocument, { name: 'x', input: { ruleValue: 'x', action: 'FLAG' } }, alice)
    expect(denied.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', errorKey: 'permissionDenied', params: { reason: 'systemAdminRequired' } })
    expect((await svc.op(AiDlpPresetListDocument, {}, undefined)).errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED' })
    expect(await snapshot()).toEqual(before)
    const own = await svc.op(SaveAiDlpPresetDocument, { name: 'order', input: { ruleValue: 'ORD\\d+', action: 'FLAG' }, projectName: 'payments' }, alice)
    expect(own.data!.saveAiDlpPreset.preset).toMatchObject({ projectId: 'payments', inherited: false })
    const list = await svc.op(AiDlpPresetListDocument, { projectName: 'payments', size: 200 }, alice)
    const items = list.data!.aiDlpPresets.items
    expect(items.find((p) => p.name === 'order')).toMatchObject({ inherited: false })
    expect(items.find((p) => p.name === 'iban')).toMatchObject({ inherited: true })
  })

  it('a built-in name in a project creates the project\'s own preset; saving that name again collides and writes nothing', async () => {
    const shadow = await svc.op(SaveAiDlpPresetDocument, { name: 'iban', input: { ruleValue: 'IBAN\\d+', action: 'FLAG' }, projectName: 'payments' }, alice)
    expect(shadow.data!.saveAiDlpPreset.preset).toMatchObject({ name: 'iban', projectId: 'payments', inherited: false, builtIn: false })
    const before = await snapshot()
    const again = await svc.op(SaveAiDlpPresetDocument, { name: 'iban', input: { ruleValue: 'x', action: 'FLAG' }, projectName: 'payments' }, alice)
    expect(again.data).toBeNull()
    expect(again.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', errorKey: 'alreadyExists', params: { field: 'name', name: 'iban', reason: 'nameCollision' } })
    expect(await snapshot()).toEqual(before)
    expect((await svc.op(DeleteAiDlpPresetDocument, { name: 'iban', projectName: 'payments' }, alice)).errors).toBeUndefined()
  })

  it('serves the other families with typed fields', async () => {
    const privacy = await svc.op(SaveAiPrivacyPresetDocument, { name: 'pii', input: { entities: ['EMAIL_ADDRESS'], customPatterns: [{ name: 'badge', ruleValue: 'BDG\\d{4}' }] } }, root)
    expect(privacy.data!.saveAiPrivacyPreset.preset).toMatchObject({ entities: ['EMAIL_ADDRESS'], customPatterns: [{ name: 'badge', ruleValue: 'BDG\\d{4}' }], action: 'MASK', maskCharacter: '*' })
    expect((await svc.op(AiPrivacyPresetListDocument, {}, root)).data!.aiPrivacyPresets.totalElements).toBe(1)
    const badPattern = await svc.op(SaveAiPrivacyPresetDocument, { name: 'pii2', input: { customPatterns: [{ name: 'x', ruleValue: '[' }] } }, root)
    expect(badPattern.errors?.[0].extensions).toMatchObject({ params: { field: 'customPatterns[0].ruleValue' } })
    const decorator = await svc.op(SaveAiPromptDecoratorPresetDocument, { name: 'polite', input: { append: [{ role: 'SYSTEM', content: 'Be polite.' }] } }, root)
    expect(decorator.data!.saveAiPromptDecoratorPreset.preset).toMatchObject({ prepend: [], append: [{ role: 'SYSTEM', content: 'Be polite.' }] })
    const topic = await svc.op(SaveAiTopicCategoryPresetDocument, { name: 'violence', input: { examples: ['how to hurt someone'], threshold: 0.9 } }, root)
    expect(topic.data!.saveAiTopicCategoryPreset.preset).toMatchObject({ keywords: [], examples: ['how to hurt someone'], threshold: 0.9 })
    const template = await svc.op(SaveAiPromptTemplateDocument, { name: 'translate', input: { template: 'Translate {{text}} to {{lang}}' } }, root)
    expect(template.errors).toBeUndefined()
    const read = await svc.op(AiPromptTemplateGetDocument, { name: 'translate' }, root)
    expect(read.data!.aiPromptTemplate.variables.map((v) => v.name)).toEqual(['text', 'lang'])
  })
})
