import net from 'node:net'
import { z } from 'zod'
import type { StoredObject } from '../../../generated/prisma/client.js'
import type { Actor } from '../../../platform/auth/actor.js'
import { requireAnyPermission, type PermissionLevel, type ProjectAccess } from '../../../platform/auth/permissions.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { resolveProjectAccess } from '../../../platform/scope/project-scope.js'
import { objectName } from '../../../platform/validation/common.js'
import { insertStoredObject } from '../service.js'

/**
 * IP groups (vendor folder 11-ip-groups) are the StoredObject rows of type IP_GROUP that the bootstrap,
 * export and transfer already know: content `{ ips: [...], description? }`. PROJECT_MANAGEMENT (the
 * issue's category) or the type's own category IP_GROUP, at VIEW for reads and MANAGE for writes.
 */
const IP_GROUP = 'IP_GROUP'
const CATEGORIES = ['PROJECT_MANAGEMENT', IP_GROUP]
export const MAX_IPS_PER_GROUP = 10_000

/** An IPv4/IPv6 address or a CIDR range whose prefix fits the address family. */
export function isIpOrCidr(value: string): boolean {
  const slash = value.indexOf('/')
  if (slash < 0) return net.isIP(value) !== 0
  const family = net.isIP(value.slice(0, slash))
  const prefix = value.slice(slash + 1)
  if (!family || !/^\d{1,3}$/.test(prefix)) return false
  return Number(prefix) <= (family === 4 ? 32 : 128)
}

export const ipEntry = z.string().trim().max(64, 'must be at most 64 characters').refine(isIpOrCidr, 'must be an IP address or a CIDR range (e.g. 10.0.0.0/8)')

export const ipGroupBody = z.object({
  name: objectName,
  description: z.string().max(1000, 'must be at most 1000 characters').regex(/^[^\u0000]*$/, 'must not contain NUL characters').nullish(),
})
const pathName = z.object({ ipGroupName: objectName })
export type IpGroupBody = z.input<typeof ipGroupBody>

const ipList = z.array(ipEntry).max(MAX_IPS_PER_GROUP, `must hold at most ${MAX_IPS_PER_GROUP} entries`)
export const ipListBody = z.object({ ipList })
const nonEmptyIpListBody = z.object({ ipList: ipList.min(1, 'must not be empty') })

export interface IpGroupView { name: string; description: string | null; ipList: string[]; revision: number; updatedAt: Date }

interface IpGroupContent { description?: unknown; ips?: unknown; [key: string]: unknown }

const contentOf = (row: StoredObject): IpGroupContent => (row.content && typeof row.content === 'object' && !Array.isArray(row.content) ? (row.content as IpGroupContent) : {})
const ipsOf = (row: StoredObject): string[] => {
  const ips = contentOf(row).ips
  return Array.isArray(ips) ? ips.filter((ip): ip is string => typeof ip === 'string') : []
}

export const ipGroupView = (row: StoredObject): IpGroupView => {
  const description = contentOf(row).description
  return { name: row.name, description: typeof description === 'string' ? description : null, ipList: ipsOf(row), revision: row.revision, updatedAt: row.updatedAt }
}

async function access(db: Tx, actor: Actor, projectName: string, level: PermissionLevel): Promise<ProjectAccess> {
  const projectAccess = await resolveProjectAccess(db, actor, projectName)
  requireAnyPermission(projectAccess, CATEGORIES, level)
  return projectAccess
}

const ipGroupNotFound = (name: string) => notFound(`IP Group (${name}) is not found!`, { ipGroup: name })

async function findIpGroup(db: Tx, projectId: string, rawName: string): Promise<StoredObject> {
  const name = parseInput(pathName, { ipGroupName: rawName }).ipGroupName
  const row = await db.storedObject.findUnique({ where: { projectId_type_kind_name: { projectId, type: IP_GROUP, kind: '', name } } })
  if (!row) throw ipGroupNotFound(name)
  return row
}

export async function listIpGroups(db: Tx, actor: Actor, projectName: string): Promise<IpGroupView[]> {
  const projectAccess = await access(db, actor, projectName, 'VIEW')
  const rows = await db.storedObject.findMany({ where: { projectId: projectAccess.project.id, type: IP_GROUP }, orderBy: { name: 'asc' } })
  return rows.map(ipGroupView)
}

export async function getIpGroup(db: Tx, actor: Actor, projectName: string, name: string): Promise<IpGroupView> {
  const projectAccess = await access(db, actor, projectName, 'VIEW')
  return ipGroupView(await findIpGroup(db, projectAccess.project.id, name))
}

/** Creates an empty group (vendor: IPs are added afterwards). */
export async function createIpGroup(db: Tx, actor: Actor, projectName: string, raw: unknown): Promise<IpGroupView> {
  const projectAccess = await access(db, actor, projectName, 'MANAGE')
  const input = parseInput(ipGroupBody, raw)
  const existing = await db.storedObject.findUnique({ where: { projectId_type_kind_name: { projectId: projectAccess.project.id, type: IP_GROUP, kind: '', name: input.name } } })
  if (existing) throw new DomainError('conflict', 'nameAlreadyExists', `An IP Group with same name (${input.name}) already exists in project!`, { field: 'name' })
  const content = { ips: [], ...(input.description ? { description: input.description } : {}) }
  return ipGroupView(await insertStoredObject(db, projectAccess.project.id, { type: IP_GROUP, name: input.name, content }))
}

/**
 * Rewrites a group's content from its current one. The update is conditional on the revision read, so two
 * concurrent changes never lose each other's IPs: the loser reads again (a few times) before giving up.
 */
async function changeIpGroup(db: Tx, projectId: string, name: string, change: (row: StoredObject) => IpGroupContent): Promise<IpGroupView> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await findIpGroup(db, projectId, name)
    const content = change(row)
    const { count } = await db.storedObject.updateMany({ where: { id: row.id, revision: row.revision }, data: { content: content as object, revision: { increment: 1 } } })
    if (count === 1) return ipGroupView(await findIpGroup(db, projectId, name))
  }
  throw new DomainError('conflict', 'concurrentModification', `IP Group (${name}) is being changed concurrently; try again`, { ipGroup: name })
}

/** Only the description changes; the body's name must be the path's (it is the identifier). */
export async function updateIpGroup(db: Tx, actor: Actor, projectName: string, name: string, raw: unknown): Promise<IpGroupView> {
  const projectAccess = await access(db, actor, projectName, 'MANAGE')
  const input = parseInput(ipGroupBody, raw)
  if (input.name !== name) {
    throw new DomainError('validation', 'malformedRequest', `IP Group name in body (${input.name}) does not match the name in path (${name}); the name cannot be changed`, { field: 'name' })
  }
  return changeIpGroup(db, projectAccess.project.id, name, (row) => {
    const { description: _old, ...rest } = contentOf(row)
    return input.description ? { ...rest, description: input.description } : rest
  })
}

export async function deleteIpGroup(db: Tx, actor: Actor, projectName: string, name: string): Promise<void> {
  const projectAccess = await access(db, actor, projectName, 'MANAGE')
  const { ipGroupName } = parseInput(pathName, { ipGroupName: name })
  const removed = await db.storedObject.deleteMany({ where: { projectId: projectAccess.project.id, type: IP_GROUP, kind: '', name: ipGroupName } })
  if (!removed.count) throw ipGroupNotFound(name)
}

const unique = (ips: string[]) => [...new Set(ips)]

/** Adds IPs to the group's list; ones already there are ignored. */
export async function addIpGroupIps(db: Tx, actor: Actor, projectName: string, name: string, raw: unknown): Promise<IpGroupView> {
  const projectAccess = await access(db, actor, projectName, 'MANAGE')
  const { ipList: ips } = parseInput(nonEmptyIpListBody, raw)
  return changeIpGroup(db, projectAccess.project.id, name, (row) => {
    const merged = unique([...ipsOf(row), ...ips])
    if (merged.length > MAX_IPS_PER_GROUP) throw new DomainError('validation', 'malformedRequest', `ipList: the group would hold more than ${MAX_IPS_PER_GROUP} entries`, { field: 'ipList' })
    return { ...contentOf(row), ips: merged }
  })
}

/** Replaces the group's whole list; an empty list empties the group. */
export async function replaceIpGroupIps(db: Tx, actor: Actor, projectName: string, name: string, raw: unknown): Promise<IpGroupView> {
  const projectAccess = await access(db, actor, projectName, 'MANAGE')
  const { ipList: ips } = parseInput(ipListBody, raw)
  return changeIpGroup(db, projectAccess.project.id, name, (row) => ({ ...contentOf(row), ips: unique(ips) }))
}

/** Removes the listed IPs; ones not in the group are ignored. */
export async function removeIpGroupIps(db: Tx, actor: Actor, projectName: string, name: string, raw: unknown): Promise<IpGroupView> {
  const projectAccess = await access(db, actor, projectName, 'MANAGE')
  const { ipList: ips } = parseInput(nonEmptyIpListBody, raw)
  const removing = new Set(ips)
  return changeIpGroup(db, projectAccess.project.id, name, (row) => ({ ...contentOf(row), ips: ipsOf(row).filter((ip) => !removing.has(ip)) }))
}
