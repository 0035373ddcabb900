import { Debug } from '@prisma/client/runtime/client'

/** The number of debug calls whose arguments Prisma's runtime keeps (`MAX_ARGS_HISTORY` of @prisma/debug). */
const PRISMA_DEBUG_HISTORY = 100

/**
 * Prisma's debug module keeps the arguments of its last 100 debug calls for its error reports, with DEBUG off too,
 * and the query plans it logs carry a raw statement's parameters. After a bulk write (a large bootstrap file: one
 * JSON parameter of 300 KB per 1,000 credentials, 1.4 MB per 5,000 audit events) that history alone held ≈ 90 MB of
 * the heap until ordinary traffic pushed it out. 100 calls of a logger of our own push it out now; nothing is
 * printed unless DEBUG names `gateway:released`.
 */
export function releasePrismaDebugHistory(): void {
  const note = Debug('gateway:released')
  for (let i = 0; i < PRISMA_DEBUG_HISTORY; i++) note('-')
}
