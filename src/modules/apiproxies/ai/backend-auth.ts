import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { fetchSpecDocument } from '../../../platform/http/outbound-fetch.js'
import { keystoreEntryMaterial } from '../../keys/materials.js'
import { environmentsOf, findObject } from '../../keys/store.js'
import type { BackendServerValues } from './ai-routing.js'
import { sentFlat, type BackendMtlsSettings } from './backend-auth-schema.js'

// The material of a backend server's OAUTH2_CLIENT_CREDENTIALS and MTLS schemes beyond its schema (ai-routing.ts):
// the keystore and trust store an mTLS server names must be objects of the project (the proxy mTLS settings page's
// rule and errorKeys), checked before the routing is saved.

/** Where a server's mTLS settings were sent: the page's flat field or our nested auth. */
const mtlsField = (server: BackendServerValues, i: number) => `backendServers[${i}].${sentFlat(server.auth) ? '' : 'auth.'}mTLSSettings`

/** Refuses an MTLS server whose keystore (or trust store: a keystore or a certificate) is not an object of the project. */
export async function checkBackendMaterial(db: Tx, projectId: string, servers: BackendServerValues[]): Promise<void> {
  for (const [i, server] of servers.entries()) {
    const mtls = server.auth.scheme === 'MTLS' ? server.auth.mTLSSettings : null
    if (!mtls) continue
    const at = mtlsField(server, i)
    if (mtls.keyStoreName && !(await findObject(db, projectId, 'KEY_STORE', mtls.keyStoreName))) {
      throw new DomainError('validation', 'keystoreNotFound', `${at}.keyStoreName: Keystore (name: ${mtls.keyStoreName}) is not found!`, { field: `${at}.keyStoreName`, keyStoreName: mtls.keyStoreName })
    }
    const trust = mtls.trustStoreName
    if (trust && !(await findObject(db, projectId, 'KEY_STORE', trust)) && !(await findObject(db, projectId, 'CERTIFICATE', trust))) {
      throw new DomainError('validation', 'truststoreNotFound', `${at}.trustStoreName: no keystore or certificate named '${trust}' in the project`, { field: `${at}.trustStoreName`, trustStoreName: trust })
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A probe of a backend server (parse-tools / parse-skills) authenticates as its scheme says: OAUTH2_CLIENT_CREDENTIALS
// asks the token URL for an access token (RFC 6749 §4.4, the client authenticated with HTTP Basic) and sends it as a
// bearer token; MTLS presents the keystore's client certificate. The gateway does the same with the pushed material.

export interface OAuthClient { tokenEndpoint: string; clientId: string; clientSecret: string; scope?: string | null }
export interface ProbeTls { key: string; cert: string; rejectUnauthorized: boolean }

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString()

/** An access token of the client credentials grant; a refusal or an answer without a bearer token is a 400 naming tokenEndpoint. */
export async function clientCredentialsToken(deps: Deps, client: OAuthClient): Promise<string> {
  const basic = Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')
  const text = await fetchSpecDocument(client.tokenEndpoint, {
    allowPrivateAddresses: deps.config.specFetch.allowPrivateAddresses, timeoutMs: deps.config.specFetch.timeoutMs, field: 'tokenEndpoint', maxBytes: 64 * 1024,
    method: 'POST', contentType: 'application/x-www-form-urlencoded', accept: 'application/json',
    body: form({ grant_type: 'client_credentials', ...(client.scope ? { scope: client.scope } : {}) }),
    headers: [{ headerName: 'authorization', headerValue: `Basic ${basic}` }],
  })
  type TokenAnswer = { access_token?: unknown; token_type?: unknown }
  const answer = ((): TokenAnswer | null => {
    try {
      const parsed: unknown = JSON.parse(text)
      return parsed && typeof parsed === 'object' ? (parsed as TokenAnswer) : null
    } catch {
      return null
    }
  })()
  const type = typeof answer?.token_type === 'string' ? answer.token_type : 'bearer'
  if (!answer || typeof answer.access_token !== 'string' || !answer.access_token || type.toLowerCase() !== 'bearer') {
    throw malformed('tokenEndpoint: the token endpoint did not answer with a bearer access_token', { field: 'tokenEndpoint' })
  }
  return answer.access_token
}

/**
 * The client certificate of an mTLS probe: the keystore's entry of the first environment (by name) holding a file,
 * its default alias or else its first private-key entry. The server is verified against the system's CAs unless
 * disableSslValidation (the trust store is the gateway's: it is pushed to the environments by the keys module).
 */
export async function mtlsClientMaterial(deps: Deps, projectId: string, settings: BackendMtlsSettings, field: string): Promise<ProbeTls> {
  const name = settings.keyStoreName
  const row = name ? await findObject(deps.prisma, projectId, 'KEY_STORE', name) : null
  if (!row || !name) throw new DomainError('validation', 'keystoreNotFound', `${field}.keyStoreName: Keystore (name: ${name}) is not found!`, { field: `${field}.keyStoreName`, keyStoreName: name })
  const [env, entry] = Object.entries(environmentsOf(row)).sort(([a], [b]) => a.localeCompare(b)).find(([, e]) => typeof e.file === 'string') ?? []
  const entries = Array.isArray(entry?.entries) ? (entry.entries as { alias: string; privateKeyPresent?: boolean }[]) : []
  const alias = typeof entry?.alias === 'string' && entry.alias ? entry.alias : entries.find((e) => e.privateKeyPresent)?.alias
  if (!env || !alias) throw malformed(`${field}.keyStoreName: Keystore (name: ${name}) holds no private-key entry to present`, { field: `${field}.keyStoreName` })
  const material = keystoreEntryMaterial(deps, row, env, alias)
  if (!material.privateKey) throw malformed(`${field}.keyStoreName: entry '${alias}' of keystore ${name} has no private key`, { field: `${field}.keyStoreName` })
  return {
    key: material.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: material.chain.map((c) => c.toString()).join('\n'),
    rejectUnauthorized: !settings.disableSslValidation,
  }
}
