import crypto from 'node:crypto'
import type { TokenAudience, UserRole } from '../../generated/prisma/enums.js'
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

/** The project a request names, read with its token (see authenticateRequest): null when no such project. */
export interface PrefetchedProject {
  name: string
  userId: string
  project: { id: string; name: string } | null
  /** the caller's `CATEGORY:LEVEL` grants in the project; null when not a member */
  grants: string[] | null
}

interface TokenRow {
  id: string
  userId: string
  audience: TokenAudience
  expiresAt: Date | string | null
  lastUsedAt: Date | string | null
  username: string
  role: UserRole
  locked: boolean
  enabled: boolean
  projectId: string | null
  projectName: string | null
  membershipId: string | null
  grants: string[] | null
}

const asDate = (v: Date | string | null): Date | null => (v == null ? null : v instanceof Date ? v : new Date(v))

/**
 * The token, its user and, when the request names a project, that project and the user's grants in it: one
 * statement, one round trip, read fresh on every request (nothing is kept between requests).
 */
async function readToken(db: Tx, value: string, projectName: string | undefined): Promise<TokenRow | undefined> {
  const hash = hashToken(value)
  if (projectName === undefined) {
    const rows = await db.$queryRaw<TokenRow[]>`
      SELECT t.id, t."userId", t.audience::text AS audience, t."expiresAt", t."lastUsedAt",
             u.username, u.role::text AS role, u.locked, u.enabled,
             NULL::text AS "projectId", NULL::text AS "projectName", NULL::text AS "membershipId", NULL::text[] AS grants
        FROM "AccessToken" t JOIN "User" u ON u.id = t."userId"
       WHERE t."tokenHash" = ${hash}`
    return rows[0]
  }
  const rows = await db.$queryRaw<TokenRow[]>`
    SELECT t.id, t."userId", t.audience::text AS audience, t."expiresAt", t."lastUsedAt",
           u.username, u.role::text AS role, u.locked, u.enabled,
           p.id AS "projectId", p.name AS "projectName", m.id AS "membershipId",
           CASE WHEN m.id IS NULL THEN NULL ELSE
             ARRAY(SELECT g.category || ':' || g.level FROM "PermissionGrant" g WHERE g."membershipId" = m.id) END AS grants
      FROM "AccessToken" t JOIN "User" u ON u.id = t."userId"
      LEFT JOIN "Project" p ON p.name = ${projectName}
      LEFT JOIN "Membership" m ON m."projectId" = p.id AND m."userId" = u.id
     WHERE t."tokenHash" = ${hash}`
  return rows[0]
}

/**
 * Judges a request by the token it presents, on every call: account locked or disabled, revoked,
 * expired, or a console token on /apiops all stop it here.
 */
export async function authenticate(db: Tx, value: string | undefined, surface: Surface): Promise<Actor> {
  return (await authenticateRequest(db, value, surface)).actor
}

/**
 * authenticate, and with it (same statement) the project the request names, for resolveProjectAccess to use
 * once instead of reading it again. `projectName` must already be a possible project name.
 */
export async function authenticateRequest(
  db: Tx,
  value: string | undefined,
  surface: Surface,
  projectName?: string,
): Promise<{ actor: Actor; project?: PrefetchedProject }> {
  if (!value) throw unauthenticated(MISSING_TOKEN)
  const token = await readToken(db, value, projectName)
  if (!token || token.locked || !token.enabled) throw unauthenticated(INVALID_TOKEN)
  if (token.audience === 'CONSOLE' && surface === 'apiops') throw unauthenticated(INVALID_TOKEN)
  const expiresAt = asDate(token.expiresAt)
  const lastUsedAt = asDate(token.lastUsedAt)
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw unauthenticated(EXPIRED_TOKEN)
  if (!lastUsedAt || Date.now() - lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await db.accessToken.update({ where: { id: token.id }, data: { lastUsedAt: new Date() } })
  }
  const actor: Actor = {
    kind: 'user',
    userId: token.userId,
    username: token.username,
    role: token.role,
    tokenId: token.id,
    audience: token.audience,
  }
  if (projectName === undefined) return { actor }
  return {
    actor,
    project: {
      name: projectName,
      userId: token.userId,
      project: token.projectId ? { id: token.projectId, name: token.projectName! } : null,
      grants: token.membershipId ? (token.grants ?? []) : null,
    },
  }
}
