// Issue 32 §0 ("their read fields returned"): after an accepted write of the newest vendor pages' examples, the
// object's read (the family's get page: GET …/{name}/, or the vendor's POST read of an endpoint) holds every field the
// example wrote, as written, under the name the read gives it. The sweep (vendor-examples.test.ts) runs these reads;
// this file says, by page, where the read is, which object of its answer the write is about, how the read names the
// written fields, and which written fields a read legitimately does not hold (each with its reason).

/** A read: GET of a path, or [method, path, body] for a read by POST (the vendor's get-endpoint page). */
export type ReadAt = string | [string, string, unknown]
export interface ReadSpec {
  /** The read, from the sent URL (no trailing slash) and the body sent. */
  at: (u: string, b: any) => ReadAt
  /** The object of the answer this write is about (default: the single element of resultList, else the answer). */
  pick?: (read: any, b: any, u: string) => any
  /** The body as the read names its fields (default: as sent). */
  as?: (b: any) => any
}

const enc = encodeURIComponent
/** The read of an object the URL ends with (…/{name}). */
const self: ReadSpec = { at: (u) => `${u}/` }
/** A create posted to the collection: the read of the body's `name`. */
const child = (field = 'name'): ReadSpec => ({ at: (u, b) => `${u}/${enc(b[field])}/` })
/** …/apiProxies/{name}/… → the proxy's read (GET …/apiProxies/{name}/). */
const proxyOf = (u: string, name?: string) => {
  const m = /^(.*\/apiProxies\/)([^/]+)/.exec(u)!
  return `${m[1]}${name ? enc(name) : m[2]}/`
}
/** The sent body less the fields of the write's own operation (deploy after saving). */
const rest = (b: any) => Object.fromEntries(Object.entries(b).filter(([k]) => !['deploy', 'deployTargetEnvironmentNameList'].includes(k)))
/** A settings page: the proxy read, holding the page's section under `section` (the body, or its `wrapper` field). */
const setting = (section: string | null, wrapper?: string): ReadSpec => ({
  at: (u) => proxyOf(u),
  as: (b) => (section ? { [section]: wrapper ? b[wrapper] : rest(b) } : rest(b)),
})
/** An endpoint page: the vendor's read of one endpoint (POST …/endpoints/details/ by name and HTTP method). */
const endpoint = (as: (b: any) => any): ReadSpec => ({
  at: (u, b) => ['POST', `${proxyOf(u).replace(/\/$/, '')}/endpoints/details/`, { name: b.identifierName ?? b.name, httpMethod: b.identifierHttpMethod ?? b.httpMethod }],
  pick: (read) => read?.resultObject ?? read?.resultList?.[0] ?? read,
  as,
})
/** The API proxy create and update pages (from a file, a URL): the proxy read names the body's fields its own way. */
const proxyWrite: ReadSpec = {
  at: (u, b) => `${u.replace(/\/apiProxies\/.*$/, '/apiProxies')}/${enc(b.apiProxyName)}/`,
  as: ({ apiProxyName, apiProxyDescription, apiProxyCreationType, routingInfo, soapToRest, enableWSA, enableWSRM, ...b }: any) => ({
    ...b, name: apiProxyName, description: apiProxyDescription, creationType: apiProxyCreationType, routing: routingInfo,
    // a WSDL proxy's SOAP options are its soapSettings; on the other types they are not options (NOT_READ)
    ...(apiProxyCreationType === 'WSDL' ? { soapSettings: { soapToRest, enableWSA, enableWSRM } } : { soapToRest, enableWSA, enableWSRM }),
  }),
}
/** A backend server of an MCP or A2A routing as the routing read names it: url, auth.scheme, the token as tokenSet. */
const server = ({ endpoint, authScheme, bearerToken, ...s }: any) => ({ ...s, url: endpoint, auth: { scheme: authScheme, ...(bearerToken ? { tokenSet: true } : {}) } })
/** A routing body (AI, MCP, A2A pages) as the routing read holds it: the mode and the proxy's fields beside `routing`. */
const routed = ({ routingMode, relativePath, description, llmProviderName, ...r }: any) => ({
  routingMode, relativePath, description,
  ...(Object.keys(r).length || llmProviderName
    ? { routing: { ...r, ...(r.backendServers ? { backendServers: r.backendServers.map(server) } : {}), ...(llmProviderName ? { llmProviderRefName: llmProviderName } : {}) } }
    : {}),
})
/** The AI, MCP and A2A create pages (…/apiProxies/{kind}/{name}): the proxy's routing read. */
const routedCreate = (kind: string): ReadSpec => ({ at: (u) => `${u.replace(`/apiProxies/${kind}/`, '/apiProxies/')}/${kind}-routing/`, as: routed })

/**
 * A policy of a proxy (…/policies/{policyName}): its descriptor in the pipeline list of the proxy's policy read. The
 * update moves it to `order`, which is a position: past the end of the pipeline it is the last (NOT_READ).
 */
const policyRead = (withOrder: boolean): ReadSpec => ({
  at: (u) => `${proxyOf(u).replace(/\/$/, '')}/policies/`,
  pick: (r, b, u) => {
    const name = decodeURIComponent(u.match(/\/policies\/([^/]+)$/)![1]!)
    const list = `${String(b.operationMetadata?.targetPipeline ?? 'REQUEST').toLowerCase()}PolicyList`
    const policy = r?.resultList?.[0]?.[list]?.find((p: any) => p.name === name)
    return policy && { [list]: [policy] }
  },
  as: (b) => ({ [`${String(b.operationMetadata?.targetPipeline ?? 'REQUEST').toLowerCase()}PolicyList`]: [{ type: b.policy.type, description: b.policy.description, active: b.policy.active, ...(withOrder ? { order: b.operationMetadata?.order } : {}) }] }),
})

export const READ_BACK: Record<string, ReadSpec> = {
  // keys, keystores, JWKs (JWK_WRITES in the sweep reads the JWK pages' sources), credentials, organizations, IP groups
  'api-reference/keys-secrets/crud/create-key.mdx': child(),
  'api-reference/keys-secrets/crud/update-key.mdx': { at: (u, b) => `${u.replace(/[^/]+$/, enc(b.name))}/` },
  'api-reference/keys-secrets/crud/create-keystore.mdx': child(),
  'api-reference/keys-secrets/crud/update-keystore.mdx': { at: (u, b) => `${u.replace(/[^/]+$/, enc(b.name))}/` },
  'api-reference/keys-secrets/crud/update-jwk.mdx': { at: (u, b) => `${u.replace(/[^/]+$/, enc(b.name))}/` },
  'api-reference/credentials/crud/create-credential.mdx': { at: (u) => `${u}/`, pick: (r, b) => r?.resultList?.find((c: any) => c.username === b.username) },
  'api-reference/credentials/crud/update-credential.mdx': { at: (u) => `${u}/`, pick: (r, b) => r?.resultList?.find((c: any) => c.username === b.username) },
  'api-reference/credentials/access/grant-access.mdx': { at: (u) => `${u}/`, pick: (r) => r?.resultList, as: (b) => b.credentialAccessList },
  'api-reference/credentials/token-settings/set-token-settings.mdx': {
    at: (u) => `${u.replace(/\/[^/]+\/token$/, '')}/`,
    pick: (r, _b, u) => r?.resultList?.find((c: any) => c.username === decodeURIComponent(u.match(/\/credentials\/([^/]+)\/token$/)![1]!)),
    as: (b) => ({ tokenSettings: b }),
  },
  'api-reference/credential-organizations/crud/create-credential-organization.mdx': { at: (u, b) => `${u}/${enc(b.code)}` },
  'api-reference/credential-organizations/crud/update-credential-organization.mdx': { at: (u) => u },
  'api-reference/ip-groups/crud/create-ip-group.mdx': child(),
  'api-reference/ip-groups/crud/update-ip-group.mdx': self,
  'api-reference/ip-groups/ips/add-ips-to-group.mdx': { at: (u) => `${u.replace(/\/ips$/, '')}/` },
  // API proxies: create and update, routed proxies, promotion, deployment
  'api-reference/api-proxies/crud/create-api-proxy-from-file.mdx': proxyWrite,
  'api-reference/api-proxies/crud/create-api-proxy-from-url.mdx': proxyWrite,
  'api-reference/api-proxies/crud/update-api-proxy-from-file.mdx': proxyWrite,
  'api-reference/api-proxies/crud/update-api-proxy-from-url.mdx': proxyWrite,
  'api-reference/api-proxies/crud/update-api-proxy.mdx': proxyWrite,
  // the import's overrides as the proxy read names them: routing.loadBalanceAlgorithm and routingAddressList, and
  // maintenanceModeSetting.enabled
  'api-reference/api-proxies/crud/import-api-proxy-and-override.mdx': {
    at: (u) => proxyOf(u),
    as: (b) => ({
      ...(b.routing ? { routing: { loadBalanceAlgorithm: b.routing.algorithm, routingAddressList: b.routing.addressList } } : {}),
      ...(typeof b.maintenanceMode === 'boolean' ? { maintenanceModeSetting: { enabled: b.maintenanceMode } } : {}),
    }),
  },
  'api-reference/api-proxies/crud/create-a2a-api-proxy.mdx': routedCreate('a2a'),
  'api-reference/api-proxies/crud/create-mcp-api-proxy.mdx': routedCreate('mcp'),
  'api-reference/api-proxies/crud/create-ai-api-proxy.mdx': routedCreate('ai'),
  'api-reference/api-proxies/promotion/save-api-proxy-for-promotion.mdx': { at: (u) => `${u.replace(/promotion$/, 'forpromotion')}`, pick: (r, b) => r?.resultList?.find((p: any) => p.name === b.name) },
  // the deploy history record the (un)deploy wrote, newest first
  'api-reference/api-proxies/deployment/deploy-api-proxy.mdx': { at: (u) => `${proxyOf(u).replace(/\/$/, '')}/deploy-histories/` },
  'api-reference/api-proxies/deployment/undeploy-api-proxy.mdx': { at: (u) => `${proxyOf(u).replace(/\/$/, '')}/deploy-histories/` },
  // API proxy endpoints
  // the endpoint read names the path `endpoint` (the page's get-endpoint)
  'api-reference/api-proxies/endpoints/create-endpoint.mdx': endpoint(({ name, ...b }) => ({ ...b, endpoint: name })),
  'api-reference/api-proxies/endpoints/update-endpoint.mdx': endpoint((b) => { const { name, ...r } = rest(b); return { ...r, endpoint: name } }),
  'api-reference/api-proxies/endpoints/update-endpoint-cache.mdx': endpoint((b) => ({ cacheSettings: b.cacheSettings })),
  'api-reference/api-proxies/endpoints/update-endpoint-status.mdx': endpoint((b) => ({ active: b.active })),
  'api-reference/api-proxies/endpoints/update-endpoint-wsa.mdx': endpoint((b) => ({ wsaSettings: b.wsaSettings })),
  // API proxy settings: the proxy read, one section a page
  // secrets read back as their …Set flags
  'api-reference/api-proxies/settings/update-api-keys.mdx': { at: (u) => proxyOf(u), as: ({ publicKey, secretKey }) => ({ apiKeys: { publicKey, ...(secretKey ? { secretKeySet: true } : {}) } }) },
  'api-reference/api-proxies/settings/update-cache-settings.mdx': setting('cacheSettings', 'cacheSettings'),
  'api-reference/api-proxies/settings/update-circuit-breaker-settings.mdx': setting('circuitBreakerSettings'),
  'api-reference/api-proxies/settings/update-client-route.mdx': setting('clientRoute', 'clientRoute'),
  'api-reference/api-proxies/settings/update-connection-settings.mdx': setting('connectionSettings'),
  'api-reference/api-proxies/settings/update-custom-message.mdx': setting('customMessageSettings'),
  'api-reference/api-proxies/settings/update-error-handling.mdx': setting('errorHandlingSettings'),
  'api-reference/api-proxies/settings/update-forwarded-ip-header.mdx': setting('forwardedIpHeaderParam', 'forwardedIpHeaderParam'),
  'api-reference/api-proxies/settings/update-grpc-settings.mdx': setting('grpcSettings', 'grpcSettings'),
  'api-reference/api-proxies/settings/update-idempotency-settings.mdx': setting('idempotencySettings', 'idempotencySettings'),
  'api-reference/api-proxies/settings/update-json-error-template.mdx': setting('jsonErrorResponseTemplate', 'jsonErrorResponseTemplate'),
  'api-reference/api-proxies/settings/update-xml-error-template.mdx': setting('xmlErrorResponseTemplate', 'xmlErrorResponseTemplate'),
  'api-reference/api-proxies/settings/update-maintenance-mode.mdx': setting('maintenanceModeSetting'),
  'api-reference/api-proxies/settings/update-metadata.mdx': { at: (u, b) => (b.name ? proxyOf(u, b.name) : proxyOf(u)), as: rest },
  'api-reference/api-proxies/settings/update-mtls-settings.mdx': setting('mtlsSettings'),
  'api-reference/api-proxies/settings/update-ntlm-settings.mdx': { at: (u) => proxyOf(u), as: (b) => ({ ntlmSettings: { ...b.ntlmSettings, ...(b.ntlmSettings.password ? { passwordSet: true } : {}) } }) },
  'api-reference/api-proxies/settings/update-proxy-server-settings.mdx': { at: (u) => proxyOf(u), as: (b) => ({ proxyServerSettings: { ...rest(b), ...(b.proxyPassword ? { proxyPasswordSet: true } : {}) } }) },
  'api-reference/api-proxies/settings/update-routing-addresses.mdx': setting('routing'),
  'api-reference/api-proxies/settings/update-routing-status.mdx': setting('routing'),
  'api-reference/api-proxies/settings/update-spec-access-type.mdx': { at: (u) => proxyOf(u), as: () => ({}) },
  'api-reference/api-proxies/settings/update-trace-settings.mdx': setting('traceSettings'),
  'api-reference/api-proxies/settings/update-websocket-settings.mdx': setting('websocketSettings', 'websocketSettings'),
  'api-reference/api-proxies/settings/update-a2a-routing.mdx': { ...self, as: routed },
  'api-reference/api-proxies/settings/update-mcp-routing.mdx': { ...self, as: routed },
  'api-reference/api-proxies/settings/update-ai-routing.mdx': { ...self, as: routed },
  // traffic log settings
  'api-reference/api-proxies/traffic-log-settings/update.mdx': self,
  // the override of the method and connector the URL names, in the environment's settings
  'api-reference/api-proxies/traffic-log-settings/update-method-override.mdx': {
    at: (u) => `${u.replace(/\/connectors\/.*$/, '')}/`,
    pick: (r, _b, u) => {
      const [, connector, method] = /\/connectors\/([^/]+)\/methodOverride\/?\?methodName=(.+)$/.exec(u)!
      const settings = r?.resultList?.[0] ?? r
      return settings?.methodOverrideList?.find((m: any) => m.apiMethodName === decodeURIComponent(method!))?.connectorSettingsMap?.[connector!]
    },
  },
  // policies of a proxy, global policies, policy groups
  // the pages' reads answer policies as descriptors (NOT_READ): the proxy's policy list, a global policy, a policy group
  'api-reference/policies/crud/add-policy.mdx': policyRead(true),
  'api-reference/policies/crud/update-policy.mdx': policyRead(false),
  'api-reference/global-policies/create-global-policy.mdx': { ...child(), as: (b) => ({ name: b.name, policyType: b._class, policyTypeLabel: b._class }) },
  'api-reference/global-policies/update-global-policy.mdx': { ...self, as: (b) => ({ name: b.name, policyType: b._class, policyTypeLabel: b._class }) },
  'api-reference/policy-groups/create-policy-group.mdx': { ...child(), as: (b) => ({ name: b.name, targetPipeline: b.targetPipeline }) },
  'api-reference/policy-groups/update-policy-group.mdx': { ...self, as: (b) => ({ name: b.name, targetPipeline: b.targetPipeline }) },
  // API proxy groups: the list read (the vendor has no get page of one group)
  'api-reference/api-proxy-groups/crud/create-api-proxy-group.mdx': { at: (u) => `${u}/`, pick: (r, b) => r?.resultList?.find((g: any) => g.name === b.name) },
  'api-reference/api-proxy-groups/crud/update-api-proxy-group.mdx': { at: (u) => `${u}/`, pick: (r, b) => r?.resultList?.find((g: any) => g.name === b.name) },
  'api-reference/api-proxy-groups/deployment/deploy-api-proxy-group.mdx': { at: (u) => `${u.replace(/\/environments\/.*$/, '')}/deploy-histories/` },
  'api-reference/api-proxy-groups/deployment/undeploy-api-proxy-group.mdx': { at: (u) => `${u.replace(/\/environments\/.*$/, '')}/deploy-histories/` },
  // platform objects
  'api-reference/connections/crud/create-connection.mdx': self,
  'api-reference/connections/crud/update-connection.mdx': self,
  // a secret value (visible false) reads as null, as the get page says (NOT_READ)
  'api-reference/environment-variables/crud/create-environment-variable.mdx': {
    ...self,
    as: (b) => ({ ...b, globalValue: b.globalVisible === false ? undefined : b.globalValue, environmentValueList: b.environmentValueList?.map((e: any) => ({ ...e, value: e.visible === false ? undefined : e.value })) }),
  },
  'api-reference/rlcl/crud/create-rlcl.mdx': child(),
  'api-reference/rlcl/condition/add-condition.mdx': { at: (u) => `${u.replace(/\/condition$/, '')}/`, as: (b) => ({ condition: b }) },
  'api-reference/rlcl/condition/update-condition.mdx': { at: (u) => `${u.replace(/\/condition$/, '')}/`, as: (b) => ({ condition: b }) },
  'api-reference/rlcl/credentials/add-credentials.mdx': { at: (u) => `${u.replace(/\/credentials$/, '')}/` },
  'api-reference/rlcl/endpoints/add-endpoints.mdx': { at: (u) => `${u.replace(/\/endpoints$/, '')}/` },
  // AI: LLM providers, models, provider definitions, vector DBs, presets, gateway settings
  'api-reference/llm-providers/create-llm-provider.mdx': self,
  'api-reference/llm-providers/update-llm-provider.mdx': self,
  'api-reference/llm-models/create-llm-model.mdx': self,
  'api-reference/llm-models/update-llm-model.mdx': self,
  'api-reference/llm-provider-definitions/create-llm-provider-definition.mdx': self,
  'api-reference/llm-provider-definitions/update-llm-provider-definition.mdx': self,
  'api-reference/vector-dbs/create-vector-db.mdx': self,
  'api-reference/vector-dbs/update-vector-db.mdx': self,
  'api-reference/ai-dlp-presets/create-ai-dlp-preset.mdx': self,
  'api-reference/ai-dlp-presets/update-ai-dlp-preset.mdx': self,
  'api-reference/ai-privacy-presets/create-ai-privacy-preset.mdx': self,
  'api-reference/ai-privacy-presets/update-ai-privacy-preset.mdx': self,
  'api-reference/ai-prompt-decorator-presets/create-ai-prompt-decorator-preset.mdx': self,
  'api-reference/ai-prompt-decorator-presets/update-ai-prompt-decorator-preset.mdx': self,
  'api-reference/ai-prompt-guard-presets/create-ai-prompt-guard-preset.mdx': self,
  'api-reference/ai-prompt-guard-presets/update-ai-prompt-guard-preset.mdx': self,
  'api-reference/ai-gateway-settings/update-ai-gateway-settings.mdx': { at: (u) => u },
}

/** Written fields that no read answers (secrets and key material, the write's own operation): never compared. */
export const WRITE_ONLY = new Set(['password', 'content', 'file', 'jwkStr', 'apiKey', 'secretKey', 'bearerToken', 'proxyPassword', 'deploy', 'deployTargetEnvironmentNameList'])

const SOAP_OPTIONS = "a WSDL proxy's SOAP options (read back in soapSettings there); an OpenAPI or reverse proxy has none: its read's soapSettings is null"
const PROXY_WRITE: Record<string, string> = {
  soapToRest: SOAP_OPTIONS, enableWSA: SOAP_OPTIONS, enableWSRM: SOAP_OPTIONS,
  reParse: 'an instruction (parse the specification again now), not a field of the proxy',
  specAuthorizationValueList: 'the credentials sent to fetch specUrl (header or query values such as a bearer token): used for the fetch, never answered',
}
const GLOBAL_POLICY = "get-global-policy answers a descriptor (id, name, policyType = the _class, policyTypeLabel), never the policy's body (the page: no secret in any form)"
const POLICY_GROUP = 'get-policy-group answers a descriptor (id, name, targetPipeline), never the group\'s policies'
const PROXY_POLICY = "list-policies answers each policy of a pipeline as a descriptor (name, type, description, active, order), never the policy's configuration"

/**
 * Written fields a read legitimately does not hold, by page: each with its reason (the page's own read, the spec, a
 * write-only secret, an instruction rather than a field). The sweep drops them from what it compares (top-level
 * fields of the body as the read names it); WRITE_ONLY above holds the secrets no read answers on any page.
 */
export const NOT_READ: Record<string, Record<string, string>> = {
  'api-reference/api-proxies/crud/create-api-proxy-from-file.mdx': PROXY_WRITE,
  'api-reference/api-proxies/crud/create-api-proxy-from-url.mdx': PROXY_WRITE,
  'api-reference/api-proxies/crud/update-api-proxy-from-file.mdx': PROXY_WRITE,
  'api-reference/api-proxies/crud/update-api-proxy-from-url.mdx': PROXY_WRITE,
  'api-reference/api-proxies/crud/update-api-proxy.mdx': PROXY_WRITE,
  'api-reference/global-policies/create-global-policy.mdx': Object.fromEntries(['_class', 'description', 'active', 'username', 'password', 'passwordType', 'mustUnderstand', 'nonce', 'created'].map((f) => [f, GLOBAL_POLICY])),
  'api-reference/global-policies/update-global-policy.mdx': Object.fromEntries(['_class', 'description', 'active', 'username', 'password', 'passwordType', 'mustUnderstand', 'nonce', 'created'].map((f) => [f, GLOBAL_POLICY])),
  'api-reference/policy-groups/create-policy-group.mdx': Object.fromEntries(['_class', 'description', 'active', 'order', 'makeDefault', 'canBeDeleted', 'policyList'].map((f) => [f, POLICY_GROUP])),
  'api-reference/policy-groups/update-policy-group.mdx': Object.fromEntries(['_class', 'description', 'active', 'order', 'makeDefault', 'canBeDeleted', 'policyList'].map((f) => [f, POLICY_GROUP])),
  'api-reference/policies/crud/add-policy.mdx': { 'operationMetadata.targetScope': PROXY_POLICY, 'policy (its configuration)': PROXY_POLICY },
  'api-reference/policies/crud/update-policy.mdx': {
    'operationMetadata.targetScope': PROXY_POLICY, 'policy (its configuration)': PROXY_POLICY,
    'operationMetadata.order': 'a position, not a stored value: "if >= list size, moves to end" (the page); the fixture\'s pipeline holds this one policy, read at 1',
  },
  'api-reference/api-proxy-groups/crud/update-api-proxy-group.mdx': { environmentName: 'an instruction: deploy the group to that environment after the update (the page), not a field of the group' },
  'api-reference/environment-variables/crud/create-environment-variable.mdx': {
    'globalValue (globalVisible false)': 'a Secret value: "always returned as null and can never be read back through any endpoint" (get-environment-variable)',
    'environmentValueList[].value (visible false)': 'a Secret value: "always returned as null and can never be read back through any endpoint" (get-environment-variable)',
  },
}

/** Accepted examples with no object to read back, by page: each with its reason. */
export const NO_READ: Record<string, string> = {
  'api-reference/api-proxies/endpoints/get-endpoint.mdx': 'a read (POST by name and HTTP method): nothing written',
  'api-reference/api-proxies/endpoints/get-method-policies.mdx': 'a read (POST by name and HTTP method): nothing written',
  'api-reference/api-proxies/endpoints/list-endpoint-policies.mdx': 'a read (POST by name and HTTP method): nothing written',
  'api-reference/credentials/crud/change-credential-password.mdx': 'writes only the password: a secret no read answers (password always null)',
  'api-reference/export-import/export-objects.mdx': 'a read: the export answers the objects as a file, nothing written',
  'api-reference/llm-providers/test-llm-provider-connection.mdx': 'a probe of the provider: nothing written',
  'api-reference/vector-dbs/test-vector-db-connection.mdx': 'a probe of the vector DB: nothing written',
  'api-reference/policies/crud/discover-a2a-policy-skills.mdx': "a probe: answers the agent's skills, nothing written",
  'api-reference/policies/crud/discover-mcp-policy-tools.mdx': "a probe: answers the MCP server's tools, nothing written",
  'api-reference/api-proxies/endpoints/delete-endpoint.mdx': 'a delete: the object is gone',
  'api-reference/credentials/access/revoke-access.mdx': 'a revoke: the accesses are gone',
  'api-reference/policies/crud/delete-policy.mdx': 'a delete: the object is gone',
}

/** `sent` less the fields NOT_READ lists for its page (top-level names; the others are documentation). */
export function readable(page: string, sent: any): any {
  const drop = Object.keys(NOT_READ[page] ?? {})
  if (!sent || typeof sent !== 'object' || Array.isArray(sent) || !drop.length) return sent
  return Object.fromEntries(Object.entries(sent).filter(([k]) => !drop.includes(k)))
}

/** The fields of `sent` that `read` does not hold as sent (scalars, and objects and lists field by field). */
export function missingIn(read: unknown, sent: unknown, at = ''): string[] {
  if (sent === null || sent === undefined) return []
  if (Array.isArray(sent)) {
    if (!Array.isArray(read)) return [`${at} (not a list: ${JSON.stringify(read)?.slice(0, 80)})`]
    return sent.flatMap((v, i) => {
      // a list of objects is matched by the entry of the same name or environment, else by position
      const keyField = v && typeof v === 'object' ? ['environmentName', 'name', 'key'].find((k) => k in v) : undefined
      // (entries without such a field: the entry that holds every field sent, else the one at the same position)
      const match = keyField ? read.find((r: any) => r?.[keyField] === v[keyField])
        : v && typeof v === 'object' ? (read.find((r: any) => missingIn(r, v).length === 0) ?? read[i]) : read.includes(v) ? v : undefined
      return match === undefined ? [`${at}[${i}] (absent)`] : missingIn(match, v, `${at}[${i}]`)
    })
  }
  if (typeof sent === 'object') {
    if (!read || typeof read !== 'object') return [`${at} (absent)`]
    return Object.entries(sent as Record<string, unknown>).flatMap(([k, v]) => (WRITE_ONLY.has(k) ? [] : missingIn((read as any)[k], v, at ? `${at}.${k}` : k)))
  }
  if (read === sent) return []
  // a date is read back as the same instant
  if (typeof sent === 'string' && typeof read === 'string' && !Number.isNaN(Date.parse(sent)) && /\d{4}-\d\d-\d\dT/.test(sent) && Date.parse(sent) === Date.parse(read)) return []
  return [`${at}: sent ${JSON.stringify(sent)}, read ${JSON.stringify(read)}`]
}

/** The read-back section of docs/vendor-examples.md: the figures, then every listed exception with its reason. */
export function readBackReport(readBack: { key: string; url: string; missing: string[] }[], accepted: string[]): string[] {
  const page = (k: string) => k.replace(/#\d+$/, '')
  const short = (p: string) => `\`${p.replace('api-reference/', '')}\``
  const noRead = accepted.filter((k) => NO_READ[page(k)])
  const families = new Set(readBack.map((r) => page(r.key).replace('api-reference/', '').split('/').slice(0, -1).join('/')))
  return [
    '## Read back',
    '',
    'After each accepted write the sweep reads the object back with the family\'s read page (GET …/{name}/, the list it',
    'appears in, or the vendor\'s POST read of an endpoint; test/openapi/vendor-read-back.ts, READ_BACK) and checks that the',
    'read holds every field the example wrote, under the name the read gives it. Secrets are never answered (WRITE_ONLY:',
    'passwords, key material, API keys, bearer tokens; a setting\'s secret reads as its …Set flag).',
    '',
    `Accepted examples: ${accepted.length}; read back: ${readBack.length} (${families.size} folders); with no object to read: ${noRead.length}; fields missing: ${readBack.reduce((n, r) => n + r.missing.length, 0)}.`,
    '',
    '### Written fields a read does not hold (NOT_READ)',
    '',
    '| Page | Field | Reason |',
    '|---|---|---|',
    ...Object.entries(NOT_READ).flatMap(([p, fields]) => Object.entries(fields).map(([f, why]) => `| ${short(p)} | ${f} | ${why.replace(/\|/g, '\\|')} |`)),
    '',
    '### Accepted examples with no object to read (NO_READ)',
    '',
    '| Page | Reason |',
    '|---|---|',
    ...Object.entries(NO_READ).map(([p, why]) => `| ${short(p)} | ${why} |`),
    '',
  ]
}
