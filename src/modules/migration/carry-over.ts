import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { pushApiClientRuntime } from '../identity/api-client-runtime.js'
import { sourceMaterial } from './material.js'
import { inProjects, migrationScope } from './scope.js'

export type CarryOutcome =
  | 'WOULD_CARRY' | 'CARRIED' | 'CARRIED_RAW' | 'CARRIED_REFERENCE' | 'ALREADY_HAS_MATERIAL' | 'SOURCE_MISSING'
  | 'SKIPPED_EXTERNAL_IDENTITY_SOURCE' | 'SKIPPED_BLANK_SECRET' | 'SKIPPED_REVOKED' | 'FAILED_DECRYPT' | 'FAILED_ISSUE'

/** Client secrets longer than this are refused when issued (FAILED_ISSUE). */
export const MAX_SECRET_MATERIAL_LENGTH = 1024

export interface CarryRow {
  apiClientKey: string
  clientId: string
  /** the project's name: objects are addressed by name */
  projectId: string
  /** the consumerKey of the credential the client was migrated from */
  migratedFromCredentialId: string
  operationalState: string
  outcome: CarryOutcome
  detail: string
  secretVersionId?: string
  recoveryState?: 'AVAILABLE' | 'UNAVAILABLE'
  activated: boolean
}

const migratedClient = { project: true, secrets: { where: { retiredAt: null } } } as const
type MigratedClient = Prisma.ApiClientGetPayload<{ include: typeof migratedClient }>

class IssueError extends Error {}

/** Writes the next secret version for a client; one transaction per row, so one failure stops only its row. */
async function issueCarriedSecret(deps: Deps, client: MigratedClient, material: string, origin: string, recoveryState: string, activate: boolean) {
  if (material.length > MAX_SECRET_MATERIAL_LENGTH) throw new IssueError(`secret material is longer than ${MAX_SECRET_MATERIAL_LENGTH} characters`)
  return deps.prisma.$transaction(async (tx) => {
    const last = await tx.apiClientSecret.findFirst({ where: { apiClientId: client.id }, orderBy: { version: 'desc' } })
    const version = (last?.version ?? 0) + 1
    await tx.apiClientSecret.create({ data: { apiClientId: client.id, version, secretCipher: deps.keyring.encrypt(material), origin, recoveryState } })
    const activated = activate && client.operationalState === 'DRAFT'
    const updated = await tx.apiClient.update({
      where: { id: client.id },
      data: { readiness: 'READY', ...(activated ? { operationalState: 'ACTIVE', version: { increment: 1 } } : {}) },
    })
    return { version, activated, operationalState: updated.operationalState }
  })
}

async function carryOne(deps: Deps, client: MigratedClient, apply: boolean, activate: boolean): Promise<CarryRow> {
  const row = (outcome: CarryOutcome, detail: string, extra: Partial<CarryRow> = {}): CarryRow => ({
    apiClientKey: client.apiClientKey,
    clientId: client.clientId,
    projectId: client.project.name,
    migratedFromCredentialId: client.migratedFromCredentialId ?? '',
    operationalState: client.operationalState,
    outcome,
    detail,
    activated: false,
    ...extra,
  })
  if (client.operationalState === 'REVOKED') return row('SKIPPED_REVOKED', 'the API client is revoked')
  if (client.secrets.length > 0) return row('ALREADY_HAS_MATERIAL', `the API client already has secret version ${client.secrets.at(-1)!.version}`)
  const credential = await deps.prisma.credential.findUnique({ where: { consumerKey: client.migratedFromCredentialId ?? '' } })
  if (!credential) return row('SOURCE_MISSING', 'the credential it was migrated from no longer exists')
  if (credential.syncManaged) return row('SKIPPED_EXTERNAL_IDENTITY_SOURCE', 'the credential is managed by directory synchronization; its password is held there')
  const source = sourceMaterial(credential, deps.keyring)
  if (!('material' in source)) return row(source.kind, source.detail)
  if (!apply) return row('WOULD_CARRY', `would carry as ${source.kind}: ${source.detail}`)
  try {
    // a client migrated from a disabled credential gets its material but stays as it is
    const issued = await issueCarriedSecret(deps, client, source.material, source.kind, source.recoveryState, activate && credential.enabled)
    return row(source.kind, source.detail, {
      operationalState: issued.operationalState,
      secretVersionId: `${client.apiClientKey}:v${issued.version}`,
      recoveryState: source.recoveryState,
      activated: issued.activated,
    })
  } catch (err) {
    deps.logger.warn({ apiClientKey: client.apiClientKey, err: (err as Error).message }, 'secret carry-over failed to issue')
    return row('FAILED_ISSUE', err instanceof IssueError ? err.message : 'the secret could not be issued')
  }
}

/**
 * POST /api/api-clients/migration/secrets/carry-over (spec §2.6, §4.11): gives API clients migrated from
 * credentials the credential's password as their first secret. A dry run (apply=false) writes nothing.
 */
export async function carryOverSecrets(deps: Deps, actor: Actor, query: unknown) {
  const scope = await migrationScope(deps.prisma, actor, query)
  const activate = scope.apply && scope.activate
  const clients = await deps.prisma.apiClient.findMany({
    where: { migratedFromCredentialId: { not: null }, ...inProjects(scope.projectIds) },
    include: migratedClient,
    orderBy: [{ clientId: 'asc' }],
  })
  const rows: CarryRow[] = []
  for (const client of clients) rows.push(await carryOne(deps, client, scope.apply, activate))
  for (const activated of rows.filter((r) => r.activated)) {
    await pushApiClientRuntime(deps, clients.find((c) => c.apiClientKey === activated.apiClientKey)!.id)
  }
  const counts: Partial<Record<CarryOutcome, number>> = {}
  for (const r of rows) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1
  return {
    apply: scope.apply,
    activate,
    recoverySupported: true,
    scanned: rows.length,
    counts,
    activatedCount: rows.filter((r) => r.activated).length,
    rows,
  }
}
