import type { ApiProxy, ApiProxyPolicy, Prisma } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { can, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Deps, Tx } from '../../../platform/context.js'
import { notDeployed } from '../../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../../platform/deploy/pusher.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { objectName } from '../../../platform/validation/common.js'
import { deployedEnvironments, environmentsNamed, pushProxy } from '../proxies/automation/deploy.js'
import { pathName } from '../proxies/automation/inputs.js'
import { policyTypeDef } from './catalogue/index.js'
import { policyDeleteInput, policyWriteInput, type OperationMetadata, type PolicyDocument } from './inputs.js'
import { markAbsentSecrets, policySecretsView, sealPolicySecrets, secretPaths, type SecretPath } from './policy-secrets.js'
import { checkPolicyReferences } from './references.js'

// Policies on an API proxy's request, response and error pipelines, for all endpoints or one endpoint, in order
// (vendor 05-policies/crud). A pipeline is (proxy, endpoint or none, pipeline); `position` is 1-based and dense.
// Every write bumps the proxy's revision and, unless operationMetadata.deploy is false, redeploys the proxy.

export interface PolicyWrite {
  /** null when operationMetadata.deploy was false */
  deploymentResult: DeploymentOutcome | null
}

const proxyNotFound = (name: string) => notFound(`API proxy '${name}' not found`, { apiProxy: name })

function policyNameOf(raw: string): string {
  const parsed = objectName.safeParse(raw)
  if (!parsed.success) throw malformed(`policyName: ${parsed.error.issues[0]?.message ?? 'is invalid'}`, { field: 'policyName' })
  return parsed.data
}

async function findProxy(db: Tx, projectId: string, rawName: string): Promise<ApiProxy> {
  const name = pathName(rawName, 'apiProxyName')
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!proxy) throw proxyNotFound(name)
  return proxy
}

/** The endpoint an ENDPOINT-scoped operation names (method + path of the proxy's unversioned endpoints); null for ALL. */
async function targetEndpointId(db: Tx, proxy: ApiProxy, meta: OperationMetadata): Promise<string | null> {
  if (meta.targetScope === 'ALL') return null
  const path = meta.targetEndpoint!.length > 1 ? meta.targetEndpoint!.replace(/\/+$/, '') : meta.targetEndpoint!
  const endpoint = await db.gatewayEndpoint.findFirst({ where: { apiProxyId: proxy.id, version: '', path, method: meta.targetEndpointHTTPMethod! }, select: { id: true } })
  if (!endpoint) {
    throw notFound(`operationMetadata.targetEndpoint: endpoint ${meta.targetEndpointHTTPMethod} ${path} not found in API proxy '${proxy.name}'`, { field: 'operationMetadata.targetEndpoint', apiProxy: proxy.name })
  }
  return endpoint.id
}

/** The environments a write deploys to: those listed, else where the proxy runs now. Unknown names are a 400. */
async function deployTargets(db: Tx, access: ProjectAccess, proxy: ApiProxy, meta: OperationMetadata) {
  if (meta.deploy === false) return null
  const names = meta.deployTargetEnvironmentNameList ?? []
  return names.length ? environmentsNamed(db, access, names, 'operationMetadata.deployTargetEnvironmentNameList') : deployedEnvironments(db, access, proxy.id)
}

async function deployAfter(deps: Deps, access: ProjectAccess, proxy: ApiProxy, targets: Awaited<ReturnType<typeof deployTargets>>): Promise<DeploymentOutcome | null> {
  if (!targets) return null
  if (!can(access, 'API_MANAGEMENT', 'DEPLOY_UNDEPLOY')) return notDeployed(targets, `deploying needs API_MANAGEMENT DEPLOY_UNDEPLOY in project '${access.project.name}'`)
  return pushProxy(deps, access.project.name, proxy, targets)
}

const pipelineOf = (apiProxyId: string, endpointId: string | null, pipeline: string) => ({ apiProxyId, endpointId, pipeline })

/** Opens a slot at `order` (1-based; null or past the end: the end) and returns the position to use. */
async function openSlot(tx: Tx, where: ReturnType<typeof pipelineOf>, order: number | null | undefined): Promise<number> {
  const size = await tx.apiProxyPolicy.count({ where })
  if (!order || order > size) return size + 1
  await tx.apiProxyPolicy.updateMany({ where: { ...where, position: { gte: order } }, data: { position: { increment: 1 } } })
  return order
}

/** Closes the gap a policy leaves at `position`. */
const closeSlot = (tx: Tx, where: ReturnType<typeof pipelineOf>, position: number) =>
  tx.apiProxyPolicy.updateMany({ where: { ...where, position: { gt: position } }, data: { position: { decrement: 1 } } })

/**
 * A validated policy as stored: its configuration (the policy without its name, which is the path's), its secrets
 * sealed (the `kept` ones taken from `stored`, the policy's configuration before this write). Policies stored before
 * the catalogue, or with their secrets in clear, stay as they were until their next write (docs/policy-catalogue.md).
 */
const policyFields = (deps: Deps, policy: PolicyDocument, kept: SecretPath[] = [], stored: unknown = null) => {
  const { name: _ignored, ...config } = sealPolicySecrets(deps.keyring, policy, kept, stored)
  return { type: policy.type, description: policy.description ?? null, active: policy.active, config: config as Prisma.InputJsonValue }
}

const manage = (db: Tx, actor: Actor, projectName: string) => authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'MANAGE')

const bump = (tx: Tx, proxyId: string) => tx.apiProxy.update({ where: { id: proxyId }, data: { revision: { increment: 1 } } })

/** The body with its policy replaced by the marked one. */
const withPolicy = (body: object, marked: { policy: unknown; kept: SecretPath[] }) => ({ body: { ...body, policy: marked.policy }, kept: marked.kept })

/**
 * What an add and an update of a policy both start from: MANAGE, the validated body, the proxy and where to deploy.
 * On an update (`keepSecrets`), a secret the stored policy holds and the body leaves out is kept: `kept` names them.
 */
async function policyWrite(deps: Deps, actor: Actor, projectName: string, proxyName: string, rawPolicyName: string, body: unknown, keepSecrets = false) {
  const access = await manage(deps.prisma, actor, projectName)
  const name = policyNameOf(rawPolicyName)
  let kept: SecretPath[] = []
  let raw = body ?? {}
  if (keepSecrets && raw && typeof raw === 'object' && 'policy' in raw) {
    const stored = await deps.prisma.apiProxyPolicy.findFirst({ where: { nameKey: name.toLowerCase(), apiProxy: { projectId: access.project.id, name: objectName.safeParse(proxyName).data ?? proxyName } }, select: { config: true } })
    if (stored) ({ body: raw, kept } = withPolicy(raw, markAbsentSecrets((raw as { policy: unknown }).policy, secretPaths(stored.config))))
  }
  const input = parseInput(policyWriteInput, raw)
  const meta = input.operationMetadata
  const current = await findProxy(deps.prisma, access.project.id, proxyName)
  const targets = await deployTargets(deps.prisma, access, current, meta)
  await checkPolicyReferences(deps, actor, access, input.policy)
  return { access, name, input, meta, current, targets, kept }
}

/** POST …/policies/{policyName}/: adds the policy at `order` (or at the end) of the target pipeline. */
export async function addPolicy(deps: Deps, actor: Actor, projectName: string, proxyName: string, rawPolicyName: string, body: unknown): Promise<PolicyWrite> {
  const { access, name, input, meta, current, targets } = await policyWrite(deps, actor, projectName, proxyName, rawPolicyName, body)
  const notAddable = policyTypeDef(input.policy.type)?.notAddable
  if (notAddable) throw malformed(`policy.type: ${notAddable}`, { field: 'policy.type', reason: 'policyTypeNotAddable', type: input.policy.type })
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const endpointId = await targetEndpointId(tx, current, meta)
    const clash = await tx.apiProxyPolicy.findUnique({ where: { apiProxyId_nameKey: { apiProxyId: current.id, nameKey: name.toLowerCase() } }, select: { name: true } })
    if (clash) throw new DomainError('conflict', 'nameAlreadyExists', `A policy named '${clash.name}' already exists in API proxy '${current.name}'`, { field: 'policyName', policy: clash.name })
    const where = pipelineOf(current.id, endpointId, meta.targetPipeline)
    const position = await openSlot(tx, where, meta.order)
    await tx.apiProxyPolicy.create({ data: { ...where, name, nameKey: name.toLowerCase(), position, ...policyFields(deps, input.policy) } })
    return bump(tx, current.id)
  }).catch((err: unknown) => {
    if ((err as { code?: string } | null)?.code === 'P2002') throw new DomainError('conflict', 'nameAlreadyExists', `A policy named '${name}' already exists in API proxy '${current.name}'`, { field: 'policyName', policy: name })
    throw err
  })
  return { deploymentResult: await deployAfter(deps, access, proxy, targets) }
}

async function existingPolicy(tx: Tx, proxy: ApiProxy, name: string): Promise<ApiProxyPolicy> {
  const policy = await tx.apiProxyPolicy.findUnique({ where: { apiProxyId_nameKey: { apiProxyId: proxy.id, nameKey: name.toLowerCase() } } })
  if (!policy) throw notFound(`A policy named '${name}' does not exist in API proxy '${proxy.name}'`, { policy: name, apiProxy: proxy.name })
  return policy
}

/**
 * PUT …/policies/{policyName}/: replaces the policy's configuration; the scope and pipeline may move it, `order`
 * moves it within its pipeline (null keeps its place, or puts it at the end of a new pipeline). The type stays.
 */
export async function updatePolicy(deps: Deps, actor: Actor, projectName: string, proxyName: string, rawPolicyName: string, body: unknown): Promise<PolicyWrite> {
  const { access, name, input, meta, current, targets, kept } = await policyWrite(deps, actor, projectName, proxyName, rawPolicyName, body, true)
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const policy = await existingPolicy(tx, current, name)
    if (policy.type !== input.policy.type) {
      throw malformed(`policy.type: policy '${policy.name}' is a ${policy.type}; the type can not change (delete it and add a new one)`, { field: 'policy.type' })
    }
    const endpointId = await targetEndpointId(tx, current, meta)
    const from = pipelineOf(current.id, policy.endpointId, policy.pipeline)
    const to = pipelineOf(current.id, endpointId, meta.targetPipeline)
    const moves = from.endpointId !== to.endpointId || from.pipeline !== to.pipeline
    let position = policy.position
    if (moves || meta.order) {
      // take it out, then put it back where it belongs
      await tx.apiProxyPolicy.update({ where: { id: policy.id }, data: { position: 0, pipeline: '__moving' } })
      await closeSlot(tx, from, policy.position)
      position = await openSlot(tx, to, meta.order ?? (moves ? null : policy.position))
    }
    await tx.apiProxyPolicy.update({ where: { id: policy.id }, data: { endpointId: to.endpointId, pipeline: to.pipeline, position, ...policyFields(deps, input.policy, kept, policy.config) } })
    return bump(tx, current.id)
  })
  return { deploymentResult: await deployAfter(deps, access, proxy, targets) }
}

/** DELETE …/policies/{policyName}/: removes the policy from the scope and pipeline the body names. */
export async function deletePolicy(deps: Deps, actor: Actor, projectName: string, proxyName: string, rawPolicyName: string, body: unknown): Promise<PolicyWrite> {
  const access = await manage(deps.prisma, actor, projectName)
  const name = policyNameOf(rawPolicyName)
  const meta = parseInput(policyDeleteInput, body ?? {}).operationMetadata
  const current = await findProxy(deps.prisma, access.project.id, proxyName)
  const targets = await deployTargets(deps.prisma, access, current, meta)
  const proxy = await deps.prisma.$transaction(async (tx) => {
    const policy = await existingPolicy(tx, current, name)
    const endpointId = await targetEndpointId(tx, current, meta)
    if (policy.endpointId !== endpointId || policy.pipeline !== meta.targetPipeline) {
      const where = meta.targetScope === 'ALL' ? 'all endpoints' : `endpoint ${meta.targetEndpointHTTPMethod} ${meta.targetEndpoint}`
      throw notFound(`Policy '${policy.name}' is not in the ${meta.targetPipeline} pipeline of ${where} in API proxy '${current.name}'`, { policy: policy.name, field: 'operationMetadata' })
    }
    await tx.apiProxyPolicy.delete({ where: { id: policy.id } })
    await closeSlot(tx, pipelineOf(current.id, policy.endpointId, policy.pipeline), policy.position)
    return bump(tx, current.id)
  })
  return { deploymentResult: await deployAfter(deps, access, proxy, targets) }
}

export const policyView = (p: Pick<ApiProxyPolicy, 'name' | 'type' | 'description' | 'active' | 'position'>) => ({
  name: p.name, type: p.type, ...(p.description ? { description: p.description } : {}), active: p.active, order: p.position,
})

/** The typed view (GraphQL): the summary plus the type's family and the stored configuration with its name, secrets as `<field>Set`. */
export const policyConfigView = (p: ApiProxyPolicy) => ({
  ...policyView(p),
  family: policyTypeDef(p.type)?.family ?? null,
  config: policySecretsView({ ...(p.config as Record<string, unknown>), type: p.type, name: p.name }),
})

const lists = (rows: ApiProxyPolicy[], withConfig: boolean) => {
  const view = withConfig ? policyConfigView : policyView
  const of = (pipeline: string) => rows.filter((r) => r.pipeline === pipeline).sort((a, b) => a.position - b.position).map(view)
  return { requestPolicyList: of('REQUEST'), responsePolicyList: of('RESPONSE'), errorPolicyList: of('ERROR') }
}

/**
 * GET …/policies/: the proxy with its pipelines, and each endpoint with its own (API_MANAGEMENT VIEW). With
 * `withConfig` (the GraphQL typed view) each policy also carries its family and stored configuration.
 */
export async function listPolicies(db: Tx, actor: Actor, projectName: string, proxyName: string, { withConfig = false } = {}) {
  const access = await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')
  const proxy = await findProxy(db, access.project.id, proxyName)
  const [rows, endpoints] = await Promise.all([
    db.apiProxyPolicy.findMany({ where: { apiProxyId: proxy.id }, orderBy: [{ pipeline: 'asc' }, { position: 'asc' }] }),
    db.gatewayEndpoint.findMany({ where: { apiProxyId: proxy.id, version: '' }, orderBy: [{ path: 'asc' }, { method: 'asc' }], select: { id: true, path: true, method: true, enabled: true } }),
  ])
  return {
    name: proxy.name,
    type: proxy.kind,
    relativePath: proxy.relativePath,
    soapToRest: false,
    ...lists(rows.filter((r) => r.endpointId === null), withConfig),
    endpointList: endpoints.map((e) => ({ endpoint: e.path, active: e.enabled, httpMethod: e.method, ...lists(rows.filter((r) => r.endpointId === e.id), withConfig) })),
  }
}

