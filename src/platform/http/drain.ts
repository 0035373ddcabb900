import type http from 'node:http'

/**
 * Stops accepting connections and waits for in-flight requests to finish. Idle keep-alive connections are
 * closed as soon as they become idle; whatever is still open after the grace period is cut. The timers
 * are ref'd on purpose: the process must stay alive until the caller has also closed the database.
 */
export function drainHttpServer(server: http.Server, graceMs = 10_000): Promise<void> {
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
