import { createRequire } from 'node:module'
import { Ajv2020 } from 'ajv/dist/2020.js'
import * as ajvFormats from 'ajv-formats'
import type { ValidateFunction } from 'ajv'
import { buildOpenApi, EMPTY_HEADER } from '../../src/platform/http/openapi.js'
import { routeTables } from '../../src/routes.js'

// The drift check of the OpenAPI document (issue 18 §2): every JSON answer the test HTTP helper receives is
// validated against the schema its operation declares for that status, and a mismatch throws in the test that
// made the call. The document is the one the service serves (same route tables); validators are compiled on
// first use and kept on globalThis, so a worker compiles each one once for all its test files.

interface Operation { method: string; pattern: RegExp; path: string; responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }> }
interface Checker { operations: Operation[]; ajv: Ajv2020; validators: Map<string, ValidateFunction | null> }

const COMPONENTS = 'https://openapi.invalid/components' // an absolute id of no one's, for ajv's resolver

// ajv-formats is CommonJS with only a default export: depending on the loader (Node, Vite) the plugin is the
// namespace's default or that default's default
type FormatsPlugin = (ajv: Ajv2020) => unknown
const formatsNamespace = ajvFormats as unknown as { default: FormatsPlugin & { default?: FormatsPlugin } }
const addFormats: FormatsPlugin = formatsNamespace.default.default ?? formatsNamespace.default

function createChecker(): Checker {
  const version = (createRequire(import.meta.url)('../../package.json') as { version: string }).version
  // refs into components.schemas become refs into one schema holding them as $defs, a location ajv resolves
  const doc = JSON.parse(JSON.stringify(buildOpenApi(routeTables, version)).replaceAll('"#/components/schemas/', `"${COMPONENTS}#/$defs/`)) as {
    paths: Record<string, Record<string, { responses: Operation['responses'] }>>
    components: { schemas: Record<string, unknown> }
  }
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: COMPONENTS, $defs: doc.components.schemas })
  const operations: Operation[] = []
  for (const [path, methods] of Object.entries(doc.paths)) {
    // Express matches without regard to a trailing slash (non-strict routing), in mount order: so do we
    const source = path.replace(/\/$/, '').replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')
    for (const [method, op] of Object.entries(methods)) operations.push({ method, pattern: new RegExp(`^${source}/?$`), path, responses: op.responses })
  }
  return { operations, ajv, validators: new Map() }
}

const store = globalThis as { __openApiChecker?: Checker }
const checker = () => (store.__openApiChecker ??= createChecker())

/** Throws when a JSON answer does not match its operation's declared schema for that status. */
export async function checkAnswer(method: string, url: string, res: Response): Promise<void> {
  const { operations, ajv, validators } = checker()
  const pathname = new URL(url).pathname
  const op = operations.find((o) => o.method === method.toLowerCase() && o.pattern.test(pathname))
  if (!op) return // not a route-table operation (GraphQL, health, the document itself)
  const declared = op.responses[String(res.status)]
  // an answer documented without a body (Content-Length 0) has none
  if (declared?.headers?.[EMPTY_HEADER] && (await res.clone().text()) !== '') {
    throw new Error(`OpenAPI drift: ${method.toUpperCase()} ${pathname} answered ${res.status} with a body; the document says it has none`)
  }
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) return
  const schema = declared?.content?.['application/json']?.schema
  if (!schema) return // undocumented answer shape: a known gap (test/openapi/known-gaps.json)
  const key = `${op.method} ${op.path} ${res.status}`
  let validate = validators.get(key)
  if (validate === undefined) {
    validate = ajv.compile(schema as object)
    validators.set(key, validate)
  }
  const text = await res.clone().text()
  if (!text) return
  if (validate && !validate(JSON.parse(text))) {
    throw new Error(`OpenAPI drift: ${method.toUpperCase()} ${pathname} answered ${res.status} with a body that does not match ${key}: ${ajv.errorsText(validate.errors, { separator: '; ' })}\nbody: ${text.slice(0, 2000)}`)
  }
}
