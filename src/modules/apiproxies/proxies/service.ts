import { z } from 'zod'
import type { Actor } from '../../../platform/auth/actor.js'
import { type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Tx } from '../../../platform/context.js'
import { containsText, orderByFor, parsePaging, parseSearch, findPage, type SearchQuery } from '../../../platform/envelopes/paging.js'
import { DomainError, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeInProject } from '../../../platform/scope/project-scope.js'
import { objectName } from '../../../platform/validation/common.js'
import { viewPerProject } from '../../projects/projects.js'

export const API_PROXY_KINDS = ['REST', 'SOAP', 'GRPC', 'WEBSOCKET', 'AI', 'MCP', 'A2A'] as const

export const apiProxyInput = z.object({
  name: objectName,
  kind: z.enum(API_PROXY_KINDS).default('REST'),
  /** names of API proxy groups; missing groups are created */
  groups: z.array(objectName).default([]),
})
export type ApiProxyInput = z.input<typeof apiProxyInput>

const groupLinks = (projectId: string, groups: string[]) => ({
  connectOrCreate: groups.map((name) => ({ where: { projectId_name: { projectId, name } }, create: { projectId, name } })),
})

export async function insertApiProxy(db: Tx, projectId: string, raw: ApiProxyInput) {
  const input = parseInput(apiProxyInput, raw)
  if (await db.apiProxy.findUnique({ where: { projectId_name: { projectId, name: input.name } } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `API proxy '${input.name}' already exists`, { field: 'name' })
  }
  // an A2A proxy always has a routing mode; AGENT_EXPOSE is the spec's default (§4.5)
  const routingMode = input.kind === 'A2A' ? 'AGENT_EXPOSE' : null
  return db.apiProxy.create({ data: { projectId, name: input.name, kind: input.kind, routingMode, groups: groupLinks(projectId, input.groups) } })
}

const apiProxyNotFound = (name: string) => notFound(`API proxy '${name}' not found`, { apiProxy: name })

async function findApiProxy(db: Tx, projectId: string, name: string) {
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId, name } } })
  if (!proxy) throw apiProxyNotFound(name)
  return proxy
}

const manage = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'MANAGE')).project

/** The generic create door (any kind but MCP, whose required routing mode only the MCP door takes, spec §4.5). */
export async function createApiProxy(db: Tx, actor: Actor, projectName: string, raw: ApiProxyInput) {
  const project = await manage(db, actor, projectName)
  if (raw.kind === 'MCP') throw malformed('kind: create MCP proxies with createMcpProxy, which takes the required routingMode', { field: 'kind' })
  return insertApiProxy(db, project.id, raw)
}

/** Replaces the proxy's groups. */
export async function setApiProxyGroups(db: Tx, actor: Actor, projectName: string, name: string, groups: string[]) {
  const project = await manage(db, actor, projectName)
  const input = parseInput(apiProxyInput.pick({ groups: true }), { groups })
  const proxy = await findApiProxy(db, project.id, name)
  return db.apiProxy.update({ where: { id: proxy.id }, data: { groups: { set: [], ...groupLinks(project.id, input.groups) } } })
}

export async function deleteApiProxy(db: Tx, actor: Actor, projectName: string, name: string): Promise<boolean> {
  const project = await manage(db, actor, projectName)
  const removed = await db.apiProxy.deleteMany({ where: { projectId: project.id, name } })
  if (!removed.count) throw apiProxyNotFound(name)
  return true
}

const view = async (db: Tx, actor: Actor, projectName: string) =>
  (await authorizeInProject(db, actor, projectName, 'API_MANAGEMENT', 'VIEW')).project

export const API_PROXY_SORT = { defaultSort: 'name,asc', supported: ['name', 'kind', 'createdAt'] } as const

/** One page of the project's API proxies, those whose name or path contains the search when one is given. */
export async function pageApiProxies(db: Tx, actor: Actor, projectName: string, query: SearchQuery) {
  const project = await view(db, actor, projectName)
  const page = parsePaging(query, API_PROXY_SORT)
  const search = parseSearch(query.search)
  const where = { projectId: project.id, ...(search ? { OR: [{ name: containsText(search) }, { relativePath: containsText(search) }] } : {}) }
  return findPage(
    page,
    db.apiProxy.findMany({ where, orderBy: orderByFor(page, 'name'), skip: page.skip, take: page.take }),
    db.apiProxy.count({ where }),
  )
}

export async function getApiProxy(db: Tx, actor: Actor, projectName: string, name: string) {
  const project = await view(db, actor, projectName)
  return findApiProxy(db, project.id, name)
}

/** The API proxies of many projects in one query (relation batching); API_MANAGEMENT VIEW per project. */
export const apiProxiesOfProjects = (db: Tx, accesses: readonly ProjectAccess[]) =>
  viewPerProject(accesses, 'API_MANAGEMENT', (projectIds) => db.apiProxy.findMany({ where: { projectId: { in: projectIds } }, orderBy: { name: 'asc' } }))
