import { z } from 'zod'
import { malformed } from '../../../../platform/errors/domain-error.js'
import { enumOf, objectName } from '../../../../platform/validation/common.js'
import { CREDENTIALS_IN_URL, hasNoCredentials } from '../../shared/clear-secrets.js'
import { ENDPOINT_METHODS } from '../../endpoints/inputs.js'

// The metadata of the automation surface's API proxy writes (vendor pages 04-api-proxies/crud): one schema for the
// URL and file forms, create and update. Unknown fields are dropped (vendor clients send more than we keep);
// every field we keep is typed and bounded.

/** The vendor's EnumApiProxySpecType; EMPTY_API: no specification, endpoints added one by one. */
export const CREATION_TYPES = ['OPEN_API', 'SWAGGER', 'WSDL', 'REVERSE_PROXY', 'EMPTY_API'] as const
/** The types built without a specification document. */
export const SPECLESS_TYPES: readonly CreationType[] = ['REVERSE_PROXY', 'EMPTY_API']
export const BODY_READ_BEHAVIORS = ['ALWAYS_READ', 'READ_IF_POLICY_EXISTS', 'NEVER_READ'] as const
export type CreationType = (typeof CREATION_TYPES)[number]
/** Every routing algorithm the vendor pages name. */
export const ROUTING_ALGORITHMS = ['ROUND_ROBIN', 'WEIGHTED', 'WEIGHTED_ROUND_ROBIN', 'LEAST_CONNECTIONS', 'LRU', 'RANDOM', 'PICK_FIRST', 'IP_HASH', 'URL_HASH'] as const

/**
 * A name taken from the path, checked before it reaches a query: a NUL or control character would otherwise be
 * refused by the database itself (an unexpected error) instead of by us (a 400 naming the parameter).
 */
export function pathName(raw: string | undefined, parameter: string): string {
  const parsed = objectName.safeParse(raw ?? '')
  if (!parsed.success) throw malformed(`${parameter}: ${parsed.error.issues[0]?.message ?? 'is invalid'}`, { field: parameter })
  return parsed.data
}

const noNul = (s: string) => !s.includes('\u0000')

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
const int = (min: number, max: number) => z.number().int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`)
const list = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max, `at most ${max} entries`)

/** A client route path: '/' then at least one character, no spaces, query or fragment. */
export const relativePath = z
  .string()
  .trim()
  .min(2, 'must be at least 2 characters long')
  .max(500, 'must be at most 500 characters')
  .regex(/^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/{}]+$/, "must start with '/' and use path characters only (no spaces, ? or #)")
  .transform((p) => (p.length > 2 ? p.replace(/\/+$/, '') : p))

const hostName = z.string().trim().min(1, 'must not be blank').max(253, 'must be at most 253 characters').regex(/^[A-Za-z0-9*.-]+(:[0-9]{1,5})?$/, 'must be a host name')
const headerName = z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters').regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'must be an HTTP header name')
const headerValue = z.string().max(4000, 'must be at most 4000 characters').regex(/^[^\r\n\u0000]*$/, 'must not contain line breaks or NUL characters')

export const clientRouteInput = z.object({
  relativePathList: list(relativePath, 20).min(1, 'needs at least one relative path'),
  /** both spellings appear on the vendor pages */
  hostList: list(hostName, 50).nullish(),
  virtualHostList: list(hostName, 50).nullish(),
  methodList: list(enumOf(ENDPOINT_METHODS), 9).nullish(),
  headerList: list(z.object({ name: headerName, value: headerValue }), 20).nullish(),
  bufferRequest: z.boolean().nullish(),
  bufferResponse: z.boolean().nullish(),
})
export type ClientRouteInput = z.output<typeof clientRouteInput>

const backendAddress = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(2000, 'must be at most 2000 characters')
  .refine(noNul, 'must not contain NUL characters')
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an absolute http(s) URL')
  .refine(hasNoCredentials, CREDENTIALS_IN_URL)

export const routingInfoInput = z.object({
  routingAddressList: list(
    z.object({
      address: backendAddress,
      weight: int(0, 1000).nullish(),
      healthCheckEnabled: z.boolean().nullish(),
      /** the newest pages' name of healthCheckEnabled */
      healthMonitoringEnabled: z.boolean().nullish(),
      soapType: enumOf(['SOAP11', 'SOAP12'] as const).nullish(),
    }),
    50,
  ).nullish(),
  loadBalanceAlgorithm: enumOf(ROUTING_ALGORITHMS).nullish(),
  connectTimeout: int(0, 3600).nullish(),
  readTimeout: int(0, 3600).nullish(),
  retryCount: int(0, 100).nullish(),
  failoverRetryCount: int(0, 100).nullish(),
  ignoreRoutingError: z.boolean().nullish(),
  routingEnabled: z.boolean().nullish(),
  mirrorEnabled: z.boolean().nullish(),
})
export type RoutingInfoInput = z.output<typeof routingInfoInput>

export const maintenanceInput = z.object({
  enabled: z.boolean().nullish(),
  httpStatusCode: int(100, 599).nullish(),
  contentType: text(200).nullish(),
  message: text(10_000).nullish(),
})

const environmentNames = list(objectName, 100)

/**
 * One credential for fetching specUrl, in either spelling: the older pages' { headerName, headerValue } (a
 * header), or the newest pages' { keyName, value, type } with type header or query (a query parameter).
 */
const specAuthorizationValue = z.union(
  [
    z.object({ headerName, headerValue }),
    z.object({
      keyName: z.string().trim().min(1, 'must not be blank').max(200, 'must be at most 200 characters'),
      value: headerValue,
      type: enumOf(['header', 'query'] as const),
    }),
  ],
  { error: 'must be { headerName, headerValue } or { keyName, value, type: header | query }' },
)
export type SpecAuthorizationValue = z.output<typeof specAuthorizationValue>

/** The headers and query parameters the spec fetch sends; a header's name must be a header name. */
export function specCredentialsOf(list: SpecAuthorizationValue[] | null | undefined): { headers: { headerName: string; headerValue: string }[]; query: [string, string][] } {
  const headers: { headerName: string; headerValue: string }[] = []
  const query: [string, string][] = []
  for (const [i, entry] of (list ?? []).entries()) {
    if ('headerName' in entry) headers.push(entry)
    else if (entry.type === 'query') query.push([entry.keyName, entry.value])
    else {
      const checked = headerName.safeParse(entry.keyName)
      if (!checked.success) throw malformed(`specAuthorizationValueList[${i}].keyName: must be an HTTP header name`, { field: `specAuthorizationValueList[${i}].keyName` })
      headers.push({ headerName: checked.data, headerValue: entry.value })
    }
  }
  return { headers, query }
}

/** The metadata of create/update from a URL (JSON body) or from a file (the `metadata` part). */
export const proxyMetadataInput = z.object({
  apiProxyName: objectName,
  apiProxyDescription: text(2000).nullish(),
  apiProxyCreationType: enumOf(CREATION_TYPES),
  specUrl: z.string().trim().max(2000, 'must be at most 2000 characters').refine(noNul, 'must not contain NUL characters').nullish(),
  clientRoute: clientRouteInput.nullish(),
  routingInfo: routingInfoInput.nullish(),
  deploy: z.boolean().nullish(),
  deployTargetEnvironmentNameList: environmentNames.nullish(),
  reParse: z.boolean().nullish(),
  soapToRest: z.boolean().nullish(),
  enableWSA: z.boolean().nullish(),
  enableWSRM: z.boolean().nullish(),
  backendApiVersion: text(100).nullish(),
  requestBodyReadBehavior: enumOf(BODY_READ_BEHAVIORS).nullish(),
  responseBodyReadBehavior: enumOf(BODY_READ_BEHAVIORS).nullish(),
  maintenanceModeSetting: maintenanceInput.nullish(),
  /** credentials sent when fetching specUrl (headers or query parameters); used once, never stored */
  specAuthorizationValueList: list(specAuthorizationValue, 20).nullish(),
})
export type ProxyMetadata = z.output<typeof proxyMetadataInput>

/** The `metadata` part of an import with override. */
export const importMetadataInput = z.object({
  deploy: z.boolean().nullish(),
  deployTargetEnvironmentNameList: environmentNames.nullish(),
  routing: z
    .object({
      algorithm: enumOf(ROUTING_ALGORITHMS).nullish(),
      addressList: list(z.object({ address: backendAddress, weight: int(0, 1000).nullish(), soapType: enumOf(['SOAP11', 'SOAP12'] as const).nullish() }), 50).nullish(),
    })
    .nullish(),
  maintenanceMode: z.boolean().nullish(),
})
export type ImportMetadata = z.output<typeof importMetadataInput>

/** What the proxy keeps of the metadata (the `settings` column): no secret, nothing request-scoped. */
export interface ProxySettings {
  specUrl: string | null
  clientRoute: { relativePathList: string[]; hostList: string[]; methodList: string[]; headerList: { name: string; value: string }[]; bufferRequest: boolean; bufferResponse: boolean }
  routing: {
    routingAddressList: { address: string; weight: number; healthCheckEnabled: boolean; soapType: string | null }[]
    loadBalanceAlgorithm: string
    connectTimeout: number
    readTimeout: number
    retryCount: number
    failoverRetryCount: number
    ignoreRoutingError: boolean
    routingEnabled: boolean
    mirrorEnabled: boolean
  }
  backendApiVersion: string | null
  maintenanceMode: { enabled: boolean; httpStatusCode: number; contentType: string; message: string | null }
  categoryList: string[]
  /** the newest pages' body read behaviours (ALWAYS_READ when never sent) */
  requestBodyReadBehavior?: string
  responseBodyReadBehavior?: string
  /** a WSDL proxy's SOAP options (null or absent for the other types) */
  soap?: { soapToRest: boolean; enableWSA: boolean; enableWSRM: boolean } | null
}

export function clientRouteOf(input: ClientRouteInput) {
  return {
    relativePathList: [...new Set(input.relativePathList)],
    hostList: [...new Set([...(input.hostList ?? []), ...(input.virtualHostList ?? [])])],
    methodList: [...new Set(input.methodList ?? [])],
    headerList: input.headerList ?? [],
    bufferRequest: input.bufferRequest ?? true,
    bufferResponse: input.bufferResponse ?? true,
  }
}

export function routingOf(input: RoutingInfoInput | null | undefined, current?: ProxySettings['routing']): ProxySettings['routing'] {
  return {
    // sections the settings pages add (healthCheck) stay
    ...(current ?? {}),
    // an address keeps the fields the settings page adds (description, addressType, healthCheckPath, …)
    // the create body's healthMonitoringEnabled (the newest from-URL page) is its healthCheckEnabled, and stays under
    // its own name too (as the routing-addresses settings page stores it) so the read returns what the page wrote; a
    // stored address keeps what the settings page stored beside it
    routingAddressList: input?.routingAddressList
      ? input.routingAddressList.map(({ healthMonitoringEnabled, ...a }) => ({
        ...a,
        address: a.address, weight: a.weight ?? 1, healthCheckEnabled: a.healthCheckEnabled ?? healthMonitoringEnabled ?? false,
        soapType: a.soapType ?? null,
        ...(typeof healthMonitoringEnabled === 'boolean' ? { healthMonitoringEnabled } : {}),
      }) as ProxySettings['routing']['routingAddressList'][number])
      : (current?.routingAddressList ?? []).map((a) => ({ ...a, address: a.address, weight: a.weight ?? 1, healthCheckEnabled: a.healthCheckEnabled ?? false, soapType: a.soapType ?? null })),
    loadBalanceAlgorithm: input?.loadBalanceAlgorithm ?? current?.loadBalanceAlgorithm ?? 'ROUND_ROBIN',
    connectTimeout: input?.connectTimeout ?? current?.connectTimeout ?? 30,
    readTimeout: input?.readTimeout ?? current?.readTimeout ?? 60,
    retryCount: input?.retryCount ?? current?.retryCount ?? 0,
    failoverRetryCount: input?.failoverRetryCount ?? current?.failoverRetryCount ?? 0,
    ignoreRoutingError: input?.ignoreRoutingError ?? current?.ignoreRoutingError ?? false,
    routingEnabled: input?.routingEnabled ?? current?.routingEnabled ?? true,
    mirrorEnabled: input?.mirrorEnabled ?? current?.mirrorEnabled ?? false,
  }
}

export function maintenanceOf(input: z.output<typeof maintenanceInput> | null | undefined, current?: ProxySettings['maintenanceMode']): ProxySettings['maintenanceMode'] {
  return {
    enabled: input?.enabled ?? current?.enabled ?? false,
    httpStatusCode: input?.httpStatusCode ?? current?.httpStatusCode ?? 503,
    contentType: input?.contentType ?? current?.contentType ?? 'application/json',
    message: input?.message ?? current?.message ?? null,
  }
}
