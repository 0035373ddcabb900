import { z } from 'zod'
import { describes } from '../../../platform/http/response-schemas.js'
import type { ParsedSkill, ParsedTool } from '../spec/discovery.js'
import type { routedProxyView } from './views.js'

// The answer schema of the AI gateway's proxy routes (spec §4.5), tied at compile time to routedProxyView.

type RoutedProxyView = Awaited<ReturnType<typeof routedProxyView>>

const routedProxyFields = {
  name: z.string(),
  kind: z.string(),
  description: z.string().nullable(),
  /** the client route's path (the newest create pages' relativePath); null when created without one */
  relativePath: z.string().nullable(),
  routingMode: z.string().nullable(),
  groups: z.array(z.string()),
  // the kind's routing config (ai-routing.ts), backend secrets as tokenSet/passwordSet flags; null for an AI proxy without one
  routing: z.record(z.string(), z.unknown()).nullable(),
  revision: z.number().int(),
}
describes<Omit<RoutedProxyView, 'createdAt' | 'updatedAt'>>()(z.object(routedProxyFields))

/** An AI, MCP or A2A proxy as REST clients read it (timestamps as ISO 8601 strings). */
export const routedProxySchema = z
  .object({ ...routedProxyFields, createdAt: z.string(), updatedAt: z.string() })
  .meta({ id: 'RoutedApiProxy', description: 'An AI, MCP or A2A API proxy with its routing config (backend secrets as presence flags)' })

/** One tool of a parse-tools preview. */
export const parsedToolSchema = describes<ParsedTool>()(
  z.object({
    name: z.string(),
    description: z.string().nullable(),
    inputSchema: z.record(z.string(), z.unknown()).describe('JSON Schema of type object'),
    source: z.enum(['MCP', 'OPENAPI']),
    method: z.string().nullable().describe('the HTTP method of an OpenAPI operation'),
    path: z.string().nullable().describe('the path of an OpenAPI operation'),
  }).meta({ id: 'ParsedTool' }),
)

/** One skill of a parse-skills preview. */
export const parsedSkillSchema = describes<ParsedSkill>()(
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    tags: z.array(z.string()),
    examples: z.array(z.string()),
    inputModes: z.array(z.string()),
    outputModes: z.array(z.string()),
  }).meta({ id: 'ParsedSkill' }),
)
