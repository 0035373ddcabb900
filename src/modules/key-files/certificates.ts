import type { X509Certificate } from 'node:crypto'
import type { Actor } from '../../platform/auth/actor.js'
import type { ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import { DomainError, malformed } from '../../platform/errors/domain-error.js'
import { PLATFORM_PROJECT } from '../../platform/scope/project-scope.js'
import { looksLikeZip, writePackageZip } from '../../platform/transfer/package/zip.js'
import {
  certificateEntry, certificateExists, certificatePushes, certificateView, checkAliasFree, truststoreCertificates, warningsOf, type CertificateView,
} from '../keys/certificates.js'
import { parseCertificateFile, toPem } from '../keys/crypto/x509.js'
import {
  contentOf, createObject, environmentsOf, environmentsOfProject, findObject, optionalText, pickEnvironment, pushPerEnvironment, requiredName,
  updateObject, type ProjectEnvironment,
} from '../keys/store.js'
import { fileAccess, requireFileImport } from './access.js'
import { environmentFiles, readArchive, stemOf, type DownloadFile, type UploadedFile } from './archive.js'

// Certificates and trust stores as files (api-reference/keys-secrets/crud/import-certificate-file,
// import-truststore-file, export-truststore-file). An import replaces the entries of the environments it names and
// leaves the others as they were (create and update replace the whole list); it checks and stores an entry exactly
// as the create does (certificates.ts) and pushes the environments it wrote.

export interface CertificateFileInput {
  certificateName?: unknown
  alias?: unknown
  certificateDescription?: unknown
  environmentList?: unknown
  environmentMapping?: unknown
}

interface ParsedEntry { environment: ProjectEnvironment; leaf: X509Certificate; chain: X509Certificate[] }

/** Writes the entries into the certificate (created when new); the environments not named keep theirs. */
async function mergeEntries(deps: Deps, access: ProjectAccess, envs: ProjectEnvironment[], name: string, alias: string, description: string | null, entries: ParsedEntry[]) {
  const current = await findObject(deps.prisma, access.project.id, 'CERTIFICATE', name)
  await checkAliasFree(deps, access.project.id, alias, entries.map((e) => e.environment.name), current?.id ?? null)
  const environments: Record<string, unknown> = { ...(current ? environmentsOf(current) : {}) }
  for (const e of entries) environments[e.environment.name] = certificateEntry(alias, e.leaf, e.chain)
  const stored = current ? contentOf(current).description : undefined
  const content = { description: description ?? (typeof stored === 'string' ? stored : ''), environments }
  const row = current
    ? await updateObject(deps.prisma, current, content)
    : await createObject(deps.prisma, access.project.id, 'CERTIFICATE', name, content, () => certificateExists(name))
  const written = new Set(entries.map((e) => e.environment.name))
  const pushes = certificatePushes(row, envs).filter((p) => written.has(p.env.name))
  const outcome = await pushPerEnvironment(deps, access, 'CERTIFICATE', name, row.revision, pushes)
  return { row, outcome, warnings: warningsOf(name, entries[0]!.leaf) }
}

export interface CertificateImport { outcome: DeploymentOutcome; certificate: CertificateView; warnings: string[]; unresolvedReferences: string[] }

/** POST …/certificates/import-file/: a PEM or DER file into environmentList, or the export's ZIP, each entry into its environment. */
export async function importCertificateFile(deps: Deps, actor: Actor, projectName: string, input: CertificateFileInput, file: UploadedFile | null): Promise<CertificateImport> {
  const access = await fileAccess(deps, actor, projectName, true)
  const name = requiredName(input.certificateName, 'certificateName')
  const alias = requiredName(input.alias, 'alias')
  const description = input.certificateDescription === undefined ? null : optionalText(input.certificateDescription, 'certificateDescription')
  requireFileImport(access)
  if (!file?.bytes.length) throw malformed('certificateFile value can not be empty!', { field: 'certificateFile' })
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const { files, unresolved } = environmentFiles(file, envs, {
    field: 'certificateFile', objectName: name, label: `certificate (${name})`, extension: 'cer', environmentList: input.environmentList, environmentMapping: input.environmentMapping,
  })
  const entries = files.map((f) => ({ environment: f.environment, ...parseCertificateFile(f.bytes, 'certificateFile') }))
  const { row, outcome, warnings } = await mergeEntries(deps, access, envs, name, alias, description, entries)
  return { outcome, certificate: certificateView(row, envs, true), warnings, unresolvedReferences: unresolved }
}

/** The trust store is the admin project's certificates deployed to an environment (certificates.ts truststoreCertificates). */
function requireAdminProject(access: ProjectAccess) {
  if (access.project.name !== PLATFORM_PROJECT) {
    throw malformed(`Truststore certificates are only available in the ${PLATFORM_PROJECT} project`, { field: 'projectName', reason: 'adminProjectOnly' })
  }
}

export interface TruststoreImport { imported: string[]; unresolvedReferences: string[]; outcomes: DeploymentOutcome[] }

/**
 * POST …/certificates/truststore/{environmentName}/import-file/: each certificate file of the bundle (a ZIP, or one
 * file) registered for the environment, named and aliased after its file (namePrefix first); an existing one gets
 * this environment's entry replaced. A failing entry is reported and the rest still lands; all failing is a 400.
 */
export async function importTruststoreFile(deps: Deps, actor: Actor, projectName: string, environmentName: string, input: { namePrefix?: unknown }, file: UploadedFile | null): Promise<TruststoreImport> {
  const access = await fileAccess(deps, actor, projectName, true)
  requireAdminProject(access)
  const envs = await environmentsOfProject(deps.prisma, access.project.id)
  const environment = pickEnvironment(envs, requiredName(environmentName, 'environmentName'))
  const prefix = optionalText(input.namePrefix, 'namePrefix', 100)
  requireFileImport(access)
  if (!file?.bytes.length) throw malformed('truststoreFile value can not be empty!', { field: 'truststoreFile' })
  const bundle = readBundle(file)
  if (!bundle.length) throw malformed('The uploaded bundle holds no certificate file!', { field: 'truststoreFile' })
  const imported: string[] = []
  const failures: string[] = []
  const outcomes: DeploymentOutcome[] = []
  for (const entry of bundle) {
    const name = `${prefix}${entry.stem}`
    try {
      const checkedName = requiredName(name, 'certificateName')
      const { leaf, chain } = parseCertificateFile(entry.bytes, 'truststoreFile')
      const { outcome } = await mergeEntries(deps, access, envs, checkedName, checkedName, null, [{ environment, leaf, chain }])
      imported.push(checkedName)
      outcomes.push(outcome)
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind !== 'validation') throw err
      failures.push(`Certificate (${name}) could not be imported: ${err.message}`)
    }
  }
  if (!imported.length) throw malformed(`No certificate in this bundle could be imported! ${failures.join(' ')}`, { field: 'truststoreFile' })
  return { imported, unresolvedReferences: failures, outcomes }
}

function readBundle(file: UploadedFile): { stem: string; bytes: Buffer }[] {
  if (!looksLikeZip(file.bytes)) return [{ stem: stemOf(file.fileName ?? 'certificate'), bytes: file.bytes }]
  return [...readArchive(file.bytes, 'truststoreFile')].sort(([a], [b]) => a.localeCompare(b)).map(([entry, b]) => ({ stem: stemOf(entry), bytes: b }))
}

/**
 * GET …/certificates/truststore/{environmentName}/export-file/: what the environment trusts, one PEM `<alias>.cer`
 * per certificate (`certificate-<n>.cer` without an alias). Public material only, so VIEW reads it, as the list does.
 */
export async function exportTruststoreFile(deps: Deps, actor: Actor, projectName: string, environmentName: string): Promise<DownloadFile> {
  const certificates = await truststoreCertificates(deps, actor, projectName, environmentName)
  const files = certificates.flatMap((c) => c.certificateEnvironmentList).filter((e) => e.base64EncodedContent)
  if (!files.length) {
    throw malformed(`Environment (${environmentName}) holds no truststore certificate! Nothing of the ${PLATFORM_PROJECT} project is deployed to it.`, { field: 'environmentName', reason: 'emptyTruststore' })
  }
  let unnamed = 0
  const entries = files.map((e) => ({
    name: `${e.alias ?? `certificate-${++unnamed}`}.cer`,
    bytes: Buffer.from(toPem('CERTIFICATE', Buffer.from(e.base64EncodedContent!, 'base64'))),
  }))
  return { bytes: writePackageZip(entries), fileName: `${environmentName}-truststore.zip`, contentType: 'application/octet-stream' }
}
