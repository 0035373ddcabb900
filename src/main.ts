import { ConfigError, loadConfig } from './config.js'
import { BootstrapError } from './bootstrap/apply.js'
import { createLogger } from './platform/http/logger.js'
import { startService } from './service.js'

const logger = createLogger(process.env.LOG_LEVEL ?? 'info')

try {
  const config = loadConfig()
  const service = await startService(config, createLogger(config.logLevel))
  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info({ signal }, 'shutting down: draining in-flight requests')
    try {
      await service.stop()
      logger.info('stopped')
      process.exit(0)
    } catch (err) {
      logger.error({ err }, 'unclean shutdown')
      process.exit(1)
    }
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))
} catch (err) {
  const known = err instanceof ConfigError || err instanceof BootstrapError
  logger.fatal(known ? { reason: (err as Error).message } : { err }, known ? `refusing to start: ${(err as Error).message}` : 'start-up failed')
  process.exit(1)
}
