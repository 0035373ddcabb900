import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import type { Tx } from '../../platform/context.js'
import { DomainError } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { findApplication } from './applications.js'

const subscriptionInput = z.object({ applicationName: z.string().trim().min(1, 'must not be blank'), productName: objectName })
export type SubscriptionInput = z.input<typeof subscriptionInput>

/**
 * Records an application's (approved) subscription to an API product, in the application's current
 * organization; a transfer of the application re-links it. The portal owns subscriptions; this admin
 * write exists so that consoles and tests can create them (IDENTITY MANAGE).
 */
export async function createProductSubscription(db: Tx, actor: Actor, projectName: string, raw: SubscriptionInput) {
  const { project } = await authorizeInProject(db, actor, projectName, 'IDENTITY', 'MANAGE')
  const input = parseInput(subscriptionInput, raw)
  const app = await findApplication(db, project.id, input.applicationName)
  if (await db.productSubscription.findUnique({ where: { applicationId_productName: { applicationId: app.id, productName: input.productName } } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Application '${app.name}' already subscribes to '${input.productName}'`, { field: 'productName' })
  }
  return db.productSubscription.create({
    data: { projectId: project.id, applicationId: app.id, productName: input.productName, organizationId: app.organizationId },
    include: { application: true, organization: true },
  })
}
