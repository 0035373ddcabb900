import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { requirePermission } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { mintPublicKey } from '../../platform/keys.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { findOrganization } from '../projects/organizations.js'

export const applicationInput = z.object({
  name: objectName,
  applicationKind: z.enum(['PORTAL', 'INTERNAL']).default('INTERNAL'),
  appStatus: z.enum(['ACTIVE', 'SUSPENDED', 'PENDING_DELETION', 'ARCHIVED']).default('ACTIVE'),
  referenceId: z.string().max(200).nullish(),
  description: z.string().max(1000).nullish(),
  organizationCode: z.string().nullish(),
  /** usernames of the credentials the application owns */
  consumers: z.array(z.string()).default([]),
})
export type ApplicationInput = z.input<typeof applicationInput>

export const applicationUpdate = applicationInput.omit({ name: true, appStatus: true }).partial().extend({ name: objectName.optional() })
export type ApplicationUpdate = z.input<typeof applicationUpdate>

const applicationNotFound = (name: string) => notFound(`Application '${name}' not found`, { application: name })

async function manage(db: Tx, actor: Actor, projectName: string) {
  const access = await resolveProjectAccess(db, actor, projectName)
  requirePermission(access, 'IDENTITY', 'MANAGE')
  return access.project
}

/** Links the named credentials of the project to the application as its consumers. */
async function adoptConsumers(db: Tx, projectId: string, applicationId: string, usernames: string[]) {
  const found = await db.credential.findMany({ where: { projectId, username: { in: usernames } }, select: { id: true, username: true } })
  const missing = usernames.find((u) => !found.some((c) => c.username === u))
  if (missing) throw notFound(`Credential '${missing}' not found`, { credential: missing })
  await db.credential.updateMany({ where: { id: { in: found.map((c) => c.id) } }, data: { applicationId } })
}

export async function insertApplication(db: Tx, projectId: string, raw: ApplicationInput) {
  const input = parseInput(applicationInput, raw)
  if (await db.application.findUnique({ where: { projectId_name: { projectId, name: input.name } } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Application '${input.name}' already exists`, { field: 'name' })
  }
  const org = input.organizationCode ? await findOrganization(db, projectId, input.organizationCode) : null
  const app = await db.application.create({
    data: {
      projectId,
      applicationKey: mintPublicKey('app'),
      name: input.name,
      applicationKind: input.applicationKind,
      appStatus: input.appStatus,
      referenceId: input.referenceId ?? null,
      description: input.description ?? null,
      organizationId: org?.id ?? null,
    },
  })
  await adoptConsumers(db, projectId, app.id, input.consumers)
  return app
}

export async function createApplication(db: Tx, actor: Actor, projectName: string, raw: ApplicationInput) {
  const project = await manage(db, actor, projectName)
  return insertApplication(db, project.id, raw)
}

export async function findApplication(db: Tx, projectId: string, name: string) {
  const app = await db.application.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!app) throw applicationNotFound(name)
  return app
}

export async function updateApplication(db: Tx, actor: Actor, projectName: string, name: string, raw: ApplicationUpdate) {
  const project = await manage(db, actor, projectName)
  const input = parseInput(applicationUpdate, raw)
  const app = await findApplication(db, project.id, name)
  const data: Prisma.ApplicationUncheckedUpdateInput = {
    name: input.name,
    applicationKind: input.applicationKind,
    referenceId: input.referenceId,
    description: input.description,
  }
  if (input.organizationCode !== undefined) {
    data.organizationId = input.organizationCode ? (await findOrganization(db, project.id, input.organizationCode)).id : null
  }
  if (input.name && input.name !== name && (await db.application.findUnique({ where: { projectId_name: { projectId: project.id, name: input.name } } }))) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Application '${input.name}' already exists`, { field: 'name' })
  }
  if (input.consumers) {
    await db.credential.updateMany({ where: { applicationId: app.id }, data: { applicationId: null } })
    await adoptConsumers(db, project.id, app.id, input.consumers)
  }
  return db.application.update({ where: { id: app.id }, data })
}

export async function deleteApplication(db: Tx, actor: Actor, projectName: string, name: string): Promise<boolean> {
  const project = await manage(db, actor, projectName)
  const app = await findApplication(db, project.id, name)
  await db.application.delete({ where: { id: app.id } })
  return true
}

export async function listApplications(db: Tx, actor: Actor, projectName: string) {
  const access = await resolveProjectAccess(db, actor, projectName)
  requirePermission(access, 'IDENTITY', 'VIEW')
  return db.application.findMany({ where: { projectId: access.project.id }, orderBy: { name: 'asc' } })
}
