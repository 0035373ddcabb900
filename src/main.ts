import { ConfigError, loadConfig } from './config.js'
import { BootstrapError } from './bootstrap/apply.js'
import { createLogger } from './platform/http/logger.js'
import { DRAIN_GRACE_MS } from './platform/http/drain.js'
import { startService } from './service.js'

const logger = createLogger(process.env.LOG_LEVEL ?? 'info')

type RunningService = Awaited<ReturnType<typeof startService>>
let service: RunningService | undefined
let stopRequested: string | undefined
let startUpDeadline: NodeJS.Timeout | undefined

async function stop(running: RunningService, signal: string) {
  logger.info({ signal }, 'shutting down: draining in-flight requests')
  try {
    await running.stop()
    logger.info('stopped')
    process.exit(0)
  } catch (err) {
    logger.error({ err }, 'unclean shutdown')
    process.exit(1)
  }
}

// Installed before start-up, not after it: a signal that came between the `listening on` line and the handlers
// killed the process by the signal's default action (seen once under load, right after the line was read). A
// signal during start-up lets start-up finish (migrations and the bootstrap are not cut halfway), then drains; a
// start-up still waiting after the drain window (a database that does not answer, another instance's migration
// lock) is given up, as a drain cuts what is left.
function onSignal(signal: string) {
  if (stopRequested) return
  stopRequested = signal
  if (service) return void stop(service, signal)
  logger.info({ signal }, 'signal during start-up: stopping once started')
  startUpDeadline = setTimeout(() => {
    logger.warn({ signal, graceMs: DRAIN_GRACE_MS }, 'start-up did not finish within the drain window after the signal: exiting')
    process.exit(1)
  }, DRAIN_GRACE_MS).unref()
}
process.on('SIGTERM', () => onSignal('SIGTERM'))
process.on('SIGINT', () => onSignal('SIGINT'))

try {
  const config = loadConfig()
  service = await startService(config, createLogger(config.logLevel))
  clearTimeout(startUpDeadline)
  if (stopRequested) void stop(service, stopRequested)
} catch (err) {
  const known = err instanceof ConfigError || err instanceof BootstrapError
  logger.fatal(known ? { reason: (err as Error).message } : { err }, known ? `refusing to start: ${(err as Error).message}` : 'start-up failed')
  process.exit(1)
}
