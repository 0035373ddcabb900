// Bad requests derived from an OpenAPI operation (for test/platform/fuzz-openapi.test.ts): every kind of input the
// boundary must refuse without a server error, generated from the document so new routes are covered.

export type Style = 'legacy' | 'common' | 'oauth'

export interface Operation {
  method: string
  /** OpenAPI path, `{param}` placeholders */
  path: string
  style: Style
  pathParams: string[]
  queryParams: { name: string; schema: JsonSchema }[]
  body?: { mediaType: string; schema: JsonSchema; required: boolean }
}

export interface JsonSchema {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  required?: string[]
}

export interface FuzzRequest {
  op: Operation
  /** what is bad about it, for failure messages */
  label: string
  /** path with placeholders filled and the query string */
  url: string
  body?: { contentType: string; payload: string | FormData }
}

const HUGE = '99999999999999999999'
export const NUL = '\u0000'

/** A JSON value nested `levels` deep, as text (JSON.stringify would recurse). */
export const deepJson = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)

/** Stands for a 5000-deep value in a body; bodyText puts the text in its place. */
const DEEP = '\u0001deep\u0001'
const bodyText = (value: unknown) => JSON.stringify(value).replace(JSON.stringify(DEEP), deepJson(5000))

type SchemaOrRef = { properties?: Record<string, unknown>; $ref?: string }
type Components = { schemas?: Record<string, SchemaOrRef> }

/** A component's schema for a `#/components/schemas/…` reference (the error bodies are shared components). */
const resolved = (schema: SchemaOrRef | undefined, components: Components | undefined): SchemaOrRef | undefined =>
  schema?.$ref?.startsWith('#/components/schemas/') ? components?.schemas?.[schema.$ref.slice('#/components/schemas/'.length)] : schema

const styleOf = (op: { responses?: Record<string, { content?: Record<string, { schema?: SchemaOrRef }> }> }, path: string, components?: Components): Style => {
  for (const [status, answer] of Object.entries(op.responses ?? {})) {
    const props = resolved(answer.content?.['application/json']?.schema, components)?.properties
    if (Number(status) < 400 || !props) continue
    if ('errorKey' in props) return 'common'
    if ('resultMessage' in props) return 'legacy'
    if ('error' in props) return 'oauth'
  }
  return path.startsWith('/apiops') ? 'legacy' : 'common'
}

/** Every operation of the document, with what the fuzz needs of it. */
export function operationsOf(doc: { paths: Record<string, Record<string, any>>; components?: Components }): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => {
      const params = (op.parameters ?? []) as { name: string; in: string; schema: JsonSchema }[]
      const content = Object.entries((op.requestBody?.content ?? {}) as Record<string, { schema: JsonSchema }>)[0]
      return {
        method: method.toUpperCase(),
        path,
        style: styleOf(op, path, doc.components),
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: content ? { mediaType: content[0], schema: content[1].schema ?? {}, required: op.requestBody.required === true } : undefined,
      }
    }),
  )
}

/** Path values: the bootstrap's project (so calls reach the module), anything else names nothing. */
const goodPathValue = (name: string) => (name === 'projectName' ? 'payments' : `fuzz-${name}`)

function fillPath(op: Operation, overrides: Record<string, string> = {}): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => overrides[name] ?? encodeURIComponent(goodPathValue(name)))
}

const withQuery = (path: string, pairs: [string, string][]) =>
  pairs.length ? `${path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : path

const typesOf = (s: JsonSchema): string[] => {
  if (s.enum || s.const !== undefined) return ['enum']
  const own = s.type === undefined ? [] : ([] as string[]).concat(s.type)
  return [...own, ...[...(s.anyOf ?? []), ...(s.oneOf ?? [])].flatMap(typesOf)]
}

/** Values of the wrong kind for a property of this schema (types it cannot accept, unknown enum values, huge numbers). */
function badValuesFor(schema: JsonSchema): [string, unknown][] {
  const types = new Set(typesOf(schema))
  const out: [string, unknown][] = [['NUL string', `fuzz${NUL}value`]]
  if (types.has('enum')) out.push(['unknown enum value', 'NOT_A_VALUE'])
  if (types.has('string') || types.has('enum')) out.push(['number for a string', 12345], ['array for a string', ['a']])
  if (types.has('number') || types.has('integer')) {
    out.push(['huge number', Number(HUGE)], ['huge number text', HUGE], ['1e308', 1e308], ['negative huge', -1e20], ['string for a number', 'ten'])
  }
  if (types.has('boolean')) out.push(['string for a boolean', 'yes'])
  if (types.has('object') || types.size === 0) out.push(['array for an object', [1, 2]], ['string for an object', 'x'])
  if (types.has('array')) out.push(['object for an array', { a: 1 }], ['array of NUL strings', [NUL]], ['array of arrays', [[[1]]]])
  return out
}

/** Top-level property names to try when a body has no documented schema (plans, assignments, …). */
const GUESSED_FIELDS = ['name', 'family', 'status', 'subject', 'ruleSpec', 'initialRuleSpec', 'version', 'organizationCode', 'labels', 'description', 'target', 'content', 'owner', 'servers']

/** Every bad request of one operation. */
export function badRequestsOf(op: Operation): FuzzRequest[] {
  const out: FuzzRequest[] = []
  const base = fillPath(op)
  const add = (label: string, url: string, body?: FuzzRequest['body']) => out.push({ op, label, url, body })
  const goodBody = goodBodyOf(op)

  // A write whose path or query is odd but legal would be carried out (a proxy named 99999…, a list ignoring
  // page): writes get the refusals that must hold whatever the route; reads get every odd value.
  const read = op.method === 'GET'
  for (const name of op.pathParams) {
    add(`NUL in path ${name}`, fillPath(op, { [name]: 'fuzz%00x' }), goodBody)
    if (!read) continue
    add(`huge number in path ${name}`, fillPath(op, { [name]: HUGE }))
    add(`long path ${name}`, fillPath(op, { [name]: 'x'.repeat(3000) }))
  }
  add('NUL in an undeclared query parameter', withQuery(base, [['fuzz', `a${NUL}`]]), goodBody)
  for (const q of op.queryParams) add(`NUL in query ${q.name}`, withQuery(base, [[q.name, `x${NUL}`]]), goodBody)
  if (read) {
    add('huge page', withQuery(base, [['page', HUGE]]))
    add('huge size', withQuery(base, [['size', HUGE]]))
    for (const q of op.queryParams) {
      add(`empty query ${q.name}`, withQuery(base, [[q.name, '']]))
      add(`unknown value in query ${q.name}`, withQuery(base, [[q.name, 'NOT_A_VALUE']]))
      add(`huge number in query ${q.name}`, withQuery(base, [[q.name, HUGE]]))
      add(`repeated query ${q.name}`, withQuery(base, [[q.name, 'a'], [q.name, 'b']]))
    }
  }
  if (!op.body) return out

  if (op.body.mediaType === 'application/json') {
    const json = (payload: string) => ({ contentType: 'application/json', payload })
    // an optional body left out is a valid call (an AI proxy created with defaults)
    if (op.body.required) {
      add('no body', base)
      add('empty JSON body', base, json(''))
    }
    add('not JSON', base, json('{"a":'))
    add('JSON string body', base, json('"text"'))
    add('array body', base, json('[1,2]'))
    add('5000 deep body', base, json(deepJson(5000)))
    add('NUL key', base, json(JSON.stringify({ [`k${NUL}`]: 1 })))
    const props = Object.entries(op.body.schema.properties ?? {})
    const fields: [string, JsonSchema][] = props.length ? props : GUESSED_FIELDS.map((f) => [f, {}])
    add(`5000 deep in body ${fields[0][0]}`, base, json(bodyText({ [fields[0][0]]: DEEP })))
    for (const [field, schema] of fields) {
      for (const [kind, value] of badValuesFor(schema)) add(`${kind} in body ${field}`, base, json(bodyText({ [field]: value })))
      for (const [inner, innerSchema] of Object.entries(schema.properties ?? {})) {
        for (const [kind, value] of badValuesFor(innerSchema)) add(`${kind} in body ${field}.${inner}`, base, json(bodyText({ [field]: { [inner]: value } })))
      }
    }
  } else if (op.body.mediaType === 'application/x-www-form-urlencoded') {
    const fields = Object.keys(op.body.schema.properties ?? {})
    const form = (pairs: Record<string, string>) => ({ contentType: 'application/x-www-form-urlencoded', payload: new URLSearchParams(pairs).toString() })
    for (const field of fields) {
      add(`1 MB form field ${field}`, base, form({ ...formDefaults(fields), [field]: 'x'.repeat(1024 * 1024) }))
      add(`NUL in form field ${field}`, base, form({ ...formDefaults(fields), [field]: `x${NUL}` }))
    }
    add('empty form', base, form({}))
    add('JSON to a form endpoint', base, { contentType: 'application/json', payload: '{}' })
  } else if (op.body.mediaType === 'multipart/form-data') {
    for (const field of Object.keys(op.body.schema.properties ?? {})) {
      const data = new FormData()
      data.set(field, `x${NUL}`)
      add(`NUL in multipart field ${field}`, base, { contentType: '', payload: data })
    }
    add('JSON to a multipart endpoint', base, { contentType: 'application/json', payload: '{}' })
    add('empty multipart', base, { contentType: '', payload: new FormData() })
  }
  return out
}

/** Fields that pass the token endpoint's shape, so only the mutated one is wrong (a wrong grant writes nothing). */
const formDefaults = (fields: string[]) => Object.fromEntries(fields.map((f) => [f, f === 'grant_type' ? 'not-a-grant' : 'fuzz']))

/** The body sent along path and query mutations: an empty object, which no create accepts. */
function goodBodyOf(op: Operation): FuzzRequest['body'] {
  if (op.body?.mediaType !== 'application/json') return undefined
  return { contentType: 'application/json', payload: '{}' }
}
