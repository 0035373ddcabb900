import type { Actor } from '../../platform/auth/actor.js'
import { requirePermission } from '../../platform/auth/permissions.js'
import type { Deps } from '../../platform/context.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { apiClientNotFound } from './service.js'

const applicationNotFound = (appId: string) => notFound(`Application '${appId}' not found`, { application: appId })

/**
 * The application behind a portal appId (its applicationKey), with IDENTITY VIEW in its project. Unknown and
 * out of scope are the same answer, as on every Common Contract route.
 */
async function portalApplication(deps: Deps, actor: Actor, appId: string) {
  const app = await deps.prisma.application.findUnique({ where: { applicationKey: appId }, include: { project: true } })
  if (!app) throw applicationNotFound(appId)
  const access = await resolveProjectAccess(deps.prisma, actor, app.project.name).catch((err: unknown) => {
    throw err instanceof DomainError && err.kind === 'notFound' ? applicationNotFound(appId) : err
  })
  requirePermission(access, 'IDENTITY', 'VIEW')
  return app
}

/** GET /apiportal/management/portal/api-clients/get-by-app-id/{appId}: the application's clients, by name. */
export async function apiClientsOfPortalApplication(deps: Deps, actor: Actor, appId: string) {
  const app = await portalApplication(deps, actor, appId)
  return deps.prisma.apiClient.findMany({ where: { applicationId: app.id }, orderBy: [{ name: 'asc' }, { apiClientKey: 'asc' }] })
}

/** …/get-by-app-id/{appId}/{apiClientKey}: a key the application does not own answers as not found. */
export async function apiClientOfPortalApplication(deps: Deps, actor: Actor, appId: string, apiClientKey: string) {
  const app = await portalApplication(deps, actor, appId)
  const client = await deps.prisma.apiClient.findFirst({ where: { applicationId: app.id, apiClientKey } })
  if (!client) throw apiClientNotFound(apiClientKey)
  return client
}
