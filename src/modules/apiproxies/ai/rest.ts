import type { Tx } from '../../../platform/context.js'
import { legacyDeploymentResult, legacyList, legacySuccess } from '../../../platform/envelopes/legacy.js'
import { deploymentResult, legacyListBody } from '../../../platform/http/response-schemas.js'
import { parsedSkillSchema, parsedToolSchema, routedProxySchema } from './view-schemas.js'
import { defineRoutes, requireActor, type RouteDef } from '../../../platform/http/routes.js'
import { createRoutedProxy, getRoutedProxy, replaceRouting, type RoutedProxyWrite } from './service.js'
import { createInputOf, routingSchemaOf, type RoutedKind } from './ai-routing.js'
import { parseSkills, parseTools, skillDocumentBody, toolDocumentBody } from '../spec/discovery.js'
import { routedProxyView } from './views.js'

// The AI gateway's proxy routes (spec §4.5), legacy envelope (§7.1): every client mistake is a 400 with resultMessage.

const BASE = '/apiops/projects/:projectName/apiProxies'

const written = async (db: Tx, { proxy, deploymentResult }: RoutedProxyWrite) => ({
  body: legacySuccess({ resultList: [await routedProxyView(db, proxy)], resultCount: 1, deploymentResult: legacyDeploymentResult(deploymentResult) }),
})

const writtenBody = legacyListBody(routedProxySchema, { deploymentResult })

const ERRORS_400 = 'unknown project, missing API_MANAGEMENT MANAGE, body field invalid (named), name differs from the path, proxy already exists, unknown LLM provider, or a standalone outbound MCP/A2A connection in the body'
const COMMON_RESPONSES = { 401: 'missing, invalid, expired or revoked token' }

const creation = (kind: RoutedKind, segment: string, modeNote: string): RouteDef => ({
  method: 'post',
  path: `${BASE}/${segment}/:apiProxyName/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary: `Create an ${kind} proxy (${modeNote}) and deploy it to every environment of the project`,
  // only MCP needs a body (routingMode); an AI or A2A proxy can be created from the path alone
  body: { kind: 'json', required: kind === 'MCP', schema: createInputOf[kind] },
  audit: { objectType: 'API_PROXY' },
  response: writtenBody,
  responses: { 200: 'status SUCCESS, resultList [the proxy], resultCount 1, deploymentResult', 400: ERRORS_400, ...COMMON_RESPONSES },
  async handle(ctx, input) {
    const p = input.params
    return written(ctx.deps.prisma, await createRoutedProxy(ctx.deps, requireActor(ctx), p.projectName!, kind, p.apiProxyName!, input.body))
  },
})

const routingReplace = (kind: RoutedKind, segment: string): RouteDef => ({
  method: 'put',
  path: `${BASE}/:apiProxyName/${segment}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary: `Replace the routing config of an ${kind} proxy (inline backend servers included) and deploy it`,
  body: { kind: 'json', required: true, schema: routingSchemaOf[kind] },
  audit: { objectType: 'API_PROXY' },
  response: writtenBody,
  responses: { 200: 'status SUCCESS, resultList [the proxy], resultCount 1, deploymentResult', 400: `${ERRORS_400}, proxy not found or of another kind`, ...COMMON_RESPONSES },
  async handle(ctx, input) {
    const p = input.params
    return written(ctx.deps.prisma, await replaceRouting(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, kind, input.body))
  },
})

const routingRead = (kind: RoutedKind, segment: string): RouteDef => ({
  method: 'get',
  path: `${BASE}/:apiProxyName/${segment}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary: `Read an ${kind} proxy with its routing config (backend secrets as presence flags)`,
  response: legacyListBody(routedProxySchema),
  responses: { 200: 'status SUCCESS, resultList [the proxy], resultCount 1', 400: 'unknown project, missing API_MANAGEMENT VIEW, proxy not found or of another kind', ...COMMON_RESPONSES },
  async handle(ctx, input) {
    const p = input.params
    const proxy = await getRoutedProxy(ctx.deps.prisma, requireActor(ctx), p.projectName!, p.apiProxyName!, kind)
    return { body: legacyList([await routedProxyView(ctx.deps.prisma, proxy)]) }
  },
})

const discovery = (segment: 'parse-tools' | 'parse-skills'): RouteDef => ({
  method: 'post',
  path: `${BASE}/:apiProxyName/policies/:policyName/${segment}/`,
  style: 'legacy',
  auth: 'token',
  tag: 'apiProxies',
  summary:
    segment === 'parse-tools'
      ? 'Preview: parse an MCP tools list or an OpenAPI document from the body into tools (MCP and AI proxies); nothing is saved'
      : 'Preview: parse an A2A agent card, a skill list or a SKILL.md file from the body into skills (A2A and AI proxies); nothing is saved',
  body: { kind: 'json', required: true, schema: segment === 'parse-tools' ? toolDocumentBody : skillDocumentBody },
  audit: false,
  response: legacyListBody(segment === 'parse-tools' ? parsedToolSchema : parsedSkillSchema),
  responses: {
    200: `status SUCCESS, resultList (the parsed ${segment === 'parse-tools' ? 'tools' : 'skills'}), resultCount`,
    400: 'unknown project, missing API_MANAGEMENT MANAGE, proxy not found or of another kind, document missing, unreadable or invalid (named)',
    ...COMMON_RESPONSES,
  },
  async handle(ctx, input) {
    const p = input.params
    const parse = segment === 'parse-tools' ? parseTools : parseSkills
    const items: unknown[] = await parse(ctx.deps, requireActor(ctx), p.projectName!, p.apiProxyName!, p.policyName!, input.body)
    return { body: legacyList(items) }
  },
})

export const apiProxyRoutes = defineRoutes([
  creation('AI', 'ai', 'no routing mode'),
  creation('MCP', 'mcp', 'routingMode required: PASSTHROUGH or AGGREGATE'),
  creation('A2A', 'a2a', 'routingMode AGENT_EXPOSE by default, PASSTHROUGH or SKILL_ROUTE'),
  routingReplace('AI', 'ai-routing'),
  routingReplace('MCP', 'mcp-routing'),
  routingReplace('A2A', 'a2a-routing'),
  routingRead('AI', 'ai-routing'),
  routingRead('MCP', 'mcp-routing'),
  routingRead('A2A', 'a2a-routing'),
  discovery('parse-tools'),
  discovery('parse-skills'),
])
