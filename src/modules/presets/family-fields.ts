import { z } from 'zod'
import type { AiPresetFamily } from '../../generated/prisma/enums.js'
import { malformed } from '../../platform/errors/domain-error.js'
import { compileJavaRegex, JavaRegexError, type CompiledJavaRegex } from './java-regex.js'

// What every preset family is made of (families.ts): its definition, the field schemas and merge rules they share.

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

export const text = (max: number) => z.string().max(max, `must be at most ${max} characters`)
export const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max, `must hold at most ${max} entries`).nullish()
export const enumOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: `must be one of ${values.join(', ')}` }).nullish()

export const required = (field: string, label: string): never => {
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
export const keep = <T>(input: Record<string, unknown>, key: string, stored: T | undefined, fallback: T): T => {
  const v = input[key]
  return v === undefined || v === null ? (stored ?? fallback) : (v as T)
}
/** Nullable text: undefined keeps, null clears. */
export const keepText = (input: Record<string, unknown>, key: string, stored: string | null | undefined): string | null => {
  const v = input[key]
  if (v === undefined) return stored ?? null
  if (v === null) return null
  const trimmed = (v as string).trim()
  return trimmed ? trimmed : null
}

export const unique = (values: string[], field: string, what: string, key: (v: string) => string = (v) => v) => {
  const seen = new Set<string>()
  values.forEach((v, k) => {
    if (seen.has(key(v))) throw malformed(`${field}[${k}]: duplicate ${what} '${v}'`, { field: `${field}[${k}]` })
    seen.add(key(v))
  })
}

/**
 * Three families (privacy, prompt guard, prompt decorator) have two shapes, both accepted (clients of both exist):
 * the older one (lists of entities, patterns or messages in one preset) and the newest vendor pages' one rule per
 * preset. A body is in the shape whose fields it sends (null counts as not sent); a body sending fields of both is
 * refused naming the first older field; a body sending neither keeps the stored preset's shape (the older shape for
 * a new preset). Switching shape drops the stored fields of the other one.
 */
export type PresetShape = 'rule' | 'lists'
export function shapeOf(
  input: Record<string, unknown>, ruleKeys: readonly string[], listKeys: readonly string[], stored: object | undefined, storedIsRule: boolean,
): PresetShape {
  const sent = (keys: readonly string[]) => keys.filter((k) => input[k] !== undefined && input[k] !== null)
  const rule = sent(ruleKeys)
  const lists = sent(listKeys)
  if (rule.length && lists.length) {
    throw malformed(
      `${lists[0]}: the older fields (${listKeys.join(', ')}) cannot be sent with the one-rule fields (${ruleKeys.join(', ')}); a preset is written in one shape`,
      { field: lists[0], reason: 'mixedShapes' },
    )
  }
  if (rule.length) return 'rule'
  if (lists.length) return 'lists'
  return stored && storedIsRule ? 'rule' : 'lists'
}
