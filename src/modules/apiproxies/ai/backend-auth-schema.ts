import { z } from 'zod'
import { enumOf, httpUrl } from '../../../platform/validation/common.js'
import { CREDENTIALS_IN_URL, hasNoCredentials } from '../shared/clear-secrets.js'
import { mtlsInput } from '../settings/inputs.js'

// How an MCP or A2A backend server is called (its auth scheme and the newest pages' flat spelling of it), shared
// by both routings' schemas in ai-routing.ts. Secrets (token, password, clientSecret) are sealed by the routing store.

export const BACKEND_AUTH_SCHEMES = ['NONE', 'BEARER', 'API_KEY_HEADER', 'BASIC', 'OAUTH2_CLIENT_CREDENTIALS', 'MTLS'] as const

/**
 * A backend server's client certificate (the newest pages' mTLSSettings, fields of RoutingMTLSSettingsDTO as the
 * proxy mTLS settings page has them): a keystore of the project by name (keyStoreName, or the page's keyStoreId), an
 * optional trust store (a keystore or certificate), protocols and hostname verification. Stored with the *Name
 * spellings only; the keystore's file and passwords stay sealed in the keys module, which pushes them to the gateway.
 */
export const backendMtlsSettings = mtlsInput.transform(({ keyStoreId, keyStoreName, trustStoreId, trustStoreName, ...rest }) => ({
  keyStoreName: keyStoreName ?? keyStoreId ?? null,
  trustStoreName: trustStoreName ?? trustStoreId ?? null,
  supportedProtocolList: rest.supportedProtocolList ?? [],
  hostnameVerifierType: rest.hostnameVerifierType ?? null,
  disableSslValidation: rest.disableSslValidation ?? false,
}))
export type BackendMtlsSettings = z.output<typeof backendMtlsSettings>

/** OAuth2 client credentials (the newest pages' names): the token URL, the client, its secret and the scopes asked. */
const oauthFields = {
  tokenEndpoint: httpUrl.refine(hasNoCredentials, CREDENTIALS_IN_URL).nullish(),
  clientId: z.string().trim().min(1, 'must not be blank').max(500, 'must be at most 500 characters').nullish(),
  /** secret: sealed, never returned (clientSecretSet); blank keeps the stored one */
  clientSecret: z.string().max(4000, 'must be at most 4000 characters').nullish(),
  /** space-separated scopes asked for the token */
  scope: z.string().trim().max(2000, 'must be at most 2000 characters').nullish(),
  mTLSSettings: backendMtlsSettings.nullish(),
}

type AuthFields = { tokenEndpoint?: string | null; clientId?: string | null; clientSecret?: string | null; scope?: string | null; mTLSSettings?: BackendMtlsSettings | null }

/** The fields a scheme needs, and none of another scheme's (paths relative to where the fields were sent). */
function checkSchemeFields(scheme: string, a: AuthFields, ctx: z.RefinementCtx, at: (f: string) => (string | number)[], schemeField: string) {
  const need = (f: keyof AuthFields, ok: unknown) => { if (!ok) ctx.addIssue({ code: 'custom', path: at(f), message: `is required for ${schemeField} ${scheme}` }) }
  const only = (f: keyof AuthFields, owner: string) => {
    if (a[f] != null && a[f] !== '' && scheme !== owner) ctx.addIssue({ code: 'custom', path: at(f), message: `is only used with ${schemeField} ${owner}` })
  }
  if (scheme === 'OAUTH2_CLIENT_CREDENTIALS') {
    need('tokenEndpoint', a.tokenEndpoint)
    need('clientId', a.clientId)
  }
  if (scheme === 'MTLS') {
    need('mTLSSettings', a.mTLSSettings)
    if (a.mTLSSettings && !a.mTLSSettings.keyStoreName) ctx.addIssue({ code: 'custom', path: [...at('mTLSSettings'), 'keyStoreName'], message: `is required for ${schemeField} MTLS (or keyStoreId)` })
  }
  for (const f of ['tokenEndpoint', 'clientId', 'clientSecret', 'scope'] as const) only(f, 'OAUTH2_CLIENT_CREDENTIALS')
  only('mTLSSettings', 'MTLS')
}

/**
 * Credentials a backend server is called with; `token`, `password` and `clientSecret` are secrets (sealed, never
 * returned). OAUTH2_CLIENT_CREDENTIALS and MTLS take the newest pages' field names.
 */
export const backendAuth = z
  .strictObject({
    scheme: enumOf(BACKEND_AUTH_SCHEMES).default('NONE'),
    headerName: z.string().trim().min(1, 'must not be blank').nullish(),
    token: z.string().nullish(),
    username: z.string().trim().min(1, 'must not be blank').nullish(),
    password: z.string().nullish(),
    ...oauthFields,
  })
  .superRefine((a, ctx) => {
    if (a.scheme === 'API_KEY_HEADER' && !a.headerName) ctx.addIssue({ code: 'custom', path: ['headerName'], message: 'is required for scheme API_KEY_HEADER' })
    if (a.scheme === 'BASIC' && !a.username) ctx.addIssue({ code: 'custom', path: ['username'], message: 'is required for scheme BASIC' })
    checkSchemeFields(a.scheme, a, ctx, (f) => [f], 'scheme')
  })

export const PAGE_AUTH_SCHEMES = ['NONE', 'BEARER', 'OAUTH2_CLIENT_CREDENTIALS', 'MTLS'] as const
export const DRIFT_POLICIES = ['WARN_ONLY', 'FAIL_CLOSED'] as const

/**
 * The newest pages' spelling of a backend server (update-mcp-routing.mdx, update-a2a-routing.mdx): `endpoint` for
 * `url`, flat `authScheme` with its fields (`bearerToken`; `tokenEndpoint`, `clientId`, `clientSecret`, `scope`;
 * `mTLSSettings`) for `auth`, plus `driftPolicy` and `allowPrivateNetworkEgress`. `id` is server-managed there and
 * ignored here (servers are matched by name). `credentialRef` (a stored credential instead of inline fields) is
 * refused: our credentials are the API consumers', not outbound secrets.
 */
export const pageServerFields = {
  endpoint: httpUrl.refine(hasNoCredentials, CREDENTIALS_IN_URL).optional(),
  authScheme: enumOf(PAGE_AUTH_SCHEMES).optional(),
  bearerToken: z.string().nullish(),
  ...oauthFields,
  credentialRef: z.string().nullish(),
  driftPolicy: enumOf(DRIFT_POLICIES).nullish(),
  allowPrivateNetworkEgress: z.boolean().nullish(),
  id: z.string().nullish(),
}

type ServerIn = AuthFields & { url?: string; endpoint?: string; auth?: z.output<typeof backendAuth>; authScheme?: string; bearerToken?: string | null; credentialRef?: string | null }
const FLAT_AUTH_FIELDS = ['authScheme', 'bearerToken', 'tokenEndpoint', 'clientId', 'clientSecret', 'scope', 'mTLSSettings'] as const

export function checkServerSpelling(s: ServerIn, ctx: z.RefinementCtx) {
  if (!s.url && !s.endpoint) ctx.addIssue({ code: 'custom', path: ['url'], message: 'is required (or endpoint)' })
  if (s.url && s.endpoint && s.url !== s.endpoint) ctx.addIssue({ code: 'custom', path: ['endpoint'], message: 'differs from url: send one of them' })
  const flat = FLAT_AUTH_FIELDS.find((f) => s[f] != null && s[f] !== '')
  if (s.auth && flat) ctx.addIssue({ code: 'custom', path: [flat === 'bearerToken' ? 'authScheme' : flat], message: 'cannot be sent with auth: send one of them' })
  if (s.credentialRef) ctx.addIssue({ code: 'custom', path: ['credentialRef'], message: 'is not supported: send the client credentials inline (tokenEndpoint, clientId, clientSecret), sealed at rest' })
  if (!s.auth) checkSchemeFields(s.authScheme ?? 'NONE', s, ctx, (f) => [f], 'authScheme')
}

/** Auth objects built from the page's flat fields: their errors after parsing name the flat fields. */
const FLAT_SPELLED = new WeakSet<object>()
export const sentFlat = (auth: object) => FLAT_SPELLED.has(auth)

/** Both spellings onto one stored form: url, auth, and driftPolicy, allowPrivateNetworkEgress when sent. */
export function canonicalServer<T extends ServerIn & { driftPolicy?: string | null; allowPrivateNetworkEgress?: boolean | null; id?: string | null }>(s: T) {
  const { endpoint, authScheme, bearerToken, tokenEndpoint, clientId, clientSecret, scope, mTLSSettings, credentialRef: _ref, id: _id, url, auth, driftPolicy, allowPrivateNetworkEgress, ...rest } = s
  const flat = auth ? null : {
    scheme: (authScheme ?? 'NONE') as (typeof BACKEND_AUTH_SCHEMES)[number], token: bearerToken ?? null,
    ...(authScheme === 'OAUTH2_CLIENT_CREDENTIALS' ? { tokenEndpoint, clientId, clientSecret, scope } : {}),
    ...(authScheme === 'MTLS' ? { mTLSSettings } : {}),
  }
  if (flat) FLAT_SPELLED.add(flat)
  return {
    ...rest,
    url: (url ?? endpoint)!,
    auth: (auth ?? flat)! as z.output<typeof backendAuth>,
    // stored when sent (the older shape's reads stay as they were)
    ...(driftPolicy != null ? { driftPolicy: driftPolicy as (typeof DRIFT_POLICIES)[number] } : {}),
    ...(allowPrivateNetworkEgress != null ? { allowPrivateNetworkEgress } : {}),
  }
}

