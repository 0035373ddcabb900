import pino from 'pino'

export type Logger = pino.Logger

/**
 * Structured JSON on stdout; secrets are redacted wherever they might slip into a log object.
 * Writes are synchronous so the last lines before an exit (shutdown, refused start-up) are never lost.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'gateway-management-api' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: ['password', '*.password', 'client_secret', '*.client_secret', 'authorization', '*.authorization',
        'headers.authorization', 'headers["service-token"]', 'token', '*.token'],
      censor: '[redacted]',
    },
  }, pino.destination({ dest: 1, sync: true }))
}
