import { z } from 'zod'
import type { AiPresetFamily } from '../../generated/prisma/enums.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { occursInEveryMatch, PatternTooComplexError } from './anchors.js'
import type { CompiledJavaRegex } from './java-regex.js'
import { enumOf, javaRegexOrRefuse, keep, keepText, list, required, shapeOf, text, unique, type PresetFamilyDef } from './family-fields.js'

// The six preset families (spec §2.10 for DLP; the other five are designed here, see docs/presets.md), each its
// fields and its build (the definition and the merge rules they share: family-fields.ts).

// ---------------------------------------------------------------- DLP (§2.10)

export const DLP_ACTIONS = ['BLOCK', 'FLAG', 'MASK'] as const
export interface DlpContent { ruleValue: string; literalAnchors: string[]; action: (typeof DLP_ACTIONS)[number]; category: string | null }
export const MAX_ANCHORS = 32
export const MAX_ANCHOR_LENGTH = 256

/** Every anchor must occur in every possible match of the rule; the first one that does not is named. */
export function checkAnchors(compiled: CompiledJavaRegex, anchors: string[], field = 'literalAnchors'): void {
  anchors.forEach((anchor, k) => {
    let ok: boolean
    try {
      ok = occursInEveryMatch(compiled.ast, anchor)
    } catch (err) {
      if (err instanceof PatternTooComplexError) throw malformed(`${field}: ${err.message}`, { field: 'ruleValue', reason: 'tooComplex' })
      throw err
    }
    if (!ok) {
      throw malformed(`${field}[${k}]: literal anchor '${anchor}' does not occur in every possible match of ruleValue`, {
        field: `${field}[${k}]`, anchor, reason: 'anchorInconsistent',
      })
    }
  })
}

const dlp: PresetFamilyDef<DlpContent> = {
  family: 'DLP',
  path: 'ai-dlp-presets',
  label: 'DLP preset',
  deployKind: 'AI_DLP_PRESET',
  fields: {
    ruleValue: z.string().nullish(),
    literalAnchors: list(z.string().min(1, 'must not be empty').max(MAX_ANCHOR_LENGTH, `must be at most ${MAX_ANCHOR_LENGTH} characters`), MAX_ANCHORS),
    action: enumOf(DLP_ACTIONS),
    category: text(100).nullish(),
  },
  build(input, stored) {
    const given = input.ruleValue as string | null | undefined
    const ruleValue = given && given.trim() !== '' ? given : required('ruleValue', this.label)
    const action = (input.action as DlpContent['action'] | null | undefined) ?? required('action', this.label)
    const compiled = javaRegexOrRefuse(ruleValue, 'ruleValue')
    const literalAnchors = keep(input, 'literalAnchors', stored?.literalAnchors, [] as string[])
    unique(literalAnchors, 'literalAnchors', 'anchor')
    checkAnchors(compiled, literalAnchors)
    return { ruleValue, literalAnchors, action, category: keepText(input, 'category', stored?.category) }
  },
}

// ---------------------------------------------------------------- privacy (PII detection and masking)

export const PII_ENTITIES = [
  'EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'IBAN', 'IP_ADDRESS', 'PERSON_NAME', 'LOCATION', 'DATE_OF_BIRTH',
  'NATIONAL_ID', 'PASSPORT_NUMBER', 'URL', 'CRYPTO_WALLET',
] as const
export const PRIVACY_ACTIONS = ['MASK', 'REDACT', 'BLOCK', 'FLAG'] as const
export const DIRECTIONS = ['REQUEST', 'RESPONSE', 'BOTH'] as const
export interface PrivacyContent {
  entities: (typeof PII_ENTITIES)[number][]
  customPatterns: { name: string; ruleValue: string }[]
  action: (typeof PRIVACY_ACTIONS)[number]
  maskCharacter: string
  restoreInResponse: boolean
  direction: (typeof DIRECTIONS)[number]
}

export const PRIVACY_PATTERN_TYPES = ['ELEMENT_NAME', 'REGEX'] as const
export const PRIVACY_OPERATIONS = ['MASK', 'DELETE', 'ENCRYPT', 'HASH', 'DETECT'] as const
export const PRIVACY_MASK_MODES = ['FIXED', 'KEEP_FIRST', 'KEEP_LAST', 'MASK_FIRST'] as const
/** The newest pages' shape: one pattern (a field name or a Java regular expression) and what to do with a match. */
export interface PrivacyRuleContent {
  patternType: (typeof PRIVACY_PATTERN_TYPES)[number]
  elementName: string | null
  regexPattern: string | null
  operation: (typeof PRIVACY_OPERATIONS)[number]
  /** MASK only (null otherwise) */
  maskMode: (typeof PRIVACY_MASK_MODES)[number] | null
  maskPattern: string | null
  maskVisibleCharCount: number | null
}
const PRIVACY_RULE_KEYS = ['patternType', 'elementName', 'regexPattern', 'operation', 'maskMode', 'maskPattern', 'maskVisibleCharCount'] as const
const PRIVACY_LIST_KEYS = ['entities', 'customPatterns', 'action', 'maskCharacter', 'restoreInResponse', 'direction'] as const

function buildPrivacyRule(input: Record<string, unknown>, stored: Partial<PrivacyRuleContent> | undefined): PrivacyRuleContent {
  const label = 'privacy preset'
  const patternType = keep<PrivacyRuleContent['patternType'] | null>(input, 'patternType', stored?.patternType, null) ?? required('patternType', label)
  const operation = keep<PrivacyRuleContent['operation'] | null>(input, 'operation', stored?.operation, null) ?? required('operation', label)
  const elementName = keepText(input, 'elementName', stored?.elementName)
  let regexPattern = keepText(input, 'regexPattern', stored?.regexPattern)
  if (patternType === 'REGEX') {
    if (!regexPattern) required('regexPattern', `${label} of patternType REGEX`)
    javaRegexOrRefuse(regexPattern!, 'regexPattern')
  } else {
    if (!elementName) required('elementName', `${label} of patternType ELEMENT_NAME`)
    if (input.regexPattern !== undefined && input.regexPattern !== null && String(input.regexPattern).trim() !== '') {
      throw malformed('regexPattern: only a preset of patternType REGEX has a regular expression', { field: 'regexPattern' })
    }
    regexPattern = null
  }
  if (operation !== 'MASK') {
    const sent = (['maskMode', 'maskPattern', 'maskVisibleCharCount'] as const).find((k) => input[k] !== undefined && input[k] !== null)
    if (sent) throw malformed(`${sent}: only a preset of operation MASK has a mask shape`, { field: sent })
    return { patternType, elementName, regexPattern, operation, maskMode: null, maskPattern: null, maskVisibleCharCount: null }
  }
  return {
    patternType, elementName, regexPattern, operation,
    maskMode: keep(input, 'maskMode', stored?.maskMode ?? undefined, 'FIXED'),
    maskPattern: keep(input, 'maskPattern', stored?.maskPattern ?? undefined, '***'),
    maskVisibleCharCount: keep(input, 'maskVisibleCharCount', stored?.maskVisibleCharCount ?? undefined, 4),
  }
}

const privacy: PresetFamilyDef<PrivacyContent | PrivacyRuleContent> = {
  family: 'PRIVACY',
  path: 'ai-privacy-presets',
  label: 'privacy preset',
  deployKind: 'AI_PRIVACY_PRESET',
  fields: {
    entities: list(z.enum(PII_ENTITIES, { error: `must be one of ${PII_ENTITIES.join(', ')}` }), PII_ENTITIES.length),
    customPatterns: list(z.strictObject({ name: z.string().trim().min(1, 'must not be blank').max(100, 'must be at most 100 characters'), ruleValue: z.string().min(1, 'must not be empty') }), 20),
    action: enumOf(PRIVACY_ACTIONS),
    maskCharacter: z.string().length(1, 'must be exactly one character').nullish(),
    restoreInResponse: z.boolean().nullish(),
    direction: enumOf(DIRECTIONS),
    // the newest pages' one-rule shape
    patternType: z.enum(PRIVACY_PATTERN_TYPES, { error: `must be one of ${PRIVACY_PATTERN_TYPES.join(', ')} (BUILTIN is no longer accepted: write its pattern as REGEX)` }).nullish(),
    elementName: text(200).nullish(),
    regexPattern: text(4096).nullish(),
    operation: enumOf(PRIVACY_OPERATIONS),
    maskMode: enumOf(PRIVACY_MASK_MODES),
    maskPattern: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').nullish(),
    maskVisibleCharCount: z.number().int('must be an integer').min(0, 'must be at least 0').max(1000, 'must be at most 1000').nullish(),
  },
  build(input, stored) {
    const storedIsRule = !!stored && 'patternType' in stored
    if (shapeOf(input, PRIVACY_RULE_KEYS, PRIVACY_LIST_KEYS, stored, storedIsRule) === 'rule') {
      return buildPrivacyRule(input, storedIsRule ? (stored as PrivacyRuleContent) : undefined)
    }
    const old = storedIsRule ? undefined : (stored as PrivacyContent | undefined)
    const c: PrivacyContent = {
      entities: keep(input, 'entities', old?.entities, []),
      customPatterns: keep(input, 'customPatterns', old?.customPatterns, []),
      action: keep(input, 'action', old?.action, 'MASK'),
      maskCharacter: keep(input, 'maskCharacter', old?.maskCharacter, '*'),
      restoreInResponse: keep(input, 'restoreInResponse', old?.restoreInResponse, false),
      direction: keep(input, 'direction', old?.direction, 'REQUEST'),
    }
    if (c.entities.length === 0 && c.customPatterns.length === 0) {
      throw malformed('entities: a privacy preset needs at least one entity or custom pattern (or, in one-rule form, patternType and operation)', { field: 'entities' })
    }
    unique(c.entities, 'entities', 'entity')
    unique(c.customPatterns.map((p) => p.name), 'customPatterns', 'pattern name', (n) => n.toLowerCase())
    c.customPatterns.forEach((p, k) => javaRegexOrRefuse(p.ruleValue, `customPatterns[${k}].ruleValue`))
    if (c.restoreInResponse && c.action !== 'MASK') {
      throw malformed('restoreInResponse: only a MASK preset can restore the masked values in the response', { field: 'restoreInResponse' })
    }
    return c
  },
}

// ---------------------------------------------------------------- prompt guard (allow and deny patterns)

export const GUARD_ACTIONS = ['BLOCK', 'FLAG'] as const
/** the one-rule shape adds MASK (the matched text masked, the prompt let through) */
export const GUARD_RULE_ACTIONS = ['BLOCK', 'FLAG', 'MASK'] as const
export const GUARD_INSPECT = ['ALL_MESSAGES', 'USER_MESSAGES', 'LAST_USER_MESSAGE'] as const
export interface PromptGuardContent {
  allowPatterns: string[]
  denyPatterns: string[]
  action: (typeof GUARD_ACTIONS)[number]
  inspect: (typeof GUARD_INSPECT)[number]
}
/** The newest pages' shape: one Java regular expression matched against the prompt, and what to do with a match. */
export interface PromptGuardRuleContent { ruleValue: string; action: (typeof GUARD_RULE_ACTIONS)[number]; category: string | null }
// `action` belongs to both shapes: it decides nothing
const GUARD_RULE_KEYS = ['ruleValue', 'category'] as const
const GUARD_LIST_KEYS = ['allowPatterns', 'denyPatterns', 'inspect'] as const

const patternList = list(z.string().min(1, 'must not be empty'), 50)

const promptGuard: PresetFamilyDef<PromptGuardContent | PromptGuardRuleContent> = {
  family: 'PROMPT_GUARD',
  path: 'ai-prompt-guard-presets',
  label: 'prompt guard preset',
  deployKind: 'AI_PROMPT_GUARD_PRESET',
  fields: {
    allowPatterns: patternList,
    denyPatterns: patternList,
    action: enumOf(GUARD_RULE_ACTIONS),
    inspect: enumOf(GUARD_INSPECT),
    // the newest pages' one-rule shape
    ruleValue: text(4096).nullish(),
    category: text(100).nullish(),
  },
  build(input, stored) {
    const storedIsRule = !!stored && 'ruleValue' in stored
    if (shapeOf(input, GUARD_RULE_KEYS, GUARD_LIST_KEYS, stored, storedIsRule) === 'rule') {
      const old = storedIsRule ? (stored as PromptGuardRuleContent) : undefined
      const ruleValue = keepText(input, 'ruleValue', old?.ruleValue) ?? required('ruleValue', this.label)
      javaRegexOrRefuse(ruleValue, 'ruleValue')
      const action = keep<PromptGuardRuleContent['action'] | null>(input, 'action', old?.action, null) ?? required('action', this.label)
      return { ruleValue, action, category: keepText(input, 'category', old?.category) }
    }
    const old = storedIsRule ? undefined : (stored as PromptGuardContent | undefined)
    const action = keep<string>(input, 'action', old?.action, 'BLOCK')
    if (action === 'MASK') throw malformed('action: MASK applies to a one-rule preset (ruleValue), not to allow and deny patterns', { field: 'action' })
    const c: PromptGuardContent = {
      allowPatterns: keep(input, 'allowPatterns', old?.allowPatterns, []),
      denyPatterns: keep(input, 'denyPatterns', old?.denyPatterns, []),
      action: action as PromptGuardContent['action'],
      inspect: keep(input, 'inspect', old?.inspect, 'USER_MESSAGES'),
    }
    if (c.allowPatterns.length + c.denyPatterns.length === 0) {
      throw malformed('denyPatterns: a prompt guard preset needs at least one allow or deny pattern (or, in one-rule form, a ruleValue)', { field: 'denyPatterns' })
    }
    for (const field of ['allowPatterns', 'denyPatterns'] as const) c[field].forEach((p, k) => javaRegexOrRefuse(p, `${field}[${k}]`))
    return c
  },
}

// ---------------------------------------------------------------- prompt decorator (messages added around the prompt)

export const MESSAGE_ROLES = ['SYSTEM', 'USER', 'ASSISTANT'] as const
export interface DecoratorMessage { role: (typeof MESSAGE_ROLES)[number]; content: string }
export interface PromptDecoratorContent { prepend: DecoratorMessage[]; append: DecoratorMessage[] }
/** The newest pages' roles are lower case; blank means system */
export const DECORATOR_ROLES = ['system', 'user', 'assistant'] as const
export const DECORATOR_POSITIONS = ['PREPEND', 'APPEND'] as const
/** The newest pages' shape: one message, added before or after the caller's messages. */
export interface PromptDecoratorRuleContent {
  content: string
  role: (typeof DECORATOR_ROLES)[number]
  position: (typeof DECORATOR_POSITIONS)[number]
  category: string | null
}
const DECORATOR_RULE_KEYS = ['content', 'role', 'position', 'category'] as const
const DECORATOR_LIST_KEYS = ['prepend', 'append'] as const

const messageContent = z.string().trim().min(1, 'must not be blank').max(10_000, 'must be at most 10000 characters')
const message = z.strictObject({
  role: z.enum(MESSAGE_ROLES, { error: `must be one of ${MESSAGE_ROLES.join(', ')}` }),
  content: messageContent,
})
/** blank (or omitted on create) normalizes to the default, as the page says */
const blankOr = <T extends readonly [string, ...string[]]>(values: T) =>
  z.union([z.enum(values), z.literal('')], { error: `must be one of ${values.join(', ')} (blank: ${values[0]})` }).nullish()

const promptDecorator: PresetFamilyDef<PromptDecoratorContent | PromptDecoratorRuleContent> = {
  family: 'PROMPT_DECORATOR',
  path: 'ai-prompt-decorator-presets',
  label: 'prompt decorator preset',
  deployKind: 'AI_PROMPT_DECORATOR_PRESET',
  fields: {
    prepend: list(message, 20),
    append: list(message, 20),
    // the newest pages' one-rule shape
    content: messageContent.nullish(),
    role: blankOr(DECORATOR_ROLES),
    position: blankOr(DECORATOR_POSITIONS),
    category: text(100).nullish(),
  },
  build(input, stored) {
    const storedIsRule = !!stored && 'content' in stored
    if (shapeOf(input, DECORATOR_RULE_KEYS, DECORATOR_LIST_KEYS, stored, storedIsRule) === 'rule') {
      const old = storedIsRule ? (stored as PromptDecoratorRuleContent) : undefined
      const content = keep<string | null>(input, 'content', old?.content, null) ?? required('content', this.label)
      const role = (input.role === '' ? 'system' : keep(input, 'role', old?.role, 'system')) as PromptDecoratorRuleContent['role']
      const position = (input.position === '' ? 'PREPEND' : keep(input, 'position', old?.position, 'PREPEND')) as PromptDecoratorRuleContent['position']
      return { content, role, position, category: keepText(input, 'category', old?.category) }
    }
    const old = storedIsRule ? undefined : (stored as PromptDecoratorContent | undefined)
    const c = { prepend: keep(input, 'prepend', old?.prepend, []), append: keep(input, 'append', old?.append, []) }
    if (c.prepend.length + c.append.length === 0) {
      throw malformed('prepend: a prompt decorator preset needs at least one message to prepend or append (or, in one-rule form, a content)', { field: 'prepend' })
    }
    return c
  },
}

// ---------------------------------------------------------------- content-safety topic categories

export interface TopicCategoryContent {
  keywords: string[]
  examples: string[]
  threshold: number
  action: (typeof GUARD_ACTIONS)[number]
  direction: (typeof DIRECTIONS)[number]
}

const topicCategory: PresetFamilyDef<TopicCategoryContent> = {
  family: 'TOPIC_CATEGORY',
  path: 'ai-topic-category-presets',
  label: 'topic category preset',
  deployKind: 'AI_TOPIC_CATEGORY_PRESET',
  fields: {
    keywords: list(z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters'), 200),
    examples: list(z.string().trim().min(1, 'must not be blank').max(2000, 'must be at most 2000 characters'), 50),
    threshold: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').nullish(),
    action: enumOf(GUARD_ACTIONS),
    direction: enumOf(DIRECTIONS),
  },
  build(input, stored) {
    const c: TopicCategoryContent = {
      keywords: keep(input, 'keywords', stored?.keywords, []),
      examples: keep(input, 'examples', stored?.examples, []),
      threshold: keep(input, 'threshold', stored?.threshold, 0.75),
      action: keep(input, 'action', stored?.action, 'BLOCK'),
      direction: keep(input, 'direction', stored?.direction, 'BOTH'),
    }
    if (c.keywords.length + c.examples.length === 0) {
      throw malformed('keywords: a topic category preset needs at least one keyword or example', { field: 'keywords' })
    }
    unique(c.keywords, 'keywords', 'keyword', (k) => k.toLowerCase())
    return c
  },
}

// ---------------------------------------------------------------- prompt templates

export interface TemplateVariable { name: string; description: string | null; required: boolean; defaultValue: string | null }
export interface PromptTemplateContent { template: string; variables: TemplateVariable[] }

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
/** `{{name}}`, spaces inside the braces allowed */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

export function templatePlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]))]
}

const variable = z.strictObject({
  name: z.string().regex(VARIABLE_NAME, 'must be a letter or _ followed by letters, digits or _').max(100, 'must be at most 100 characters'),
  description: text(1000).nullish(),
  required: z.boolean().nullish(),
  defaultValue: text(10_000).nullish(),
})

const promptTemplate: PresetFamilyDef<PromptTemplateContent> = {
  family: 'PROMPT_TEMPLATE',
  path: 'ai-prompt-templates',
  label: 'prompt template',
  deployKind: 'AI_PROMPT_TEMPLATE',
  fields: { template: text(20_000).nullish(), variables: list(variable, 100) },
  build(input, stored) {
    const template = keep(input, 'template', stored?.template, '')
    if (!template.trim()) required('template', this.label)
    const placeholders = templatePlaceholders(template)
    placeholders.forEach((p) => {
      if (!VARIABLE_NAME.test(p)) throw malformed(`template: placeholder {{${p}}} is not a valid variable name`, { field: 'template', placeholder: p })
    })
    const given = input.variables as z.infer<typeof variable>[] | null | undefined
    let variables: TemplateVariable[]
    if (given === undefined || given === null) {
      // derived from the placeholders, keeping what was stored for names that remain
      const byName = new Map((stored?.variables ?? []).map((v) => [v.name, v]))
      variables = placeholders.map((name) => byName.get(name) ?? { name, description: null, required: true, defaultValue: null })
    } else {
      unique(given.map((v) => v.name), 'variables', 'variable name')
      variables = given.map((v) => ({ name: v.name, description: v.description ?? null, required: v.required ?? v.defaultValue == null, defaultValue: v.defaultValue ?? null }))
      const declared = new Set(variables.map((v) => v.name))
      const undeclared = placeholders.find((p) => !declared.has(p))
      if (undeclared) throw malformed(`template: placeholder {{${undeclared}}} is not declared in variables`, { field: 'template', placeholder: undeclared })
    }
    return { template, variables }
  },
}

export const PRESET_FAMILIES = [dlp, privacy, promptGuard, promptDecorator, topicCategory, promptTemplate] as unknown as PresetFamilyDef[]

export const familyDef = (family: AiPresetFamily): PresetFamilyDef => PRESET_FAMILIES.find((f) => f.family === family)!
