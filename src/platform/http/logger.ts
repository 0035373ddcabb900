import pino from 'pino'

export type Logger = pino.Logger

/** Structured JSON on stdout; secrets are redacted wherever they might slip into a log object. */
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
  })
}
