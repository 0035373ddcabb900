// GraphQL types generated from the zod schemas the REST door validates with (issue 30 §1: one rule behind both
// doors). An input type gives GraphQL clients the fields, their nullability and descriptions of a body; the values
// still go through the same zod schema in the service, so every rule (ranges, patterns, cross-field checks) is the
// REST rule. What GraphQL cannot say (a union of shapes, a free-form record) is typed JSON.
import { JSONResolver } from 'graphql-scalars'
import { Field, Float, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql'
import type { z } from 'zod'

type Kind = 'input' | 'object'
type TypeRef = () => unknown
type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; element?: z.ZodType; options?: z.ZodType[]; values?: unknown[]; getter?: () => z.ZodType; entries?: Record<string, unknown>; shape?: Record<string, z.ZodType> }

const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def
const describe = (s: z.ZodType): string | undefined => (s as unknown as { description?: string }).description

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'])

/** The schema under its wrappers (optional, default, the input side of a transform…) and whether a value may be absent. */
function unwrap(schema: z.ZodType, kind: Kind): { inner: z.ZodType; optional: boolean; description?: string } {
  let s = schema
  let optional = false
  let description = describe(s)
  for (;;) {
    const def = defOf(s)
    if (WRAPPERS.has(def.type)) {
      // an output always has a defaulted value; an input may leave it out
      if (def.type === 'optional' || def.type === 'nullable' || (kind === 'input' && (def.type === 'default' || def.type === 'prefault' || def.type === 'catch'))) optional = true
      s = def.innerType!
    } else if (def.type === 'pipe') {
      // a transform's input side is what a client sends; a preprocess's is the schema after it
      const side = kind === 'input' ? def.in! : def.out!
      s = defOf(side).type === 'transform' ? (kind === 'input' ? def.out! : def.in!) : side
    } else if (def.type === 'lazy') s = def.getter!()
    else break
    description ??= describe(s)
  }
  return { inner: s, optional, description }
}

const pascal = (key: string) => key.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_m, _s, c: string) => c.toUpperCase())

const SCALARS: Record<string, unknown> = { string: String, boolean: Boolean, date: GraphQLISODateTime }

function scalarOf(inner: z.ZodType): unknown | undefined {
  const def = defOf(inner)
  if (def.type === 'number') {
    const n = inner as unknown as { isInt?: boolean; format?: string | null }
    return n.isInt || n.format?.includes('int') ? Int : Float
  }
  if (def.type === 'int') return Int
  if (def.type === 'enum') return String
  if (def.type === 'literal') {
    const kinds = new Set(def.values!.map((v) => typeof v))
    return kinds.size === 1 ? ({ string: String, boolean: Boolean, number: Float } as Record<string, unknown>)[[...kinds][0]!] : undefined
  }
  return SCALARS[def.type]
}

const generated = { input: new Map<z.ZodType, Function>(), object: new Map<z.ZodType, Function>() }
const usedNames = new Set<string>()

function typeOf(schema: z.ZodType, kind: Kind, name: string): unknown {
  const def = defOf(schema)
  const scalar = scalarOf(schema)
  if (scalar) return scalar
  if (def.type === 'array') {
    // an item of rows or variableList is a Row or a Variable
    const { inner } = unwrap(def.element!, kind)
    const suffix = kind === 'input' && name.endsWith('Input') ? 'Input' : ''
    const base = name.slice(0, name.length - suffix.length)
    return [typeOf(inner, kind, `${base.replace(/List$/, '').replace(/([^s])s$/, '$1')}${suffix}`)]
  }
  if (def.type === 'object') return Object.keys(def.shape!).length ? zodGraphqlType(schema as z.ZodObject, kind, name) : JSONResolver
  if (def.type === 'union') {
    // one scalar whatever the branch (e.g. '*' or a header name): that scalar; else JSON
    const types = new Set(def.options!.map((o) => scalarOf(unwrap(o, kind).inner)))
    if (types.size === 1 && !types.has(undefined)) return [...types][0]
  }
  return JSONResolver
}

const valuesOf = (s: z.ZodType) => (defOf(s).type === 'enum' ? Object.values(defOf(s).entries!).map(String) : undefined)

/**
 * The TypeGraphQL input (or object) type of a zod object schema, named `name`; nested objects get `name` + the
 * field's name (before an `Input` suffix). One class per schema and kind: a schema used twice is one type.
 */
export function zodGraphqlType(schema: z.ZodObject, kind: Kind, name: string, description?: string): Function {
  const known = generated[kind].get(schema)
  if (known) return known
  if (usedNames.has(name)) throw new Error(`GraphQL type ${name} is generated twice from different schemas`)
  usedNames.add(name)
  const suffix = kind === 'input' && name.endsWith('Input') ? 'Input' : ''
  const base = suffix ? name.slice(0, -suffix.length) : name
  const type = { [name]: class {} }[name]!
  generated[kind].set(schema, type)
  for (const [key, field] of Object.entries(defOf(schema).shape!)) {
    const { inner, optional, description: text } = unwrap(field, kind)
    const values = valuesOf(inner)
    const ref = typeOf(inner, kind, `${base}${pascal(key)}${suffix}`)
    const about = [text, values ? `one of ${values.join(', ')}` : undefined].filter(Boolean).join('; ') || undefined
    Field((() => ref) as TypeRef as never, { nullable: optional, description: about })(type.prototype, key)
  }
  ;(kind === 'input' ? InputType : ObjectType)(name, { description: description ?? describe(schema) })(type)
  return type
}

/** An input object as plain JSON, for a zod schema that may be strict about what it is given. */
export const plainInput = (input: unknown): unknown => (input === undefined || input === null ? input : JSON.parse(JSON.stringify(input)))
