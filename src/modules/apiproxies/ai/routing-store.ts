import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { malformed } from '../../../platform/errors/domain-error.js'
import type { BackendServerValues, RoutingValues } from './ai-routing.js'
import { sentFlat, type BackendMtlsSettings } from './backend-auth-schema.js'

// The three forms of a routing config: stored (secrets sealed), view (presence flags only) and runtime
// (secrets opened, for the gateway push only).

export interface StoredAuth {
  scheme: string
  headerName?: string | null
  username?: string | null
  tokenCipher?: string | null
  passwordCipher?: string | null
  /** OAUTH2_CLIENT_CREDENTIALS only */
  tokenEndpoint?: string
  clientId?: string
  scope?: string | null
  clientSecretCipher?: string | null
  /** MTLS only */
  mTLSSettings?: BackendMtlsSettings
}

export interface ViewAuth {
  scheme: string
  headerName: string | null
  username: string | null
  tokenSet: boolean
  passwordSet: boolean
  /** OAUTH2_CLIENT_CREDENTIALS only: tokenEndpoint, clientId, scope and whether a client secret is stored */
  tokenEndpoint?: string
  clientId?: string
  scope?: string | null
  clientSecretSet?: boolean
  /** MTLS only */
  mTLSSettings?: BackendMtlsSettings
}

type Server = Omit<BackendServerValues, 'auth'> & { auth: StoredAuth }
type StoredRouting = Record<string, unknown> & { backendServers?: Server[] }

const needsToken = (scheme: string) => scheme === 'BEARER' || scheme === 'API_KEY_HEADER'
const needsPassword = (scheme: string) => scheme === 'BASIC'
const blank = (s: string | null | undefined) => s === undefined || s === null || s.trim() === ''

/**
 * Seals the secrets of the backend servers. A blank secret keeps the one stored for the server of the same
 * name (case-insensitive) when the scheme still uses it; a non-blank one rotates it.
 */
export function sealRouting(keyring: SecretKeyring, values: RoutingValues, previous: unknown): StoredRouting {
  if (!('backendServers' in values)) return sealAiRouting(keyring, values, previous)
  const before = new Map<string, Server>()
  for (const s of ((previous as StoredRouting | null)?.backendServers ?? [])) before.set(s.name.toLowerCase(), s)
  const servers = values.backendServers.map((server, i): Server => {
    const { token, password, clientSecret, ...auth } = server.auth
    const old = before.get(server.name.toLowerCase())?.auth
    const field = `backendServers[${i}].auth`
    const sealed: StoredAuth = { scheme: auth.scheme, headerName: auth.headerName ?? null, username: auth.username ?? null }
    if (auth.scheme === 'OAUTH2_CLIENT_CREDENTIALS') {
      Object.assign(sealed, { tokenEndpoint: auth.tokenEndpoint!, clientId: auth.clientId!, scope: auth.scope || null })
      // the stored secret is kept for the same client at the same token URL only: another client needs its own
      const same = old?.scheme === auth.scheme && old.clientId === auth.clientId && old.tokenEndpoint === auth.tokenEndpoint
      sealed.clientSecretCipher = !blank(clientSecret) ? keyring.encrypt(clientSecret!) : same ? (old?.clientSecretCipher ?? null) : null
      const secretField = sentFlat(server.auth) ? `backendServers[${i}].clientSecret` : `${field}.clientSecret`
      if (!sealed.clientSecretCipher) throw malformed(`${secretField}: is required for ${sentFlat(server.auth) ? 'authScheme' : 'scheme'} OAUTH2_CLIENT_CREDENTIALS`, { field: secretField })
    }
    if (auth.scheme === 'MTLS') sealed.mTLSSettings = auth.mTLSSettings!
    if (needsToken(auth.scheme)) {
      sealed.tokenCipher = !blank(token) ? keyring.encrypt(token!) : (old?.tokenCipher ?? null)
      if (!sealed.tokenCipher) throw malformed(`${field}.token: is required for scheme ${auth.scheme}`, { field: `${field}.token` })
    }
    if (needsPassword(auth.scheme)) {
      sealed.passwordCipher = !blank(password) ? keyring.encrypt(password!) : (old?.passwordCipher ?? null)
      if (!sealed.passwordCipher) throw malformed(`${field}.password: is required for scheme ${auth.scheme}`, { field: `${field}.password` })
    }
    return { ...server, auth: sealed }
  })
  return { ...values, backendServers: servers }
}

/**
 * An AI routing's outbound proxy password (the newest AI routing page): sealed as proxyPasswordCipher; a blank or
 * absent one keeps the stored cipher while proxyAuthorizationNeeded holds; needed with none given or stored is 400.
 */
function sealAiRouting(keyring: SecretKeyring, values: RoutingValues, previous: unknown): StoredRouting {
  const { proxyPassword, ...rest } = values as Record<string, unknown> & { proxyPassword?: string | null; proxyAuthorizationNeeded?: boolean | null; proxyUsername?: string | null }
  if (!rest.proxyAuthorizationNeeded) {
    if (!blank(proxyPassword)) throw malformed('proxyPassword: is only used with proxyAuthorizationNeeded true', { field: 'proxyPassword' })
    return rest
  }
  if (!rest.proxyUsername) throw malformed('proxyUsername: is required with proxyAuthorizationNeeded true', { field: 'proxyUsername' })
  const cipher = !blank(proxyPassword) ? keyring.encrypt(proxyPassword!) : ((previous as { proxyPasswordCipher?: string } | null)?.proxyPasswordCipher ?? null)
  if (!cipher) throw malformed('proxyPassword: is required with proxyAuthorizationNeeded true', { field: 'proxyPassword' })
  return { ...rest, proxyPasswordCipher: cipher }
}

const viewAuth = (a: StoredAuth): ViewAuth => ({
  scheme: a.scheme,
  headerName: a.headerName ?? null,
  username: a.username ?? null,
  tokenSet: !!a.tokenCipher,
  passwordSet: !!a.passwordCipher,
  ...(a.scheme === 'OAUTH2_CLIENT_CREDENTIALS' ? { tokenEndpoint: a.tokenEndpoint, clientId: a.clientId, scope: a.scope ?? null, clientSecretSet: !!a.clientSecretCipher } : {}),
  ...(a.scheme === 'MTLS' ? { mTLSSettings: a.mTLSSettings } : {}),
})

/** What clients read: every field, secrets as presence flags. */
export function viewRouting(stored: unknown): Record<string, unknown> | null {
  if (!stored) return null
  const r = stored as StoredRouting
  if (!r.backendServers) {
    if (!('proxyPasswordCipher' in r)) return { ...r }
    const { proxyPasswordCipher, ...rest } = r
    return { ...rest, proxyPasswordSet: !!proxyPasswordCipher }
  }
  return { ...r, backendServers: r.backendServers.map((s) => ({ ...s, auth: viewAuth(s.auth) })) }
}

/** What the gateway receives: secrets opened where it needs them to call the backend. */
export function runtimeRouting(keyring: SecretKeyring, stored: unknown): Record<string, unknown> | null {
  if (!stored) return null
  const r = stored as StoredRouting
  if (!r.backendServers) {
    const { proxyPasswordCipher, ...rest } = r as StoredRouting & { proxyPasswordCipher?: string }
    return proxyPasswordCipher ? { ...rest, proxyPassword: keyring.decrypt(proxyPasswordCipher) } : { ...rest }
  }
  return {
    ...r,
    backendServers: r.backendServers.map((s) => {
      const { tokenCipher, passwordCipher, clientSecretCipher, ...auth } = s.auth
      return {
        ...s,
        auth: {
          ...auth,
          ...(tokenCipher ? { token: keyring.decrypt(tokenCipher) } : {}),
          ...(passwordCipher ? { password: keyring.decrypt(passwordCipher) } : {}),
          ...(clientSecretCipher ? { clientSecret: keyring.decrypt(clientSecretCipher) } : {}),
        },
      }
    }),
  }
}

/** The routing clients read for a proxy: MCP/A2A proxies created without one show the empty default config. */
export function routingViewOf(proxy: { kind: string; routing: unknown }): Record<string, unknown> | null {
  const view = viewRouting(proxy.routing)
  if (view || proxy.kind === 'AI') return view
  if (proxy.kind === 'MCP') return { loadBalancing: 'FAILOVER', backendServers: [] }
  if (proxy.kind === 'A2A') return { loadBalancing: 'FAILOVER', backendServers: [], agentCard: null }
  return null
}
