import { z } from 'zod'
import type { AiPresetFamily } from '../../generated/prisma/enums.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { occursInEveryMatch, PatternTooComplexError } from './anchors.js'
import { compileJavaRegex, JavaRegexError, type CompiledJavaRegex } from './java-regex.js'

/**
 * The six preset families (spec §2.10 for DLP; the other five are designed here, see docs/presets.md).
 * Each family declares its own fields as an input schema and a `build` that merges the input over the
 * stored content (omitted keeps, see below) and enforces the family's rules. Name, description and
 * enabled are common columns, handled by the service.
 *
 * Merge rule for every family on update: an omitted field (or null, for lists, enums, numbers and
 * booleans) keeps the stored value; null clears a nullable text; an empty list clears a list.
 */
export interface PresetFamilyDef<C = Record<string, unknown>> {
  family: AiPresetFamily
  /** path segment under /apiops/settings/ and /apiops/projects/{projectName}/ */
  path: string
  /** used in messages: "DLP preset 'x' not found" */
  label: string
  /** `kind` of the push to gateway workers */
  deployKind: string
  /** the family's own input fields (all optional at the schema level; `build` enforces what is required) */
  fields: z.ZodRawShape
  build(input: Record<string, unknown>, stored: C | undefined): C
}

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`)
const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max, `must hold at most ${max} entries`).nullish()
const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` }).nullish()

const required = (field: string, label: string): never => {
  throw malformed(`${field} is required for a ${label}`, { field })
}

/** Compiles a Java regular expression or answers 400 naming the field and Java's reason. */
export function javaRegexOrRefuse(pattern: string, field: string): CompiledJavaRegex {
  try {
    return compileJavaRegex(pattern)
  } catch (err) {
    if (err instanceof JavaRegexError) {
      throw malformed(`${field} is not a valid Java regular expression: ${err.message}`, { field, reason: 'invalidRegex' })
    }
    throw err
  }
}

/** `input[key]` when given (not undefined/null), else the stored value, else the default. */
const keep = <T>(input: Record<string, unknown>, key: string, stored: T | undefined, fallback: T): T => {
  const v = input[key]
  return v === undefined || v === null ? (stored ?? fallback) : (v as T)
}
/** Nullable text: undefined keeps, null clears. */
const keepText = (input: Record<string, unknown>, key: string, stored: string | null | undefined): string | null => {
  const v = input[key]
  if (v === undefined) return stored ?? null
  if (v === null) return null
  const trimmed = (v as string).trim()
  return trimmed ? trimmed : null
}

const unique = (values: string[], field: string, what: string, key: (v: string) => string = (v) => v) => {
  const seen = new Set<string>()
  values.forEach((v, k) => {
    if (seen.has(key(v))) throw malformed(`${field}[${k}]: duplicate ${what} '${v}'`, { field: `${field}[${k}]` })
    seen.add(key(v))
  })
}

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

const privacy: PresetFamilyDef<PrivacyContent> = {
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
  },
  build(input, stored) {
    const c: PrivacyContent = {
      entities: keep(input, 'entities', stored?.entities, []),
      customPatterns: keep(input, 'customPatterns', stored?.customPatterns, []),
      action: keep(input, 'action', stored?.action, 'MASK'),
      maskCharacter: keep(input, 'maskCharacter', stored?.maskCharacter, '*'),
      restoreInResponse: keep(input, 'restoreInResponse', stored?.restoreInResponse, false),
      direction: keep(input, 'direction', stored?.direction, 'REQUEST'),
    }
    if (c.entities.length === 0 && c.customPatterns.length === 0) {
      throw malformed('entities: a privacy preset needs at least one entity or custom pattern', { field: 'entities' })
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
export const GUARD_INSPECT = ['ALL_MESSAGES', 'USER_MESSAGES', 'LAST_USER_MESSAGE'] as const
export interface PromptGuardContent {
  allowPatterns: string[]
  denyPatterns: string[]
  action: (typeof GUARD_ACTIONS)[number]
  inspect: (typeof GUARD_INSPECT)[number]
}

const patternList = list(z.string().min(1, 'must not be empty'), 50)

const promptGuard: PresetFamilyDef<PromptGuardContent> = {
  family: 'PROMPT_GUARD',
  path: 'ai-prompt-guard-presets',
  label: 'prompt guard preset',
  deployKind: 'AI_PROMPT_GUARD_PRESET',
  fields: { allowPatterns: patternList, denyPatterns: patternList, action: enumOf(GUARD_ACTIONS), inspect: enumOf(GUARD_INSPECT) },
  build(input, stored) {
    const c: PromptGuardContent = {
      allowPatterns: keep(input, 'allowPatterns', stored?.allowPatterns, []),
      denyPatterns: keep(input, 'denyPatterns', stored?.denyPatterns, []),
      action: keep(input, 'action', stored?.action, 'BLOCK'),
      inspect: keep(input, 'inspect', stored?.inspect, 'USER_MESSAGES'),
    }
    if (c.allowPatterns.length + c.denyPatterns.length === 0) {
      throw malformed('denyPatterns: a prompt guard preset needs at least one allow or deny pattern', { field: 'denyPatterns' })
    }
    for (const field of ['allowPatterns', 'denyPatterns'] as const) c[field].forEach((p, k) => javaRegexOrRefuse(p, `${field}[${k}]`))
    return c
  },
}

// ---------------------------------------------------------------- prompt decorator (messages added around the prompt)

export const MESSAGE_ROLES = ['SYSTEM', 'USER', 'ASSISTANT'] as const
export interface DecoratorMessage { role: (typeof MESSAGE_ROLES)[number]; content: string }
export interface PromptDecoratorContent { prepend: DecoratorMessage[]; append: DecoratorMessage[] }

const message = z.strictObject({
  role: z.enum(MESSAGE_ROLES, { error: `must be one of ${MESSAGE_ROLES.join(', ')}` }),
  content: z.string().trim().min(1, 'must not be blank').max(10_000, 'must be at most 10000 characters'),
})

const promptDecorator: PresetFamilyDef<PromptDecoratorContent> = {
  family: 'PROMPT_DECORATOR',
  path: 'ai-prompt-decorator-presets',
  label: 'prompt decorator preset',
  deployKind: 'AI_PROMPT_DECORATOR_PRESET',
  fields: { prepend: list(message, 20), append: list(message, 20) },
  build(input, stored) {
    const c = { prepend: keep(input, 'prepend', stored?.prepend, []), append: keep(input, 'append', stored?.append, []) }
    if (c.prepend.length + c.append.length === 0) {
      throw malformed('prepend: a prompt decorator preset needs at least one message to prepend or append', { field: 'prepend' })
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
