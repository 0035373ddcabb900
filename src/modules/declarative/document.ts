import { z } from 'zod'
import { malformed, malformedReason } from '../../platform/errors/domain-error.js'
import { DEFINITION_LIST, objectSchema } from './collections.js'

/**
 * The state document (docs/declarative.md): `formatVersion`, `project`, `environments`, optional `namespace`, then
 * one key per collection. One zod schema; the JSON Schema served at GET /apiops/declarative/schema.json is generated
 * from it, so editors, `gwctl validate` and the server check the same rules.
 */
export const STATE_FORMAT_VERSION = 1

const collectionShape = Object.fromEntries(
  DEFINITION_LIST.map((c) => [c.key, z.array(objectSchema(c)).optional().describe(`${c.type}${c.kind ? `/${c.kind}` : ''} objects, by ${c.nameField}`)]),
)

export const stateDocumentSchema = z
  .object({
    formatVersion: z.literal(STATE_FORMAT_VERSION, { error: `must be ${STATE_FORMAT_VERSION}` }),
    project: z.string().min(1).max(200).describe('the project name'),
    environments: z.array(z.string().min(1)).default([]).describe("the project's environment names"),
    namespace: z.string().min(1).max(100).regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ., _ and - only').optional()
      .describe('the owner of the objects this file creates: sync deletes only objects of this namespace'),
    ...collectionShape,
  })
  .strict()
  .meta({ title: 'Gateway declarative state document', description: 'A project as a file (issue 29); see docs/declarative.md' })

export type StateDocument = z.output<typeof stateDocumentSchema>
export type DocumentObject = Record<string, unknown>

let jsonSchema: unknown = null

/** The JSON Schema (draft 2020-12) of the state document, generated from the zod schema. */
export function stateJsonSchema(): unknown {
  jsonSchema ??= {
    $id: '/apiops/declarative/schema.json',
    ...z.toJSONSchema(stateDocumentSchema, { io: 'input', unrepresentable: 'any' }),
  }
  return jsonSchema
}

const REFERENCE = /\$\{(env|file):[^}]*\}/

/** The first `${env:…}` / `${file:…}` left in a value (the CLI resolves them before planning), with its path. */
export function findUnresolved(value: unknown, path: string): { path: string; reference: string } | null {
  // the path as segments, pushed and popped, written out only for the reference found: a document of thousands of
  // objects is walked without a path text per value
  const segments: (string | number)[] = []
  const walk = (v: unknown): string | null => {
    if (typeof v === 'string') return v.includes('${') ? REFERENCE.exec(v)?.[0] ?? null : null
    if (!v || typeof v !== 'object') return null
    const record = v as Record<string, unknown>
    const keys: (string | number)[] = Array.isArray(v) ? v.map((_, i) => i) : Object.keys(record)
    for (const k of keys) {
      segments.push(k)
      const found = walk(record[k as string])
      if (found) return found
      segments.pop()
    }
    return null
  }
  const reference = walk(value)
  if (!reference) return null
  let out = path
  for (const s of segments) out = typeof s === 'number' ? `${out}[${s}]` : out ? `${out}.${s}` : s
  return { path: out, reference }
}

/** Parses a state document: every issue named by its path (e.g. `credentials[3].email`). */
export function parseStateDocument(raw: unknown): StateDocument {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('document: must be a state document (an object)', { field: 'document' })
  const parsed = stateDocumentSchema.safeParse(raw)
  if (!parsed.success) {
    const errors = parsed.error.issues.slice(0, 50).map((i) => ({ path: pathText(i.path), message: unknownKeys(i) ?? i.message }))
    throw malformedReason('declarativeDocumentInvalid', `The state document is invalid: ${errors.map((e) => `${e.path || 'document'}: ${e.message}`).join('; ')}`, {
      field: `document.${errors[0]!.path}`, errors,
    })
  }
  const unresolved = findUnresolved(raw, '')
  if (unresolved) {
    throw malformedReason('declarativeReferenceUnresolved', `${unresolved.path}: ${unresolved.reference} is not resolved (gwctl resolves references before planning)`, {
      field: `document.${unresolved.path}`, reference: unresolved.reference,
    })
  }
  return parsed.data
}

function unknownKeys(issue: z.core.$ZodIssue): string | null {
  return issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `'${k}'`).join(', ')}` : null
}

export const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), '')
