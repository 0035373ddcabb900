import { dump } from 'js-yaml'
import { z } from 'zod'
import { bodyRequired, type RouteDef } from './routes.js'

const errorBodies = {
  legacy: { type: 'object', properties: { status: { const: 'FAILURE' }, resultMessage: { type: 'string' } } },
  common: {
    type: 'object',
    properties: { errorKey: { type: 'string' }, message: { type: 'string' }, params: { type: 'object' }, correlationId: { type: 'string' } },
  },
  oauth: { type: 'object', properties: { error: { type: 'string' }, error_description: { type: 'string' } } },
} as const

const mediaTypes = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' } as const

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')
const pathParams = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1])

function jsonSchema(schema: z.ZodType): unknown {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>
  return rest
}

function operation(route: RouteDef) {
  const parameters: unknown[] = pathParams(route.path).map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }))
  for (const [name, schema] of Object.entries(route.query?.shape ?? {})) {
    parameters.push({ name, in: 'query', required: !(schema as z.ZodType).safeParse(undefined).success, schema: jsonSchema(schema as z.ZodType) })
  }
  for (const h of route.headers ?? []) {
    parameters.push({ name: h.name, in: 'header', required: h.required ?? false, description: h.description, schema: { type: 'string' } })
  }
  const responses: Record<string, unknown> = {}
  for (const [status, description] of Object.entries(route.responses)) {
    const failure = Number(status) >= 400
    responses[status] = failure
      ? { description, content: { 'application/json': { schema: errorBodies[route.style] } } }
      : { description }
  }
  return {
    tags: [route.tag],
    summary: route.summary,
    operationId: `${route.method}${toOpenApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    security: route.auth === 'public' ? [] : [{ bearerAuth: [] }, { serviceToken: [] }],
    parameters,
    ...(route.body
      ? {
          requestBody: {
            required: bodyRequired(route),
            content: {
              [mediaTypes[route.body.kind]]: {
                schema: route.body.schema ? jsonSchema(route.body.schema) : { type: 'object' },
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
  for (const route of routes) {
    const key = toOpenApiPath(route.path)
    paths[key] ??= {}
    paths[key][route.method] = operation(route)
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Gateway Management API', version, description: 'REST surface (/apiops and /api) of the gateway management service.' },
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Personal access token from POST /apiops/auth/token' },
        serviceToken: { type: 'apiKey', in: 'header', name: 'service-token' },
      },
    },
  }
}

/** The same document as YAML (GET /apiops/openapi.yaml): no anchors, so every tool reads it as written. */
export function openApiYaml(document: ReturnType<typeof buildOpenApi>): string {
  return dump(document, { noRefs: true, lineWidth: -1 })
}
