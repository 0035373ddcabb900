import { z } from 'zod'
import type { Actor } from '../../platform/auth/actor.js'
import { requirePermission } from '../../platform/auth/permissions.js'
import type { Tx } from '../../platform/context.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../platform/scope/project-scope.js'
import { objectName } from '../../platform/validation/common.js'

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
  return db.apiProxy.create({ data: { projectId, name: input.name, kind: input.kind, groups: groupLinks(projectId, input.groups) } })
}

async function manage(db: Tx, actor: Actor, projectName: string) {
  const access = await resolveProjectAccess(db, actor, projectName)
  requirePermission(access, 'API_MANAGEMENT', 'MANAGE')
  return access.project
}

export async function createApiProxy(db: Tx, actor: Actor, projectName: string, raw: ApiProxyInput) {
  const project = await manage(db, actor, projectName)
  return insertApiProxy(db, project.id, raw)
}

/** Replaces the proxy's groups. */
export async function setApiProxyGroups(db: Tx, actor: Actor, projectName: string, name: string, groups: string[]) {
  const project = await manage(db, actor, projectName)
  const input = parseInput(apiProxyInput.pick({ groups: true }), { groups })
  const proxy = await db.apiProxy.findUnique({ where: { projectId_name: { projectId: project.id, name } } })
  if (!proxy) throw notFound(`API proxy '${name}' not found`, { apiProxy: name })
  return db.apiProxy.update({ where: { id: proxy.id }, data: { groups: { set: [], ...groupLinks(project.id, input.groups) } } })
}

export async function deleteApiProxy(db: Tx, actor: Actor, projectName: string, name: string): Promise<boolean> {
  const project = await manage(db, actor, projectName)
  const removed = await db.apiProxy.deleteMany({ where: { projectId: project.id, name } })
  if (!removed.count) throw notFound(`API proxy '${name}' not found`, { apiProxy: name })
  return true
}

export async function listApiProxies(db: Tx, actor: Actor, projectName: string) {
  const access = await resolveProjectAccess(db, actor, projectName)
  requirePermission(access, 'API_MANAGEMENT', 'VIEW')
  return db.apiProxy.findMany({ where: { projectId: access.project.id }, orderBy: { name: 'asc' } })
}
