import { z } from 'zod'
import type { ApiProxy, Prisma } from '../../../generated/prisma/client.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError, malformed } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import { objectName } from '../../../platform/validation/common.js'
import type { PortableObject } from '../../../platform/transfer/registry.js'
import { endpointCreateInput } from '../endpoints/inputs.js'
import { normalize, rowData, storedFields } from '../endpoints/rules.js'
import { endpointSettingsData } from '../endpoints/vendor.js'
import { PIPELINES, portablePolicyDocument, type PolicyDocument } from '../policies/inputs.js'
import { sealPolicySecrets } from '../policies/policy-secrets.js'
import { cacheInput, wsaInput } from '../settings/inputs.js'
import { relativePath as relativePathSchema, type ImportMetadata, type ProxySettings } from './automation/inputs.js'
import { proxyDependencies } from './dependencies.js'
import { placePackageSecrets, sealSettingsSecrets, splitPolicySecrets, splitSettingsSecrets, type UnrestoredSecrets } from './secrets.js'
import { insertEndpointRows } from '../endpoints/bulk.js'

// An API proxy in its portable form (the transfer module's PortableObject of type API_PROXY): what the proxy export
// route packages and the API_PROXY transfer adapter hands over, and how either import writes it back. `data` holds
// the proxy, its endpoints (by version, method and path) and policies; its secrets travel apart (secrets.ts).

export const API_PROXY_TYPE = 'API_PROXY'

/** The proxies in their portable form, secrets in clear (the package decides how they travel), in two queries. */
export async function portableProxies(db: Tx, keyring: SecretKeyring, proxies: ApiProxy[]): Promise<PortableObject[]> {
  const ids = proxies.map((p) => p.id)
  const [endpoints, policies] = await Promise.all([
    db.gatewayEndpoint.findMany({ where: { apiProxyId: { in: ids } }, orderBy: [{ version: 'asc' }, { path: 'asc' }, { method: 'asc' }] }),
    db.apiProxyPolicy.findMany({ where: { apiProxyId: { in: ids } }, orderBy: [{ pipeline: 'asc' }, { position: 'asc' }, { name: 'asc' }] }),
  ])
  return proxies.map((proxy) => {
    const own = endpoints.filter((e) => e.apiProxyId === proxy.id)
    const endpointKey = new Map(own.map((e) => [e.id, { version: e.version, method: e.method, path: e.path }]))
    const { settings, secrets } = splitSettingsSecrets(keyring, proxy.settings)
    const data = {
      kind: proxy.kind,
      description: proxy.description,
      creationType: proxy.creationType,
      relativePath: proxy.relativePath,
      // the document the proxy was built from (GET …/spec/), when kept
      ...(proxy.specDocument != null ? { specDocument: proxy.specDocument } : {}),
      settings,
      endpoints: own.map((e) => ({ version: e.version, ...storedFields(e), cache: e.cache, wsa: e.wsa })),
      policies: policies.filter((p) => p.apiProxyId === proxy.id).map((p) => {
        const split = splitPolicySecrets(keyring, p.name, p.config)
        Object.assign(secrets, split.secrets)
        return { name: p.name, pipeline: p.pipeline, order: p.position, endpoint: p.endpointId ? endpointKey.get(p.endpointId) ?? null : null, policy: { ...(split.config as object), type: p.type, active: p.active } }
      }),
    }
    return { type: API_PROXY_TYPE, kind: null, name: proxy.name, data, secrets, dependencies: proxyDependencies(data) }
  })
}

const endpointRef = z.object({ version: z.string().max(32), method: z.string().max(10), path: z.string().max(1000) })
const portableProxy = z.object({
  kind: z.literal('REST', { error: 'only REST proxies are imported here' }),
  description: z.string().max(2000).nullish(),
  creationType: z.enum(['OPEN_API', 'SWAGGER', 'REVERSE_PROXY', 'EMPTY_API', 'WSDL']).nullish(),
  relativePath: relativePathSchema.nullish(),
  specDocument: z.string().max(5 * 1024 * 1024).nullish(),
  settings: z.record(z.string(), z.unknown()).nullish(),
  endpoints: z.array(z.record(z.string(), z.unknown())).max(2000),
  policies: z.array(z.object({ name: objectName, pipeline: z.enum(PIPELINES), order: z.number().int().min(1).max(100_000), endpoint: endpointRef.nullish(), policy: portablePolicyDocument })).max(2000),
})
type PortableProxy = z.output<typeof portableProxy>

/** A packaged proxy checked like any proxy write, its restored secrets in place (still clear) and the others named. */
export interface ProxyPackage {
  name: string
  data: PortableProxy
  unrestored: UnrestoredSecrets
  /** how messages name the package: the upload field, or the object's label in a transfer */
  label: string
}

/**
 * Validates a packaged proxy's `data` (a copy the caller owns, secret values already hoisted out of it): the
 * restored secrets (clear, by package key) are put in place first, the unrestored ones marked.
 */
export function preparePackage(label: string, name: string, data: Record<string, unknown>, restored: Record<string, string>, unrestored: string[]): ProxyPackage {
  // text columns and JSONB refuse NUL characters: refused here, named, instead of by the database
  if (JSON.stringify(data).includes('\\u0000')) throw malformed(`${label}: the proxy data contains NUL characters`, { field: label })
  const marks = placePackageSecrets(data, restored, unrestored)
  const parsed = portableProxy.safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw malformed(`${label}: ${issue.path.join('.') || 'data'}: ${issue.message}`, { field: label })
  }
  return { name, data: parsed.data, unrestored: marks, label }
}

/** The package's endpoints as rows for `proxy`, validated by the endpoint rules (a package is untrusted input). */
export function endpointRows(pkg: ProxyPackage, proxy: Pick<ApiProxy, 'kind' | 'name'>) {
  return pkg.data.endpoints.map((raw, i) => {
    try {
      const { cache, wsa, ...rest } = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null))
      const { version, ...fields } = parseInput(endpointCreateInput, rest)
      // the endpoint's cache and WS-Addressing settings pass the same rules as on their pages
      const settings = endpointSettingsData({ cache: cache == null ? null : parseInput(cacheInput, cache), wsa: wsa == null ? null : parseInput(wsaInput, wsa) }, fields.kind ?? proxy.kind)
      return { version, ...rowData(normalize(fields, proxy as ApiProxy)), ...settings }
    } catch (err) {
      if (err instanceof DomainError) throw malformed(`${pkg.label}: endpoints[${i}].${err.message}`, { field: pkg.label })
      throw err
    }
  })
}
export type EndpointRows = ReturnType<typeof endpointRows>

export const json = (v: unknown) => (v === null || v === undefined ? undefined : (v as Prisma.InputJsonValue))

/**
 * Writes endpoints and policies of the package under a proxy that has none (new, or just emptied); policy secrets
 * sealed, those the package names but does not restore taken from `stored` (the target's policies before a replace).
 */
async function writeContent(tx: Tx, keyring: SecretKeyring, proxyId: string, rows: EndpointRows, pkg: ProxyPackage, stored: Map<string, unknown> = new Map()) {
  const policies = policyRows(keyring, pkg, rows, stored)
  if (rows.length) await insertEndpointRows(tx, rows.map((r) => ({ apiProxyId: proxyId, ...r })))
  const ids = new Map((await tx.gatewayEndpoint.findMany({ where: { apiProxyId: proxyId }, select: { id: true, version: true, method: true, path: true } })).map((e) => [endpointKeyOf(e), e.id]))
  if (policies.length) await tx.apiProxyPolicy.createMany({ data: policies.map(({ endpointKey, ...p }) => ({ ...p, apiProxyId: proxyId, endpointId: endpointKey === null ? null : ids.get(endpointKey)! })) })
}

export const endpointKeyOf = (e: { version: string; method: string; path: string }) => `${e.version} ${e.method} ${e.path}`

/**
 * The package's policies as rows, checked against the package's endpoint rows before anything is written (an
 * endpoint the package lacks, a name twice), secrets sealed; each names its endpoint by key (version, method, path).
 */
export function policyRows(keyring: SecretKeyring, pkg: ProxyPackage, rows: EndpointRows, stored: Map<string, unknown> = new Map()) {
  const endpoints = new Set(rows.map((r) => endpointKeyOf(r as { version: string; method: string; path: string })))
  const seen = new Set<string>()
  const positions = new Map<string, number>()
  return [...pkg.data.policies].sort((a, b) => a.order - b.order).map((p, i) => {
    const endpointKey = p.endpoint ? endpointKeyOf(p.endpoint) : null
    if (endpointKey !== null && !endpoints.has(endpointKey)) throw malformed(`${pkg.label}: policies[${i}].endpoint: ${p.endpoint!.method} ${p.endpoint!.path} is not an endpoint of the package`, { field: pkg.label })
    const nameKey = p.name.toLowerCase()
    if (seen.has(nameKey)) throw malformed(`${pkg.label}: policies[${i}].name: '${p.name}' appears twice`, { field: pkg.label })
    seen.add(nameKey)
    // orders are made dense per pipeline, whatever the package says
    const key = `${endpointKey ?? ''} ${p.pipeline}`
    const position = (positions.get(key) ?? 0) + 1
    positions.set(key, position)
    const { name: _n, ...config } = sealPolicySecrets(keyring, p.policy as PolicyDocument, pkg.unrestored.policies.get(nameKey) ?? [], stored.get(nameKey) ?? null)
    return { endpointKey, pipeline: p.pipeline, position, name: p.name, nameKey, type: p.policy.type, description: p.policy.description ?? null, active: p.policy.active, config: config as Prisma.InputJsonValue }
  })
}

/**
 * A new proxy from the package. `numbered`: a taken name or relative path gets a numbered suffix (the proxy import
 * page); otherwise the package's name and path are used as they are (the transfer import checked the name).
 */
export async function createFromPackage(tx: Tx, keyring: SecretKeyring, projectId: string, pkg: ProxyPackage, options: { numbered: boolean }): Promise<ApiProxy> {
  const { name: ref, data } = pkg
  const rows = endpointRows(pkg, { kind: 'REST', name: ref })
  const free = async (n: number) => {
    const name = n ? `${ref}-${n}` : ref
    const path = data.relativePath ? (n ? `${data.relativePath}-${n}` : data.relativePath) : null
    const taken = await tx.apiProxy.findFirst({ where: { projectId, OR: [{ name: { equals: name, mode: 'insensitive' } }, ...(path ? [{ relativePath: path }] : [])] }, select: { name: true, relativePath: true } })
    return { slot: taken ? null : { name, path }, taken }
  }
  let slot: { name: string; path: string | null } | null = null
  for (let n = 0; n <= (options.numbered ? 100 : 0) && !slot; n++) {
    const found = await free(n)
    slot = found.slot
    if (!slot && !options.numbered && found.taken) {
      if (found.taken.name.toLowerCase() === ref.toLowerCase()) throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${found.taken.name}' already exists`, { apiProxy: found.taken.name })
      throw new DomainError('conflict', 'relativePathAlreadyUsed', `${pkg.label}: relative path '${data.relativePath}' is already that of API proxy '${found.taken.name}'`, { field: pkg.label, apiProxy: found.taken.name })
    }
  }
  if (!slot) throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${ref}' and 100 numbered variants already exist`, { apiProxy: ref })
  const settings = sealSettingsSecrets(keyring, withPath(data.settings, slot.path), pkg.unrestored.settings, null)
  const proxy = await tx.apiProxy.create({
    data: { projectId, name: slot.name, kind: 'REST', description: data.description ?? null, creationType: data.creationType ?? null, relativePath: slot.path, specDocument: data.specDocument ?? null, settings: json(settings), revision: 1 },
  })
  await writeContent(tx, keyring, proxy.id, rows, pkg)
  return proxy
}

/** The package's proxy under `name`, replacing that proxy's configuration, endpoints and policies when it exists. */
export async function replaceFromPackage(tx: Tx, keyring: SecretKeyring, projectId: string, name: string, pkg: ProxyPackage, meta: ImportMetadata = {}): Promise<ApiProxy> {
  const { data } = pkg
  const rows = endpointRows(pkg, { kind: 'REST', name })
  const current = await tx.apiProxy.findUnique({ where: { projectId_name: { projectId, name } } })
  if (current && current.kind !== 'REST') throw malformed(`API proxy '${current.name}' is an ${current.kind} proxy; only REST proxies are overridden by an import`, { apiProxy: current.name })
  if (data.relativePath) {
    const clash = await tx.apiProxy.findFirst({ where: { projectId, relativePath: data.relativePath, ...(current ? { id: { not: current.id } } : {}) }, select: { name: true } })
    if (clash) throw new DomainError('conflict', 'relativePathAlreadyUsed', `${pkg.label}: relative path '${data.relativePath}' is already that of API proxy '${clash.name}'`, { field: pkg.label, apiProxy: clash.name })
  }
  const settings = sealSettingsSecrets(keyring, overriddenSettings(data.settings as ProxySettings | null | undefined, meta), pkg.unrestored.settings, current?.settings ?? null)
  const fields = { description: data.description ?? null, creationType: data.creationType ?? null, relativePath: data.relativePath ?? null, specDocument: data.specDocument ?? null, settings: json(settings) }
  let proxy: ApiProxy
  const stored = new Map<string, unknown>()
  if (current) {
    for (const p of await tx.apiProxyPolicy.findMany({ where: { apiProxyId: current.id }, select: { nameKey: true, config: true } })) stored.set(p.nameKey, p.config)
    await tx.gatewayEndpoint.deleteMany({ where: { apiProxyId: current.id } })
    await tx.apiProxyPolicy.deleteMany({ where: { apiProxyId: current.id } })
    proxy = await tx.apiProxy.update({ where: { id: current.id }, data: { ...fields, revision: { increment: 1 } } })
  } else {
    proxy = await tx.apiProxy.create({ data: { projectId, name, kind: 'REST', ...fields, revision: 1 } })
  }
  await writeContent(tx, keyring, proxy.id, rows, pkg, stored)
  return proxy
}

/** The settings with the client route's first path set to the proxy's (it may have got a suffix). */
export function withPath(settings: Record<string, unknown> | null | undefined, path: string | null) {
  if (!settings || !path) return settings ?? null
  const route = (settings.clientRoute ?? {}) as { relativePathList?: unknown }
  const rest = Array.isArray(route.relativePathList) ? route.relativePathList.slice(1) : []
  return { ...settings, clientRoute: { ...route, relativePathList: [path, ...rest] } }
}

function overriddenSettings(settings: ProxySettings | null | undefined, meta: ImportMetadata) {
  if (!settings && !meta.routing && meta.maintenanceMode == null) return null
  const out = { ...(settings ?? {}) } as Partial<ProxySettings>
  if (meta.routing) {
    out.routing = {
      ...(out.routing ?? ({} as ProxySettings['routing'])),
      ...(meta.routing.algorithm ? { loadBalanceAlgorithm: meta.routing.algorithm } : {}),
      ...(meta.routing.addressList ? { routingAddressList: meta.routing.addressList.map((a) => ({ address: a.address, weight: a.weight ?? 1, healthCheckEnabled: false, soapType: a.soapType ?? null })) } : {}),
    }
  }
  if (meta.maintenanceMode != null) out.maintenanceMode = { ...(out.maintenanceMode ?? { httpStatusCode: 503, contentType: 'application/json', message: null }), enabled: meta.maintenanceMode }
  return out
}
