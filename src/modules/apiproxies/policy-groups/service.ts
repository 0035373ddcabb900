import type { Prisma, StoredObject } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission, type PermissionLevel, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, notFound } from '../../../platform/errors/domain-error.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { sealPolicySecrets } from '../policies/policy-secrets.js'
import { checkPolicyReferences } from '../policies/references.js'
import { redeployWhereDeployed } from '../proxies/automation/deploy.js'
import { pathName, snapshotName } from '../global-policies/inputs.js'
import { policyGroupSnapshot, type PolicyGroupDocument } from './inputs.js'
import { POLICY_GROUP } from './runtime.js'
import { policyGroupView, type PolicyGroupView } from './views.js'

// Policy groups (vendor api-reference/policy-groups): the project's POLICY_GROUP stored objects, an ordered list of
// policies validated as proxy policies of their types, secrets sealed. A proxy runs a group through a proxy policy of
// type policy-group naming it (the vendor's policy-group page); such proxies are the group's embedders. Create only
// stores (the page); update redeploys the embedders where they run; delete detaches the group from them (their
// policy-group entries are removed) and redeploys them. API_MANAGEMENT VIEW to read, MANAGE to write.

const CATEGORIES = ['API_MANAGEMENT']
const LABEL = 'Policy group'

export interface PolicyGroupWrite { view: PolicyGroupView; deploymentResult: DeploymentOutcome | null }

async function groupAccess(db: Tx, actor: Actor, projectName: string, level: PermissionLevel): Promise<ProjectAccess> {
  const access = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(access, CATEGORIES, level)
  return access
}

const findGroup = (db: Tx, projectId: string, name: string) =>
  db.storedObject.findFirst({ where: { projectId, type: POLICY_GROUP, kind: '', name: { equals: name, mode: 'insensitive' } } })

async function requireGroup(db: Tx, projectId: string, rawName: string): Promise<StoredObject> {
  const name = pathName(rawName, 'policyGroupName')
  const row = await findGroup(db, projectId, name)
  if (!row) throw notFound(`Policy group (name: ${name}) was not found!`, { policyGroup: name })
  return row
}

/** The proxy policies of the project that run the group (type policy-group, named like it). */
const embeddersOf = (db: Tx, projectId: string, name: string) =>
  db.apiProxyPolicy.findMany({ where: { type: 'policy-group', nameKey: name.toLowerCase(), apiProxy: { projectId } }, select: { id: true, apiProxyId: true, endpointId: true, pipeline: true } })

export async function listPolicyGroups(db: Tx, actor: Actor, projectName: string): Promise<PolicyGroupView[]> {
  const access = await groupAccess(db, actor, projectName, 'VIEW')
  const rows = await db.storedObject.findMany({ where: { projectId: access.project.id, type: POLICY_GROUP }, orderBy: { name: 'asc' } })
  return rows.map(policyGroupView)
}

export async function getPolicyGroup(db: Tx, actor: Actor, projectName: string, name: string): Promise<PolicyGroupView> {
  const access = await groupAccess(db, actor, projectName, 'VIEW')
  return policyGroupView(await requireGroup(db, access.project.id, name))
}

/** Validates the group and the references of its policies; the content with every policy's secrets sealed. */
async function groupContent(deps: Deps, actor: Actor, access: ProjectAccess, body: unknown): Promise<Prisma.InputJsonValue> {
  const group: PolicyGroupDocument = policyGroupSnapshot(body)
  for (const policy of group.policyList) await checkPolicyReferences(deps, actor, access, policy as { type: string })
  return { ...group, policyList: group.policyList.map((p) => sealPolicySecrets(deps.keyring, p as never)) } as Prisma.InputJsonValue
}

/** POST …/policyGroups/: stores the group named in the body (not deployed; a name in use is refused). */
export async function createPolicyGroup(deps: Deps, actor: Actor, projectName: string, body: unknown): Promise<PolicyGroupWrite> {
  const access = await groupAccess(deps.prisma, actor, projectName, 'MANAGE')
  const name = snapshotName(body, null, LABEL)
  const content = await groupContent(deps, actor, access, body)
  const row = await deps.prisma.$transaction(async (tx) => {
    const clash = await findGroup(tx, access.project.id, name)
    if (clash) throw new DomainError('conflict', 'nameAlreadyExists', `Policy group (name: ${clash.name}) already exists!`, { field: 'name', policyGroup: clash.name })
    return tx.storedObject.create({ data: { projectId: access.project.id, type: POLICY_GROUP, kind: '', name, content } })
  })
  return { view: policyGroupView(row), deploymentResult: null }
}

/** PUT …/policyGroups/{policyGroupName}/: replaces the group (policyList whole); its embedders are redeployed where they run. */
export async function updatePolicyGroup(deps: Deps, actor: Actor, projectName: string, rawName: string, body: unknown): Promise<PolicyGroupWrite> {
  const access = await groupAccess(deps.prisma, actor, projectName, 'MANAGE')
  const current = await requireGroup(deps.prisma, access.project.id, rawName)
  snapshotName(body, pathName(rawName, 'policyGroupName'), LABEL)
  const content = await groupContent(deps, actor, access, body)
  const row = await deps.prisma.storedObject.update({ where: { id: current.id }, data: { content, revision: { increment: 1 } } })
  const embedders = await embeddersOf(deps.prisma, access.project.id, current.name)
  const deploymentResult = embedders.length ? await redeployWhereDeployed(deps, access, [...new Set(embedders.map((e) => e.apiProxyId))]) : null
  return { view: policyGroupView(row), deploymentResult }
}

/** DELETE …/policyGroups/{policyGroupName}/: removes the group and detaches it from its embedders, then redeploys them. */
export async function deletePolicyGroup(deps: Deps, actor: Actor, projectName: string, rawName: string): Promise<DeploymentOutcome | null> {
  const access = await groupAccess(deps.prisma, actor, projectName, 'MANAGE')
  const current = await requireGroup(deps.prisma, access.project.id, rawName)
  const embedders = await embeddersOf(deps.prisma, access.project.id, current.name)
  await deps.prisma.$transaction(async (tx) => {
    await tx.storedObject.delete({ where: { id: current.id } })
    await tx.apiProxyPolicy.deleteMany({ where: { id: { in: embedders.map((e) => e.id) } } })
    // the pipelines that lost an entry keep dense positions from 1
    const pipelines = new Map(embedders.map((e) => [`${e.apiProxyId}|${e.endpointId ?? ''}|${e.pipeline}`, e]))
    for (const e of pipelines.values()) {
      const rest = await tx.apiProxyPolicy.findMany({ where: { apiProxyId: e.apiProxyId, endpointId: e.endpointId, pipeline: e.pipeline }, orderBy: { position: 'asc' }, select: { id: true } })
      for (const [i, r] of rest.entries()) await tx.apiProxyPolicy.update({ where: { id: r.id }, data: { position: i + 1 } })
    }
  })
  return embedders.length ? redeployWhereDeployed(deps, access, [...new Set(embedders.map((e) => e.apiProxyId))]) : null
}
