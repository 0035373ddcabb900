import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'

import type { Deps, Tx } from '../../platform/context.js'
import { containsText, orderByFor, parsePaging, parseSearch, findPage, type SearchQuery } from '../../platform/envelopes/paging.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { mintPublicKey } from '../../platform/keys.js'
import { authorizeInProject } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'
import { findApplication } from './applications.js'
import { apiClientsToUndeploy, undeployRemovedApiClients } from './api-client-runtime.js'

export const apiClientFields = z.object({
    name: objectName,
    clientId: z.string().trim().min(1).max(200).regex(/^[A-Za-z0-9._~-]+$/, 'may contain letters, digits, . _ ~ and - only'),
    operationalState: z.enum(['DRAFT', 'ACTIVE', 'SUSPENDED', 'REVOKED']).default('DRAFT'),
    readiness: z.enum(['READY', 'PENDING_SECRET', 'UNRESOLVED_DEPENDENCY']).optional(),
    validFrom: z.coerce.date().nullish(),
    expiresAt: z.coerce.date().nullish(),
    /** the owner: an application or a credential of the project */
    applicationName: z.string().nullish(),
    credentialUsername: z.string().nullish(),
})

export const apiClientInput = apiClientFields.refine((c) => !(c.applicationName && c.credentialUsername), { message: 'give applicationName or credentialUsername, not both', path: ['credentialUsername'] })
export type ApiClientInput = z.input<typeof apiClientInput>

export async function insertApiClient(db: Tx, projectId: string, raw: ApiClientInput) {
  const input = parseInput(apiClientInput, raw)
  if (await db.apiClient.findUnique({ where: { clientId: input.clientId } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `Client id '${input.clientId}' is already taken`, { field: 'clientId' })
  }
  const application = input.applicationName ? await findApplication(db, projectId, input.applicationName) : null
  const credential = input.credentialUsername
    ? await db.credential.findFirst({ where: { projectId, username: input.credentialUsername } })
    : null
  if (input.credentialUsername && !credential) throw notFound(`Credential '${input.credentialUsername}' not found`, { credential: input.credentialUsername })
  return db.apiClient.create({
    data: {
      projectId,
      apiClientKey: mintPublicKey('acl'),
      clientId: input.clientId,
      name: input.name,
      operationalState: input.operationalState,
      // READY means secret material exists; clients created here have none until one is issued or carried
      readiness: input.readiness ?? 'PENDING_SECRET',
      validFrom: input.validFrom ?? null,
      expiresAt: input.expiresAt ?? null,
      applicationId: application?.id ?? null,
      credentialId: credential?.id ?? null,
      // the owner's organization, so that a transfer of the owner finds and re-links it
      organizationId: application?.organizationId ?? credential?.organizationId ?? null,
    },
  })
}

const apiClientNotFound = (apiClientKey: string) => notFound(`API client '${apiClientKey}' not found`, { apiClient: apiClientKey })

const manage = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'MANAGE')).project

export async function createApiClient(db: Tx, actor: Actor, projectName: string, raw: ApiClientInput) {
  const project = await manage(db, actor, projectName)
  return insertApiClient(db, project.id, raw)
}

/** The delete, then (after its commit) the client's undeploy from every environment of its project (retried by the outbox). */
export async function deleteApiClient(deps: Deps, actor: Actor, projectName: string, apiClientKey: string): Promise<boolean> {
  const project = await manage(deps.prisma, actor, projectName)
  const removed = await deps.prisma.$transaction(async (tx) => {
    const clients = await apiClientsToUndeploy(tx, { projectId: project.id, apiClientKey })
    if (!clients.length) throw apiClientNotFound(apiClientKey)
    await tx.apiClient.deleteMany({ where: { id: { in: clients.map((c) => c.id) } } })
    return clients
  })
  await undeployRemovedApiClients(deps, removed)
  return true
}

const view = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'IDENTITY', 'VIEW')).project

export const API_CLIENT_SORT = { defaultSort: 'name,asc', supported: ['name', 'clientId', 'operationalState', 'createdAt'] } as const

/** One page of the project's API clients, those whose name or client id contains the search when one is given. */
export async function pageApiClients(db: Tx, actor: Actor, projectName: string, query: SearchQuery) {
  const project = await view(db, actor, projectName)
  const page = parsePaging(query, API_CLIENT_SORT)
  const search = parseSearch(query.search)
  const where = { projectId: project.id, ...(search ? { OR: [{ name: containsText(search) }, { clientId: containsText(search) }] } : {}) }
  return findPage(
    page,
    db.apiClient.findMany({ where, orderBy: orderByFor(page, 'apiClientKey'), skip: page.skip, take: page.take }),
    db.apiClient.count({ where }),
  )
}

export async function getApiClient(db: Tx, actor: Actor, projectName: string, apiClientKey: string) {
  const project = await view(db, actor, projectName)
  const client = await db.apiClient.findFirst({ where: { projectId: project.id, apiClientKey } })
  if (!client) throw apiClientNotFound(apiClientKey)
  return client
}
