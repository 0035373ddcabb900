import type { PrismaClient } from '../../generated/prisma/client.js'

/** The number of debug calls whose arguments each copy of Prisma's debug module keeps (`MAX_ARGS_HISTORY`). */
const PRISMA_DEBUG_HISTORY = 100

/**
 * Prisma's debug module keeps the arguments of its last 100 debug calls for its error reports, with DEBUG off too,
 * and among them are the statements of a bulk write (a large bootstrap file: one JSON parameter of 470 KB per 1,000
 * credentials, 1.2 MB per 5,000 audit events). The client's runtime and each driver adapter bundle a copy of that
 * module, each with its own history, and the adapters log every query they run: 100 trivial queries push the bulk
 * statements out of every copy on the query path (a heap snapshot after a 20,000-credential start found 14 MB of
 * them held by the adapter's copy after the client's alone had been emptied).
 */
export async function releasePrismaDebugHistory(prisma: PrismaClient): Promise<void> {
  for (let i = 0; i < PRISMA_DEBUG_HISTORY; i++) await prisma.$queryRaw`SELECT 1`
}
