import type { Deps } from '../../platform/context.js'
import { projectEnvironments } from '../../platform/deploy/project.js'
import type { DeploymentOutcome } from '../../platform/deploy/pusher.js'
import type { AdapterContext } from '../../platform/transfer/registry.js'
import { removeConnection, undeployRemovedConnection } from '../connections/service.js'
import { undeployFromProject } from '../llm/common.js'
import { removeKnowledgeBase } from '../llm/knowledge/service.js'
import { removeProvider } from '../llm/providers/service.js'
import { pushDeclaredVariables, removeDeclaredVariable } from '../envvars/service.js'
import { removeGroup, undeployRemovedGroup } from '../apiproxies/groups/service.js'
import { removeApplication, updateApplication } from '../identity/applications.js'
import { apiClientsToUndeploy, undeployRemovedApiClients, type ApiClientUndeploy } from '../identity/api-client-runtime.js'
import { removeRlcl, undeployRemovedRlcl } from '../rlcl/service.js'
import { deletePlan } from '../limits/plans/service.js'
import { endAssignmentInTx, pushAssignments } from '../limits/assignments/service.js'
import { liveAssignmentNamed } from '../limits/assignments/transfer-adapter.js'
import { actorName } from '../../platform/auth/actor.js'

/**
 * What the transfer engine's adapters do not do (an import only creates and replaces): deleting and renaming an
 * object of a type, inside the apply's transaction, and the pushes a deletion needs after the commit.
 * A type without an entry here cannot be deleted or renamed by a plan (the plan refuses it, naming the type).
 */
export interface Removed {
  type: string
  name: string
  /** pushes to run after the commit */
  undeploy(deps: Deps): Promise<DeploymentOutcome[]>
}

interface Lifecycle {
  remove(ctx: AdapterContext, kind: string | null, name: string): Promise<Removed>
  /** absent: the type cannot be renamed by a plan (declarativeRenameUnsupported) */
  rename?(ctx: AdapterContext, kind: string | null, from: string, to: string): Promise<void>
}

const nothing = async (): Promise<DeploymentOutcome[]> => []

/** Removed API clients' undeploys as outcomes (a failed one is in the outbox). */
const outcomesOf = (undeploys: ApiClientUndeploy[]): DeploymentOutcome[] =>
  undeploys.map((u) => ({ success: u.success, message: `API client ${u.clientId}: ${u.message}`, responseTimeMs: 0, environmentResults: [] }))

const storedObject: Lifecycle = {
  async remove(ctx, kind, name) {
    await ctx.db.storedObject.deleteMany({ where: { projectId: ctx.access.project.id, type: typeOfKind(kind), kind: kind ?? '', name } })
    return { type: typeOfKind(kind), name, undeploy: nothing }
  },
  async rename(ctx, kind, from, to) {
    await ctx.db.storedObject.updateMany({ where: { projectId: ctx.access.project.id, type: typeOfKind(kind), kind: kind ?? '', name: from }, data: { name: to } })
  },
}
// stored objects of one type share the lifecycle; the type is bound per entry below
const typeOfKind = (kind: string | null) => (kind ? 'CERTIFICATE' : 'IP_GROUP')

const credential: Lifecycle = {
  async remove(ctx, _kind, name) {
    const row = await ctx.db.credential.findUniqueOrThrow({ where: { username: name }, include: { project: true } })
    // the API clients the credential owns as a consumer go with it (cascade): undeployed too
    const clients = await apiClientsToUndeploy(ctx.db, { credentialId: row.id })
    await ctx.db.credential.delete({ where: { id: row.id } })
    return {
      type: 'CREDENTIAL',
      name,
      async undeploy(deps) {
        const message = { action: 'UNDEPLOY' as const, kind: 'CREDENTIAL', name, revision: row.revision, config: { consumerKey: row.consumerKey }, project: row.project.name }
        return [await deps.deployer.push(await projectEnvironments(deps.prisma, row.projectId), message), ...outcomesOf(await undeployRemovedApiClients(deps, clients))]
      },
    }
  },
  async rename(ctx, _kind, from, to) {
    await ctx.db.credential.update({ where: { username: from }, data: { username: to, revision: { increment: 1 } } })
  },
}

const apiProxy: Lifecycle = {
  async remove(ctx, _kind, name) {
    const proxy = await ctx.db.apiProxy.findUniqueOrThrow({ where: { projectId_name: { projectId: ctx.access.project.id, name } } })
    const versions = await ctx.db.apiEndpointVersion.findMany({ where: { apiProxyId: proxy.id }, select: { version: true, revision: true } })
    const deployedTo = new Set((await ctx.db.apiProxyDeployment.findMany({ where: { apiProxyId: proxy.id }, select: { environmentName: true } })).map((d) => d.environmentName))
    await ctx.db.apiProxy.delete({ where: { id: proxy.id } })
    const project = ctx.access.project.name
    return {
      type: 'API_PROXY',
      name,
      // as the proxy DELETE does: the proxy where it was deployed, and every endpoint version
      async undeploy(deps) {
        const environments = await projectEnvironments(deps.prisma, proxy.projectId)
        const running = environments.filter((e) => deployedTo.has(e.name))
        return Promise.all([
          ...(running.length ? [deps.deployer.push(running, { action: 'UNDEPLOY', project, kind: 'API_PROXY', name, revision: proxy.revision, config: { proxyKind: proxy.kind } })] : []),
          ...versions.map((v) => deps.deployer.push(environments, { action: 'UNDEPLOY', project, kind: 'API_PROXY_VERSION', name: v.version ? `${name}/${v.version}` : name, revision: v.revision, config: { apiProxy: name, version: v.version } })),
        ])
      },
    }
  },
  async rename(ctx, _kind, from, to) {
    await ctx.db.apiProxy.update({ where: { projectId_name: { projectId: ctx.access.project.id, name: from } }, data: { name: to, revision: { increment: 1 } } })
  },
}

/**
 * Types whose module deletes in two steps, as its own DELETE does: the removal inside the apply's transaction (the
 * module's checks included, e.g. an LLM provider a knowledge base embeds with is refused), the undeploy after commit.
 */
const connection: Lifecycle = {
  async remove(ctx, _kind, name) {
    const found = await removeConnection(ctx.db, ctx.access.project.id, name)
    return { type: 'CONNECTION', name, undeploy: async (deps) => [await undeployRemovedConnection(deps, ctx.access, found)] }
  },
}

const llmProvider: Lifecycle = {
  async remove(ctx, _kind, name) {
    const row = await removeProvider(ctx.db, ctx.access, name)
    return { type: 'LLM_PROVIDER', name, undeploy: async (deps) => [await undeployFromProject(deps, ctx.access, 'LLM_PROVIDER', row, row.name)] }
  },
}

const knowledgeBase: Lifecycle = {
  async remove(ctx, _kind, name) {
    const row = await removeKnowledgeBase(ctx.db, ctx.access, name)
    return { type: 'KNOWLEDGE_BASE', name, undeploy: async (deps) => [await undeployFromProject(deps, ctx.access, 'KNOWLEDGE_BASE', row, row.name)] }
  },
}

const rlcl: Lifecycle = {
  async remove(ctx, _kind, name) {
    const row = await removeRlcl(ctx.db, ctx.access.project.id, name)
    // the undeploy goes through the outbox (retried there): no outcome to report
    return { type: 'RLCL', name, undeploy: async (deps) => (await undeployRemovedRlcl(deps, ctx.access, row), []) }
  },
}

/** As the application DELETE and PATCH do (IDENTITY MANAGE; its API clients go with it, as on the REST door). */
const application: Lifecycle = {
  async remove(ctx, _kind, name) {
    const clients = await removeApplication(ctx.db, ctx.actor, ctx.access.project.name, name)
    return { type: 'APPLICATION', name, undeploy: async (deps) => outcomesOf(await undeployRemovedApiClients(deps, clients)) }
  },
  async rename(ctx, _kind, from, to) {
    await updateApplication(ctx.db, ctx.actor, ctx.access.project.name, from, { name: to })
  },
}

/**
 * As the variable DELETE does (its undeploy after the commit). No rename: the gateway must undeploy the old name, which
 * a rename inside the apply cannot push (declarativeRenameUnsupported; rename with the REST update).
 */
const environmentVariable: Lifecycle = {
  async remove(ctx, _kind, name) {
    const row = await removeDeclaredVariable(ctx.db, ctx.access.project.id, name)
    return { type: 'ENVIRONMENT_VARIABLE', name, undeploy: async (deps) => [(await pushDeclaredVariables(deps, ctx.access, [], [row]))!] }
  },
}

/** As the group DELETE does: its proxies stay; undeployed where it ran after the commit. No rename (the old name would keep running). */
const apiProxyGroup: Lifecycle = {
  async remove(ctx, _kind, name) {
    const removed = await removeGroup(ctx.db, ctx.access.project.id, name)
    return { type: 'API_PROXY_GROUP', name, undeploy: async (deps) => {
      const outcome = await undeployRemovedGroup(deps, ctx.access, removed)
      return outcome ? [outcome] : []
    } }
  },
}

/** As the plan DELETE does: only a never-published plan no assignment references (else limit.plan.notDeletable, the plan aborted). No rename: the key is the name. */
const limitPlan: Lifecycle = {
  async remove(ctx, _kind, planKey) {
    await deletePlan(ctx.db, ctx.actor, ctx.access.project.name, planKey)
    return { type: 'LIMIT_PLAN', name: planKey, undeploy: nothing }
  },
}

/** As the end action does (the REST door's endAssignmentInTx): the live assignment the scope names is ENDED (a DRAFT one too), then undeployed. No rename: the scope is the name. */
const limitAssignment: Lifecycle = {
  async remove(ctx, _kind, name) {
    const row = await liveAssignmentNamed(ctx, name)
    if (!row) throw new Error(`no live limit assignment '${name}'`)
    const { wasActive } = await endAssignmentInTx(ctx.db, { id: row.id, endedBy: actorName(ctx.actor), reason: 'REMOVED_BY_DECLARATIVE_SYNC', allowDraft: true })
    return {
      type: 'LIMIT_ASSIGNMENT', name,
      async undeploy(deps) {
        if (!wasActive) return []
        const summary = await pushAssignments(deps, [row.id])
        return [{ success: summary.failedEnvironmentPushes === 0, message: `limit assignment ${name}: ${summary.failedEnvironmentPushes ? 'an environment did not acknowledge the undeploy (the outbox retries it)' : 'undeployed'}`, responseTimeMs: 0, environmentResults: [] }]
      },
    }
  },
}

/**
 * As the API proxy DELETE does for an AI, MCP or A2A proxy (deleteApiProxyAndUndeploy): the proxy goes, then it is
 * undeployed from every environment of the project (a routed proxy is pushed to all of them on each write). No rename.
 */
const aiProxy: Lifecycle = {
  async remove(ctx, _kind, name) {
    const proxy = await ctx.db.apiProxy.findUniqueOrThrow({ where: { projectId_name: { projectId: ctx.access.project.id, name } } })
    await ctx.db.apiProxy.delete({ where: { id: proxy.id } })
    const project = ctx.access.project.name
    return {
      type: 'AI_PROXY', name,
      undeploy: async (deps) => [await deps.deployer.push(await projectEnvironments(deps.prisma, proxy.projectId), { action: 'UNDEPLOY', project, kind: 'API_PROXY', name, revision: proxy.revision, config: { proxyKind: proxy.kind } })],
    }
  },
}

const LIFECYCLES: Record<string, Lifecycle> = {
  IP_GROUP: storedObject,
  CERTIFICATE: storedObject,
  CREDENTIAL: credential,
  API_PROXY: apiProxy,
  CONNECTION: connection,
  LLM_PROVIDER: llmProvider,
  KNOWLEDGE_BASE: knowledgeBase,
  RLCL: rlcl,
  APPLICATION: application,
  ENVIRONMENT_VARIABLE: environmentVariable,
  API_PROXY_GROUP: apiProxyGroup,
  LIMIT_PLAN: limitPlan,
  LIMIT_ASSIGNMENT: limitAssignment,
  AI_PROXY: aiProxy,
}

export const lifecycleOf = (type: string): Lifecycle | undefined => LIFECYCLES[type]
