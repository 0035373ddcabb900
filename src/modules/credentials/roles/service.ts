import { z } from 'zod'
import type { Actor } from '../../../platform/auth/actor.js'
import type { Tx } from '../../../platform/context.js'
import { DomainError, lifecycleConflict, malformed, notFound } from '../../../platform/errors/domain-error.js'
import { parseInput } from '../../../platform/errors/validation.js'
import { authorizeCredentials } from '../scope.js'
import { objectName } from '../../../platform/validation/common.js'

// Credential roles: a project-level catalogue of names that credentials carry in roleNameList (and that the
// gateway receives in the credential's runtime config). Roles are not deployed by themselves.

export const roleInput = z.object({
  name: objectName,
  description: z.string().max(1000, 'must be at most 1000 characters').nullish(),
})
export type RoleInput = z.input<typeof roleInput>

/** roleNameList of a credential write: names of the project's catalogue, each at most once. */
export const roleNameList = z.array(objectName).max(100, 'must list at most 100 roles')

export const roleNotFound = (name: string) => notFound(`Credential role '${name}' not found`, { role: name })

export async function listCredentialRoles(db: Tx, actor: Actor, projectName: string) {
  const access = await authorizeCredentials(db, actor, projectName, 'VIEW')
  return db.credentialRole.findMany({ where: { projectId: access.project.id }, orderBy: { name: 'asc' } })
}

export async function createCredentialRole(db: Tx, actor: Actor, projectName: string, raw: unknown) {
  const access = await authorizeCredentials(db, actor, projectName, 'MANAGE')
  const input = parseInput(roleInput, raw)
  const projectId = access.project.id
  if (await db.credentialRole.findUnique({ where: { projectId_name: { projectId, name: input.name } } })) {
    throw new DomainError('validation', 'credentialRoleExists', `Credential role '${input.name}' already exists`, { field: 'name', role: input.name })
  }
  return db.credentialRole.create({ data: { projectId, name: input.name, description: input.description ?? null } })
}

/** A role held by a credential stays: the credentials would silently change on the gateway otherwise. */
export async function deleteCredentialRole(db: Tx, actor: Actor, projectName: string, name: string) {
  const access = await authorizeCredentials(db, actor, projectName, 'MANAGE')
  const role = name.includes('\u0000') ? null : await db.credentialRole.findUnique({ where: { projectId_name: { projectId: access.project.id, name } } })
  if (!role) throw roleNotFound(name)
  const holders = await db.credentialRoleGrant.count({ where: { roleId: role.id } })
  if (holders) throw lifecycleConflict('credentialRole.inUse', `Credential role '${name}' is held by ${holders} credential(s)`, { role: name, credentialCount: holders })
  await db.credentialRole.delete({ where: { id: role.id } })
  return role
}

/** The ids of the named roles of the project, in one query; the first unknown name is a 400 naming it. */
export async function resolveRoleIds(db: Tx, projectId: string, names: readonly string[]): Promise<string[]> {
  const unique = [...new Set(names)]
  if (unique.length !== names.length) {
    const twice = names.find((n, i) => names.indexOf(n) !== i)
    throw malformed(`roleNameList: role '${twice}' is listed twice`, { field: 'roleNameList', role: twice })
  }
  if (!unique.length) return []
  const rows = await db.credentialRole.findMany({ where: { projectId, name: { in: unique } }, select: { id: true, name: true } })
  const missing = unique.find((n) => !rows.some((r) => r.name === n))
  if (missing) throw malformed(`roleNameList: unknown role '${missing}'`, { field: 'roleNameList', role: missing })
  return rows.map((r) => r.id)
}

/** Replaces the roles a credential holds (inside the write's transaction). */
export async function replaceCredentialRoles(db: Tx, credentialId: string, roleIds: string[]): Promise<void> {
  await db.credentialRoleGrant.deleteMany({ where: { credentialId } })
  if (roleIds.length) await db.credentialRoleGrant.createMany({ data: roleIds.map((roleId) => ({ credentialId, roleId })) })
}
