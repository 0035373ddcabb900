import { z } from 'zod'
import type { ApiProxy, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission, requirePermission, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { objectName } from '../../../platform/validation/common.js'
import { buildManifest, encodeJson, FORMAT_VERSION, readPackageFiles, type ObjectFile } from '../../transfer/package/format.js'
import { attachmentDisposition, MANIFEST_FILE, objectFileName } from '../../transfer/package/names.js'
import { readPackageZip, writePackageZip } from '../../transfer/package/zip.js'
import { endpointCreateInput } from '../endpoints/endpoint-inputs.js'
import { normalize, rowData, storedFields } from '../endpoints/endpoint-rules.js'
import { endpointSettingsData } from '../endpoints/endpoint-vendor.js'
import { cacheInput, wsaInput } from '../settings/settings-inputs.js'
import { policyDocument, PIPELINES, type PolicyDocument } from '../policies/policy-inputs.js'
import { getAt, markAbsentSecrets, parsePathLabel, pathLabel, sealPolicySecrets, setAt, withoutSecretValues, type SecretPath } from '../policies/policy-secrets.js'
import { environmentsNamed, requestedDeployment } from './proxy-deploy.js'
import { importMetadataInput, pathName, relativePath as relativePathSchema, type ImportMetadata, type ProxySettings } from './proxy-inputs.js'

// Export and import of one API proxy (vendor 04-api-proxies/crud export/import pages) in the transfer module's
// package format: one object file `<name>.json` of type API_PROXY plus service-transfer-manifest.json with the
// fingerprints, written and read by the same package code (zip bounds, zip-slip, checksums) as /transfer-*.
// Policy secrets travel as secretHandling NONE: left out of `data`, named in the object file's `secrets`
// (`policies/<policy>/<field path>`); an import creates without them and an override keeps the target's. (The
// settings' secrets still travel sealed inside `settings`, as the settings pages document.)

const TYPE = 'API_PROXY'
export const EXPORT_FILE_NAME = 'apiProxyExportFile.zip'
const ROUTED_KINDS = ['AI', 'MCP', 'A2A']

const proxyNotFound = (name: string) => notFound(`API proxy '${name}' not found`, { apiProxy: name })
const json = (v: unknown) => (v === null || v === undefined ? undefined : (v as Prisma.InputJsonValue))

/** Export and import need EXPORT_IMPORT on API_MANAGEMENT or PROJECT_MANAGEMENT (spec §5, Export). */
async function exportImportAccess(db: Tx, actor: Actor, projectName: string): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(access, ['API_MANAGEMENT', 'PROJECT_MANAGEMENT'], 'EXPORT_IMPORT')
  return access
}

/** GET …/apiProxies/{name}/export/: the package (ZIP bytes) and its file name. */
export async function exportProxy(deps: Deps, actor: Actor, projectName: string, name: string): Promise<{ bytes: Buffer; fileName: string; disposition: string }> {
  const access = await exportImportAccess(deps.prisma, actor, projectName)
  const proxy = await deps.prisma.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name: pathName(name, 'apiProxyName') } } })
  if (!proxy) throw proxyNotFound(name)
  if (ROUTED_KINDS.includes(proxy.kind)) throw malformed(`API proxy '${proxy.name}' is an ${proxy.kind} proxy; this export carries REST proxies (their routing secrets travel through the transfer endpoints' rules)`, { apiProxy: proxy.name, kind: proxy.kind })
  const [endpoints, policies] = await Promise.all([
    deps.prisma.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id }, orderBy: [{ version: 'asc' }, { path: 'asc' }, { method: 'asc' }] }),
    deps.prisma.apiProxyPolicy.findMany({ where: { apiProxyId: proxy.id }, orderBy: [{ pipeline: 'asc' }, { position: 'asc' }] }),
  ])
  const endpointKey = new Map(endpoints.map((e) => [e.id, { version: e.version, method: e.method, path: e.path }]))
  const secrets: ObjectFile['secrets'] = {}
  const data = {
    kind: proxy.kind,
    description: proxy.description,
    creationType: proxy.creationType,
    relativePath: proxy.relativePath,
    settings: proxy.settings,
    endpoints: endpoints.map((e) => ({ version: e.version, ...storedFields(e), cache: e.cache, wsa: e.wsa })),
    policies: policies.map((p) => {
      const { config, removed } = withoutSecretValues(p.config)
      for (const path of removed) secrets[`policies/${p.name}/${pathLabel(path)}`] = { handling: 'NONE' }
      return { name: p.name, pipeline: p.pipeline, order: p.position, endpoint: p.endpointId ? endpointKey.get(p.endpointId) ?? null : null, policy: { ...(config as object), type: p.type, active: p.active } }
    }),
  }
  const ref = { type: TYPE, kind: null, name: proxy.name }
  const file = { name: objectFileName(ref, 'SELECTED'), bytes: encodeJson({ formatVersion: FORMAT_VERSION, role: 'SELECTED', ...ref, data, secrets, dependencies: [] }) }
  const manifest = buildManifest(
    {
      criticalFeatures: [], formatVersion: FORMAT_VERSION, generator: 'gateway-management-api', type: TYPE, kind: null, withDependencies: false, secretHandling: 'NONE',
      exportedAt: new Date().toISOString(), exportedBy: actor.kind === 'user' ? actor.username : 'system', sourceProject: access.project.name, exportDigest: '',
      objects: [{ ...ref, role: 'SELECTED', file: file.name }], notWritten: [],
    },
    [file],
  )
  const bytes = writePackageZip([file, { name: MANIFEST_FILE, bytes: encodeJson(manifest) }])
  return { bytes, fileName: EXPORT_FILE_NAME, disposition: attachmentDisposition(EXPORT_FILE_NAME) }
}

const endpointRef = z.object({ version: z.string().max(32), method: z.string().max(10), path: z.string().max(1000) })
const portableProxy = z.object({
  kind: z.literal('REST', { error: 'only REST proxies are imported here' }),
  description: z.string().max(2000).nullish(),
  creationType: z.enum(['OPEN_API', 'SWAGGER', 'REVERSE_PROXY']).nullish(),
  relativePath: relativePathSchema.nullish(),
  settings: z.record(z.string(), z.unknown()).nullish(),
  endpoints: z.array(z.record(z.string(), z.unknown())).max(2000),
  policies: z.array(z.object({ name: objectName, pipeline: z.enum(PIPELINES), order: z.number().int().min(1).max(100_000), endpoint: endpointRef.nullish(), policy: policyDocument })).max(2000),
})
type PortableProxy = z.output<typeof portableProxy>
type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v)

/**
 * The secrets an object file names, by key, with the clear value when the package carries one it can be read here
 * (DECRYPTED_FOR_EXPORT, or CIPHERTEXT_VERBATIM sealed by this installation's keys), else null (NONE).
 */
function carriedSecrets(keyring: SecretKeyring, secrets: ObjectFile['secrets']): Map<string, string | null> {
  return new Map(Object.entries(secrets).map(([key, s]) => {
    if (s.handling === 'DECRYPTED_FOR_EXPORT' && s.value) return [key, s.value]
    if (s.handling === 'CIPHERTEXT_VERBATIM' && s.value && keyring.knows(s.value)) {
      try {
        return [key, keyring.decrypt(s.value)]
      } catch {
        return [key, null]
      }
    }
    return [key, null]
  }))
}

/**
 * Puts the secrets the package carries into its policies (before validation) and marks those it only names, so a
 * required secret the package left out does not fail validation: the returned paths (per policy name, lower case)
 * are filled from the target's policy of that name on an override, and stay empty on a new proxy.
 */
function placeCarriedPolicySecrets(raw: unknown, carried: Map<string, string | null>): Map<string, SecretPath[]> {
  const kept = new Map<string, SecretPath[]>()
  const policies = isObject(raw) && Array.isArray(raw.policies) ? raw.policies : []
  for (const entry of policies) {
    if (!isObject(entry) || typeof entry.name !== 'string' || !isObject(entry.policy)) continue
    const prefix = `policies/${entry.name}/`
    const missing: SecretPath[] = []
    for (const [key, clear] of carried) {
      const path = key.startsWith(prefix) ? parsePathLabel(key.slice(prefix.length)) : null
      if (!path || getAt(entry.policy, path) !== undefined) continue
      if (clear === null || !setAt(entry.policy, path, clear)) missing.push(path)
    }
    const marked = markAbsentSecrets(entry.policy, missing)
    entry.policy = marked.policy
    if (marked.kept.length) kept.set(entry.name.toLowerCase(), marked.kept)
  }
  return kept
}

interface ProxyPackage {
  name: string
  data: PortableProxy
  /** per policy (name, lower case): the secret paths the package names but does not carry */
  keptSecrets: Map<string, SecretPath[]>
}

/** The one API proxy of an uploaded package, checked like any transfer package, then like any proxy write. */
function readProxyPackage(keyring: SecretKeyring, file: { bytes: Buffer; fileName?: string } | undefined): ProxyPackage {
  if (!file?.bytes.length) throw malformed('apiProxyExportFile: is required (a .zip export of an API proxy)', { field: 'apiProxyExportFile' })
  if (!/\.zip$/i.test(file.fileName ?? '')) throw malformed('apiProxyExportFile: must be a ZIP file whose name ends with .zip', { field: 'apiProxyExportFile' })
  const reading = readPackageFiles(readPackageZip(file.bytes))
  const blocker = reading.blockers[0]
  if (blocker) throw malformed(`apiProxyExportFile: ${blocker.entryFileName ? `${blocker.entryFileName}: ` : ''}${blocker.detail}`, { field: 'apiProxyExportFile', reason: blocker.code })
  const proxies = reading.objects.filter((o) => o.type === TYPE)
  if (proxies.length !== 1 || reading.objects.length !== 1) throw malformed(`apiProxyExportFile: must hold exactly one API proxy; it holds ${reading.objects.length} object(s) of types ${[...new Set(reading.objects.map((o) => o.type))].join(', ') || 'none'}`, { field: 'apiProxyExportFile' })
  const name = objectName.safeParse(proxies[0]!.name)
  if (!name.success) throw malformed(`apiProxyExportFile: the proxy name ${name.error.issues[0]?.message ?? 'is invalid'}`, { field: 'apiProxyExportFile' })
  // text columns and JSONB refuse NUL characters: refused here, named, instead of by the database
  if (JSON.stringify(proxies[0]!.body.data).includes('\\u0000')) throw malformed('apiProxyExportFile: the proxy data contains NUL characters', { field: 'apiProxyExportFile' })
  const carried = carriedSecrets(keyring, proxies[0]!.body.secrets)
  const raw = structuredClone(proxies[0]!.body.data)
  const keptSecrets = placeCarriedPolicySecrets(raw, carried)
  const data = portableProxy.safeParse(raw)
  if (!data.success) {
    const issue = data.error.issues[0]!
    throw malformed(`apiProxyExportFile: ${issue.path.join('.') || 'data'}: ${issue.message}`, { field: 'apiProxyExportFile' })
  }
  return { name: name.data, data: data.data, keptSecrets }
}

/** The package's endpoints as rows for `proxy`, validated by the endpoint rules (a package is untrusted input). */
function endpointRows(data: PortableProxy, proxy: Pick<ApiProxy, 'kind' | 'name'>) {
  return data.endpoints.map((raw, i) => {
    try {
      const { cache, wsa, ...rest } = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null))
      const { version, ...fields } = parseInput(endpointCreateInput, rest)
      // the endpoint's cache and WS-Addressing settings pass the same rules as on their pages
      const settings = endpointSettingsData({ cache: cache == null ? null : parseInput(cacheInput, cache), wsa: wsa == null ? null : parseInput(wsaInput, wsa) }, fields.kind ?? proxy.kind)
      return { version, ...rowData(normalize(fields, proxy as ApiProxy)), ...settings }
    } catch (err) {
      if (err instanceof DomainError) throw malformed(`apiProxyExportFile: endpoints[${i}].${err.message}`, { field: 'apiProxyExportFile' })
      throw err
    }
  })
}

/**
 * Writes endpoints and policies of the package under a proxy that has none (new, or just emptied); policy secrets
 * sealed, those the package only names taken from `stored` (the target's policies before the override, by name).
 */
async function writeContent(tx: Tx, keyring: SecretKeyring, proxyId: string, rows: ReturnType<typeof endpointRows>, pkg: ProxyPackage, stored: Map<string, unknown> = new Map()) {
  const { data } = pkg
  if (rows.length) await tx.gatewayEndpoint.createMany({ data: rows.map((r) => ({ apiProxyId: proxyId, ...r })) })
  const ids = new Map((await tx.gatewayEndpoint.findMany({ where: { apiProxyId: proxyId }, select: { id: true, version: true, method: true, path: true } })).map((e) => [`${e.version} ${e.method} ${e.path}`, e.id]))
  const seen = new Set<string>()
  const positions = new Map<string, number>()
  const policies = [...data.policies].sort((a, b) => a.order - b.order).map((p, i) => {
    const endpointId = p.endpoint ? ids.get(`${p.endpoint.version} ${p.endpoint.method} ${p.endpoint.path}`) : null
    if (endpointId === undefined) throw malformed(`apiProxyExportFile: policies[${i}].endpoint: ${p.endpoint!.method} ${p.endpoint!.path} is not an endpoint of the package`, { field: 'apiProxyExportFile' })
    if (seen.has(p.name.toLowerCase())) throw malformed(`apiProxyExportFile: policies[${i}].name: '${p.name}' appears twice`, { field: 'apiProxyExportFile' })
    seen.add(p.name.toLowerCase())
    // orders are made dense per pipeline, whatever the package says
    const key = `${endpointId ?? ''} ${p.pipeline}`
    const position = (positions.get(key) ?? 0) + 1
    positions.set(key, position)
    const nameKey = p.name.toLowerCase()
    const { name: _n, ...config } = sealPolicySecrets(keyring, p.policy as PolicyDocument, pkg.keptSecrets.get(nameKey) ?? [], stored.get(nameKey) ?? null)
    return { apiProxyId: proxyId, endpointId, pipeline: p.pipeline, position, name: p.name, nameKey: p.name.toLowerCase(), type: p.policy.type, description: p.policy.description ?? null, active: p.policy.active, config: config as Prisma.InputJsonValue }
  })
  if (policies.length) await tx.apiProxyPolicy.createMany({ data: policies })
}

/** POST …/apiProxies/import/: a new proxy from the package; a taken name or relative path gets a numbered suffix. */
export async function importProxy(deps: Deps, actor: Actor, projectName: string, file: { bytes: Buffer; fileName?: string } | undefined): Promise<ApiProxy> {
  const access = await exportImportAccess(deps.prisma, actor, projectName)
  requirePermission(access, 'API_MANAGEMENT', 'MANAGE')
  const pkg = readProxyPackage(deps.keyring, file)
  const { name: ref, data } = pkg
  const rows = endpointRows(data, { kind: 'REST', name: ref })
  const projectId = access.project.id
  return deps.prisma.$transaction(async (tx) => {
    const free = async (n: number) => {
      const name = n ? `${ref}-${n}` : ref
      const path = data.relativePath ? (n ? `${data.relativePath}-${n}` : data.relativePath) : null
      const taken = await tx.apiProxy.findFirst({ where: { projectId, OR: [{ name: { equals: name, mode: 'insensitive' } }, ...(path ? [{ relativePath: path }] : [])] }, select: { id: true } })
      return taken ? null : { name, path }
    }
    let slot: { name: string; path: string | null } | null = null
    for (let n = 0; n <= 100 && !slot; n++) slot = await free(n)
    if (!slot) throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${ref}' and 100 numbered variants already exist`, { apiProxy: ref })
    const proxy = await tx.apiProxy.create({
      data: { projectId, name: slot.name, kind: 'REST', description: data.description ?? null, creationType: data.creationType ?? null, relativePath: slot.path, settings: json(withPath(data.settings, slot.path)), revision: 1 },
    })
    await writeContent(tx, deps.keyring, proxy.id, rows, pkg)
    return proxy
  })
}

/** The settings with the client route's first path set to the proxy's (it may have got a suffix). */
function withPath(settings: Record<string, unknown> | null | undefined, path: string | null) {
  if (!settings || !path) return settings ?? null
  const route = (settings.clientRoute ?? {}) as { relativePathList?: unknown }
  const rest = Array.isArray(route.relativePathList) ? route.relativePathList.slice(1) : []
  return { ...settings, clientRoute: { ...route, relativePathList: [path, ...rest] } }
}

/**
 * PUT …/apiProxies/{name}/import/: the package's proxy under the path's name, replacing that proxy's
 * configuration, endpoints and policies when it exists; metadata may set routing and maintenance mode and deploy.
 */
export async function importProxyOverride(deps: Deps, actor: Actor, projectName: string, name: string, rawMetadata: unknown, file: { bytes: Buffer; fileName?: string } | undefined): Promise<{ proxy: ApiProxy; deploymentResult: DeploymentOutcome | null }> {
  const access = await exportImportAccess(deps.prisma, actor, projectName)
  requirePermission(access, 'API_MANAGEMENT', 'MANAGE')
  const target = objectName.safeParse(name)
  if (!target.success) throw malformed(`apiProxyName: ${target.error.issues[0]?.message ?? 'is invalid'}`, { field: 'apiProxyName' })
  const meta: ImportMetadata = parseInput(importMetadataInput, rawMetadata ?? {})
  const pkg = readProxyPackage(deps.keyring, file)
  const { data } = pkg
  const rows = endpointRows(data, { kind: 'REST', name: target.data })
  const environments = meta.deploy ? await environmentsNamed(deps.prisma, access, meta.deployTargetEnvironmentNameList ?? []) : []
  const projectId = access.project.id
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const current = await tx.apiProxy.findUnique({ where: { projectId_name: { projectId, name: target.data } } })
    if (current && current.kind !== 'REST') throw malformed(`API proxy '${current.name}' is an ${current.kind} proxy; only REST proxies are overridden by an import`, { apiProxy: current.name })
    if (data.relativePath) {
      const clash = await tx.apiProxy.findFirst({ where: { projectId, relativePath: data.relativePath, ...(current ? { id: { not: current.id } } : {}) }, select: { name: true } })
      if (clash) throw new DomainError('conflict', 'relativePathAlreadyUsed', `apiProxyExportFile: relative path '${data.relativePath}' is already that of API proxy '${clash.name}'`, { field: 'apiProxyExportFile', apiProxy: clash.name })
    }
    const settings = overriddenSettings(data.settings as ProxySettings | null | undefined, meta)
    const fields = { description: data.description ?? null, creationType: data.creationType ?? null, relativePath: data.relativePath ?? null, settings: json(settings) }
    let proxy: ApiProxy
    const stored = new Map<string, unknown>()
    if (current) {
      for (const p of await tx.apiProxyPolicy.findMany({ where: { apiProxyId: current.id }, select: { nameKey: true, config: true } })) stored.set(p.nameKey, p.config)
      await tx.gatewayEndpoint.deleteMany({ where: { apiProxyId: current.id } })
      await tx.apiProxyPolicy.deleteMany({ where: { apiProxyId: current.id } })
      proxy = await tx.apiProxy.update({ where: { id: current.id }, data: { ...fields, revision: { increment: 1 } } })
    } else {
      proxy = await tx.apiProxy.create({ data: { projectId, name: target.data, kind: 'REST', ...fields, revision: 1 } })
    }
    await writeContent(tx, deps.keyring, proxy.id, rows, pkg, stored)
    return proxy
  })
  return { proxy, deploymentResult: await requestedDeployment(deps, access, proxy, !!meta.deploy, environments) }
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
