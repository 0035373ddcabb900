import type { TokenAudience, UserRole } from '../../generated/prisma/enums.js'

/** Who is calling: a signed-in user, or the installation itself (bootstrap, background work). */
export type Actor =
  | { kind: 'user'; userId: string; username: string; role: UserRole; tokenId: string; audience: TokenAudience }
  | { kind: 'system' }

export const SYSTEM: Actor = { kind: 'system' }

export const isSystemAdmin = (actor: Actor) => actor.kind === 'system' || actor.role === 'ADMIN'

/** The read-only analyzer role: VIEW in every project, reports, no write anywhere (issue 17 §5). */
export const isAnalyzer = (actor: Actor) => actor.kind === 'user' && actor.role === 'ANALYZER'

export const actorName = (actor: Actor) => (actor.kind === 'system' ? 'system' : actor.username)
