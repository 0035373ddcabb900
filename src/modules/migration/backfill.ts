import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { mintPublicKey } from '../../platform/keys.js'
import { inProjects, migrationScope } from './scope.js'

/** A client id for the credential's new API client: its username, or the first free `<username>-N`. */
async function freeClientId(deps: Deps, username: string): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? username : `${username}-${n}`
    if (!(await deps.prisma.apiClient.findUnique({ where: { clientId: candidate } }))) return candidate
  }
}

/**
 * POST /api/api-clients/migration/backfill: gives every credential that has no migrated API client one,
 * in DRAFT and without secret material (the carry-over fills it). A dry run writes nothing.
 */
export async function backfillApiClients(deps: Deps, actor: Actor, query: unknown) {
  const scope = await migrationScope(deps.prisma, actor, query)
  const credentials = await deps.prisma.credential.findMany({ where: inProjects(scope.projectIds), orderBy: { username: 'asc' } })
  const migrated = new Set(
    (await deps.prisma.apiClient.findMany({ where: { migratedFromCredentialId: { in: credentials.map((c) => c.consumerKey) } }, select: { migratedFromCredentialId: true } }))
      .map((c) => c.migratedFromCredentialId),
  )
  const rows = []
  for (const credential of credentials) {
    const base = { consumerKey: credential.consumerKey, username: credential.username }
    if (migrated.has(credential.consumerKey)) {
      rows.push({ ...base, outcome: 'ALREADY_MIGRATED' as const })
      continue
    }
    const clientId = await freeClientId(deps, credential.username)
    if (!scope.apply) {
      rows.push({ ...base, clientId, outcome: 'WOULD_CREATE' as const })
      continue
    }
    const client = await deps.prisma.apiClient.create({
      data: {
        projectId: credential.projectId,
        apiClientKey: mintPublicKey('acl'),
        clientId,
        name: credential.username,
        operationalState: credential.revokedAt ? 'REVOKED' : 'DRAFT',
        readiness: 'PENDING_SECRET',
        // a credential owned by an application hands its client to the application, so the client outlives it
        credentialId: credential.applicationId ? null : credential.id,
        applicationId: credential.applicationId,
        organizationId: credential.organizationId,
        migratedFromCredentialId: credential.consumerKey,
      },
    })
    rows.push({ ...base, clientId, apiClientKey: client.apiClientKey, outcome: 'CREATED' as const })
  }
  return {
    apply: scope.apply,
    scanned: credentials.length,
    createdCount: rows.filter((r) => r.outcome === 'CREATED').length,
    wouldCreateCount: rows.filter((r) => r.outcome === 'WOULD_CREATE').length,
    rows,
  }
}
