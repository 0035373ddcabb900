import { z } from 'zod'
import type { Prisma } from '../../generated/prisma/client.js'
import type { Actor } from '../../platform/auth/actor.js'
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js'
import { requireSystemAdmin } from '../../platform/auth/require.js'
import type { Deps, Tx } from '../../platform/context.js'
import { DomainError, malformedReason, notFound, permissionDenied } from '../../platform/errors/domain-error.js'
import { parseInput } from '../../platform/errors/validation.js'
import { orderByFor, parsePaging, findPage, type PagingQuery, containsText } from '../../platform/envelopes/paging.js'
import { objectName } from '../../platform/validation/common.js'
import { forgetInitialPassword } from './initial-password.js'

const password = z.string().min(1, 'must not be empty').max(1024)
const tokenLifetimeSeconds = z.number().int().min(1).nullable()

export const createUserInput = z.object({
  username: objectName,
  password,
  role: z.enum(['ADMIN', 'ANALYZER', 'USER']).default('USER'),
  locked: z.boolean().default(false),
  enabled: z.boolean().default(true),
  tokenLifetimeSeconds: tokenLifetimeSeconds.optional(),
})
export type CreateUserInput = z.input<typeof createUserInput>

export const updateUserInput = z.object({
  password: password.optional(),
  role: z.enum(['ADMIN', 'ANALYZER', 'USER']).optional(),
  locked: z.boolean().optional(),
  enabled: z.boolean().optional(),
  tokenLifetimeSeconds: tokenLifetimeSeconds.optional(),
})
export type UpdateUserInput = z.input<typeof updateUserInput>

export const USER_SORT = { defaultSort: 'username,asc', supported: ['username', 'role', 'createdAt'] } as const

const userNotFound = (username: string) => notFound(`User '${username}' not found`, { user: username })

export async function createUser(db: Tx, actor: Actor, raw: CreateUserInput) {
  requireSystemAdmin(actor)
  const input = parseInput(createUserInput, raw)
  if (await db.user.findUnique({ where: { username: input.username } })) {
    throw new DomainError('conflict', 'nameAlreadyExists', `User '${input.username}' already exists`, { field: 'username' })
  }
  const { password: clear, tokenLifetimeSeconds: lifetime, ...rest } = input
  return db.user.create({ data: { ...rest, tokenLifetimeSeconds: lifetime ?? null, passwordHash: await hashPassword(clear) } })
}

/** Locking or disabling takes effect on the user's next call with any token (checked per request). */
export async function updateUser(db: Tx, actor: Actor, username: string, raw: UpdateUserInput, dataDir?: string) {
  requireSystemAdmin(actor)
  const input = parseInput(updateUserInput, raw)
  const user = await db.user.findUnique({ where: { username } })
  if (!user) throw userNotFound(username)
  const { password: clear, ...rest } = input
  const data: Prisma.UserUpdateInput = { ...rest }
  if (clear !== undefined) data.passwordHash = await hashPassword(clear)
  const updated = await db.user.update({ where: { id: user.id }, data })
  if (clear !== undefined) forgetInitialPassword(dataDir, username) // RUNTIME.md §3.1
  return updated
}

export const ownPasswordChange = z.object({
  currentPassword: z.string({ error: 'is required' }).min(1, 'must not be empty').max(1024),
  newPassword: password,
})
export type OwnPasswordChange = z.input<typeof ownPasswordChange>

/**
 * Any signed-in user replaces its own password, proving the current one: a token alone (a session left open) is
 * not enough. A wrong current password is a 400 naming the field currentPassword; the first-run admin's initial
 * password file goes once the password is its own (RUNTIME.md §3.1).
 */
export async function changeOwnPassword(db: Tx, actor: Actor, raw: OwnPasswordChange, dataDir?: string) {
  if (actor.kind !== 'user') throw permissionDenied('Only a signed-in user has a password to change')
  const input = parseInput(ownPasswordChange, raw)
  const user = await db.user.findUnique({ where: { id: actor.userId } })
  if (!user || !(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw malformedReason('wrongCurrentPassword', 'currentPassword: is not your current password', { field: 'currentPassword' })
  }
  if (input.newPassword === input.currentPassword) {
    throw malformedReason('passwordUnchanged', 'newPassword: must differ from the current password', { field: 'newPassword' })
  }
  const updated = await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(input.newPassword) } })
  forgetInitialPassword(dataDir, user.username)
  return updated
}

export async function deleteUser(db: Tx, actor: Actor, username: string): Promise<boolean> {
  requireSystemAdmin(actor)
  if (actor.kind === 'user' && actor.username === username) {
    throw new DomainError('validation', 'malformedRequest', 'You cannot delete your own user', { field: 'username' })
  }
  const removed = await db.user.deleteMany({ where: { username } })
  if (!removed.count) throw userNotFound(username)
  return true
}

export async function getUser(db: Tx, actor: Actor, username: string) {
  if (actor.kind === 'user' && actor.username !== username) requireSystemAdmin(actor)
  const user = await db.user.findUnique({ where: { username } })
  if (!user) throw userNotFound(username)
  return user
}

export async function listUsers(deps: Deps, actor: Actor, query: PagingQuery & { search?: string | null }) {
  requireSystemAdmin(actor)
  const page = parsePaging(query, USER_SORT)
  const where: Prisma.UserWhereInput = query.search ? { username: containsText(query.search) } : {}
  return findPage(
    page,
    deps.prisma.user.findMany({ where, orderBy: orderByFor(page, 'username'), skip: page.skip, take: page.take }),
    deps.prisma.user.count({ where }),
  )
}
