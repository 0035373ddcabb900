import type { ApiProxy } from '../../../generated/prisma/client.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { lookupsByName, type AdapterContext, type Advisory, type PortableObject, type TransferAdapter } from '../../../platform/transfer/registry.js'
import { pushRoutedProxy, writeDeclaredRoutedProxy, type BackendSecrets } from './service.js'
import { routingSchemaOf, type RoutedKind } from './ai-routing.js'

/**
 * AI, MCP and A2A proxies (spec §4.5) travel as AI_PROXY objects (category API_MANAGEMENT), named by name (one name
 * space with the project's REST proxies). `data`: kind, description, routingMode and routing as stored (every default
 * of the routing body applied), each backend server's auth without its secrets; secrets: a backend server's token,
 * password and OAuth2 client secret, `routing/backendServers/<server>/token|password|clientSecret` (left out: the
 * stored one is kept). Group membership is
 * the groups' (apiProxyGroups). Writes go through the AI proxy service (writeDeclaredRoutedProxy: the creation and
 * routing bodies' schemas, modes and LLM providers checked); relativePath travels as data, an AI routing's outbound
 * proxy password as the secret `routing/proxyPassword`; each written proxy is pushed after the commit, as its
 * writes push it.
 */
const TYPE = 'AI_PROXY'
const ROUTED = ['AI', 'MCP', 'A2A']
const SECRET = /^routing\/backendServers\/(.+)\/(token|password|clientSecret)$/
type SecretField = 'token' | 'password' | 'clientSecret'
/** a backend server's sealed fields and the secret each opens to */
const SEALED: [cipher: string, field: SecretField][] = [['tokenCipher', 'token'], ['passwordCipher', 'password'], ['clientSecretCipher', 'clientSecret']]
export const backendSecretKey = (server: string, field: SecretField) => `routing/backendServers/${server}/${field}`
/** The AI routing's outbound proxy password (the newest AI routing page's proxyPassword). */
const PROXY_PASSWORD = 'routing/proxyPassword'

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v)

function toPortable(keyring: SecretKeyring, p: ApiProxy): PortableObject {
  const secrets: Record<string, string> = {}
  let routing = p.routing as Record<string, unknown> | null
  if (isRecord(routing) && Array.isArray(routing.backendServers)) {
    routing = {
      ...routing,
      backendServers: routing.backendServers.map((s: Record<string, unknown>) => {
        const auth = { ...((s.auth ?? {}) as Record<string, unknown>) }
        for (const [cipherField, field] of SEALED) {
          const cipher = auth[cipherField]
          delete auth[cipherField]
          if (typeof cipher === 'string' && keyring.knows(cipher)) secrets[backendSecretKey(String(s.name), field)] = keyring.decrypt(cipher)
        }
        return { ...s, auth }
      }),
    }
  }
  // an AI routing's outbound proxy password (sealed as proxyPasswordCipher) travels as a secret, never as data
  if (isRecord(routing) && 'proxyPasswordCipher' in routing) {
    const { proxyPasswordCipher, ...rest } = routing
    if (typeof proxyPasswordCipher === 'string' && keyring.knows(proxyPasswordCipher)) secrets[PROXY_PASSWORD] = keyring.decrypt(proxyPasswordCipher)
    routing = rest
  }
  return { type: TYPE, kind: null, name: p.name, secrets, dependencies: [], data: { kind: p.kind, description: p.description, relativePath: p.relativePath, routingMode: p.routingMode, routing } }
}

/** A file's backend secrets taken out of its routing (backendSecretKey); the rest is data. */
export function splitBackendSecrets(obj: Record<string, unknown>): { data: Record<string, unknown>; secrets: Record<string, string> } {
  const secrets: Record<string, string> = {}
  let routing = obj.routing
  if (isRecord(routing) && typeof routing.proxyPassword === 'string') {
    const { proxyPassword, ...rest } = routing
    if (proxyPassword !== '') secrets[PROXY_PASSWORD] = proxyPassword
    routing = rest
    obj = { ...obj, routing }
  }
  if (!isRecord(routing) || !Array.isArray(routing.backendServers)) return { data: obj, secrets }
  const backendServers = routing.backendServers.map((s) => {
    if (!isRecord(s) || !isRecord(s.auth)) return s
    const auth = { ...s.auth }
    for (const [, field] of SEALED) {
      const value = auth[field]
      delete auth[field]
      if (typeof value === 'string' && value !== '') secrets[backendSecretKey(String(s.name), field)] = value
    }
    return { ...s, auth }
  })
  return { data: { ...obj, routing: { ...routing, backendServers } }, secrets }
}

/** Where a dump writes the `${env:NAME}` of a backend secret: its server's auth. */
export function placeBackendSecret(obj: Record<string, unknown>, key: string, ref: string) {
  const m = SECRET.exec(key)
  const routing = obj.routing
  if (key === PROXY_PASSWORD && isRecord(routing)) {
    obj.routing = { ...routing, proxyPassword: ref }
    return
  }
  if (!m || !isRecord(routing) || !Array.isArray(routing.backendServers)) return
  obj.routing = { ...routing, backendServers: routing.backendServers.map((s) => (isRecord(s) && s.name === m[1] ? { ...s, auth: { ...(isRecord(s.auth) ? s.auth : {}), [m[2]!]: ref } } : s)) }
}

const find = async (ctx: AdapterContext, names: string[]) =>
  (await ctx.db.apiProxy.findMany({ where: { projectId: ctx.access.project.id, kind: { in: ROUTED as never[] }, name: { in: names } }, orderBy: { name: 'asc' } })).map((p) => toPortable(ctx.deps.keyring, p))

export const aiProxyTransferAdapter: TransferAdapter = {
  type: TYPE,
  category: 'API_MANAGEMENT',
  kinds: null,
  secretFields: ['routing/backendServers/<server>/token', 'routing/backendServers/<server>/password', 'routing/backendServers/<server>/clientSecret', PROXY_PASSWORD],
  scope: 'project',
  source: 'apiproxies',

  ...lookupsByName(find),

  async findAll(ctx) {
    return (await ctx.db.apiProxy.findMany({ where: { projectId: ctx.access.project.id, kind: { in: ROUTED as never[] } }, orderBy: { name: 'asc' } })).map((p) => toPortable(ctx.deps.keyring, p))
  },

  async listNames(ctx) {
    return (await ctx.db.apiProxy.findMany({ where: { projectId: ctx.access.project.id, kind: { in: ROUTED as never[] } }, select: { name: true }, orderBy: { name: 'asc' } })).map((p) => p.name)
  },

  async write(ctx, object, existing) {
    const secrets: Record<string, BackendSecrets> = {}
    for (const [k, v] of Object.entries(object.secrets)) {
      const m = SECRET.exec(k)
      if (m) secrets[m[1]!.toLowerCase()] = { ...secrets[m[1]!.toLowerCase()], [m[2]!]: v }
    }
    const proxyPassword = object.secrets[PROXY_PASSWORD]
    const data = proxyPassword !== undefined && isRecord(object.data.routing) ? { ...object.data, routing: { ...object.data.routing, proxyPassword } } : object.data
    await writeDeclaredRoutedProxy(ctx.db, ctx.deps.keyring, ctx.access.project.id, object.name, data, secrets, existing)
    return []
  },

  /** After the commit: each written proxy pushed to every environment of the project, as its writes push it. */
  async afterImport(deps, access, written): Promise<Advisory[]> {
    const names = written.filter((w) => w.type === TYPE).map((w) => w.name)
    const proxies = await deps.prisma.apiProxy.findMany({ where: { projectId: access.project.id, name: { in: names } } })
    const failed: string[] = []
    for (const p of proxies) if (!(await pushRoutedProxy(deps, access.project.name, p)).success) failed.push(p.name)
    return failed.length ? [{ level: 'WARNING', key: 'deployRequired', params: { type: TYPE, names: failed.sort(), reason: 'an environment did not acknowledge the proxy' } }] : []
  },
}

/**
 * A file's routing in the form the stored one is compared in: the routing body of its kind with its defaults applied
 * (a backend server written with its defaults left out is no drift), each auth without secrets, headerName and
 * username null when absent. A routing the body refuses is left as it is (the apply refuses it, naming the field).
 */
export function normalizeRoutedProxy(d: Record<string, unknown>): Record<string, unknown> {
  const kind = d.kind as RoutedKind
  if (!isRecord(d.routing) || !(kind in routingSchemaOf)) return d
  const parsed = routingSchemaOf[kind].safeParse(d.routing)
  if (!parsed.success) return d
  const { routingMode: _mode, ...routing } = parsed.data as Record<string, unknown>
  if (Array.isArray(routing.backendServers)) {
    routing.backendServers = routing.backendServers.map((s: Record<string, unknown>) => {
      const { token: _t, password: _p, clientSecret: _c, ...auth } = (s.auth ?? {}) as Record<string, unknown>
      const oauth = auth.scheme === 'OAUTH2_CLIENT_CREDENTIALS' ? { scope: auth.scope || null } : {}
      return { ...s, auth: { ...auth, headerName: auth.headerName ?? null, username: auth.username ?? null, ...oauth } }
    })
  }
  return { ...d, routing }
}
