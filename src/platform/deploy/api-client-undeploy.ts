import type { Prisma } from '../../generated/prisma/client.js'
import type { Deps, Tx } from '../context.js'
import { projectEnvironments } from './project.js'
import { pushBatchWithOutbox, type BatchItem } from './batch.js'
import type { DeployMessage } from './pusher.js'

// The undeploy of API clients a delete removes, below every module that deletes them: an API client or application
// delete (identity), a credential delete (credentials: the clients it owns as a consumer go with it, cascade) and a
// declarative sync. The outbox subjects are the API client runtime's (identity/api-client-runtime.ts).

export const API_CLIENT_SUBJECT_KIND = 'apiClient'
export const apiClientSubjectPrefix = (apiClientId: string) => `${API_CLIENT_SUBJECT_KIND}:${apiClientId}:`
const subjectPrefix = apiClientSubjectPrefix

/** An API client a delete removes, as read before the delete: what its undeploy after the commit needs. */
export interface RemovedApiClient { id: string; apiClientKey: string; clientId: string; projectId: string; projectName: string; revision: number }

/**
 * The API clients a delete is about to remove (read in the delete's transaction, before it): an API client delete,
 * an application's (its clients go with it), a declared application's list that leaves a client out.
 */
export async function apiClientsToUndeploy(db: Tx, where: Prisma.ApiClientWhereInput): Promise<RemovedApiClient[]> {
  const rows = await db.apiClient.findMany({
    where, orderBy: { clientId: 'asc' },
    select: { id: true, apiClientKey: true, clientId: true, projectId: true, project: { select: { name: true } }, runtime: { select: { revision: true } } },
  })
  return rows.map((r) => ({ id: r.id, apiClientKey: r.apiClientKey, clientId: r.clientId, projectId: r.projectId, projectName: r.project.name, revision: r.runtime?.revision ?? 0 }))
}

/** One removed client's undeploy: success when every environment acknowledged it (the others are in the outbox). */
export interface ApiClientUndeploy { clientId: string; success: boolean; message: string }

/**
 * After the delete committed: an UNDEPLOY of each removed client to every environment of its project, as a revoke
 * undeploys it. What an environment did not acknowledge is handed to the retry outbox (subject `apiClient:<id>:…`,
 * its older undelivered rows retired first: a pending DEPLOY of a deleted client must not be delivered after it).
 */
export async function undeployRemovedApiClients(deps: Pick<Deps, 'prisma' | 'deployer'>, removed: RemovedApiClient[]): Promise<ApiClientUndeploy[]> {
  const out: ApiClientUndeploy[] = []
  const byProject = new Map<string, RemovedApiClient[]>()
  for (const r of removed) byProject.set(r.projectId, [...(byProject.get(r.projectId) ?? []), r])
  for (const [projectId, clients] of byProject) {
    const environments = await projectEnvironments(deps.prisma, projectId)
    const items: BatchItem[] = clients.map((c) => {
      const message: DeployMessage = { action: 'UNDEPLOY', project: c.projectName, kind: 'API_CLIENT', name: c.clientId, revision: c.revision + 1, config: { apiClientKey: c.apiClientKey, clientId: c.clientId } }
      return { message, subject: `${subjectPrefix(c.id)}${c.revision + 1}`, supersedePrefix: subjectPrefix(c.id) }
    })
    const outcome = await pushBatchWithOutbox(deps, environments, items)
    clients.forEach((c, i) => {
      const failed = outcome.environmentResults.filter((r) => r.errors[i] !== null && r.errors[i] !== undefined)
      out.push({ clientId: c.clientId, success: !failed.length, message: failed.length ? failed.map((r) => `${r.environmentName}: ${r.errors[i]} (retried by the outbox)`).join('; ') : 'undeployed' })
    })
  }
  return out
}
