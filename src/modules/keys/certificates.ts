import type { SearchQuery } from '../../platform/envelopes/paging.js'
import { X509Certificate } from 'node:crypto'
import type { StoredObject } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { PLATFORM_PROJECT } from '../../platform/scope/project-scope.js'
import { writePackageZip } from '../../platform/transfer/package/zip.js'
import { certificateFacts, parseCertificateFile, toPem, validityOf } from './crypto/x509.js'
import { deleteSourceAndJwks, jwkDeleteAction, refreshReferencedJwks, type RefreshOptions } from './jwk-refresh.js'
import {
  createObject, environmentsOf, environmentsOfProject, findObject, isRecord, listObjects, pageObjects, optionalText, pickEnvironment, pushPerEnvironment,
  requiredName, trustAccess, updateObject, type EnvironmentPush, type ProjectEnvironment,
} from './store.js'
import { certificateNotFound } from './materials.js'


// Certificates (kind CERTIFICATE): a PEM file, parsed and shown per environment; deployed (kind CERTIFICATE) to
// each environment it is listed for, with that environment's alias.


export interface CertificateInput {
  certificateName?: unknown
  alias?: unknown
  certificateDescription?: unknown
  /** comma-separated (the multipart form) or a list (GraphQL) */
  environmentList?: unknown
  pemEncodedFile?: Buffer | null
}

export function environmentNames(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
  const names = [...new Set(list.filter((v): v is string => typeof v === 'string').map((v) => v.trim()).filter(Boolean))]
  if (!names.length) throw malformed('environmentList value can not be empty!', { field: 'environmentList' })
  return names
}

interface ParsedCertificateInput {
  alias: string
  description: string
  environments: ProjectEnvironment[]
  leaf: X509Certificate
  chain: X509Certificate[]
}

/** The checks of create and update, in the pages' order; nothing is written before they pass. */
function parseInput(input: CertificateInput, projectEnvs: ProjectEnvironment[]): ParsedCertificateInput {
  const alias = requiredName(input.alias, 'alias')
  if (!input.pemEncodedFile || !input.pemEncodedFile.length) throw malformed('pemEncodedFile value can not be empty!', { field: 'pemEncodedFile' })
  const environments = environmentNames(input.environmentList).map((n) => pickEnvironment(projectEnvs, n))
  const description = optionalText(input.certificateDescription, 'certificateDescription')
  const { leaf, chain } = parseCertificateFile(input.pemEncodedFile, 'pemEncodedFile')
  return { alias, description, environments, leaf, chain }
}

/** Expired and not-yet-valid certificates are accepted; the answer says so. */
export function warningsOf(name: string, leaf: X509Certificate, now = new Date()): string[] {
  const facts = certificateFacts(leaf)
  const { expired, notYetValid } = validityOf(facts, now)
  const warnings: string[] = []
  if (expired) warnings.push(`Certificate (name: ${name}) expired on ${facts.endDate}`)
  if (notYetValid) warnings.push(`Certificate (name: ${name}) is not valid before ${facts.startDate}`)
  return warnings
}

export async function checkAliasFree(deps: Deps, projectId: string, alias: string, envs: string[], except: string | null) {
  for (const row of await listObjects(deps.prisma, projectId, 'CERTIFICATE')) {
    if (row.id === except) continue
    const taken = Object.entries(environmentsOf(row)).some(([env, entry]) => envs.includes(env) && entry.alias === alias)
    if (taken) throw new DomainError('validation', 'aliasAlreadyUsed', `Alias (${alias}) is already used for another certificate, try changing this value!`, { field: 'alias', alias })
  }
}

/** One environment's stored entry: the alias, the DER of the leaf and its chain, and the facts read from it. */
export const certificateEntry = (alias: string, leaf: X509Certificate, chain: X509Certificate[]) => ({
  alias,
  base64EncodedContent: leaf.raw.toString('base64'),
  chain: chain.map((c) => c.raw.toString('base64')),
  ...certificateFacts(leaf),
})

function contentFor(parsed: ParsedCertificateInput) {
  const entry = certificateEntry(parsed.alias, parsed.leaf, parsed.chain)
  return { description: parsed.description, environments: Object.fromEntries(parsed.environments.map((e) => [e.name, entry])) }
}

/** The gateway's form of one environment's certificate. */
function runtimeConfig(name: string, envName: string, entry: Record<string, unknown>) {
  const der = Buffer.from(String(entry.base64EncodedContent ?? ''), 'base64')
  const chain = Array.isArray(entry.chain) ? entry.chain.map((c) => toPem('CERTIFICATE', Buffer.from(String(c), 'base64'))) : []
  return {
    name, environmentName: envName, alias: entry.alias, certificatePem: toPem('CERTIFICATE', der), chainPem: chain,
    sha256Fingerprint: entry.sha256Fingerprint, subjectDn: entry.subjectDn, endDate: entry.endDate,
  }
}

export function certificatePushes(row: StoredObject, envs: ProjectEnvironment[], previous: string[] = []): EnvironmentPush[] {
  const current = environmentsOf(row)
  const byName = new Map(envs.map((e) => [e.name, e]))
  const deploys = Object.entries(current).flatMap(([env, entry]) => (byName.has(env) ? [{ env: byName.get(env)!, action: 'DEPLOY' as const, config: runtimeConfig(row.name, env, entry) }] : []))
  const undeploys = previous.filter((env) => !(env in current) && byName.has(env)).map((env) => ({ env: byName.get(env)!, action: 'UNDEPLOY' as const, config: { name: row.name, environmentName: env } }))
  return [...deploys, ...undeploys]
}

export interface CertificateWrite { outcome: DeploymentOutcome; warnings: string[]; certificate: CertificateView; updatedJwks: string[] }

export async function createCertificate(deps: Deps, actor: Actor, projectName: string, input: CertificateInput): Promise<CertificateWrite> {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(input.certificateName, 'certificateName')
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const parsed = parseInput(input, envs)
  if (await findObject(deps.prisma, access.project.id, 'CERTIFICATE', name)) throw certificateExists(name)
  await checkAliasFree(deps, access.project.id, parsed.alias, parsed.environments.map((e) => e.name), null)
  const row = await createObject(deps.prisma, access.project.id, 'CERTIFICATE', name, contentFor(parsed), () => certificateExists(name))
  const outcome = await pushPerEnvironment(deps, access, 'CERTIFICATE', name, row.revision, certificatePushes(row, envs))
  return { outcome, warnings: warningsOf(name, parsed.leaf), certificate: certificateView(row, envs, true), updatedJwks: [] }
}

export const certificateExists = (name: string) => new DomainError('validation', 'certificateAlreadyExists', `Certificate (name: ${name}) is already exist!`, { certificateName: name })

/** Replaces the certificate (file, alias, environments); environments no longer listed are undeployed. */
export async function updateCertificate(deps: Deps, actor: Actor, projectName: string, rawName: string, input: CertificateInput, refresh: RefreshOptions): Promise<CertificateWrite> {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, 'certificateName')
  const current = await findObject(deps.prisma, access.project.id, 'CERTIFICATE', name)
  if (!current) throw certificateNotFound(name)
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const parsed = parseInput(input, envs)
  await checkAliasFree(deps, access.project.id, parsed.alias, parsed.environments.map((e) => e.name), current.id)
  const previous = Object.keys(environmentsOf(current))
  const row = await updateObject(deps.prisma, current, contentFor(parsed))
  const outcome = await pushPerEnvironment(deps, access, 'CERTIFICATE', name, row.revision, certificatePushes(row, envs, previous))
  const updatedJwks = await refreshReferencedJwks(deps, access, row, refresh)
  return { outcome, warnings: warningsOf(name, parsed.leaf), certificate: certificateView(row, envs, true), updatedJwks }
}

/** `jwkDeleteAction` says what becomes of the JWKs taken from it (jwk-refresh.ts): detached (NULLIFY, the default) or deleted. */
export async function deleteCertificate(deps: Deps, actor: Actor, projectName: string, rawName: string, rawJwkDeleteAction?: unknown): Promise<DeploymentOutcome> {
  const access = await trustAccess(deps, actor, projectName, 'MANAGE')
  const name = requiredName(rawName, 'certificateName')
  const action = jwkDeleteAction(rawJwkDeleteAction)
  const row = await findObject(deps.prisma, access.project.id, 'CERTIFICATE', name)
  if (!row) throw certificateNotFound(name)
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const byName = new Map(envs.map((e) => [e.name, e]))
  const pushes = Object.keys(environmentsOf(row)).filter((e) => byName.has(e)).map((e) => ({ env: byName.get(e)!, action: 'UNDEPLOY' as const, config: { name, environmentName: e } }))
  return deleteSourceAndJwks(deps, access, row, action, () => pushPerEnvironment(deps, access, 'CERTIFICATE', name, row.revision + 1, pushes))
}

// Reading

export interface CertificateEnvironmentView {
  environmentId: string | null
  environmentName: string
  alias: string | null
  startDate: string | null
  endDate: string | null
  base64EncodedContent?: string
  sha1Thumbprint: string | null
  sha256Fingerprint: string | null
  subjectDn: string | null
  issuerDn: string | null
  serialNumber: string | null
  keyAlgorithm: string | null
  keySize: number | null
  curve: string | null
  subjectAltNames: string[]
  expired: boolean
  notYetValid: boolean
  chainLength: number
}

export interface CertificateView { name: string; description: string; certificateEnvironmentList: CertificateEnvironmentView[] }

/** An environment's entry; facts are read again from the certificate when an entry (a bootstrap object) lacks them. */
function environmentView(envName: string, entry: Record<string, unknown>, envs: ProjectEnvironment[], withContent: boolean, now: Date): CertificateEnvironmentView {
  let facts: Record<string, unknown> = entry
  if (typeof entry.base64EncodedContent === 'string' && typeof entry.sha256Fingerprint !== 'string') {
    try {
      facts = { ...entry, ...certificateFacts(new X509Certificate(Buffer.from(entry.base64EncodedContent, 'base64'))) }
    } catch {
      facts = entry
    }
  }
  const str = (k: string) => (typeof facts[k] === 'string' ? (facts[k] as string) : null)
  const startDate = str('startDate')
  const endDate = str('endDate')
  const validity = startDate && endDate ? validityOf({ startDate, endDate }, now) : { expired: false, notYetValid: false }
  return {
    environmentId: envs.find((e) => e.name === envName)?.id ?? null,
    environmentName: envName,
    alias: str('alias'),
    startDate, endDate,
    ...(withContent && typeof entry.base64EncodedContent === 'string' ? { base64EncodedContent: entry.base64EncodedContent } : {}),
    sha1Thumbprint: str('sha1Thumbprint'),
    sha256Fingerprint: str('sha256Fingerprint'),
    subjectDn: str('subjectDn'),
    issuerDn: str('issuerDn'),
    serialNumber: str('serialNumber'),
    keyAlgorithm: str('keyAlgorithm'),
    keySize: typeof facts.keySize === 'number' ? facts.keySize : null,
    curve: str('curve'),
    subjectAltNames: Array.isArray(facts.subjectAltNames) ? facts.subjectAltNames.map(String) : [],
    ...validity,
    chainLength: Array.isArray(entry.chain) ? entry.chain.length : 0,
  }
}

export function certificateView(row: StoredObject, envs: ProjectEnvironment[], withContent: boolean, onlyEnv?: string): CertificateView {
  const now = new Date()
  const content = isRecord(row.content) ? row.content : {}
  return {
    name: row.name,
    description: typeof content.description === 'string' ? content.description : '',
    certificateEnvironmentList: Object.entries(environmentsOf(row))
      .filter(([env]) => !onlyEnv || env === onlyEnv)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([env, entry]) => environmentView(env, entry, envs, withContent, now)),
  }
}

/** The list leaves the file content out (the page: "excluded from list response for performance"). */
export async function listCertificates(deps: Deps, actor: Actor, projectName: string): Promise<CertificateView[]> {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  return (await listObjects(deps.prisma, access.project.id, 'CERTIFICATE')).map((r) => certificateView(r, envs, false))
}

/** One page of listCertificates, searched by name. */
export async function pageCertificates(deps: Deps, actor: Actor, projectName: string, query: SearchQuery) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const [page, envs] = await Promise.all([pageObjects(deps.prisma, access.project.id, 'CERTIFICATE', query), environmentsOfProject(deps.prisma, access.project.id)])
  return { ...page, items: page.items.map((r) => certificateView(r, envs, false)) }
}

export async function getCertificate(deps: Deps, actor: Actor, projectName: string, rawName: string): Promise<CertificateView> {
  const { row, envs } = await loadCertificate(deps, actor, projectName, rawName)
  return certificateView(row, envs, true)
}

async function loadCertificate(deps: Deps, actor: Actor, projectName: string, rawName: string) {
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  const name = requiredName(rawName, 'certificateName')
  const row = await findObject(deps.prisma, access.project.id, 'CERTIFICATE', name)
  if (!row) throw certificateNotFound(name)
  return { access, row, envs: await environmentsOfProject(deps.prisma, access.project.id) }
}

/** The admin project's certificates deployed to an environment: that environment's trust store. */
export async function truststoreCertificates(deps: Deps, actor: Actor, projectName: string, environmentName: string): Promise<CertificateView[]> {
  const envName = requiredName(environmentName, 'environmentName')
  const access = await trustAccess(deps, actor, projectName, 'VIEW')
  if (access.project.name !== PLATFORM_PROJECT) {
    throw malformed(`Truststore certificates are only available in the ${PLATFORM_PROJECT} project`, { field: 'projectName', reason: 'adminProjectOnly' })
  }
  const env = await deps.prisma.environment.findUnique({ where: { name: envName } })
  if (!env) throw new DomainError('validation', 'environmentNotFound', `Environment (${envName}) is not found or user does not have privilege to access it!`, { field: 'environmentName' })
  const envs = [{ id: env.id, name: env.name, workerUrls: env.workerUrls }]
  return (await listObjects(deps.prisma, access.project.id, 'CERTIFICATE'))
    .filter((r) => envName in environmentsOf(r))
    .map((r) => certificateView(r, envs, true, envName))
}

export const EXPORT_FORMATS = ['ZIP', 'PEM', 'DER'] as const

/**
 * The page's export: a ZIP with `{name}-{environment}.cer` (DER) per environment. `format` PEM or DER gives
 * one environment's certificate instead (PEM with its chain); `environmentName` picks it and may be left
 * out when the certificate has a single environment.
 */
export async function exportCertificate(deps: Deps, actor: Actor, projectName: string, rawName: string, format = 'ZIP', environmentName?: string) {
  const { row } = await loadCertificate(deps, actor, projectName, rawName)
  const fmt = format.trim().toUpperCase()
  if (!(EXPORT_FORMATS as readonly string[]).includes(fmt)) throw malformed(`format '${format}' is not supported: one of ${EXPORT_FORMATS.join(', ')}`, { field: 'format' })
  const entries = Object.entries(environmentsOf(row)).filter(([, e]) => typeof e.base64EncodedContent === 'string').sort(([a], [b]) => a.localeCompare(b))
  if (fmt === 'ZIP') {
    const files = entries.map(([env, e]) => ({ name: `${row.name}-${env}.cer`, bytes: Buffer.from(String(e.base64EncodedContent), 'base64') }))
    return { bytes: writePackageZip(files), fileName: `${row.name}-certificates.zip`, contentType: 'application/octet-stream' }
  }
  let chosen = entries
  if (environmentName) chosen = entries.filter(([env]) => env === environmentName)
  else if (entries.length > 1) throw malformed(`environmentName is required with format ${fmt}: the certificate has ${entries.length} environments`, { field: 'environmentName' })
  const [env, entry] = chosen[0] ?? []
  if (!env || !entry) throw malformed(`Certificate (name: ${row.name}) has no environment '${environmentName ?? ''}'`, { field: 'environmentName' })
  const der = Buffer.from(String(entry.base64EncodedContent), 'base64')
  if (fmt === 'DER') return { bytes: der, fileName: `${row.name}-${env}.cer`, contentType: 'application/pkix-cert' }
  const chain = Array.isArray(entry.chain) ? entry.chain.map((c) => toPem('CERTIFICATE', Buffer.from(String(c), 'base64'))) : []
  return { bytes: Buffer.from([toPem('CERTIFICATE', der), ...chain].join('')), fileName: `${row.name}-${env}.pem`, contentType: 'application/x-pem-file' }
}
