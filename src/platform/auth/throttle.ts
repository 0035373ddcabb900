import type { Tx } from '../context.js'

export interface ThrottlePolicy { maxFailuresPerUser: number; maxFailuresPerAddress: number; windowSeconds: number }

export const userKey = (username: string) => `user:${username.toLowerCase()}`
export const addressKey = (address: string) => `addr:${address}`

/**
 * Counts failed sign-ins per user name and per client address in the database, so that every instance
 * sees the same counts. A throttled attempt is refused with the same 401 as a wrong password.
 */
export async function isThrottled(db: Tx, policy: ThrottlePolicy, username: string, address: string): Promise<boolean> {
  const since = new Date(Date.now() - policy.windowSeconds * 1000)
  const rows = await db.authThrottle.findMany({
    where: { key: { in: [userKey(username), addressKey(address)] }, windowStartsAt: { gt: since } },
  })
  return rows.some((r) =>
    r.key.startsWith('user:') ? r.failures >= policy.maxFailuresPerUser : r.failures >= policy.maxFailuresPerAddress,
  )
}

export async function recordFailure(db: Tx, policy: ThrottlePolicy, username: string, address: string): Promise<void> {
  const now = new Date()
  const windowStart = new Date(now.getTime() - policy.windowSeconds * 1000)
  for (const key of [userKey(username), addressKey(address)]) {
    // One statement per key: concurrent failures on two instances both count.
    await db.$executeRaw`
      INSERT INTO "AuthThrottle" ("key", "failures", "windowStartsAt") VALUES (${key}, 1, ${now})
      ON CONFLICT ("key") DO UPDATE SET
        "failures" = CASE WHEN "AuthThrottle"."windowStartsAt" <= ${windowStart} THEN 1 ELSE "AuthThrottle"."failures" + 1 END,
        "windowStartsAt" = CASE WHEN "AuthThrottle"."windowStartsAt" <= ${windowStart} THEN ${now} ELSE "AuthThrottle"."windowStartsAt" END`
  }
}

export async function clearUserFailures(db: Tx, username: string): Promise<void> {
  await db.authThrottle.deleteMany({ where: { key: userKey(username) } })
}
