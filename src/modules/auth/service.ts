import type { TokenAudience } from '../../generated/prisma/enums.js'
import type { Actor } from '../../platform/auth/actor.js'
import { decoyHash, verifyPassword } from '../../platform/auth/passwords.js'
import { clearUserFailures, isThrottled, recordFailure } from '../../platform/auth/throttle.js'
import { hashToken, issueToken, type IssuedToken } from '../../platform/auth/tokens.js'
import type { Deps } from '../../platform/context.js'
import { DomainError, notFound } from '../../platform/errors/domain-error.js'
import { z } from 'zod'
import { parseInput } from '../../platform/errors/validation.js'

/** The one refusal for every bad sign-in: unknown user, wrong password, locked, disabled or throttled. */
export const badCredentials = () =>
  new DomainError('unauthenticated', 'unauthorized_client', 'Client authentication failed')

export interface SignInRequest { username: string; password: string; clientAddress: string }
export interface SignedIn { token: IssuedToken; lifetimeSeconds: number | null }

/**
 * Checks a user name and password. Every failure costs one password hash (a decoy for unknown users)
 * and ends in the same error, so neither timing nor the answer tells the causes apart; the real
 * cause goes to the log only.
 */
export async function signIn(deps: Deps, request: SignInRequest, audience: TokenAudience, tokenName?: string): Promise<SignedIn> {
  const { prisma, config, logger } = deps
  const { username, password, clientAddress } = request
  const throttled = await isThrottled(prisma, config.authThrottle, username, clientAddress)
  const user = await prisma.user.findUnique({ where: { username } })
  const passwordOk = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()))
  const refusal = throttled ? 'throttled' : !user ? 'unknownUser' : !passwordOk ? 'wrongPassword' : user.locked ? 'locked' : !user.enabled ? 'disabled' : null
  if (refusal || !user) {
    await recordFailure(prisma, config.authThrottle, username, clientAddress)
    logger.info({ username, clientAddress, reason: refusal }, 'sign-in refused')
    throw badCredentials()
  }
  await clearUserFailures(prisma, username)
  const token = await issueToken(prisma, user, audience, tokenName)
  return { token, lifetimeSeconds: user.tokenLifetimeSeconds }
}

const tokenRequestSchema = z.object({
  grant_type: z.string().optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
})

/** POST /apiops/auth/token (spec §4.1, §7.2): client_credentials with the user's name and password. */
export async function issueAccessToken(deps: Deps, form: unknown, clientAddress: string) {
  const input = parseInput(tokenRequestSchema, form ?? {})
  if (input.grant_type !== 'client_credentials') {
    throw new DomainError('validation', 'unsupported_grant_type', 'grant_type must be client_credentials')
  }
  if (!input.client_id || !input.client_secret) throw badCredentials()
  const { token, lifetimeSeconds } = await signIn(deps, { username: input.client_id, password: input.client_secret, clientAddress }, 'PERSONAL')
  return {
    access_token: token.value,
    token_type: 'Bearer',
    ...(lifetimeSeconds == null ? {} : { expires_in: lifetimeSeconds }),
  }
}

/** Who is calling, for consoles on the manager surface (/api/session). */
export async function describeSession(deps: Deps, actor: Actor) {
  if (actor.kind !== 'user') throw new DomainError('validation', 'malformedRequest', 'Only a signed-in user has a session')
  const token = await deps.prisma.accessToken.findUniqueOrThrow({ where: { id: actor.tokenId } })
  return { username: actor.username, role: actor.role, audience: actor.audience, expiresAt: token.expiresAt?.toISOString() ?? null }
}

// --- the caller's own tokens -------------------------------------------------------------------

function viewerId(actor: Actor): string {
  if (actor.kind !== 'user') throw new DomainError('validation', 'malformedRequest', 'Only a signed-in user has tokens')
  return actor.userId
}

export async function listOwnTokens(deps: Deps, actor: Actor) {
  return deps.prisma.accessToken.findMany({
    where: { userId: viewerId(actor) },
    orderBy: [{ createdAt: 'asc' }, { tokenKey: 'asc' }],
  })
}

export async function createOwnToken(deps: Deps, actor: Actor, name: string | null) {
  const user = await deps.prisma.user.findUniqueOrThrow({ where: { id: viewerId(actor) } })
  return issueToken(deps.prisma, user, 'PERSONAL', name)
}

/** Revocation by value removes every stored copy; a value that is not the caller's is simply not found. */
export async function revokeTokenByValue(deps: Deps, actor: Actor, value: string): Promise<boolean> {
  const removed = await deps.prisma.accessToken.deleteMany({ where: { tokenHash: hashToken(value), userId: viewerId(actor) } })
  if (removed.count === 0) throw notFound('Token not found', { reason: 'tokenNotFound' })
  return true
}

export async function revokeTokenByKey(deps: Deps, actor: Actor, tokenKey: string): Promise<boolean> {
  const removed = await deps.prisma.accessToken.deleteMany({ where: { tokenKey, userId: viewerId(actor) } })
  if (removed.count === 0) throw notFound(`Token '${tokenKey}' not found`, { reason: 'tokenNotFound' })
  return true
}

/** A new value for the same named token: it works from its first call and the old value stops at once. */
export async function regenerateToken(deps: Deps, actor: Actor, tokenKey: string): Promise<IssuedToken> {
  const userId = viewerId(actor)
  return deps.prisma.$transaction(async (tx) => {
    const old = await tx.accessToken.findFirst({ where: { tokenKey, userId }, include: { user: true } })
    if (!old) throw notFound(`Token '${tokenKey}' not found`, { reason: 'tokenNotFound' })
    await tx.accessToken.delete({ where: { id: old.id } })
    return issueToken(tx, old.user, old.audience, old.name)
  })
}
