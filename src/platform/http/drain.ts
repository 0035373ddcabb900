import type http from 'node:http'
import type { NextFunction, Request, Response } from 'express'

/**
 * Keep-alive during a drain: every answer given once draining began carries `Connection: close` (including those
 * of requests already in flight whose headers are not sent yet), so no client sends another request on a
 * connection that is about to close; new connections are refused by the closed listener.
 */
export function drainAwareness() {
  let draining = false
  const open = new Set<Response>()
  return {
    middleware(_req: Request, res: Response, next: NextFunction) {
      if (draining) res.setHeader('Connection', 'close')
      else {
        open.add(res)
        res.once('close', () => open.delete(res))
        res.once('finish', () => open.delete(res))
      }
      next()
    },
    begin() {
      draining = true
      for (const res of open) if (!res.headersSent) res.setHeader('Connection', 'close')
      open.clear()
    },
  }
}

/** How long a stop waits for what is in flight before it cuts it. */
export const DRAIN_GRACE_MS = 10_000

/**
 * Stops accepting connections and waits for in-flight requests to finish. Idle keep-alive connections are
 * closed as soon as they become idle; whatever is still open after the grace period is cut. The timers
 * are ref'd on purpose: the process must stay alive until the caller has also closed the database.
 */
export function drainHttpServer(server: http.Server, graceMs = DRAIN_GRACE_MS): Promise<void> {
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), 50)
    const hardStop = setTimeout(() => server.closeAllConnections(), graceMs)
    server.close(() => {
      clearInterval(sweep)
      clearTimeout(hardStop)
      resolve()
    })
    server.closeIdleConnections()
  })
}
