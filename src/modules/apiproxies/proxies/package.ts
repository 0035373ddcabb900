import { z } from 'zod'
import type { ApiProxy } from '../../../generated/prisma/client.js'
import { actorName, type Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission, requirePermission, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { SecretKeyring } from '../../../platform/secrets/keyring.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { objectName } from '../../../platform/validation/common.js'
import { buildManifest, encodeJson, FORMAT_VERSION, readPackageFiles, SECRET_HANDLINGS } from '../../../platform/transfer/package/format.js'
import { attachmentDisposition, MANIFEST_FILE, objectFileName } from '../../../platform/transfer/package/names.js'
import { DEFAULT_SECRET_HANDLING, openPackageSecrets, packageSecrets, secretCriticalFeatures } from '../../../platform/transfer/package/secrets.js'
import { readPackageZip, writePackageZip } from '../../../platform/transfer/package/zip.js'
import { refLabel, type Advisory } from '../../../platform/transfer/registry.js'
import { environmentsNamed, requestedDeployment } from './automation/deploy.js'
import { importMetadataInput, pathName, type ImportMetadata } from './automation/inputs.js'
import { API_PROXY_TYPE as TYPE, createFromPackage, portableProxies, preparePackage, replaceFromPackage, type ProxyPackage } from './portable.js'
import { hoistInlineSecrets } from './secrets.js'

// Export and import of one API proxy (vendor 04-api-proxies/crud export/import pages) in the transfer package format:
// one object file `<name>.json` of type API_PROXY (its portable form, portable.ts, as the API_PROXY transfer type
// carries it) plus service-transfer-manifest.json with the fingerprints, written and read by the same package code
// (zip bounds, zip-slip, checksums) as /transfer-*. Every secret of the proxy, settings and policies alike, travels in
// the object file's `secrets` per the `secretHandling` query parameter (default CIPHERTEXT_VERBATIM), sealed and opened
// by the transfer module's package/secrets.ts; an import answers `advisories` naming the secrets it did not restore.

export const EXPORT_FILE_NAME = 'apiProxyExportFile.zip'
const ROUTED_KINDS = ['AI', 'MCP', 'A2A']
const FILE_FIELD = 'apiProxyExportFile'

const proxyNotFound = (name: string) => notFound(`API proxy '${name}' not found`, { apiProxy: name })
/** The export's one query parameter: how the proxy's secrets travel (as in the transfer exports). */
export const secretHandlingQuery = z.object({ secretHandling: z.enum(SECRET_HANDLINGS).optional().describe('how the secrets travel: CIPHERTEXT_VERBATIM (default), DECRYPTED_FOR_EXPORT or NONE') })

/** Export and import need EXPORT_IMPORT on API_MANAGEMENT or PROJECT_MANAGEMENT (spec §5, Export). */
async function exportImportAccess(db: Tx, actor: Actor, projectName: string): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(access, ['API_MANAGEMENT', 'PROJECT_MANAGEMENT'], 'EXPORT_IMPORT')
  return access
}

/** GET …/apiProxies/{name}/export/?secretHandling=: the package (ZIP bytes) and its file name. */
export async function exportProxy(deps: Deps, actor: Actor, projectName: string, name: string, query: unknown = {}): Promise<{ bytes: Buffer; fileName: string; disposition: string }> {
  const handling = parseInput(secretHandlingQuery, query ?? {}).secretHandling ?? DEFAULT_SECRET_HANDLING
  const access = await exportImportAccess(deps.prisma, actor, projectName)
  const proxy = await deps.prisma.apiProxy.findUnique({ where: { projectId_name: { projectId: access.project.id, name: pathName(name, 'apiProxyName') } } })
  if (!proxy) throw proxyNotFound(name)
  if (ROUTED_KINDS.includes(proxy.kind)) throw malformed(`API proxy '${proxy.name}' is an ${proxy.kind} proxy; this export carries REST proxies (their routing secrets travel through the transfer endpoints' rules)`, { apiProxy: proxy.name, kind: proxy.kind })
  const [portable] = await portableProxies(deps.prisma, deps.keyring, [proxy])
  const { data, secrets, dependencies, ...ref } = portable!
  const file = {
    name: objectFileName(ref, 'SELECTED'),
    bytes: encodeJson({ formatVersion: FORMAT_VERSION, role: 'SELECTED', ...ref, data, secrets: packageSecrets(deps.keyring, secrets, handling), dependencies }),
  }
  const manifest = buildManifest(
    {
      criticalFeatures: secretCriticalFeatures(handling, Object.keys(secrets).length > 0), formatVersion: FORMAT_VERSION, generator: 'gateway-management-api', type: TYPE, kind: null,
      withDependencies: false, secretHandling: handling, exportedAt: new Date().toISOString(), exportedBy: actor.kind === 'user' ? actor.username : 'system',
      sourceProject: access.project.name, exportDigest: '', objects: [{ ...ref, role: 'SELECTED', file: file.name }], notWritten: [],
    },
    [file],
  )
  const bytes = writePackageZip([file, { name: MANIFEST_FILE, bytes: encodeJson(manifest) }])
  return { bytes, fileName: EXPORT_FILE_NAME, disposition: attachmentDisposition(EXPORT_FILE_NAME) }
}

/**
 * The one API proxy of an uploaded package, checked like any transfer package, then like any proxy write; its
 * secrets opened where they open here, with advisories naming those that do not.
 */
function readProxyPackage(keyring: SecretKeyring, file: { bytes: Buffer; fileName?: string } | undefined): { pkg: ProxyPackage; advisories: Advisory[] } {
  if (!file?.bytes.length) throw malformed(`${FILE_FIELD}: is required (a .zip export of an API proxy)`, { field: FILE_FIELD })
  if (!/\.zip$/i.test(file.fileName ?? '')) throw malformed(`${FILE_FIELD}: must be a ZIP file whose name ends with .zip`, { field: FILE_FIELD })
  const reading = readPackageFiles(readPackageZip(file.bytes))
  const blocker = reading.blockers[0]
  if (blocker) throw malformed(`${FILE_FIELD}: ${blocker.entryFileName ? `${blocker.entryFileName}: ` : ''}${blocker.detail}`, { field: FILE_FIELD, reason: blocker.code })
  const proxies = reading.objects.filter((o) => o.type === TYPE)
  if (proxies.length !== 1 || reading.objects.length !== 1) throw malformed(`${FILE_FIELD}: must hold exactly one API proxy; it holds ${reading.objects.length} object(s) of types ${[...new Set(reading.objects.map((o) => o.type))].join(', ') || 'none'}`, { field: FILE_FIELD })
  const object = proxies[0]!
  const name = objectName.safeParse(object.name)
  if (!name.success) throw malformed(`${FILE_FIELD}: the proxy name ${name.error.issues[0]?.message ?? 'is invalid'}`, { field: FILE_FIELD })
  const data = structuredClone(object.body.data)
  // secret values a package holds in `data` (exported before secrets travelled apart) count as packaged ones
  const opened = openPackageSecrets(keyring, refLabel(object), { ...hoistInlineSecrets(data), ...object.body.secrets })
  return { pkg: preparePackage(FILE_FIELD, name.data, data, opened.secrets, opened.uncarried), advisories: opened.advisories }
}

/** POST …/apiProxies/import/: a new proxy from the package; a taken name or relative path gets a numbered suffix. */
export async function importProxy(deps: Deps, actor: Actor, projectName: string, file: { bytes: Buffer; fileName?: string } | undefined): Promise<{ proxy: ApiProxy; advisories: Advisory[] }> {
  const access = await exportImportAccess(deps.prisma, actor, projectName)
  requirePermission(access, 'API_MANAGEMENT', 'MANAGE')
  const { pkg, advisories } = readProxyPackage(deps.keyring, file)
  const proxy = await deps.prisma.$transaction((tx) => createFromPackage(tx, deps.keyring, access.project.id, pkg, { numbered: true }))
  return { proxy, advisories }
}

/**
 * PUT …/apiProxies/{name}/import/: the package's proxy under the path's name, replacing that proxy's
 * configuration, endpoints and policies when it exists; metadata may set routing and maintenance mode and deploy.
 */
export async function importProxyOverride(deps: Deps, actor: Actor, projectName: string, name: string, rawMetadata: unknown, file: { bytes: Buffer; fileName?: string } | undefined): Promise<{ proxy: ApiProxy; deploymentResult: DeploymentOutcome | null; advisories: Advisory[] }> {
  const access = await exportImportAccess(deps.prisma, actor, projectName)
  requirePermission(access, 'API_MANAGEMENT', 'MANAGE')
  const target = objectName.safeParse(name)
  if (!target.success) throw malformed(`apiProxyName: ${target.error.issues[0]?.message ?? 'is invalid'}`, { field: 'apiProxyName' })
  const meta: ImportMetadata = parseInput(importMetadataInput, rawMetadata ?? {})
  const { pkg, advisories } = readProxyPackage(deps.keyring, file)
  const environments = meta.deploy ? await environmentsNamed(deps.prisma, access, meta.deployTargetEnvironmentNameList ?? []) : []
  const proxy = await deps.prisma.$transaction((tx) => replaceFromPackage(tx, deps.keyring, access.project.id, target.data, pkg, meta))
  return { proxy, deploymentResult: await requestedDeployment(deps, access, proxy, !!meta.deploy, environments, { username: actorName(actor) }), advisories }
}
