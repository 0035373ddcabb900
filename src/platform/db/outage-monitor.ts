import type { Logger } from '../http/logger.js'
import { isDatabaseOutage } from './outage.js'

interface Probeable {
  $queryRawUnsafe(sql: string): Promise<unknown>
}

/**
 * What this process knows about its database's reachability. An outage is logged once when the first request
 * meets it and once when a background probe finds the database again (with how long it lasted and how many
 * answers were 503), never once per request. /healthz asks it too.
 */
export interface OutageMonitor {
  /** a request (or, with answered false, a background poller) met an outage; err is logged only if it opens one */
  report(err: unknown, answered?: boolean): void
  /** false while an outage is known; otherwise probes (at most one probe in flight, a good one holds for 1 s) */
  reachable(): Promise<boolean>
  stop(): void
}

const PROBE_TIMEOUT_MS = 2000
const PROBE_INTERVAL_MS = 250
const GOOD_FOR_MS = 1000
/**
 * A restart ends the pool's connections while the server comes back: a request can meet one of them just after a
 * probe found the server again. Within this time after a recovery such a failure continues the same outage, and
 * the recovery is logged only once it has held this long.
 */
const SETTLE_MS = 1500

const monitors = new WeakMap<object, OutageMonitor>()

/** One monitor per database client (tests run several services in one process). */
export function outageMonitor(deps: { prisma: Probeable; logger: Logger }): OutageMonitor {
  let monitor = monitors.get(deps.prisma)
  if (!monitor) {
    monitor = createMonitor(deps.prisma, deps.logger)
    monitors.set(deps.prisma, monitor)
  }
  return monitor
}

function createMonitor(prisma: Probeable, logger: Logger): OutageMonitor {
  let downSince: number | null = null
  let refused = 0
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  let goodUntil = 0
  let inFlight: Promise<boolean> | null = null
  /** a recovery not yet logged: the outage it ends, continued if a failure comes before it settles */
  let settling: { timer: NodeJS.Timeout; since: number; refused: number; outageMs: number } | null = null

  const probeOnce = (): Promise<boolean> => {
    inFlight ??= new Promise<boolean>((resolve) => {
      const timeout = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS)
      timeout.unref()
      prisma.$queryRawUnsafe('SELECT 1').then(
        () => resolve(true),
        (err) => {
          if (!isDatabaseOutage(err)) logger.warn({ err }, 'database probe failed')
          resolve(false)
        },
      ).finally(() => clearTimeout(timeout))
    }).then((ok) => {
      inFlight = null
      if (ok) goodUntil = Date.now() + GOOD_FOR_MS
      return ok
    })
    return inFlight
  }

  const watch = () => {
    if (stopped) return
    timer = setTimeout(async () => {
      if (await probeOnce()) {
        const ended = { since: downSince ?? Date.now(), refused, outageMs: Date.now() - (downSince ?? Date.now()) }
        downSince = null
        refused = 0
        const timer = setTimeout(() => {
          settling = null
          logger.warn({ outageMs: ended.outageMs, unavailableAnswers: ended.refused }, 'database reachable again')
        }, SETTLE_MS)
        timer.unref()
        settling = { timer, ...ended }
      } else watch()
    }, PROBE_INTERVAL_MS)
    timer.unref()
  }

  const report = (err: unknown, answered = true) => {
    if (answered) refused++
    if (downSince !== null) return
    goodUntil = 0
    if (settling) {
      // the same outage, met on a connection the restart ended: continued, not logged again
      clearTimeout(settling.timer)
      downSince = settling.since
      refused += settling.refused
      settling = null
      watch()
      return
    }
    downSince = Date.now()
    const e = err as { code?: unknown; message?: unknown }
    logger.error({ code: e?.code, reason: typeof e?.message === 'string' ? e.message.slice(0, 300) : undefined }, 'database unreachable: answering 503 until it is back')
    watch()
  }

  return {
    report,
    async reachable() {
      if (downSince !== null) return false
      if (Date.now() < goodUntil) return true
      const ok = await probeOnce()
      if (!ok && downSince === null) report(new Error('health probe found the database unreachable'))
      return ok
    },
    stop() {
      stopped = true
      clearTimeout(timer)
      if (settling) {
        clearTimeout(settling.timer)
        logger.warn({ outageMs: settling.outageMs, unavailableAnswers: settling.refused }, 'database reachable again')
        settling = null
      }
    },
  }
}
