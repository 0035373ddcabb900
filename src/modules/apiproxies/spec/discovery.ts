import { load as loadYaml } from 'js-yaml'
import { z } from 'zod'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Deps } from '../../../platform/context.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { httpUrl, objectName } from '../../../platform/validation/common.js'
import { kindWithArticle } from '../shared/kinds.js'
import { fetchSpecDocument, MAX_FETCHED_BYTES } from '../../../platform/http/outbound-fetch.js'
import { backendMtlsSettings, PAGE_AUTH_SCHEMES, type BackendMtlsSettings } from '../ai/backend-auth-schema.js'
import { clientCredentialsToken, mtlsClientMaterial, type OAuthClient, type ProbeTls } from '../ai/backend-auth.js'
import { mtlsInput } from '../settings/inputs.js'

// parse-tools / parse-skills (spec §4.5): preview-only discovery. The body carries a definition document, or (the
// newest pages, discover-mcp-policy-tools.mdx / discover-a2a-policy-skills.mdx) a probe: `{}` probes the proxy's
// first enabled backend server, `{ endpoint, authScheme, bearerToken }` another address for this call only. The
// answer is the parsed list; nothing is saved.

export interface ParsedTool {
  name: string
  description: string | null
  inputSchema: Record<string, unknown>
  /** MCP (a tools/list answer) or OPENAPI (one tool per operation) */
  source: 'MCP' | 'OPENAPI'
  method: string | null
  path: string | null
}

export interface ParsedSkill {
  id: string
  name: string
  description: string | null
  tags: string[]
  examples: string[]
  inputModes: string[]
  outputModes: string[]
}

export const MAX_DISCOVERED = 1000
/** Largest text document: YAML parsing is CPU-bound (about 0.3 ms per KiB), so a request cannot stall the process. */
export const MAX_DOCUMENT_TEXT = MAX_FETCHED_BYTES
/** MCP tool names: 1 to 128 of letters, digits, '_', '-', '.' */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

type Doc = Record<string, unknown>
const isObject = (v: unknown): v is Doc => !!v && typeof v === 'object' && !Array.isArray(v)
const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null)
const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
const bad = (message: string, field = 'document') => malformed(`${field}: ${message}`, { field })

/**
 * The document itself is the body (JSON), or `{ "document": "<JSON or YAML text>" }` for YAML documents and
 * SKILL.md files. A text that does not parse is refused with the parser's reason.
 */
export function readDocument(body: unknown): unknown {
  if (body === undefined || body === null || (isObject(body) && Object.keys(body).length === 0)) throw bad('a tool or skill definition document is required')
  if (isObject(body) && Object.keys(body).length === 1 && typeof body.document === 'string') return parseText(body.document)
  return body
}

function parseText(text: string): unknown {
  if (!text.trim()) throw bad('is empty')
  if (text.length > MAX_DOCUMENT_TEXT) throw bad(`is ${text.length} characters long; at most ${MAX_DOCUMENT_TEXT}`)
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n([\s\S]*))?$/.exec(text.trimStart())
  if (frontMatter) return { skillMarkdown: parseYamlText(frontMatter[1]!), body: frontMatter[2] ?? '' }
  return parseYamlText(text)
}

/** JSON text the fast way; anything else as YAML (a superset of JSON), with aliases capped against alias bombs. */
function parseYamlText(text: string): unknown {
  if (/^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text)
    } catch {
      // not strict JSON: YAML flow syntax may still read it
    }
  }
  try {
    return loadYaml(text, { maxAliases: 100 })
  } catch (err) {
    throw bad(`does not parse as JSON or YAML: ${(err as Error).message.split('\n')[0]}`)
  }
}

// The request bodies as the OpenAPI document shows them: the shapes readDocument and the parsers below accept (they
// check them, naming the field of the first fault; an object of another shape is refused as not a definition document).
const documentText = z.strictObject({
  document: z.string().max(MAX_DOCUMENT_TEXT).describe('the definition document as JSON or YAML text (or a SKILL.md file with YAML front matter)'),
})
const mcpTool = z.looseObject({
  name: z.string().regex(TOOL_NAME).describe('1 to 128 letters, digits, _, - or .'),
  description: z.string().optional(),
  inputSchema: z.looseObject({ type: z.literal('object').optional() }).optional().describe('a JSON Schema of type object; an empty object schema when absent'),
})
const openApiDocument = (version: 'openapi' | 'swagger') =>
  z.looseObject({ [version]: z.string(), paths: z.record(z.string(), z.unknown()) }).describe(`${version === 'openapi' ? 'An OpenAPI 3' : 'A Swagger 2'} document: one tool per operation`)

/**
 * The newest pages' probe body: every field optional; `{}` probes the proxy's own backend server. Fields sent override
 * that server's for this call (an omitted secret is the stored one of the server at that address).
 */
export const probeBody = z.strictObject({
  endpoint: httpUrl.optional().describe("the address probed for this call only; default the proxy's first enabled backend server"),
  authScheme: z.enum(PAGE_AUTH_SCHEMES, { error: `must be one of ${PAGE_AUTH_SCHEMES.join(', ')}` }).optional().describe("default: the scheme of the backend server at that address"),
  bearerToken: z.string().optional().describe('omitted or blank: the stored token of the backend server at that address'),
  tokenEndpoint: httpUrl.optional().describe('OAUTH2_CLIENT_CREDENTIALS: the token URL asked for an access token'),
  clientId: z.string().trim().min(1, 'must not be blank').optional(),
  clientSecret: z.string().optional().describe('omitted or blank: the stored secret of the backend server at that address'),
  scope: z.string().optional(),
  mTLSSettings: mtlsInput.optional().describe('MTLS: the keystore of the project whose client certificate is presented'),
}).describe("A probe of a live server (the newest pages' body)")
const PROBE_KEYS = Object.keys(probeBody.shape)

/** POST …/parse-tools/: an MCP tools/list answer (bare, in a JSON-RPC result, or an array), an OpenAPI document, or its text. */
export const toolDocumentBody = z.union([
  documentText,
  z.looseObject({ tools: z.array(mcpTool) }).describe('An MCP tools/list answer'),
  z.looseObject({ result: z.looseObject({ tools: z.array(mcpTool) }) }).describe('A JSON-RPC answer of tools/list'),
  z.array(mcpTool).max(MAX_DISCOVERED).describe('The tools alone'),
  openApiDocument('openapi'),
  openApiDocument('swagger'),
  probeBody,
]).meta({ id: 'ToolDefinitionDocument' })

const a2aSkill = z.looseObject({
  id: z.string().optional().describe('required unless name is given (then id is the name)'),
  name: z.string().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
})

/** POST …/parse-skills/: an A2A agent card, a skill list, or the text of one of them or of a SKILL.md file. */
export const skillDocumentBody = z.union([
  documentText,
  z.looseObject({ skills: z.array(a2aSkill) }).describe('An A2A agent card'),
  z.array(a2aSkill).max(MAX_DISCOVERED).describe('The skills alone'),
  probeBody,
]).meta({ id: 'SkillDefinitionDocument' })

// ---------------------------------------------------------------------------------------------------------------
// Tools

function toolsFromMcp(list: unknown[]): ParsedTool[] {
  return list.map((raw, i) => {
    if (!isObject(raw)) throw bad('must be an object', `document.tools[${i}]`)
    const name = str(raw.name)
    if (!name || !TOOL_NAME.test(name)) throw bad(`'${String(raw.name ?? '')}' is not a tool name (1 to 128 letters, digits, _, - or .)`, `document.tools[${i}].name`)
    const schema = raw.inputSchema ?? { type: 'object', properties: {} }
    if (!isObject(schema)) throw bad('must be a JSON Schema object', `document.tools[${i}].inputSchema`)
    if (schema.type !== undefined && schema.type !== 'object') throw bad("must have type 'object'", `document.tools[${i}].inputSchema`)
    return { name, description: str(raw.description), inputSchema: schema, source: 'MCP', method: null, path: null }
  })
}

const operationToolName = (method: string, path: string) =>
  `${method}_${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '')}`.slice(0, 128) || method

function toolsFromOpenApi(doc: Doc): ParsedTool[] {
  if (!isObject(doc.paths)) throw bad('an OpenAPI document needs paths', 'document.paths')
  const tools: ParsedTool[] = []
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) continue
    const shared = Array.isArray(item.parameters) ? item.parameters : []
    for (const method of HTTP_METHODS) {
      const op = item[method]
      if (!isObject(op)) continue
      const properties: Record<string, unknown> = {}
      const required: string[] = []
      for (const p of [...shared, ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
        if (!isObject(p) || !str(p.name) || !['path', 'query', 'header'].includes(String(p.in))) continue
        properties[p.name as string] = { ...(isObject(p.schema) ? p.schema : { type: p.type ?? 'string' }), ...(str(p.description) ? { description: p.description } : {}) }
        if (p.required === true || p.in === 'path') required.push(p.name as string)
      }
      const content = isObject(op.requestBody) && isObject(op.requestBody.content) ? op.requestBody.content : null
      const jsonBody = content ? (Object.entries(content).find(([type]) => /json/i.test(type))?.[1] ?? Object.values(content)[0]) : null
      if (isObject(jsonBody) && isObject(jsonBody.schema)) {
        properties.body = jsonBody.schema
        if (isObject(op.requestBody) && op.requestBody.required === true) required.push('body')
      }
      const name = str(op.operationId) && TOOL_NAME.test(op.operationId as string) ? (op.operationId as string) : operationToolName(method, path)
      tools.push({
        name,
        description: str(op.summary) ?? str(op.description),
        inputSchema: { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}) },
        source: 'OPENAPI',
        method: method.toUpperCase(),
        path,
      })
    }
  }
  return tools
}

/** Tools of an MCP tools/list answer (bare, inside a JSON-RPC result, or a bare array) or of an OpenAPI/Swagger document. */
export function parseToolDocument(doc: unknown): ParsedTool[] {
  let tools: ParsedTool[]
  if (Array.isArray(doc)) tools = toolsFromMcp(doc)
  else if (isObject(doc) && (str(doc.openapi) || str(doc.swagger))) tools = toolsFromOpenApi(doc)
  else if (isObject(doc) && Array.isArray(doc.tools)) tools = toolsFromMcp(doc.tools)
  else if (isObject(doc) && isObject(doc.result) && Array.isArray(doc.result.tools)) tools = toolsFromMcp(doc.result.tools)
  else throw bad('not a tool definition document: expected an MCP tools list ({"tools": [...]}) or an OpenAPI document')
  return unique(tools, (t) => t.name, 'tool name')
}

// ---------------------------------------------------------------------------------------------------------------
// Skills

function skillsFromList(list: unknown[], field: string): ParsedSkill[] {
  return list.map((raw, i) => {
    if (!isObject(raw)) throw bad('must be an object', `${field}[${i}]`)
    const id = str(raw.id) ?? str(raw.name)
    if (!id) throw bad('a skill needs an id', `${field}[${i}].id`)
    return {
      id,
      name: str(raw.name) ?? id,
      description: str(raw.description),
      tags: strings(raw.tags),
      examples: strings(raw.examples),
      inputModes: strings(raw.inputModes),
      outputModes: strings(raw.outputModes),
    }
  })
}

/** Skills of an A2A agent card ({ name, skills: [...] }), of a bare skill list, or of one SKILL.md file (front matter). */
export function parseSkillDocument(doc: unknown): ParsedSkill[] {
  let skills: ParsedSkill[]
  if (Array.isArray(doc)) skills = skillsFromList(doc, 'document')
  else if (isObject(doc) && Array.isArray(doc.skills)) skills = skillsFromList(doc.skills, 'document.skills')
  else if (isObject(doc) && isObject(doc.skillMarkdown)) {
    const fm = doc.skillMarkdown
    const name = str(fm.name)
    if (!name) throw bad('the SKILL.md front matter needs a name', 'document.name')
    skills = [{ id: name, name, description: str(fm.description), tags: strings(fm.tags), examples: [], inputModes: [], outputModes: [] }]
  } else throw bad('not a skill definition document: expected an A2A agent card ({"skills": [...]}), a skill list or a SKILL.md file')
  return unique(skills, (s) => s.id, 'skill id')
}

function unique<T>(items: T[], keyOf: (t: T) => string, what: string): T[] {
  if (items.length > MAX_DISCOVERED) throw bad(`defines ${items.length} entries; at most ${MAX_DISCOVERED}`)
  const seen = new Set<string>()
  for (const item of items) {
    const key = keyOf(item)
    if (seen.has(key)) throw bad(`${what} '${key}' is defined twice`)
    seen.add(key)
  }
  return items
}

// ---------------------------------------------------------------------------------------------------------------

const TOOL_KINDS = ['MCP', 'AI']
const SKILL_KINDS = ['A2A', 'AI']

async function discoveryTarget(db: Deps['prisma'], actor: Actor, projectName: string, proxyName: string, policyName: string, kinds: string[], what: string) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'MANAGE')
  const policy = objectName.safeParse(policyName)
  if (!policy.success) throw malformed(`policyName: ${policy.error.issues[0]?.message ?? 'is invalid'}`, { field: 'policyName' })
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name: proxyName } }, select: { kind: true, routing: true, projectId: true } })
  if (!proxy) throw notFound(`API proxy '${proxyName}' not found`, { apiProxy: proxyName })
  if (!kinds.includes(proxy.kind)) throw malformed(`${what} applies to ${kinds.join(' and ')} proxies; API proxy '${proxyName}' is ${kindWithArticle(proxy.kind)} proxy`, { apiProxy: proxyName, kind: proxy.kind })
  return proxy
}

type StoredServer = {
  url: string
  enabled?: boolean
  auth?: { scheme?: string; tokenCipher?: string | null; tokenEndpoint?: string; clientId?: string; scope?: string | null; clientSecretCipher?: string | null; mTLSSettings?: BackendMtlsSettings }
}
type Probe = z.infer<typeof probeBody>
interface ProbeTarget { url: string; headers: { headerName: string; headerValue: string }[]; tls?: ProbeTls }

/** A probe body: an object (possibly empty) of the probe's fields only. */
const isProbe = (body: unknown): body is Probe =>
  body === undefined || body === null || (isObject(body) && Object.keys(body).every((k) => PROBE_KEYS.includes(k)))

const given = (s: string | undefined) => (s && s.trim() !== '' ? s : undefined)

/**
 * The address and credentials a probe uses: the body's, else those of the proxy's first enabled backend server (its
 * secrets opened for this call only). The scheme is the body's, else that of the stored server at that address.
 */
async function probeTarget(deps: Deps, projectId: string, routing: unknown, body: Probe): Promise<ProbeTarget> {
  const servers = ((routing as { backendServers?: StoredServer[] } | null)?.backendServers ?? []).filter((s) => s.enabled !== false)
  const url = body.endpoint ?? servers[0]?.url
  if (!url) throw bad('a tool or skill definition document is required (or an endpoint to probe: the proxy has no backend server)')
  const stored = servers.find((s) => s.url === url)?.auth
  const scheme = body.authScheme ?? stored?.scheme ?? 'NONE'
  const open = (cipher: string | null | undefined) => (cipher ? deps.keyring.decrypt(cipher) : undefined)
  if (scheme === 'BEARER') {
    const token = given(body.bearerToken) ?? (stored?.scheme === 'BEARER' ? open(stored.tokenCipher) : undefined)
    if (!token) throw malformed('bearerToken: is required for authScheme BEARER (no backend server at that address holds one)', { field: 'bearerToken' })
    return { url, headers: [{ headerName: 'authorization', headerValue: `Bearer ${token}` }] }
  }
  if (scheme === 'OAUTH2_CLIENT_CREDENTIALS') {
    const kept = stored?.scheme === scheme ? stored : undefined
    const client = {
      tokenEndpoint: body.tokenEndpoint ?? kept?.tokenEndpoint, clientId: body.clientId ?? kept?.clientId,
      clientSecret: given(body.clientSecret) ?? open(kept?.clientSecretCipher), scope: body.scope ?? kept?.scope,
    }
    for (const field of ['tokenEndpoint', 'clientId', 'clientSecret'] as const) {
      if (!client[field]) throw malformed(`${field}: is required for authScheme OAUTH2_CLIENT_CREDENTIALS (no backend server at that address holds one)`, { field })
    }
    const token = await clientCredentialsToken(deps, client as OAuthClient)
    return { url, headers: [{ headerName: 'authorization', headerValue: `Bearer ${token}` }] }
  }
  if (scheme === 'MTLS') {
    const settings = body.mTLSSettings ? backendMtlsSettings.parse(body.mTLSSettings) : stored?.scheme === scheme ? stored.mTLSSettings : undefined
    if (!settings) throw malformed('mTLSSettings: is required for authScheme MTLS (no backend server at that address holds them)', { field: 'mTLSSettings' })
    return { url, headers: [], tls: await mtlsClientMaterial(deps, projectId, settings, 'mTLSSettings') }
  }
  return { url, headers: [] }
}

const probeOptions = (deps: Deps, target: Pick<ProbeTarget, 'headers' | 'tls'>) =>
  ({ allowPrivateAddresses: deps.config.specFetch.allowPrivateAddresses, timeoutMs: deps.config.specFetch.timeoutMs, headers: target.headers, tls: target.tls, field: 'endpoint' })

/** The JSON of an answer, or of the last `data:` line of a server-sent event stream (MCP streamable HTTP). */
function answerJson(text: string): unknown {
  const trimmed = text.trim()
  const candidates = /^[[{]/.test(trimmed) ? [trimmed] : trimmed.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).reverse()
  for (const c of candidates) {
    try {
      return JSON.parse(c)
    } catch {
      // the next data line
    }
  }
  throw bad('the server did not answer with JSON', 'endpoint')
}

/** The MCP revision the probe asks for; the server's answer to initialize names the one used. */
const MCP_PROTOCOL_VERSION = '2025-06-18'

/**
 * MCP tools/list over JSON-RPC (POST), answered as JSON or as an event stream, in a session as the protocol's
 * lifecycle has it: initialize, notifications/initialized, then tools/list with the session id the server gave (if
 * any) and the negotiated protocol version. A server that does not take initialize (a stateless tools endpoint) is
 * asked tools/list alone.
 */
async function probeTools(deps: Deps, projectId: string, routing: unknown, body: Probe): Promise<ParsedTool[]> {
  const { url, headers, tls } = await probeTarget(deps, projectId, routing, body)
  const rpc = (message: object, extra: { headerName: string; headerValue: string }[] = [], answerHeaders?: (h: Record<string, string | string[] | undefined>) => void) =>
    fetchSpecDocument(url, {
      ...probeOptions(deps, { headers: [...headers, ...extra], tls }), method: 'POST', accept: 'application/json, text/event-stream', body: JSON.stringify(message), answerHeaders,
    })
  let session: { headerName: string; headerValue: string }[] = []
  try {
    let sessionId: string | undefined
    const init = answerJson(await rpc(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'gateway-management-api', version: '1' } } },
      [], (h) => (sessionId = typeof h['mcp-session-id'] === 'string' ? h['mcp-session-id'] : undefined),
    ))
    if (isObject(init) && isObject(init.result)) {
      const version = typeof init.result.protocolVersion === 'string' ? init.result.protocolVersion : MCP_PROTOCOL_VERSION
      session = [{ headerName: 'mcp-protocol-version', headerValue: version }, ...(sessionId ? [{ headerName: 'mcp-session-id', headerValue: sessionId }] : [])]
      await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)
    }
  } catch {
    // no initialize here (or refused): tools/list alone says what the server has, or why not
  }
  const answer = answerJson(await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }, session))
  if (isObject(answer) && isObject(answer.error)) throw bad(`the server refused tools/list: ${String(answer.error.message ?? 'error')}`, 'endpoint')
  return parseToolDocument(answer)
}

/** A2A: the agent card at the address, else at its standard discovery path below it (.well-known/agent-card.json). */
async function probeSkills(deps: Deps, projectId: string, routing: unknown, body: Probe): Promise<ParsedSkill[]> {
  const target = await probeTarget(deps, projectId, routing, body)
  const url = target.url
  const card = async (at: string) => {
    try {
      return answerJson(await fetchSpecDocument(at, probeOptions(deps, target)))
    } catch {
      return null
    }
  }
  let found = await card(url)
  if (!isObject(found) || !Array.isArray(found.skills)) found = await card(new URL('.well-known/agent-card.json', url.endsWith('/') ? url : `${url}/`).toString())
  if (!isObject(found) || !Array.isArray(found.skills)) throw bad(`no agent card with skills at ${url} nor at its .well-known/agent-card.json`, 'endpoint')
  return parseSkillDocument(found)
}

/** POST …/policies/{policyName}/parse-tools/: the tools the document defines (or a probed server lists), nothing saved. */
export async function parseTools(deps: Deps, actor: Actor, projectName: string, proxyName: string, policyName: string, body: unknown): Promise<ParsedTool[]> {
  const proxy = await discoveryTarget(deps.prisma, actor, projectName, proxyName, policyName, TOOL_KINDS, 'parse-tools')
  if (isProbe(body)) return probeTools(deps, proxy.projectId, proxy.routing, parseInput(probeBody, body ?? {}) as Probe)
  return parseToolDocument(readDocument(body))
}

/** POST …/policies/{policyName}/parse-skills/: the skills the document defines (or a probed agent card), nothing saved. */
export async function parseSkills(deps: Deps, actor: Actor, projectName: string, proxyName: string, policyName: string, body: unknown): Promise<ParsedSkill[]> {
  const proxy = await discoveryTarget(deps.prisma, actor, projectName, proxyName, policyName, SKILL_KINDS, 'parse-skills')
  if (isProbe(body)) return probeSkills(deps, proxy.projectId, proxy.routing, parseInput(probeBody, body ?? {}) as Probe)
  return parseSkillDocument(readDocument(body))
}
