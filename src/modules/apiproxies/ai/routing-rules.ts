import { malformed } from '../../../platform/errors/domain-error.js'
import type { A2aRoutingValues, AiRoutingValues, McpRoutingValues } from './ai-routing.js'

// Rules across the fields of an AI, MCP or A2A routing (spec §4.5), per mode, after its schema (ai-routing.ts) parsed
// it; the AI proxy service runs them for REST, GraphQL and the declarative apply alike. Each problem names its field.

const problem = (field: string, message: string) => malformed(`${field}: ${message}`, { field })

function uniqueNames(servers: { name: string }[], field: string) {
  const seen = new Set<string>()
  servers.forEach((s, i) => {
    const key = s.name.toLowerCase()
    if (seen.has(key)) throw problem(`${field}[${i}].name`, `backend server '${s.name}' is listed twice`)
    seen.add(key)
  })
}

/**
 * The targets of an AI routing sent in the newest page's form (llmProviderRefName, primaryPool,
 * providerFailoverChain), each with the body field it came from; [] when none of those is sent. Sending them with
 * other `targets` than those they derive is refused.
 */
export function pageTargetsOf(r: AiRoutingValues): { target: AiRoutingValues['targets'][number]; field: string }[] {
  const sent = !!r.llmProviderRefName || !!r.primaryPool?.length || !!r.providerFailoverChain?.length
  if (!sent) return []
  const target = (providerName: string, model: string | null | undefined, extra: Partial<AiRoutingValues['targets'][number]>) =>
    ({ providerName, model: model ?? null, weight: 1, priority: 0, enabled: true, timeoutMs: (r.timeoutSeconds ?? 60) * 1000, ...extra })
  const out: { target: AiRoutingValues['targets'][number]; field: string }[] = []
  if (r.llmProviderRefName) out.push({ target: target(r.llmProviderRefName, r.modelId, {}), field: 'llmProviderRefName' })
  r.primaryPool?.forEach((e, i) => out.push({ target: target(e.llmProviderRefName, e.modelId, { weight: e.weight ?? 1 }), field: `primaryPool[${i}].llmProviderRefName` }))
  r.providerFailoverChain?.forEach((e, i) => out.push({
    target: target(e.llmProviderRefName, e.modelId, { priority: e.orderIndex ?? i + 1, ...(e.timeoutMs ? { timeoutMs: e.timeoutMs } : {}) }),
    field: `providerFailoverChain[${i}].llmProviderRefName`,
  }))
  if (!r.llmProviderRefName && r.modelId) throw problem('llmProviderRefName', 'is required with modelId')
  // a routing read back (the page's form beside the targets derived from it) may be sent again as it is; targets
  // that say something else than the page's form are refused
  const same = (a: AiRoutingValues['targets'][number], b: AiRoutingValues['targets'][number]) =>
    a.providerName.toLowerCase() === b.providerName.toLowerCase() && (a.model ?? null) === (b.model ?? null) && a.weight === b.weight && a.priority === b.priority && a.enabled === b.enabled && a.timeoutMs === b.timeoutMs
  if (r.targets.length && (r.targets.length !== out.length || r.targets.some((t, i) => !same(t, out[i]!.target)))) {
    throw problem('targets', 'cannot be sent with llmProviderRefName, primaryPool or providerFailoverChain unless they are the targets those derive (as read back): send one form')
  }
  return out
}

export function checkAiRouting(r: AiRoutingValues): void {
  const seen = new Set<string>()
  r.targets.forEach((t, i) => {
    const key = `${t.providerName.toLowerCase()}|${t.model ?? ''}`
    if (seen.has(key)) throw problem(`targets[${i}]`, `provider '${t.providerName}'${t.model ? ` with model '${t.model}'` : ''} is listed twice`)
    seen.add(key)
  })
  if (r.targets.length && !r.targets.some((t) => t.enabled)) throw problem('targets', 'at least one target must be enabled')
}

export function checkMcpRouting(mode: string, r: McpRoutingValues): void {
  uniqueNames(r.backendServers, 'backendServers')
  if (mode === 'TOOL_EXPOSE' && r.backendServers.length) throw problem('backendServers', 'TOOL_EXPOSE serves exposedTools, not backend servers')
  if (mode !== 'TOOL_EXPOSE' && r.exposedTools?.length) throw problem('exposedTools', `only TOOL_EXPOSE exposes tools (the mode is ${mode})`)
  const tools = new Set<string>()
  r.exposedTools?.forEach((t, i) => {
    if (tools.has(t.toolName.toLowerCase())) throw problem(`exposedTools[${i}].toolName`, `tool '${t.toolName}' is listed twice`)
    tools.add(t.toolName.toLowerCase())
    if (!t.proxyId && !t.proxyName) throw problem(`exposedTools[${i}].proxyName`, 'is required (or proxyId)')
  })
  const enabled = r.backendServers.filter((s) => s.enabled)
  if (r.backendServers.length && !enabled.length) throw problem('backendServers', 'at least one backend server must be enabled')
  if (mode === 'AGGREGATE') {
    const prefixes = new Set<string>()
    r.backendServers.forEach((s, i) => {
      if (r.backendServers.length > 1 && !s.toolPrefix) throw problem(`backendServers[${i}].toolPrefix`, 'is required in AGGREGATE mode when several servers are listed')
      if (s.toolPrefix) {
        if (prefixes.has(s.toolPrefix.toLowerCase())) throw problem(`backendServers[${i}].toolPrefix`, `'${s.toolPrefix}' is used by another server`)
        prefixes.add(s.toolPrefix.toLowerCase())
      }
    })
  }
}

export function checkA2aRouting(mode: string, r: A2aRoutingValues): void {
  uniqueNames(r.backendServers, 'backendServers')
  if (r.backendServers.length && !r.backendServers.some((s) => s.enabled)) throw problem('backendServers', 'at least one backend server must be enabled')
  if (mode === 'SKILL_ROUTE') {
    const owner = new Map<string, string>()
    r.backendServers.forEach((s, i) => {
      if (!s.skills.length) throw problem(`backendServers[${i}].skills`, 'SKILL_ROUTE needs the skills each server serves')
      for (const skill of s.skills) {
        const other = owner.get(skill)
        if (other) throw problem(`backendServers[${i}].skills`, `skill '${skill}' is already served by '${other}'`)
        owner.set(skill, s.name)
      }
    })
  }
  if (r.agentCard) {
    const ids = new Set<string>()
    r.agentCard.skills.forEach((s, i) => {
      if (ids.has(s.id)) throw problem(`agentCard.skills[${i}].id`, `skill id '${s.id}' is listed twice`)
      ids.add(s.id)
    })
  }
}
