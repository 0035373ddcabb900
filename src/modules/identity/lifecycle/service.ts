import type { AppStatus } from '../../../generated/prisma/enums.js'
import type { Actor } from '../../../platform/auth/actor.js'
import type { ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { lifecycleConflict, notFound } from '../../../platform/errors/domain-error.js'
import { authorizeInProject, refusePlatformScope } from '../../../platform/scope/project-scope.js'
import { pushApiClientRuntime } from '../api-client-runtime.js'
import { pushCredentialsByIds } from '../../credentials/service.js'
import { applicationInclude, applicationView, type ApplicationView } from '../views.js'

/** appStatus values from which an application never comes back: no suspend, resume or transfer. */
export const TERMINAL_APP_STATUSES: readonly AppStatus[] = ['PENDING_DELETION', 'ARCHIVED']

/** The preamble of every consumer/application action: platform scope refused, then IDENTITY MANAGE in the project. */
export async function manageIdentity(db: Tx, actor: Actor, projectName: string): Promise<ProjectAccess> {
  refusePlatformScope(projectName)
  return authorizeInProject(db, actor, projectName, 'IDENTITY', 'MANAGE')
}

export const applicationKeyNotFound = (applicationKey: string) =>
  notFound(`Application '${applicationKey}' not found`, { application: applicationKey })

/** An application of the project by its public key; a key of another project is not found, as an unknown one. */
export async function findApplicationByKey(db: Tx, projectId: string, applicationKey: string) {
  const app = await db.application.findUnique({ where: { applicationKey }, include: applicationInclude })
  if (!app || app.projectId !== projectId) throw applicationKeyNotFound(applicationKey)
  return app
}

/** API clients worth re-pushing: a revoked one stays as its revoke left it in the gateway. */
export const livePushableClients = { operationalState: { not: 'REVOKED' } } as const

/**
 * After a commit, brings the gateway in line with what was saved: each credential as it now stands
 * (DEPLOY when enabled, UNDEPLOY when disabled) and each API client's runtime form (its effective state
 * follows its application's and organization's). A failed push is reported by the deployer and never
 * undoes the commit; an unexpected error is logged, not thrown, because the answer describes the save.
 */
export async function pushAfterCommit(deps: Deps, credentialIds: string[], apiClientIds: string[]): Promise<void> {
  const results = await Promise.allSettled([
    // many credentials (a resume re-enabling an application's consumers) go as batches (RUNTIME.md §4.1)
    pushCredentialsByIds(deps, credentialIds),
    ...apiClientIds.map((id) => pushApiClientRuntime(deps, id)),
  ])
  for (const r of results) if (r.status === 'rejected') deps.logger.error({ err: r.reason }, 'push after an identity lifecycle change failed')
}

interface Move { from: AppStatus; to: AppStatus; verb: 'suspend' | 'resume' }
const SUSPEND: Move = { from: 'ACTIVE', to: 'SUSPENDED', verb: 'suspend' }
const RESUME: Move = { from: 'SUSPENDED', to: 'ACTIVE', verb: 'resume' }

/** Moves appStatus from → to, or tells that it already is `to` (a safe repeat); anything else is refused. */
async function moveStatus(tx: Tx, app: { id: string; applicationKey: string; appStatus: AppStatus }, move: Move): Promise<boolean> {
  let status = app.appStatus
  if (status === move.from) {
    // conditional on the status read, so that of two racing callers only one runs the effects
    const moved = await tx.application.updateMany({ where: { id: app.id, appStatus: move.from }, data: { appStatus: move.to, lifecycleRevision: { increment: 1 } } })
    if (moved.count === 1) return true
    status = (await tx.application.findUniqueOrThrow({ where: { id: app.id } })).appStatus
  }
  if (status === move.to) return false
  throw lifecycleConflict('application.terminal', `Application '${app.applicationKey}' is ${status} and cannot ${move.verb}`, { appStatus: status })
}

/** Disables the enabled credentials the application owns and marks exactly those; returns their ids. */
// credentials in username order: a batch carries its messages in a stable, documented order (RUNTIME.md §4.1)
async function disableOwnedCredentials(tx: Tx, applicationId: string): Promise<string[]> {
  const ids = (await tx.credential.findMany({ where: { applicationId, enabled: true }, select: { id: true }, orderBy: { username: 'asc' } })).map((c) => c.id)
  if (ids.length) {
    await tx.credential.updateMany({ where: { id: { in: ids } }, data: { enabled: false, suspendedByApplication: true, revision: { increment: 1 } } })
  }
  return ids
}

/**
 * Re-enables only what suspend disabled and nobody touched since: still marked (a hand-made enable or
 * disable clears the mark), still disabled and not revoked. Every mark is cleared either way.
 */
async function reenableMarkedCredentials(tx: Tx, applicationId: string): Promise<string[]> {
  const ids = (
    await tx.credential.findMany({ where: { applicationId, suspendedByApplication: true, enabled: false, revokedAt: null }, select: { id: true }, orderBy: { username: 'asc' } })
  ).map((c) => c.id)
  if (ids.length) {
    await tx.credential.updateMany({ where: { id: { in: ids } }, data: { enabled: true, suspendedByApplication: false, revision: { increment: 1 } } })
  }
  await tx.credential.updateMany({ where: { applicationId, suspendedByApplication: true }, data: { suspendedByApplication: false } })
  return ids
}

async function changeStatus(deps: Deps, actor: Actor, projectName: string, applicationKey: string, move: Move): Promise<ApplicationView> {
  const { project } = await manageIdentity(deps.prisma, actor, projectName)
  const { view, credentialIds, apiClientIds } = await deps.prisma.$transaction(async (tx) => {
    const app = await findApplicationByKey(tx, project.id, applicationKey)
    const changed = await moveStatus(tx, app, move)
    const credentialIds = !changed ? [] : move === SUSPEND ? await disableOwnedCredentials(tx, app.id) : await reenableMarkedCredentials(tx, app.id)
    // the clients' stored operationalState is kept: the push computes SUSPENDED from the application
    const apiClientIds = changed ? (await tx.apiClient.findMany({ where: { applicationId: app.id, ...livePushableClients }, select: { id: true } })).map((c) => c.id) : []
    const current = await tx.application.findUniqueOrThrow({ where: { id: app.id }, include: applicationInclude })
    return { view: applicationView(current), credentialIds, apiClientIds }
  })
  if (credentialIds.length || apiClientIds.length) {
    deps.logger.info({ project: projectName, application: applicationKey, action: move.verb, credentials: credentialIds.length }, 'application lifecycle change')
  }
  await pushAfterCommit(deps, credentialIds, apiClientIds)
  return view
}

/**
 * Spec §3.4 suspend: ACTIVE → SUSPENDED. Disables and undeploys exactly the enabled credentials the
 * application owns (recorded by suspendedByApplication), re-pushes its API clients (they run as
 * SUSPENDED), keeps every record, bumps lifecycleRevision. Suspending a suspended application answers
 * the current view and does nothing.
 */
export const suspendApplication = (deps: Deps, actor: Actor, projectName: string, applicationKey: string) =>
  changeStatus(deps, actor, projectName, applicationKey, SUSPEND)

/**
 * Spec §3.4 resume: SUSPENDED → ACTIVE. Re-enables and redeploys only the credentials suspend disabled
 * that were neither revoked nor enabled/disabled by someone else since, re-pushes the API clients, bumps
 * lifecycleRevision. Resuming an active application answers the current view and does nothing.
 */
export const resumeApplication = (deps: Deps, actor: Actor, projectName: string, applicationKey: string) =>
  changeStatus(deps, actor, projectName, applicationKey, RESUME)
