import type { Prisma } from '../../generated/prisma/client.js'
import type { RuntimeDeploymentState } from '../../generated/prisma/enums.js'
import type { Deps, Tx } from '../../platform/context.js'
import { enqueueDeliveries, supersedeDeliveries, type DeliveredHandler } from '../../platform/deploy/outbox.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import type { DeploymentOutcome, DeployMessage } from '../../platform/deploy/pusher.js'
import { API_CLIENT_SUBJECT_KIND as SUBJECT_KIND, apiClientSubjectPrefix as subjectPrefix } from '../../platform/deploy/api-client-undeploy.js'

/** One environment's answer in the runtime deployment envelope (spec §2.6). */
export interface EnvironmentAck { name: string; acknowledged: boolean; detail?: string }

export interface RuntimeDeploymentView {
  state: RuntimeDeploymentState
  /** only on the durable read */
  revision?: number
  environments: EnvironmentAck[]
}

export const clientWithOwners = {
  application: true,
  credential: true,
  organization: true,
  project: true,
  // the version of the live secret only: the sealed material never leaves the secrets module
  secrets: { where: { retiredAt: null }, orderBy: { version: 'desc' }, take: 1, select: { version: true } },
} as const satisfies Prisma.ApiClientInclude
export type ClientWithOwners = Prisma.ApiClientGetPayload<{ include: typeof clientWithOwners }>

/**
 * The state the gateway enforces: a client whose owning application is suspended, or whose organization
 * is suspended, runs as SUSPENDED whatever its own stored state; the stored state is kept.
 */
export function effectiveState(client: {
  operationalState: string
  application: { appStatus: string } | null
  organization: { suspended: boolean } | null
}): string {
  if (client.operationalState !== 'ACTIVE') return client.operationalState
  if (client.application?.appStatus === 'SUSPENDED' || client.organization?.suspended) return 'SUSPENDED'
  return 'ACTIVE'
}

/** What a gateway worker receives for an API client: never its secret material, only which version is live. */
export function apiClientRuntimeConfig(client: ClientWithOwners) {
  return {
    apiClientKey: client.apiClientKey,
    clientId: client.clientId,
    name: client.name,
    operationalState: client.operationalState,
    effectiveState: effectiveState(client),
    applicationName: client.application?.name ?? null,
    consumerUsername: client.credential?.username ?? null,
    organizationCode: client.organization?.code ?? null,
    validFrom: client.validFrom?.toISOString() ?? null,
    expiresAt: client.expiresAt?.toISOString() ?? null,
    version: client.version,
    secretVersion: client.secrets[0]?.version ?? null,
  }
}

export const acksOf = (outcome: DeploymentOutcome): EnvironmentAck[] =>
  outcome.environmentResults.map((r) => (r.success ? { name: r.environmentName, acknowledged: true } : { name: r.environmentName, acknowledged: false, detail: r.message }))

export const stateOf = (acks: EnvironmentAck[]): RuntimeDeploymentState => (acks.every((a) => a.acknowledged) ? 'IN_SYNC' : 'DEGRADED')

const asJson = (acks: EnvironmentAck[]) => acks as unknown as Prisma.InputJsonValue

/** Serialises writers of one client's runtime record across instances (row lock until the transaction ends). */
async function lockRuntime(tx: Tx, apiClientId: string) {
  await tx.$queryRaw`SELECT 1 FROM "ApiClientRuntime" WHERE "apiClientId" = ${apiClientId} FOR UPDATE`
  return tx.apiClientRuntime.findUnique({ where: { apiClientId } })
}

/**
 * Pushes an API client's current runtime form to every environment of its project, then records the
 * outcome durably under a new revision. The stored client is never rolled back by a failed push.
 *
 * A revoked client is undeployed, and its revocation must reach every environment: environments that did
 * not acknowledge are handed to the retry outbox and the outcome is PENDING (spec §2.6). Any newer push
 * supersedes the undelivered rows of an older one, since it carries newer state.
 */
export async function pushApiClientRuntime(deps: Deps, apiClientId: string, action: 'DEPLOY' | 'UNDEPLOY' = 'DEPLOY'): Promise<RuntimeDeploymentView> {
  const client = await deps.prisma.apiClient.findUniqueOrThrow({ where: { id: apiClientId }, include: clientWithOwners })
  const revoked = client.operationalState === 'REVOKED'
  const previous = await deps.prisma.apiClientRuntime.findUnique({ where: { apiClientId } })
  const revision = (previous?.revision ?? 0) + 1
  const environments = await projectEnvironments(deps.prisma, client.projectId)
  const message: DeployMessage = {
    action: revoked ? 'UNDEPLOY' : action,
    project: client.project.name,
    kind: 'API_CLIENT',
    name: client.clientId,
    revision,
    config: apiClientRuntimeConfig(client),
  }
  const acks = acksOf(await deps.deployer.push(environments, message))
  const unacknowledged = new Set(acks.filter((a) => !a.acknowledged).map((a) => a.name))
  const state: RuntimeDeploymentState = revoked && unacknowledged.size ? 'PENDING' : stateOf(acks)

  // Lock order (outbox rows, then the runtime record) matches the deliverer's, so the two never deadlock.
  await deps.prisma.$transaction(async (tx) => {
    await supersedeDeliveries(tx, subjectPrefix(apiClientId), `superseded by a newer push (revision ${revision})`)
    const current = await lockRuntime(tx, apiClientId)
    const recorded = Math.max(revision, (current?.revision ?? 0) + 1)
    await tx.apiClientRuntime.upsert({
      where: { apiClientId },
      create: { apiClientId, revision: recorded, state, environments: asJson(acks) },
      update: { revision: recorded, state, environments: asJson(acks) },
    })
    if (state === 'PENDING') {
      const subject = `${subjectPrefix(apiClientId)}${recorded}`
      await enqueueDeliveries(tx, environments.filter((e) => unacknowledged.has(e.name)).map((environment) => ({ environment, message, subject })))
    }
  })
  return { state, environments: acks }
}

/**
 * The outbox's "delivered" step for API client rows: the environment is now acknowledged in the durable
 * record (under a new revision), and the record is IN_SYNC once every environment is.
 */
export const apiClientDelivered: DeliveredHandler = async (tx, row) => {
  const apiClientId = row.subject.slice(SUBJECT_KIND.length + 1).split(':')[0]
  const current = await lockRuntime(tx, apiClientId)
  if (!current) return
  const acks = (current.environments as unknown as EnvironmentAck[]).map((a) => (a.name === row.environmentName ? { name: a.name, acknowledged: true } : a))
  const state: RuntimeDeploymentState = acks.every((a) => a.acknowledged) ? 'IN_SYNC' : current.state
  await tx.apiClientRuntime.update({ where: { apiClientId }, data: { revision: current.revision + 1, state, environments: asJson(acks) } })
}

export const API_CLIENT_OUTBOX_HANDLERS: Record<string, DeliveredHandler> = { [SUBJECT_KIND]: apiClientDelivered }

/** The durable record (GET …/runtime-deployment): null when the client was never pushed. */
export async function readApiClientRuntime(deps: Deps, apiClientId: string): Promise<RuntimeDeploymentView | null> {
  const record = await deps.prisma.apiClientRuntime.findUnique({ where: { apiClientId } })
  if (!record) return null
  return { state: record.state, revision: record.revision, environments: record.environments as unknown as EnvironmentAck[] }
}

export { apiClientsToUndeploy, undeployRemovedApiClients, type ApiClientUndeploy, type RemovedApiClient } from '../../platform/deploy/api-client-undeploy.js'
