import { describe, expect, it } from 'vitest'
import { useTestbed } from '../support/testbed.js'
import {
  AiDlpPresetGetDocument, AiDlpPresetListDocument, AiPrivacyPresetListDocument, AiPromptTemplateGetDocument, DeleteAiDlpPresetDocument,
  SaveAiDlpPresetDocument, SaveAiPrivacyPresetDocument, SaveAiPromptDecoratorPresetDocument, SaveAiPromptTemplateDocument,
  SaveAiTopicCategoryPresetDocument, UpdateAiDlpPresetDocument,
} from '../generated/graphql.js'

const bed = useTestbed({ workers: ['dev'], tokens: { root: 's3cret-root', alice: 'alice-pass-1' } })

const snapshot = () => bed.svc.deps.prisma.aiPreset.findMany({ orderBy: { id: 'asc' } })

describe('presets over GraphQL', () => {
  it('pages the admin DLP catalog by name, built-ins included', async () => {
    const { data, errors } = await bed.svc.op(AiDlpPresetListDocument, { size: 3 }, bed.root)
    expect(errors).toBeUndefined()
    expect(data!.aiDlpPresets).toMatchObject({ page: 0, size: 3, sort: ['name,asc'], totalPages: Math.ceil(data!.aiDlpPresets.totalElements / 3) })
    const names = data!.aiDlpPresets.items.map((p) => p.name)
    expect(names).toEqual([...names].sort())
    expect(data!.aiDlpPresets.items.every((p) => p.builtIn)).toBe(true)
    const bad = await bed.svc.op(AiDlpPresetListDocument, { sort: ['ruleValue,asc'] }, bed.root)
    expect(bad.errors?.[0].extensions).toMatchObject({ errorKey: 'unsupportedSortField', params: { supported: ['name', 'updatedAt'] } })
  })

  it('saves, updates (anchors kept when omitted), reads and deletes a DLP preset with the same rules as REST', async () => {
    const saved = await bed.svc.op(SaveAiDlpPresetDocument, { name: 'invoice', input: { ruleValue: 'INV-\\d{5}+', action: 'MASK', literalAnchors: ['INV-'] } }, bed.root)
    expect(saved.errors).toBeUndefined()
    expect(saved.data!.saveAiDlpPreset).toMatchObject({
      preset: { name: 'invoice', ruleValue: 'INV-\\d{5}+', literalAnchors: ['INV-'], action: 'MASK', builtIn: false, projectId: null, revision: 1 },
      deploymentResult: { success: true, environmentResults: [{ environmentName: 'dev', success: true }, { environmentName: 'prod', success: true }] },
    })
    const updated = await bed.svc.op(UpdateAiDlpPresetDocument, { name: 'INVOICE', input: { ruleValue: 'INV-\\d{6}', action: 'BLOCK', category: 'billing' } }, bed.root)
    expect(updated.data!.updateAiDlpPreset.preset).toMatchObject({ name: 'invoice', literalAnchors: ['INV-'], action: 'BLOCK', category: 'billing', revision: 2 })
    const read = await bed.svc.op(AiDlpPresetGetDocument, { name: 'invoice' }, bed.root)
    expect(read.data!.aiDlpPreset).toEqual(updated.data!.updateAiDlpPreset.preset)
    const deleted = await bed.svc.op(DeleteAiDlpPresetDocument, { name: 'invoice' }, bed.root)
    expect(deleted.data!.deleteAiDlpPreset.success).toBe(true)
    expect(bed.dev.received.at(-1)).toMatchObject({ action: 'UNDEPLOY', kind: 'AI_DLP_PRESET', name: 'invoice' })
    const gone = await bed.svc.op(AiDlpPresetGetDocument, { name: 'invoice' }, bed.root)
    expect(gone.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', errorKey: 'resourceNotFound', params: { name: 'invoice' } })
  })

  it('updating a built-in marks it overridden', async () => {
    const res = await bed.svc.op(UpdateAiDlpPresetDocument, { name: 'openai-api-key', input: { ruleValue: 'sk-[A-Za-z0-9]{48}', action: 'FLAG' } }, bed.root)
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
    const res = await bed.svc.op(SaveAiDlpPresetDocument, { name, input: input as never, projectName }, bed.root)
    expect(res.data).toBeNull()
    expect(res.errors?.[0].extensions).toMatchObject(extensions)
    expect(await snapshot()).toEqual(before)
  })

  it('refuses the admin catalog to a non-administrator and lets a project member manage the project\'s own', async () => {
    const before = await snapshot()
    const denied = await bed.svc.op(SaveAiDlpPresetDocument, { name: 'x', input: { ruleValue: 'x', action: 'FLAG' } }, bed.alice)
    expect(denied.errors?.[0].extensions).toMatchObject({ code: 'FORBIDDEN', errorKey: 'permissionDenied', params: { reason: 'systemAdminRequired' } })
    expect((await bed.svc.op(AiDlpPresetListDocument, {}, undefined)).errors?.[0].extensions).toMatchObject({ code: 'UNAUTHENTICATED' })
    expect(await snapshot()).toEqual(before)
    const own = await bed.svc.op(SaveAiDlpPresetDocument, { name: 'order', input: { ruleValue: 'ORD\\d+', action: 'FLAG' }, projectName: 'payments' }, bed.alice)
    expect(own.data!.saveAiDlpPreset.preset).toMatchObject({ projectId: 'payments', inherited: false })
    const list = await bed.svc.op(AiDlpPresetListDocument, { projectName: 'payments', size: 200 }, bed.alice)
    const items = list.data!.aiDlpPresets.items
    expect(items.find((p) => p.name === 'order')).toMatchObject({ inherited: false })
    expect(items.find((p) => p.name === 'iban')).toMatchObject({ inherited: true })
  })

  it('a built-in name in a project creates the project\'s own preset; saving that name again collides and writes nothing', async () => {
    const shadow = await bed.svc.op(SaveAiDlpPresetDocument, { name: 'iban', input: { ruleValue: 'IBAN\\d+', action: 'FLAG' }, projectName: 'payments' }, bed.alice)
    expect(shadow.data!.saveAiDlpPreset.preset).toMatchObject({ name: 'iban', projectId: 'payments', inherited: false, builtIn: false })
    const before = await snapshot()
    const again = await bed.svc.op(SaveAiDlpPresetDocument, { name: 'iban', input: { ruleValue: 'x', action: 'FLAG' }, projectName: 'payments' }, bed.alice)
    expect(again.data).toBeNull()
    expect(again.errors?.[0].extensions).toMatchObject({ code: 'CONFLICT', errorKey: 'alreadyExists', params: { field: 'name', name: 'iban', reason: 'nameCollision' } })
    expect(await snapshot()).toEqual(before)
    expect((await bed.svc.op(DeleteAiDlpPresetDocument, { name: 'iban', projectName: 'payments' }, bed.alice)).errors).toBeUndefined()
  })

  it('serves the other families with typed fields', async () => {
    const privacy = await bed.svc.op(SaveAiPrivacyPresetDocument, { name: 'pii', input: { entities: ['EMAIL_ADDRESS'], customPatterns: [{ name: 'badge', ruleValue: 'BDG\\d{4}' }] } }, bed.root)
    expect(privacy.data!.saveAiPrivacyPreset.preset).toMatchObject({ entities: ['EMAIL_ADDRESS'], customPatterns: [{ name: 'badge', ruleValue: 'BDG\\d{4}' }], action: 'MASK', maskCharacter: '*' })
    expect((await bed.svc.op(AiPrivacyPresetListDocument, {}, bed.root)).data!.aiPrivacyPresets.totalElements).toBe(1)
    const badPattern = await bed.svc.op(SaveAiPrivacyPresetDocument, { name: 'pii2', input: { customPatterns: [{ name: 'x', ruleValue: '[' }] } }, bed.root)
    expect(badPattern.errors?.[0].extensions).toMatchObject({ params: { field: 'customPatterns[0].ruleValue' } })
    const decorator = await bed.svc.op(SaveAiPromptDecoratorPresetDocument, { name: 'polite', input: { append: [{ role: 'SYSTEM', content: 'Be polite.' }] } }, bed.root)
    expect(decorator.data!.saveAiPromptDecoratorPreset.preset).toMatchObject({ prepend: [], append: [{ role: 'SYSTEM', content: 'Be polite.' }] })
    const topic = await bed.svc.op(SaveAiTopicCategoryPresetDocument, { name: 'violence', input: { examples: ['how to hurt someone'], threshold: 0.9 } }, bed.root)
    expect(topic.data!.saveAiTopicCategoryPreset.preset).toMatchObject({ keywords: [], examples: ['how to hurt someone'], threshold: 0.9 })
    const template = await bed.svc.op(SaveAiPromptTemplateDocument, { name: 'translate', input: { template: 'Translate {{text}} to {{lang}}' } }, bed.root)
    expect(template.errors).toBeUndefined()
    const read = await bed.svc.op(AiPromptTemplateGetDocument, { name: 'translate' }, bed.root)
    expect(read.data!.aiPromptTemplate.variables.map((v) => v.name)).toEqual(['text', 'lang'])
  })
})
