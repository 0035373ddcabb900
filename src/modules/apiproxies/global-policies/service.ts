import type { Prisma, StoredObject } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission, type PermissionLevel, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { sealPolicySecrets } from '../policies/policy-secrets.js'
import { checkPolicyReferences } from '../policies/references.js'
import { redeployWhereDeployed } from '../proxies/automation/deploy.js'
import { classOf, pathName, policySnapshot, snapshotName } from './inputs.js'
import { GLOBAL_POLICY } from './runtime.js'
import { globalPolicyView, typeOf, type GlobalPolicyView } from './views.js'

// Global policies (vendor api-reference/global-policies): the project's GLOBAL_POLICY stored objects (the type the
// export, import and transfer already carry), each a policy of our catalogue validated as a proxy policy of its type,
// secrets sealed. They apply to every API proxy of the project: a write bumps the project's proxies and redeploys
// them where they run (proxies/automation/deploy.ts carries the global policies in each proxy's message).
// API_MANAGEMENT (the pages) or the type's own category GLOBAL_POLICY: VIEW to read, MANAGE to write.

export const GLOBAL_POLICY_CATEGORIES = ['API_MANAGEMENT', GLOBAL_POLICY]
const LABEL = 'Global policy'

export interface GlobalPolicyWrite { view: GlobalPolicyView; deploymentResult: DeploymentOutcome | null }

async function policyAccess(db: Tx, actor: Actor, projectName: string, level: PermissionLevel): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(access, GLOBAL_POLICY_CATEGORIES, level)
  return access
}

const policyNotFound = (name: string) => notFound(`Global policy (name: ${name}) was not found!`, { globalPolicy: name })

/** The project's global policy of that name, matched case-insensitively (the pages). */
const findPolicy = (db: Tx, projectId: string, name: string) =>
  db.storedObject.findFirst({ where: { projectId, type: GLOBAL_POLICY, kind: '', name: { equals: name, mode: 'insensitive' } } })

async function requirePolicy(db: Tx, projectId: string, rawName: string): Promise<StoredObject> {
  const name = pathName(rawName, 'policyName')
  const row = await findPolicy(db, projectId, name)
  if (!row) throw policyNotFound(name)
  return row
}

export async function listGlobalPolicies(db: Tx, actor: Actor, projectName: string): Promise<GlobalPolicyView[]> {
  const access = await policyAccess(db, actor, projectName, 'VIEW')
  const rows = await db.storedObject.findMany({ where: { projectId: access.project.id, type: GLOBAL_POLICY }, orderBy: { name: 'asc' } })
  return rows.map(globalPolicyView)
}

export async function getGlobalPolicy(db: Tx, actor: Actor, projectName: string, name: string): Promise<GlobalPolicyView> {
  const access = await policyAccess(db, actor, projectName, 'VIEW')
  return globalPolicyView(await requirePolicy(db, access.project.id, name))
}

/** The stored content: the validated policy (type and fields), its secrets sealed, and the `_class` it came as. */
function contentOf(deps: Deps, policy: ReturnType<typeof policySnapshot>): Prisma.InputJsonValue {
  const { name: _name, ...config } = sealPolicySecrets(deps.keyring, policy) as Record<string, unknown>
  return { ...config, _class: classOf(policy.type) } as Prisma.InputJsonValue
}

/**
 * POST …/globalPolicies/: creates the policy named in the body. A name the project already uses is refused (the
 * pages would store a second record; names address policies, so they stay unique). Secrets are sealed as given.
 */
export async function createGlobalPolicy(deps: Deps, actor: Actor, projectName: string, body: unknown): Promise<GlobalPolicyWrite> {
  const access = await policyAccess(deps.prisma, actor, projectName, 'MANAGE')
  const name = snapshotName(body, null, LABEL)
  const policy = policySnapshot(body)
  await checkPolicyReferences(deps, actor, access, policy)
  const row = await deps.prisma.$transaction(async (tx) => {
    const clash = await findPolicy(tx, access.project.id, name)
    if (clash) throw new DomainError('conflict', 'nameAlreadyExists', `Global policy (name: ${clash.name}) already exists!`, { field: 'name', globalPolicy: clash.name })
    return tx.storedObject.create({ data: { projectId: access.project.id, type: GLOBAL_POLICY, kind: '', name, content: contentOf(deps, policy) } })
  })
  return { view: globalPolicyView(row), deploymentResult: await redeployWhereDeployed(deps, access) }
}

/** PUT …/globalPolicies/{policyName}/: replaces the policy (same type; the body's name, if any, equal to the path's). */
export async function updateGlobalPolicy(deps: Deps, actor: Actor, projectName: string, rawName: string, body: unknown): Promise<GlobalPolicyWrite> {
  const access = await policyAccess(deps.prisma, actor, projectName, 'MANAGE')
  const current = await requirePolicy(deps.prisma, access.project.id, rawName)
  snapshotName(body, pathName(rawName, 'policyName'), LABEL)
  const policy = policySnapshot(body)
  if (typeOf(current) && policy.type !== typeOf(current)) {
    throw malformed(`_class: Policy type in body does not match the existing policy's type (${classOf(typeOf(current))}).`, { field: '_class' })
  }
  await checkPolicyReferences(deps, actor, access, policy)
  const row = await deps.prisma.storedObject.update({ where: { id: current.id }, data: { content: contentOf(deps, policy), revision: { increment: 1 } } })
  return { view: globalPolicyView(row), deploymentResult: await redeployWhereDeployed(deps, access) }
}

/** DELETE …/globalPolicies/{policyName}/: removes it; the project's proxies run without it from their redeploy on. */
export async function deleteGlobalPolicy(deps: Deps, actor: Actor, projectName: string, rawName: string): Promise<DeploymentOutcome | null> {
  const access = await policyAccess(deps.prisma, actor, projectName, 'MANAGE')
  const current = await requirePolicy(deps.prisma, access.project.id, rawName)
  await deps.prisma.storedObject.delete({ where: { id: current.id } })
  return redeployWhereDeployed(deps, access)
}
