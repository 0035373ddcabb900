import { PATH_FIELDS, providerTypeEntry, REQUEST_TYPES, type DefaultPaths, type RequestType } from './catalog.js'

/** What URL resolution needs from a provider connection (a stored row or a body being saved). */
export interface ResolvableProvider extends Partial<DefaultPaths> {
  providerType: string
  endpoint: string | null
  apiVersion: string | null
}

export interface ResolvedRequest {
  requestType: RequestType
  /** null when neither the provider nor its type has a path for this request type */
  url: string | null
  /** extra headers the request carries (the version header of the one type that sends apiVersion that way) */
  headers: Record<string, string>
}

const blank = (s: string | null | undefined): s is null | undefined | '' => s == null || s.trim() === ''

/** Splits at the first '?' (fragments are not part of an API base address and are dropped). */
function splitQuery(s: string): [string, string] {
  const noFragment = s.split('#')[0]
  const i = noFragment.indexOf('?')
  return i < 0 ? [noFragment, ''] : [noFragment.slice(0, i), noFragment.slice(i + 1)]
}

const hasParam = (query: string, name: string) =>
  query.split('&').some((pair) => decodeURIComponentSafe(pair.split('=')[0]).toLowerCase() === name.toLowerCase())

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s)
  } catch {
    return s
  }
}

/** Variable references (`${name}`) are resolved by the gateway at request time, so they pass through unencoded. */
const queryValue = (v: string) => v.split(/(\$\{[^}]*\})/).map((part) => (part.startsWith('${') ? part : encodeURIComponent(part))).join('')

/**
 * The URL of one request type (spec §2.7), the single place this rule lives:
 * - endpoint is a base address; the request type's path is appended (an empty path falls back to the
 *   provider type's default; a path inside endpoint is kept as is and so yields a broken URL, as documented);
 * - a query string inside endpoint is moved to the end of the resolved address (after the path's own query);
 * - AZURE_OPENAI: apiVersion becomes the api-version query parameter unless one is already present;
 *   ANTHROPIC: apiVersion is sent as the anthropic-version header; GOOGLE_VERTEX_AI and AWS_BEDROCK: no effect;
 * - variable references in endpoint and paths are kept verbatim for request time.
 */
export function resolveProviderUrl(provider: ResolvableProvider, requestType: RequestType): ResolvedRequest {
  const type = providerTypeEntry(provider.providerType)
  const field = PATH_FIELDS[requestType]
  const ownPath = provider[field]
  const path = blank(ownPath) ? type.paths[field] : ownPath.trim()
  const headers: Record<string, string> = {}
  const apiVersion = blank(provider.apiVersion) ? null : provider.apiVersion.trim()
  if (type.version.kind === 'header' && apiVersion) headers[type.version.name] = apiVersion
  if (path == null || blank(path)) return { requestType, url: null, headers }

  const endpoint = blank(provider.endpoint) ? type.endpoint : provider.endpoint.trim()
  const [base, endpointQuery] = splitQuery(endpoint)
  const [pathPart, pathQuery] = splitQuery(path)
  const joined = base.replace(/\/+$/, '') + (pathPart.startsWith('/') || pathPart === '' ? pathPart : `/${pathPart}`)
  const queries = [pathQuery, endpointQuery].filter((q) => q !== '')
  if (type.version.kind === 'query' && apiVersion && !queries.some((q) => hasParam(q, type.version.kind === 'query' ? type.version.name : ''))) {
    queries.push(`${type.version.name}=${queryValue(apiVersion)}`)
  }
  return { requestType, url: queries.length ? `${joined}?${queries.join('&')}` : joined, headers }
}

/** Every request type's resolved URL, in the spec's order (the read-only GraphQL field). */
export const resolveProviderUrls = (provider: ResolvableProvider): ResolvedRequest[] => REQUEST_TYPES.map((t) => resolveProviderUrl(provider, t))
