/**
 * Whether an error means the database could not be reached or dropped the connection, as opposed to refusing
 * the statement. Those are outages: the client is told 503 with Retry-After (the doors' renderers), never 500.
 * Covers what reaches the services through Prisma 7 and its driver adapters:
 * - Prisma codes: P1001 unreachable, P1002 timed out, P1008 socket timeout, P1017 connection closed,
 *   P2024 pool timeout, P2037 too many connections (meta.driverAdapterError holds the adapter's error);
 * - the adapter's error kinds (DatabaseNotReachable, ConnectionClosed, SocketTimeout, TooManyConnections);
 * - PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01–57P03 (server shutting down, crashed,
 *   starting up), 53300 (too many connections);
 * - socket errors and node-postgres's own messages ("Connection terminated unexpectedly"…) that pg throws
 *   without a SQLSTATE, and PGlite's "closed" error.
 */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037'])
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections'])
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])
const MESSAGES = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Can't reach database server|Server has closed the connection|PGlite is closed|terminating connection due to administrator command|the database system is (?:starting up|shutting down|in recovery mode)/i

const isOutageSqlState = (code: unknown) =>
  typeof code === 'string' && (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')

export function isDatabaseOutage(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false
  const e = err as { code?: unknown; kind?: unknown; originalCode?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } }
  if (typeof e.code === 'string' && (PRISMA_CODES.has(e.code) || SOCKET_CODES.has(e.code) || isOutageSqlState(e.code))) return true
  if (typeof e.kind === 'string' && (ADAPTER_KINDS.has(e.kind) || (e.kind === 'postgres' && isOutageSqlState(e.code)))) return true
  if (isOutageSqlState(e.originalCode)) return true
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true
  return isDatabaseOutage(e.meta?.driverAdapterError, depth + 1) || isDatabaseOutage(e.cause, depth + 1)
}

/**
 * Runs a bookkeeping write that must not be lost to an outage (an Idempotency-Key claim released or completed):
 * now, or, when the database is unreachable, again every half second in the background until it goes through,
 * fails for another reason, or `giveUpMs` passes.
 */
export async function settleWhenReachable(task: () => Promise<unknown>, giveUpMs = 300_000): Promise<void> {
  try {
    await task()
  } catch (err) {
    if (!isDatabaseOutage(err)) throw err
    const until = Date.now() + giveUpMs
    const again = () => {
      task().catch((e) => {
        if (isDatabaseOutage(e) && Date.now() < until) setTimeout(again, 500).unref()
      })
    }
    setTimeout(again, 500).unref()
  }
}
