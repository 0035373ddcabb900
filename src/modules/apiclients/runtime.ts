import type { Prisma } from '../../generated/prisma/client.js'
import type { RuntimeDeploymentState } from '../../generated/prisma/enums.js'
import type { Deps } from '../../platform/context.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'

/** One environment's answer in the runtime deployment envelope (spec §2.6). */
export interface EnvironmentAck { name: string; acknowledged: boolean; detail?: string }

export interface RuntimeDeploymentView {
  state: RuntimeDeploymentState
  /** only on the durable read */
  revision?: number
  environments: EnvironmentAck[]
}

const clientWithOwners = { application: true, credential: true, organization: true, project: true } as const
type ClientWithOwners = Prisma.ApiClientGetPayload<{ include: typeof clientWithOwners }>

/**
 * The state the gateway enforces: a client whose owning application is suspended, or whose organization
 * is suspended, runs as SUSPENDED whatever its own stored state; the stored state is kept.
 */
export function effectiveState(client: ClientWithOwners): string {
  if (client.operationalState !== 'ACTIVE') return client.operationalState
  if (client.application?.appStatus === 'SUSPENDED' || client.organization?.suspended) return 'SUSPENDED'
  return 'ACTIVE'
}

/** What a gateway worker receives for an API client: never its secret material. */
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
  }
}

export const acksOf = (outcome: DeploymentOutcome): EnvironmentAck[] =>
  outcome.environmentResults.map((r) => (r.success ? { name: r.environmentName, acknowledged: true } : { name: r.environmentName, acknowledged: false, detail: r.message }))

export const stateOf = (acks: EnvironmentAck[]): RuntimeDeploymentState => (acks.every((a) => a.acknowledged) ? 'IN_SYNC' : 'DEGRADED')

/**
 * Pushes an API client's current runtime form to every environment of its project, then records the
 * outcome durably under a new revision. The stored client is never rolled back by a failed push.
 */
export async function pushApiClientRuntime(deps: Deps, apiClientId: string, action: 'DEPLOY' | 'UNDEPLOY' = 'DEPLOY'): Promise<RuntimeDeploymentView> {
  const client = await deps.prisma.apiClient.findUniqueOrThrow({ where: { id: apiClientId }, include: clientWithOwners })
  const previous = await deps.prisma.apiClientRuntime.findUnique({ where: { apiClientId } })
  const revision = (previous?.revision ?? 0) + 1
  const outcome = await deps.deployer.push(await projectEnvironments(deps.prisma, client.projectId), {
    action,
    project: client.project.name,
    kind: 'API_CLIENT',
    name: client.clientId,
    revision,
    config: apiClientRuntimeConfig(client),
  })
  const environments = acksOf(outcome)
  const state = stateOf(environments)
  await deps.prisma.apiClientRuntime.upsert({
    where: { apiClientId },
    create: { apiClientId, revision, state, environments: environments as unknown as Prisma.InputJsonValue },
    update: { revision, state, environments: environments as unknown as Prisma.InputJsonValue },
  })
  return { state, environments }
}

/** The durable record (GET …/runtime-deployment): null when the client was never pushed. */
export async function readApiClientRuntime(deps: Deps, apiClientId: string): Promise<RuntimeDeploymentView | null> {
  const record = await deps.prisma.apiClientRuntime.findUnique({ where: { apiClientId } })
  if (!record) return null
  return { state: record.state, revision: record.revision, environments: record.environments as unknown as EnvironmentAck[] }
}
