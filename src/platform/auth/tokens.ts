import crypto from 'node:crypto'
import type { TokenAudience } from '../../generated/prisma/enums.js'
import type { Tx } from '../context.js'
import { unauthenticated } from '../errors/domain-error.js'
import type { Actor } from './actor.js'

export type Surface = 'apiops' | 'api' | 'graphql'

const TOKEN_PREFIX = 'gmt_'

export const hashToken = (value: string) => crypto.createHash('sha256').update(value).digest('hex')
const randomKey = (bytes: number) => crypto.randomBytes(bytes).toString('base64url')

export interface IssuedToken { value: string; tokenKey: string; expiresAt: Date | null }

/** A new random token; only its hash is stored, the value is returned once. */
export async function issueToken(
  db: Tx,
  user: { id: string; tokenLifetimeSeconds: number | null },
  audience: TokenAudience,
  name?: string | null,
): Promise<IssuedToken> {
  const value = TOKEN_PREFIX + randomKey(32)
  const tokenKey = 'tok_' + randomKey(12)
  const expiresAt = user.tokenLifetimeSeconds == null ? null : new Date(Date.now() + user.tokenLifetimeSeconds * 1000)
  await db.accessToken.create({
    data: { tokenKey, tokenHash: hashToken(value), userId: user.id, audience, name: name ?? null, expiresAt },
  })
  return { value, tokenKey, expiresAt }
}

/** Bearer in Authorization, or the service-token header (spec §5.2). */
export function presentedToken(headers: Record<string, string | string[] | undefined>): string | undefined {
  const auth = headers.authorization
  if (typeof auth === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth)
    if (match) return match[1]
  }
  const serviceToken = headers['service-token']
  return typeof serviceToken === 'string' && serviceToken.trim() ? serviceToken.trim() : undefined
}

// One message for every token that is not good now, so a caller cannot tell revoked from locked from unknown.
export const INVALID_TOKEN = 'Invalid token'
export const MISSING_TOKEN = 'Empty key: no token was presented'
export const EXPIRED_TOKEN = 'Token has expired'

const LAST_USED_GRANULARITY_MS = 60_000

/**
 * Judges a request by the token it presents, on every call: account locked or disabled, revoked,
 * expired, or a console token on /apiops all stop it here.
 */
export async function authenticate(db: Tx, value: string | undefined, surface: Surface): Promise<Actor> {
  if (!value) throw unauthenticated(MISSING_TOKEN)
  const token = await db.accessToken.findUnique({ where: { tokenHash: hashToken(value) }, include: { user: true } })
  if (!token || token.user.locked || !token.user.enabled) throw unauthenticated(INVALID_TOKEN)
  if (token.audience === 'CONSOLE' && surface === 'apiops') throw unauthenticated(INVALID_TOKEN)
  if (token.expiresAt && token.expiresAt.getTime() <= Date.now()) throw unauthenticated(EXPIRED_TOKEN)
  if (!token.lastUsedAt || Date.now() - token.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await db.accessToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date() } })
  }
  return {
    kind: 'user',
    userId: token.userId,
    username: token.user.username,
    role: token.user.role,
    tokenId: token.id,
    audience: token.audience,
  }
}
