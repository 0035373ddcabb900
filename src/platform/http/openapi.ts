import { dump } from 'js-yaml'
import { z } from 'zod'
import { envelopeComponents, type JsonResponseBody, type ResponseBody } from './response-schemas.js'
import { bodyRequired, type RouteDef } from './routes.js'

const errorRefs = {
  legacy: { $ref: '#/components/schemas/LegacyError' },
  common: { $ref: '#/components/schemas/CommonError' },
  oauth: { $ref: '#/components/schemas/OAuthError' },
} as const

const mediaTypes = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' } as const

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1])

type Json = Record<string, unknown>
const REF = '#/components/schemas/'
/** The response header that documents a 2xx answer without a body (see successAnswer). */
export const EMPTY_HEADER = 'Content-Length'

/**
 * A zod schema as OpenAPI 3.1 JSON Schema. Sub-schemas with an id (`.meta({ id })`) come back as `$defs` from zod;
 * they are moved into `defs` (the document's components.schemas) and referenced there. Other `$defs` (recursive
 * shapes) are named after the operation so two operations never clash.
 */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output', defs: Json, prefix: string): Json {
  const { $schema: _ignored, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json
  const local = Object.keys(($defs as Json | undefined) ?? {}).filter((k) => !z.globalRegistry._idmap.has(k))
  let text = JSON.stringify({ rest, $defs: $defs ?? {} })
  for (const key of local) text = text.replaceAll(`"#/$defs/${key}"`, `"${REF}${prefix}_${key}"`)
  text = text.replaceAll('"#/$defs/', `"${REF}`)
  const parsed = JSON.parse(text) as { rest: Json; $defs: Json }
  for (const [key, value] of Object.entries(parsed.$defs)) defs[local.includes(key) ? `${prefix}_${key}` : key] = value
  return parsed.rest
}

/** The 2xx body schema of a route: its envelope by $ref, with its own fields beside it. */
function responseSchema(body: JsonResponseBody, defs: Json, prefix: string): Json {
  const out = (s: z.ZodType) => jsonSchema(s, 'output', defs, prefix)
  // unevaluatedProperties closes the combination: a field neither the envelope nor the route names is drift
  const envelope = (ref: string, own: Json) => ({ allOf: [{ $ref: REF + ref }, own], unevaluatedProperties: false })
  // every legacy success carries success: true (withLegacySuccess), unless its own fields say what success holds
  const fieldsOf = (s: z.ZodObject) => {
    const { additionalProperties: _open, ...own } = out(s)
    const properties = (own.properties as Json | undefined) ?? {}
    return 'success' in properties ? own : { ...own, properties: { ...properties, success: { const: true } } }
  }
  switch (body.kind) {
    case 'plain':
      return out(body.schema)
    case 'legacy':
      return envelope('LegacySuccess', fieldsOf(body.fields))
    case 'legacyList': {
      const own = fieldsOf(body.fields ?? z.object({}))
      return envelope('LegacyList', { ...own, properties: { ...((own.properties as Json | undefined) ?? {}), resultList: { type: 'array', items: out(body.item) } } })
    }
    case 'page':
      return envelope('PagedEnvelope', { type: 'object', properties: { items: { type: 'array', items: out(body.item) } } })
  }
}

// bytes of another media type: a string of that media type (OpenAPI 3.1 contentMediaType)
const bytesOf = (mediaTypes: string[]) => Object.fromEntries(mediaTypes.map((m) => [m, { schema: { type: 'string', contentMediaType: m } }]))

/** The documented 2xx answer of a route's ResponseBody. */
function successAnswer(description: string, body: ResponseBody, defs: Json, prefix: string) {
  switch (body.kind) {
    case 'file':
      return { description, content: bytesOf(body.mediaTypes) }
    case 'negotiated':
      return { description, content: { 'application/json': { schema: responseSchema(body.json, defs, prefix) }, ...bytesOf(body.mediaTypes) } }
    case 'empty':
      // no content: the body is empty, said by the header a client can rely on
      return { description, headers: { [EMPTY_HEADER]: { description: 'always 0: this answer has no body', schema: { type: 'integer', const: 0 } } } }
    default:
      return { description, content: { 'application/json': { schema: responseSchema(body, defs, prefix) } } }
  }
}

export const operationIdOf = (route: Pick<RouteDef, 'method' | 'path'>) =>
  `${route.method}${toOpenApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`

function operation(route: RouteDef, defs: Json) {
  const id = operationIdOf(route)
  const parameters: unknown[] = pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))
  for (const [name, schema] of Object.entries(route.query?.shape ?? {})) {
    parameters.push({ name, in: 'query', required: !(schema as z.ZodType).safeParse(undefined).success, schema: jsonSchema(schema as z.ZodType, 'input', defs, id) })
  }
  for (const h of route.headers ?? []) {
    parameters.push({ name: h.name, in: 'header', required: h.required ?? false, description: h.description, schema: { type: 'string' } })
  }
  const responses: Record<string, unknown> = {}
  for (const [status, description] of Object.entries(route.responses)) {
    const failure = Number(status) >= 400
    // 204 No Content carries no body, whatever the route's 2xx body is
    const body = Number(status) < 300 && Number(status) !== 204 ? route.response : undefined
    if (failure) responses[status] = { description, content: { 'application/json': { schema: errorRefs[route.style] } } }
    else if (body) responses[status] = successAnswer(description, body, defs, id)
    else responses[status] = { description }
  }
  return {
    tags: [route.tag],
    summary: route.summary,
    operationId: id,
    security: route.auth === 'public' ? [] : [{ bearerAuth: [] }, { serviceToken: [] }],
    parameters,
    ...(route.body
      ? {
          requestBody: {
            required: bodyRequired(route),
            content: {
              [mediaTypes[route.body.kind]]: {
                schema: route.body.schema ? jsonSchema(route.body.schema, 'input', defs, `${id}Body`) : { type: 'object' },
                // file parts are binary strings (OpenAPI 3.1: contentMediaType), sent as files
                ...(route.body.kind === 'multipart'
                  ? { encoding: Object.fromEntries(route.body.files.map((f) => [f, { contentType: 'application/octet-stream' }])) }
                  : {}),
              },
            },
          },
        }
      : {}),
    responses,
  }
}

/** OpenAPI 3.1 of the REST surface, generated from the mounted route tables so it cannot drift from them. */
export function buildOpenApi(routes: RouteDef[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  const defs: Json = {}
  for (const route of routes) {
    const key = toOpenApiPath(route.path)
    paths[key] ??= {}
    paths[key][route.method] = operation(route, defs)
  }
  // shared shapes no route used yet are still published, so clients can name them
  for (const [id, schema] of z.globalRegistry._idmap) if (!(id in defs)) jsonSchema(z.object({ shape: schema }), 'output', defs, id)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Gateway Management API',
      version,
      description: 'REST surface (/apiops and /api) of the gateway management service.',
      license: { name: 'Proprietary (UNLICENSED: not open source)', identifier: 'LicenseRef-Proprietary' },
    },
    // relative: the document is served by the service it describes, so tools resolve paths against where they read it
    servers: [{ url: '/', description: 'this service' }],
    paths,
    components: {
      schemas: { ...envelopeComponents, ...Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))) },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Personal access token from POST /apiops/auth/token' },
        serviceToken: { type: 'apiKey', in: 'header', name: 'service-token' },
      },
    },
  }
}

/** Where the document is still vague: 2xx answers without a schema, request bodies without one (bare objects). */
export function openApiGaps(document: ReturnType<typeof buildOpenApi>) {
  const untypedResponses: string[] = []
  const bareBodies: string[] = []
  let typedResponses = 0
  let typedBodies = 0
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(methods) as [string, { responses: Record<string, { content?: unknown; headers?: Record<string, unknown> }>; requestBody?: { content: Record<string, { schema: Json }> } }][]) {
      for (const [status, answer] of Object.entries(op.responses)) {
        // a 204 has no body to describe
        if (Number(status) >= 300 || status === '204') continue
        if (answer.content || answer.headers?.[EMPTY_HEADER]) typedResponses++
        else untypedResponses.push(`${method.toUpperCase()} ${path} ${status}`)
      }
      if (!op.requestBody) continue
      const bare = Object.values(op.requestBody.content).some((c) => JSON.stringify(c.schema) === '{"type":"object"}')
      if (bare) bareBodies.push(`${method.toUpperCase()} ${path}`)
      else typedBodies++
    }
  }
  return { typedResponses, untypedResponses, typedBodies, bareBodies }
}

/** The same document as YAML (GET /apiops/openapi.yaml): no anchors, so every tool reads it as written. */
export function openApiYaml(document: ReturnType<typeof buildOpenApi>): string {
  return dump(document, { noRefs: true, lineWidth: -1 })
}
