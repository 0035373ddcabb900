import { z } from 'zod'
import type { Organization } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import type { Deps, Tx } from '../../platform/context.js'
import { lifecycleConflict, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { refusePlatformScope } from '../../platform/scope/project-scope.js'
import { findOrganization } from '../projects/organizations.js'
import { findApplicationByKey, livePushableClients, manageIdentity, pushAfterCommit, TERMINAL_APP_STATUSES } from './lifecycle/service.js'
import { applicationInclude, applicationView, consumerInclude, consumerView, type ApplicationView, type ConsumerView } from './views.js'

export const transferBody = z.object({
  organizationCode: z.string({ error: 'is required' }).trim().min(1, 'must not be blank').describe('code of the target organization in the same project'),
})

/** The target's code; a body that is not a JSON object counts as one without organizationCode. */
function targetCode(raw: unknown): string {
  const body = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}
  return parseInput(transferBody, body).organizationCode
}

/**
 * The order of checks, shared by both transfers: platform scope (400), organizationCode (400, "checked
 * first" of the transfer's own refusals, before anything is looked up), project and IDENTITY MANAGE
 * (404 / permissionDenied), the subject (404), the target organization (404), then the 409 reasons.
 */
async function preamble(deps: Deps, actor: Actor, projectName: string, raw: unknown) {
  refusePlatformScope(projectName)
  const code = targetCode(raw)
  const { project } = await manageIdentity(deps.prisma, actor, projectName)
  return { project, code }
}

/** Row locks for the transaction: the subject against a concurrent move, the organizations against a state change. */
const lockCredential = (tx: Tx, consumerKey: string) => tx.$executeRaw`SELECT 1 FROM "Credential" WHERE "consumerKey" = ${consumerKey} FOR UPDATE`
const lockApplication = (tx: Tx, applicationKey: string) => tx.$executeRaw`SELECT 1 FROM "Application" WHERE "applicationKey" = ${applicationKey} FOR UPDATE`
async function lockOrganizations(tx: Tx, projectId: string, currentId: string | null, targetCode: string) {
  await tx.$executeRaw`SELECT 1 FROM "Organization" WHERE "projectId" = ${projectId} AND "code" = ${targetCode} FOR SHARE`
  if (currentId) await tx.$executeRaw`SELECT 1 FROM "Organization" WHERE "id" = ${currentId} FOR SHARE`
}

/** The §7.4 refusals that depend on the two organizations; subject-specific ones are checked before. */
function refuseOrganizations(current: Organization | null, target: Organization, subject: string): void {
  if (current?.state === 'DELETE_IN_PROGRESS') throw lifecycleConflict('deleteInProgress', `The organization of ${subject} is being deleted`, { organization: current.code })
  if (current?.id === target.id) throw lifecycleConflict('transfer.sameOrganization', `${subject} already belongs to organization '${target.code}'`, { organization: target.code })
  if (target.state === 'DELETE_IN_PROGRESS') {
    throw lifecycleConflict('transfer.organizationDeleteInProgress', `Organization '${target.code}' is being deleted`, { organization: target.code })
  }
  if (target.state === 'TOMBSTONED') {
    throw lifecycleConflict('transfer.targetOrganizationTombstoned', `Organization '${target.code}' is deleted`, { organization: target.code })
  }
}

const consumerNotFound = (consumerKey: string) => notFound(`Consumer '${consumerKey}' not found`, { consumer: consumerKey })

/**
 * Spec §4.10: moves a consumer to another organization of its project. In one transaction the consumer,
 * its API clients and its entitlements (the legacy access list rows) are re-linked; then the consumer is
 * redeployed and its clients re-pushed. Not idempotent: repeating it is refused as sameOrganization.
 */
export async function transferConsumer(deps: Deps, actor: Actor, projectName: string, consumerKey: string, raw: unknown): Promise<ConsumerView> {
  const { project, code } = await preamble(deps, actor, projectName, raw)
  const { view, credentialIds, apiClientIds } = await deps.prisma.$transaction(async (tx) => {
    await lockCredential(tx, consumerKey)
    const consumer = await tx.credential.findUnique({ where: { consumerKey }, include: { organization: true, application: true } })
    if (!consumer || consumer.projectId !== project.id) throw consumerNotFound(consumerKey)
    await lockOrganizations(tx, project.id, consumer.organizationId, code)
    const target = await findOrganization(tx, project.id, code)
    const current = consumer.organizationId ? await tx.organization.findUniqueOrThrow({ where: { id: consumer.organizationId } }) : null
    const subject = `Consumer '${consumer.username}'`
    if (consumer.application && TERMINAL_APP_STATUSES.includes(consumer.application.appStatus)) {
      throw lifecycleConflict('transfer.applicationTerminal', `${subject} belongs to application '${consumer.application.name}', which is ${consumer.application.appStatus}`, { appStatus: consumer.application.appStatus })
    }
    if (consumer.syncManaged) throw lifecycleConflict('transfer.syncManaged', `${subject} is managed by directory synchronization`)
    refuseOrganizations(current, target, subject)

    const organizationId = target.id
    await tx.credential.update({ where: { id: consumer.id }, data: { organizationId, revision: { increment: 1 } } })
    await tx.apiClient.updateMany({ where: { credentialId: consumer.id }, data: { organizationId } })
    await tx.entitlement.updateMany({ where: { credentialId: consumer.id }, data: { organizationId } })
    const clients = await tx.apiClient.findMany({ where: { credentialId: consumer.id, ...livePushableClients }, select: { id: true } })
    const moved = await tx.credential.findUniqueOrThrow({ where: { id: consumer.id }, include: consumerInclude })
    return { view: consumerView(moved), credentialIds: [consumer.id], apiClientIds: clients.map((c) => c.id) }
  })
  deps.logger.info({ project: projectName, consumer: consumerKey, organization: code }, 'consumer transferred')
  // Tokens the gateway issued to the consumer live in the gateway, not here: this redeploy carries the
  // new organizationCode (and, for a suspended organization, trafficAllowed false), which re-links them.
  await pushAfterCommit(deps, credentialIds, apiClientIds)
  return view
}

/**
 * Spec §4.10: moves an application to another organization of its project. In one transaction the
 * application, the consumers it owns (with their API clients and entitlements), its own API clients and
 * entitlements, and its product subscriptions are re-linked; then the consumers are redeployed and every
 * client re-pushed. Refused as syncManaged when any owned consumer is directory-managed, since moving the
 * application would move that consumer too.
 */
export async function transferApplication(deps: Deps, actor: Actor, projectName: string, applicationKey: string, raw: unknown): Promise<ApplicationView> {
  const { project, code } = await preamble(deps, actor, projectName, raw)
  const { view, credentialIds, apiClientIds } = await deps.prisma.$transaction(async (tx) => {
    await lockApplication(tx, applicationKey)
    const app = await findApplicationByKey(tx, project.id, applicationKey)
    await lockOrganizations(tx, project.id, app.organizationId, code)
    const target = await findOrganization(tx, project.id, code)
    const current = app.organizationId ? await tx.organization.findUniqueOrThrow({ where: { id: app.organizationId } }) : null
    const subject = `Application '${app.name}'`
    if (TERMINAL_APP_STATUSES.includes(app.appStatus)) {
      throw lifecycleConflict('transfer.applicationTerminal', `${subject} is ${app.appStatus}`, { appStatus: app.appStatus })
    }
    const consumers = await tx.credential.findMany({ where: { applicationId: app.id }, select: { id: true, consumerKey: true, syncManaged: true } })
    const synced = consumers.find((c) => c.syncManaged)
    if (synced) throw lifecycleConflict('transfer.syncManaged', `${subject} owns a consumer managed by directory synchronization`, { consumer: synced.consumerKey })
    refuseOrganizations(current, target, subject)

    const organizationId = target.id
    const consumerIds = consumers.map((c) => c.id)
    const owned = { OR: [{ applicationId: app.id }, { credentialId: { in: consumerIds } }] }
    await tx.application.update({ where: { id: app.id }, data: { organizationId } })
    await tx.credential.updateMany({ where: { id: { in: consumerIds } }, data: { organizationId, revision: { increment: 1 } } })
    await tx.apiClient.updateMany({ where: owned, data: { organizationId } })
    await tx.entitlement.updateMany({ where: owned, data: { organizationId } })
    await tx.productSubscription.updateMany({ where: { applicationId: app.id }, data: { organizationId } })
    const clients = await tx.apiClient.findMany({ where: { ...owned, ...livePushableClients }, select: { id: true } })
    const moved = await tx.application.findUniqueOrThrow({ where: { id: app.id }, include: applicationInclude })
    return { view: applicationView(moved), credentialIds: consumerIds, apiClientIds: clients.map((c) => c.id) }
  })
  deps.logger.info({ project: projectName, application: applicationKey, organization: code }, 'application transferred')
  // Gateway-issued tokens of the consumers live in the gateway: the redeploy carries the new organizationCode.
  await pushAfterCommit(deps, credentialIds, apiClientIds)
  return view
}
