import crypto from 'node:crypto'
import type { NextFunction, Request, Response } from 'express'
import type { Logger } from './logger.js'
import type { Metrics } from './metrics.js'

const CORRELATION_HEADER = 'x-correlation-id'
const acceptableId = /^[A-Za-z0-9._:-]{1,128}$/

export const correlationOf = (res: Response): string => res.locals.correlationId as string
export const loggerOf = (res: Response): Logger => res.locals.logger as Logger

/**
 * Gives every request a correlation id (the caller's, when it sent a sane one), a child logger that carries
 * it, one access log line, and the request metrics by route template.
 */
export function requestContext(logger: Logger, metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction) => {
    const sent = req.headers[CORRELATION_HEADER]
    const correlationId = typeof sent === 'string' && acceptableId.test(sent) ? sent : crypto.randomUUID()
    res.locals.correlationId = correlationId
    res.locals.logger = logger.child({ correlationId })
    res.setHeader('X-Correlation-Id', correlationId)
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const route = (res.locals.routeTemplate as string | undefined) ?? 'unmatched'
      const labels = { method: req.method, route, status: String(res.statusCode) }
      metrics.httpRequests.inc(labels)
      metrics.httpDuration.observe(labels, seconds)
      loggerOf(res).info(
        { method: req.method, path: req.path, route, status: res.statusCode, durationMs: Math.round(seconds * 1000), user: res.locals.username },
        'request',
      )
    })
    next()
  }
}
