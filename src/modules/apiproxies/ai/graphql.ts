import { JSONResolver } from 'graphql-scalars'
import { Arg, Args, Ctx, Extensions, Field, FieldResolver, Float, InputType, Int, Mutation, ObjectType, Resolver, Root } from 'type-graphql'
import type { ApiProxy } from '../../../generated/prisma/client.js'
import { requireViewer, type GqlContext } from '../../../platform/graphql/context.js'
import { DeploymentResultType } from '../../../platform/graphql/types.js'
import { createRoutedProxy, replaceRouting, type RoutedProxyWrite } from './service.js'
import {
  A2A_PROTOCOLS, A2A_ROUTING_MODES, AI_PAGE_FIELDS, AI_STRATEGIES, BACKEND_LOAD_BALANCING, MCP_PROTOCOL_VERSIONS, MCP_ROUTING_MODES,
  MCP_TRANSPORTS,
} from './ai-routing.js'
import { parseSkills, parseTools } from '../spec/discovery.js'
import { ApiProxyType } from '../proxies/graphql.js'
import { routingViewOf } from './routing-store.js'
import { dropNullsDeep } from '../shared/inputs.js'
import { BackendAuthInput, BackendAuthType, ProbeArgs, withSchemeFields } from './graphql-auth.js'
import { DRIFT_POLICIES, PAGE_AUTH_SCHEMES } from './backend-auth-schema.js'

const list = (values: readonly string[]) => values.join(', ')

// ---------------------------------------------------------------------------------------------------------------
// The newest AI routing page's fields (AI_PAGE_FIELDS, update-ai-routing.mdx), on the read type and the input alike:
// the table is checked against the schema's keys at compile time.

const AI_PAGE_FIELD_TYPES = {
  llmProviderRefName: String, modelId: String, streaming: Boolean, timeoutSeconds: Int, connectTimeoutSeconds: Int, streamTimeoutSeconds: Int,
  maxResponseBytes: Int, maxChunks: Int, retryCount: Int, retryDelayType: String, retryFixedDelayMs: Int, retryInitialDelayMs: Int,
  retryMaxDelayMs: Int, retryBackoffMultiplier: Float, failoverStrategy: String, providerFailoverChain: [JSONResolver], failoverStatusCodeList: [Int],
  failoverRetryCount: Int, conditionalLatencyThresholdMs: Int, primaryPool: [JSONResolver], enumAiRoutingAlgorithm: String,
  leastCostOutputRatio: Float, affinityKeyHeader: String, affinityLoadFactor: Float, conditionalRoutes: [JSONResolver], semanticEmbeddingModelId: String,
  circuitBreakerEnabled: Boolean, errorWindow: Int, errorThresholdValue: Int, enumErrorThresholdType: String, sleepWindow: Int, halfOpenEnabled: Boolean,
  proxyEnabled: Boolean, proxyHost: String, proxyPort: Int, proxyAuthorizationNeeded: Boolean, proxyUsername: String, proxyPassword: String, mTLSSettings: JSONResolver, disableSslValidation: Boolean, blockAnonymousRequests: Boolean,
  anonymousBudget: JSONResolver,
} satisfies Record<keyof typeof AI_PAGE_FIELDS, unknown>

/** The read type shows proxyPasswordSet, never the password; the input takes it (blank keeps the stored one). */
function withAiPageFields(target: object, door: 'read' | 'input') {
  for (const [name, type] of Object.entries(AI_PAGE_FIELD_TYPES)) {
    if (door === 'read' && name === 'proxyPassword') continue
    Field(() => type as never, { nullable: true, description: 'the newest AI routing page (update-ai-routing.mdx); null when not set' })(target, name)
  }
  if (door === 'read') Field(() => Boolean, { nullable: true, description: 'an outbound proxy password is stored (never returned)' })(target, 'proxyPasswordSet')
}

// ---------------------------------------------------------------------------------------------------------------
// Read types

@ObjectType('AiRoutingTarget', { description: 'An LLM provider (by name) an AI proxy routes to' })
export class AiRoutingTargetType {
  @Field(() => String) providerName: string
  @Field(() => String, { nullable: true, description: 'model id; null lets the request pick' }) model: string | null
  @Field(() => Int) weight: number
  @Field(() => Int, { description: 'lower runs first under PRIORITY' }) priority: number
  @Field(() => Boolean) enabled: boolean
  @Field(() => Int) timeoutMs: number
}

@ObjectType('AiRouting')
export class AiRoutingType {
  @Field(() => String, { description: list(AI_STRATEGIES) }) strategy: string
  @Field(() => [AiRoutingTargetType]) targets: AiRoutingTargetType[]
  @Field(() => [Int], { description: 'answers that move on to the next target' }) fallbackOnStatus: number[]
  @Field(() => Int) maxAttempts: number
}
withAiPageFields(AiRoutingType.prototype, 'read')

@ObjectType('BackendHeader')
export class BackendHeaderType {
  @Field(() => String) name: string
  @Field(() => String) value: string
}

@ObjectType('McpBackendServer', { description: 'An inline MCP server the proxy calls' })
export class McpBackendServerType {
  @Field(() => String) name: string
  @Field(() => String) url: string
  @Field(() => String, { description: list(MCP_TRANSPORTS) }) transport: string
  @Field(() => String, { nullable: true }) toolPrefix: string | null
  @Field(() => Int) weight: number
  @Field(() => Boolean) enabled: boolean
  @Field(() => Int) timeoutMs: number
  @Field(() => [BackendHeaderType]) headers: BackendHeaderType[]
  @Field(() => BackendAuthType) auth: BackendAuthType
  @Field(() => String, { nullable: true, description: `${list(DRIFT_POLICIES)}; null when not set` }) driftPolicy: string | null
  @Field(() => Boolean, { nullable: true }) allowPrivateNetworkEgress: boolean | null
}

@ObjectType('McpRouting')
export class McpRoutingType {
  @Field(() => String, { description: list(MCP_ROUTING_MODES) }) routingMode: string
  @Field(() => String, { description: list(BACKEND_LOAD_BALANCING) }) loadBalancing: string
  @Field(() => [McpBackendServerType]) backendServers: McpBackendServerType[]
  @Field(() => String, { nullable: true, description: list(MCP_PROTOCOL_VERSIONS) }) protocolVersion: string | null
  @Field(() => [JSONResolver], { nullable: true, description: 'TOOL_EXPOSE: the tools served' }) exposedTools: unknown[] | null
  @Field(() => [String], { nullable: true }) allowedToolNames: string[] | null
  @Field(() => JSONResolver, { nullable: true }) toolOutputFilter: unknown
  @Field(() => [JSONResolver], { nullable: true }) argumentConstraints: unknown[] | null
  @Field(() => [JSONResolver], { nullable: true }) identityAcl: unknown[] | null
  @Field(() => JSONResolver, { nullable: true }) callQuota: unknown
  @Field(() => JSONResolver, { nullable: true }) tokenForwardSettings: unknown
}

@ObjectType('A2aBackendServer', { description: 'An inline A2A agent server the proxy calls' })
export class A2aBackendServerType {
  @Field(() => String) name: string
  @Field(() => String) url: string
  @Field(() => String, { description: list(A2A_PROTOCOLS) }) protocol: string
  @Field(() => [String], { description: 'SKILL_ROUTE: skill ids this server serves' }) skills: string[]
  @Field(() => Int) weight: number
  @Field(() => Boolean) enabled: boolean
  @Field(() => Int) timeoutMs: number
  @Field(() => [BackendHeaderType]) headers: BackendHeaderType[]
  @Field(() => BackendAuthType) auth: BackendAuthType
  @Field(() => String, { nullable: true, description: `${list(DRIFT_POLICIES)}; null when not set` }) driftPolicy: string | null
  @Field(() => Boolean, { nullable: true }) allowPrivateNetworkEgress: boolean | null
}

@ObjectType('AgentSkill')
export class AgentSkillType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => [String]) tags: string[]
}

@ObjectType('AgentCard', { description: 'The agent card the gateway publishes (AGENT_EXPOSE)' })
export class AgentCardType {
  @Field(() => String, { nullable: true, description: 'null: the proxy name' }) name: string | null
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => String, { nullable: true }) descriptionOverride: string | null
  @Field(() => [String], { nullable: true }) inputModes: string[] | null
  @Field(() => [String], { nullable: true }) outputModes: string[] | null
  @Field(() => String, { nullable: true }) version: string | null
  @Field(() => [AgentSkillType]) skills: AgentSkillType[]
}

@ObjectType('A2aRouting')
export class A2aRoutingType {
  @Field(() => String, { description: list(A2A_ROUTING_MODES) }) routingMode: string
  @Field(() => String, { description: list(BACKEND_LOAD_BALANCING) }) loadBalancing: string
  @Field(() => [A2aBackendServerType]) backendServers: A2aBackendServerType[]
  @Field(() => AgentCardType, { nullable: true }) agentCard: AgentCardType | null
  @Field(() => String, { nullable: true }) protocolVersion: string | null
  @Field(() => JSONResolver, { nullable: true }) pushSettings: unknown
  @Field(() => [String], { nullable: true }) allowedSkillNames: string[] | null
  @Field(() => [JSONResolver], { nullable: true }) identityAcl: unknown[] | null
  @Field(() => JSONResolver, { nullable: true }) callQuota: unknown
  @Field(() => JSONResolver, { nullable: true }) tokenForwardSettings: unknown
}

@ObjectType('ApiProxyWriteResult')
export class ApiProxyWriteResultType {
  @Field(() => ApiProxyType) apiProxy: ApiProxy
  @Field(() => DeploymentResultType) deploymentResult: DeploymentResultType
}

@ObjectType('DiscoveredTool', { description: 'A tool parsed from a definition document (preview, not saved)' })
export class DiscoveredToolType {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => JSONResolver, { description: 'JSON Schema of the arguments' }) inputSchema: unknown
  @Field(() => String, { description: 'MCP or OPENAPI' }) source: string
  @Field(() => String, { nullable: true, description: 'OPENAPI: the operation method' }) method: string | null
  @Field(() => String, { nullable: true, description: 'OPENAPI: the operation path' }) path: string | null
}

@ObjectType('DiscoveredSkill', { description: 'A skill parsed from a definition document (preview, not saved)' })
export class DiscoveredSkillType {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description: string | null
  @Field(() => [String]) tags: string[]
  @Field(() => [String]) examples: string[]
  @Field(() => [String]) inputModes: string[]
  @Field(() => [String]) outputModes: string[]
}

// ---------------------------------------------------------------------------------------------------------------
// Inputs: the same schema as REST validates them (absent and null mean "default").

@InputType('AiRoutingTargetInput')
export class AiRoutingTargetInput {
  @Field(() => String, { description: 'name of an LLM provider of the project (case-insensitive)' }) providerName: string
  @Field(() => String, { nullable: true }) model?: string
  @Field(() => Int, { nullable: true, description: '1..1000, default 1' }) weight?: number
  @Field(() => Int, { nullable: true, description: '0..1000, default 0' }) priority?: number
  @Field(() => Boolean, { nullable: true, description: 'default true' }) enabled?: boolean
  @Field(() => Int, { nullable: true, description: '1..600000 ms, default 60000' }) timeoutMs?: number
}

@InputType('AiRoutingInput')
export class AiRoutingInput {
  @Field(() => String, { nullable: true, description: `${list(AI_STRATEGIES)}; default PRIORITY` }) strategy?: string
  @Field(() => [AiRoutingTargetInput], { nullable: true, description: 'at most 50' }) targets?: AiRoutingTargetInput[]
  @Field(() => [Int], { nullable: true, description: 'HTTP statuses 400..599; default 429, 500, 502, 503, 504' }) fallbackOnStatus?: number[]
  @Field(() => Int, { nullable: true, description: '1..10, default 3' }) maxAttempts?: number
}
withAiPageFields(AiRoutingInput.prototype, 'input')

@InputType('BackendHeaderInput')
export class BackendHeaderInput {
  @Field(() => String) name: string
  @Field(() => String) value: string
}

@InputType('McpBackendServerInput')
export class McpBackendServerInput {
  @Field(() => String, { description: 'unique in the routing (case-insensitive)' }) name: string
  @Field(() => String, { nullable: true, description: 'http(s) URL of the MCP endpoint (or endpoint)' }) url?: string
  @Field(() => String, { nullable: true, description: `${list(MCP_TRANSPORTS)}; default STREAMABLE_HTTP` }) transport?: string
  @Field(() => String, { nullable: true, description: 'AGGREGATE with several servers: required and unique' }) toolPrefix?: string
  @Field(() => Int, { nullable: true, description: '1..1000, default 1' }) weight?: number
  @Field(() => Boolean, { nullable: true, description: 'default true' }) enabled?: boolean
  @Field(() => Int, { nullable: true, description: '1..600000 ms, default 30000' }) timeoutMs?: number
  @Field(() => [BackendHeaderInput], { nullable: true }) headers?: BackendHeaderInput[]
  @Field(() => BackendAuthInput, { nullable: true }) auth?: BackendAuthInput
  @Field(() => String, { nullable: true, description: 'the newest pages\' name of url' }) endpoint?: string
  @Field(() => String, { nullable: true, description: `${list(PAGE_AUTH_SCHEMES)}: the newest pages' flat credentials (not with auth)` }) authScheme?: string
  @Field(() => String, { nullable: true, description: 'secret (authScheme BEARER); blank keeps the stored one' }) bearerToken?: string
  @Field(() => String, { nullable: true, description: list(DRIFT_POLICIES) }) driftPolicy?: string
  @Field(() => Boolean, { nullable: true }) allowPrivateNetworkEgress?: boolean
  @Field(() => String, { nullable: true, description: 'server-managed on the pages: ignored' }) id?: string
  @Field(() => String, { nullable: true, description: 'refused: send the client credentials inline' }) credentialRef?: string
}
withSchemeFields(McpBackendServerInput.prototype, 'authScheme')

@InputType('McpExposedToolInput', { description: 'TOOL_EXPOSE: one tool served from an API proxy of the project' })
export class McpExposedToolInput {
  @Field(() => String, { nullable: true, description: 'the page\'s target proxy id, stored as sent' }) proxyId?: string
  @Field(() => String, { nullable: true, description: 'the target proxy by name (or proxyId)' }) proxyName?: string
  @Field(() => String) toolName: string
  @Field(() => String, { nullable: true }) toolDescription?: string
  @Field(() => JSONResolver, { nullable: true }) overrideSchema?: unknown
  @Field(() => String, { nullable: true }) apiMethodHttpMethod?: string
  @Field(() => String, { nullable: true }) apiMethodPath?: string
  @Field(() => [String], { nullable: true }) requiredScopes?: string[]
  @Field(() => [JSONResolver], { nullable: true }) argumentConstraints?: unknown[]
}

@InputType('McpRoutingInput', { description: 'The routing mode is a separate argument' })
export class McpRoutingInput {
  @Field(() => String, { nullable: true, description: `${list(BACKEND_LOAD_BALANCING)}; default FAILOVER` }) loadBalancing?: string
  @Field(() => [McpBackendServerInput], { nullable: true, description: 'at most 50' }) backendServers?: McpBackendServerInput[]
  @Field(() => String, { nullable: true, description: list(MCP_PROTOCOL_VERSIONS) }) protocolVersion?: string
  @Field(() => [McpExposedToolInput], { nullable: true, description: 'TOOL_EXPOSE only' }) exposedTools?: McpExposedToolInput[]
  @Field(() => [String], { nullable: true, description: 'PASSTHROUGH: the backend tools exposed' }) allowedToolNames?: string[]
  @Field(() => JSONResolver, { nullable: true }) toolOutputFilter?: unknown
  @Field(() => [JSONResolver], { nullable: true }) argumentConstraints?: unknown[]
  @Field(() => [JSONResolver], { nullable: true, description: 'entries with principalType CREDENTIAL, ROLE or ORGANIZATION' }) identityAcl?: unknown[]
  @Field(() => JSONResolver, { nullable: true }) callQuota?: unknown
  @Field(() => JSONResolver, { nullable: true }) tokenForwardSettings?: unknown
}

@InputType('A2aBackendServerInput')
export class A2aBackendServerInput {
  @Field(() => String) name: string
  @Field(() => String, { nullable: true, description: 'or endpoint' }) url?: string
  @Field(() => String, { nullable: true, description: `${list(A2A_PROTOCOLS)}; default JSONRPC` }) protocol?: string
  @Field(() => [String], { nullable: true, description: 'SKILL_ROUTE: required, each skill served by one server' }) skills?: string[]
  @Field(() => Int, { nullable: true }) weight?: number
  @Field(() => Boolean, { nullable: true }) enabled?: boolean
  @Field(() => Int, { nullable: true }) timeoutMs?: number
  @Field(() => [BackendHeaderInput], { nullable: true }) headers?: BackendHeaderInput[]
  @Field(() => BackendAuthInput, { nullable: true }) auth?: BackendAuthInput
  @Field(() => String, { nullable: true, description: 'the newest pages\' name of url' }) endpoint?: string
  @Field(() => String, { nullable: true, description: `${list(PAGE_AUTH_SCHEMES)}: the newest pages' flat credentials (not with auth)` }) authScheme?: string
  @Field(() => String, { nullable: true, description: 'secret (authScheme BEARER); blank keeps the stored one' }) bearerToken?: string
  @Field(() => String, { nullable: true, description: list(DRIFT_POLICIES) }) driftPolicy?: string
  @Field(() => Boolean, { nullable: true }) allowPrivateNetworkEgress?: boolean
  @Field(() => String, { nullable: true, description: 'server-managed on the pages: ignored' }) id?: string
  @Field(() => String, { nullable: true, description: 'refused: send the client credentials inline' }) credentialRef?: string
}
withSchemeFields(A2aBackendServerInput.prototype, 'authScheme')

@InputType('AgentSkillInput')
export class AgentSkillInput {
  @Field(() => String) id: string
  @Field(() => String) name: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => [String], { nullable: true }) tags?: string[]
}

@InputType('AgentCardInput')
export class AgentCardInput {
  @Field(() => String, { nullable: true, description: 'default: the proxy name' }) name?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => String, { nullable: true }) descriptionOverride?: string
  @Field(() => [String], { nullable: true }) inputModes?: string[]
  @Field(() => [String], { nullable: true }) outputModes?: string[]
  @Field(() => String, { nullable: true }) version?: string
  @Field(() => [AgentSkillInput], { nullable: true }) skills?: AgentSkillInput[]
}

@InputType('A2aRoutingInput', { description: 'The routing mode is a separate argument' })
export class A2aRoutingInput {
  @Field(() => String, { nullable: true }) loadBalancing?: string
  @Field(() => [A2aBackendServerInput], { nullable: true }) backendServers?: A2aBackendServerInput[]
  @Field(() => AgentCardInput, { nullable: true }) agentCard?: AgentCardInput
  @Field(() => String, { nullable: true }) protocolVersion?: string
  @Field(() => JSONResolver, { nullable: true }) pushSettings?: unknown
  @Field(() => [String], { nullable: true, description: 'PASSTHROUGH: the backend skills exposed' }) allowedSkillNames?: string[]
  @Field(() => [JSONResolver], { nullable: true }) identityAcl?: unknown[]
  @Field(() => JSONResolver, { nullable: true }) callQuota?: unknown
  @Field(() => JSONResolver, { nullable: true }) tokenForwardSettings?: unknown
}

@InputType('AiProxyInput')
export class AiProxyInput {
  @Field(() => String, { nullable: true, description: 'at most 1000 characters' }) description?: string
  @Field(() => [String], { nullable: true, description: 'API proxy group names; missing groups are created' }) groups?: string[]
  @Field(() => AiRoutingInput, { nullable: true }) routing?: AiRoutingInput
  @Field(() => String, { nullable: true, description: 'the client route path (the newest create page)' }) relativePath?: string
  @Field(() => String, { nullable: true, description: 'the first routing, flat (not with routing): the LLM provider by name' }) llmProviderName?: string
  @Field(() => String, { nullable: true }) modelId?: string
  @Field(() => Boolean, { nullable: true }) streaming?: boolean
}

@InputType('McpProxyInput')
export class McpProxyInput {
  @Field(() => String, { description: `required: ${list(MCP_ROUTING_MODES)}` }) routingMode: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => [String], { nullable: true }) groups?: string[]
  @Field(() => McpRoutingInput, { nullable: true }) routing?: McpRoutingInput
  @Field(() => String, { nullable: true, description: 'the client route path (the newest create page)' }) relativePath?: string
  @Field(() => String, { nullable: true, description: list(MCP_PROTOCOL_VERSIONS) }) protocolVersion?: string
  @Field(() => [McpBackendServerInput], { nullable: true, description: 'the first routing\'s servers, flat (not with routing)' }) backendServers?: McpBackendServerInput[]
}

@InputType('A2aProxyInput')
export class A2aProxyInput {
  @Field(() => String, { nullable: true, description: `${list(A2A_ROUTING_MODES)}; default AGENT_EXPOSE` }) routingMode?: string
  @Field(() => String, { nullable: true }) description?: string
  @Field(() => [String], { nullable: true }) groups?: string[]
  @Field(() => A2aRoutingInput, { nullable: true }) routing?: A2aRoutingInput
  @Field(() => String, { nullable: true, description: 'the client route path (the newest create page)' }) relativePath?: string
  @Field(() => String, { nullable: true }) protocolVersion?: string
  @Field(() => [A2aBackendServerInput], { nullable: true, description: 'the first routing\'s servers, flat (not with routing)' }) backendServers?: A2aBackendServerInput[]
}

// ---------------------------------------------------------------------------------------------------------------

const result = ({ proxy, deploymentResult }: RoutedProxyWrite) => ({ apiProxy: proxy, deploymentResult: DeploymentResultType.from(deploymentResult) })
const routingOf = (proxy: ApiProxy, kind: string) => {
  if (proxy.kind !== kind) return null
  const view = routingViewOf(proxy)
  return view && (kind === 'AI' ? view : { ...view, routingMode: proxy.routingMode })
}

@Resolver(() => ApiProxyType)
export class AiProxyResolver {
  @FieldResolver(() => AiRoutingType, { nullable: true, description: 'AI proxies: the routing config (null until set)' })
  aiRouting(@Root() proxy: ApiProxy) {
    return routingOf(proxy, 'AI')
  }

  @FieldResolver(() => McpRoutingType, { nullable: true, description: 'MCP proxies: the routing mode and inline backend servers' })
  mcpRouting(@Root() proxy: ApiProxy) {
    return routingOf(proxy, 'MCP')
  }

  @FieldResolver(() => A2aRoutingType, { nullable: true, description: 'A2A proxies: the routing mode, inline backend servers and agent card' })
  a2aRouting(@Root() proxy: ApiProxy) {
    return routingOf(proxy, 'A2A')
  }

  @Mutation(() => ApiProxyWriteResultType, { description: 'Creates an AI proxy and deploys it (API_MANAGEMENT MANAGE)' })
  async createAiProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => AiProxyInput) input: AiProxyInput) {
    return result(await createRoutedProxy(ctx.deps, requireViewer(ctx), projectName, 'AI', name, dropNullsDeep(input)))
  }

  @Mutation(() => ApiProxyWriteResultType, { description: 'Creates an MCP proxy (routingMode required) and deploys it (API_MANAGEMENT MANAGE)' })
  async createMcpProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => McpProxyInput) input: McpProxyInput) {
    return result(await createRoutedProxy(ctx.deps, requireViewer(ctx), projectName, 'MCP', name, dropNullsDeep(input)))
  }

  @Mutation(() => ApiProxyWriteResultType, { description: 'Creates an A2A proxy (routingMode default AGENT_EXPOSE) and deploys it (API_MANAGEMENT MANAGE)' })
  async createA2aProxy(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('input', () => A2aProxyInput, { nullable: true }) input?: A2aProxyInput) {
    return result(await createRoutedProxy(ctx.deps, requireViewer(ctx), projectName, 'A2A', name, dropNullsDeep(input ?? {})))
  }

  @Mutation(() => ApiProxyWriteResultType, { description: 'Replaces the routing of an AI proxy and deploys it (API_MANAGEMENT MANAGE)' })
  async replaceAiRouting(@Ctx() ctx: GqlContext, @Arg('projectName', () => String) projectName: string, @Arg('name', () => String) name: string, @Arg('routing', () => AiRoutingInput) routing: AiRoutingInput) {
    return result(await replaceRouting(ctx.deps, requireViewer(ctx), projectName, name, 'AI', dropNullsDeep(routing)))
  }

  @Mutation(() => ApiProxyWriteResultType, { description: 'Replaces the routing of an MCP proxy (mode kept when omitted) and deploys it (API_MANAGEMENT MANAGE)' })
  async replaceMcpRouting(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('routing', () => McpRoutingInput) routing: McpRoutingInput,
    @Arg('routingMode', () => String, { nullable: true, description: list(MCP_ROUTING_MODES) }) routingMode?: string,
  ) {
    return result(await replaceRouting(ctx.deps, requireViewer(ctx), projectName, name, 'MCP', dropNullsDeep({ ...routing, routingMode })))
  }

  @Mutation(() => ApiProxyWriteResultType, { description: 'Replaces the routing of an A2A proxy (mode kept when omitted) and deploys it (API_MANAGEMENT MANAGE)' })
  async replaceA2aRouting(
    @Ctx() ctx: GqlContext,
    @Arg('projectName', () => String) projectName: string,
    @Arg('name', () => String) name: string,
    @Arg('routing', () => A2aRoutingInput) routing: A2aRoutingInput,
    @Arg('routingMode', () => String, { nullable: true, description: list(A2A_ROUTING_MODES) }) routingMode?: string,
  ) {
    return result(await replaceRouting(ctx.deps, requireViewer(ctx), projectName, name, 'A2A', dropNullsDeep({ ...routing, routingMode })))
  }

  @Mutation(() => [DiscoveredToolType], { description: 'Preview: the tools an MCP tools list or OpenAPI document (JSON or YAML text) defines; nothing is saved (API_MANAGEMENT MANAGE)' })
  @Extensions({ audit: false })
  async parseProxyTools(@Ctx() ctx: GqlContext, @Args(() => ProbeArgs) { projectName, apiProxyName, policyName, ...probe }: ProbeArgs) {
    return parseTools(ctx.deps, requireViewer(ctx), projectName, apiProxyName, policyName, dropNullsDeep(probe))
  }

  @Mutation(() => [DiscoveredSkillType], { description: 'Preview: the skills an A2A agent card, skill list or SKILL.md defines; nothing is saved (API_MANAGEMENT MANAGE)' })
  @Extensions({ audit: false })
  async parseProxySkills(@Ctx() ctx: GqlContext, @Args(() => ProbeArgs) { projectName, apiProxyName, policyName, ...probe }: ProbeArgs) {
    return parseSkills(ctx.deps, requireViewer(ctx), projectName, apiProxyName, policyName, dropNullsDeep(probe))
  }
}
