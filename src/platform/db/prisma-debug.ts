import { Debug } from '@prisma/client/runtime/client'

/** The number of debug calls whose arguments Prisma's runtime keeps (`MAX_ARGS_HISTORY` of @prisma/debug). */
const PRISMA_DEBUG_HISTORY = 100

/**
 * Prisma's debug module keeps the arguments of its last 100 debug calls for its error reports, with DEBUG off too,
 * and among them are the statements of a bulk write (a large bootstrap file: one JSON parameter of 300 KB per 1,000
 * credentials, 1.4 MB per 5,000 audit events): ≈ 8 MB of heap after 50,000 credentials, until ordinary traffic
 * pushes them out. 100 calls of a logger of our own push them out now; nothing is printed unless DEBUG names
 * `gateway:released`.
 */
export function releasePrismaDebugHistory(): void {
  const note = Debug('gateway:released')
  for (let i = 0; i < PRISMA_DEBUG_HISTORY; i++) note('-')
}
