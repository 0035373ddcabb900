import type { Actor } from '../../platform/auth/actor.js'
import type { Deps } from '../../platform/context.js'
import { inProjects, migrationScope } from './scope.js'

/**
 * GET /api/api-clients/migration/inventory: where the migration from credentials to API clients stands.
 * Reads only.
 */
export async function migrationInventory(deps: Deps, actor: Actor, query: unknown) {
  const scope = await migrationScope(deps.prisma, actor, query)
  const where = inProjects(scope.projectIds)
  const [credentials, clients] = await Promise.all([
    deps.prisma.credential.findMany({ where, select: { consumerKey: true, username: true }, orderBy: { username: 'asc' } }),
    deps.prisma.apiClient.findMany({
      where: { ...where, migratedFromCredentialId: { not: null } },
      select: { migratedFromCredentialId: true, operationalState: true, _count: { select: { secrets: { where: { retiredAt: null } } } } },
    }),
  ])
  const migrated = new Set(clients.map((c) => c.migratedFromCredentialId))
  return {
    credentials: credentials.length,
    migratedCredentials: credentials.filter((c) => migrated.has(c.consumerKey)).length,
    unmigrated: credentials.filter((c) => !migrated.has(c.consumerKey)).map((c) => ({ consumerKey: c.consumerKey, username: c.username })),
    migratedClients: clients.length,
    clientsWithoutSecret: clients.filter((c) => c._count.secrets === 0 && c.operationalState !== 'REVOKED').length,
    draftClients: clients.filter((c) => c.operationalState === 'DRAFT').length,
  }
}
