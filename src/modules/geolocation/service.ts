import crypto from 'node:crypto'
import net from 'node:net'
import type { GeolocationDatabase } from '../../generated/prisma/client.js'
import { actorName, type Actor } from '../../platform/auth/actor.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Deps, Tx } from '../../platform/context.js'
import { installationEnvironments } from '../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { openMmdb } from './mmdb.js'

/** The one row of GeolocationDatabase. */
const CURRENT = 'current'
export const DEFAULT_FILE_NAME = 'geolocation.mmdb'
/** Kind of the runtime push (RUNTIME.md §4); the geolocation database is installation-wide. */
export const GEOLOCATION_KIND = 'GEOLOCATION_DATABASE'
/** The project field of the push message: the database belongs to no project. */
const INSTALLATION = ''

export interface GeolocationUpload {
  /** the `file` part; undefined when the request had none */
  file?: { bytes: Buffer; fileName?: string }
  /** the `fileName` part */
  fileName?: string
}

/** deploymentResult of the geolocation upload (spec §2.1). */
export interface GeolocationDeploymentResult {
  success: boolean
  responseTime: number
  detailList: { envName: string; success: boolean; detail: string; responseTime: number }[]
}

export type GeolocationMetadata = Omit<GeolocationDatabase, 'content' | 'id'>

const metadataOf = ({ content: _content, id: _id, ...rest }: GeolocationDatabase): GeolocationMetadata => rest

export function toGeolocationDeploymentResult(outcome: DeploymentOutcome): GeolocationDeploymentResult {
  return {
    success: outcome.success,
    responseTime: outcome.responseTimeMs,
    detailList: outcome.environmentResults.map((r) => ({ envName: r.environmentName, success: r.success, detail: r.message, responseTime: r.responseTimeMs })),
  }
}

/** The display name: the fileName part, else the uploaded file's name, else geolocation.mmdb. */
export function resolveFileName(upload: GeolocationUpload): string {
  for (const candidate of [upload.fileName, upload.file?.fileName]) {
    const trimmed = candidate?.trim()
    if (trimmed) return trimmed
  }
  return DEFAULT_FILE_NAME
}

/**
 * Validates an uploaded MMDB, replaces the stored one in one statement (a refused upload changes nothing),
 * then pushes it to every environment. A failed push is reported, never undone.
 */
export async function uploadGeolocationDatabase(
  deps: Deps,
  actor: Actor,
  upload: GeolocationUpload,
): Promise<{ stored: GeolocationMetadata; deploymentResult: GeolocationDeploymentResult }> {
  requireSystemAdmin(actor)
  if (!upload.file) throw malformed("The multipart part 'file' is required", { reason: 'fileMissing' })
  const bytes = upload.file.bytes
  if (bytes.length === 0) throw malformed("The uploaded file is empty: part 'file' must hold an MMDB geolocation database", { reason: 'fileEmpty' })
  const fileName = resolveFileName(upload)
  if (fileName.length > 255) throw malformed('fileName must be at most 255 characters', { reason: 'fileNameTooLong' })
  const { metadata } = openMmdb(bytes)
  const sha256 = crypto.createHash('sha256').update(bytes).digest('hex')
  const fields = {
    fileName,
    content: new Uint8Array(bytes),
    sizeBytes: bytes.length,
    sha256,
    databaseType: metadata.databaseType,
    ipVersion: metadata.ipVersion,
    nodeCount: metadata.nodeCount,
    buildEpoch: metadata.buildEpoch,
    uploadedAt: new Date(),
    uploadedBy: actorName(actor),
  }
  // one upsert: readers (and other instances) see either the previous database or the new one, never a mix
  const row = await deps.prisma.geolocationDatabase.upsert({
    where: { id: CURRENT },
    create: { id: CURRENT, ...fields },
    update: { ...fields, revision: { increment: 1 } },
  })
  deps.logger.info({ fileName, sha256, databaseType: metadata.databaseType, revision: row.revision }, 'geolocation database replaced')
  const outcome = await pushGeolocationConfig(deps, row, await geolocationSetting(deps.prisma))
  return { stored: metadataOf(row), deploymentResult: toGeolocationDeploymentResult(outcome) }
}

/** No setting row: enabled, the behaviour before the switch existed. */
async function geolocationSetting(db: Tx): Promise<{ enabled: boolean; revision: number }> {
  return (await db.geolocationSetting.findUnique({ where: { id: CURRENT } })) ?? { enabled: true, revision: 0 }
}

/**
 * Pushes the installation's geolocation configuration: the switch and, when one was uploaded, the database.
 * Its revision is the database's plus the switch's, so it only ever increases whichever of them changed.
 */
async function pushGeolocationConfig(deps: Deps, row: GeolocationDatabase | null, setting: { enabled: boolean; revision: number }): Promise<DeploymentOutcome> {
  return deps.deployer.push(await installationEnvironments(deps.prisma), {
    action: 'DEPLOY',
    project: INSTALLATION,
    kind: GEOLOCATION_KIND,
    name: row?.fileName ?? DEFAULT_FILE_NAME,
    revision: (row?.revision ?? 0) + setting.revision,
    config: row
      ? {
          fileName: row.fileName,
          sha256: row.sha256,
          databaseType: row.databaseType,
          buildEpoch: Math.floor(row.buildEpoch.getTime() / 1000),
          contentBase64: Buffer.from(row.content).toString('base64'),
          enabled: setting.enabled,
        }
      : { enabled: setting.enabled },
  })
}

/**
 * PUT /apiops/settings/geolocation/enable and /disable (vendor 13-geolocation): saves the switch, then
 * pushes the geolocation configuration carrying it to every environment. Switching to the state it is
 * already in still pushes (a way to resend the configuration).
 */
export async function setGeolocationEnabled(deps: Deps, actor: Actor, enabled: boolean): Promise<{ enabled: boolean; deploymentResult: DeploymentOutcome }> {
  requireSystemAdmin(actor)
  const setting = await deps.prisma.geolocationSetting.upsert({
    where: { id: CURRENT },
    create: { id: CURRENT, enabled, revision: 1, updatedBy: actorName(actor) },
    update: { enabled, revision: { increment: 1 }, updatedBy: actorName(actor) },
  })
  deps.logger.info({ enabled, revision: setting.revision }, enabled ? 'geolocation enabled' : 'geolocation disabled')
  const row = await deps.prisma.geolocationDatabase.findUnique({ where: { id: CURRENT } })
  return { enabled, deploymentResult: await pushGeolocationConfig(deps, row, setting) }
}

/** Whether geolocation is switched on (no setting yet: on). */
export async function geolocationEnabled(db: Tx, actor: Actor): Promise<boolean> {
  requireSystemAdmin(actor)
  return (await geolocationSetting(db)).enabled
}

export async function currentGeolocationDatabase(db: Tx, actor: Actor): Promise<GeolocationMetadata | null> {
  requireSystemAdmin(actor)
  const row = await db.geolocationDatabase.findUnique({ where: { id: CURRENT }, omit: { content: true } })
  return row ? { ...row } : null
}

export interface GeolocationLookupResult {
  ip: string
  found: boolean
  prefixLength: number
  countryIsoCode: string | null
  countryName: string | null
  cityName: string | null
  record: unknown
}

type Named = { iso_code?: unknown; names?: Record<string, unknown> } | undefined

const englishName = (n: Named) => (typeof n?.names?.en === 'string' ? n.names.en : null)

/** Looks an IP address up in the stored database; country/city are best-effort from the common MaxMind layout. */
export async function lookupGeolocation(db: Tx, actor: Actor, ip: string): Promise<GeolocationLookupResult> {
  requireSystemAdmin(actor)
  const address = ip.trim()
  if (!net.isIP(address)) throw malformed(`'${ip}' is not an IPv4 or IPv6 address`, { reason: 'invalidIp' })
  const row = await db.geolocationDatabase.findUnique({ where: { id: CURRENT }, select: { content: true } })
  if (!row) throw new DomainError('notFound', 'resourceNotFound', 'No geolocation database has been uploaded')
  const { reader, metadata } = openMmdb(Buffer.from(row.content))
  if (metadata.ipVersion === 4 && net.isIPv6(address)) {
    throw malformed('The stored geolocation database holds IPv4 addresses only', { reason: 'ipVersionMismatch' })
  }
  const [record, prefixLength] = reader.getWithPrefixLength(address)
  const r = (record ?? null) as Record<string, unknown> | null
  const country = (r?.country ?? r?.registered_country) as Named
  const city = r?.city as Named
  return {
    ip: address,
    found: r !== null,
    prefixLength,
    countryIsoCode: typeof country?.iso_code === 'string' ? country.iso_code : null,
    countryName: englishName(country),
    cityName: englishName(city),
    record: r,
  }
}
