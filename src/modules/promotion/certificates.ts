import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps, Tx } from '../../platform/context.js'
import { DomainError, malformed, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject, resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { ensureTransferAdapters } from '../transfer/adapters/index.js'
import { requireExportImport } from '../transfer/errors.js'
import { objectFileSchema } from '../../platform/transfer/package/format.js'
import { openPackageSecrets, packageSecrets } from '../../platform/transfer/package/secrets.js'
import { adapterFor, refLabel, type AdapterContext, type Advisory } from '../../platform/transfer/registry.js'

// Promotion certificates (the PromotionCertificate tag of the vendor's openapi.yaml; no page shows the bodies): a
// certificate, key, keystore or JWK of one project read "full" by id, then created from that payload in another
// project. Both sides are the transfer engine's CERTIFICATE objects (one serializer): the read answers the object
// file, its secret fields sealed under this installation's key (CIPHERTEXT_VERBATIM, as an unencrypted package
// carries them; another installation cannot open them and says so), the create writes it through the adapter.

const TYPE = 'CERTIFICATE'
/** certKind as a path segment: the kinds, and the words the vendor's utility paths use for them. */
const CERT_KINDS: Record<string, string> = {
  CERTIFICATE: 'CERTIFICATE', CERTIFICATES: 'CERTIFICATE',
  KEY_STORE: 'KEY_STORE', KEYSTORE: 'KEY_STORE', KEYSTORES: 'KEY_STORE',
  CRYPTO_KEY_INFO: 'CRYPTO_KEY_INFO', KEY: 'CRYPTO_KEY_INFO', KEYS: 'CRYPTO_KEY_INFO',
  JWK: 'JWK', JWKS: 'JWK',
}

function certKindOf(raw: string | null | undefined, field: string): string {
  const kind = CERT_KINDS[(raw ?? '').trim().toUpperCase().replace(/-/g, '_')]
  if (!kind) throw malformed(`${field}: must be one of certificate, key, keystore, jwk (or CERTIFICATE, CRYPTO_KEY_INFO, KEY_STORE, JWK)`, { field })
  return kind
}

const certificateNotFound = (id: string) => notFound(`Certificate '${id}' not found`, { id })

/** The project of the certificate-family object with this id, for the access decision. */
export async function certificateProjectName(db: Tx, id: string): Promise<string | undefined> {
  const row = await db.storedObject.findFirst({ where: { id, type: TYPE }, select: { projectId: true } })
  if (!row) return undefined
  return (await db.project.findUnique({ where: { id: row.projectId }, select: { name: true } }))?.name
}
export { certificateNotFound }

/** GET /apiops/utility/promotion-certificates/{certKind}/{id}/full: EXPORT_IMPORT (CERTIFICATE or PROJECT_MANAGEMENT) in its project. */
export async function certificateForPromotion(deps: Deps, actor: Actor, certKind: string, id: string) {
  const kind = certKindOf(certKind, 'certKind')
  const row = await deps.prisma.storedObject.findFirst({ where: { id, type: TYPE } })
  const project = row ? await deps.prisma.project.findUnique({ where: { id: row.projectId }, select: { name: true } }) : null
  if (!row || !project) throw certificateNotFound(id)
  const access = await resolveProjectAccess(deps.prisma, actor, project.name).catch((err: unknown) => {
    throw err instanceof DomainError && err.kind === 'notFound' ? certificateNotFound(id) : err
  })
  await ensureTransferAdapters()
  const adapter = adapterFor(TYPE)
  const ctx: AdapterContext = { db: deps.prisma, deps, actor, access }
  requireExportImport(ctx, adapter)
  if (row.kind !== kind) throw certificateNotFound(id)
  const [object] = await adapter.findByName(ctx, row.name, kind)
  if (!object) throw certificateNotFound(id)
  return {
    id: row.id,
    certKind: kind,
    projectName: project.name,
    name: row.name,
    transfer: { formatVersion: 1 as const, role: 'SELECTED' as const, type: object.type, kind: object.kind, name: object.name, data: object.data, secrets: packageSecrets(deps.keyring, object.secrets, 'CIPHERTEXT_VERBATIM'), dependencies: object.dependencies },
  }
}

export const promotionCertificateInput = z
  .object({
    transfer: objectFileSchema.extend({ role: objectFileSchema.shape.role.optional() }).describe('the transfer object of GET …/promotion-certificates/{certKind}/{id}/full'),
    name: objectName.nullish().describe('the name in the target (default: the source\'s)'),
    overwrite: z.boolean().default(false).describe('replace an object of the same kind and name in the target (default: refused)'),
    // the rest of the full read's answer, sent back as it came: not applied
    id: z.string().max(200).nullish(),
    certKind: z.string().max(50).nullish(),
    projectName: z.string().max(200).nullish(),
    status: z.string().max(20).nullish(),
    success: z.boolean().nullish(),
  })
  .strict()
  .meta({ id: 'PromotionCertificateInput' })

/**
 * POST /apiops/projects/{projectName}/promotion-certificates: the object created (or, with overwrite, replaced) in the
 * project through the CERTIFICATE adapter, in one transaction; nothing deployed. CERTIFICATE MANAGE.
 */
export async function createPromotionCertificate(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  const access = await authorizeInProject(deps.prisma, actor, projectName, 'CERTIFICATE', 'MANAGE')
  if (raw === undefined || raw === null) throw malformed('Request body is required', { reason: 'bodyRequired' })
  const body = parseInput(promotionCertificateInput, raw)
  if (body.transfer.type.toUpperCase() !== TYPE) throw malformed(`transfer.type: must be ${TYPE}`, { field: 'transfer.type' })
  const kind = certKindOf(body.transfer.kind, 'transfer.kind')
  const name = body.name ?? body.transfer.name
  await ensureTransferAdapters()
  const adapter = adapterFor(TYPE)
  const ctx: AdapterContext = { db: deps.prisma, deps, actor, access }
  const existing = (await adapter.findByName(ctx, name, kind))[0]
  if (existing && !body.overwrite) throw new DomainError('conflict', 'nameAlreadyExists', `${kind} '${name}' already exists in project '${access.project.name}'; set overwrite to replace it`, { field: 'name', name })
  const label = refLabel({ type: TYPE, kind, name })
  const opened = openPackageSecrets(deps.keyring, label, body.transfer.secrets)
  const object = { type: TYPE, kind, name, data: body.transfer.data, secrets: opened.secrets, dependencies: body.transfer.dependencies, uncarriedSecrets: opened.uncarried }
  const targetEnvironments = (await deps.prisma.projectEnvironment.findMany({ where: { projectId: access.project.id }, include: { environment: true } })).map((l) => l.environment.name)
  const advisories: Advisory[] = [...opened.advisories]
  await deps.prisma.$transaction(async (tx) => {
    advisories.push(...(await adapter.write({ ...ctx, db: tx }, object, !!existing, { certEnvironmentMergeMethod: 'MATCH_BY_NAME', certEnvironmentUncoveredAction: 'FILL_FROM_PACKAGE', targetEnvironments })))
  })
  const row = await deps.prisma.storedObject.findUniqueOrThrow({ where: { projectId_type_kind_name: { projectId: access.project.id, type: TYPE, kind, name } } })
  return { id: row.id, certKind: kind, name, created: !existing, advisories }
}
