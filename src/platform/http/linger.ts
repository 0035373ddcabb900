import type { Socket } from 'node:net'
import type { NextFunction, Request, Response } from 'express'
import { REQUEST_LIMITS } from './input-guards.js'

/** Whether the request announced a body that has not been fully received yet. */
const bodyStillArriving = (req: Request): boolean =>
  !req.complete && (req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0)

/**
 * Every answer given while its request body is still arriving (a refusal over a size limit, a 401 before
 * the body was read, a GraphQL upload refused mid-file) closes the connection gracefully: the answer carries
 * `Connection: close`, nothing parses the body any more, and the rest of it is read and thrown away (a
 * lingering close) until the client has sent it all, or REQUEST_LIMITS.lingerBytes / lingerMs are reached.
 * Closing at once instead would reset the connection while the client still sends, and a client that
 * writes its whole body before reading would never see the answer.
 */
export function closeAfterEarlyAnswer() {
  return (req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead as (...args: unknown[]) => Response
    res.writeHead = function (this: Response, ...args: unknown[]) {
      if (!res.headersSent && bodyStillArriving(req)) lingeringClose(req, res)
      return writeHead.apply(this, args)
    } as Response['writeHead']
    next()
  }
}

/** The body is discarded from now on, and the socket closes once both the answer and the body are through. */
function lingeringClose(req: Request, res: Response): void {
  res.setHeader('Connection', 'close')
  const socket = req.socket as Socket & { destroySoon?: () => void }
  const destroySoon = socket.destroySoon?.bind(socket) ?? (() => socket.end())
  const cut = () => socket.destroy()
  const timer = setTimeout(cut, REQUEST_LIMITS.lingerMs)
  timer.unref()
  let discarded = 0
  let answered = false
  let received = false
  const closeWhenThrough = () => {
    if (!answered || !received) return
    clearTimeout(timer)
    destroySoon()
  }
  // Node ends a `Connection: close` exchange with destroySoon() as soon as the answer is written: wait for the body
  socket.destroySoon = () => {
    answered = true
    closeWhenThrough()
  }
  socket.once('close', () => clearTimeout(timer))
  req.unpipe() // whatever was parsing the body (a multipart reader) gets no more of it
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length
    if (discarded > REQUEST_LIMITS.lingerBytes) cut()
  })
  req.once('end', () => {
    received = true
    closeWhenThrough()
  })
  req.resume()
}
