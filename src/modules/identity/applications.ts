import crypto from 'node:crypto'
import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { type ProjectAccess } from '../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../platform/context.js'
import { apiClientsToUndeploy, undeployRemovedApiClients, type RemovedApiClient } from './api-client-runtime.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { mintPublicKey } from '../../platform/keys.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { findOrganization, organizationNotFound } from '../projects/organizations.js'
import { viewPerProject } from '../projects/projects.js'

const applicationFields = {
  name: objectName,
  applicationKind: z.enum(['PORTAL', 'INTERNAL']),
  referenceId: z.string().max(200).nullish(),
  description: z.string().max(1000).nullish(),
  organizationCode: z.string().nullish(),
  /** usernames of the credentials the application owns */
  consumers: z.array(z.string()),
}

export const applicationInput = z.object({
  ...applicationFields,
  applicationKind: applicationFields.applicationKind.default('INTERNAL'),
  appStatus: z.enum(['ACTIVE', 'SUSPENDED', 'PENDING_DELETION', 'ARCHIVED']).default('ACTIVE'),
  consumers: applicationFields.consumers.default([]),
})
export type ApplicationInput = z.input<typeof applicationInput>

// Built without the create defaults: zod fills defaults even in partial objects, which would reset
// the kind and drop every consumer on an update that does not mention them.
export const applicationUpdate = z.object(applicationFields).partial()
export type ApplicationUpdate = z.input<typeof applicationUpdate>

const applicationNotFound = (name: string) => notFound(`Application '${name}' not found`, { application: name })

const manage = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'MANAGE')).project

/** Ids of the named credentials of the project, refusing the first unknown one: called before any write. */
async function consumerIds(db: Tx, projectId: string, usernames: string[]) {
  const found = await db.credential.findMany({ where: { projectId, username: { in: usernames } }, select: { id: true, username: true } })
  const missing = usernames.find((u) => !found.some((c) => c.username === u))
  if (missing) throw notFound(`Credential '${missing}' not found`, { credential: missing })
  return found.map((c) => c.id)
}

/** Links the credentials to the application as its consumers. */
async function adoptConsumers(db: Tx, applicationId: string, credentialIds: string[]) {
  if (credentialIds.length) await db.credential.updateMany({ where: { id: { in: credentialIds } }, data: { applicationId } })
}

export async function insertApplication(db: Tx, projectId: string, raw: ApplicationInput) {
  const input = parseInput(applicationInput, raw)
  if (await db.application.findUnique({ where: { projectId_name: { projectId, name: input.name } } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Application '${input.name}' already exists`, { field: 'name' })
  }
  const org = input.organizationCode ? await findOrganization(db, projectId, input.organizationCode) : null
  const consumers = await consumerIds(db, projectId, input.consumers)
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
  await adoptConsumers(db, app.id, consumers)
  return app
}

const BY_PROJECT_ABOVE = 200

/**
 * Many new applications of one project, set-based (declarative applies of thousands): insertApplication's rules for
 * each (its schema, a name not taken in the project nor twice in the batch, the organization, every consumer a
 * credential of the project), checked for the whole batch with one query each, then one INSERT of the applications
 * and one UPDATE adopting their consumers (a credential two of them name goes to the later one, as one by one).
 * Refused entries are answered by index, in order, and not written; the others are. Returns the created rows by index.
 */
export async function insertApplications(db: Tx, projectId: string, raws: ApplicationInput[]): Promise<{ created: ({ id: string; name: string; organizationId: string | null } | undefined)[]; refused: Map<number, DomainError> }> {
  const refused = new Map<number, DomainError>()
  const inputs = raws.map((raw, i) => {
    try {
      return parseInput(applicationInput, raw)
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      refused.set(i, err)
      return undefined
    }
  })
  // many names: the project's rows by project, not a long list of names (a name or username list is planned on the
  // trigram index, slow while a bulk insert's rows sit in its pending list: seconds per thousand names)
  const names = [...new Set(inputs.flatMap((x) => (x ? [x.name] : [])))]
  const taken = new Set(names.length ? (await db.application.findMany({ where: { projectId, ...(names.length > BY_PROJECT_ABOVE ? {} : { name: { in: names } }) }, select: { name: true } })).map((r) => r.name) : [])
  const codes = [...new Set(inputs.flatMap((x) => (x?.organizationCode ? [x.organizationCode] : [])))]
  const orgs = new Map(codes.length ? (await db.organization.findMany({ where: { projectId, code: { in: codes } }, select: { id: true, code: true } })).map((o) => [o.code, o.id]) : [])
  const usernames = [...new Set(inputs.flatMap((x) => x?.consumers ?? []))]
  const holders = new Map(usernames.length ? (await db.credential.findMany({ where: { projectId, ...(usernames.length > BY_PROJECT_ABOVE ? {} : { username: { in: usernames } }) }, select: { id: true, username: true } })).map((c) => [c.username, c.id]) : [])
  const rows: Prisma.ApplicationCreateManyInput[] = []
  const created: ({ id: string; name: string; organizationId: string | null } | undefined)[] = []
  const owner = new Map<string, string>()
  inputs.forEach((input, i) => {
    if (!input) return
    if (taken.has(input.name)) return refused.set(i, new DomainError('conflict', 'nameAlreadyExists', `Application '${input.name}' already exists`, { field: 'name' }))
    const organizationId = input.organizationCode ? orgs.get(input.organizationCode) : null
    if (organizationId === undefined) return refused.set(i, organizationNotFound(input.organizationCode!))
    const missing = input.consumers.find((u) => !holders.has(u))
    if (missing) return refused.set(i, notFound(`Credential '${missing}' not found`, { credential: missing }))
    taken.add(input.name)
    const id = crypto.randomUUID()
    rows.push({
      id, projectId, applicationKey: mintPublicKey('app'), name: input.name, applicationKind: input.applicationKind, appStatus: input.appStatus,
      referenceId: input.referenceId ?? null, description: input.description ?? null, organizationId,
    })
    for (const u of input.consumers) owner.set(holders.get(u)!, id)
    created[i] = { id, name: input.name, organizationId }
  })
  if (rows.length) await db.application.createMany({ data: rows })
  if (owner.size) {
    await db.$executeRaw`
      UPDATE "Credential" AS c SET "applicationId" = o.app, "updatedAt" = (now() AT TIME ZONE 'UTC')
      FROM unnest(${[...owner.keys()]}::text[], ${[...owner.values()]}::text[]) AS o(id, app) WHERE c.id = o.id`
  }
  return { created, refused }
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
    const consumers = await consumerIds(db, project.id, input.consumers)
    await db.credential.updateMany({ where: { applicationId: app.id }, data: { applicationId: null } })
    await adoptConsumers(db, app.id, consumers)
  }
  return db.application.update({ where: { id: app.id }, data })
}

/** The application DELETE: the removal, then (after its commit) the undeploy of the API clients that went with it. */
export async function deleteApplication(deps: Deps, actor: Actor, projectName: string, name: string): Promise<boolean> {
  const removed = await deps.prisma.$transaction((tx) => removeApplication(tx, actor, projectName, name))
  await undeployRemovedApiClients(deps, removed)
  return true
}

/**
 * The removal itself, in `db` (the DELETE's transaction, or a declarative sync's): its API clients go with it; answers
 * them, for their undeploy after the commit (undeployRemovedApiClients).
 */
export async function removeApplication(db: Tx, actor: Actor, projectName: string, name: string): Promise<RemovedApiClient[]> {
  const project = await manage(db, actor, projectName)
  const app = await findApplication(db, project.id, name)
  const clients = await apiClientsToUndeploy(db, { applicationId: app.id })
  await db.application.delete({ where: { id: app.id } })
  return clients
}

const view = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'VIEW')).project

export async function getApplication(db: Tx, actor: Actor, projectName: string, name: string) {
  const project = await view(db, actor, projectName)
  return findApplication(db, project.id, name)
}

/** The applications of many projects in one query (relation batching); IDENTITY VIEW per project. */
export const applicationsOfProjects = (db: Tx, accesses: readonly ProjectAccess[]) =>
  viewPerProject(accesses, 'IDENTITY', (projectIds) => db.application.findMany({ where: { projectId: { in: projectIds } }, orderBy: { name: 'asc' } }))

/**
 * The credentials (consumers) of many projects in one query, under the same IDENTITY VIEW rule as
 * the credentials list; credentials/service.ts owns every credential write.
 */
export const credentialsOfProjects = (db: Tx, accesses: readonly ProjectAccess[]) =>
  viewPerProject(accesses, 'IDENTITY', (projectIds) => db.credential.findMany({ where: { projectId: { in: projectIds } }, orderBy: { username: 'asc' } }))
